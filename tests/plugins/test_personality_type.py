"""Issue 35 finding 18 (b): an AI-personality object of the wrong type used to make the start
page answer 500, because ``register_ai_personalities``' results were never checked. Now the
plugin is disabled at load with an error naming it, and the start page works."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros import hookimpl
from westeros.ai import Personality
from westeros.ai.personality import AIPersonality
from westeros.plugins import load
from westeros.server import create_app
from westeros.server.security import token_cookie

TOKEN = "personality-test-token-0123456789"
PORT = 8766


def personality_plugin(item: Any) -> Any:
    class Styles:
        NAME = "odd-styles"

        @hookimpl
        def register_ai_personalities(self) -> list[Any]:
            return [AIPersonality("sound-style", "Sound style"), item]

    return Styles()


WRONG = [
    pytest.param({"id": "a-dict", "name": "A dict"}, id="dict"),
    pytest.param(Personality("baseline-style", "Baseline weights only"), id="baseline-personality"),
    pytest.param(AIPersonality("numbered", 7), id="name-not-text"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("item", WRONG)
def test_a_wrong_personality_object_disables_its_plugin_by_name(item: Any) -> None:
    """Issue 35 finding 18 (b): the plugin is refused at load, the error names it and the hook,
    and none of its personalities (not even its sound one) is offered."""
    loaded = load(extra=[personality_plugin(item)])
    (error,) = loaded.errors
    assert error.plugin == "odd-styles"
    assert "register_ai_personalities" in error.message and "AIPersonality" in error.message
    offered = [p.id for p in loaded.ai_personalities]
    assert "sound-style" not in offered and "conqueror" in offered


@pytest.mark.parametrize("item", WRONG)
def test_the_start_page_works_with_a_plugin_registering_a_wrong_personality(
    item: Any, tmp_path: Path
) -> None:
    """Issue 35 finding 18 (b): the start page answers 200, offers the bundled personalities and
    lists the refused plugin among the plugins that could not be loaded."""
    app = create_app(
        token=TOKEN,
        store_url=f"sqlite:///{tmp_path / 'westeros.db'}",
        port=PORT,
        plugins=load(extra=[personality_plugin(item)]),
    )
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        client.cookies.set(token_cookie(PORT), TOKEN)
        page = client.get("/")
    assert page.status_code == 200
    assert "odd-styles" in page.text
    assert "conqueror" in page.text and "sound-style" not in page.text
