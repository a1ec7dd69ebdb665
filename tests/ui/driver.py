"""Plays one seat of a game through the board page with clicks only (no keyboard, no script
calls into the page): a simple, deterministic strategy for every prompt the board shows."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page, expect

TOKEN_PREFERENCE = ("march", "consolidate_power", "defense", "support", "raid")
LABELS = {"Start over": "Start over", "more": "more"}
"""Button names the driver clicks by, in the page's language (the zh-CN walk replaces them)."""
PROMPT_TIMEOUT_MS = 20_000


def start_on_screen(
    page: Page,
    core: Any,
    house: str,
    players: int,
    seed: str,
    options: Iterable[str] = (),
    lang: str = "en",
    choose: Callable[[Page], None] | None = None,
) -> str:
    """Start a game by clicks on the new-game screen of ``core`` (a LiveCore): tick
    ``options``, pick ``players`` and ``house``, let ``choose`` set anything else, fill
    ``seed``; return the new game's id once its board is open."""
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    for option in options:
        page.locator(f"input[name={option}]").check()
    page.locator(f"input[name=players][value='{players}']").check()
    page.locator(f"label.start-house[data-house={house}]").click()
    if choose is not None:
        choose(page)
    page.locator("input[name=seed]").fill(seed)
    page.locator("form#new-game button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/games/[^/]+/play/{house}$"))
    return re.findall(rf"/games/([^/]+)/play/{house}$", page.url)[0]


@dataclass
class Played:
    """What the driver did, prompt kind by prompt kind."""

    kinds: list[str] = field(default_factory=list)
    attacks: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    bids: list[int] = field(default_factory=list)
    marches: list[str] = field(default_factory=list)
    orders: dict[str, str] = field(default_factory=dict)


def prompt_kind(page: Page) -> str:
    """The kind of the decision the board asks for now ("" when waiting)."""
    return page.evaluate("document.body.dataset.prompt || ''")


def state_id(page: Page) -> str:
    """The state id of the view the board shows."""
    return page.evaluate("document.body.dataset.stateId || ''")


def round_number(page: Page) -> int:
    """The round the board shows."""
    return int(page.evaluate("document.body.dataset.round || '0'"))


def enabled(locator: Locator) -> list[Locator]:
    """The visible, enabled elements of ``locator``."""
    return [item for item in locator.all() if item.is_visible() and item.is_enabled()]


def commit(page: Page, testid: str = "commit") -> None:
    """Click the decision's commit button (or the sending button ``testid``) and wait until the
    board has moved on: the server took the decision (a new state, and the board no longer
    sending it; another house's commitment alone is not enough) or refused it."""
    before = state_id(page)
    button = page.get_by_test_id(testid)
    button.click()
    page.wait_for_function(
        "before => (document.body.dataset.stateId !== before"
        " && !document.getElementById('prompt').classList.contains('is-sending'))"
        " || document.querySelector('.prompt-error')",
        arg=before,
        timeout=PROMPT_TIMEOUT_MS,
    )
    error = page.locator(".prompt-error")
    if error.count():
        raise AssertionError(f"the server refused the decision: {error.first.inner_text()}")


def place_orders(page: Page, played: Played, prefer: dict[str, str] | None = None) -> None:
    """Fill in the orders (``fill_orders``) and send them."""
    fill_orders(page, played, prefer)
    commit(page)


def fill_orders(page: Page, played: Played, prefer: dict[str, str] | None = None) -> None:
    """An order in every area (4.1): the order type ``prefer`` names for an area, else March,
    Consolidate Power, Defense, Support, Raid, whichever token is still free (unstarred first).
    Areas named in ``prefer`` are filled first."""
    prefer = prefer or {}
    rows = page.locator("[data-testid^=order-area-]")
    areas = [(r.get_attribute("data-testid") or "").removeprefix("order-area-") for r in rows.all()]
    areas.sort(key=lambda a: a not in prefer)
    for area in areas:
        page.get_by_test_id(f"order-area-{area}").click()
        tokens = page.locator("[data-testid^=token-]:not(.is-used):not([disabled])")
        ids = [t.get_attribute("data-token") or "" for t in tokens.all()]
        kinds = (prefer[area], *TOKEN_PREFERENCE) if area in prefer else TOKEN_PREFERENCE
        for kind in kinds:
            choice = next((i for i in ids if i.startswith(kind) and "*" not in i), None)
            choice = choice or next((i for i in ids if i.startswith(kind)), None)
            if choice:
                page.get_by_test_id(f"token-{choice}").click()
                played.orders[area] = choice
                break


def march(page: Page, played: Played) -> None:
    """March every unit of a March order into a combat with another house when one is on
    offer (trying each March order in turn), else into an empty area, else remove the order."""
    origins = [
        (o.get_attribute("data-testid") or "").removeprefix("march-origin-")
        for o in page.locator("[data-testid^=march-origin-]").all()
    ]
    chosen = None
    for origin in origins or [None]:
        if origin is not None:
            page.get_by_test_id(f"march-origin-{origin}").click()
        if enabled(page.locator(".dest[data-combat=house]")):
            chosen = origin
            break
    if chosen is None and origins:
        page.get_by_test_id(f"march-origin-{origins[0]}").click()
    house = enabled(page.locator(".dest[data-combat=house]"))
    quiet = enabled(page.locator(".dest[data-combat='']"))
    target = house[0] if house else quiet[0] if quiet else None
    if target is None:
        commit(page, "march-remove")
        return
    name = (target.get_attribute("data-testid") or "").removeprefix("march-dest-")
    target.click()
    page.locator("[data-testid=commit][data-checked='1']").wait_for(timeout=10_000)
    if house:
        page.locator("[data-testid=hint][data-ready='1']").wait_for(timeout=10_000)
        played.attacks.append(name)
    if page.get_by_test_id("commit").is_enabled():
        played.marches.append(name)
        commit(page)
    else:
        commit(page, "march-remove")


