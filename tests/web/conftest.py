"""Browser tests of the table UI (src/croupier/server/web/): Debian's Chromium driven by Playwright
against a real server process (tests/web/run_server.py: ``croupier serve`` with ``seed="tests"``).

Chromium is never downloaded: the tests launch ``/usr/bin/chromium`` (Debian package ``chromium``) and
skip with a message when it is missing, except under ``CI=true`` where they fail instead.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCREENSHOTS = HERE / "screenshots"
BETTING_SECONDS = 3.0
DECISION_SECONDS = 3.0
SQUEEZE_SECONDS = 8.0  # the test-only baccarat-squeeze (table 5): the time its holder has to turn


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) for the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (required under CI=true)")
        pytest.skip(message)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        message = "the Python package playwright is missing (pip install playwright; no browser download needed)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def base_url(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh server on a free port, with a new SQLite database and short timers."""
    port = _free_port()
    database = tmp_path_factory.mktemp("web") / "croupier.db"
    log = (tmp_path_factory.getbasetemp() / "server.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "run_server.py"),
            "--port",
            str(port),
            "--database",
            f"sqlite:///{database}",
            "--betting-seconds",
            str(BETTING_SECONDS),
            "--decision-seconds",
            str(DECISION_SECONDS),
            "--test-tables",
            "--squeeze-seconds",
            str(SQUEEZE_SECONDS),
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/api/tables", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the server did not start; see {log.name}")
        time.sleep(0.1)
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    """One browser per test file: Playwright's sync API runs an event loop in the test's thread while it
    lives, and a file of server tests that the same worker runs later needs that thread's loop free."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_page(browser: Any, base_url: str) -> Iterator[Any]:
    """``new_page(width, height, touch=False)``: a page in a context of its own (its own sign-in); closed after
    the test. ``touch``: a phone's touch screen (touch events, no hover, a coarse pointer: Playwright's
    ``has_touch`` and ``is_mobile``), for ``tap()``."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, touch: bool = False) -> Any:
        phone = {"has_touch": True, "is_mobile": True} if touch else {}
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=base_url, **phone)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture(autouse=True)
def empty_seats(base_url: str) -> None:
    """Each test starts with nobody seated: seats outlive a test at the one server of the session."""
    from tests.web.pages import stand_everyone_up

    stand_everyone_up(base_url)
