"""Saves that never lose a game (DESIGN §5), through the local core's routes: "Continue" after a
normal quit, the Continue / Load game lists, replays (a seat's own view during a game, the full
view after it; RULES.md 0.4.4 for what is hidden), export and fully validated import of one
JSON file, and deleting a game only with confirmation."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.server.conftest import BASE, COOKIE, TOKEN, receive, seat_url
from tests.server.test_hidden_information import as_json, check_view
from tests.store.helpers import dump
from westeros.engine import State, player_view
from westeros.engine.flow import Simultaneous, pending, random_action
from westeros.engine.state import Event
from westeros.server.games import Games
from westeros.session import Accepted, GameSession

GAME_TIMEOUT_S = 300


def client_of(app: FastAPI) -> TestClient:
    client = TestClient(app, base_url=BASE, follow_redirects=False)
    client.cookies.set(COOKIE, TOKEN)
    return client


def wait_for_ais(session: GameSession, timeout: float = GAME_TIMEOUT_S) -> None:
    """Until the AI seats have nothing to decide (a person must, or the game is over)."""
    deadline = time.monotonic() + timeout
    while session.ai_pending() and not session.over:
        assert time.monotonic() < deadline, "the AI seats did not finish"
        time.sleep(0.02)


def play_as_person(session: GameSession, house: str, rnd: random.Random) -> None:
    """The person's seat answers its prompt with a random legal action."""
    state = session.state
    session.submit(house, random_action(state, house, rnd), state.serial)


def recorded(session: GameSession) -> tuple[dict[int, State], dict[int, list[Event]]]:
    """Every state the session reaches from now on, and the events of each action."""
    states = {session.serial: session.state}
    events = {session.serial: list(session.state.events)}

    def record(accepted: Accepted) -> None:
        states[accepted.serial] = accepted.state
        events[accepted.serial] = list(accepted.events)

    session.observe(record)
    return states, events


def finished_game(games: Games, players: int = 3, seed: int = 5) -> GameSession:
    session = games.create(players=players, human=None, seed=seed, start_ai=False)
    games.start_ai(session.game_id)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not session.over:
        assert time.monotonic() < deadline, "the AI game did not finish"
        time.sleep(0.05)
    return session


def without_text(message: dict[str, Any]) -> dict[str, Any]:
    """A view message without its log sentences (their language depends on the connection)."""
    log = [{k: v for k, v in entry.items() if k != "text"} for entry in message["log"]]
    return {**message, "log": log}


def step(client: TestClient, game_id: str, seq: int, house: str | None) -> Any:
    query = f"?house={house}" if house else ""
    return client.get(f"/games/{game_id}/replay/step/{seq}{query}")


# ---------------------------------------------------------------------------------- Continue


def test_resume_after_a_normal_quit_continues_at_the_same_state(
    make_app: Callable[..., FastAPI],
) -> None:
    first = make_app()
    with client_of(first) as client:
        response = client.post("/games", data={"players": "3", "house": "stark", "seed": "8"})
        assert response.status_code == 303
        game_id = response.headers["location"].split("/")[2]
        session = first.state.games.get(game_id)
        rnd = random.Random(8)
        for _ in range(3):  # three decisions of the person, the AIs answering in between
            wait_for_ais(session)
            play_as_person(session, "stark", rnd)
        wait_for_ais(session)
        saved_hash, saved_serial = session.state.hash(), session.serial
        saved_view = session.view_message("stark")
    # The app has quit normally (lifespan shutdown: AI runners stopped, store closed).

    second = make_app()
    with client_of(second) as client:
        page = client.get("/").text
        row = re.search(rf'data-testid="saved-game" data-game="{game_id}">(.*?)</li>', page, re.S)
        assert row is not None, "the game is not in the Continue list"
        assert "Stark" in row.group(1)
        assert re.search(r"Round \d+", row.group(1))
        assert "3 players:" in row.group(1)
        assert re.search(r'<time class="saved-date" data-field="date" datetime="[^"]+">', page)
        board = client.get(f"/games/{game_id}/play/stark")
        assert board.status_code == 200
        resumed = second.state.games.get(game_id)
        assert (resumed.state.hash(), resumed.serial) == (saved_hash, saved_serial)
        with client.websocket_connect(seat_url(game_id, "stark")) as ws:
            message = receive(ws)
        assert without_text(message) == without_text(as_json(saved_view))  # view and whole log


def test_continue_offers_the_game_played_last_and_load_game_every_other(
    client: TestClient, games: Games
) -> None:
    older = games.create(players=3, human="stark", seed=3, start_ai=False)
    over = finished_game(games, seed=6)
    latest = games.create(players=4, human="greyjoy", seed=4, start_ai=False)
    page = client.get("/").text
    continue_part, load_part = page.split('data-testid="load"')
    assert re.findall(r'data-game="([^"]+)"', continue_part) == [latest.game_id]
    assert set(re.findall(r'data-game="([^"]+)"', load_part)) == {older.game_id, over.game_id}
    assert f'href="/games/{latest.game_id}/replay/greyjoy"' in page  # a seat's replay
    assert f'href="/games/{over.game_id}/replay"' in page  # the full replay, once over
    winner = over.state.rules.houses[over.state.winner].name
    assert f"Game over: {winner} won" in load_part


