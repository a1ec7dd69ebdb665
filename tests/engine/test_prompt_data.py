"""The typed contract of prompt data and the player view (issue 11, What to build 3): over random
games every prompt's ``data`` has exactly the keys and value types its kind's TypedDict declares
(engine/prompt_data.py, the plugins' prompt_data.py) and ``player_view`` matches ``PlayerView``
for every seat and the spectator (RULES.md 0.4.4)."""

from __future__ import annotations

import dataclasses
import random
import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.prompt_data import PROMPT_DATA, PlayerView
from westeros.engine.setup import new_game
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset
from westeros_ports.prompt_data import PROMPT_DATA as PORTS_DATA
from westeros_tides_of_battle.prompt_data import PROMPT_DATA as TIDES_DATA

GAMES = 30
VIEW_EVERY = 60  # decisions between two checks of every seat's view
MAX_DECISIONS = 5_000
PLUGIN_DATA = {**PORTS_DATA, **TIDES_DATA}
ALL_DATA = {**PROMPT_DATA, **PLUGIN_DATA}


def mismatches(value: Any, tp: Any, path: str = "data") -> list[str]:
    """Where ``value`` does not fit the annotation ``tp``: missing, undeclared or mistyped keys
    of TypedDicts, checked recursively. A ``tuple[...]`` is a fixed-length JSON array (list or
    tuple); ``int`` never accepts a bool."""
    if tp is Any:
        return []
    if tp is None or tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a {tp.__name__}"]
        hints = get_type_hints(tp)
        out = [f"{path}.{k}: missing" for k in sorted(tp.__required_keys__ - value.keys())]
        out += [f"{path}.{k}: not declared in {tp.__name__}" for k in value if k not in hints]
        for key in sorted(value.keys() & hints.keys()):
            out += mismatches(value[key], hints[key], f"{path}.{key}")
        return out
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        arms = [mismatches(value, arm, path) for arm in args]
        return [] if any(not a for a in arms) else [f"{path}: {value!r} fits none of {tp}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} is not a list"]
        return [p for i, v in enumerate(value) for p in mismatches(v, args[0], f"{path}[{i}]")]
    if origin is tuple:
        if not isinstance(value, list | tuple) or len(value) != len(args):
            return [f"{path}: {value!r} is not an array of {len(args)}"]
        return [
            p
            for i, (v, a) in enumerate(zip(value, args, strict=True))
            for p in mismatches(v, a, f"{path}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a dict"]
        out = []
        for k, v in value.items():
            out += mismatches(k, args[0], f"{path} key {k!r}")
            out += mismatches(v, args[1], f"{path}[{k!r}]")
        return out
    if tp is int or tp is bool:
        return [] if type(value) is tp else [f"{path}: {value!r} is not {tp.__name__}"]
    return [] if isinstance(value, tp) else [f"{path}: {value!r} is not {tp.__name__}"]


@dataclasses.dataclass
class Findings:
    """What the random games showed: prompt kinds seen and every mismatch found."""

    kinds: set[str] = dataclasses.field(default_factory=set)
    prompt_problems: list[str] = dataclasses.field(default_factory=list)
    view_problems: list[str] = dataclasses.field(default_factory=list)
    views_checked: int = 0


def check_views(state: Any, where: str, found: Findings) -> None:
    for seat in (*state.houses, None):
        problems = mismatches(player_view(state, seat), PlayerView, "view")
        found.view_problems += [f"{where} seat {seat}: {p}" for p in problems]
        found.views_checked += 1


def play(rules: Ruleset, seed: int, found: Findings) -> None:
    """One random game (3-6 players, Tides of Battle in every other one), checking each
    pending prompt against its schema and every view now and then."""
    rnd = random.Random(seed)
    state = new_game(rules, 3 + seed % 4, seed, {"tides_of_battle": seed % 2 == 1})
    for n in range(MAX_DECISIONS):
        waiting = pending(state)
        for _, prompt in sorted(waiting.items()):
            found.kinds.add(prompt.kind)
            schema = ALL_DATA.get(prompt.kind)
            if schema is not None:
                problems = mismatches(prompt.data, schema)
                found.prompt_problems += [f"game {seed} {prompt.kind}: {p}" for p in problems]
        if n % VIEW_EVERY == 0 or not waiting:
            check_views(state, f"game {seed} decision {n}", found)
        if not waiting:
            return
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))


@pytest.fixture(scope="module")
def findings() -> Findings:
    rules = build_ruleset()
    found = Findings()
    for seed in range(GAMES):
        play(rules, seed, found)
    return found


def test_every_prompt_data_matches_its_kinds_typed_dict(findings: Findings) -> None:
    assert findings.prompt_problems == []


def test_every_prompt_kind_seen_has_a_declared_schema(findings: Findings) -> None:
    assert findings.kinds - ALL_DATA.keys() == set()
    assert {"place_orders", "march", "choose_house_card", "tides_redraw"} <= findings.kinds


def test_engine_schema_names_no_plugin_kind() -> None:
    assert PROMPT_DATA.keys() & PLUGIN_DATA.keys() == set()


def test_player_view_matches_its_typed_dict_for_every_seat(findings: Findings) -> None:
    assert findings.views_checked > GAMES * 4
    assert findings.view_problems == []


def test_checker_rejects_an_undeclared_field_and_a_wrong_type() -> None:
    rules = build_ruleset()
    state = new_game(rules, 3, 1)
    prompt = next(iter(pending(state).values()))
    assert mismatches(prompt.data, PROMPT_DATA[prompt.kind]) == []
    extra = {**prompt.data, "surprise": 1}
    assert mismatches(extra, PROMPT_DATA[prompt.kind]) == [
        "data.surprise: not declared in PlaceOrdersData"
    ]
    wrong = {**prompt.data, "star_limit": True}
    assert mismatches(wrong, PROMPT_DATA[prompt.kind]) == ["data.star_limit: True is not int"]
    missing = {k: v for k, v in prompt.data.items() if k != "tokens"}
    assert mismatches(missing, PROMPT_DATA[prompt.kind]) == ["data.tokens: missing"]
