"""Issue 38 point 3 (hooks the trial reached for): a log text (``register_event_texts``) that
raises fails the plugin's tests loudly, naming the event kind, the exception and the event,
instead of being swallowed into the generic line; a sound one reads in English and Chinese
through the end-to-end fixture ``westeros_game``."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from westeros import hookimpl
from westeros.engine.content import EventText, StateHook, Words
from westeros.engine.state import State
from westeros.testing import LogTextError, PluginGame

Factory = Callable[..., PluginGame]


def omen_plugin(describe: Callable[[Words, Mapping[str, Any]], str]) -> types.ModuleType:
    """A plugin emitting ``omen_seen`` at each round's start, worded by ``describe``."""
    module = types.ModuleType("omens")

    def omen(state: State) -> None:
        state.emit("omen_seen", house=state.houses[0], round=state.round)

    def rule_round_start(options: Mapping[str, Any]) -> StateHook:
        return omen

    def register_event_texts() -> list[EventText]:
        return [EventText("omen_seen", describe)]

    module.rule_round_start = hookimpl(rule_round_start)  # type: ignore[attr-defined]
    module.register_event_texts = hookimpl(register_event_texts)  # type: ignore[attr-defined]
    return module


def broken(words: Words, event: Mapping[str, Any]) -> str:
    return words._("A red comet is seen over {area}.").format(area=words.area(event["area"]))


def sound(words: Words, event: Mapping[str, Any]) -> str:
    return words._("{house} fights on the side of {side}.").format(
        house=words.house(event["house"]), side=words.side("attacker")
    )


def test_a_log_text_that_raises_fails_the_test_naming_the_event(westeros_game: Factory) -> None:
    """Issue 38 point 3: the KeyError of a wrong field becomes a LogTextError with the kind."""
    game = westeros_game(omen_plugin(broken), players=3, seed=1)
    game.play(until=lambda g: g.state.round == 2)
    with pytest.raises(LogTextError) as raised:
        game.log("en")
    print("raised:", raised.value)
    assert "'omen_seen' raised KeyError: 'area'" in str(raised.value)
    assert "'round': 1" in str(raised.value)


def test_a_sound_log_text_reads_in_english_and_chinese(westeros_game: Factory) -> None:
    """Issue 38 point 4: the fixture's log is the sentence a seat reads, in either language
    (the game's catalog words the house and side here)."""
    game = westeros_game(omen_plugin(sound), players=3, seed=1)
    game.play(until=lambda g: g.state.round == 2)
    first = game.state.houses[0]
    english = game.log("en")
    chinese = game.log("zh_CN")
    assert english.count(f"{first.capitalize()} fights on the side of the attacker.") == 2
    assert len(chinese) == len(english)
    assert "Baratheon" not in " ".join(chinese) and "拜拉席恩" in " ".join(chinese)
