"""Limits of the Targaryen options of Westeros deck IV (RULES.md 11.11.2) that the per-card
tests leave out: Domestic Disputes stops at 4 houses, Fire Made Flesh offers only what the
board allows and lets Targaryen choose the token it shifts, the token-move cards let Targaryen
cancel (for 1 or 2 PT) every other house's move but never ask about its own, The Long Plan
names another house; and the AIs' answers to the cancel and token decisions."""

from __future__ import annotations

import pytest

from tests.builders import act, prompt, put, run
from westeros.ai.baseline import BaselineBot
from westeros.ai.difficulty import LEVELS
from westeros.ai.strong import StrongBot
from westeros.engine import board
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.state import State, Unit
from westeros.engine.view import player_view
from westeros.engine.westeros_phase import ResolveWesterosCard
from westeros_mother_of_dragons.westeros_deck_iv import CancelMove, MovingTokens

from .test_deck_iv_cards import options, tokens
from .test_targaryen_cards import blank8

T = "targaryen"


def reveal(
    s: State, card: str, on_board: dict[str, int] | None = None, collected: int = 0
) -> State:
    """Resolve deck IV ``card`` with ``on_board`` loyalty tokens (none by default) out and
    ``collected`` ones scored."""
    s.ext["loyalty_tokens"] = tuple(sorted((on_board or {}).items()))
    s.ext["loyalty_collected"] = collected
    s.revealed = (card,)
    return run(s, ResolveWesterosCard(0))


def sacrificed_a_dragon(rules: Ruleset, round_number: int) -> State:
    """Fire Made Flesh in ``round_number``: Targaryen destroys one of its 3 dragons in Pentos
    (option (a)) and is then asked which token to shift, if more than one is left."""
    s = blank8(rules, round_number)
    put(s, "pentos", T, "dragon", "dragon", "dragon")
    s = reveal(s, "fire-made-flesh")
    s = act(s, T, Choose("fire_destroy_dragon"))
    return act(s, T, Choose("pentos"))


