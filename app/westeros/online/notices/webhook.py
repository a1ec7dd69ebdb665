"""Turn notices by webhook (issue 40; docs/online-notices.md): a POST of Discord-compatible
JSON — ``content`` and ``username`` and one embed per decision — to a player's URL or to the
URL the host set for the game, with httpx2, bounded by a timeout. Mentions in the text are
never resolved (``allowed_mentions``), so a game's or a player's name cannot ping anyone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx2

from .targets import check_host
from .texts import FIELD_DECISION, FIELD_GAME, FIELD_HOUSE, Turn, Words

USERNAME = "Westeros"
MAX_CONTENT = 2000
MAX_EMBEDS = 10


def body(
    words: Words, turns: Sequence[tuple[Turn, str | None]], links: Sequence[str]
) -> dict[str, Any]:
    """The JSON of one webhook message about ``turns`` (each with its player's name, if
    any), ``links`` leading to each one's board."""
    embeds = [
        {
            "title": words.subject(turn)[:256],
            "url": url,
            "fields": [
                {"name": words.label(FIELD_GAME), "value": turn.lobby_name[:1024], "inline": True},
                {"name": words.label(FIELD_HOUSE), "value": words.label(turn.house_name)},
                {"name": words.label(FIELD_DECISION), "value": words.title(turn.kind)},
            ],
        }
        for (turn, _), url in zip(turns, links, strict=True)
    ]
    return {
        "username": USERNAME,
        "content": words.webhook(turns)[:MAX_CONTENT],
        "embeds": embeds[:MAX_EMBEDS],
        "allowed_mentions": {"parse": []},
    }


async def post(url: str, data: dict[str, Any], timeout: float, *, private: bool) -> None:
    """POST ``data`` to ``url``; an answer other than 2xx, a refused or private address,
    or no answer within ``timeout`` seconds raises."""
    await asyncio.to_thread(check_host, url, private=private)
    async with httpx2.AsyncClient(timeout=timeout, follow_redirects=False) as client:
        response = await asyncio.wait_for(client.post(url, json=data), timeout)
    response.raise_for_status()
