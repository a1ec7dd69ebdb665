"""The base game (2nd edition) as content, registered through the public hooks like any plugin."""
