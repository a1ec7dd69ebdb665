"""Tides of Battle (RULES.md 10) as a bundled plugin; off unless the game option is on."""

from westeros import __version__  # bundled: released with the app

__all__ = ["__version__"]
