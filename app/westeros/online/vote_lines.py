"""The votes' lines in the table chat (issue 40, docs/online-votes.md "The log"): what a line
says as data (``system``), its English text (what the chat stores, the fallback) and the
reading of a stored system line back into that data, so each page shows it in its own
language (``frontend/static/js/online/vote-lines.js``). No column holds the data: the stored
English text is the only record, and ``parse(english(s)) == s`` for every line written.

A ``system`` object: ``line`` is ``call``, ``ballot``, ``passed`` or ``failed``; ``vote``
(the kind), ``house``, ``by``, ``minutes`` (what the vote proposes); ``caller`` (``call``);
``voter``, ``yes``, ``needed``, ``voters`` (``ballot``; the two counts on the caller's
ballot only); ``standings`` (``passed``, an ``end``); ``reason`` (``failed``: ``majority`` or
``timeout``)."""

from __future__ import annotations

import re
from typing import Any

WHAT = {
    "pause": "pause the game",
    "resume": "resume the game",
    "end": "end the game now",
    "cancel": "cancel the game",
}
BY_TEXT = {"ai": "the AI", "person": "a new person"}
REASON_TEXT = {"majority": "no majority", "timeout": "time is up"}

_HOUSE = r"[\w-]+"
_WHAT = (
    r"(?:(?P<simple>" + "|".join(map(re.escape, WHAT.values())) + r")"
    r"|extend the clocks by (?P<minutes>\d+) min"
    rf"|replace (?P<house>{_HOUSE}) by (?P<by>the AI|a new person))"
)
_CALL = re.compile(rf"Vote: (?P<caller>{_HOUSE}) calls a vote to {_WHAT}\.")
_BALLOT = re.compile(
    rf"Vote: (?P<voter>{_HOUSE}) votes (?P<yes>yes|no)"
    r"(?: \((?P<needed>\d+) of (?P<voters>\d+) yes needed\))?\."
)
_PASSED = re.compile(rf"Vote passed: {_WHAT}\.(?: Standings: (?P<standings>.+)\.)?")
_FAILED = re.compile(rf"Vote failed \((?P<reason>no majority|time is up)\): {_WHAT}\.")


def what(vote: str, house: str | None, by: str | None, minutes: int | None) -> str:
    """What a vote of kind ``vote`` proposes, in the log's words."""
    if vote == "extend":
        return f"extend the clocks by {minutes} min"
    if vote == "replace":
        return f"replace {house} by {BY_TEXT[by or 'ai']}"
    return WHAT[vote]


def english(system: dict[str, Any]) -> str:
    """The English text of the line ``system`` (what the chat stores)."""
    line = system["line"]
    if line == "ballot":
        counts = ""
        if system.get("needed") is not None:
            counts = f" ({system['needed']} of {system['voters']} yes needed)"
        return f"Vote: {system['voter']} votes {'yes' if system['yes'] else 'no'}{counts}."
    proposal = what(system["vote"], system.get("house"), system.get("by"), system.get("minutes"))
    if line == "call":
        return f"Vote: {system['caller']} calls a vote to {proposal}."
    if line == "passed":
        standings = system.get("standings") or []
        order = ", ".join(f"{i}. {h}" for i, h in enumerate(standings, 1))
        return f"Vote passed: {proposal}." + (f" Standings: {order}." if order else "")
    return f"Vote failed ({REASON_TEXT[system['reason']]}): {proposal}."


def _proposal(match: re.Match[str]) -> dict[str, Any]:
    found: dict[str, Any] = {"house": None, "by": None, "minutes": None}
    if match["simple"]:
        found["vote"] = next(k for k, v in WHAT.items() if v == match["simple"])
    elif match["minutes"]:
        found.update(vote="extend", minutes=int(match["minutes"]))
    else:
        by = next(k for k, v in BY_TEXT.items() if v == match["by"])
        found.update(vote="replace", house=match["house"], by=by)
    return found


def parse(text: str) -> dict[str, Any] | None:
    """The ``system`` data of a stored vote line ``text`` (None: not a vote line)."""
    if match := _CALL.fullmatch(text):
        return {"line": "call", "caller": match["caller"], **_proposal(match)}
    if match := _BALLOT.fullmatch(text):
        needed = match["needed"]
        return {
            "line": "ballot",
            "voter": match["voter"],
            "yes": match["yes"] == "yes",
            "needed": int(needed) if needed else None,
            "voters": int(match["voters"]) if needed else None,
        }
    if match := _PASSED.fullmatch(text):
        standings = match["standings"]
        order = [part.split(". ", 1)[1] for part in standings.split(", ")] if standings else []
        return {"line": "passed", "standings": order, **_proposal(match)}
    if match := _FAILED.fullmatch(text):
        reason = next(k for k, v in REASON_TEXT.items() if v == match["reason"])
        return {"line": "failed", "reason": reason, **_proposal(match)}
    return None
