"""Player profiles with their settings, and application settings."""

from __future__ import annotations

import dataclasses

import pytest

from westeros.engine import Ruleset
from westeros.store import GameStore, InvalidSetup, NameTaken, ProfileNotFound, SeatSpec

from .helpers import three_player_setup


def test_a_profile_keeps_its_name_and_settings(store: GameStore) -> None:
    made = store.create_profile("Catelyn", {"language": "en", "animations": False})
    got = store.profile(made.id)
    assert (got.name, dict(got.settings)) == ("Catelyn", {"language": "en", "animations": False})
    assert [p.name for p in store.profiles()] == ["Catelyn"]


def test_profiles_are_listed_by_name(store: GameStore) -> None:
    for name in ("Robb", "Arya", "Bran"):
        store.create_profile(name)
    assert [p.name for p in store.profiles()] == ["Arya", "Bran", "Robb"]


def test_two_profiles_cannot_share_a_name(store: GameStore) -> None:
    store.create_profile("Sansa")
    with pytest.raises(NameTaken, match="Sansa"):
        store.create_profile("Sansa")
    other = store.create_profile("Jon")
    with pytest.raises(NameTaken):
        store.update_profile(other.id, name="Sansa")
    assert [p.name for p in store.profiles()] == ["Jon", "Sansa"]


def test_updating_a_profile_replaces_its_settings(store: GameStore) -> None:
    made = store.create_profile("Rickon", {"language": "en"})
    updated = store.update_profile(made.id, name="Rickon Stark", settings={"sound": 3})
    assert (updated.name, dict(updated.settings)) == ("Rickon Stark", {"sound": 3})
    assert updated.updated_at >= made.updated_at
    assert dict(store.profile(made.id).settings) == {"sound": 3}


def test_an_unknown_profile_raises_profile_not_found(store: GameStore) -> None:
    with pytest.raises(ProfileNotFound):
        store.profile(404)
    with pytest.raises(ProfileNotFound):
        store.update_profile(404, name="x")
    with pytest.raises(ProfileNotFound):
        store.delete_profile(404)


def test_deleting_a_profile_keeps_the_seats_it_played(store: GameStore, rules: Ruleset) -> None:
    ned = store.create_profile("Eddard")
    setup = three_player_setup(rules)
    seats = (*setup.seats[:2], SeatSpec("stark", "human", "Ned", ned.id))
    game = store.create_game(dataclasses.replace(setup, seats=seats))
    assert store.game(game.info.id).setup.seats[2].profile_id == ned.id
    store.delete_profile(ned.id)
    assert store.profiles() == []
    seat = store.game(game.info.id).setup.seats[2]
    assert (seat.house, seat.name, seat.profile_id) == ("stark", "Ned", None)


def test_a_seat_cannot_name_a_profile_that_does_not_exist(store: GameStore, rules: Ruleset) -> None:
    setup = three_player_setup(rules)
    seats = (*setup.seats[:2], SeatSpec("stark", "human", "Ned", 404))
    with pytest.raises(InvalidSetup, match="could not be stored"):
        store.create_game(dataclasses.replace(setup, seats=seats))
    assert store.list_games() == []


def test_settings_keep_any_json_value(store: GameStore) -> None:
    assert store.setting("volume", 5) == 5
    values = {"volume": 7, "big": 2**63 + 1, "ratio": 0.25, "theme": "dark", "nothing": None}
    values |= {"keys": {"zoom": ["+", "="]}}
    for key, value in values.items():
        store.set_setting(key, value)
    store.set_setting("volume", 8)
    assert store.settings() == values | {"volume": 8}
    assert store.setting("nothing", "default") is None
