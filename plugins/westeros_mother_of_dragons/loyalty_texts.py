"""Log texts of loyalty tokens and Westeros deck IV (RULES.md 11.6, 11.11, 11.4.4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros.engine.content import N_, EventText, Words

from .westeros_deck_iv import DESTROY_DRAGON, RETURN_DRAGON


def loyalty_placed(w: Words, e: Mapping[str, Any]) -> str:
    """A loyalty token is put on an area (11.6.1, 11.11.2)."""
    return w._("A loyalty token is placed on {area} ({card}).").format(
        area=w.area(e["area"]), card=w.card(e["reason"])
    )


def loyalty_exhausted(w: Words, e: Mapping[str, Any]) -> str:
    """All 20 loyalty tokens are out: a placement fails (11.6.1)."""
    return w._("No loyalty token is left to place on {area}.").format(area=w.area(e["area"]))


def loyalty_collected(w: Words, e: Mapping[str, Any]) -> str:
    """Targaryen collects loyalty tokens (11.6.3); the total follows as a label, so no count
    meets a noun outside ``ngettext``."""
    return w.ngettext(
        "{house} collects {n} loyalty token in {areas} (loyalty points: {points}).",
        "{house} collects {n} loyalty tokens in {areas} (loyalty points: {points}).",
        e["gained"],
    ).format(
        house=w.house(e["house"]),
        n=e["gained"],
        areas=w.join(w.area(a) for a in e["areas"]),
        points=e["points"],
    )


def loyalty_moved(w: Words, e: Mapping[str, Any]) -> str:
    """A loyalty token moves to an adjacent area (Scattering Dissent, Word Spreads Quickly)."""
    return w._("A loyalty token moves from {source} to {target}.").format(
        source=w.area(e["source"]), target=w.area(e["target"])
    )


def loyalty_move_cancelled(w: Words, e: Mapping[str, Any]) -> str:
    """Targaryen pays to cancel a token move (11.11)."""
    return w._(
        "{house} discards Power tokens to cancel the move from {source} to {target}."
    ).format(house=w.house(e["house"]), source=w.area(e["source"]), target=w.area(e["target"]))


def garrison_restored(w: Words, e: Mapping[str, Any]) -> str:
    """Pentos's garrison returns (11.4.4)."""
    return w._("{house}'s garrison returns to {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def dragon_returned(w: Words, e: Mapping[str, Any]) -> str:
    """Fire Made Flesh (b): a destroyed dragon comes back (11.11)."""
    return w._("{house} places a dragon in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def dragon_sacrificed(w: Words, e: Mapping[str, Any]) -> str:
    """Fire Made Flesh (a): a dragon is destroyed to strengthen the others (11.11)."""
    return w._("{house} destroys its dragon in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def dragon_token_shifted(w: Words, e: Mapping[str, Any]) -> str:
    """Fire Made Flesh (a): the chosen dragon strength token moves into the box (11.11.2)."""
    return w._("The dragon strength token of round {round} moves into the box.").format(
        round=e["round"]
    )


def bid_distributed(w: Words, e: Mapping[str, Any]) -> str:
    """Targaryen adds 1 PT of its bid to another house's bid (11.6.6)."""
    return w._("{house} adds 1 of its bid to {to}'s bid for {track}.").format(
        house=w.house(e["house"]), to=w.house(e["to"]), track=w.track(e["track"])
    )


def loyalty_unit_placed(w: Words, e: Mapping[str, Any]) -> str:
    """Playing with Fire: the chosen house places a land unit (11.11)."""
    return w._("{house} places a {unit} in {area}.").format(
        house=w.house(e["house"]), unit=w.unit(e["unit"]), area=w.area(e["area"])
    )


OPTIONS = {
    "siege_engine": N_("Siege engine"),
    DESTROY_DRAGON: N_("Destroy a dragon for a strength token"),
    RETURN_DRAGON: N_("Bring back a destroyed dragon"),
}
"""Labels of the options deck IV decisions offer (``pass`` and ``done`` are the base game's)."""


def event_texts() -> list[EventText]:
    """The loyalty and deck IV events."""
    return [
        EventText("loyalty_placed", loyalty_placed, OPTIONS),
        EventText("loyalty_exhausted", loyalty_exhausted),
        EventText("loyalty_collected", loyalty_collected),
        EventText("loyalty_moved", loyalty_moved),
        EventText("loyalty_move_cancelled", loyalty_move_cancelled),
        EventText("garrison_restored", garrison_restored),
        EventText("dragon_returned", dragon_returned),
        EventText("dragon_sacrificed", dragon_sacrificed),
        EventText("dragon_token_shifted", dragon_token_shifted),
        EventText("bid_distributed", bid_distributed),
        EventText("loyalty_unit_placed", loyalty_unit_placed),
    ]