# ---------------------------------------------------------------------------------- replays


def test_a_replay_reaches_the_same_final_state_as_the_live_game(
    client: TestClient, games: Games, app: FastAPI
) -> None:
    session = finished_game(games, players=4, seed=12)
    total = session.serial
    last = step(client, session.game_id, total, None)
    assert last.status_code == 200
    message = last.json()
    assert (message["seq"], message["total"], message["over"]) == (total, total, True)
    assert message["view"] == as_json(player_view(session.state, None))
    _, timeline = app.state.core.replays.timeline(session.game_id)
    assert timeline.final.hash() == session.state.hash()
    for house in session.state.houses:  # after the game, every seat's own view too
        seat = step(client, session.game_id, total, house).json()
        assert seat["view"] == as_json(player_view(session.state, house))
    assert step(client, session.game_id, total + 1, None).status_code == 404


def test_a_replay_jumps_by_round(client: TestClient, games: Games) -> None:
    session = finished_game(games, players=3, seed=21)
    message = step(client, session.game_id, 0, None).json()
    rounds = message["rounds"]
    assert [r for r, _ in rounds] == list(range(1, session.state.round + 1))
    for number, first in rounds:
        at = step(client, session.game_id, first, None).json()
        assert at["round"] == number
        if first > 0:
            before = step(client, session.game_id, first - 1, None).json()
            assert before["round"] == number - 1


