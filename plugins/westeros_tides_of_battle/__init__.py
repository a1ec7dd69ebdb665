"""Tides of Battle (RULES.md 10) as a bundled plugin; off unless the game option is on."""

__version__ = "0.1.0"
