"""Every prompt kind the engine asks, shown in zh-CN in Chromium: six-house games with Tides of
Battle and ports, every seat played by a person, are driven with the engine's own random legal
actions (through the GameSession, as the board would send them); the first time a house is
asked a kind, its board is opened and must show no English text and a phase label. The kinds
come from the engine's source (``test_i18n_prompts.engine_prompt_kinds``). The same random games
are first played by the engine alone, to skip the games that first ask no kind."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page

from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.plugins import build_ruleset

from .test_i18n_prompts import engine_prompt_kinds
from .test_zh_walk import assert_chinese

PLAYERS = 6
OPTIONS = {"tides_of_battle": True}
SEEDS = range(1, 40)
IRON_BANK = {"mother_of_dragons": True, "mod_sea_orders": True, "mod_iron_bank": True}
IRON_BANK_KINDS = frozenset(
    {"iron_bank_loan", "iron_bank_default", "loan_unit", "spymaster", "faceless_men"}
)
IRON_BANK_SEEDS = range(1, 30)
VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
VASSAL_KINDS = frozenset({"claim_vassals"})
DECK_IV = {"mother_of_dragons": True}
DECK_IV_KINDS = frozenset({"dragon_token", "loyalty_cancel", "distribute_bid"})
DECK_IV_SEEDS = range(1, 40)


Games = tuple[int, Mapping[str, Any], range]


def first_asked(kinds: set[str], games: Games) -> dict[int, set[str]]:
    """The games of ``games`` (players, options, seeds) in which each kind of ``kinds`` is first
    asked, played by the engine alone with the random actions ``walk`` sends: the seeds that
    first ask a kind, each with the kinds it asks first."""
    players, options, seeds = games
    rules = build_ruleset(options)
    left = set(kinds)
    found: dict[int, set[str]] = {}
    for seed in seeds:
        state = new_game(rules, players, seed, options)
        rnd = random.Random(seed)
        while left and (waiting := pending(state)):
            asked = {p.kind for p in waiting.values()} & left
            if asked:
                found.setdefault(seed, set()).update(asked)
                left -= asked
            house = sorted(waiting)[rnd.randrange(len(waiting))]
            state, _ = apply(state, house, random_action(state, house, rnd))
        if not left:
            break
    return found


def walk(page: Page, core: Any, artifacts: Path, kinds: set[str], games: Games) -> dict[str, str]:
    """Play the games of ``games`` that first ask a kind of ``kinds`` (``first_asked``) through
    the session, by the same random legal actions, until they asked those kinds; each first time
    a kind is asked, the asked house's board must read Chinese."""
    players, options, _ = games
    registry = core.app.state.games
    houses = build_ruleset(options).setups[players].seated_houses()
    checked: dict[str, str] = {}
    page.goto(f"{core.url}/?token={core.token}&lang=zh_CN")
    for seed, wanted in first_asked(kinds, games).items():
        session = registry.create(
            players=players, human=None, humans=houses, seed=seed, options=options, start_ai=False
        )
        rnd = random.Random(seed)
        while not session.over and not checked.keys() >= wanted:
            state = session.state
            waiting = pending(state)
            if not waiting:
                break
            fresh = sorted(
                (h, p.kind) for h, p in waiting.items() if p.kind in kinds - checked.keys()
            )
            for house, kind in fresh:
                if kind in checked:
                    continue
                page.goto(f"{core.url}/games/{session.game_id}/play/{house}")
                page.wait_for_function("k => document.body.dataset.prompt === k", arg=kind)
                page.locator("#prompt .prompt-title").first.wait_for()
                assert page.locator("#round-info .phase").inner_text().strip(), kind
                assert_chinese(page, f"the board asking {kind!r} (seed {seed}, {house})")
                page.screenshot(path=str(artifacts / f"zh-prompt-{kind}.png"))
                checked[kind] = f"seed {seed}"
            house = sorted(waiting)[rnd.randrange(len(waiting))]
            session.submit(house, random_action(state, house, rnd), state.serial)
    return checked


@pytest.mark.slow
def test_every_prompt_kind_shows_in_chinese(page: Page, core_factory: Any, artifacts: Path) -> None:
    """Base-game kinds in six-house games; the Iron Bank's in seven-house Mother of Dragons games
    (11.9); claiming vassals in a four-player Mother of Dragons game with vassals (11.10.3);
    Targaryen's deck IV and bid questions in eight-house games (11.11.2, 11.6.6)."""
    core = core_factory()
    kinds = engine_prompt_kinds()
    bank = {k for k in kinds if k in IRON_BANK_KINDS}
    vassals = {k for k in kinds if k in VASSAL_KINDS}
    deck_iv = {k for k in kinds if k in DECK_IV_KINDS}
    base = kinds - bank - vassals - deck_iv
    checked = walk(page, core, artifacts, base, (PLAYERS, OPTIONS, SEEDS))
    checked |= walk(page, core, artifacts, bank, (7, IRON_BANK, IRON_BANK_SEEDS))
    checked |= walk(page, core, artifacts, vassals, (4, VASSALS, range(1, 3)))
    checked |= walk(page, core, artifacts, deck_iv, (8, DECK_IV, DECK_IV_SEEDS))
    missing = sorted(kinds - checked.keys())
    assert not missing, f"never asked: {missing} (checked: {checked})"
