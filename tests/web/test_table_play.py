"""A player at the tables: a baccarat page opened mid-shoe shows only the coup on the
felt (the last one between coups, labelled), chips that refuse locally and do not linger in the stake,
the last round's result kept on the felt until the next deal, undo / re-bet / double bet, chip stacks,
and the three derived roads drawn with three glyphs. Screenshots in English and Chinese, laptop and phone.
"""

from __future__ import annotations

import time
import urllib.error
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.web.pages import BETTING_MARGIN_MS, bet_on_box, rest, sign_in, token_of, wait_betting

ONLINE, BACCARAT = 2, 11  # baccarat-play: a table of this file's own (tests/web/run_server.py)
LAPTOP, PHONE = (1366, 900), (390, 844)

SIDES = """() => Object.fromEntries([...document.querySelectorAll('#coup .side-cards')].map((s) =>
  [s.dataset.side, {coup: s.dataset.coup, cards: [...s.querySelectorAll('.card')].map((c) => c.dataset.card || 'back'),
   total: s.querySelector('.total').dataset.total}]))"""

IN_VIEW = """(sel) => { const n = document.querySelector(sel); if (!n) return false;
  const r = n.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


def snapshot(base_url: str, table: int, token: str) -> dict[str, Any]:
    return dict(rest(base_url, "GET", f"/api/tables/{table}", token))


def coup_by_rest(base_url: str, token: str, spot: str = "player") -> int:
    """Bet 10 on ``spot`` in a betting window with time left and wait for its coup to be over; its number.
    A bet the table refused because its window closed first (a loaded machine answers late) is placed
    again in the next window, as a player would."""
    deadline = time.monotonic() + 30
    refusals: list[str] = []
    bet: dict[str, Any] | None = None
    while bet is None:
        assert time.monotonic() < deadline, f"no betting window took the bet: {refusals}"
        state = snapshot(base_url, BACCARAT, token)
        closes = state.get("closes_at")
        left = datetime.fromisoformat(closes).timestamp() - time.time() if closes else 0.0
        if state["phase"] != "betting" or left < BETTING_MARGIN_MS / 1000:
            time.sleep(0.1)
            continue
        body = {"spot": spot, "amount": "10"}
        try:
            bet = rest(base_url, "POST", f"/api/tables/{BACCARAT}/bets", token, body, uuid.uuid4().hex)
        except urllib.error.HTTPError as refused:
            if refused.code != 409:
                raise
            refusals.append(refused.read().decode(errors="replace"))
            time.sleep(0.5)
    while True:  # one snapshot a look: the last round is the bet's own, with its result
        last = snapshot(base_url, BACCARAT, token)["last_round"] or {}
        if last.get("id") == bet["round"] and last.get("result"):
            return int(last["coup"])
        assert time.monotonic() < deadline, "the coup did not end"
        time.sleep(0.1)


def shoot(page: Any, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"{name}-en.png"))
    page.select_option("#lang-select", "zh-Hant")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    page.wait_for_timeout(150)
    page.screenshot(path=str(screenshots / f"{name}-zh.png"))
    page.select_option("#lang-select", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")


def test_baccarat_page_opened_mid_shoe_shows_only_the_coup_on_the_felt(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    chen = token_of(base_url, "chen")
    coup_by_rest(base_url, chen)  # the shoe has a coup behind it
    last = snapshot(base_url, BACCARAT, chen)["last_round"]
    page = new_page(*LAPTOP)
    sign_in(page, "ana")
    page.goto(f"/#/table/{BACCARAT}")
    page.wait_for_selector("#coup .side-cards[data-coup='last']")  # between coups: the last coup, labelled
    sides = page.evaluate(SIDES)
    assert sides["player"]["cards"] == last["player_cards"] and sides["banker"]["cards"] == last["banker_cards"]
    assert "last coup" in page.inner_text("#coup")
    page.wait_for_selector("#round-result .result-card")
    assert page.evaluate(IN_VIEW, "#round-result .result-card")
    for _ in range(3):  # the next coups: never more than three cards a side, totals as the result says
        coup = coup_by_rest(base_url, chen)
        page.wait_for_selector(f"#round-result .result-card[data-coup='{coup}']")
        sides = page.evaluate(SIDES)
        result = snapshot(base_url, BACCARAT, chen)["last_round"]["result"]
        for side in ("player", "banker"):
            assert 2 <= len(sides[side]["cards"]) <= 3, sides
            assert sides[side]["cards"] == result[side]["cards"], (sides, result)
            assert int(sides[side]["total"]) == result[side]["total"]
    # the result stays while someone bets in the next window: until the next coup's deal
    wait_betting(page, 1200)
    rest(base_url, "POST", f"/api/tables/{BACCARAT}/bets", chen, {"spot": "tie", "amount": "10"}, uuid.uuid4().hex)
    page.wait_for_selector(".spot[data-spot='tie'] .chip-stack")  # a stack of chips on the spot, with its amount
    assert page.is_visible(f"#round-result .result-card[data-coup='{coup}']")
    page.wait_for_selector(f"#round-result .result-card[data-coup='{coup + 1}']", timeout=20_000)


def test_baccarat_chips_refuse_locally_undo_clear_and_add(new_page: Any, base_url: str, screenshots: Path) -> None:
    page = new_page(*PHONE)
    sign_in(page, "ben")
    page.goto(f"/#/table/{BACCARAT}")
    page.wait_for_selector("#chip-50")
    colours = page.evaluate(
        """() => ['25', '50'].map((v) => document.querySelector(`#chip-${v} svg circle`)?.getAttribute('fill'))"""
    )
    assert colours[0] and colours[1] and colours[0] != colours[1]  # 25 and 50 told apart
    wait_betting(page, 2200)
    page.click("#chip-25")
    page.click("#bet-banker")  # 25 is no multiple of the minimum 10: refused here, with the reason
    page.wait_for_selector("#stake-note:has-text('multiples of the minimum')")
    page.wait_for_selector("#stake[data-amount='0']")  # the refused 25 is not kept
    assert page.locator(".spot[data-spot='banker'] .bets li[data-player='ben']").count() == 0
    page.click("#chip-10")
    page.wait_for_selector("#stake[data-amount='10']")  # not 35
    page.click("#chip-50")
    page.click("#undo-stake")  # the last chip comes off
    page.wait_for_selector("#stake[data-amount='10']")
    page.click("#chip-50")
    page.click("#clear-stake")
    page.wait_for_selector("#stake[data-amount='0']")
    assert page.get_attribute("#chip-10", "aria-pressed") == "true"  # Clear: the smallest chip again
    wait_betting(page, 2400)
    page.click("#bet-player")
    page.wait_for_selector(".spot[data-spot='player'] .bets li[data-player='ben']:has-text('10.00')")
    page.click("#chip-10")
    page.click("#chip-10")
    page.click("#bet-player")  # a second bet on the same spot adds up (the server accepts it)
    page.wait_for_selector(".spot[data-spot='player'] .bets li[data-player='ben']:has-text('30.00')")
    page.wait_for_selector(".spot[data-spot='player'] .chip-stack[data-amount='30.00']")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_selector("#round-result .result-card #result-net", timeout=20_000)
    assert page.evaluate(IN_VIEW, "#round-result .result-card")  # the result, in view on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, screenshots, "table-play-baccarat-result-phone")
    # re-bet and double bet repeat the last coup's 30 on player, each bet its own request
    wait_betting(page, 2200)
    page.click("#double-bet")
    page.wait_for_selector(".spot[data-spot='player'] .bets li[data-player='ben']:has-text('60.00')")


def test_baccarat_roads_three_glyphs_blue_and_pairs(new_page: Any, base_url: str, screenshots: Path) -> None:
    chen = token_of(base_url, "chen")
    page = new_page(*LAPTOP)
    sign_in(page, "chen")
    page.goto(f"/#/table/{BACCARAT}")
    roads = ("big_eye_boy", "small_road", "cockroach_pig")
    for _ in range(40):
        if all(page.locator(f"#roads .road-grid .mark[data-road='{r}']").count() for r in roads):
            break
        coup_by_rest(base_url, chen, "banker")
        page.wait_for_timeout(300)
    shapes = page.evaluate(
        """() => ['big_eye_boy', 'small_road', 'cockroach_pig'].map((r) => {
             const svg = document.querySelector(`#roads .road-grid .mark[data-road='${r}'] svg`);
             const c = svg.querySelector('circle'), l = svg.querySelector('line');
             return l ? 'slash' : c.getAttribute('fill') === 'none' ? 'hollow' : 'dot'; })"""
    )
    assert shapes == ["hollow", "dot", "slash"]
    blue = page.evaluate(
        """() => { const m = document.querySelector("#roads .mark.blue svg :is(circle, line)");
             return m && (m.getAttribute('stroke') !== 'none' && m.getAttribute('fill') === 'none'
               ? m.getAttribute('stroke') : m.getAttribute('fill') || m.getAttribute('stroke')); }"""
    )
    if blue:  # blue: its blue channel well above red and green, and not white
        r, g, b = (int(blue[i : i + 2], 16) for i in (1, 3, 5))
        assert b > 150 and r < 100 and g < 120, blue
    # a pair mark at least a quarter of its cell
    ratio = page.evaluate(
        """() => { const grid = document.querySelector('#roads .road-grid');
             const ring = document.createElement('span'); ring.className = 'ring B';
             ring.innerHTML = '<i class="pair banker"></i>'; grid.appendChild(ring);
             const r = ring.getBoundingClientRect().width, p = ring.firstChild.getBoundingClientRect().width;
             ring.remove(); return p / r; }"""
    )
    assert ratio >= 0.25
    page.locator("#roads").scroll_into_view_if_needed()
    page.locator("#roads").screenshot(path=str(screenshots / "table-play-roads.png"))


def test_blackjack_result_on_the_felt_rebet_and_one_bet_per_box(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    page = new_page(*LAPTOP)
    sign_in(page, "ana")
    page.goto(f"/#/table/{ONLINE}")
    number = wait_betting(page)
    page.click("#chip-5")
    page.click("#chip-10")
    page.wait_for_selector("#stake[data-amount='15']")
    page.click("#undo-stake")  # the last chip placed comes off
    page.wait_for_selector("#stake[data-amount='5']")
    page.click("#bet-box-1")
    page.wait_for_selector(".box[data-box='1'] .bets li.mine")
    page.wait_for_selector(".box[data-box='1'] .chip-stack[data-amount='5.00']")
    assert "One bet per player per box" in page.inner_text(".box[data-box='1']")  # Art. 2.3: nothing to add
    for _ in range(12):  # stand on every decision
        page.wait_for_function(
            """([r]) => { const t = document.querySelector('.table-view');
                 return Number(t.dataset.ended) >= r || !!document.querySelector('#act-stand'); }""",
            arg=[number],
            timeout=25_000,
        )
        if int(page.get_attribute(".table-view", "data-ended") or 0) >= number:
            break
        page.click("#act-stand")
        page.wait_for_timeout(200)
    page.wait_for_selector("#round-result .result-card #result-net")
    assert page.evaluate(IN_VIEW, "#round-result .result-card")
    kind = page.get_attribute("#round-result .result-hand", "data-kind")
    if kind == "blackjack":
        assert page.is_visible("#round-result .badge.blackjack")
    shoot(page, screenshots, "table-play-blackjack-result")
    # another player bets in the next window: ana's settled hand and result stay on the felt
    next_round = wait_betting(page, 2200)
    ben = token_of(base_url, "ben")
    rest(base_url, "POST", f"/api/tables/{ONLINE}/bets", ben, {"spot": "5", "amount": "5"}, uuid.uuid4().hex)
    page.wait_for_selector(".box[data-box='5'] .bets li[data-player='ben']")
    assert page.is_visible(f"#round-result .result-card[data-round='{number}']")
    assert page.locator(".box[data-box='1'] .hand .card").count() >= 2
    page.click("#rebet")  # the last round's 5 on box 1 again
    page.wait_for_selector(".box[data-box='1'] .bets li.mine:has-text('5.00')")
    page.wait_for_function(
        "(r) => !document.querySelector(`#round-result .result-card[data-round='${r}']`)", arg=number, timeout=15_000
    )  # gone once the next round's deal starts
    assert int(page.get_attribute(".table-view", "data-round") or 0) == next_round


def test_blackjack_result_in_view_on_a_phone(new_page: Any, base_url: str, screenshots: Path) -> None:
    page = new_page(*PHONE)
    sign_in(page, "chen")
    page.goto(f"/#/table/{ONLINE}")
    number = bet_on_box(page, 2)
    for _ in range(12):
        page.wait_for_function(
            """([r]) => { const t = document.querySelector('.table-view');
                 return Number(t.dataset.ended) >= r || !!document.querySelector('#act-stand'); }""",
            arg=[number],
            timeout=25_000,
        )
        if int(page.get_attribute(".table-view", "data-ended") or 0) >= number:
            break
        page.click("#act-stand")
        page.wait_for_timeout(200)
    page.wait_for_selector("#round-result .result-card #result-net")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(IN_VIEW, "#round-result .result-card")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, screenshots, "table-play-blackjack-result-phone")
