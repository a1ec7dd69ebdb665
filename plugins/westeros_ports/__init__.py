"""Ports (RULES.md 6) as a bundled plugin: the eight port areas and all port behaviour."""

from westeros import __version__  # bundled: released with the app

__all__ = ["__version__"]
