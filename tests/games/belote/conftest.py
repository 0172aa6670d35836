"""The fixtures belote's tests share with the app's: an app on a fresh database and
its client (tests/web), a served app and Debian's Chromium (tests/e2e)."""

from tests.e2e.conftest import browser, live_server
from tests.web.conftest import app, client, database

__all__ = ["app", "browser", "client", "database", "live_server"]
