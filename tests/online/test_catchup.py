"""The catch-up's privacy and authority (issue 40, docs/online-catchup.md; RULES.md 0.4.4):
a seat's "Since your last turn" never holds another pair's raven, an event sent only to other
houses, or a commitment (orders, bids) before its reveal — checked over every seat of games
played by the baseline AI, for drawn ravens and starting points — and only the player who
holds a seat may read or close its catch-up. Where a catch-up starts: the person's last
visit (their board's socket closed) or the panel closed there, a mark that only grows."""

from __future__ import annotations

import dataclasses
import functools
import json
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from westeros.ai import BaselineBot
from westeros.engine import State, apply, new_game, pending, player_view
from westeros.engine.state import Event
from westeros.online.catchup import EVENT_KINDS, RAVEN, SeenStore, Since, compose
from westeros.online.records import ChatLine
from westeros.online.store import OnlineStore
from westeros.plugins import build_ruleset
from westeros.server.narrate import Narrator
from westeros.server.replays import secrets
from westeros.store import LogEntry, Timeline

from .helpers import wait_for
from .seat_helpers import (
    LiveOnline,
    chat,
    race,
    race_store,
    receive,
    receive_until,
    register,
)

HOUSES = ("baratheon", "lannister", "stark")
SEED = 1
"""A 3-player game the baseline AI plays for 6 rounds from this seed: combats, Clash of Kings
and wildling bids, and the Messenger Raven's private look at the wildling deck."""
T0 = datetime(2026, 1, 1, tzinfo=UTC)
RING_NAMES = {"stark": "Alice", "lannister": "Bob", "baratheon": "Cara"}


@dataclasses.dataclass(frozen=True)
class Played:
    """A game played by the baseline AI: its first state, its log and every state."""

    first: State
    entries: tuple[LogEntry, ...]
    states: tuple[State, ...]

    def timeline(self, upto: int | None = None) -> Timeline:
        return Timeline(self.first, self.entries[:upto])


@functools.cache
def played() -> Played:
    rules = build_ruleset({})
    state = first = new_game(rules, 3, SEED, {})
    bot = BaselineBot(seed=SEED)
    entries: list[LogEntry] = []
    states = [state]
    while state.winner is None and state.round <= 5:
        house = sorted(pending(state))[0]
        action = bot.decide(player_view(state, house), rules, 0.01)
        state, _ = apply(state, house, action)
        entries.append(LogEntry(len(entries) + 1, house, action.to_json(), state.hash()))
        states.append(state)
    return Played(first, tuple(entries), tuple(states))


def _words(narrate: Narrator, event: Event) -> str:
    return narrate({"kind": event.kind, **event.data})


def check_private(
    message: dict[str, Any], timeline: Timeline, house: str, lines: list[ChatLine]
) -> None:
    """What ``house``'s catch-up may hold (RULES.md 0.4.4), from the engine's own record of who
    each event went to (``Event.to``) and each raven's two houses."""
    narrate = Narrator(timeline.final.rules)
    seen: set[tuple[int, str]] = set()
    hidden: set[tuple[int, str]] = set()
    for seq in range(timeline.total + 1):
        for event in timeline.events(seq):
            words = _words(narrate, event)
            (seen if event.to is None or house in event.to else hidden).add((seq, words))
    hidden_words = {words for _, words in hidden}
    for item in message["items"]:
        if item["kind"] in EVENT_KINDS.values():
            assert (item["seq"], item["text"]) in seen, item
        else:
            assert item["text"] not in hidden_words, item
        if item["kind"] == RAVEN:
            line = next(line for line in lines if line.id == item["id"])
            assert line.to_house == house, item
    whole = json.dumps(message)
    for line in lines:
        if line.to_house is not None and house not in (line.house, line.to_house):
            assert line.text not in whole, (house, line)


def _line(number: int, sender: str, to: str | None, seq: int, timeline: Timeline) -> ChatLine:
    """Chat line ``number``, written while step ``seq`` was the last one."""
    return ChatLine(
        id=number,
        lobby_id="lobby",
        player_name=f"person of {sender}",
        house=sender,
        to_house=to,
        text=f"raven-{number}-{sender}-to-{to}",
        round=timeline.round_of(seq),
        phase="",
        created_at=T0 + timedelta(seconds=seq + 0.5),
    )


def _times(timeline: Timeline, first: int) -> list[tuple[int, datetime]]:
    """When each action from step ``first`` on was stored (step ``seq`` at ``seq`` seconds)."""
    return [(seq, T0 + timedelta(seconds=seq)) for seq in range(max(first, 1), timeline.total + 1)]


