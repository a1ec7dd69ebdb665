"""Westeros: a digital edition of A Game of Thrones: The Board Game (2nd edition).

The public plugin API: ``from westeros import hookimpl``."""

import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("westeros")

__all__ = ["__version__", "hookimpl"]
