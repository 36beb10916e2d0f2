"""Browser fixtures: a real server on a free port (temp SQLite) and headless Debian Chromium.

The web suite never skips: a missing build (``scripts/build-web.sh``) or a missing browser
(``apt-get install chromium chromium-driver``) is a failure with a message saying what to do.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gameshelf.server import create_app
from gameshelf.server.app import static_dir
from gameshelf.server.settings import ServerSettings
from gameshelf.server.threaded import ThreadedServer

from .browser import Browser

SCREENSHOTS = Path(os.environ.get("GAMESHELF_WEB_SCREENSHOTS", "out/web-screenshots"))
CHROMIUM = os.environ.get("GAMESHELF_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("GAMESHELF_CHROMEDRIVER", "/usr/bin/chromedriver")


class WebServer(ThreadedServer):
    """uvicorn serving the app (with the built table) in a background thread."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        generous = ServerSettings(  # one browser makes every request of the suite
            creates_per_minute=1e6,
            joins_per_minute=1e6,
            replays_per_minute=1e6,
            rated_min_bank_seconds=5.0,  # the clock tests watch a short rated bank run out
        )
        super().__init__(create_app(database_url, bot_workers=0, settings=generous))


def _require_build() -> None:
    folder = static_dir()
    if folder is None or not (folder / "index.html").is_file():
        pytest.fail(
            "the browser table is not built (no index.html in the server's static folder): "
            "run scripts/build-web.sh first",
            pytrace=False,
        )


def _require_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (Path(p).exists() or shutil.which(p))]
    if missing:
        pytest.fail(
            f"headless Chromium is needed for the web tests; missing {', '.join(missing)} "
            "(apt-get install chromium chromium-driver)",
            pytrace=False,
        )


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[WebServer]:
    _require_build()
    server = WebServer(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    yield server
    server.stop()


BrowserFactory = Callable[..., Browser]


@pytest.fixture
def browser_factory(request: pytest.FixtureRequest) -> Iterator[BrowserFactory]:
    """Start headless Chromium sessions (each its own profile); all are closed at the end."""
    _require_browser()
    started: list[Browser] = []

    def start(width: int = 1280, height: int = 900) -> Browser:
        browser = Browser.start(CHROMIUM, CHROMEDRIVER, width, height)
        started.append(browser)
        return browser

    yield start
    failed = getattr(request.node, "rep_call", None)
    for index, browser in enumerate(started):
        if failed is not None and failed.failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = f"FAILED-{request.node.name}-{index}.png"
            browser.driver.save_screenshot(str(SCREENSHOTS / name))
        browser.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.rep_call = report  # type: ignore[attr-defined]
