"""Issue 38 point 3 (hooks the trial reached for): a plugin replaces or removes cards by id.
A card whose ``replaces`` names another takes its place in the hand, the Ruleset and the card
reference of "How to play"; ``register_removed_cards`` takes cards out of every hand, deck
and the reference; naming a card nobody registers is an error naming it."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westeros import hookimpl
from westeros.engine.content import HouseCard, Ruleset
from westeros.engine.setup import new_game
from westeros.plugins import PluginError
from westeros.server.help_topics import card_reference

Factory = Callable[..., Ruleset]
STARK_PRINTED = (
    "eddard-stark",
    "robb-stark",
    "roose-bolton",
    "greatjon-umber",
    "ser-rodrick-cassel",
    "the-blackfish",
    "catelyn-stark",
)


def plugin(name: str, **hooks: Callable[[], list[Any]]) -> types.ModuleType:
    """A plugin module named ``name`` implementing ``hooks``."""
    module = types.ModuleType(name)
    for hook, impl in hooks.items():
        setattr(module, hook, hookimpl(impl))
    return module


def lord_eddard(replaces: str | None = "eddard-stark", card_id: str = "lord-eddard") -> HouseCard:
    return HouseCard(card_id, "stark", "Lord Eddard", 3, swords=1, text="", replaces=replaces)


def reference_ids(rules: Ruleset, house: str) -> set[str]:
    """The card ids the help's card reference lists for ``house``."""
    houses = card_reference(rules)["houses"]
    return {c.id for h in houses if h["id"] == house for c in h["cards"]}


def test_hook_register_house_cards_replacement_takes_the_place_of_the_card(
    westeros_ruleset: Factory,
) -> None:
    """Issue 38 point 3: Stark's hand and the help list Lord Eddard where Eddard Stark was."""
    rules = westeros_ruleset(plugin("variant", register_house_cards=lambda: [lord_eddard()]))
    hand = new_game(rules, 3, seed=1).hands["stark"]
    assert hand == ("lord-eddard", *STARK_PRINTED[1:])
    assert "eddard-stark" not in rules.house_cards
    assert reference_ids(rules, "stark") == {"lord-eddard", *STARK_PRINTED[1:]}


def test_hook_register_removed_cards(
    westeros_ruleset: Factory,
) -> None:
    """Issue 38 point 3: removed house and Westeros cards are nowhere in a new game: not in
    hands, decks, the Ruleset or the card reference."""
    removed = ["the-blackfish", "supply"]
    rules = westeros_ruleset(plugin("lean", register_removed_cards=lambda: removed))
    state = new_game(rules, 3, seed=1)
    assert state.hands["stark"] == tuple(c for c in STARK_PRINTED if c != "the-blackfish")
    assert all("supply" not in deck for deck in state.westeros_decks)
    assert "supply" not in rules.westeros_cards
    assert "the-blackfish" not in reference_ids(rules, "stark")


def test_a_chain_of_replacements_ends_at_its_last_card(westeros_ruleset: Factory) -> None:
    """Issue 38 point 3: a plugin may replace another plugin's replacement."""
    first = plugin("first", register_house_cards=lambda: [lord_eddard()])
    second = plugin(
        "second",
        register_house_cards=lambda: [lord_eddard("lord-eddard", "the-quiet-wolf")],
    )
    hand = new_game(westeros_ruleset(first, second), 3, seed=1).hands["stark"]
    assert hand[0] == "the-quiet-wolf" and "lord-eddard" not in hand


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        (
            {"register_house_cards": lambda: [lord_eddard("ned-the-ghost")]},
            "house card 'lord-eddard' replaces unknown house card 'ned-the-ghost'",
        ),
        (
            {"register_removed_cards": lambda: ["ned-the-ghost"]},
            "removed card 'ned-the-ghost' is not registered",
        ),
        (
            {
                "register_house_cards": lambda: [
                    lord_eddard(),
                    lord_eddard(card_id="young-ned"),
                ]
            },
            "house card 'eddard-stark' is replaced twice, by 'lord-eddard' and 'young-ned'",
        ),
    ],
)
def test_replacing_or_removing_an_unknown_card_is_refused_by_name(
    westeros_ruleset: Factory, hooks: dict[str, Callable[[], list[Any]]], message: str
) -> None:
    """Issue 38 point 3: a bad id is a clear error naming it, not a silent no-op."""
    with pytest.raises(PluginError, match=message):
        westeros_ruleset(plugin("broken", **hooks))


@settings(max_examples=12, deadline=None)
@given(st.sets(st.sampled_from(STARK_PRINTED), max_size=len(STARK_PRINTED) - 1))
def test_removing_any_of_starks_cards_leaves_exactly_the_others(removed: set[str]) -> None:
    """Issue 38 point 3 (property): the hand is the printed hand minus the removed cards,
    in printed order."""
    from westeros.plugins import build_ruleset

    print("removed:", sorted(removed))
    lean = plugin("lean", register_removed_cards=lambda: sorted(removed))
    rules = build_ruleset(extra=[lean], autoload=False, strict=True)
    expected = tuple(c for c in STARK_PRINTED if c not in removed)
    assert new_game(rules, 3, seed=2).hands["stark"] == expected
