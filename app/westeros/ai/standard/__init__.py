"""The Standard AI (issue 15): a rule-of-thumb player much stronger than the baseline AI, with
no search. ``threats`` holds its threat map, ``planning`` its order plan, ``action`` raids and
marches, ``bidding`` Clash of Kings bids, ``combat`` house cards, ``mustering`` recruits;
``policy`` the seat itself. Like every player it sees only its own view."""

from .policy import StandardBot

__all__ = ["StandardBot"]
