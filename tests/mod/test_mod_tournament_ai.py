"""The Mother of Dragons scenarios of ``benchmarks/ai_tournament.py`` (issue 12, acceptance 5):
8-player games (RULES.md 11.2.2), one Hard seat against 7 baseline AIs, Hard's house rotating
over all 8 houses game by game, or Hard always on Targaryen."""

from __future__ import annotations

from types import ModuleType

HOUSES = {"stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn", "targaryen"}


def hard_house(tournament: ModuleType, scenario: str, game: int) -> str:
    seats = tournament.mod_lineup(scenario, game)
    assert set(seats) == HOUSES
    hard = [h for h, p in seats.items() if p.name == "hard"]
    assert len(hard) == 1 and all(p.name == "baseline" for h, p in seats.items() if h != hard[0])
    return hard[0]


def test_11_2_2_the_hard_seat_rotates_over_all_eight_houses(tournament: ModuleType) -> None:
    houses = [hard_house(tournament, "mod8-hard-vs-baseline", g) for g in range(8)]
    assert set(houses) == HOUSES


def test_11_4_the_targaryen_scenario_seats_hard_on_targaryen(tournament: ModuleType) -> None:
    assert {hard_house(tournament, "mod8-hard-targaryen", g) for g in range(5)} == {"targaryen"}


def test_11_2_2_the_mod_scenarios_play_eight_player_mother_of_dragons(
    tournament: ModuleType,
) -> None:
    rules, seats, options = tournament.mod_game("mod8-hard-targaryen", 0, False)
    assert options["mother_of_dragons"] is True
    assert "targaryen" in rules.houses and len(seats) == 8
