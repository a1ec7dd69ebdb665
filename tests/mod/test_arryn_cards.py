"""House Arryn's seven house cards (RULES.md 11.7.1, 11.7.5), one named test each, in 7-player
games of Mother of Dragons. Printed values are copied from the table of RULES.md 11.7.1."""

from __future__ import annotations

from typing import Any

from tests.builders import act, order, prompt, put
from tests.engine.test_combat import fight, hand
from tests.engine.test_house_cards import block, strength
from westeros.engine import board
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.engine.state import State

from .conftest import MOD


def blank7(rules: Ruleset) -> State:
    """A 7-player game of Mother of Dragons with an empty board and the Blade already used."""
    s = new_game(rules, 7, 1, MOD, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.blade_used = True
    return s


def first_on_fiefdoms(s: State, house: str) -> None:
    """Put ``house`` on top of Fiefdoms (it wins ties, 5.4.8)."""
    s.tracks["fiefdoms"] = (house, *(h for h in s.tracks["fiefdoms"] if h != house))


def options(s: State, house: str) -> Any:
    p = prompt(s, house)
    return None if p is None else p.data.get("options")


# ---------------------------------------------------------------------------------- no ability


def vanilla(rules: Ruleset, card: str, printed: tuple[int, int, int]) -> None:
    """A card without ability fights with its printed (strength, swords, fortifications) alone:
    attacking, it beats 3 footmen and Robb Stark (3) by exactly 1 with k footmen and its swords
    kill that many footmen; defending 3 footmen, it loses by exactly 1 to Ser Gregor Clegane
    (3, three swords) and loses swords − its fortifications footmen."""
    power, swords, forts = printed
    s = blank7(rules)
    first_on_fiefdoms(s, "stark")
    footmen = 4 + 3 - power
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "arryn", *["footman"] * footmen)
    block(s, "arryn", "stark")
    hand(s, "arryn", card)
    hand(s, "stark", "robb-stark")
    s = fight(s, "arryn", "stoney-sept", "blackwater")
    assert strength(s) == (footmen + power, 3 + 3)
    assert board.controller(s, "blackwater") == "arryn"
    assert len(s.units.get("harrenhal", ())) == 3 - min(3, swords)

    s = blank7(rules)
    first_on_fiefdoms(s, "arryn")
    footmen = 4 + power - 3
    put(s, "blackwater", "arryn", "footman", "footman", "footman")
    put(s, "stoney-sept", "lannister", *["footman"] * footmen)
    block(s, "arryn", "lannister")
    hand(s, "arryn", card)
    hand(s, "lannister", "ser-gregor-clegane")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert strength(s) == (footmen + 3, 3 + power)
    assert board.controller(s, "blackwater") == "lannister"
    assert len(s.units.get("harrenhal", ())) == 3 - min(3, max(0, 3 - forts))


def test_11_7_1_bronze_yohn_royce(mod_rules: Ruleset) -> None:
    vanilla(mod_rules, "bronze-yohn-royce-mod", (3, 1, 2))


def test_11_7_1_harry_hardyng(mod_rules: Ruleset) -> None:
    vanilla(mod_rules, "harry-hardyng", (2, 1, 0))


# ---------------------------------------------------------------------------------- abilities


def lysa_defends(rules: Ruleset, token: str | None) -> State:
    """Arryn defends Blackwater (3 footmen, ``token``) with Lysa against 2 Stark footmen and
    Greatjon Umber: 3 + order + 4 beats 2 + 2."""
    s = blank7(rules)
    put(s, "blackwater", "arryn", "footman", "footman", "footman")
    if token:
        order(s, "blackwater", token)
    put(s, "stoney-sept", "stark", "footman", "footman")
    hand(s, "arryn", "lysa-arryn-mod", "harry-hardyng")
    hand(s, "stark", "greatjon-umber")
    s = fight(s, "stark", "stoney-sept", "blackwater")
    return act(s, "arryn", Choose("lysa-arryn-mod"))


def test_11_7_1_lysa_arryn(mod_rules: Ruleset) -> None:
    s = lysa_defends(mod_rules, "defense+1")
    assert options(s, "arryn") == ["take_back", "discard"]
    s = act(s, "arryn", Choose("take_back"))
    assert prompt(s, "arryn") is None
    assert set(s.hands["arryn"]) == {"lysa-arryn-mod", "harry-hardyng"}
    assert "lysa-arryn-mod" not in s.discards["arryn"]
    assert board.controller(s, "blackwater") == "arryn"

    s = act(lysa_defends(mod_rules, "defense+1"), "arryn", Choose("discard"))
    assert s.hands["arryn"] == ("harry-hardyng",)
    assert "lysa-arryn-mod" in s.discards["arryn"]


