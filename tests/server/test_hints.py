"""Combat-strength hints for draft decisions (the ``hint`` message): strengths as they stand
for a march into combat (5.4.1-5.4.2) and for a house-card choice (5.4.7-5.4.9), computed from
public information only and never changing the game."""

from __future__ import annotations

import dataclasses
import random

from tests.builders import blank, order, put, run
from westeros.engine import Choose, Ruleset, State, board, preview
from westeros.engine.combat import StartCombat
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.setup import new_game
from westeros.engine.state import Unit
from westeros.saves import open_store
from westeros.server import hints
from westeros.session import GameSession, Human
from westeros.store import GameSetup, SeatSpec

ROUNDS = 5


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
        "legal": True,
        "problem": None,
        "combat": "neutral",
        "area": "kings-landing",
        "attacker": 5,
        "neutral_force": 5,
        "possible_support": [],
        "enough": True,
    }


def test_5_5_1_march_hint_names_the_support_other_houses_may_give(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight", "knight")
    order(s, "blackwater", "march+0")
    put(s, "crackclaw-point", "baratheon", "footman")
    order(s, "crackclaw-point", "support+0")
    run(s, MarchTurn("lannister"))
    draft = ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),))
    hint = hints.hint(s, "lannister", draft)
    assert (hint["legal"], hint["attacker"], hint["enough"]) == (True, 4, False)
    assert hint["possible_support"] == [{"house": "baratheon", "attacker": 1}]


