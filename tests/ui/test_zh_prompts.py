"""Every prompt kind the engine asks, shown in zh-CN in Chromium: six-house games with Tides of
Battle and ports, every seat played by a person, are driven with the engine's own random legal
actions (through the GameSession, as the board would send them); the first time a house is
asked a kind, its board is opened and must show no English text and a phase label. The kinds
come from the engine's source (``test_i18n_prompts.engine_prompt_kinds``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page

from westeros.engine.flow import pending, random_action

from .test_i18n_prompts import engine_prompt_kinds
from .test_zh_walk import assert_chinese

PLAYERS = 6
OPTIONS = {"tides_of_battle": True}
SEEDS = range(1, 40)


def test_every_prompt_kind_shows_in_chinese(page: Page, core_factory: Any, artifacts: Path) -> None:
    core = core_factory()
    games = core.app.state.games
    kinds = engine_prompt_kinds()
    houses = tuple(core.app.state.core.loaded.ruleset.setups[PLAYERS].houses)
    checked: dict[str, str] = {}
    page.goto(f"{core.url}/?token={core.token}&lang=zh_CN")
    for seed in SEEDS:
        if checked.keys() >= kinds:
            break
        session = games.create(
            players=PLAYERS,
            human=None,
            humans=houses,
            seed=seed,
            options=OPTIONS,
            start_ai=False,
        )
        rnd = random.Random(seed)
        while not session.over and not checked.keys() >= kinds:
            state = session.state
            waiting = pending(state)
            if not waiting:
                break
            fresh = sorted((h, p.kind) for h, p in waiting.items() if p.kind not in checked)
            if fresh:
                house, kind = fresh[0]
                page.goto(f"{core.url}/games/{session.game_id}/play/{house}")
                page.wait_for_function("k => document.body.dataset.prompt === k", arg=kind)
                page.locator("#prompt .prompt-title").first.wait_for()
                assert page.locator("#round-info .phase").inner_text().strip(), kind
                assert_chinese(page, f"the board asking {kind!r} (seed {seed}, {house})")
                page.screenshot(path=str(artifacts / f"zh-prompt-{kind}.png"))
                checked[kind] = f"seed {seed}"
            house = sorted(waiting)[rnd.randrange(len(waiting))]
            session.submit(house, random_action(state, house, rnd), state.serial)
    missing = sorted(kinds - checked.keys())
    assert not missing, f"never asked in {len(SEEDS)} games: {missing} (checked: {checked})"
