"""AI personalities as a bundled plugin (issue 7): four playing styles for AI seats, offered
through the ``register_ai_personalities`` hook."""

from westeros import __version__  # bundled: released with the app

__all__ = ["__version__"]
