"""Ratings and reliability of online players (issue 40, docs/online-ratings.md), on SQLite and
PostgreSQL: the stored ratings are OpenSkill's own (its ``rate`` called here on the same
placings), games with AI seats and unranked games move none, a game is counted once however
many times and workers record it, and reliability counts games finished, games left and
deadlines missed. The games are real games started through the hub; its seat thread does not
run, so they stay where they start, and each is recorded with standings as the engine gives
them (houses best first; tests/online/test_ratings_game.py plays one to its end)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from westeros.online import ratings
from westeros.online.errors import BelowReliability
from westeros.online.hub import OnlineHub
from westeros.online.records import LobbyInfo, PlayerInfo

from .ratings_helpers import (
    Expected,
    holders,
    houses,
    openskill_ratings,
    people,
    quiet_hub,
    slow_reads_of,
    table,
)
from .seat_helpers import SlowReads, race

RACERS = 4


@pytest.fixture(params=["sqlite", "postgresql"])
def hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OnlineHub]:
    with quiet_hub(request.param, tmp_path) as opened:
        yield opened


def _stored(hub: OnlineHub, ids: list[str]) -> Expected:
    found = {pid: ratings.profile(hub.online, pid).rating for pid in ids}
    return {pid: (r.mu, r.sigma) for pid, r in found.items() if r is not None}


def _held(lobby: LobbyInfo, person: PlayerInfo) -> str | None:
    seat = lobby.seat_of(person.id)
    return seat.house if seat is not None else None


def _same(stored: Expected, expected: Expected) -> bool:
    return stored.keys() == expected.keys() and all(
        stored[p] == pytest.approx(expected[p], rel=1e-9) for p in expected
    )


def test_stored_ratings_are_openskill_s_own_rate_over_several_games(hub: OnlineHub) -> None:
    folk = people(hub, "Ana", "Ben", "Cai", "Dee", "Eli", "Fay")
    rnd = random.Random(40)
    played = []
    for size in (3, 4, 5, 6, 4, 3):
        lobby = table(hub, rnd.sample(folk, size))
        standings = list(houses(size))
        rnd.shuffle(standings)
        assert ratings.record_game(hub.online, lobby.id, lobby.game_id or "", standings)
        played.append((holders(lobby), standings))
    # Standings rank only the houses that may win (RULES.md 9.2 with a plugin's
    # ``rule_left_out``): the two left out tie for the last place.
    lobby = table(hub, folk[:5])
    standings = list(houses(5)[2:])
    assert ratings.record_game(hub.online, lobby.id, lobby.game_id or "", standings)
    played.append((holders(lobby), standings))
    expected = openskill_ratings(played)
    stored = _stored(hub, [p.id for p in folk])
    for person in folk:
        mu, sigma = expected[person.id]
        print(f"{person.name}: stored {stored[person.id]}, openskill {expected[person.id]}")
        found = ratings.profile(hub.online, person.id).rating
        assert found is not None
        assert found.ordinal == pytest.approx(PlackettLuce().rating(mu, sigma).ordinal())
        assert found.games == sum(person.id in seats.values() for seats, _ in played)
    assert _same(stored, expected)
    history = ratings.profile(hub.online, folk[0].id).history
    assert [game.ranked for game in history] == [True] * len(history)
    last = history[0]  # newest first: the game with two houses left out
    assert last.players == 5 and last.place in (1, 2, 3, 4)


def test_unranked_games_and_games_with_ai_seats_leave_ratings_unchanged(hub: OnlineHub) -> None:
    ana, ben, cai, dee = people(hub, "Ana", "Ben", "Cai", "Dee")
    first = table(hub, [ana, ben, cai])
    ratings.record_game(hub.online, first.id, first.game_id or "", list(houses(3)))
    before = _stored(hub, [ana.id, ben.id, cai.id, dee.id])
    unranked = table(hub, [ana, ben, cai], ranked=False)
    with_ai = table(hub, [ana, dee], players=3)  # the third seat is the AI's from the start
    emptied = table(hub, [ana, ben, cai])
    hub.kick(emptied.id, ana, houses(3)[2])  # the AI plays Cai's seat to the end
    for lobby in (unranked, with_ai, emptied):
        standings = list(reversed(houses(3)))
        assert ratings.record_game(hub.online, lobby.id, lobby.game_id or "", standings)
    assert _stored(hub, [ana.id, ben.id, cai.id, dee.id]) == before
    assert ratings.profile(hub.online, dee.id).rating is None
    reasons = [(g.ranked, g.reason) for g in ratings.profile(hub.online, ana.id).history]
    assert reasons == [
        (False, ratings.EMPTY_SEAT),
        (False, ratings.AI_SEAT),
        (False, ratings.NOT_CHOSEN),
        (True, ""),
    ]
    # They are finished games all the same: reliability counts them.
    assert ratings.profile(hub.online, ana.id).reliability.finished == 4
    assert ratings.profile(hub.online, cai.id).reliability == ratings.Reliability(2, 1, 0)


def test_a_game_recorded_twice_or_by_several_workers_at_once_counts_once(hub: OnlineHub) -> None:
    folk = people(hub, "Ana", "Ben", "Cai", "Dee")
    first = table(hub, folk)
    standings = list(houses(4))
    assert ratings.record_game(hub.online, first.id, first.game_id or "", standings)
    assert not ratings.record_game(hub.online, first.id, first.game_id or "", standings)
    second = table(hub, folk)
    record = functools.partial(
        ratings.record_game, hub.online, second.id, second.game_id or "", standings[::-1]
    )
    with SlowReads(hub.store.engine) as slow:
        won, lost = race([record] * RACERS)
    print(
        f"{hub.store.engine.dialect.name}: {RACERS} workers record one game at once "
        f"({slow.paused} reads paused {slow.pause}s): {won}"
    )
    assert sorted(won) == [False] * (RACERS - 1) + [True] and not lost
    expected = openskill_ratings([(holders(first), standings), (holders(second), standings[::-1])])
    assert _same(_stored(hub, [p.id for p in folk]), expected)
    for person in folk:
        assert len(ratings.profile(hub.online, person.id).history) == 2
        assert ratings.profile(hub.online, person.id).reliability.finished == 2


def test_two_games_of_the_same_people_ending_at_once_both_move_their_ratings(
    hub: OnlineHub,
) -> None:
    folk = people(hub, "Ana", "Ben", "Cai")
    earlier = table(hub, folk)  # they have ratings already, which both games read and move
    first = (holders(earlier), [houses(3)[1], houses(3)[0], houses(3)[2]])
    ratings.record_game(hub.online, earlier.id, earlier.game_id or "", first[1])
    a, b = table(hub, folk), table(hub, folk)
    results = {a.id: list(houses(3)), b.id: list(reversed(houses(3)))}
    calls: list[Callable[[], Any]] = [
        functools.partial(
            ratings.record_game, hub.online, lobby.id, lobby.game_id or "", results[lobby.id]
        )
        for lobby in (a, b)
    ]
    with slow_reads_of(hub.store.engine, "player_ratings", 0.3) as paused:
        won, lost = race(calls)
    print(f"{hub.store.engine.dialect.name}: reads of the ratings paused: {paused}")
    assert won == [True, True] and not lost
    stored = _stored(hub, [p.id for p in folk])
    one = openskill_ratings([first, (holders(a), results[a.id]), (holders(b), results[b.id])])
    other = openskill_ratings([first, (holders(b), results[b.id]), (holders(a), results[a.id])])
    assert _same(stored, one) or _same(stored, other)  # one after the other, never one lost
    for person in folk:
        rating = ratings.profile(hub.online, person.id).rating
        assert rating is not None and rating.games == 3


def test_reliability_counts_games_finished_and_left_and_deadlines_missed(hub: OnlineHub) -> None:
    ana, ben, cai, dee = people(hub, "Ana", "Ben", "Cai", "Dee")
    baratheon, lannister, stark = houses(3)
    running = table(hub, [ana, ben, cai])
    hub.kick(running.id, ana, lannister)  # Ben is sent away from a running game
    _, token = hub.hand_back(running.id, ana, stark)  # Cai too, his seat offered again
    hub.kick(running.id, ana, lannister)  # nobody holds it now: nobody left
    hub.join(token, ben)  # Ben comes back in Cai's seat and holds it at the end
    ratings.record_game(hub.online, running.id, running.game_id or "", [stark, baratheon])
    lobby, invites = hub.create_lobby(dee, name="Open", players=3, host_house=baratheon)
    hub.join(invites[lannister], cai)
    hub.kick(lobby.id, dee, lannister)  # before the game starts: not a game left
    ratings.record_missed_deadline(hub.online, lobby.id, dee.id)
    ratings.record_missed_deadline(hub.store, lobby.id, dee.id)  # either store of the database
    found = {p.name: ratings.profile(hub.online, p.id).reliability for p in (ana, ben, cai, dee)}
    print(found)
    assert found == {
        "Ana": ratings.Reliability(finished=1, left=0, missed_deadlines=0),
        "Ben": ratings.Reliability(finished=1, left=0, missed_deadlines=0),
        "Cai": ratings.Reliability(finished=0, left=1, missed_deadlines=0),
        "Dee": ratings.Reliability(finished=0, left=0, missed_deadlines=2),
    }
    assert [found[n].percent for n in ("Ana", "Cai", "Dee")] == [100, 0, None]
    cai_profile = ratings.profile(hub.online, cai.id)
    assert cai_profile.left == (), "a game left is listed once it is over"
    hub.online.mark_finished(running.id)
    assert [g.house for g in ratings.profile(hub.online, cai.id).left] == [stark]


def test_a_minimum_reliability_refuses_who_falls_short_and_seats_who_meets_it(
    hub: OnlineHub,
) -> None:
    host, steady, shaky, newcomer, other = people(hub, "Host", "Steady", "Shaky", "New", "Oth")
    baratheon, lannister, stark = houses(3)
    kept = table(hub, [steady, shaky, other])
    ratings.record_game(hub.online, kept.id, kept.game_id or "", list(houses(3)))
    left = table(hub, [other, shaky, steady])
    hub.kick(left.id, other, lannister)  # Shaky: 1 finished, 1 left (50 %)
    lobby, invites = hub.create_lobby(
        host, name="Strict", players=3, host_house=baratheon, min_reliability=60
    )
    for person in (newcomer, shaky):
        with pytest.raises(BelowReliability) as refused:
            hub.take(lobby.id, person, lannister)
        print(f"{person.name}: {refused.value.code} {refused.value.message}")
        assert refused.value.code == "online/below-reliability" and refused.value.status == 403
        with pytest.raises(BelowReliability):
            hub.join(invites[stark], person)
    assert hub.online.lobby(lobby.id).seat_of(shaky.id) is None
    assert _held(hub.take(lobby.id, steady, lannister), steady) == lannister
    assert _held(hub.take(lobby.id, steady, stark), steady) == stark  # moving is fine
    assert _held(hub.take(lobby.id, host, lannister), host) == lannister  # the host
    _, fair_invites = hub.create_lobby(
        host, name="Fair", players=3, host_house=baratheon, min_reliability=50
    )
    assert hub.join(fair_invites[stark], shaky)[1] == stark
