"""The table pages from a 360 px phone to a wide screen: the header on one line, the seven
blackjack boxes in one row, no sideways scrolling, and while a decision is the player's the dealer's
cards, the player's hand, the timer and the buttons in view at once (on a phone the controls are a bar
held at the foot of the screen); baccarat's cards, timer and spots likewise. A dealer or supervisor
finds a table's console from its page, and a player who opens a table after a round whose hand the
timer stood is told so.

Screenshots (tests/web/screenshots/layout-*.png) at 360×740, 390×844 and 1366×900 in English and
Traditional Chinese, and one in Portuguese.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import bet_on_box, open_table, pending, sign_in, wait_betting

SEATS_TABLE, LIVE, BACCARAT = 6, 3, 4  # macau-seats (test-only), live-1, baccarat-1
SIZES = ((360, 740), (390, 844), (1366, 900))

RECTS = """(selectors) => {
  const rect = (sel) => { const e = document.querySelector(sel); if (!e) return null;
    const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  const out = {};
  for (const [name, sel] of Object.entries(selectors)) out[name] = rect(sel);
  out.boxTops = [...document.querySelectorAll('#boxes .box')].map((b) => Math.round(b.getBoundingClientRect().top));
  out.spotTops = [...document.querySelectorAll('#spots .spot')].map((b) => Math.round(b.getBoundingClientRect().top));
  out.sticky = getComputedStyle(document.querySelector('.controls')).position === 'sticky';
  out.width = innerWidth; out.height = innerHeight; out.scrollWidth = document.documentElement.scrollWidth;
  return out;
}"""

DECISION = """([me, round]) => { const t = document.querySelector('.table-view');
  if (Number(t.dataset.ended) >= round || Number(t.dataset.round) > round) return true;
  if ((t.dataset.pending || '').startsWith('insurance') && document.querySelector('#act-no-insurance')) return true;
  return (t.dataset.pending || '').startsWith('decision:' + me + ':')
    && !!document.querySelector('#actions button.action:not(:disabled)'); }"""


NO_INSURANCE = "() => !(document.querySelector('.table-view').dataset.pending || '').startsWith('insurance')"


def inside(box: dict[str, float] | None, width: int, height: int) -> bool:
    return bool(box) and box["top"] >= 0 and box["left"] >= 0 and box["bottom"] <= height and box["right"] <= width


def check_frame(found: dict[str, Any], names: tuple[str, ...]) -> None:
    width, height = found["width"], found["height"]
    for name in names:
        assert inside(found[name], width, height), (name, found[name], width, height)
    assert found["header"]["bottom"] - found["header"]["top"] < 64, found["header"]  # one line
    assert found["scrollWidth"] <= width, found["scrollWidth"]  # no sideways scrolling


def my_decision(page: Any, me: str, box: int) -> int:
    """Bet on ``box`` until a round gives ``me`` a decision; return that round's number (the decision pending)."""
    for _ in range(4):
        number = bet_on_box(page, box)
        while True:
            page.wait_for_function(DECISION, arg=[me, number], timeout=25_000)
            state = pending(page)
            if state.startswith("decision:"):
                return number
            if state.startswith("insurance") and page.locator("#act-no-insurance").count():
                page.click("#act-no-insurance")
                page.wait_for_function(
                    "() => !(document.querySelector('.table-view').dataset.pending || '').startsWith('insurance')"
                )
                continue
            break  # the round ended without a decision (a natural): the next one
    raise AssertionError(f"no decision for {me} in four rounds")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_blackjack_decision_in_view(new_page: Any, screenshots: Path, size: tuple[int, int]) -> None:
    width, height = size
    page = new_page(width, height)
    sign_in(page, "ben")
    if width == 390:
        page.select_option("#lang-select", "zh-Hant")
    open_table(page, SEATS_TABLE)
    found = page.evaluate(RECTS, {"header": "header.top"})
    assert len(set(found["boxTops"])) == 1 and len(found["boxTops"]) == 7, found["boxTops"]  # one row
    assert found["scrollWidth"] <= width
    my_decision(page, "ben", 4)
    selectors = {
        "header": "header.top",
        "dealer": "#dealer-cards",
        "hand": ".hand.active",
        "timer": "#decision-timer",
        "actions": "#actions",
        "controls": ".controls",
    }
    found = page.evaluate(RECTS, selectors)
    language = "zh-Hant" if width == 390 else "en"
    page.screenshot(path=str(screenshots / f"layout-bj-decision-{width}x{height}-{language}.png"))
    check_frame(found, ("dealer", "hand", "timer", "actions"))
    assert len(set(found["boxTops"])) == 1, found["boxTops"]
    if found["sticky"]:  # nothing of the hand under the bar
        assert found["hand"]["bottom"] <= found["controls"]["top"] + 1, (found["hand"], found["controls"])
    if width == 390:
        page.select_option("#lang-select", "en")  # leave the language as the other tests expect it


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_baccarat_cards_timer_and_spots_in_view(new_page: Any, screenshots: Path, size: tuple[int, int]) -> None:
    width, height = size
    page = new_page(width, height)
    sign_in(page, "chen")
    language = "pt" if width == 360 else "zh-Hant" if width == 390 else "en"
    if language != "en":
        page.select_option("#lang-select", language)
    open_table(page, BACCARAT)
    wait_betting(page)
    found = page.evaluate(
        RECTS, {"header": "header.top", "cards": "#coup", "timer": "#countdown", "spots": "#spots", "chips": ".chips"}
    )
    page.screenshot(path=str(screenshots / f"layout-bac-betting-{width}x{height}-{language}.png"))
    check_frame(found, ("cards", "timer", "spots", "chips"))
    assert len(set(found["spotTops"])) == 1, found["spotTops"]  # the spots in one row
    if language != "en":
        page.select_option("#lang-select", "en")


def test_phone_header_menu_keeps_every_link(new_page: Any, screenshots: Path) -> None:
    page = new_page(360, 740)
    sign_in(page, "sam")
    header = page.evaluate("() => document.querySelector('header.top').getBoundingClientRect().height")
    assert header < 64
    assert page.is_visible("#lang-select") and page.is_visible("#menu-toggle")  # staff have no balance
    assert not page.is_visible("#nav-pit")
    page.click("#menu-toggle")
    for link in ("#nav-dealer", "#nav-tables", "#nav-pit", "#nav-cashier", "#who", "#logout"):
        assert page.is_visible(link), link
    page.screenshot(path=str(screenshots / "layout-header-menu-360x740-en.png"))
    page.click("#nav-pit")
    page.wait_for_selector(".pit-table")
    assert not page.is_visible("#nav-pit")  # the menu closes on the way


def test_staff_find_the_table_console(new_page: Any, screenshots: Path) -> None:
    page = new_page(1366, 900)
    sign_in(page, "dora")
    page.wait_for_selector(".table-card")
    assert page.get_attribute("#nav-dealer", "href") == "#/live"  # no table on the page: the live tables
    open_table(page, LIVE)
    page.wait_for_selector("#console-link")
    assert page.get_attribute("#console-link", "href") == f"#/dealer/{LIVE}"
    assert page.get_attribute("#nav-dealer", "href") == f"#/dealer/{LIVE}"
    page.screenshot(path=str(screenshots / "layout-staff-table-1366x900-en.png"))
    page.click("#console-link")
    page.wait_for_selector("#card-input")
    page.goto("/#/live")
    page.wait_for_selector(f".table-card[data-table='{LIVE}'] a.dealer-link")
    games = page.eval_on_selector_all(".table-card", "(cards) => cards.map((c) => c.dataset.table)")
    assert str(LIVE) in games and str(BACCARAT) not in games  # the live tables only
    player = new_page(1366, 900)
    sign_in(player, "ana")
    open_table(player, LIVE)
    assert player.locator("#console-link").count() == 0


def test_a_hand_stood_by_the_timer_is_told_to_its_player(new_page: Any, screenshots: Path) -> None:
    page = new_page(1366, 900)
    sign_in(page, "ana")
    open_table(page, SEATS_TABLE)
    number = my_decision(page, "ana", 2)
    page.wait_for_selector("#log li:has-text('time ran out')", timeout=15_000)  # nobody answers: the timer stands it
    page.wait_for_function(
        "(r) => Number(document.querySelector('.table-view').dataset.ended) >= r", arg=number, timeout=25_000
    )
    page.close()
    # the page opened afterwards, as after a server restart: its snapshot has no last round
    later = new_page(390, 844)
    later.route_web_socket("**/ws/tables/**", forget_last_round)
    sign_in(later, "ana")
    open_table(later, SEATS_TABLE)
    later.wait_for_selector("#your-last[data-stood-by-timer='true']")
    text = later.inner_text("#your-last")
    assert "stood by the timer" in text and f"round {number}" in text and "macau-seats" in text, text
    # and on the felt, the result panel of that round: the dealer's cards, ana's hand and what it paid
    card = f"#round-result .result-card[data-mine='true'][data-round='{number}']"
    later.wait_for_selector(card)
    panel = later.evaluate(PANEL, card)
    assert panel["dealer"] >= 2 and panel["hands"] and all(n >= 2 for n in panel["hands"]), panel
    assert "stood by the timer" in panel["stood"] and "macau-seats" in panel["title"], panel
    assert panel["net"] in ("win", "lose", "push"), panel
    later.evaluate("window.scrollTo(0, 0)")
    later.screenshot(path=str(screenshots / "layout-your-last-390x844-en.png"))
    later.select_option("#lang-select", "zh-Hant")
    later.wait_for_selector(f"{card} .result-title:has-text('你的上一局')")
    later.screenshot(path=str(screenshots / "layout-your-last-390x844-zh-Hant.png"))
    later.select_option("#lang-select", "en")


PANEL = """(sel) => { const c = document.querySelector(sel);
  return { dealer: c.querySelectorAll('.result-dealer .card').length,
    hands: [...c.querySelectorAll('.result-hand')].map((h) => h.querySelectorAll('.card').length),
    stood: [...c.querySelectorAll('.result-stood')].map((n) => n.textContent).join(' '),
    title: c.querySelector('.result-title').textContent,
    net: c.querySelector('.result-net')?.dataset.outcome }; }"""


def forget_last_round(socket: Any) -> None:
    """The table's socket as a restarted server's: its snapshot knows no last round (it lived in memory)."""
    server = socket.connect_to_server()

    def forward(message: str | bytes) -> None:
        data = json.loads(message)
        if data.get("type") == "snapshot":
            data["snapshot"]["last_round"] = None
        socket.send(json.dumps(data))

    server.on_message(forward)


def test_no_empty_deal_log_before_the_first_card(new_page: Any) -> None:
    """A table opened between rounds shows no empty "The deal, in order" panel; it appears with the first card."""
    page = new_page(1366, 900)
    sign_in(page, "ana")
    open_table(page, LIVE)
    wait_betting(page, margin_ms=0)
    lines = page.locator("#log li").count()
    assert page.is_visible("#log-panel") == (lines > 0), lines
