"""Turn notices outside the game (issue 40; docs/online-notices.md): per player, each
switchable, a message when they are asked to decide and are not at their board — by e-mail
(``email``), Web Push (``push``) and webhook (``webhook``, also one per game) — once per
decision, sent off the game's way (``batching``); the settings' page and API (``routes``)."""

from .batching import TurnNotices
from .routes import mount

__all__ = ["TurnNotices", "mount"]