def test_11_11_2_domestic_disputes_reaches_at_most_4_houses(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power[T] = 3
    s = reveal(s, "domestic-disputes")
    for house in ("stark", "lannister", "greyjoy", "baratheon"):
        s = act(s, T, Choose(house))
    assert prompt(s, T) is None  # a fifth house is not offered
    homes = {"winterfell": 1, "lannisport": 1, "pyke": 1, "dragonstone": 1}
    assert tokens(s) == {"storms-end": 1, **homes}
    assert s.power[T] == 2


def test_11_11_2_fire_made_flesh_sacrifices_no_dragon_once_every_token_is_in_the_box(
    mod_rules: Ruleset,
) -> None:
    """Round 10, all three dragons on the board: neither option (a) nor (b) is possible."""
    s = blank8(mod_rules, 10)
    put(s, "pentos", T, "dragon", "dragon", "dragon")
    s = reveal(s, "fire-made-flesh")
    assert prompt(s, T) is None
    assert tokens(s) == {"the-reach": 1}


def test_11_11_2_fire_made_flesh_returns_no_dragon_to_a_lost_pentos(mod_rules: Ruleset) -> None:
    """Every dragon destroyed, but Stark holds Pentos: Targaryen cannot place one there."""
    s = blank8(mod_rules, 3)
    put(s, "pentos", "stark", "footman")
    s = reveal(s, "fire-made-flesh")
    assert prompt(s, T) is None


def test_11_11_2_scattering_dissent_cancels_a_move_for_1_power(mod_rules: Ruleset) -> None:
    """Targaryen (last on the Iron Throne track, 11.2.3) moves first in reverse turn order and
    is not asked about its own move; the next house's move it cancels for 1 PT."""
    s = blank8(mod_rules, 3)
    s.power = dict.fromkeys(s.houses, 1)
    s = reveal(s, "scattering-dissent")
    s = act(s, T, Choose("karhold>winterfell"))
    assert tokens(s) == {"winterfell": 1, "oldtown": 1} and s.power[T] == 1
    mover = s.tracks["iron_throne"][-2]  # the house just above Targaryen moves next
    assert prompt(s, T) is None and prompt(s, mover).kind == "choose_option"
    s = act(s, mover, Choose("oldtown>highgarden"))
    asked = prompt(s, T)
    assert asked.kind == "loyalty_cancel" and list(asked.data["options"]) == ["cancel", "allow"]
    assert (asked.data["move"], asked.data["mover"], asked.data["cost"]) == (
        "oldtown>highgarden",
        mover,
        1,
    )
    s = act(s, T, Choose("cancel"))
    assert s.power[T] == 0
    assert tokens(s) == {"winterfell": 1, "oldtown": 1}


def test_11_11_2_word_spreads_quickly_allowing_a_move_costs_nothing(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power = dict.fromkeys(s.houses, 2)
    s = reveal(s, "word-spreads-quickly")
    first = s.tracks["iron_throne"][0]
    s = act(s, first, Choose("three-towers>princes-pass"))
    assert prompt(s, T).data["cost"] == 2
    s = act(s, T, Choose("allow"))
    assert tokens(s) == {"crackclaw-point": 1, "princes-pass": 1} and s.power[T] == 2


@pytest.mark.parametrize("card", ["scattering-dissent", "word-spreads-quickly"])
def test_11_11_2_targaryen_may_cancel_every_move_but_its_own(mod_rules: Ruleset, card: str) -> None:
    """All 8 houses move once; Targaryen, able to pay, is asked about the other 7 moves, each
    right after it is made, and never about the move it chose itself."""
    s = blank8(mod_rules, 3)
    s.power = dict.fromkeys(s.houses, 20)
    s = reveal(s, card)
    movers, asked_after = [], []
    while waiting := [(h, p) for h, p in pending(s).items()]:
        house, p = waiting[0]
        if p.kind == "loyalty_cancel":
            asked_after.append(p.data["mover"])
            s = act(s, house, Choose("allow"))
        else:
            movers.append(house)
            s = act(s, house, Choose(p.data["options"][0]))
    order = list(s.tracks["iron_throne"])
    assert movers == (order[::-1] if card == "scattering-dissent" else order)
    assert asked_after == [h for h in movers if h != T]
    assert s.power[T] == 20


def test_11_11_2_the_ais_cancel_a_move_away_from_targaryen(mod_rules: Ruleset) -> None:
    """Targaryen holds Riverrun; a token on Seagard (next to Riverrun) moved to The Twins (not
    next to it) is cancelled; moved into Riverrun itself, or from Karhold to Winterfell (far
    from Riverrun both), it is allowed."""
    answers = {}
    for move in ("seagard>the-twins", "seagard>riverrun", "karhold>winterfell"):
        s = blank8(mod_rules, 3)
        put(s, "riverrun", T, "footman")
        s.power[T] = 3
        rest = MovingTokens((), "scattering-dissent", 1)
        s.push(CancelMove(T, ("cancel", "allow"), "scattering-dissent", move, "stark", rest))
        action = BaselineBot().decide(player_view(s, T), mod_rules, 1.0)
        assert isinstance(action, Choose)
        answers[move] = action.option
    assert answers == {
        "seagard>the-twins": "cancel",
        "seagard>riverrun": "allow",
        "karhold>winterfell": "allow",
    }


def test_11_11_2_fire_made_flesh_shifts_the_token_targaryen_chooses(mod_rules: Ruleset) -> None:
    """Round 3 (printed tokens 2, 4, 6, 8, 10): the token of round 2 is in the box, so 4, 6, 8
    and 10 are offered. Shifting 6 makes the dragons 2 now, 3 in round 4 (4 arrives), still 3 in
    round 6 (6 is already in), 4 in round 8."""
    s = sacrificed_a_dragon(mod_rules, 3)
    asked = prompt(s, T)
    assert asked.kind == "dragon_token"
    assert list(asked.data["options"]) == [f"dragon_token_{r}" for r in (4, 6, 8, 10)]
    s = act(s, T, Choose("dragon_token_6"))
    strengths = []
    for round_number in (3, 4, 6, 8):
        s.round = round_number
        strengths.append(board.unit_strength(s, Unit(T, "dragon"), False))
    assert strengths == [2, 3, 3, 4]


def test_11_11_2_fire_made_flesh_shifts_the_last_token_without_asking(
    mod_rules: Ruleset,
) -> None:
    """Round 9: only the token of round 10 is still on the track, so nothing is asked and the
    dragons are 5 at once (4 tokens reached + 1 shifted)."""
    s = sacrificed_a_dragon(mod_rules, 9)
    assert prompt(s, T) is None
    assert board.unit_strength(s, Unit(T, "dragon"), False) == 5


def test_11_11_2_the_ais_shift_the_latest_dragon_token(mod_rules: Ruleset) -> None:
    s = sacrificed_a_dragon(mod_rules, 3)
    assert BaselineBot().decide(player_view(s, T), mod_rules, 1.0) == Choose("dragon_token_10")


def test_11_11_2_the_long_plan_names_another_house(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power[T] = 1
    s = reveal(s, "the-long-plan")
    assert T not in options(s)
    assert set(options(s)) == {*s.houses} - {T} | {"pass"}


@pytest.mark.parametrize("level", ["baseline", *LEVELS])
def test_11_11_2_every_ai_level_answers_the_cancel_and_token_questions(
    mod_rules: Ruleset, level: str
) -> None:
    """Each level answers Targaryen's two deck IV questions with a legal choice that the
    engine carries out (the easy level may blunder, so which one is not asserted here)."""
    bot = BaselineBot() if level == "baseline" else StrongBot(1, LEVELS[level])
    s = sacrificed_a_dragon(mod_rules, 3)
    s = act(s, T, bot.decide(player_view(s, T), mod_rules, 1.0))
    assert len(s.ext["dragon_tokens_shifted"]) == 1 and prompt(s, T) is None
    s = blank8(mod_rules, 3)
    s.power[T] = 1
    s.ext["loyalty_tokens"] = (("karhold", 1),)
    rest = MovingTokens((), "scattering-dissent", 1)
    s.push(
        CancelMove(
            T, ("cancel", "allow"), "scattering-dissent", "karhold>winterfell", "stark", rest
        )
    )
    s = act(s, T, bot.decide(player_view(s, T), mod_rules, 1.0))
    assert (tokens(s), s.power[T]) in (({"karhold": 1}, 0), ({"winterfell": 1}, 1))
