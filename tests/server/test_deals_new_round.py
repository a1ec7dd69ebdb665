"""The offers an AI makes at the start of a round's Planning phase (4; deals.table) are in the
first deals message a board asks for once that round's view reaches it: the board asks at once
(js/deals.js refreshes when its state changes), and the talks run after the view is sent, so an
answer that did not wait for them left the person's panel without the offer all round."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from typing import Any

from westeros.ai.deals_seat import TalkingBot
from westeros.deals import NonAggression
from westeros.deals.table import DealTable
from westeros.deals.terms import Term
from westeros.engine import Ruleset
from westeros.engine.flow import pending, random_action
from westeros.saves import open_store
from westeros.session import GameSession, Human
from westeros.session.hub import plain_narrator

PERSON = "stark"
MAX_DECISIONS = 2_000


class Courteous(TalkingBot):
    """The baseline AI that offers the person a pact at the start of every round."""

    def proposals(self, view: Mapping[str, Any], rules: Any) -> list[tuple[str, tuple[Term, ...]]]:
        house = view["house"]
        return [(PERSON, (NonAggression(tuple(sorted((house, PERSON))), view["round"]),))]


def test_4_the_first_deals_message_of_a_new_round_holds_the_ai_offers_of_that_round(
    store_url: str, rules: Ruleset
) -> None:
    store = open_store(store_url)
    houses = rules.setups[3].houses
    players: dict[str, Any] = {h: Courteous(seed=i) for i, h in enumerate(houses)}
    players[PERSON] = Human()
    session = GameSession.create(store, rules, 3, players, seed=4)
    table = DealTable(session, session.hub.view, lambda _: None)
    asked: dict[str, Any] = {}

    def board(message: dict[str, Any]) -> None:
        """The person's board: as round 2's Planning view arrives, it asks for its deals (from the
        event loop's side, another thread), while the session still sends and observes."""
        view = message.get("view") or {}
        prompt = view.get("prompt") or {}
        if view.get("round") != 2 or prompt.get("kind") != "place_orders" or asked:
            return
        asker = threading.Thread(target=lambda: asked.update(message=table.message(PERSON)))
        asked["thread"] = asker
        asker.start()
        time.sleep(0.3)  # the request arrives before the session's observers are done

    session.hub.attach(PERSON, board, plain_narrator, [])
    rnd = random.Random(4)
    for _ in range(MAX_DECISIONS):
        if session.state.round >= 2 and "thread" in asked:
            break
        ais = session.ai_pending()
        if ais:
            session.play_ai(ais[0])
        else:
            assert PERSON in pending(session.state), "nobody decides"
            session.submit(PERSON, random_action(session.state, PERSON, rnd), session.serial)
    asked["thread"].join(timeout=30)

    shown = asked["message"]
    made = [(p["proposer"], p["round"]) for p in shown["proposals"]]
    print("round 2's first deals message, (proposer, round) of each offer:", made)
    assert shown["round"] == 2
    offers = {p["proposer"] for p in shown["proposals"] if p["round"] == 2}
    assert offers == set(houses) - {PERSON}
    assert all(p["status"] == "open" for p in shown["proposals"] if p["round"] == 2)
