"""The tables on a phone's touch screen: Playwright's touch emulation (``has_touch``,
``is_mobile``: touch events, no hover, a coarse pointer) at 390×844 and 360×780, and nothing but
``tap()``: the ☰ menu, the lobby, chips, a box or spot, the decisions. A blackjack round
(``online-touch``) and a baccarat coup (``baccarat-touch``) are played to their result, with no
keyboard hint shown anywhere (keys mean nothing on a touch screen), the main controls at least 40 px
tall and no sideways scrolling. The phone's ☰ menu keeps the keyboard's focus while open (Tab and
Shift+Tab cycle through it, Escape closes it and gives the focus back to ☰).

Screenshots: tests/web/screenshots/touch-{blackjack,baccarat}-WIDTHxHEIGHT-LANG.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import check_balance, wait_betting

ONLINE_TOUCH, BACCARAT_TOUCH = 12, 13  # tests/web/run_server.py
PHONES = ((390, 844, "en"), (360, 780, "zh-Hant"))

HINTS = """() => ({
  kbd: [...document.querySelectorAll('kbd')].filter((k) => k.getClientRects().length > 0).map((k) => k.textContent),
  text: document.body.innerText,
  scroll: document.scrollingElement.scrollWidth, width: innerWidth })"""

HEIGHTS = """(selector) => [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length > 0)
  .map((n) => { const r = n.getBoundingClientRect();
    return [n.id || n.className, Math.round(r.height), Math.round(r.width)]; })"""


def tap_sign_in(page: Any, name: str) -> None:
    page.goto("/#/")
    page.fill("#login-name", name)  # the phone's keyboard types; everything else is a tap
    page.fill("#login-password", "demo")
    page.tap("#login-submit")
    page.wait_for_selector(f"#who:has-text('{name}')", state="attached")


def tap_to_table(page: Any, table: int, language: str) -> None:
    """☰, the lobby link in the menu (which closes it), then the table's Play in the lobby."""
    if language != "en":
        page.select_option("#lang-select", language)  # a native picker: the one control not tapped
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)
    page.tap("#menu-toggle")
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "true"
    assert page.is_visible("#nav-history") and page.is_visible("#logout")
    page.tap("#nav a[href='#/']")
    page.wait_for_function("() => document.querySelector('#menu-toggle').getAttribute('aria-expanded') === 'false'")
    page.tap(f".table-card[data-table='{table}'] a.play")
    page.wait_for_selector(".table-view[data-phase]:not([data-phase='starting'])")


def no_keyboard_hints(page: Any, width: int) -> None:
    found = page.evaluate(HINTS)
    assert found["kbd"] == [], found["kbd"]  # no key on any button
    for words in ("Keys:", "按鍵", "Enter"):
        assert words not in found["text"], words
    assert found["scroll"] <= found["width"] == width, found  # no sideways scrolling


def tall_enough(page: Any, selector: str, least: int = 40) -> None:
    sizes = page.evaluate(HEIGHTS, selector)
    assert sizes, selector
    short = [s for s in sizes if s[1] < least or s[2] < least]
    assert not short, f"{selector}: under {least} px: {short}"


MOVED_ON = """([awaits, round]) => { const t = document.querySelector('.table-view');
  return t.dataset.awaits !== awaits || Number(t.dataset.ended) >= round; }"""

ROUND_STATE = """([round]) => { const t = document.querySelector('.table-view');
  return Number(t.dataset.ended) >= round || !!document.querySelector('#act-stand, #act-no-insurance'); }"""


