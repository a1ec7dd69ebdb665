"""Events and views: event visibility uses the same rule as player_view (DESIGN §2, 0.4.4)."""

from __future__ import annotations

from tests.builders import blank
from westeros.engine.content import Ruleset
from westeros.engine.view import visible


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