def test_11_7_1_lysa_arryn_needs_a_defense_order(mod_rules: Ruleset) -> None:
    for token in (None, "support+0"):
        s = lysa_defends(mod_rules, token)
        assert prompt(s, "arryn") is None, token
        assert "lysa-arryn-mod" in s.discards["arryn"]


def test_11_7_1_lysa_arryn_attacking_stays_discarded(mod_rules: Ruleset) -> None:
    s = blank7(mod_rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "arryn", "footman", "footman")
    block(s, "arryn", "stark")
    hand(s, "arryn", "lysa-arryn-mod", "harry-hardyng")
    hand(s, "stark", "catelyn-stark")
    s = act(fight(s, "arryn", "stoney-sept", "blackwater"), "arryn", Choose("lysa-arryn-mod"))
    assert board.controller(s, "blackwater") == "arryn"
    assert prompt(s, "arryn") is None
    assert "lysa-arryn-mod" in s.discards["arryn"]


def vardis_defends(rules: Ruleset, stark_card: str, stark_footmen: int) -> State:
    s = blank7(rules)
    put(s, "blackwater", "arryn", "footman", "footman", "footman")
    put(s, "stoney-sept", "stark", *["footman"] * stark_footmen)
    block(s, "arryn", "stark")
    hand(s, "arryn", "ser-vardis-egen")
    hand(s, "stark", stark_card)
    return fight(s, "stark", "stoney-sept", "blackwater")


def test_11_7_1_ser_vardis_egen(mod_rules: Ruleset) -> None:
    # Greatjon Umber (printed 2, one sword): Vardis is 2 + 1, and his two fortifications stop
    # the sword: the three footmen all retreat.
    s = vardis_defends(mod_rules, "greatjon-umber", 5)
    assert strength(s) == (5 + 2, 3 + 3)
    assert len(s.units["harrenhal"]) == 3
    # Eddard Stark (printed 4, two swords): no bonus, two footmen die.
    s = vardis_defends(mod_rules, "eddard-stark", 5)
    assert strength(s) == (5 + 4, 3 + 2)
    assert len(s.units["harrenhal"]) == 1


def godric_defends(rules: Ruleset) -> State:
    """Arryn's ship in The Bite, attacked by two Stark ships from The Narrow Sea with Ser Rodrik
    Cassel (1); Arryn controls The Fingers and The Twins (units) and Widow's Watch (a power
    token), all next to The Bite; Moat Cailin (Stark) does not count."""
    s = blank7(rules)
    put(s, "the-bite", "arryn", "ship")
    put(s, "the-fingers", "arryn", "footman")
    put(s, "the-twins", "arryn", "footman")
    s.power_tokens["widows-watch"] = "arryn"
    put(s, "moat-cailin", "stark", "footman")
    put(s, "the-narrow-sea", "stark", "ship", "ship")
    hand(s, "arryn", "godric-borrell")
    hand(s, "stark", "ser-rodrick-cassel")
    return fight(s, "stark", "the-narrow-sea", "the-bite")


def test_11_7_1_godric_borrell(mod_rules: Ruleset) -> None:
    s = godric_defends(mod_rules)
    assert strength(s) == (2 + 1, 1 + 1 + 3)
    assert board.occupant(s, "the-bite") == "arryn"


def test_11_7_1_godric_borrell_gives_nothing_on_land_or_attacking(mod_rules: Ruleset) -> None:
    s = blank7(mod_rules)
    put(s, "blackwater", "arryn", "footman")
    put(s, "harrenhal", "arryn", "footman")
    put(s, "stoney-sept", "stark", "footman", "footman")
    hand(s, "arryn", "godric-borrell")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "stark", "stoney-sept", "blackwater")
    assert strength(s) == (2 + 1, 1 + 1)

    s = blank7(mod_rules)
    put(s, "the-bite", "stark", "ship")
    put(s, "the-fingers", "arryn", "footman")
    put(s, "the-narrow-sea", "arryn", "ship", "ship")
    hand(s, "arryn", "godric-borrell")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "arryn", "the-narrow-sea", "the-bite")
    assert strength(s) == (2 + 1, 1 + 1)


