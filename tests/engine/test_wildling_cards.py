"""The nine wildling cards (RULES.md 7.3): Night's Watch victory, lowest bidder and everyone
else for each, plus §12.24 and §12.25.

3-player boards: turn order Baratheon, Lannister, Stark; Fiefdoms Stark, Baratheon, Lannister;
King's Court Lannister, Stark, Baratheon; every house starts with 5 PT. Unless a test says
otherwise, NW_BIDS make Baratheon the highest bidder of a Night's Watch victory (threat 4) and
WILDLING_BIDS make Stark the lowest bidder of a wildling victory (threat 12)."""

from __future__ import annotations

import pytest

from tests.builders import act, blank, prompt, put, run
from tests.engine.test_wildlings import attack, top
from westeros.engine.actions import Bid, Choose, SelectArea, SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import apply
from westeros.engine.mustering import MusterUnit
from westeros.engine.state import State, Unit

B, L, S = "baratheon", "lannister", "stark"
NW_BIDS = {B: 3, L: 1, S: 0}
WILDLING_BIDS = {B: 2, L: 1, S: 0}


def nights_watch(state: State, card: str) -> State:
    """Baratheon wins a Night's Watch victory as highest bidder; ``card`` is revealed."""
    state.threat = 4
    return attack(state, NW_BIDS, card=card)


def wildlings(state: State, card: str) -> State:
    """The wildlings win with Stark as lowest bidder; ``card`` is revealed."""
    state.threat = 12
    return attack(state, WILDLING_BIDS, card=card)


def units(state: State, area: str) -> list[str]:
    return sorted(u.type for u in state.units.get(area, ()))


def waiting(state: State) -> list[str]:
    return [h for h in (B, L, S) if prompt(state, h) is not None]


# ---------- 7.3.1 Silence at the Wall


def board_with_everything(rules: Ruleset) -> State:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman", "knight")
    put(s, "lannisport", L, "footman", "knight")
    put(s, "winterfell", S, "footman", "knight")
    s.discards[B] = ("stannis-baratheon",)
    s.hands[B] = tuple(c for c in s.hands[B] if c != "stannis-baratheon")
    return s


def snapshot(s: State) -> tuple[object, ...]:
    return (dict(s.units), dict(s.tracks), dict(s.hands), dict(s.discards), dict(s.supply))


def test_7_3_1_silence_at_the_wall_nights_watch(rules: Ruleset) -> None:
    s = board_with_everything(rules)
    before = snapshot(s)
    s = nights_watch(s, "silence-at-the-wall")
    assert waiting(s) == []
    assert snapshot(s) == before
    assert s.power == {B: 2, L: 4, S: 5}


def test_7_3_1_silence_at_the_wall_wildlings(rules: Ruleset) -> None:
    s = board_with_everything(rules)
    before = snapshot(s)
    s = wildlings(s, "silence-at-the-wall")
    assert waiting(s) == []
    assert snapshot(s) == before
    assert s.power == {B: 3, L: 4, S: 5}


# ---------- 7.3.2 Preemptive Raid


def test_7_3_2_preemptive_raid_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s = nights_watch(s, "preemptive-raid")
    assert s.threat == 0
    assert waiting(s) == [L, S]
    assert prompt(s, L).data["strength"] == 6
    assert prompt(s, S).data["max"] == 5


