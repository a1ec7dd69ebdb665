"""Hard against the mixed field (issue 15, acceptance 1): the field's levels are spread so
that a house's figure says how Hard plays it, not which opponents it always met. Before
session 16 each of Hard's houses met one fixed table: Tyrell always faced a Normal Greyjoy,
Martell a Normal Stark and Baratheon, Stark a single Normal seat."""

from __future__ import annotations

from collections import Counter, defaultdict
from types import ModuleType

HOUSES = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell")
GAMES = 18
"""Three rounds of the table: each house is Hard's three times."""


def tables(tournament: ModuleType) -> dict[str, list[dict[str, str]]]:
    """Hard's house → the levels of the other houses at each of its games."""
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for game in range(GAMES):
        seats = dict(zip(HOUSES, tournament.lineup("hard-vs-field", game), strict=True))
        hard = [h for h, p in seats.items() if p.name == "hard"]
        assert len(hard) == 1
        out[hard[0]].append({h: p.name for h, p in seats.items() if h != hard[0]})
    return out


def test_each_hard_house_meets_every_level_in_every_other_house(tournament: ModuleType) -> None:
    met = tables(tournament)
    assert set(met) == set(HOUSES)
    for hard, games in met.items():
        for other in HOUSES:
            if other != hard:
                levels = Counter(table[other] for table in games)
                assert levels == {"standard": 1, "baseline": 1, "normal": 1}, (hard, other)


def test_each_hard_house_faces_as_many_seats_of_each_level(tournament: ModuleType) -> None:
    for hard, games in tables(tournament).items():
        faced = Counter(level for table in games for level in table.values())
        assert faced == {"standard": 5, "baseline": 5, "normal": 5}, hard
