"""What a person does at the page, as helpers the browser tests share."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

BETTING_MARGIN_MS = 1800  # bet only in a window with at least this much time left


def sign_in(page: Any, name: str, password: str = "demo") -> None:
    page.goto("/#/")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#login-submit")
    page.wait_for_selector(f"#who:has-text('{name}')", state="attached")  # in the menu on a phone


def open_table(page: Any, table: int) -> None:
    page.goto(f"/#/table/{table}")
    page.wait_for_selector(".table-view[data-phase]:not([data-phase='starting'])")


def wait_betting(page: Any, margin_ms: int = BETTING_MARGIN_MS, timeout: float = 20_000) -> int:
    """Wait for a betting window with time left; return its round number."""
    page.wait_for_function(
        """(margin) => { const t = document.querySelector('.table-view');
             return t && t.dataset.phase === 'betting' && Number(t.dataset.bettingCloses) - Date.now() > margin; }""",
        arg=margin_ms,
        timeout=timeout,
    )
    return int(page.get_attribute(".table-view", "data-round") or 0)


def bet_on_box(page: Any, box: int, tries: int = 3) -> int:
    """Click box ``box``'s bet button in a betting window with time left until the page shows the bet as
    the player's; return the round number. A bet the server refused (on a loaded machine its answer can
    come after the window has closed) is placed again in the next window, as a player would; the page's
    messages for the refusals are in the failure's text when no window takes it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    refusals: list[str] = []
    for _ in range(tries):
        number = wait_betting(page)
        page.click(f"#bet-box-{box}")
        try:
            page.wait_for_selector(f".box[data-box='{box}'] .bets li.mine", timeout=BETTING_MARGIN_MS + 6_000)
            return number
        except PlaywrightTimeout:  # the bet was not taken in this window
            refusals.append(page.inner_text("#toast") or "(no message)")
    raise AssertionError(f"no bet on box {box} was taken in {tries} betting windows: {refusals}")


def rest(
    base_url: str, method: str, path: str, token: str | None = None, body: Any = None, key: str | None = None
) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if key:
        request.add_header("Idempotency-Key", key)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def token_of(base_url: str, name: str) -> str:
    return str(rest(base_url, "POST", "/api/login", body={"name": name, "password": "demo"})["token"])


def ledger_balance(base_url: str, name: str) -> str:
    return str(rest(base_url, "GET", "/api/me", token_of(base_url, name))["balance"])


def check_balance(page: Any, base_url: str, name: str) -> str:
    """The balance on the page equals the ledger's (GET /api/me), once the last balance event is in."""
    expected = ledger_balance(base_url, name)
    page.wait_for_function(
        "(want) => document.querySelector('#balance')?.dataset.amount === want", arg=expected, timeout=10_000
    )
    return expected


def pending(page: Any) -> str:
    return str(page.get_attribute(".table-view", "data-pending") or "")


CONTRAST_SCRIPT = Path(__file__).with_name("contrast.js").read_text(encoding="utf-8").split("\n", 1)[1]  # no comment


def contrast_failures(page: Any) -> list[dict[str, Any]]:
    """Every visible text whose WCAG 2 contrast against its background is under AA (4.5:1, large 3:1)."""
    return [r for r in page.evaluate(CONTRAST_SCRIPT) if r["ratio"] < r["need"]]


TABLES = tuple(range(1, 15))  # the demo's four and the test-only tables of run_server.py (5-14)


def seats(base_url: str, table: int) -> dict[str, str]:
    return dict(rest(base_url, "GET", f"/api/tables/{table}")["seats"])


def stand_everyone_up(base_url: str, timeout: float = 30.0) -> None:
    """Every demo player leaves every seat (the server keeps seats between tests, and one seat per player,
    Art. 2.3): a seat with a bet in the round is left once the round has settled."""
    tokens: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    for table in TABLES:
        while True:
            taken = seats(base_url, table)
            if not taken:
                break
            for box, name in taken.items():
                if name not in tokens:
                    tokens[name] = token_of(base_url, name)
                try:
                    rest(base_url, "DELETE", f"/api/tables/{table}/seats/{box}", tokens[name])
                except urllib.error.HTTPError as error:
                    if error.code != 409 or time.monotonic() > deadline:
                        raise
            time.sleep(0.2)


def ledger_balanced(base_url: str) -> dict[str, Any]:
    """The ledger's four invariants (docs/protocol.md), read by the supervisor."""
    return dict(rest(base_url, "GET", "/api/ledger", token_of(base_url, "sam")))


def unbatched(data: str | bytes) -> list[dict[str, Any]]:
    """A WebSocket message decoded: the page asks for ``?batch=1``, so the events that came together arrive
    as one ``{"type": "events", "events": [...]}``; each of them, in order."""
    message = json.loads(data)
    return list(message["events"]) if message.get("type") == "events" else [message]
