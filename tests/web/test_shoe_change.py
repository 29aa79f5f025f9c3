"""A new shoe's first coup shows its result on the table page like any other: at a live
baccarat table (the test server's ``baccarat-live``, dealt by dora through the dealer API) a coup is
played, the dealer ends the shoe between coups, the new shoe is started (its first card turned and its
burns, Art. 2.1) and its first coup is played: the page that watched all along, and a page opened
after the change, show that coup's cards and result on the felt.
"""

from __future__ import annotations

import time
import urllib.error
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.pages import rest, sign_in, token_of

LIVE_BACCARAT = 14  # baccarat-live (tests/web/run_server.py)
SHOE_START = ("2D", "3D", "4D")  # Art. 2.1: a 2 turned, so 2 burned
PLAYER_WINS = ("8H", "2H", "TD", "5D")  # player 8 (a natural), banker 7
BANKER_WINS = ("3C", "9S", "4C", "KS")  # player 7, banker 9 (a natural)

SIDES = """() => Object.fromEntries([...document.querySelectorAll('#coup .side-cards')].map((s) =>
  [s.dataset.side, [...s.querySelectorAll('.card')].map((c) => c.dataset.card || 'back')]))"""


def _view(base_url: str, token: str) -> dict[str, Any]:
    return dict(rest(base_url, "GET", f"/api/tables/{LIVE_BACCARAT}", token))


def _until(base_url: str, token: str, ready: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view = _view(base_url, token)
        if ready(view):
            return view
        assert time.monotonic() < deadline, f"the table never got there: {view['phase']} {view.get('pending')}"
        time.sleep(0.05)


def _cards(base_url: str, dora: str, *cards: str) -> None:
    for card in cards:
        rest(base_url, "POST", f"/api/tables/{LIVE_BACCARAT}/cards", dora, {"card": card})


def _coup(base_url: str, dora: str, ana: str, cards: tuple[str, ...]) -> dict[str, Any]:
    """ana bets 10 on player in the next betting window; dora deals ``cards``; the coup, once over."""
    before = (_view(base_url, dora).get("last_round") or {}).get("id")
    _bet(base_url, dora, ana)
    _until(base_url, dora, lambda v: (v.get("pending") or {}).get("kind") == "card" and v["phase"] == "playing")
    _cards(base_url, dora, *cards)
    over = _until(base_url, dora, lambda v: (v.get("last_round") or {}).get("id") not in (None, before))
    return dict(over["last_round"])


def _bet(base_url: str, dora: str, ana: str) -> None:
    """ana bets 10 on player in the next betting window."""
    deadline = time.monotonic() + 20
    while True:
        _until(base_url, dora, lambda v: v["phase"] == "betting")
        try:
            body = {"spot": "player", "amount": "10"}
            rest(base_url, "POST", f"/api/tables/{LIVE_BACCARAT}/bets", ana, body, uuid.uuid4().hex)
            break
        except urllib.error.HTTPError as error:  # the window closed as we bet: the next one
            assert error.code == 409 and time.monotonic() < deadline, error.read()


def _shows(page: Any, coup: int, cards: tuple[str, ...], winner: str, net: str) -> None:
    """The coup's result on the felt, its cards in the coup's place, and the result beside the table."""
    page.wait_for_selector(f"#round-result .result-card[data-coup='{coup}'][data-winner='{winner}']")
    assert page.evaluate(SIDES) == {"player": [cards[0], cards[2]], "banker": [cards[1], cards[3]]}
    page.wait_for_selector(f"#results .winner[data-winner='{winner}']")
    page.wait_for_selector(f"#result-net[data-net='{net}']")


def test_the_first_coup_of_a_new_shoe_shows_its_result(new_page: Any, base_url: str, screenshots: Path) -> None:
    dora, ana = token_of(base_url, "dora"), token_of(base_url, "ana")
    page = new_page(1366, 900)
    sign_in(page, "ana")
    page.goto(f"/#/table/{LIVE_BACCARAT}")
    page.wait_for_selector("#bac-table[data-phase]")
    _cards(base_url, dora, *SHOE_START)  # the table's first shoe: no other test deals at it
    first = _coup(base_url, dora, ana, PLAYER_WINS)
    _shows(page, first["coup"], PLAYER_WINS, "player", "10.00")
    shoe = _view(base_url, dora)["shoe"]["id"]
    # the dealer ends the shoe between coups (betting open, no bet): a new shoe at once
    _until(base_url, dora, lambda v: v["phase"] == "betting" and not (v.get("round") or {}).get("bets"))
    ended = rest(base_url, "POST", f"/api/tables/{LIVE_BACCARAT}/end-shoe", dora)
    assert ended["ended"] is True and ended["shoe"] != shoe, ended
    _cards(base_url, dora, *SHOE_START)
    coup = _coup(base_url, dora, ana, BANKER_WINS)
    assert coup["coup"] == 1 and coup["result"]["winner"] == "banker", coup  # the new shoe counts from 1
    _shows(page, 1, BANKER_WINS, "banker", "-10.00")
    page.screenshot(path=str(screenshots / "shoe-change-first-coup.png"))
    later = new_page(390, 844)  # a page opened after the change shows it too
    sign_in(later, "ana")
    later.goto(f"/#/table/{LIVE_BACCARAT}")
    _shows(later, 1, BANKER_WINS, "banker", "-10.00")
    # a supervisor voids a coup in the deal: its bets are returned and the shoe ends (online §3.5); the
    # next shoe's first coup shows on both pages
    shoe = _view(base_url, dora)["shoe"]["id"]
    _bet(base_url, dora, ana)
    _until(base_url, dora, lambda v: (v.get("pending") or {}).get("kind") == "card" and v["phase"] == "playing")
    _cards(base_url, dora, "9C", "9D")
    rest(base_url, "POST", f"/api/tables/{LIVE_BACCARAT}/void", token_of(base_url, "sam"), {"reason": "a test"})
    _until(base_url, dora, lambda v: v["shoe"]["id"] not in (None, shoe))
    _cards(base_url, dora, *SHOE_START)
    coup = _coup(base_url, dora, ana, PLAYER_WINS)
    assert coup["coup"] == 1 and coup["result"]["winner"] == "player", coup
    for each in (page, later):
        _shows(each, 1, PLAYER_WINS, "player", "10.00")
