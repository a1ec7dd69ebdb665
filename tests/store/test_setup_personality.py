"""Setup choices (issue 13.6): the AI personality chosen for each AI seat is recorded with the
seat in the store and plays that seat again when the game is resumed (a new ``Games`` on the
same database: the app reopened); "any" draws a registered personality with the game's seed;
a game's name is trimmed and length-limited. DESIGN §3 (personalities), §5 (the store)."""

from __future__ import annotations

import dataclasses

import pytest

from westeros.ai import BALANCED, AIPersonality, BaselineBot, StrongBot
from westeros.plugins import load
from westeros.server.games import NAME_LENGTH, Games, SetupError
from westeros.session import GameSession
from westeros.store import AI, GameStore, SeatSpec

from .helpers import three_player_setup

REGISTERED = ("conqueror", "opportunist", "power-broker", "turtle")
"""The bundled plugin's personalities (westeros_ai_personalities), by id."""


@pytest.fixture
def registered() -> tuple[AIPersonality, ...]:
    """The personalities the plugins register (the bundled plugin's four)."""
    return tuple(load().ai_personalities)


def personality_of(player: object) -> str:
    """The id of the personality an AI player plays with (strong AI: its AIPersonality;
    baseline AI: the baseline weights made from it)."""
    assert isinstance(player, StrongBot | BaselineBot)
    return player.personality.id


def seat_records(store: GameStore, game_id: str) -> dict[str, tuple[str, str, str]]:
    return {s.house: (s.kind, s.name, s.personality) for s in store.game(game_id).setup.seats}


def test_the_bundled_plugin_registers_the_personalities_offered(
    registered: tuple[AIPersonality, ...],
) -> None:
    assert sorted(p.id for p in registered) == list(REGISTERED)


@pytest.mark.parametrize("level", ["hard", "baseline"])
def test_chosen_personalities_are_recorded_per_seat_and_play_again_after_resume(
    store: GameStore, registered: tuple[AIPersonality, ...], level: str
) -> None:
    games = Games(store, personalities=registered)
    session = games.create(
        players=3,
        human="stark",
        seed=11,
        ai_level=level,
        personalities={"baratheon": "conqueror", "lannister": "turtle"},
        start_ai=False,
    )
    game_id = session.game_id
    assert personality_of(session.players["baratheon"]) == "conqueror"
    assert personality_of(session.players["lannister"]) == "turtle"
    games.close()
    assert seat_records(store, game_id) == {
        "baratheon": (AI, level, "conqueror"),
        "lannister": (AI, level, "turtle"),
        "stark": ("human", "", ""),
    }

    reopened = Games(store, personalities=registered)  # the app opened again
    try:
        resumed = reopened.get(game_id)
        kind = BaselineBot if level == "baseline" else StrongBot
        assert isinstance(resumed.players["baratheon"], kind)
        assert personality_of(resumed.players["baratheon"]) == "conqueror"
        assert personality_of(resumed.players["lannister"]) == "turtle"
    finally:
        reopened.close()


def test_any_draws_a_registered_personality_with_the_games_seed_and_records_it(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    try:
        drawn = []
        for _ in range(2):
            session = games.create(
                players=3,
                human="stark",
                seed="same seed",
                personalities={"baratheon": "any", "lannister": "any"},
                start_ai=False,
            )
            records = seat_records(store, session.game_id)
            drawn.append((records["baratheon"][2], records["lannister"][2]))
            assert personality_of(session.players["baratheon"]) == records["baratheon"][2]
        assert drawn[0] == drawn[1]
        assert set(drawn[0]) <= set(REGISTERED)
    finally:
        games.close()


def test_any_draws_differ_across_seeds(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    try:
        seen = set()
        for seed in range(12):
            session = games.create(
                players=3, human="stark", seed=seed, personalities={"baratheon": "any"}
            )
            seen.add(seat_records(store, session.game_id)["baratheon"][2])
        assert len(seen) > 1
    finally:
        games.close()


def test_an_unknown_personality_is_refused_and_stores_nothing(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    try:
        with pytest.raises(SetupError, match=r"personality of lannister .* not 'berserker'"):
            games.create(players=3, human="stark", personalities={"lannister": "berserker"})
    finally:
        games.close()
    assert store.list_games() == []


def test_a_seat_stored_without_a_personality_plays_balanced(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    """Games stored before revision 0006 have no personality: they keep the balanced AI."""
    rules = load().ruleset
    setup = three_player_setup(rules)
    seats = tuple(SeatSpec(s.house, AI, "normal") if s.house != "stark" else s for s in setup.seats)
    game = store.create_game(dataclasses.replace(setup, seats=seats))
    games = Games(store, personalities=registered)
    try:
        session = games.get(game.info.id)
        assert isinstance(session, GameSession)
        ai = [session.players[s.house] for s in seats if s.kind == AI]
        assert ai and all(personality_of(p) == BALANCED.id for p in ai)
    finally:
        games.close()


def test_a_games_name_is_trimmed_and_limited(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    try:
        session = games.create(players=3, human="stark", name="  Friday   night  ")
        assert store.game(session.game_id).setup.name == "Friday night"
        with pytest.raises(SetupError, match=f"at most {NAME_LENGTH} characters"):
            games.create(players=3, human="stark", name="x" * (NAME_LENGTH + 1))
    finally:
        games.close()
    assert len(store.list_games()) == 1


def test_an_exported_game_imports_with_its_seats_personalities(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    try:
        session = games.create(
            players=3,
            human="stark",
            ai_level="easy",
            personalities={"baratheon": "power-broker", "lannister": "opportunist"},
            start_ai=False,
        )
        text = store.export_json(session.game_id)
        store.delete_game(session.game_id)
        games.forget(session.game_id)
        imported = store.import_game(text)
        resumed = games.get(imported.id)
        assert personality_of(resumed.players["baratheon"]) == "power-broker"
        assert personality_of(resumed.players["lannister"]) == "opportunist"
    finally:
        games.close()
