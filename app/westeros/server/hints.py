"""The ``hint`` reply for a draft decision: is it legal, and what combat it leads to.

Nothing here is a rule: legality comes from the engine's own checks (``march.problem`` for a
march, ``legality.problem`` for any other decision) and the combat numbers from the engine's
previews (``preview.march_preview``, ``preview.card_preview``), computed on the seat's public
state rebuilt from its own ``player_view`` — never on the game's secrets.

Reply (the ``hint`` field of the ``hint`` message, docs/protocol.md):

- every draft: ``kind`` (``"march"``, ``"house_card"`` or the prompt kind of any other draft),
  ``legal`` (bool) and ``problem`` (null, or the refusal: ``rule``, ``code``, ``message``);
- a legal ``resolve_march`` answering a ``march`` prompt: the march preview's fields
  (``combat``: null, ``"neutral"`` or ``"house"``, with strengths, possible support, Blade and
  ``still_to_come``);
- a legal ``choose`` answering a ``choose_house_card`` prompt: the card preview's fields (one row
  per card the opponent may play in ``against``)."""

from __future__ import annotations

from typing import Any

from westeros.engine import Action, Choose, State, march, player_view, preview
from westeros.engine.flow import decision_for
from westeros.engine.legality import problem
from westeros.engine.public import public_state


def hint(state: State, house: str, action: Action) -> dict[str, Any]:
    """The hint for ``house``'s draft ``action`` (``house`` is pending, or changing its
    commitment: a take-back, 4.1/5.4.3)."""
    prompt = decision_for(state, house)
    assert prompt is not None
    kind = "house_card" if prompt.kind == "choose_house_card" else prompt.kind
    reply: dict[str, Any] = {"kind": kind, "legal": True, "problem": None}
    public = public_state(player_view(state, house), state.rules)
    if prompt.kind == "march" and isinstance(action, march.ResolveMarch):
        declined = tuple((a, h) for a, h in prompt.data.get("declined", ()))
        refusal = march.problem(public, house, action, declined)
        if refusal is None:
            reply.update(preview.march_preview(public, house, action, declined))
    else:
        refusal = problem(state, house, action)
        if refusal is None and prompt.kind == "choose_house_card":
            assert isinstance(action, Choose)
            reply.update(preview.card_preview(public, house, action.option))
    if refusal is not None:
        reply.update(legal=False, problem=refusal.to_json())
    return reply
