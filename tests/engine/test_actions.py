"""Actions are typed, frozen and round-trip through JSON; malformed input is refused (DESIGN §2)."""

from __future__ import annotations

import json

import pytest

from westeros.engine.actions import Action, Bid, Choose, SelectArea, SelectUnits, action_kinds
from westeros.engine.errors import MalformedAction


@pytest.mark.parametrize(
    "action",
    [
        Choose("mustering"),
        Bid(3),
        SelectArea(None),
        SelectArea("winterfell"),
        SelectUnits((("winterfell", "footman"), ("white-harbor", "knight"))),
    ],
)
def test_actions_round_trip_through_json(action: Action) -> None:
    text = json.dumps(action.to_json())
    assert Action.from_json(json.loads(text)) == action


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"kind": "no-such-kind"}, "unknown action kind"),
        ({"kind": "bid"}, "missing field"),
        ({"kind": "bid", "amount": "3"}, "integer"),
        ({"kind": "bid", "amount": True}, "integer"),
        ({"kind": "bid", "amount": 1, "extra": 2}, "unknown field"),
        ({"kind": "select_units", "units": [["a"]]}, "expected 2 items"),
        ({"kind": "select_units", "units": "a"}, "list"),
        ([1, 2], "JSON object"),
    ],
)
def test_malformed_actions_get_a_specific_error(data: object, fragment: str) -> None:
    with pytest.raises(MalformedAction, match=fragment):
        Action.from_json(data)


def test_actions_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Bid(1).amount = 2  # type: ignore[misc]


def test_the_generic_action_kinds_are_registered() -> None:
    kinds = action_kinds()
    assert {"choose", "bid", "select_area", "select_units"} <= set(kinds)
