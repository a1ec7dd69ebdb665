"""Events and views: event visibility uses the same rule as player_view (DESIGN §2, 0.4.4)."""

from __future__ import annotations

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine.actions import Choose
from westeros.engine.combat import StartCombat
from westeros.engine.content import Ruleset
from westeros.engine.state import Unit
from westeros.engine.view import player_view, visible


def test_an_event_field_named_to_stays_in_the_event_and_is_public(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.emit("upgraded", house="stark", area="winterfell", unit="footman", to="knight")
    (event,) = s.events
    assert event.data["to"] == "knight"
    assert all(visible(event, h) for h in s.houses)


def test_a_private_event_is_seen_only_by_its_houses(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.emit("wildling_card_seen", visible_to=frozenset({"stark"}), card="x")
    (event,) = s.events
    assert visible(event, "stark")
    assert not visible(event, "lannister") and not visible(event, None)


def test_0_4_4_game_options_are_public_in_every_view(rules: Ruleset) -> None:
    from westeros.engine.setup import new_game
    from westeros.engine.view import player_view

    s = new_game(rules, 4, 1, {"tides_of_battle": True})
    for viewer in (*s.houses, None):
        assert player_view(s, viewer)["options"]["tides_of_battle"] is True


def test_1_3_views_show_who_controls_each_area_ports_included(rules: Ruleset) -> None:
    from tests.builders import put
    from westeros.engine.view import player_view

    s = blank(rules, 6)
    put(s, "pyke", "greyjoy", "footman")
    s.power_tokens["the-reach"] = "tyrell"
    control = player_view(s, "stark")["control"]
    assert control["pyke"] == "greyjoy" and control["port-of-pyke"] == "greyjoy"
    assert control["the-reach"] == "tyrell"
    assert control["winterfell"] == "stark"  # the printed home token (1.3.3)
    assert "the-golden-sound" not in control  # a sea without ships is uncontrolled (1.3.4)


def test_5_4_7_the_combat_in_every_view_shows_strengths_after_the_cards(rules: Ruleset) -> None:
    """Lannister (footman + March +0, Harrenhal's knight supporting: 3) attacks Stark in
    Blackwater (footman, The Reach's footman and Support +1: 3). Before the cards the views show
    the initial strengths; once Tyrion (1) and Eddard (4) are revealed, while Tyrion's owner
    decides whether to cancel, every view shows 4 against 7, not 3 against 3."""
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "harrenhal", "lannister", "knight")
    order(s, "harrenhal", "support+0")
    put(s, "the-reach", "stark", "footman")
    order(s, "the-reach", "support+1*")
    s.hands["lannister"] = ("tyrion-lannister", "ser-jaime-lannister")
    s.hands["stark"] = ("eddard-stark", "the-hound")
    attackers = (Unit("lannister", "footman"),)
    s = run(s, StartCombat("lannister", "stoney-sept", "blackwater", attackers, "march+0"))
    before = player_view(s, "baratheon")["combat"]["data"]
    assert before["initial_strength"] == [3, 3] and "strength" not in before
    s = act(s, "lannister", Choose("tyrion-lannister"))
    s = act(s, "stark", Choose("eddard-stark"))
    assert prompt(s, "lannister").data["reason"] == "tyrion-lannister"
    for house in ("lannister", "stark", "baratheon", None):
        assert player_view(s, house)["combat"]["data"]["strength"] == [4, 7]
