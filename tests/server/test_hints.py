"""Combat-strength hints for draft decisions (the ``hint`` message): strengths as they stand
for a march into combat (5.4.1-5.4.2) and for a house-card choice (5.4.7-5.4.9), computed from
public information only and never changing the game."""

from __future__ import annotations

import pytest

from tests.builders import blank, order, put, run
from westeros.engine import Choose, Ruleset, State, board
from westeros.engine.combat import StartCombat
from westeros.engine.errors import IllegalChoice, NeutralForceTooStrong
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import Unit
from westeros.server import hints
from westeros.session import GameSession, Human, MalformedMessage
from westeros.store import GameSetup, GameStore, SeatSpec


def blackwater(rules: Ruleset) -> State:
    """Lannister may march from Stoney Sept into Blackwater, held by Stark (6 players)."""
    s = blank(rules)
    put(s, "stoney-sept", "lannister", "footman", "knight")
    order(s, "stoney-sept", "march+1*")
    put(s, "harrenhal", "lannister", "knight")
    order(s, "harrenhal", "support+0")
    put(s, "blackwater", "stark", "footman")
    order(s, "blackwater", "defense+1")
    put(s, "the-reach", "stark", "footman")
    order(s, "the-reach", "support+1*")
    put(s, "crackclaw-point", "baratheon", "footman")
    order(s, "crackclaw-point", "support+0")
    return run(s, MarchTurn("lannister"))


def test_5_4_2_march_hint_gives_both_strengths_before_house_cards(rules: Ruleset) -> None:
    s = blackwater(rules)
    before = s.hash()
    draft = ResolveMarch("stoney-sept", (("blackwater", ("footman", "knight")),))
    hint = hints.hint(s, "lannister", draft)
    # Attacker: footman 1 + knight 2 + March +1 + own support from Harrenhal (knight 2, +0).
    assert hint["attacker"] == {"house": "lannister", "strength": 6}
    # Defender: footman 1 + Defense +1 + own support from The Reach (footman 1, +1).
    assert hint["defender"] == {"house": "stark", "strength": 4}
    # Baratheon's Support in Crackclaw Point is still to be declared (5.4.1): footman 1, +0.
    assert hint["possible_support"] == [
        {"house": "baratheon", "areas": ["crackclaw-point"], "attacker": 1, "defender": 1}
    ]
    assert hint["blade"] is None  # Greyjoy holds the Valyrian Steel Blade (2.1, 6 players)
    assert s.hash() == before


def test_5_4_2_march_hint_counts_only_the_units_that_attack(rules: Ruleset) -> None:
    s = blackwater(rules)
    draft = ResolveMarch("stoney-sept", (("blackwater", ("knight",)),))
    # The footman stays behind: knight 2 + March +1 + Harrenhal 2.
    assert hints.hint(s, "lannister", draft)["attacker"]["strength"] == 5


def test_5_5_1_march_hint_against_a_neutral_force(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight", "knight")
    order(s, "blackwater", "march+1*")
    run(s, MarchTurn("lannister"))
    draft = ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),))
    hint = hints.hint(s, "lannister", draft)
    # Two knights (2 + 2) and March +1 against King's Landing's token of 5 (2.1, 6 players).
    assert hint == {
        "kind": "march",
        "combat": "neutral",
        "area": "kings-landing",
        "attacker": 5,
        "neutral_force": 5,
        "enough": True,
    }


