"""``register_help_sections`` (issue 37 point 2): a plugin's sections of "How to play" reach
the help, all of them on the start screen and on a game's board only the topics of that game
(its options and houses), a replacing topic in the place of the game's own; a section id
registered twice is refused, naming the plugin."""

from __future__ import annotations

from westeros import hookimpl
from westeros.engine.content import HouseCard
from westeros.help import HelpDeck, HelpSection, HelpTopic
from westeros.plugins import load
from westeros.server.help_topics import card_reference, sections

TIDES = "tides_of_battle"
GREATJON = "greatjon-umber"


class Beacons:
    NAME = "beacons"

    @hookimpl
    def register_help_sections(self) -> list[HelpSection]:
        lit = HelpTopic("lit", "Lit beacons", "1.1", ("Always explained.",))
        tides = HelpTopic("tides", "Beacons at sea", "10.1", ("With Tides.",), option=TIDES)
        arryn = HelpTopic("arryn", "Arryn's beacon", "11.3", ("With Arryn.",), houses=("arryn",))
        phase = HelpTopic("westeros", "Beacon phase", "3.2", ("Lit first.",), replaces="westeros")
        northmen = HelpDeck(
            "northmen", "Northmen", (HouseCard(GREATJON, "stark", "Greatjon Umber", 2, 1),)
        )
        return [HelpSection("beacons", "Beacons", (lit, tides, arryn, phase), (northmen,))]


class Copycat:
    NAME = "copycat"

    @hookimpl
    def register_help_sections(self) -> list[HelpSection]:
        return [HelpSection("beacons", "Other beacons")]


def topics(shown: list[dict[str, object]], section: str) -> list[str]:
    return [t.id for s in shown if s["id"] == section for t in s["topics"]]  # type: ignore[attr-defined]


def test_hook_register_help_sections() -> None:
    loaded = load(extra=[Beacons()], autoload=False)
    rules = loaded.ruleset
    extra = [s for s in loaded.help_sections_for(rules) if s.id == "beacons"]
    assert len(extra) == 1
    start = sections(rules, extra)  # the start screen: every topic but the replacing one
    assert topics(start, "beacons") == ["lit", "tides", "arryn"]
    assert topics(start, "phases")[0] == "westeros"
    assert start[0]["topics"][0].title == "Westeros phase"
    game = sections(rules, extra, {TIDES: False}, ("stark", "lannister", "baratheon"))
    assert topics(game, "beacons") == ["lit"]
    assert game[0]["topics"][0].title == "Beacon phase"  # in place of the Westeros phase
    game = sections(rules, extra, {TIDES: True}, ("stark", "arryn"))
    assert topics(game, "beacons") == ["lit", "tides", "arryn"]
    cards = card_reference(rules, (), extra[0].decks, {})
    stark = next(h for h in cards["houses"] if h["id"] == "stark")
    assert [d["title"] for d in stark["decks"]] == ["Northmen"]
    assert [c.id for c in stark["decks"][0]["cards"]] == [GREATJON]
    assert GREATJON not in {c.id for c in stark["loose"]} and len(stark["loose"]) == 6
    # a game made without the plugin shows none of its sections
    without = load(disable=["beacons"], autoload=False).ruleset
    assert "beacons" not in {s.id for s in loaded.help_sections_for(without)}


def test_a_help_section_id_registered_twice_is_refused() -> None:
    loaded = load(extra=[Beacons(), Copycat()], autoload=False)
    assert [e.plugin for e in loaded.errors] == ["copycat"]
    assert "beacons" in loaded.errors[0].message
    assert [s.title for s in loaded.help_sections_for(loaded.ruleset) if s.id == "beacons"] == [
        "Beacons"
    ]