def test_march_hint_of_an_illegal_draft_names_the_rule_and_code(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight")
    order(s, "blackwater", "march+0")
    run(s, MarchTurn("lannister"))
    hint = hints.hint(s, "lannister", ResolveMarch("blackwater", (("kings-landing", ("knight",)),)))
    assert hint["legal"] is False
    assert hint["problem"]["code"] == "illegal/neutral-force-too-strong"
    assert hint["problem"]["rule"] == "5.5.1"
    assert "combat" not in hint


def test_1_7_march_hint_refuses_a_march_over_the_supply_limit(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["lannister"] = 0  # armies [2, 2] (1.7.3)
    put(s, "stoney-sept", "lannister", "footman", "knight")
    order(s, "stoney-sept", "march+0")
    put(s, "searoad-marches", "lannister", "footman", "footman")
    put(s, "riverrun", "lannister", "footman")
    run(s, MarchTurn("lannister"))
    joins = ResolveMarch("stoney-sept", (("riverrun", ("footman", "knight")),))
    hint = hints.hint(s, "lannister", joins)
    # Riverrun 3 beside Searoad Marches' 2: over the limit [2, 2] (5.3.7).
    assert (hint["legal"], hint["problem"]["code"]) == (False, "illegal/supply-exceeded")
    fine = ResolveMarch("stoney-sept", (("riverrun", ("footman",)),))
    assert hints.hint(s, "lannister", fine)["legal"] is True


def test_march_hint_without_combat_says_so(rules: Ruleset) -> None:
    s = blackwater(rules)
    draft = ResolveMarch("stoney-sept", (("searoad-marches", ("knight",)),))
    assert hints.hint(s, "lannister", draft) == {
        "kind": "march",
        "legal": True,
        "problem": None,
        "combat": None,
    }


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


def row(hint: dict, card: str) -> dict:
    """The row of the card hint for the opponent playing ``card``."""
    return next(r for r in hint["against"] if r["opponent_card"] == card)


def test_5_4_7_card_hint_against_each_card_the_opponent_may_play(rules: Ruleset) -> None:
    s = card_choice(rules)
    before = s.hash()
    hint = hints.hint(s, "lannister", Choose("ser-jaime-lannister"))
    assert (hint["legal"], hint["side"], hint["opponent"]) == (True, "attacker", "stark")
    # Jaime 2 against Eddard 4: 5 to 7, Stark wins; Eddard's two swords against no
    # fortification, but the attacking army is one footman: one unit lost (5.4.9).
    eddard = row(hint, "eddard-stark")
    assert (eddard["strength"], eddard["opponent_strength"], eddard["wins"]) == (5, 7, False)
    assert (eddard["losses"]["swords"], eddard["casualties"]) == (2, 1)
    # The Hound 2: 5 to 5, the tie goes to Stark, higher on Fiefdoms (5.4.8); no swords.
    hound = row(hint, "the-hound")
    assert (hound["strength"], hound["opponent_strength"], hound["wins"]) == (5, 5, False)
    assert hound["casualties"] == 0
    assert hint["still_to_come"] == []
    assert s.hash() == before


def test_5_4_9_card_hint_counts_the_blackfish(rules: Ruleset) -> None:
    s = card_choice(rules)
    s.hands["lannister"] = ("tywin-lannister", "ser-jaime-lannister")
    s.hands["stark"] = ("the-blackfish", "eddard-stark")
    s.cache = None
    jaime = hints.hint(s, "lannister", Choose("ser-jaime-lannister"))
    # Jaime 2: 5 against the Blackfish 1: 4; Jaime's sword is prevented (5.4.9, 8.2).
    blackfish = row(jaime, "the-blackfish")
    assert (blackfish["strength"], blackfish["opponent_strength"]) == (5, 4)
    assert blackfish["wins"] is True
    assert blackfish["casualties"] == 0
    assert blackfish["losses"]["prevented"] == 1


def test_5_4_9_card_hint_counts_routed_units_and_siege_engines(rules: Ruleset) -> None:
    s = card_choice(rules)
    s.combat = dataclasses.replace(
        s.combat,
        defender=dataclasses.replace(
            s.combat.defender, units=(Unit("stark", "footman"), Unit("stark", "footman", True))
        ),
    )
    s.units["blackwater"] = s.combat.defender.units
    s.hands["lannister"] = ("ser-gregor-clegane", "tywin-lannister")
    s.cache = None
    hint = hints.hint(s, "lannister", Choose("ser-gregor-clegane"))
    # Gregor 3: 6 against 3 (the routed footman counts 0, 1.2.4) + the Hound 2 = 5. Stark's
    # routed footman is destroyed (not a casualty), and Gregor's 3 swords against the Hound's
    # 2 fortifications take the other one (5.4.9): 2 units, where a count of swords alone
    # would say 1.
    hound = row(hint, "the-hound")
    assert hound["wins"] is True
    assert hound["losses"]["routed_and_siege"] == 1
    assert hound["casualties"] == 2


def test_10_card_hint_says_tides_of_battle_is_still_to_come(rules: Ruleset) -> None:
    s = card_choice(rules)
    s.options = {**s.options, "tides_of_battle": True}
    s.cache = None
    hint = hints.hint(s, "lannister", Choose("tywin-lannister"))
    notes = [step["note"] for step in hint["still_to_come"] if step["note"]]
    assert notes == ["Tides of Battle cards are still to be drawn (10.2)."]
    # The rows count no Tides card: Tywin 4 against Eddard 4, 7 to 7, Stark wins the tie.
    eddard = row(hint, "eddard-stark")
    assert (eddard["strength"], eddard["opponent_strength"], eddard["wins"]) == (7, 7, False)


def test_5_4_march_hint_for_a_combat_gives_no_null_and_names_tides(rules: Ruleset) -> None:
    s = blackwater(rules)
    s.options = {**s.options, "tides_of_battle": True}
    s.cache = None
    draft = ResolveMarch("stoney-sept", (("blackwater", ("footman", "knight")),))
    hint = hints.hint(s, "lannister", draft)
    assert [step["step"] for step in hint["still_to_come"]][:1] == ["TidesDraw"]
    assert all(value is not None for key, value in hint.items() if key not in ("problem", "blade"))


def test_5_4_3_card_hint_for_a_card_not_in_hand_is_refused(rules: Ruleset) -> None:
    s = card_choice(rules)
    hint = hints.hint(s, "lannister", Choose("eddard-stark"))
    assert (hint["legal"], hint["problem"]["code"]) == (False, "illegal/choice")
    assert hint["problem"]["rule"] == "5.4.3"


def test_hint_of_any_other_draft_says_whether_it_is_legal(rules: Ruleset) -> None:
    s = card_choice(rules)
    hint = hints.hint(s, "lannister", ResolveMarch("stoney-sept", ()))
    assert (hint["kind"], hint["legal"]) == ("house_card", False)
    assert hint["problem"]["code"] == "illegal/wrong-action-kind"


def test_hint_message_is_answered_to_its_sender_and_changes_nothing(
    rules: Ruleset, store_url: str
) -> None:
    store = open_store(store_url)
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
    assert (reply["type"], reply["in_reply_to"], reply["state_id"]) == ("hint", "h1", 0)
    assert reply["hint"]["card"] == "tywin-lannister"
    assert session.state is state
    assert len(others) == 1  # Stark got its view on attach, nothing since
    assert store.game(game.info.id).action_count == 0
    refused = session.handle("baratheon", {"type": "hint", "action": Choose("x").to_json()})
    assert (refused["code"].startswith("illegal/"), refused["rule"]) == (True, "5.1")


def test_units_lifted_for_the_hint_are_never_lifted_from_the_game(rules: Ruleset) -> None:
    s = blackwater(rules)
    hints.hint(s, "lannister", ResolveMarch("stoney-sept", (("blackwater", ("knight",)),)))
    assert sorted(s.units["stoney-sept"]) == sorted(
        (Unit("lannister", "footman"), Unit("lannister", "knight"))
    )
    assert s.orders["stoney-sept"].token == "march+1*"


# ---------------------------------------------------------------------------------- outcome

LOSS_REASONS = ("routed units and siege engines (5.4.9)", "casualties (5.4.9)")
REPLACED = ("house_card_cancelled", "house_card_replaced", "no_house_card")


class Watch:
    """One predicted combat: the card hint a combatant was shown for the card it played, then
    what the combat did."""

    def __init__(self, house: str, hint: dict) -> None:
        self.house = house
        self.hint = hint
        self.row: dict | None = None
        self.replaced = False
        self.strength: list[int] | None = None
        self.winner: str | None = None
        self.lost = {"routed_and_siege": 0, "casualties": 0}

    def see(self, kind: str, data: dict) -> None:
        if kind == "house_cards_revealed":
            side = "defender" if self.hint["side"] == "attacker" else "attacker"
            card = data[side][1]
            self.row = next(r for r in self.hint["against"] if r["opponent_card"] == card)
        elif kind in REPLACED:
            self.replaced = True
        elif kind == "combat_won":
            self.strength = data["strength"]
            self.winner = data["winner"]
        elif kind == "destroyed" and self.winner is not None and data["reason"] in LOSS_REASONS:
            key = "routed_and_siege" if data["reason"] == LOSS_REASONS[0] else "casualties"
            self.lost[key] += len(data["units"])

    def check(self) -> None:
        row = self.row
        assert row is not None and self.strength is not None
        mine = 0 if self.hint["side"] == "attacker" else 1
        told = (self.house, self.hint, row)
        assert (row["strength"], row["opponent_strength"]) == (
            self.strength[mine],
            self.strength[1 - mine],
        ), told
        assert row["wins"] == (self.winner == self.house), told
        assert row["losses"]["routed_and_siege"] == self.lost["routed_and_siege"], told
        assert row["casualties"] == sum(self.lost.values()), told


def test_5_4_card_hints_agree_with_the_combats_over_random_games(rules: Ruleset) -> None:
    """Over 100 random games (3 to 6 players, five rounds of each), the card hint a
    combatant is shown for the card it then plays predicts the combat's final strengths, its
    victor and every unit the loser loses (5.4.7-5.4.9) whenever the opponent plays one of the
    predicted cards and no card is replaced. The choices abilities ask during the combat get
    the answers the hint assumed (``preview.assumed_answer``); house cards, marches and every
    other decision are random."""
    compared = 0
    for seed in range(100):
        rnd = random.Random(seed)
        s = new_game(rules, 3 + seed % 4, seed)
        watch: Watch | None = None
        while s.winner is None and s.round <= ROUNDS:
            prompts = pending(s)
            house = sorted(prompts)[0]
            asked = prompts[house]
            if watch is None and asked.kind == "choose_house_card" and "reason" not in asked.data:
                action = random_action(s, house, rnd)
                hint = hints.hint(s, house, action)
                assert hint["legal"] and hint["still_to_come"] == []
                watch = Watch(house, hint)
            elif watch is not None and asked.kind != "choose_house_card":
                action = preview.assumed_answer(asked)
            else:
                action = random_action(s, house, rnd)
            s, events = apply(s, house, action)
            for event in events:
                if watch is None:
                    continue
                if event.kind == "combat_over":
                    if not watch.replaced:
                        watch.check()
                        compared += 1
                    watch = None
                else:
                    watch.see(event.kind, event.data)
    assert compared >= 100


def test_5_4_3_a_house_changing_its_committed_card_still_gets_the_card_hint(
    rules: Ruleset,
) -> None:
    """A take-back (issue 13.2): after committing a house card, the defender reopens the choice
    before Lannister has chosen; the hint answers for the new draft as it did before."""
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    units = s.units["stoney-sept"]
    board.remove_units(s, "stoney-sept", units)
    s = run(s, StartCombat("lannister", "stoney-sept", "blackwater", units, "march+0"))
    fresh = hints.hint(s, "stark", Choose("eddard-stark"))
    s, _ = apply(s, "stark", Choose("the-blackfish"))
    assert "stark" not in pending(s)
    assert hints.hint(s, "stark", Choose("eddard-stark")) == fresh
