"""Security probes run against the real app, through the server tests' fixtures."""

from tests.server.conftest import (  # noqa: F401  (fixtures)
    _no_installed_plugins,
    app,
    client,
    games,
    make_app,
    store_url,
)
from tests.ui.conftest import artifacts, browser, core_factory, live_core, page  # noqa: F401