ravens = st.lists(
    st.tuples(st.sampled_from(HOUSES), st.sampled_from((*HOUSES, None)), st.floats(0, 1)).filter(
        lambda r: r[0] != r[1]
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ravens=ravens, start=st.floats(0, 1), marked=st.booleans())
def test_no_seat_s_catch_up_holds_another_pair_s_raven_or_an_event_sent_to_others(
    ravens: list[tuple[str, str | None, float]], start: float, marked: bool
) -> None:
    """Every seat, any starting point, with and without a mark; ``compose`` is handed the
    lobby's every line (more than a seat may read): it still tells only ravens to the seat."""
    game = played()
    timeline = game.timeline()
    since_seq = int(start * timeline.total)
    lines = [
        _line(n, sender, to, int(at * timeline.total), timeline)
        for n, (sender, to, at) in enumerate(ravens, start=1)
    ]
    narrate = Narrator(timeline.final.rules)
    for house in HOUSES:
        since = Since(since_seq, 0 if marked else None)
        message = compose(
            timeline,
            house,
            since,
            narrate,
            game_id="g",
            lines=lines,
            action_times=_times(timeline, since_seq),
        )
        check_private(message, timeline, house, lines)
        told = {item["id"] for item in message["items"] if item["kind"] == RAVEN}
        expected = {  # no mark: the lines written since step ``since_seq``'s action
            line.id
            for line in lines
            if line.to_house == house
            and (marked or line.created_at > T0 + timedelta(seconds=since_seq))
        }
        assert told == expected, (house, since_seq, marked)
        assert all(since_seq <= item["seq"] <= timeline.total for item in message["items"])


def test_the_private_look_at_the_wildling_deck_reaches_the_raven_holder_only() -> None:
    game = played()
    timeline = game.timeline()
    narrate = Narrator(timeline.final.rules)
    looked = {
        next(iter(event.to or ()))
        for seq in range(timeline.total + 1)
        for event in timeline.events(seq)
        if event.kind == "wildling_card_seen"
    }
    assert looked, "the game has no private event to check"
    for house in HOUSES:
        message = compose(timeline, house, Since(0, 0), narrate, game_id="g")
        texts = " ".join(item["text"] for item in message["items"])
        assert ("You look at the top wildling card" in texts) == (house in looked), house


def _cut_mid(action: str, prompt: str) -> tuple[int, int]:
    """(the step before the first commitment, the step after it): a house has committed an
    ``action`` (orders, a bid, a house card), and another is still asked (``prompt``)."""
    game = played()
    for seq, state in enumerate(game.states):
        commits = [c for c in secrets(state)["commitments"] if c["action"]["kind"] == action]
        if commits and any(p.kind == prompt for p in pending(state).values()):
            return seq - len(commits), seq
    raise AssertionError(f"no {action} with hidden commitments in the game")


@pytest.mark.parametrize(
    ("action", "prompt", "reveal"),
    [
        ("place_orders", "place_orders", "orders_revealed"),
        ("bid", "wildling_bid", "wildling_bids"),
        ("choose", "choose_house_card", "house_cards_revealed"),
    ],
)
def test_orders_bids_and_house_cards_committed_but_not_revealed_never_show(
    action: str, prompt: str, reveal: str
) -> None:
    """Cut the log while a house has placed its orders (a wildling bid, a house card) and
    another is still asked: no seat's catch-up tells it, nor any order of that round."""
    began, cut = _cut_mid(action, prompt)
    game = played()
    timeline = game.timeline(cut)
    narrate = Narrator(timeline.final.rules)
    committed = secrets(game.states[cut])["commitments"]
    for house in HOUSES:
        message = compose(timeline, house, Since(began, 0), narrate, game_id="g")
        assert not [item for item in message["items"] if item.get("event") == reveal], message
        whole = json.dumps(message)
        for commitment in committed:
            if commitment["house"] == house:
                continue
            for area, token in commitment["action"].get("orders", []):
                hidden = f"{narrate.token(token)} in {narrate.area(area)}"
                assert hidden not in whole, (house, hidden)
        check_private(message, timeline, house, [])


# ------------------------------------------------------------------ the server's routes


def _ask(
    server: LiveOnline, path: str, key: str | None, method: str = "GET", **query: Any
) -> tuple[int, Any]:
    """(status, JSON) of ``path`` asked with ``key`` (None: no key) in its header."""
    url = f"{server.url}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
    request = urllib.request.Request(url, method=method, headers={"x-westeros-key": key or ""})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _says(text: str, message: dict[str, Any]) -> bool:
    return message.get("text") == text


def test_each_person_reads_their_seat_s_catch_up_only_with_only_their_ravens(
    server: LiveOnline,
) -> None:
    """Three people open their boards and leave; the AI plays their seats to the end while
    each writes a raven to the next. Each reads their catch-up (from their visit on), with the
    raven to them and never the others'; another key is refused, so is no key; closing the
    panel there leaves nothing to tell, and a smaller mark never lowers it."""
    people = {h: register(server, name) for h, name in RING_NAMES.items()}
    alice = people["stark"]
    created = alice.post(
        "/api/lobbies",
        {
            "players": 3,
            "house": "stark",
            "open_houses": list(people),
            "ai_level": "baseline",
            "grace_seconds": 2,  # then the AI plays every seat whose person left
        },
    )
    lobby_id = created["lobby"]["id"]
    for house, person in people.items():
        if house != "stark":
            person.post("/api/join", {"invite": created["invites"][house].split("#invite=")[1]})
            person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = alice.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]
    online = server.app.state.online
    catchup = online.catchup
    for house, person in people.items():
        with person.socket(f"/ws/games/{game_id}/seats/{house}") as ws:
            assert receive(ws)["type"] == "view"
        wait_for(functools.partial(catchup.seen.since, lobby_id, house, person.id))
    marks = {h: catchup.seen.since(lobby_id, h, p.id) for h, p in people.items()}
    ring = {"stark": "lannister", "lannister": "baratheon", "baratheon": "stark"}
    for house, to in ring.items():
        text = f"{house} to {to}: in confidence"
        with people[house].socket(f"/ws/lobbies/{lobby_id}") as ws:
            chat(ws, text, to=to)
            receive_until(ws, functools.partial(_says, text))
    wait_for(lambda: online.online.lobby(lobby_id).status == "finished", timeout=180)
    timeline = catchup.replays.timeline(game_id)[1]
    lines = [line for h in ring for line in online.online.chat(lobby_id, h)]
    for house, person in people.items():
        status, message = _ask(server, f"/games/{game_id}/catchup/{house}", person.key)
        assert status == 200, message
        assert message["since"] == marks[house].seq
        check_private(message, timeline, house, lines)
        told = [item["text"] for item in message["items"] if item["kind"] == RAVEN]
        sender = next(h for h, to in ring.items() if to == house)
        assert told == [f"Raven from {sender.capitalize()}: {sender} to {house}: in confidence"]
        assert {"orders", "cards", "messenger_raven"} <= {i["kind"] for i in message["items"]}
        for other in people.values():
            if other is not person:
                refused, _ = _ask(server, f"/games/{game_id}/catchup/{house}", other.key)
                assert refused == 403
    _, chinese = _ask(server, f"/games/{game_id}/catchup/stark", alice.key, lang="zh-CN")
    raven = next(item["text"] for item in chinese["items"] if item["kind"] == RAVEN)
    assert raven.startswith("来自") and "的信鸦：" in raven, raven
    assert _ask(server, f"/games/{game_id}/catchup/stark", None)[0] == 401
    assert _ask(server, "/games/no-such-game/catchup/stark", alice.key)[0] == 404

    _, message = _ask(server, f"/games/{game_id}/catchup/stark", alice.key)
    seen = f"/games/{game_id}/catchup/stark/seen"
    assert _ask(server, seen, people["lannister"].key, "POST", seq=0)[0] == 403
    upto, chat_upto = message["upto"], message["chat_upto"]
    assert _ask(server, seen, alice.key, "POST", seq=upto, chat=chat_upto)[0] == 200
    assert _ask(server, f"/games/{game_id}/catchup/stark", alice.key)[1]["items"] == []
    assert _ask(server, seen, alice.key, "POST", seq=0, chat=0)[0] == 200
    kept = catchup.seen.since(lobby_id, "stark", alice.id)
    assert (kept.seq, kept.chat) == (upto, chat_upto)
    assert _ask(server, seen, alice.key, "POST", seq=-1)[0] == 422


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_mark_only_grows_with_writers_at_once(kind: str, tmp_path: Path) -> None:
    """Eight marks written at once (a socket closing on two workers, the panel closed): the
    stored mark is the largest step and the largest chat line of them, on both databases."""
    with race_store(kind, tmp_path) as store:
        online = OnlineStore(store.engine)
        person, _ = online.register("Hal")
        lobby, _ = online.create_lobby(
            person,
            name="Marks",
            players=3,
            houses=HOUSES,
            open_houses=HOUSES,
            settings={"houses": list(HOUSES)},
        )
        seen = SeenStore(store)
        marks = [(seq, 40 - seq) for seq in range(8, 40, 4)]
        won, lost = race(
            [functools.partial(seen.mark, lobby.id, "stark", person.id, s, c) for s, c in marks]
        )
        assert (len(won), lost) == (len(marks), [])
        assert seen.since(lobby.id, "stark", person.id) == Since(36, 32)
        seen.mark(lobby.id, "stark", person.id, 1, 1)
        assert seen.since(lobby.id, "stark", person.id) == Since(36, 32)