def test_12_24_preemptive_raid_second_attack_excludes_the_highest_bidder(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 4
    s = attack(s, NW_BIDS, card="preemptive-raid")
    assert s.wildling_deck[-1] == "preemptive-raid"
    top(s, "skinchanger-scout")
    s = act(s, L, Bid(2))
    s = act(s, S, Bid(1))
    # 3 < 6: the wildlings win the second attack; Stark is the lowest bidder.
    assert s.wildling_deck[-1] == "skinchanger-scout"
    assert s.power[S] == 0  # lowest bidder discards all its power
    assert s.power[L] == 5 - 1 - 2 - 2  # two bids, then "everyone else" discards 2
    assert s.power[B] == 5 - 3  # neither bids nor is affected
    assert s.threat == 0
    assert waiting(s) == []


def test_7_3_2_preemptive_raid_lowest_bidder_destroys_two_units(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "footman", "knight")
    put(s, "white-harbor", S, "footman")
    put(s, "lannisport", L, "footman", "footman")
    s = wildlings(s, "preemptive-raid")
    assert prompt(s, S).data["options"] == ["destroy_units", "drop_track"]
    s = act(s, S, Choose("destroy_units"))
    assert prompt(s, S).data["count"] == 2
    s = act(s, S, SelectUnits((("winterfell", "knight"), ("white-harbor", "footman"))))
    assert units(s, "winterfell") == ["footman"]
    assert "white-harbor" not in s.units
    assert units(s, "lannisport") == ["footman", "footman"]  # everyone else: nothing
    assert waiting(s) == []


def test_7_3_2_preemptive_raid_lowest_bidder_drops_two_on_its_highest_track(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s = wildlings(s, "preemptive-raid")
    s = act(s, S, Choose("drop_track"))
    # Stark is first on Fiefdoms (its highest track) and drops to third.
    assert s.tracks["fiefdoms"] == (B, L, S)
    assert s.tracks["iron_throne"] == (B, L, S)
    assert s.tracks["kings_court"] == (L, S, B)
    assert waiting(s) == []


def test_7_3_2_preemptive_raid_track_tie_iron_throne_holder_picks_and_drop_stops_at_last(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.tracks["kings_court"] = (S, L, B)
    s.threat = 12
    s = attack(s, {B: 2, L: 0, S: 1}, card="preemptive-raid")
    s = act(s, L, Choose("drop_track"))
    # Lannister is second on both Iron Throne and King's Court: Baratheon picks.
    p = prompt(s, B)
    assert sorted(p.data["options"]) == ["iron_throne", "kings_court"]
    assert prompt(s, L) is None
    s = act(s, B, Choose("kings_court"))
    assert s.tracks["kings_court"] == (S, B, L)
    assert s.tracks["iron_throne"] == (B, L, S)


# ---------- 7.3.3 Crow Killers


def test_7_3_3_crow_killers_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman", "footman")
    put(s, "kingswood", B, "footman")
    s = nights_watch(s, "crow-killers")
    p = prompt(s, B)
    assert p.data["min"] == 0 and p.data["max"] == 2
    with pytest.raises(IllegalChoice):
        apply(s, B, SelectUnits((("dragonstone", "footman"),) * 2 + (("kingswood", "footman"),)))
    s = act(s, B, SelectUnits((("dragonstone", "footman"), ("kingswood", "footman"))))
    assert units(s, "dragonstone") == ["footman", "knight"]
    assert units(s, "kingswood") == ["knight"]


def test_7_3_3_crow_killers_nights_watch_may_decline(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman", "footman")
    s = nights_watch(s, "crow-killers")
    s = act(s, B, SelectUnits(()))
    assert units(s, "dragonstone") == ["footman", "footman"]
    assert waiting(s) == []


def test_7_3_3_crow_killers_nights_watch_needs_available_knights(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman", "footman")
    put(s, "kingswood", B, "knight", "knight")
    put(s, "blackwater", B, "knight", "knight")
    s = nights_watch(s, "crow-killers")
    assert prompt(s, B).data["max"] == 1  # 5 knights in the pool, 4 on the board


def test_7_3_3_crow_killers_wildlings_lowest_bidder_replaces_all_knights(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "knight", "knight", "footman")
    put(s, "white-harbor", S, "knight")
    put(s, "lannisport", L, "footman")
    s = wildlings(s, "crow-killers")
    assert units(s, "winterfell") == ["footman", "footman", "footman"]
    assert units(s, "white-harbor") == ["footman"]
    assert waiting(s) == []


def test_7_3_3_crow_killers_wildlings_lowest_bidder_destroys_knights_without_footmen(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "knight", "knight")
    put(s, "white-harbor", S, "knight")
    for area in ("karhold", "the-stony-shore", "castle-black", "widows-watch", "moat-cailin"):
        put(s, area, S, "footman")
    put(s, "greywater-watch", S, "footman", "footman", "footman", "footman")
    s = wildlings(s, "crow-killers")
    # 9 of 10 footmen on the board: one knight is replaced, Stark chooses the 2 destroyed.
    p = prompt(s, S)
    assert p.kind == "destroy_units" and p.data["count"] == 2
    assert sorted(map(tuple, p.data["units"])) == [
        ("white-harbor", "knight"),
        ("winterfell", "knight"),
        ("winterfell", "knight"),
    ]
    s = act(s, S, SelectUnits((("winterfell", "knight"), ("winterfell", "knight"))))
    assert "winterfell" not in s.units
    assert units(s, "white-harbor") == ["footman"]


def test_7_3_3_crow_killers_wildlings_everyone_else_replaces_two_knights(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "knight")
    put(s, "lannisport", L, "knight", "knight")
    put(s, "searoad-marches", L, "knight")
    put(s, "winterfell", S, "footman")
    s = wildlings(s, "crow-killers")
    # Baratheon's only knight is replaced at once; Lannister picks 2 of its 3.
    assert units(s, "dragonstone") == ["footman"]
    p = prompt(s, L)
    assert p.kind == "replace_units" and p.data["count"] == 2
    s = act(s, L, SelectUnits((("lannisport", "knight"), ("searoad-marches", "knight"))))
    assert units(s, "lannisport") == ["footman", "knight"]
    assert units(s, "searoad-marches") == ["footman"]
    assert units(s, "winterfell") == ["footman"]
    assert waiting(s) == []


# ---------- 7.3.4 Rattleshirt's Raiders


def test_7_3_4_rattleshirts_raiders_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.supply = {B: 3, L: 6, S: 2}
    s = nights_watch(s, "rattleshirts-raiders")
    assert s.supply == {B: 4, L: 6, S: 2}
    s.supply[B] = 6
    s.power = {B: 5, L: 5, S: 5}
    s = nights_watch(s, "rattleshirts-raiders")
    assert s.supply[B] == 6


def test_7_3_4_rattleshirts_raiders_wildlings_then_reconcile_in_turn_order(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.supply = {B: 0, L: 1, S: 3}
    put(s, "lannisport", L, "footman", "footman", "knight")
    put(s, "winterfell", S, "footman", "footman", "knight")
    put(s, "white-harbor", S, "footman", "footman")
    put(s, "karhold", S, "footman", "footman")
    s = wildlings(s, "rattleshirts-raiders")
    # Supply: Stark 3 -> 1 (lowest), Baratheon stays 0, Lannister 1 -> 0 (everyone else).
    assert s.supply == {B: 0, L: 0, S: 1}
    # Reconciling only starts after every supply change, in turn order: Lannister first
    # (one army of 3 at position 0, allowed [2, 2]), though Stark's supply dropped first.
    assert waiting(s) == [L]
    s = act(s, L, SelectUnits((("lannisport", "knight"),)))
    assert units(s, "lannisport") == ["footman", "footman"]
    # Stark at position 1, allowed [3, 2]: three armies (3, 2, 2) are one too many.
    assert waiting(s) == [S]
    s = act(s, S, SelectUnits((("karhold", "footman"),)))
    assert waiting(s) == []
    assert units(s, "karhold") == ["footman"]
    assert units(s, "winterfell") == ["footman", "footman", "knight"]


# ---------- 7.3.5 Massing on the Milkwater


def test_7_3_5_massing_on_the_milkwater_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.hands[B] = ("patchface",)
    s.discards[B] = ("stannis-baratheon", "renly-baratheon")
    s = nights_watch(s, "massing-on-the-milkwater")
    assert sorted(s.hands[B]) == ["patchface", "renly-baratheon", "stannis-baratheon"]
    assert s.discards[B] == ()


def test_12_25_massing_on_the_milkwater_hand_sharing_one_strength_is_kept(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.hands[S] = ("roose-bolton", "greatjon-umber")  # both strength 2
    s = wildlings(s, "massing-on-the-milkwater")
    assert s.hands[S] == ("roose-bolton", "greatjon-umber")
    assert s.discards[S] == ()


def test_12_25_massing_on_the_milkwater_strongest_card_is_discarded(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.hands[S] = ("eddard-stark", "robb-stark", "the-blackfish")  # 4, 3, 1
    s = wildlings(s, "massing-on-the-milkwater")
    assert s.hands[S] == ("robb-stark", "the-blackfish")
    assert s.discards[S] == ("eddard-stark",)


def test_7_3_5_massing_on_the_milkwater_lowest_bidder_discards_every_card_of_top_strength(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.hands[S] = ("roose-bolton", "the-blackfish", "greatjon-umber")  # 2, 1, 2
    s.hands[B] = ("patchface",)
    s = wildlings(s, "massing-on-the-milkwater")
    assert s.hands[S] == ("the-blackfish",)
    assert sorted(s.discards[S]) == ["greatjon-umber", "roose-bolton"]


def test_7_3_5_massing_on_the_milkwater_lowest_bidder_single_card_is_kept(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.hands[S] = ("eddard-stark",)
    s = wildlings(s, "massing-on-the-milkwater")
    assert s.hands[S] == ("eddard-stark",)


def test_7_3_5_massing_on_the_milkwater_everyone_else_discards_one_of_its_choice(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.hands[B] = ("patchface",)
    s.hands[L] = ("tywin-lannister", "the-hound", "cersei-lannister")
    s = wildlings(s, "massing-on-the-milkwater")
    assert prompt(s, B) is None  # a single card in hand: nothing to discard
    p = prompt(s, L)
    assert sorted(p.data["options"]) == ["cersei-lannister", "the-hound", "tywin-lannister"]
    s = act(s, L, Choose("the-hound"))
    assert s.hands[L] == ("tywin-lannister", "cersei-lannister")
    assert s.discards[L] == ("the-hound",)
    assert s.hands[B] == ("patchface",)
    assert waiting(s) == []


# ---------- 7.3.6 A King Beyond the Wall


def test_7_3_6_a_king_beyond_the_wall_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s = nights_watch(s, "a-king-beyond-the-wall")
    assert sorted(prompt(s, B).data["options"]) == ["fiefdoms", "iron_throne", "kings_court"]
    s = act(s, B, Choose("kings_court"))
    assert s.tracks["kings_court"] == (B, L, S)
    assert s.tracks["fiefdoms"] == (S, B, L)


def test_7_3_6_a_king_beyond_the_wall_wildlings(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s = wildlings(s, "a-king-beyond-the-wall")
    # Stark (lowest) goes to the bottom of all three tracks.
    assert s.tracks["iron_throne"] == (B, L, S)
    assert s.tracks["fiefdoms"] == (B, L, S)
    assert s.tracks["kings_court"] == (L, B, S)
    # Everyone else, in turn order: Baratheon first, then Lannister; never the Iron Throne.
    assert waiting(s) == [B]
    assert sorted(prompt(s, B).data["options"]) == ["fiefdoms", "kings_court"]
    with pytest.raises(IllegalChoice):
        apply(s, B, Choose("iron_throne"))
    s = act(s, B, Choose("fiefdoms"))
    assert s.tracks["fiefdoms"] == (L, S, B)
    assert waiting(s) == [L]
    s = act(s, L, Choose("kings_court"))
    assert s.tracks["kings_court"] == (B, S, L)
    assert s.tracks["iron_throne"] == (B, L, S)
    assert waiting(s) == []


# ---------- 7.3.7 Mammoth Riders


def test_7_3_7_mammoth_riders_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.hands[B] = ("patchface",)
    s.discards[B] = ("stannis-baratheon", "renly-baratheon")
    s = nights_watch(s, "mammoth-riders")
    assert sorted(prompt(s, B).data["options"]) == ["none", "renly-baratheon", "stannis-baratheon"]
    s = act(s, B, Choose("renly-baratheon"))
    assert s.hands[B] == ("patchface", "renly-baratheon")
    assert s.discards[B] == ("stannis-baratheon",)


def test_7_3_7_mammoth_riders_nights_watch_may_decline(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.hands[B] = ("patchface",)
    s.discards[B] = ("stannis-baratheon",)
    s = nights_watch(s, "mammoth-riders")
    s = act(s, B, Choose("none"))
    assert s.hands[B] == ("patchface",)
    assert s.discards[B] == ("stannis-baratheon",)


def test_7_3_7_mammoth_riders_wildlings(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "footman", "footman", "knight")
    put(s, "white-harbor", S, "footman")
    put(s, "dragonstone", B, "footman", "knight")
    put(s, "lannisport", L, "footman", "footman", "knight")
    s = wildlings(s, "mammoth-riders")
    p = prompt(s, S)
    assert p.data["count"] == 3
    s = act(s, S, SelectUnits((("winterfell", "footman"),) * 2 + (("white-harbor", "footman"),)))
    assert units(s, "winterfell") == ["knight"]
    assert "white-harbor" not in s.units
    # Everyone else destroys 2: Baratheon has exactly 2 units, Lannister chooses.
    assert "dragonstone" not in s.units
    assert prompt(s, L).data["count"] == 2
    s = act(s, L, SelectUnits((("lannisport", "footman"), ("lannisport", "footman"))))
    assert units(s, "lannisport") == ["knight"]
    assert waiting(s) == []


# ---------- 7.3.8 The Horde Descends


def test_7_3_8_the_horde_descends_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman")
    put(s, "kingswood", B, "footman")
    s.power_tokens["storms-end"] = B
    s = nights_watch(s, "the-horde-descends")
    p = prompt(s, B)
    assert p.kind == "muster_area"
    assert sorted(p.data["areas"]) == ["dragonstone", "storms-end"]
    with pytest.raises(IllegalChoice):
        apply(s, B, SelectArea("kingswood"))
    s = act(s, B, SelectArea("dragonstone"))
    assert prompt(s, B).kind == "muster"
    assert prompt(s, B).data["points"] == 2  # a stronghold
    s = act(s, B, MusterUnit("knight", "dragonstone"))
    assert units(s, "dragonstone") == ["footman", "knight"]
    assert waiting(s) == []


def test_7_3_8_the_horde_descends_nights_watch_may_decline(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "dragonstone", B, "footman")
    s = nights_watch(s, "the-horde-descends")
    s = act(s, B, SelectArea(None))
    assert units(s, "dragonstone") == ["footman"]
    assert waiting(s) == []


def test_7_3_8_the_horde_descends_wildlings_lowest_bidder_loses_two_together_in_a_castle(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "footman", "knight", "footman")
    put(s, "white-harbor", S, "footman", "footman")
    put(s, "karhold", S, "footman", "footman")
    put(s, "dragonstone", B, "footman")
    put(s, "lannisport", L, "footman", "footman")
    s = wildlings(s, "the-horde-descends")
    p = prompt(s, S)
    assert p.kind == "destroy_area"
    assert sorted(p.data["areas"]) == ["white-harbor", "winterfell"]  # Karhold has no castle
    s = act(s, S, SelectArea("winterfell"))
    assert sorted(map(tuple, prompt(s, S).data["units"])) == [
        ("winterfell", "footman"),
        ("winterfell", "footman"),
        ("winterfell", "knight"),
    ]
    s = act(s, S, SelectUnits((("winterfell", "footman"), ("winterfell", "knight"))))
    assert units(s, "winterfell") == ["footman"]
    assert units(s, "white-harbor") == ["footman", "footman"]
    # Everyone else destroys 1 unit: Baratheon's only unit, then Lannister's choice.
    assert "dragonstone" not in s.units
    s = act(s, L, SelectUnits((("lannisport", "footman"),)))
    assert units(s, "lannisport") == ["footman"]
    assert waiting(s) == []


def test_7_3_8_the_horde_descends_lowest_bidder_without_a_castle_army_destroys_two_anywhere(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "footman")
    put(s, "karhold", S, "footman", "knight")
    s = wildlings(s, "the-horde-descends")
    p = prompt(s, S)
    assert p.kind == "destroy_units" and p.data["count"] == 2
    s = act(s, S, SelectUnits((("winterfell", "footman"), ("karhold", "footman"))))
    assert units(s, "karhold") == ["knight"]
    assert "winterfell" not in s.units


# ---------- 7.3.9 Skinchanger Scout


def test_7_3_9_skinchanger_scout_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s = nights_watch(s, "skinchanger-scout")
    assert s.power == {B: 5, L: 4, S: 5}


def test_7_3_9_skinchanger_scout_wildlings(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power[L] = 2
    s = wildlings(s, "skinchanger-scout")
    # Bids 2/1/0; then Stark (lowest) discards all 5, Baratheon 3 - 2, Lannister 1 - 1 (all).
    assert s.power == {B: 1, L: 0, S: 0}


def test_7_3_9_skinchanger_scout_units_and_cards_untouched(rules: Ruleset) -> None:
    s = blank(rules, 3)
    put(s, "winterfell", S, "footman")
    s = wildlings(s, "skinchanger-scout")
    assert s.units == {"winterfell": (Unit(S, "footman"),)}


def test_7_3_2_preemptive_raid_track_prompt_names_the_house_that_drops(rules: Ruleset) -> None:
    from westeros.base.wildling_cards import PreemptiveRaidTrack

    s = blank(rules, 6)
    s = run(
        s,
        PreemptiveRaidTrack(
            s.tracks["iron_throne"][0],
            ("fiefdoms", "kings_court"),
            "Preemptive Raid (7.3.2)",
            "greyjoy",
        ),
    )
    asked = prompt(s, s.tracks["iron_throne"][0])
    assert asked.data["house"] == "greyjoy"
    assert asked.data["options"] == ["fiefdoms", "kings_court"]
