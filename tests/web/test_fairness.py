"""The History & fairness page rebuilds a finished shoe in the browser (Web Crypto) and checks every round's
cards against it: a blackjack shoe and a baccarat shoe (its turned first card and burns, Art. 2.1) verify;
a document with one card changed is caught, naming the round and the card; the page asks the server for
nothing but the shoe's document; the order it rebuilds is Python's ``build_shoe`` card for card."""

from __future__ import annotations

import contextlib
import time
import urllib.error
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from croupier.server.fair import build_shoe
from tests.web.pages import contrast_failures, rest, sign_in, token_of
from tests.web.test_seats import LAPTOP, PHONE, in_language


def _wait(base_url: str, table: int, ready: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            view = dict(rest(base_url, "GET", f"/api/tables/{table}"))
        except urllib.error.HTTPError as error:  # a table just opened: running in a moment
            assert error.code == 503 and time.monotonic() < deadline, error.read()
            view = {}
        if view and ready(view):
            return view
        assert time.monotonic() < deadline, f"table {table} never got there: {view.get('phase')} {view.get('pending')}"
        time.sleep(0.1)


def _bet(base_url: str, token: str, table: int, spot: str, amount: str) -> Callable[[dict[str, Any]], bool]:
    """Bet in the next betting window; returns a test for "that round has left its betting window" (a
    round can open, deal and end between two looks at the table: a dealer natural)."""
    deadline = time.monotonic() + 30
    while True:
        _wait(base_url, table, lambda v: v["phase"] == "betting")
        try:
            answer = rest(
                base_url, "POST", f"/api/tables/{table}/bets", token, {"spot": spot, "amount": amount}, uuid.uuid4().hex
            )
            record = answer["round"]
            return lambda v: v["phase"] != "betting" or (v.get("round") or {}).get("id") != record
        except urllib.error.HTTPError as error:  # the window closed as we bet: the next one
            assert error.code == 409 and time.monotonic() < deadline, error.read()


BLACKJACK, BACCARAT = 9, 10  # the test server's online-fair and baccarat-fair (tests/web/run_server.py)


def _shoe_in_play(base_url: str, table: int) -> int:
    return int(_wait(base_url, table, lambda v: bool(v.get("shoe")))["shoe"]["id"])


def _finished_blackjack_shoe(base_url: str, ana: str, sam: str) -> int:
    """Rounds left to the decision timer, then a round in play voided by the supervisor: the shoe ends."""
    for played in range(12):
        view = _wait(base_url, BLACKJACK, _bet(base_url, ana, BLACKJACK, "1", "10"))
        if played >= 2 and view["phase"] == "playing" and view.get("pending", {}).get("kind") == "decision":
            shoe = _shoe_in_play(base_url, BLACKJACK)
            rest(base_url, "POST", f"/api/tables/{BLACKJACK}/void", sam, {"reason": "end the shoe"})
            _wait(base_url, BLACKJACK, lambda v: v["phase"] != "playing")
            return shoe
        _wait(base_url, BLACKJACK, lambda v: v["phase"] != "playing")  # the timer stands for ana
    raise AssertionError("no blackjack round stayed in play to void")


def _finished_baccarat_shoe(base_url: str, ana: str, sam: str) -> int:
    """Two coups whose squeezed cards ana turns, then a coup in play voided: the shoe ends."""
    rest(base_url, "POST", f"/api/tables/{BACCARAT}/seats", ana, {"box": 1})  # the largest seated bet squeezes
    try:
        for coup in range(3):
            _bet(base_url, ana, BACCARAT, "banker", "10")
            view = _wait(base_url, BACCARAT, lambda v: v["phase"] == "playing")
            if coup == 2:
                shoe = _shoe_in_play(base_url, BACCARAT)
                rest(base_url, "POST", f"/api/tables/{BACCARAT}/void", sam, {"reason": "end the shoe"})
                break
            while view["phase"] == "playing":
                if view.get("pending", {}).get("kind") == "squeeze":
                    with contextlib.suppress(urllib.error.HTTPError):
                        body = {"type": "turn"}
                        rest(base_url, "POST", f"/api/tables/{BACCARAT}/actions", ana, body, uuid.uuid4().hex)
                time.sleep(0.1)
                view = dict(rest(base_url, "GET", f"/api/tables/{BACCARAT}"))
        _wait(base_url, BACCARAT, lambda v: v["phase"] != "playing")
    finally:
        with contextlib.suppress(urllib.error.HTTPError):
            rest(base_url, "DELETE", f"/api/tables/{BACCARAT}/seats/1", ana)
    return shoe


def _check(page: Any, shoe: int) -> tuple[str, list[str]]:
    """Click the shoe's check; return its summary and what the page asked the server for meanwhile."""
    asked: list[str] = []
    listener = lambda request: asked.append(urlparse(request.url).path)  # noqa: E731
    page.on("request", listener)
    page.click(f"#verify-{shoe}")
    page.wait_for_selector(f".fair-check[data-shoe='{shoe}'] .verify-result[data-ok]")
    page.remove_listener("request", listener)
    return page.inner_text(f".fair-check[data-shoe='{shoe}'] .verify-result"), asked


def test_the_page_rebuilds_each_shoe_and_checks_every_round(new_page: Any, base_url: str, screenshots: Path) -> None:
    ana, sam = token_of(base_url, "ana"), token_of(base_url, "sam")
    shoes = {
        "blackjack": _finished_blackjack_shoe(base_url, ana, sam),
        "baccarat": _finished_baccarat_shoe(base_url, ana, sam),
    }
    documents = {game: rest(base_url, "GET", f"/api/shoes/{shoe}") for game, shoe in shoes.items()}
    assert documents["baccarat"]["start_cards"] and documents["blackjack"]["start_cards"] == []
    assert all(d["ended"] and len(d["rounds"]) >= 3 for d in documents.values()), documents

    page = new_page(*LAPTOP)
    sign_in(page, "ana")
    page.goto("/#/history")
    for game, shoe in shoes.items():
        page.wait_for_selector(f".shoe[data-shoe='{shoe}'] .seed")
        summary, asked = _check(page, shoe)
        assert summary.startswith("✓"), summary
        assert asked == [f"/api/shoes/{shoe}"], asked  # the check runs here, not at the server
        items = page.locator(f".fair-check[data-shoe='{shoe}'] .fair-rounds li")
        groups = len(documents[game]["rounds"]) + (1 if game == "baccarat" else 0)  # baccarat: the start first
        assert items.count() == groups
        assert all(items.nth(i).get_attribute("data-ok") == "true" for i in range(groups))

    # the order the page rebuilds is Python's, card for card (the baccarat shoe: a cut card drawn from a range)
    document = documents["baccarat"]
    rebuilt = page.evaluate(
        "async (doc) => (await import(new URL('js/fairness.js', location.href))).buildShoe(doc)", document
    )
    shoe = build_shoe(
        document["decks"],
        tuple(document["cut_setting"]),
        bytes.fromhex(document["server_seed"]),
        document["client_seed"],
        document["nonce"],
    )
    assert rebuilt["order"] == [str(card) for card in shoe.remaining_cards()] and len(rebuilt["order"]) == 416
    assert rebuilt["cut"] == shoe.cut_card == document["cut_card"]

    # one card changed in the document the server sends: the page names the round and the card
    tampered = shoes["baccarat"]
    changed = document["rounds"][1]["cards"][1]
    forged = "AS" if changed != "AS" else "KD"

    def forge(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        body["rounds"][1]["cards"][1] = forged
        route.fulfill(response=answer, json=body)

    page.route(f"**/api/shoes/{tampered}", forge)
    summary, asked = _check(page, tampered)
    number = document["rounds"][1]["number"]
    assert summary == f"✗ round {number}, card 2: the shoe dealt {changed}, the record shows {forged}", summary
    assert asked == [f"/api/shoes/{tampered}"]
    bad = page.locator(f".fair-check[data-shoe='{tampered}'] .fair-rounds li[data-ok='false']")
    assert bad.count() == 1 and bad.get_attribute("data-group") == str(number)
    page.screenshot(path=str(screenshots / "fairness-laptop-en.png"), full_page=True)
    assert not contrast_failures(page), contrast_failures(page)

    # the same page in Traditional Chinese, and on a phone
    for lang, (width, height), name in (
        ("zh-Hant", LAPTOP, "laptop-zh-Hant"),
        ("en", PHONE, "phone-en"),
        ("zh-Hant", PHONE, "phone-zh-Hant"),
    ):
        other = new_page(width, height)
        in_language(other, lang)
        sign_in(other, "ana")
        other.route(f"**/api/shoes/{tampered}", forge)
        other.goto("/#/history")
        for shoe_id in shoes.values():
            other.wait_for_selector(f".shoe[data-shoe='{shoe_id}'] .seed")
            _check(other, shoe_id)
        other.screenshot(path=str(screenshots / f"fairness-{name}.png"), full_page=True)
        if lang == "zh-Hant":
            assert "第 " in other.inner_text(f".fair-check[data-shoe='{tampered}'] .verify-result")
        assert not contrast_failures(other), contrast_failures(other)
