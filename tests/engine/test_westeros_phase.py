"""The Westeros phase procedure (RULES.md 3.2) and §12.21-12.22."""

from __future__ import annotations

from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import Step
from westeros.engine.state import State
from westeros.engine.westeros_phase import WesterosPhase
from westeros.engine.wildlings import WildlingAttack

from ..builders import act, blank, prompt, run

# Cards with a wildling icon (3.2.4) and without.
ICON_I = "last-days-of-summer-i"
ICON_II = "dark-wings-dark-words"
ICON_III = "sea-of-storms"


def game(rules: Ruleset, *decks: tuple[str, ...], threat: int = 2, players: int = 6) -> State:
    """An empty board whose Westeros decks are exactly ``decks`` (top card first)."""
    s = blank(rules, players)
    s.westeros_decks = tuple(decks)
    s.threat = threat
    return s


def names(steps: tuple[Step, ...]) -> list[str]:
    """Step class names, the one running next first."""
    return [type(step).__name__ for step in reversed(steps)]


def test_3_2_2_revealed_cards_resolve_and_go_to_the_bottom(rules: Ruleset) -> None:
    s = game(
        rules,
        ("last-days-of-summer-i", "supply"),
        ("last-days-of-summer-ii", "game-of-thrones"),
        ("storm-of-swords", "web-of-lies"),
    )
    run(s, WesterosPhase())
    assert s.revealed == ("last-days-of-summer-i", "last-days-of-summer-ii", "storm-of-swords")
    assert s.westeros_decks == (
        ("supply", "last-days-of-summer-i"),
        ("game-of-thrones", "last-days-of-summer-ii"),
        ("web-of-lies", "storm-of-swords"),
    )
    assert s.restrictions == frozenset({"defense"})
    assert not s.stack


def test_3_2_4_threat_rises_two_per_icon(rules: Ruleset) -> None:
    s = game(rules, (ICON_I,), ("game-of-thrones",), (ICON_III,), threat=4)
    run(s, WesterosPhase())
    assert s.threat == 8


def test_3_2_5_threat_reaching_12_attacks_before_any_card(rules: Ruleset) -> None:
    s = game(rules, (ICON_I,), (ICON_II,), (ICON_III,), threat=10)
    WesterosPhase().run(s)
    assert s.threat == 12  # 10 + 3 icons, capped at 12 (3.2.4)
    assert s.stack[-1] == WildlingAttack()
    assert names(s.stack) == [
        "WildlingAttack",
        "ResolveWesterosCard",
        "ResolveWesterosCard",
        "ResolveWesterosCard",
        "WesterosEnd",
    ]


def test_3_2_5_no_attack_below_12(rules: Ruleset) -> None:
    s = game(rules, (ICON_I,), ("game-of-thrones",), ("rains-of-autumn",), threat=6)
    WesterosPhase().run(s)
    assert s.threat == 10
    assert "WildlingAttack" not in names(s.stack)


def test_12_22_threat_12_and_wildlings_attack_card_give_two_attacks(rules: Ruleset) -> None:
    s = game(rules, (ICON_I,), ("last-days-of-summer-ii",), ("wildlings-attack",), threat=8)
    WesterosPhase().run(s)
    assert s.pop() == WildlingAttack()  # the attack at 12, before any card
    for _ in range(3):
        s.pop().run(s)  # cards I, II, III
    assert s.stack[-1] == WildlingAttack()  # the card's own attack, at the threat left then


def test_3_2_3_winter_is_coming_reshuffles_and_reveals_a_new_card(rules: Ruleset) -> None:
    s = game(rules, ("winter-is-coming-i", ICON_I), ("game-of-thrones",), ("web-of-lies",))
    run(s, WesterosPhase())
    assert "winter-is-coming-i" in [
        e.data["card"] for e in s.events if e.kind == "winter_is_coming"
    ]
    assert s.revealed[0] == ICON_I
    assert s.westeros_decks[0] == ("winter-is-coming-i", ICON_I)


def test_12_21_winter_is_coming_replacement_icon_counts(rules: Ruleset) -> None:
    s = game(
        rules,
        ("winter-is-coming-i", ICON_I),
        ("winter-is-coming-ii", "game-of-thrones"),
        ("put-to-the-sword",),
    )
    run(s, WesterosPhase())
    assert s.revealed[:2] == (ICON_I, "game-of-thrones")
    assert s.threat == 4  # only Last Days of Summer's icon; Winter is Coming has none
    assert sorted(s.westeros_decks[1]) == ["game-of-thrones", "winter-is-coming-ii"]


def test_3_2_6_card_ii_waits_for_card_i_decisions(rules: Ruleset) -> None:
    s = game(rules, ("a-throne-of-blades",), ("game-of-thrones",), ("put-to-the-sword",))
    run(s, WesterosPhase())
    holder = s.tracks["iron_throne"][0]
    assert prompt(s, holder).kind == "choose_option"
    assert s.power["stark"] == 5  # Game of Thrones not resolved yet
    s = act(s, holder, Choose("nothing"))
    assert s.power["stark"] == 6  # Winterfell's crown
    blade = s.tracks["fiefdoms"][0]
    assert prompt(s, blade).data["options"] == ["no_defense", "no_march+1", "nothing"]


def test_3_2_7_victory_is_checked_after_the_cards(rules: Ruleset) -> None:
    s = game(rules, (ICON_I,), ("last-days-of-summer-ii",), (ICON_III,))
    for area in (
        "kings-landing",
        "storms-end",
        "harrenhal",
        "crackclaw-point",
        "the-eyrie",
        "riverrun",
    ):
        s.power_tokens[area] = "baratheon"  # with Dragonstone: 7 castle areas (9.1)
    run(s, WesterosPhase())
    assert s.winner == "baratheon"
