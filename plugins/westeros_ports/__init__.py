"""Ports (RULES.md 6) as a bundled plugin: the eight port areas and all port behaviour."""

__version__ = "0.1.0"
