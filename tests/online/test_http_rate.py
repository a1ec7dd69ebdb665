"""HTTP requests per client address (docs/online.md "Limits"): past its burst an address is
refused 429 ``online/too-many-requests`` with a Retry-After, the refused request changes
nothing, other addresses and static files are not held up, the address is served again as
its bucket refills, and a forged ``X-Forwarded-For`` from a peer that is not a trusted proxy
does not get a client round the limit."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from westeros.online.limits import Limits, RequestRate, TooManyRequests

BURST = 6
RATE = 0.01
"""One request back every 100 s: under any load the test's requests come faster than that."""


def _players(app: Any) -> int:
    with app.state.online.store.engine.connect() as db:
        return int(db.execute(sa.text("SELECT count(*) FROM online_players")).scalar_one())


def _register(client: TestClient, name: str, **headers: str) -> Any:
    """A new player (the client keeps no key from an earlier registration)."""
    client.cookies.clear()
    return client.post("/api/players", json={"name": name}, headers=headers)


def test_an_address_past_its_burst_is_refused_and_the_refused_request_changes_nothing(
    limited: Any,
) -> None:
    app = limited(requests_per_second=RATE, request_burst=BURST)
    flooder = TestClient(app, client=("203.0.113.7", 40000))
    answers = [_register(flooder, f"Bot{i}") for i in range(BURST + 4)]
    codes = [a.status_code for a in answers]
    print("a flood of registrations from one address:", codes)
    assert codes == [200] * BURST + [429] * 4
    refused = answers[-1]
    assert refused.json()["code"] == "online/too-many-requests"
    assert "requests a second" in refused.json()["message"]
    assert refused.headers["retry-after"] == "1"
    assert refused.headers["x-content-type-options"] == "nosniff"  # still the server's answer
    assert _players(app) == BURST, "a refused registration stores no player"
    other = TestClient(app, client=("198.51.100.2", 40000))
    assert _register(other, "Ann").status_code == 200, "another address is not held up"
    static = flooder.get("/static/js/errors.js")
    assert static.status_code == 200, "static files are not counted"
    assert _players(app) == BURST + 1


def test_a_forged_forwarded_address_does_not_get_round_the_limit(limited: Any) -> None:
    """Only a trusted proxy's X-Forwarded-For names the client: from anyone else the header is
    ignored, so a flooder cannot give each request an address of its own."""
    app = limited("10.0.0.1", requests_per_second=RATE, request_burst=BURST)
    flooder = TestClient(app, client=("203.0.113.7", 40000))
    forged = [
        _register(flooder, f"Bot{i}", **{"x-forwarded-for": f"192.0.2.{i}"}).status_code
        for i in range(BURST + 2)
    ]
    print("forged addresses from an untrusted peer:", forged)
    assert forged == [200] * BURST + [429] * 2
    proxy = TestClient(app, client=("10.0.0.1", 40000))
    forwarded = [
        _register(proxy, f"Guest{i}", **{"x-forwarded-for": f"192.0.2.{i}"}).status_code
        for i in range(BURST + 2)
    ]
    print("distinct clients through the trusted proxy:", forwarded)
    assert forwarded == [200] * (BURST + 2), "each client behind the proxy has its own limit"


def test_an_address_is_forgotten_once_its_bucket_has_refilled() -> None:
    now = [0.0]
    rate = RequestRate(Limits(requests_per_second=RATE, request_burst=BURST), lambda: now[0])
    for address in range(100):
        rate.take(f"10.0.{address}.1")
    assert len(rate) == 100
    now[0] += BURST / RATE
    rate.take("10.9.9.9")
    assert len(rate) == 1, "only the address active since the last sweep is kept"
    for _ in range(BURST - 1):
        rate.take("10.9.9.9")
    with pytest.raises(TooManyRequests):
        rate.take("10.9.9.9")
    now[0] += 1 / RATE
    rate.take("10.9.9.9")  # served again: one request back per 1 / RATE seconds
    with pytest.raises(TooManyRequests):
        rate.take("10.9.9.9")


def test_a_limit_of_zero_requests_a_second_turns_the_limit_off() -> None:
    rate = RequestRate(Limits(requests_per_second=0, request_burst=1))
    for _ in range(1000):
        rate.take("203.0.113.7")
    assert len(rate) == 0