def choose_house_card(page: Page, played: Played) -> None:
    """Play the strongest card in hand, after looking at the strength hint."""
    cards = page.locator("[data-testid^=card-]")
    best, strength = cards.first, -1
    for card in cards.all():
        value = card.locator(".card-strength").inner_text()
        if value.isdigit() and int(value) > strength:
            best, strength = card, int(value)
    played.cards.append((best.get_attribute("data-testid") or "").removeprefix("card-"))
    best.click()
    page.locator("[data-testid=hint][data-ready='1']").wait_for(timeout=10_000)
    commit(page)


def bid(page: Page, played: Played) -> None:
    """Bid one power token (if any) with the + button."""
    number = page.get_by_test_id("number")
    if int(number.get_attribute("max") or "0") > 0:
        page.get_by_role("button", name=LABELS["more"]).click()
    played.bids.append(int(number.input_value()))
    commit(page)


def first_choice(page: Page, played: Played) -> None:
    """Any other question: the first option, the first area, the first units asked for."""
    options = enabled(page.locator("[data-testid^=option-]"))
    if options:
        preferred = [o for o in options if o.get_attribute("data-testid") == "option-nothing"]
        (preferred or options)[0].click()
    areas = enabled(page.locator("[data-testid^=area-choice-]"))
    if areas:
        areas[0].click()
    units = page.locator("[data-testid^=unit-]")
    while units.count() and not page.get_by_test_id("commit").is_enabled():
        free = [u for u in units.all() if u.get_attribute("aria-pressed") != "true"]
        if not free:
            break
        free[0].click()
    commit(page)


def raid(page: Page, played: Played) -> None:
    """Resolve the first Raid order: remove the first order it may target, if any (5.2)."""
    origins = page.locator(
        "[data-testid^=raid-]:not([data-testid^=raid-target-]):not([data-testid=raid-no-target])"
    )
    if origins.count() > 1:
        origins.first.click()
    targets = enabled(page.locator("[data-testid^=raid-target-]"))
    if targets:
        targets[0].click()
        commit(page)
    else:
        commit(page, "raid-no-target")  # one click (5.2.2)


def consolidate(page: Page, played: Played) -> None:
    """Resolve the first Consolidate Power order for power (5.6.1)."""
    areas = page.locator("[data-testid^=consolidate-area-]")
    if areas.count() > 1:
        areas.first.click()
    gain = page.get_by_test_id("consolidate-gain")
    if gain.count():
        gain.click()
    commit(page)


HANDLERS = {
    "march": march,
    "choose_house_card": choose_house_card,
    "bid": bid,
    "wildling_bid": bid,
    "raid": raid,
    "consolidate_power": consolidate,
}


def play_one(page: Page, played: Played, prefer: dict[str, str] | None = None) -> str:
    """Answer the decision the board shows now (``prefer``: order types by area for
    place_orders); returns its kind."""
    kind = prompt_kind(page)
    if kind == "place_orders":
        place_orders(page, played, prefer)
    else:
        HANDLERS.get(kind, first_choice)(page, played)
    played.kinds.append(kind)
    return kind


def wait_for_decision(page: Page, until_round: int, timeout_ms: int = PROMPT_TIMEOUT_MS) -> bool:
    """Wait until the board asks something or the game reaches ``until_round``; False then."""
    page.wait_for_function(
        "r => document.body.dataset.prompt || Number(document.body.dataset.round) >= r",
        arg=until_round,
        timeout=timeout_ms,
    )
    return round_number(page) < until_round and bool(prompt_kind(page))


def start_with_turtle(
    page: Page, core: Any, person: str, turtle: str, seed: str, lang: str = "en"
) -> str:
    """A 4-player game (2.1) on screen where ``person`` is the person and ``turtle`` an AI seat
    with the Turtle personality (honourable); returns the game's id."""

    def choose(page: Page) -> None:
        page.get_by_test_id(f"personality-{turtle}").select_option(value="turtle")

    return start_on_screen(page, core, person, 4, seed, lang=lang, choose=choose)


def offer_peace(page: Page, to: str) -> None:
    """Offer ``to`` "no attacks between us this round" through the deals panel (5.3, 5.2) and
    wait for the deal it makes."""
    panel = page.get_by_test_id("deals")
    houses = panel.get_by_test_id("deals-house")
    expect(houses.locator(f"option[value={to}]")).to_have_count(1)
    houses.select_option(value=to)
    panel.get_by_test_id("deals-term").select_option(value="non_aggression")
    panel.get_by_test_id("deals-send").click()
    expect(panel.locator("[data-testid^=deals-deal-]")).to_have_count(1)