def test_a_seat_replay_during_a_game_never_shows_more_than_its_own_view(
    client: TestClient, games: Games
) -> None:
    """At every step: exactly player_view(state, house), only the events the house may see,
    nothing that depends on another house's secret (0.4.4), no other house's action content."""
    session = games.create(
        players=3, human="stark", seed=31, options={"tides_of_battle": True}, start_ai=False
    )
    states, events = recorded(session)
    rnd = random.Random(31)
    while session.state.round < 3:
        houses = sorted(pending(session.state))
        if "stark" in houses:
            play_as_person(session, "stark", rnd)
        else:
            session.play_ai(houses[0])
    assert not session.over
    secret_steps = sum(
        1
        for s in states.values()
        if any(isinstance(x, Simultaneous) and x.commits for x in s.stack)
    )
    assert secret_steps > 0  # the game passed through moments with hidden commitments
    problems = []
    for seq in range(session.serial + 1):
        response = step(client, session.game_id, seq, "stark")
        assert response.status_code == 200
        message = response.json()
        assert "secrets" not in message
        actor = message["actor"]
        if actor is not None and actor["house"] != "stark":
            assert actor["action"] is None, f"step {seq} shows {actor['house']}'s action"
        for problem in check_view(message, "stark", states[seq], events[seq]):
            problems.append(f"step {seq}: {problem}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("house", [None, "lannister", "baratheon"])
def test_during_a_game_the_full_view_and_the_computers_views_are_refused(
    client: TestClient, games: Games, house: str | None
) -> None:
    session = games.create(players=3, human="stark", seed=4, start_ai=False)
    response = step(client, session.game_id, 0, house)
    assert response.status_code == 403
    assert "view" not in response.json()
    page = client.get(f"/games/{session.game_id}/replay" + (f"/{house}" if house else ""))
    assert page.status_code == 403


def test_the_full_view_of_a_finished_game_shows_every_secret_of_each_step(
    client: TestClient, games: Games
) -> None:
    session = games.create(
        players=3, human=None, seed=41, options={"tides_of_battle": True}, start_ai=False
    )
    states, events = recorded(session)
    games.start_ai(session.game_id)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not session.over:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    committed = next(
        seq
        for seq, s in sorted(states.items())
        if any(isinstance(x, Simultaneous) and x.commits for x in s.stack)
    )
    message = step(client, session.game_id, committed, None).json()
    state = states[committed]
    assert message["full"] is True
    assert message["view"] == as_json(player_view(state, None))
    expected = [
        {"house": h, "action": a.to_json()}
        for x in state.stack
        if isinstance(x, Simultaneous)
        for h, a in x.commits
    ]
    got = [{k: c[k] for k in ("house", "action")} for c in message["secrets"]["commitments"]]
    assert got == as_json(expected)
    assert set(message["secrets"]["prompts"]) == set(pending(state))
    assert message["secrets"]["decks"]["wildling"] == list(state.wildling_deck)
    assert message["actor"]["action"] is not None  # every action is shown in full
    private = next(
        (seq, e) for seq, happened in sorted(events.items()) for e in happened if e.to is not None
    )
    log = step(client, session.game_id, private[0], None).json()["log"]
    assert any(entry.get("to") == sorted(private[1].to or ()) for entry in log)


def test_stepping_a_replay_page_is_served_with_its_controls(
    client: TestClient, games: Games
) -> None:
    session = games.create(players=3, human="stark", seed=9, start_ai=False)
    page = client.get(f"/games/{session.game_id}/replay/stark")
    assert page.status_code == 200
    assert 'data-steps="/games/' in page.text
    assert 'data-testid="replay-next"' in page.text
    assert '<script type="module" src="/static/js/replay.js">' in page.text


# ---------------------------------------------------------------------------------- files


def test_export_then_import_gives_the_same_game(
    client: TestClient, games: Games, app: FastAPI
) -> None:
    session = finished_game(games, seed=15)
    exported = client.get(f"/games/{session.game_id}/export")
    assert exported.status_code == 200
    assert exported.headers["content-disposition"].startswith("attachment; filename=")
    document = exported.json()
    assert document["final_hash"] == session.state.hash()
    response = client.post(
        "/games/import", files={"file": ("game.json", exported.content, "application/json")}
    )
    assert response.status_code == 303
    copy_id = response.headers["location"].split("/")[2]
    assert copy_id != session.game_id  # the original still holds its id
    assert response.headers["location"] == f"/games/{copy_id}/replay"  # finished: its replay
    store = app.state.core.store
    assert store.load_game(copy_id).state.hash() == session.state.hash()


def _tamper_action(document: dict[str, Any]) -> str:
    """One bid or order changed (the rest of the file, hashes included, left as it was)."""
    for entry in document["actions"]:
        action = entry["action"]
        if action["kind"] == "place_orders" and len(action["orders"]) > 1:
            first, second = action["orders"][0], action["orders"][1]
            first[1], second[1] = second[1], first[1]
            return json.dumps(document)
    raise AssertionError("no order placement to change")


def _tamper_plugin(document: dict[str, Any]) -> str:
    document["game"]["plugins"].append({"name": "westeros_a_feast_for_crows", "version": "1.0"})
    return json.dumps(document)


def _truncate(document: dict[str, Any]) -> str:
    text = json.dumps(document)
    return text[: len(text) // 2]


@pytest.mark.parametrize(
    ("tamper", "reason"),
    [
        (_tamper_action, r"action 1 \(\w+\) (is not legal|does not lead to the state recorded)"),
        (_tamper_plugin, r"westeros_a_feast_for_crows"),
        (_truncate, r"not valid JSON"),
    ],
    ids=["changed-action", "unknown-plugin", "truncated"],
)
def test_importing_a_tampered_file_is_refused_and_the_database_is_unchanged(
    client: TestClient,
    games: Games,
    app: FastAPI,
    tamper: Callable[[dict[str, Any]], str],
    reason: str,
) -> None:
    session = games.create(players=3, human="stark", seed=17, start_ai=False)
    rnd = random.Random(17)
    for _ in range(4):
        house = sorted(pending(session.state))[0]
        play_as_person(session, house, rnd) if house == "stark" else session.play_ai(house)
    document = json.loads(session.store.export_json(session.game_id))
    before = dump(app.state.core.store.engine)
    text = tamper(document)
    response = client.post(
        "/games/import", files={"file": ("game.json", text.encode(), "application/json")}
    )
    assert response.status_code == 400
    alert = re.search(r'data-testid="import-error">(.*?)</p>', response.text, re.S)
    assert alert is not None
    assert "This game file was not imported:" in alert.group(1)
    assert re.search(reason, alert.group(1).replace("&#39;", "'")), alert.group(1)
    assert dump(app.state.core.store.engine) == before


def test_importing_without_a_file_says_so(client: TestClient) -> None:
    response = client.post("/games/import", files={"file": ("", b"", "application/json")})
    assert response.status_code == 400
    assert 'data-testid="import-error"' in response.text


# ---------------------------------------------------------------------------------- delete


def test_deleting_a_game_needs_confirmation(client: TestClient, games: Games, app: FastAPI) -> None:
    session = games.create(players=3, human="stark", seed=23)
    store = app.state.core.store
    game_id = session.game_id
    for form in ({}, {"confirm": ""}, {"confirm": "another-game"}):
        response = client.post(f"/games/{game_id}/delete", data=form)
        assert response.status_code == 400
        assert store.game(game_id).id == game_id
    page = client.get(f"/games/{game_id}/delete")
    assert page.status_code == 200
    assert f'<input type="hidden" name="confirm" value="{game_id}">' in page.text
    response = client.post(f"/games/{game_id}/delete", data={"confirm": game_id})
    assert response.status_code == 303
    assert store.list_games() == []
    assert client.get(f"/games/{game_id}/play/stark").status_code == 404
    assert game_id not in {s.game_id for s in games.loaded()}
    assert client.post(f"/games/{game_id}/delete", data={"confirm": game_id}).status_code == 404
