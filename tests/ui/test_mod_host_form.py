"""The online host form offers what the new-game screen offers (issue 12 point 4): every
player count some choice of options can set up (7 and 8 with Mother of Dragons) and the game
options, and a lobby hosted with Mother of Dragons for 8 players seats House Targaryen
(RULES.md 11.2); without the option 8 players are refused with a reason. The start screen's
tagline names the real range of houses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

TOKEN = "mod-host-form-launch-token-0123456789"


@pytest.fixture
def local_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    from westeros.server import create_app, free_port

    app = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'host.db'}")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.cookies.set("westeros_token", TOKEN)
        client.free_port = free_port  # type: ignore[attr-defined]
        yield client


def host(client: Any, **fields: str) -> Any:
    """Post the host form with the plugins it offers switched on (as it shows them)."""
    plugins = re.findall(r'name="plugin" value="([^"]+)" checked', client.get("/online/host").text)
    data: dict[str, Any] = {
        "plugin": plugins,
        "name": "Hostess",
        "open": "1",
        "interface": "127.0.0.1",
        "listen_port": str(client.free_port()),
        "ai_level": "baseline",
        **fields,
    }
    return client.post("/online/host", data=data)


def test_11_2_the_host_form_offers_the_new_game_screens_counts_and_options(
    local_core: Any,
) -> None:
    page = local_core.get("/online/host").text
    counts = re.findall(
        r'<option value="(\d+)"', page.split('name="players"')[1].split("</select>")[0]
    )
    assert counts == ["3", "4", "5", "6", "7", "8"]
    for option in ("mother_of_dragons", "mod_iron_bank", "mod_sea_orders"):
        assert f'name="{option}"' in page


def test_11_2_a_lobby_hosted_with_mother_of_dragons_for_8_seats_targaryen(
    local_core: Any,
) -> None:
    refused = host(local_core, players="8")
    assert refused.status_code == 400
    assert "8" in refused.text and 'data-testid="host-error"' in refused.text
    reply = host(local_core, players="8", open="8", mother_of_dragons="on", mod_iron_bank="on")
    assert reply.status_code == 200, reply.text
    seats = set(re.findall(r'data-testid="invite-([a-z]+)"', reply.text))
    assert len(seats) == 7  # every seat but the host's
    assert {"targaryen", "arryn"} & seats


def test_the_start_tagline_names_the_real_range_of_houses(local_core: Any) -> None:
    start = local_core.get("/").text
    assert "three to six" not in start
    assert "A game of thrones for 3 to 8 houses." in start
