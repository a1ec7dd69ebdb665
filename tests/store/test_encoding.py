"""The versioned state encoding behind the hash and the snapshots (issue 11, What to build 4):
plain JSON, every record under a registered stable name (never a class path), a format
version, and nothing made but the engine's and the loaded plugins' own records."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
import types
from typing import ClassVar

import pytest

from westeros.engine import Ruleset, State, apply, encoding, new_game, pending, random_action
from westeros.engine.flow import Step
from westeros.plugins import build_ruleset


@pytest.mark.parametrize("options", [{}, {"tides_of_battle": True}], ids=["base", "tides"])
def test_every_state_of_a_whole_game_round_trips_through_json_text(
    rules: Ruleset, options: dict[str, bool]
) -> None:
    game_rules = build_ruleset(options) if options else rules
    state = new_game(game_rules, 6, 13, options)
    rnd = random.Random(13)
    while True:
        text = json.dumps(encoding.encode_state(state))
        again = encoding.decode_state(json.loads(text), game_rules)
        assert again.hash() == state.hash(), f"state {state.serial}"
        if not pending(state):
            break
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        continued, _ = apply(again, house, action)
        assert continued.hash() == state.hash()


def test_the_encoding_names_no_module_or_class_path(rules: Ruleset) -> None:
    state = new_game(rules, 3, 1)
    text = json.dumps(encoding.encode_state(state))
    names = [str(r["@"]) for r in _records(encoding.encode_state(state))]
    assert "westeros." not in text
    assert [n for n in names if ":" in n and not n.startswith("action:")] == []
    assert json.loads(text)["encoding"] == encoding.ENCODING_VERSION


def _records(data: object) -> list[dict[str, object]]:
    found, todo = [], [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            if "@" in item:
                found.append(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


def test_every_step_and_record_type_is_registered_under_its_stable_name() -> None:
    names = encoding.registered()
    for name, cls in names.items():
        assert name in (encoding.record_name(cls), *getattr(cls, "encoding_aliases", ()))
    assert names["WesterosPhase"].__module__ == "westeros.engine.westeros_phase"
    assert names["base.TyrionCancel"].__module__ == "westeros.base.house_cards"
    assert names["westeros_tides_of_battle.TidesReveal"].__name__ == "TidesReveal"
    assert names["action:bid"].__name__ == "Bid"


def test_two_record_types_under_one_name_are_refused_naming_both() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Clash(Step):
        encoding_name: ClassVar[str] = "WesterosPhase"

    with pytest.raises(encoding.EncodingError, match=r"westeros_phase\.WesterosPhase and .*Clash"):
        encoding.registered()
    Clash.encoding_name = "test.Clash"  # type: ignore[misc]
    encoding.registered()


@dataclasses.dataclass(frozen=True, slots=True)
class _Renamed(Step):
    """A step renamed after games were saved: it keeps the name they were saved under."""

    encoding_name: ClassVar[str] = "test.OldName"
    encoding_aliases: ClassVar[tuple[str, ...]] = ("test.OlderName",)
    area: str = ""


def test_a_renamed_step_reads_under_its_recorded_names() -> None:
    written = encoding.encode(_Renamed("winterfell"))
    assert written == {"@": "test.OldName", "area": "winterfell"}
    assert encoding.decode({"@": "test.OlderName", "area": "winterfell"}) == _Renamed("winterfell")


@pytest.mark.parametrize(
    "data",
    [
        {"@": "os:system"},  # a path, not a registered name
        {"@": "subprocess.Popen"},
        {"@": "westeros_not_loaded.Step"},  # a plugin that is not loaded
        {"@": "Unit", "house": "stark", "type": "footman", "colour": "grey"},  # a field too many
        {"@set": "not a list"},
        {"@what": 1},
        3.5,
    ],
)
def test_decoding_makes_only_registered_records_and_says_what_does_not_fit(
    data: object,
) -> None:
    with pytest.raises(encoding.EncodingError):
        encoding.decode(data)


def test_a_newer_encoding_is_refused_with_its_version(rules: Ruleset) -> None:
    data = encoding.encode_state(new_game(rules, 3, 1))
    data["encoding"] = encoding.ENCODING_VERSION + 1
    with pytest.raises(encoding.EncodingError, match=f"encoding {encoding.ENCODING_VERSION + 1}"):
        encoding.decode_state(data, rules)


def test_the_hash_ignores_dict_insertion_order_but_not_content(rules: Ruleset) -> None:
    state = new_game(rules, 3, 1)
    shuffled = state.copy()
    shuffled.power = dict(reversed(list(state.power.items())))
    assert shuffled.hash() == state.hash()
    shuffled.power[state.houses[0]] += 1
    assert shuffled.hash() != state.hash()


def _standard_hash(state: State) -> str:
    """The hash as one ``json`` call on the state's whole encoding writes its text."""
    fields = {
        name: dict(sorted(v.items())) if type(v) is dict else v
        for name, v in encoding.encode_state(state)["fields"].items()
    }
    text = json.dumps(
        {"encoding": encoding.ENCODING_VERSION, "fields": fields},
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_whole_games_hashes_are_those_of_its_standard_json_text(rules: Ruleset) -> None:
    """Saves and online logs record these hashes: a faster writer of the hash text must give
    these same bytes (no spaces, non-ASCII as itself, the state's maps in key order)."""
    rnd = random.Random(5)
    state = new_game(rules, 6, 5)
    for _ in range(300):
        waiting = pending(state)
        if not waiting:
            break
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))
        assert state.hash() == _standard_hash(state)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (8, {"mother_of_dragons": True, "mod_iron_bank": True, "mod_sea_orders": True}),
        (7, {"mother_of_dragons": True, "mod_vassals": True, "mod_targaryen_b_deck": True}),
        (6, {"tides_of_battle": True}),
    ],
    ids=["8-iron-bank-sea-orders", "7-vassals-b-deck", "6-tides"],
)
def test_11_the_hashes_of_games_played_side_by_side_are_their_standard_json_texts(
    players: int, options: dict[str, bool]
) -> None:
    """A server hashes the states of many games in turn, each sharing most of its values
    with its previous state (the text of those is kept): every state of three games played
    a step each in turn, with the expansions' own fields (§11), hashes as its whole text."""
    game_rules = build_ruleset(options)
    games = [
        (new_game(game_rules, players, seed, options), random.Random(seed)) for seed in (1, 2, 3)
    ]
    for _ in range(250):
        for i, (state, rnd) in enumerate(games):
            waiting = pending(state)
            if waiting:
                house = rnd.choice(sorted(waiting))
                state, _ = apply(state, house, random_action(state, house, rnd))
                games[i] = (state, rnd)
            assert state.hash() == _standard_hash(state), f"game {i}, state {state.serial}"


def test_a_step_of_a_plugin_file_imported_again_supersedes_its_old_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A single-file plugin whose file changed is imported again (``plugins._load_file``), so
    its step classes exist twice under one module and name: the newer one is written and read
    under the name, and no other game's encoding breaks (it raised "two record types")."""
    source = (
        "import dataclasses\n"
        "from westeros.engine.flow import Step\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\n"
        "class ReloadedOmen(Step):\n"
        "    area: str = ''\n"
    )
    name = "westeros_user_plugins.reloaded_omens"
    loaded = []
    for _ in range(2):
        module = types.ModuleType(name)
        monkeypatch.setitem(sys.modules, name, module)
        exec(source, module.__dict__)
        loaded.append(module.ReloadedOmen)
        names = encoding.registered()
    newer = loaded[1]
    assert loaded[0] is not newer
    assert names["westeros_user_plugins.ReloadedOmen"] is newer
    assert encoding.decode(encoding.encode(newer("winterfell"))) == newer("winterfell")
