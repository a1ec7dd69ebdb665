"""The ports plugin's log texts (RULES.md 6.3): gettext literals of this plugin, translated by
its own catalog (``locale/``, registered through ``register_translations``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros.engine.content import EventText, Words


def port_taken_over(w: Words, e: Mapping[str, Any]) -> str:
    """A house took control of a port (6.3.1), with or without putting ships there."""
    ships = int(e.get("ships", 0))
    if not ships:
        return w._("{house} takes over the port {port}.").format(
            house=w.house(e["house"]), port=w.area(e["port"])
        )
    return w.ngettext(
        "{house} takes over the port {port} with {n} ship.",
        "{house} takes over the port {port} with {n} ships.",
        ships,
    ).format(house=w.house(e["house"]), port=w.area(e["port"]), n=ships)


def port_ships_destroyed(w: Words, e: Mapping[str, Any]) -> str:
    """Ships in a port whose land area nobody controls are destroyed (6.3.2)."""
    return w.ngettext(
        "{house} loses {n} ship in {port}.", "{house} loses {n} ships in {port}.", e["ships"]
    ).format(house=w.house(e["house"]), n=e["ships"], port=w.area(e["port"]))


def port_ships_removed(w: Words, e: Mapping[str, Any]) -> str:
    """Ships in a port taken by another house are removed (6.3.1)."""
    return w.ngettext(
        "{house} loses {n} ship in {port} to {by}.",
        "{house} loses {n} ships in {port} to {by}.",
        e["ships"],
    ).format(house=w.house(e["house"]), n=e["ships"], port=w.area(e["port"]), by=w.house(e["by"]))


def event_texts() -> list[EventText]:
    """The ports plugin's events."""
    return [
        EventText("port_taken_over", port_taken_over),
        EventText("port_ships_destroyed", port_ships_destroyed),
        EventText("port_ships_removed", port_ships_removed),
    ]
