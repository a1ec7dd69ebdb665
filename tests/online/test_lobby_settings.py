"""A new lobby's settings are checked against the installed plugins before anything is made
(issue 35 findings 14 and 17; docs/online.md "Limits"): a refused setting answers 422
``online/bad-setting`` (413 ``online/too-large`` for a body over 64 KB) naming what is wrong,
and no lobby appears in the public list."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Player


def _listed(person: Player) -> list[dict[str, Any]]:
    lobbies: list[dict[str, Any]] = person.client.get("/api/lobbies").json()["lobbies"]
    return lobbies


def _refused(person: Player, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body``; asserts it was refused as a bad setting and nothing was listed."""
    reply = person.post("/api/lobbies", body)
    assert (reply.status_code, reply.json().get("code")) == (422, "online/bad-setting"), reply.text
    assert _listed(person) == []
    data: dict[str, Any] = reply.json()
    return data


def test_a_4_mb_disable_list_is_refused_and_never_listed(online_app: Any, player: Any) -> None:
    """Issue 35 finding 14 (M3): a 4 MB ``disable`` list was stored and served to every
    ``GET /api/lobbies`` — now the body is refused before it is read (413)."""
    alice = player("Alice")
    body = {"players": 3, "disable": [f"plugin_{n:07d}" for n in range(330_000)]}
    reply = alice.post("/api/lobbies", body)
    assert (reply.status_code, reply.json()["code"]) == (413, "online/too-large")
    assert _listed(alice) == []


def test_disable_names_only_installed_plugins_a_game_may_switch_off(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 14 (M3): ``disable`` takes only installed plugins a new game may
    switch off (those the new-game form offers): an unknown name or the base game is refused;
    ports may be switched off, and the lobby says so."""
    alice = player("Alice")
    assert (
        "no_such_plugin"
        in _refused(alice, {"players": 3, "disable": ["no_such_plugin"]})["message"]
    )
    _refused(alice, {"players": 3, "disable": ["westeros_base"]})
    _refused(alice, {"players": 3, "disable": "westeros_ports"})
    made = alice.post("/api/lobbies", {"players": 3, "disable": ["westeros_ports"]})
    assert made.status_code == 200, made.text
    assert made.json()["lobby"]["settings"]["disable"] == ["westeros_ports"]


@pytest.mark.parametrize("value", ["no", 0, 1, {"on": True}, ["yes"], None])
def test_a_yes_no_option_takes_only_true_or_false(
    online_app: Any, player: Any, value: object
) -> None:
    """Issue 35 finding 14 (M3): ``{"tides_of_battle": "no"}`` turned Tides of Battle on and
    dict values were stored — now an option takes only a value of its own type."""
    alice = player("Alice")
    refused = _refused(alice, {"players": 3, "options": {"tides_of_battle": value}})
    assert "tides_of_battle" in refused["message"]


def test_an_option_without_the_option_it_requires_is_refused(online_app: Any, player: Any) -> None:
    """Issue 35 finding 14 (M3): an option that requires another was accepted alone — now
    it is refused naming both; with the other on it is accepted."""
    alice = player("Alice")
    refused = _refused(alice, {"players": 3, "options": {"mod_sea_orders": True}})
    assert "mod_sea_orders" in refused["message"] and "mother_of_dragons" in refused["message"]
    _refused(alice, {"players": 3, "options": {"no_such_option": True}})
    made = alice.post(
        "/api/lobbies",
        {"players": 7, "options": {"mother_of_dragons": True, "mod_sea_orders": True}},
    )
    assert made.status_code == 200, made.text
    assert made.json()["lobby"]["settings"]["options"] == {
        "mother_of_dragons": True,
        "mod_sea_orders": True,
    }


@pytest.mark.parametrize(
    "field, value",
    [
        ("players", []),
        ("name", {"x": 1}),
        ("options", ["tides_of_battle"]),
        ("open_houses", 5),
        ("house", ["stark"]),
        ("clock_seconds", {}),
    ],
)
def test_a_setting_of_the_wrong_json_type_is_refused_not_a_server_error(
    online_app: Any, player: Any, field: str, value: object
) -> None:
    """Issue 35 finding 17: six lobby-creation type mix-ups answered 500 — now each is
    refused 422 ``online/bad-setting`` with a message that names the field."""
    alice = player("Alice")
    refused = _refused(alice, {"players": 3, field: value})
    assert field in refused["message"]


def test_grace_seconds_that_is_not_a_number_is_a_bad_setting(online_app: Any, player: Any) -> None:
    """Issue 35 finding 17: ``grace_seconds: "abc"`` was answered ``illegal/action`` — now it
    is ``online/bad-setting`` naming ``grace_seconds``."""
    alice = player("Alice")
    refused = _refused(alice, {"players": 3, "grace_seconds": "abc"})
    assert "grace_seconds" in refused["message"]