def test_march_hint_of_an_illegal_draft_names_the_rule(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight")
    order(s, "blackwater", "march+0")
    run(s, MarchTurn("lannister"))
    with pytest.raises(NeutralForceTooStrong):
        hints.hint(s, "lannister", ResolveMarch("blackwater", (("kings-landing", ("knight",)),)))


def test_march_hint_without_combat_says_so(rules: Ruleset) -> None:
    s = blackwater(rules)
    draft = ResolveMarch("stoney-sept", (("searoad-marches", ("knight",)),))
    assert hints.hint(s, "lannister", draft) == {"kind": "march", "combat": None}


def card_choice(rules: Ruleset) -> State:
    """Lannister (Tywin, Jaime) attacks Stark (Eddard, the Hound) in Blackwater: 3 against 3
    before cards (footman 1 + knight 2 + March +0; footman 1 + footman 1 + Support +1)."""
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "harrenhal", "lannister", "knight")
    order(s, "harrenhal", "support+0")
    put(s, "the-reach", "stark", "footman")
    order(s, "the-reach", "support+1*")
    s.hands["lannister"] = ("tywin-lannister", "ser-jaime-lannister")
    s.hands["stark"] = ("eddard-stark", "the-hound")
    put(s, "stoney-sept", "lannister", "footman")
    attackers = s.units["stoney-sept"]
    board.remove_units(s, "stoney-sept", attackers)
    return run(s, StartCombat("lannister", "stoney-sept", "blackwater", attackers, "march+0"))


def test_5_4_7_card_hint_against_each_card_the_opponent_may_play(rules: Ruleset) -> None:
    s = card_choice(rules)
    before = s.hash()
    hint = hints.hint(s, "lannister", Choose("ser-jaime-lannister"))
    assert (hint["side"], hint["opponent"]) == ("attacker", "stark")
    assert hint["against"] == [
        # Jaime 2 against Eddard 4: 5 to 7, Stark wins; Eddard's 2 swords, no fortification.
        {
            "opponent_card": "eddard-stark",
            "strength": 5,
            "opponent_strength": 7,
            "wins": False,
            "casualties": 2,
        },
        # Jaime 2 against the Hound 2: 5 to 5; the tie goes to Stark, higher on Fiefdoms
        # (5.4.8); the Hound has no swords.
        {
            "opponent_card": "the-hound",
            "strength": 5,
            "opponent_strength": 5,
            "wins": False,
            "casualties": 0,
        },
    ]
    assert s.hash() == before


def test_5_4_3_card_hint_for_a_card_not_in_hand_is_refused(rules: Ruleset) -> None:
    s = card_choice(rules)
    with pytest.raises(IllegalChoice):
        hints.hint(s, "lannister", Choose("eddard-stark"))


def test_hint_is_only_for_marches_and_house_cards(rules: Ruleset) -> None:
    s = card_choice(rules)
    with pytest.raises(MalformedMessage):
        hints.hint(s, "lannister", ResolveMarch("stoney-sept", ()))


def test_hint_message_is_answered_to_its_sender_and_changes_nothing(
    rules: Ruleset, store_url: str
) -> None:
    store = GameStore.open(store_url)
    houses = rules.setups[6].houses
    game = store.create_game(GameSetup(6, tuple(SeatSpec(h) for h in houses), 1, rules.plugins, {}))
    state = card_choice(rules)
    session = GameSession(store, game.info, state, {h: Human() for h in houses}, hint=hints.hint)
    others: list[dict[str, object]] = []
    session.attach("stark", others.append)
    reply = session.handle(
        "lannister",
        {"type": "hint", "id": "h1", "action": Choose("tywin-lannister").to_json()},
    )
    assert reply is not None
    assert (reply["type"], reply["in_reply_to"], reply["state_id"]) == ("hint", "h1", 0)
    assert reply["hint"]["card"] == "tywin-lannister"
    assert session.state is state
    assert len(others) == 1  # Stark got its view on attach, nothing since
    assert store.game(game.info.id).action_count == 0
    refused = session.handle("baratheon", {"type": "hint", "action": Choose("x").to_json()})
    assert refused is not None
    assert (refused["code"].startswith("illegal/"), refused["rule"]) == (True, "5.1")


def test_units_lifted_for_the_hint_are_never_lifted_from_the_game(rules: Ruleset) -> None:
    s = blackwater(rules)
    hints.hint(s, "lannister", ResolveMarch("stoney-sept", (("blackwater", ("knight",)),)))
    assert sorted(s.units["stoney-sept"]) == sorted(
        (Unit("lannister", "footman"), Unit("lannister", "knight"))
    )
    assert s.orders["stoney-sept"].token == "march+1*"
