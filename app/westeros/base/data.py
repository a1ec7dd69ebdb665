"""Loading the base game's data files (written from the shared fact file; see tests)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load(name: str) -> Any:
    """The parsed JSON data file ``name`` (e.g. ``map``) shipped in ``westeros/base/data``."""
    text = resources.files(__package__).joinpath("data", f"{name}.json").read_text("utf-8")
    return json.loads(text)
