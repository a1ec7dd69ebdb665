"""What the new-game screen asks the local core (RULES.md 2.1, 11.2): the player counts and
houses the chosen options can set up, from the Ruleset those options make, and the refusal of a
count no setup has; without a browser."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import app, client, make_app, store_url  # noqa: F401 (fixtures)
from westeros.server.pages import CHOICES_URL

BASE_HOUSES = {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"}


def test_11_2_the_choices_follow_the_options_in_the_query(client: TestClient) -> None:  # noqa: F811
    base = client.get(CHOICES_URL, params={"plugin": "westeros_ports"}).json()["setups"]
    assert sorted(base) == ["3", "4", "5", "6"]
    assert set(base["6"]) == BASE_HOUSES
    mod = client.get(
        CHOICES_URL, params={"plugin": "westeros_ports", "mother_of_dragons": "on"}
    ).json()["setups"]
    assert "7" in mod
    assert set(mod["7"]) == BASE_HOUSES | {"arryn"}


def test_the_start_page_lists_every_count_and_house_an_option_may_bring(
    client: TestClient,  # noqa: F811
) -> None:
    page = client.get("/").text
    assert 'name="players" value="7" disabled' in page  # offered once the option is chosen
    assert 'name="players" value="6" checked' in page
    assert 'name="house" value="arryn"' in page


def test_a_count_no_setup_has_is_refused_with_the_counts_there_are(client: TestClient) -> None:  # noqa: F811
    response = client.post("/games", data={"players": "7", "plugin": "westeros_ports"})
    assert response.status_code == 400
    assert "a game has 3, 4, 5, 6 players, not 7" in response.text
