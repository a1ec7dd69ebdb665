"""A Mother of Dragons game with vassals through the GameSession (RULES.md 11.2.5, 11.10): only
the houses players take have seats; a vassal's decisions go to the seat of its commander
(11.10.3, 11.10.8), a person's or an AI's, and a round is played through without stalling; a
seat sees a vassal's drawn house cards only while it commands that vassal (11.10.8); the
commander alone may change the vassal's committed orders, until the reveal (4.1, 11.10.4)."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import baseline_bots
from westeros.engine import Ruleset
from westeros.engine.flow import pending, random_action
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import GameSession, Human, WrongSeat
from westeros.store import AI, GameStore, SeatSpec

OPTIONS = {"mother_of_dragons": True, "mod_vassals": True}
PLAYERS = ("baratheon", "lannister", "stark", "greyjoy")
"""The houses players take in a 4-player vassal game (11.2.5); the other three are vassals."""
VASSALS = ("tyrell", "martell", "arryn")
PERSON = "baratheon"
"""First on the Iron Throne track once the vassals are sent to the bottom: it claims first."""
CLAIMED = "arryn"
LIMIT = 3_000


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(OPTIONS)


@pytest.fixture
def store(store_url: str) -> GameStore:
    return open_store(store_url)


def create(store: GameStore, rules: Ruleset, people: tuple[str, ...], seed: int) -> GameSession:
    """A 4-player vassal game: a seat per player house, ``people`` persons, the rest AIs."""
    seats = {
        h: Human(h) if h in people else baseline_bots(h, SeatSpec(h, AI, "baseline"))
        for h in PLAYERS
    }
    return GameSession.create(store, rules, 4, seats, seed, OPTIONS)


def commanders(view: dict[str, Any]) -> dict[str, str]:
    """Each vassal's commander this round, as the public view says (11.10.3)."""
    return dict(view["ext"].get("vassal_commanders", ()))


def test_11_2_5_only_player_houses_have_seats_stored_resumed_and_imported(
    store: GameStore, rules: Ruleset
) -> None:
    session = create(store, rules, (PERSON,), seed=3)
    assert sorted(session.players) == sorted(PLAYERS)
    assert sorted(session.state.houses) == sorted(PLAYERS + VASSALS)
    assert [s.house for s in store.game(session.game_id).setup.seats] == list(PLAYERS)
    with pytest.raises(WrongSeat):
        session.attach(CLAIMED, lambda message: None)
    resumed = GameSession.resume(store, session.game_id, baseline_bots)
    assert sorted(resumed.players) == sorted(PLAYERS)
    assert resumed.state.hash() == session.state.hash()
    imported = store.import_game(store.export_json(session.game_id))
    assert [s.house for s in imported.setup.seats] == list(PLAYERS)


