"""Security probes run against the real app, through the server tests' fixtures (the
Chromium probes are in tests/ui/test_csp.py, beside the browser fixtures)."""

from tests.server.conftest import (  # noqa: F401  (fixtures)
    _no_installed_plugins,
    app,
    client,
    games,
    make_app,
    store_url,
)