@pytest.mark.parametrize("phone", PHONES, ids=[f"{w}x{h}-{lang}" for w, h, lang in PHONES])
def test_a_blackjack_round_by_touch(
    new_page: Any, base_url: str, screenshots: Path, phone: tuple[int, int, str]
) -> None:
    width, height, language = phone
    page = new_page(width, height, touch=True)
    assert page.evaluate("matchMedia('(hover: none)').matches && navigator.maxTouchPoints > 0")
    tap_sign_in(page, "ana")
    tap_to_table(page, ONLINE_TOUCH, language)
    number = wait_betting(page, 2400)
    page.tap("#chip-5")
    page.tap("#chip-5")
    page.wait_for_selector("#stake[data-amount='10']")
    no_keyboard_hints(page, width)
    tall_enough(page, ".chip")
    tall_enough(page, "#bet-box-3", 36)  # seven boxes share the row: narrow, as tall as a finger
    page.tap("#bet-box-3")
    page.wait_for_selector(".box[data-box='3'] .bets li.mine")
    for _ in range(12):  # stand on every decision, decline insurance: all by tap
        page.wait_for_function(ROUND_STATE, arg=[number], timeout=25_000)
        if int(page.get_attribute(".table-view", "data-ended") or 0) >= number:
            break
        if page.locator("#act-no-insurance").count():
            page.tap("#act-no-insurance")
            page.wait_for_function("() => !document.querySelector('#act-no-insurance')")
            continue
        tall_enough(page, "#actions button.action")
        no_keyboard_hints(page, width)
        awaits = page.get_attribute(".table-view", "data-awaits")
        page.tap("#act-stand")
        page.wait_for_function(MOVED_ON, arg=[awaits, number], timeout=25_000)
    page.wait_for_selector(f"#round-result .result-card[data-round='{number}'] #result-net")
    no_keyboard_hints(page, width)
    check_balance(page, base_url, "ana")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"touch-blackjack-{width}x{height}-{language}.png"))


@pytest.mark.parametrize("phone", PHONES, ids=[f"{w}x{h}-{lang}" for w, h, lang in PHONES])
def test_a_baccarat_coup_by_touch(new_page: Any, base_url: str, screenshots: Path, phone: tuple[int, int, str]) -> None:
    width, height, language = phone
    page = new_page(width, height, touch=True)
    tap_sign_in(page, "ben")
    tap_to_table(page, BACCARAT_TOUCH, language)
    wait_betting(page, 2400)
    page.tap("#chip-10")
    page.tap("#chip-25")
    page.tap("#undo-stake")  # the 25 comes off again
    page.wait_for_selector("#stake[data-amount='10']")
    no_keyboard_hints(page, width)
    tall_enough(page, ".chip")
    tall_enough(page, ".bet-spot", 40)
    page.tap("#bet-player")
    page.wait_for_selector(".spot[data-spot='player'] .bets li[data-player='ben']")
    page.wait_for_selector("#round-result .result-card #result-net", timeout=20_000)
    no_keyboard_hints(page, width)
    check_balance(page, base_url, "ben")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"touch-baccarat-{width}x{height}-{language}.png"))


def test_the_phone_menu_keeps_the_focus_while_open(new_page: Any) -> None:
    page = new_page(390, 844)
    page.goto("/#/")
    page.fill("#login-name", "sam")
    page.fill("#login-password", "demo")
    page.press("#login-password", "Enter")
    page.wait_for_selector("#who:has-text('sam')", state="attached")
    page.focus("#menu-toggle")
    page.keyboard.press("Enter")  # opened by a key: the focus moves into the menu
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "true"
    active = "() => document.activeElement.id || document.activeElement.getAttribute('href')"
    stops = [page.evaluate(active)]
    for _ in range(9):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(active))
    # the lobby, the console link, the tables, the pit, the cashier, sign out, sign out everywhere, ☰, round again
    expected = ["#/", "nav-dealer", "nav-tables", "nav-pit", "nav-cashier", "logout", "logout-all", "menu-toggle"]
    assert stops[:8] == expected and stops[8:] == expected[:2], stops
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(active) == "menu-toggle"
    page.keyboard.press("Shift+Tab")  # backwards from ☰: the menu's last item
    assert page.evaluate(active) == "logout-all"
    inside = "() => !!document.activeElement.closest('header.top')"
    assert page.evaluate(inside)
    page.keyboard.press("Escape")
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "false"
    assert not page.is_visible("#nav-pit")
    assert page.evaluate(active) == "menu-toggle"  # the focus is back on ☰
    page.keyboard.press("Tab")  # closed, Tab goes on as usual: the menu's links are hidden
    assert page.evaluate(active) == "lang-select"
