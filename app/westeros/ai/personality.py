"""AI personalities (DESIGN §3: registered by plugins through ``register_ai_personalities``).

A personality colours every decision of an AI seat: the baseline weights its own plans and
rollouts use (``aggression``, ``caution``, ``ambition``, ``thrift``: ``baseline.Personality``),
how firmly it keeps to its own plan (``conviction``: the search picks another candidate only if
it is better by more than this share of a win chance) and the
weights of its evaluation function — how much it values power (``hoarding``) and the influence
tracks (``ambition``), how much it fears losing castles (``caution``), how much it likes castles
it could take (``aggression``) and whether it singles out the weakest house (``prey``). At the
table (``westeros.ai.deals``) ``diplomacy`` sets how readily it makes and accepts deals and
``scheming`` whether it keeps them: 0 keeps its word always, above 0 it breaks an accepted deal
when breaking shows a gain above ``deals.BREAK_GAIN / scheming``. The bundled plugin
``westeros_ai_personalities`` offers four of them.

Beyond weights, a personality may bring its own decision code (``decisions``): for the prompt
kinds or reasons it names, ``with_own_decisions`` asks that code first, and the seat's AI
decides whatever the code leaves (it returns None)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..engine.actions import Action
from ..engine.content import N_
from .baseline import Personality
from .evaluation import DEFAULT_WEIGHTS, Weights

if TYPE_CHECKING:
    from ..engine.content import Ruleset
    from .protocol import Player


class OwnDecision(Protocol):
    """A personality's own answer to one kind of decision, from the seat's view alone (its
    prompt under ``view["prompt"]``, shape in docs/protocol.md): a legal action, or None to
    let the seat's AI decide. ``rnd`` is seeded per seat, so a game repeats."""

    def __call__(
        self, view: Mapping[str, Any], rules: Ruleset, rnd: random.Random, /
    ) -> Action | None: ...


@dataclasses.dataclass(frozen=True, slots=True)
class AIPersonality:
    """A named playing style; ``id`` is unique among registered personalities."""

    id: str
    name: str
    description: str = ""
    aggression: float = 1.0
    caution: float = 1.0
    ambition: float = 1.0
    hoarding: float = 1.0
    prey: float = 0.0
    thrift: float = 1.0
    conviction: float = 0.0
    diplomacy: float = 1.0
    scheming: float = 0.0
    decisions: Mapping[str, OwnDecision] = dataclasses.field(
        default_factory=dict, compare=False, hash=False
    )
    """{prompt kind or prompt ``reason``: own decision code}: asked before the seat's AI."""

    def own_decision(self, prompt: Mapping[str, Any]) -> OwnDecision | None:
        """The personality's code for ``prompt``: by its kind, else by its data's ``reason``."""
        found = self.decisions.get(str(prompt.get("kind")))
        reason = (prompt.get("data") or {}).get("reason")
        if found is None and isinstance(reason, str):
            found = self.decisions.get(reason)
        return found

    def style(self) -> Personality:
        """The baseline weights of this personality (plans, rollouts, bids)."""
        return Personality(
            self.id, self.name, self.aggression, self.caution, self.ambition, self.thrift
        )

    def weights(self) -> Weights:
        """The evaluation weights of this personality."""
        d = DEFAULT_WEIGHTS
        return dataclasses.replace(
            d,
            power=d.power * self.hoarding,
            tracks=d.tracks * self.ambition,
            danger=d.danger * self.caution,
            reach=d.reach * self.aggression,
            prey=self.prey,
        )


class OwnDecisions:
    """An AI seat whose personality decides some prompts itself: ``decide`` asks the
    personality's code for the prompt first and ``player`` for everything else (and for what
    the code leaves to it). Every other attribute is ``player``'s (deals, reading the table)."""

    def __init__(self, player: Player, personality: AIPersonality, seed: int) -> None:
        self.player = player
        self.personality = personality
        self.name = player.name
        self.rnd = random.Random(f"{seed}/{personality.id}")

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The personality's own action for this prompt, else the seat's AI's."""
        own = self.personality.own_decision(view.get("prompt") or {})
        action = own(view, rules, self.rnd) if own is not None else None
        return action if action is not None else self.player.decide(view, rules, budget)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.player, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in OWN_FIELDS:
            object.__setattr__(self, name, value)
        else:
            setattr(self.player, name, value)


OWN_FIELDS = frozenset({"player", "personality", "name", "rnd"})
"""``OwnDecisions``' own attributes; every other one is set on the wrapped player."""


def with_own_decisions(player: Player, personality: AIPersonality, seed: int) -> Player:
    """``player`` asking ``personality``'s own decision code first, if it brings any (the
    player itself otherwise, so a seat without own decisions plays exactly as before)."""
    return OwnDecisions(player, personality, seed) if personality.decisions else player


BALANCED = AIPersonality("balanced", N_("Balanced"), N_("Weighs every part of the game evenly."))

ANY = "any"
"""The start screen's choice "any personality": one of the registered ones, drawn with the
game's seed (``draw``) and recorded as the seat's personality."""


def offered(registered: Iterable[AIPersonality]) -> dict[str, AIPersonality]:
    """The personalities an AI seat may be given, by id: the balanced default, then the
    registered ones (``LoadedPlugins.ai_personalities``) in registration order."""
    return {BALANCED.id: BALANCED, **{p.id: p for p in registered}}


def draw(registered: Iterable[AIPersonality], seed: int | str, house: str) -> AIPersonality:
    """The personality "any" gives ``house``: a registered one drawn with the game's ``seed``
    (the same seed draws the same), or the balanced default when none is registered."""
    pool = sorted(registered, key=lambda p: p.id)
    return random.Random(f"{seed}/{house}").choice(pool) if pool else BALANCED


def resolve(recorded: str, known: Mapping[str, AIPersonality]) -> AIPersonality:
    """The personality a seat recorded (``SeatSpec.personality``); an empty record (games
    stored before seats had one) or one no longer registered plays the balanced default."""
    return known.get(recorded or BALANCED.id, BALANCED)