def test_11_7_1_anya_waynwood(mod_rules: Ruleset) -> None:
    s = blank7(mod_rules)
    for house in ("arryn", "baratheon", "stark", "tyrell"):
        s.power[house] = 5
    put(s, "stoney-sept", "arryn", "footman", "footman")
    put(s, "blackwater", "stark", "footman")
    put(s, "the-reach", "baratheon", "footman")
    order(s, "the-reach", "support+0")
    put(s, "harrenhal", "tyrell", "footman")
    order(s, "harrenhal", "support+0.2")
    block(s, "arryn", "stark", "baratheon", "tyrell", keep="crackclaw-point")
    hand(s, "arryn", "anya-waynwood")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "arryn", "stoney-sept", "blackwater")
    while (p := next(iter(pendings(s)), None)) is not None:
        house, kind = p
        assert kind == "declare_support"
        s = act(s, house, Choose("attacker" if house == "baratheon" else "none"))
    assert board.controller(s, "blackwater") == "arryn"
    assert (s.power["arryn"], s.power["baratheon"]) == (8, 8)  # winner and its supporter
    assert (s.power["tyrell"], s.power["stark"]) == (5, 5)  # declined; the loser


def pendings(s: State) -> list[tuple[str, str]]:
    """The (house, prompt kind) of every question asked now."""
    return sorted((h, p.kind) for h, p in pending(s).items())


def test_11_7_1_anya_waynwood_losing_gains_nothing(mod_rules: Ruleset) -> None:
    s = blank7(mod_rules)
    s.power["arryn"] = 5
    put(s, "stoney-sept", "arryn", "footman")
    put(s, "blackwater", "stark", "footman", "footman")
    hand(s, "arryn", "anya-waynwood")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "arryn", "stoney-sept", "blackwater")
    assert board.controller(s, "blackwater") == "stark"
    assert s.power["arryn"] == 5


def robert_defends(rules: Ruleset, stark_hand: tuple[str, ...]) -> State:
    """Arryn defends Blackwater with Robert Arryn (0) against Greatjon Umber; Stark's other
    cards but ``stark_hand`` are in its discard pile."""
    s = blank7(rules)
    put(s, "blackwater", "arryn", "footman")
    put(s, "stoney-sept", "stark", "footman", "footman")
    block(s, "arryn", "stark")
    hand(s, "arryn", "robert-arryn", "harry-hardyng")
    hand(s, "stark", *stark_hand)
    s = fight(s, "stark", "stoney-sept", "blackwater")
    s = act(s, "arryn", Choose("robert-arryn"))
    return act(s, "stark", Choose("greatjon-umber"))


def test_11_7_1_robert_arryn(mod_rules: Ruleset) -> None:
    s = robert_defends(mod_rules, ("greatjon-umber", "eddard-stark"))
    # Stark's pile: Robb 3, Roose 2, Blackfish 1, Rodrik 1, Catelyn 0, Greatjon 2: Catelyn.
    assert options(s, "arryn") == ["catelyn-stark", "pass"]
    s, events = apply(s, "arryn", Choose("catelyn-stark"))
    assert "robert-arryn" not in s.hands["arryn"] + s.discards["arryn"]
    assert "catelyn-stark" not in s.hands["stark"] + s.discards["stark"]
    assert s.hands["stark"] == ("eddard-stark",)
    removed = [e for e in events if e.kind == "cards_removed_from_game"]
    assert removed and removed[-1].data["cards"] == [
        ["arryn", "robert-arryn"],
        ["stark", "catelyn-stark"],
    ]


def test_11_7_1_robert_arryn_picks_among_equal_lowest_or_passes(mod_rules: Ruleset) -> None:
    stark_hand = ("greatjon-umber", "eddard-stark", "catelyn-stark")
    s = robert_defends(mod_rules, stark_hand)
    *lowest, last = options(s, "arryn")
    assert (sorted(lowest), last) == (["ser-rodrick-cassel", "the-blackfish"], "pass")
    s = act(s, "arryn", Choose("pass"))
    assert "robert-arryn" in s.discards["arryn"]
    assert len(s.discards["stark"]) == 5


def test_11_7_1_robert_arryn_attacking_does_nothing(mod_rules: Ruleset) -> None:
    s = blank7(mod_rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "arryn", "footman", "footman")
    block(s, "arryn", "stark")
    hand(s, "arryn", "robert-arryn")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "arryn", "stoney-sept", "blackwater")
    assert prompt(s, "arryn") is None
    assert "robert-arryn" in s.discards["arryn"] + s.hands["arryn"]
