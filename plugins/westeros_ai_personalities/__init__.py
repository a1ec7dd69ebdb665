"""AI personalities as a bundled plugin (issue 7): four playing styles for AI seats, offered
through the ``register_ai_personalities`` hook."""

__version__ = "0.1.0"