def test_11_10_3_a_person_and_ais_play_a_round_each_vassal_answered_by_its_commander(
    store: GameStore, rules: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    session = create(store, rules, (PERSON,), seed=11)
    seen: list[dict[str, Any]] = []
    session.attach(PERSON, seen.append)
    rnd = random.Random(11)
    answered: dict[str, set[str]] = {v: set() for v in VASSALS}
    person_kinds: list[str] = []
    decisions = 0
    caplog.set_level(logging.ERROR, logger="westeros.session")
    while session.state.round == 1 and decisions < LIMIT:
        waiting = pending(session.state)
        assert waiting, "the game stalled: nobody is asked to decide"
        asked = min(waiting)
        seat = session.seat_of(asked)
        assert seat in PLAYERS
        if asked in VASSALS:
            links = commanders(session.hub.view(PERSON))
            assert seat == links.get(asked, PLAYERS[0]), f"{asked} must go to its commander"
            answered[asked].add(seat)
        if seat != PERSON:
            assert session.is_ai(asked)
            assert session.play_ai(asked) is not None
        else:
            view = seen[-1]["view"]
            prompt = view["prompt"] if asked == PERSON else view["answering_for"][asked]["prompt"]
            assert prompt is not None and prompt["kind"] == waiting[asked].kind
            person_kinds.append(prompt["kind"])
            if prompt["kind"] == "claim_vassals":
                assert CLAIMED in prompt["data"]["vassals"] and prompt["data"]["max"] >= 1
                action: dict[str, Any] = {"kind": "claim_vassals", "vassals": [CLAIMED]}
            else:
                action = random_action(session.state, asked, rnd).to_json()
            message = {"type": "action", "action": action, "state_id": seen[-1]["state_id"]}
            if asked != PERSON:
                message["house"] = asked
            assert session.handle(PERSON, message)["type"] == "accepted"
        decisions += 1
    assert session.state.round == 2, f"round 1 did not end after {decisions} decisions"
    assert not caplog.records, "an AI answer for a house or its vassal had to be replaced"
    claims = [e.data for _, e in session.history() if e.kind == "vassals_claimed"]
    assert {"house": PERSON, "vassals": [CLAIMED]} in claims
    assert answered[CLAIMED] == {PERSON}
    assert "claim_vassals" in person_kinds and "place_orders" in person_kinds
    assert all(answered[v] and answered[v] <= set(PLAYERS) - {PERSON} for v in VASSALS[:2])
    assert store.game(session.game_id).action_count == decisions


def test_11_10_8_a_seat_may_not_answer_for_a_vassal_it_does_not_command(
    store: GameStore, rules: Ruleset
) -> None:
    session = create(store, rules, ("baratheon", "lannister"), seed=5)
    claim = {"kind": "claim_vassals", "vassals": ["martell"]}
    assert (
        session.handle("baratheon", {"type": "action", "action": claim, "state_id": 0})["type"]
        == "accepted"
    )
    for house in ("martell", "greyjoy"):
        stolen = {"type": "action", "action": claim, "state_id": 1, "house": house}
        reply = session.handle("lannister", stolen)
        assert reply["code"] == "seat/other-house"
    assert dict(session.state.ext["vassal_commanders"]) == {"martell": "baratheon"}


def test_11_10_8_only_the_commander_sees_a_vassals_drawn_cards_in_its_seat_view(
    store: GameStore, rules: Ruleset
) -> None:
    session = create(store, rules, (), seed=21)
    views: dict[str, list[dict[str, Any]]] = {h: [] for h in PLAYERS}
    for house in PLAYERS:
        session.attach(house, views[house].append)
    decisions = 0
    while session.state.round <= 3 and not session.over and decisions < LIMIT:
        session.play_ai(session.ai_pending()[0])
        decisions += 1
    shown = 0
    for house, messages in views.items():
        for message in messages:
            view = message["view"]
            links = commanders(view)
            for vassal in VASSALS:
                if view["hands"][vassal] and links.get(vassal) == house:
                    shown += 1
                elif links.get(vassal) != house:
                    assert view["hands"][vassal] == [], f"{house} saw {vassal}'s cards"
    assert shown, "no vassal fought in three rounds: pick another seed"


def test_11_2_5_the_new_game_screen_lets_the_person_choose_any_house_of_a_vassal_game(
    client: TestClient,
) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): with vassals only 3 to 6 players are offered, each
    with every house of the board; the person may take a house the count's usual players do not
    hold (the AIs keep the others: Greyjoy, the last usual one, becomes a vassal); a house not on
    the board is refused."""
    plugins = ["westeros_ports", "westeros_tides_of_battle", "westeros_mother_of_dragons"]
    form: dict[str, Any] = {"mother_of_dragons": "on", "mod_vassals": "on", "plugin": plugins}
    offered = client.get("/new-game/choices", params=form).json()["setups"]
    assert sorted(offered) == ["3", "4", "5", "6"]
    assert sorted(offered["4"]) == sorted((*PLAYERS, *VASSALS, "targaryen"))
    refused = client.post("/games", data={**form, "players": "4", "house": "dorne"})
    assert refused.status_code == 400
    started = client.post("/games", data={**form, "players": "4", "house": CLAIMED})
    assert started.status_code == 303
    board = started.headers["location"]
    assert board.endswith(f"/play/{CLAIMED}")
    assert client.get(board).status_code == 200
    assert client.get(board.replace(CLAIMED, "greyjoy")).status_code == 404


def test_4_1_11_10_4_a_commander_changes_its_vassals_orders_until_the_reveal(
    store: GameStore, rules: Ruleset
) -> None:
    session = create(store, rules, (PERSON,), seed=11)
    seen: list[dict[str, Any]] = []
    session.attach(PERSON, seen.append)
    rnd = random.Random(11)

    def send(action: dict[str, Any], house: str | None = None) -> dict[str, Any]:
        message = {"type": "action", "action": action, "state_id": session.serial}
        if house is not None:
            message["house"] = house
        return session.handle(PERSON, message)

    assert send({"kind": "claim_vassals", "vassals": [CLAIMED]})["type"] == "accepted"
    while PERSON not in pending(session.state):
        session.play_ai(session.ai_pending()[0])
    assert send(random_action(session.state, PERSON, rnd).to_json())["type"] == "accepted"
    for house in PLAYERS[1:]:  # the AI players' own orders; their vassals wait
        session.play_ai(house)
    assert CLAIMED in pending(session.state)
    first = [["the-eyrie", "vassal-defense+3"], ["the-vale-of-arryn", "vassal-march+0"]]
    changed = [["the-eyrie", "vassal-raid-support+1"], ["the-vale-of-arryn", "vassal-march+0"]]
    assert send({"kind": "place_orders", "orders": first}, CLAIMED)["type"] == "accepted"
    offered = seen[-1]["view"]["answering_for"][CLAIMED]["take_back"]
    assert offered["kind"] == "place_orders"
    assert offered["commitment"]["orders"] == first
    others = session.hub.view("lannister")
    assert all(v.get("take_back") is None for v in others.get("answering_for", {}).values())
    stolen = {"kind": "place_orders", "orders": changed}
    refused = session.handle(
        "lannister",
        {"type": "action", "action": stolen, "state_id": session.serial, "house": CLAIMED},
    )
    assert refused["code"] == "seat/other-house"
    assert send({"kind": "place_orders", "orders": changed}, CLAIMED)["type"] == "accepted"
    changed_back = seen[-1]["view"]["answering_for"][CLAIMED]["take_back"]
    assert changed_back["commitment"]["orders"] == changed

    def revealed() -> list[dict[str, Any]]:
        return [e.data for _, e in session.history() if e.kind == "orders_revealed"]

    while not revealed():
        session.play_ai(session.ai_pending()[0])
    [shown] = revealed()
    arryn = sorted([a, t] for a, (house, t) in shown["orders"].items() if house == CLAIMED)
    assert arryn == sorted(changed)
    assert seen[-1]["view"]["answering_for"][CLAIMED]["take_back"] is None
    late = send({"kind": "place_orders", "orders": first}, CLAIMED)
    assert late is not None and late["code"] == "illegal/already-revealed"
