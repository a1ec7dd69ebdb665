"""The saved-game pages (replay, delete confirmation) show no text outside gettext either, like
the start screen and the board (see test_i18n.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
GAME = {
    "id": "x",
    "house_name": "x",
    "winner_name": "x",
    "over": True,
    "round": 1,
    "updated_at": "2025-01-01T00:00:00+00:00",
    "date": "2025-01-01 00:00",
    "delete_url": "/",
}


@pytest.mark.parametrize(
    ("name", "context"),
    [
        ("replay.html", {"game_id": "x", "house": "x", "house_name": "x", "full": False}),
        ("replay.html", {"game_id": "x", "house": "", "full": True}),
        ("delete.html", {"game": GAME}),
        ("delete.html", {"game": {**GAME, "over": False}}),
    ],
)
def test_saved_game_pages_have_no_text_outside_gettext(
    name: str, context: dict[str, object]
) -> None:
    from jinja2 import Environment, FileSystemLoader

    env = Environment(
        loader=FileSystemLoader(FRONTEND / "templates"),
        extensions=["jinja2.ext.i18n"],
        autoescape=True,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message, **_: "", lambda one, many, n, **_: "", newstyle=True
    )
    page = env.get_template(name).render(content={}, map_svg="", **context)
    page = re.sub(r"<script[^>]*>.*?</script>|<!--.*?-->", " ", page, flags=re.S)
    problems = [
        f"attribute {attr!r}"
        for attr in re.findall(r'(?:title|placeholder|aria-label|alt)="([^"]*)"', page)
        if re.search(r"[A-Za-z]{2}", attr)
    ]
    text = re.sub(r"&\w+;", " ", re.sub(r"<[^>]*>", " ", page))
    problems.extend(repr(word) for word in re.findall(r"[A-Za-z]{2,}", text))
    assert not problems, problems
