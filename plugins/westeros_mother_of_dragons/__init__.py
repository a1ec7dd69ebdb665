"""Mother of Dragons (RULES.md 11) as a bundled plugin; out of every game that does not choose
it (the ``mother_of_dragons`` game option)."""

from westeros import __version__  # bundled: released with the app

__all__ = ["__version__"]
