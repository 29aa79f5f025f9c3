"""The dealer console and the history page on a 360 px phone and a laptop, in English and
Traditional Chinese: no sideways scrolling (the page is no wider than the screen) and the main controls
at least 40 px tall on a phone (card entry, the shoe reports, misdeal and void; the history's check of a
shoe, its transcripts and "Older rounds").

Screenshots: tests/web/screenshots/{dealer-console,history}-WIDTHxHEIGHT-LANG.png.
"""

from __future__ import annotations

import time
import urllib.error
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import rest, sign_in, token_of

LIVE, ONLINE_TOUCH = 3, 12  # online-live; online-touch (tests/web/run_server.py)
SIZES = ((360, 740), (1366, 900))
LANGUAGES = ("en", "zh-Hant")

FITS = """(selector) => ({
  scroll: document.scrollingElement.scrollWidth, width: innerWidth,
  small: [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length > 0)
    .map((n) => { const r = n.getBoundingClientRect();
      return [n.id || n.className, Math.round(r.width), Math.round(r.height)]; })
    .filter(([, w, h]) => w < 40 || h < 40),
  wide: [...document.querySelectorAll('main *')].filter((n) => n.getBoundingClientRect().right > innerWidth + 1)
    .slice(0, 5).map((n) => n.tagName + '.' + n.className + '#' + n.id) })"""


def in_language(page: Any, language: str) -> None:
    page.select_option("#lang-select", language)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)


def fits(page: Any, width: int, controls: str) -> None:
    found = page.evaluate(FITS, controls)
    assert found["scroll"] <= found["width"] == width, found  # no sideways scrolling
    if width < 700:
        assert not found["small"], f"tap targets under 40 px: {found['small']}"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_dealer_console_fits_a_phone(new_page: Any, screenshots: Path, size: tuple[int, int]) -> None:
    width, height = size
    page = new_page(width, height)
    sign_in(page, "dora")
    for language in LANGUAGES:
        in_language(page, language)
        page.goto(f"/#/dealer/{LIVE}")
        page.wait_for_selector("#card-input")
        page.wait_for_function("() => document.querySelector('#dealer-prompt').textContent.length > 0")
        fits(page, width, "#card-input, #card-form button, .shoe-reports button, .supervisor button")
        page.screenshot(path=str(screenshots / f"dealer-console-{width}x{height}-{language}.png"), full_page=True)
    in_language(page, "en")


@pytest.fixture(scope="module")
def voided_shoe(base_url: str) -> None:
    """ana's rounds at online-touch, the last voided by the supervisor while ana decides: the shoe ends."""
    ana, sam = token_of(base_url, "ana"), token_of(base_url, "sam")
    table = f"/api/tables/{ONLINE_TOUCH}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = rest(base_url, "GET", table, ana)
        if view["phase"] != "betting" or (view.get("round") or {}).get("bets"):
            time.sleep(0.05)
            continue
        try:
            rest(base_url, "POST", f"{table}/bets", ana, {"spot": "4", "amount": "10"}, uuid.uuid4().hex)
        except urllib.error.HTTPError as error:  # the window closed as we bet
            assert error.code == 409, error.read()
            continue
        while (view := rest(base_url, "GET", table, ana))["phase"] == "betting":
            time.sleep(0.05)
        if (view.get("pending") or {}).get("kind") == "decision":
            rest(base_url, "POST", f"{table}/void", sam, {"reason": "the phone test ends the shoe"})
            return
    raise AssertionError("no round of ana's waited for her decision")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_history_fits_a_phone(new_page: Any, voided_shoe: None, screenshots: Path, size: tuple[int, int]) -> None:
    width, height = size
    page = new_page(width, height)
    sign_in(page, "ana")
    for language in LANGUAGES:
        in_language(page, language)
        page.goto("/#/history")
        page.wait_for_selector("#history .round")
        page.wait_for_selector(".shoe .verify")
        page.click(".shoe .verify")
        page.wait_for_selector(".fair-check .verify-result[data-ok='true']", timeout=20_000)
        if language == "en":  # one round is "the round", never "1 rounds"
            assert " 1 rounds" not in page.inner_text(".fair-check .verify-result")
        fits(page, width, "#history button")
        page.screenshot(path=str(screenshots / f"history-{width}x{height}-{language}.png"), full_page=True)
    in_language(page, "en")
