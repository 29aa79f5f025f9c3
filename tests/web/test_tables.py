"""The tables played through the page, as a person plays them: chips, boxes, buttons and keys.

One server for the module (``seed="tests"``: table 1 deals shoe 1, table 2 shoe 2, in a fixed order),
so the rounds below are the same on every run: on macau-1 ana's boxes 1 and 2 meet a pair of sixes
(split), a total of 11 (double), a first decision against a ten (surrender) and a dealer ace
(insurance) in the first three rounds; on online-1 a double and a split in the first two. The tests
follow the cards as they come (they choose the move the page offers), so a change of shoe order
would make them play longer, not fail at once.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import (
    check_balance,
    contrast_failures,
    open_table,
    pending,
    rest,
    sign_in,
    token_of,
    unbatched,
    wait_betting,
)

MACAU, ONLINE, LIVE, BACCARAT = 1, 2, 3, 4

READY = """([me, round]) => {
  const t = document.querySelector('.table-view');
  const over = Number(t.dataset.ended) >= round || Number(t.dataset.round) > round;
  if (over) return true;
  const p = t.dataset.pending || '';
  if (p.startsWith('decision:' + me + ':')) return !!document.querySelector('#actions button.action:not(:disabled)');
  if (p.startsWith('insurance')) return !!document.querySelector('#insurance-prompt');
  return false;
}"""

ROUND_OVER = """([round]) => { const t = document.querySelector('.table-view');
  return Number(t.dataset.ended) >= round || Number(t.dataset.round) > round; }"""


def round_over(page: Any, number: int) -> bool:
    return bool(page.evaluate(ROUND_OVER, [number]))


def awaits(page: Any) -> int:
    return int(page.get_attribute(".table-view", "data-awaits") or 0)


def after(page: Any, count: int, number: int) -> None:
    """Wait for the next prompt after ``count`` prompts, or the round's end."""
    page.wait_for_function(
        """([count, round]) => { const t = document.querySelector('.table-view');
             return Number(t.dataset.awaits) > count || Number(t.dataset.ended) >= round
               || Number(t.dataset.round) > round; }""",
        arg=[count, number],
        timeout=20_000,
    )


def bet(page: Any, box: int, chip: int) -> None:
    """Click a chip, then a box: the stake goes on the box."""
    page.click(f"#chip-{chip}")
    page.click(f"#bet-box-{box}")
    page.wait_for_selector(f".box[data-box='{box}'] .bets li.mine")


def play_round(
    page: Any,
    me: str,
    number: int,
    want: set[str],
    done: set[str],
    shots: Path | None = None,
    seen: dict[str, Any] | None = None,
) -> None:
    """Answer every prompt of ``me`` until round ``number`` is over: a wanted move not yet made when the
    page offers it (insurance, split, double, surrender, or letting the timer run out), else hit below 12
    and stand from 12."""
    for _ in range(40):
        page.wait_for_function(READY, arg=[me, number], timeout=25_000)
        if round_over(page, number):
            return
        state = pending(page)
        count = awaits(page)
        if state.startswith("insurance"):
            offer = page.locator("#insurance-prompt button.action.insurance")
            if "insurance" in want and "insurance" not in done and offer.count():
                expect_timer(page, "#insurance-prompt .countdown")
                if shots:
                    page.screenshot(path=str(shots / "macau-insurance.png"))
                offer.first.click()
                page.wait_for_selector("#log li:has-text('insures box')")
                done.add("insurance")
            after(page, count, number)
            continue
        _kind, _who, box, hand = state.split(":")
        buttons = page.locator("#actions button.action")
        offered = {buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())}
        # a surrender is wanted on a first decision, not on a split hand (Art. 12 allows both: the shoe's
        # order below was chosen for the first)
        split_box = page.locator(f".box[data-box='{box}'] .hand").count() > 1
        moves = [m for m in ("split", "double", "surrender") if not (m == "surrender" and split_box)]
        choice = next((m for m in moves if m in want - done and m in offered), None)
        if choice is None and "timeout" in want and "timeout" not in done:
            expect_timer(page, "#decision-timer")
            after(page, count, number)  # nobody answers: the timer runs out and the hand stands
            page.wait_for_selector("#log li:has-text('time ran out')")
            done.add("timeout")
            continue
        if choice is None:
            total = int(page.get_attribute(f".hand[data-box='{box}'][data-hand='{hand}'] .total", "data-total") or 0)
            choice = "hit" if total <= 11 and "hit" in offered else "stand"
        if choice == "surrender":
            assert page.is_visible("#surrender-prompt")
            expect_timer(page, "#decision-timer")
        page.click(f"#act-{choice}")
        done.add(choice)
        if seen is not None:
            seen.setdefault(choice, (int(box), int(hand)))
        after(page, count, number)
        if choice == "split":  # the hands side by side (they stay on the felt until the next bet)
            page.wait_for_function(
                "(b) => document.querySelectorAll(`.box[data-box='${b}'] .hand`).length >= 2", arg=box
            )
            # both positions read at once in the page: it redraws on every event
            first, second = page.evaluate(
                """(b) => [...document.querySelectorAll(`.box[data-box='${b}'] .hand`)].slice(0, 2)
                     .map((h) => { const r = h.getBoundingClientRect(); return {x: r.x, y: r.y}; })""",
                box,
            )
            assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"]  # side by side
            if shots:
                page.screenshot(path=str(shots / f"split-table-{page.get_attribute('.table-view', 'data-table')}.png"))
    raise AssertionError(f"round {number} did not end")


def expect_timer(page: Any, selector: str) -> None:
    """The prompt shows its own timer, counting whole seconds."""
    page.wait_for_function(
        "(sel) => /^\\d+ s$/.test(document.querySelector(sel)?.textContent || '')", arg=selector, timeout=2000
    )


def log_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


# ------------------------------------------------------------------------------------------------------
# macau-1983


def test_macau_rounds_split_double_surrender_insurance_timeout(new_page: Any, base_url: str, screenshots: Path) -> None:
    page = new_page()
    sign_in(page, "ana")
    page.wait_for_selector(".table-card[data-table='1']")
    page.screenshot(path=str(screenshots / "lobby.png"))
    page.click(".table-card[data-table='1'] a.play")
    page.wait_for_selector("#bj-table[data-phase='betting']")
    assert page.is_visible("#rules-panel")
    page.click("#rules-panel summary")
    assert "6-7-8" in page.inner_text("#rules-panel") and "3:1" in page.inner_text("#rules-panel")
    assert page.locator("#rules-panel tr[data-param]").count() >= 20  # every parameter of the preset
    page.click("#rules-panel summary")

    want = {"split", "double", "surrender", "insurance", "timeout"}
    done: set[str] = set()
    kinds: set[str] = set()
    chen = token_of(base_url, "chen")
    for played in range(6):
        number = wait_betting(page, 2600)
        assert page.inner_text("#banner") == "Place your bets"
        expect_timer(page, "#countdown")
        bet(page, 1, 10)  # ana's bet on the empty box 1 seats her there (Art. 2.3)
        # box 2 is chen's (elsewhere); ana bets behind him for more, so she decides it (Art. 13)
        rest(base_url, "POST", f"/api/tables/{MACAU}/bets", chen, {"spot": "2", "amount": "10"}, uuid.uuid4().hex)
        page.wait_for_selector("#bet-box-2:has-text('Bet behind')")
        page.click("#chip-10")
        bet(page, 2, 10)
        page.wait_for_selector("#stake[data-amount='0']")  # the stake went on the boxes
        page.wait_for_selector(".box[data-box='2'] li.mine .decider")
        play_round(page, "ana", number, want, done, screenshots)
        lines = log_lines(page)
        assert "No more bets" in lines
        if played == 0:
            # Art. 3.1: a first card to each box, a second to each, then the dealer's up-card; the boxes'
            # cards face down to the table (Art. 3.1a), each also privately to ana, who bet on both boxes
            public = [line for line in lines if re.match(r"(Box \d hand \d|Dealer): ", line) and "bettors" not in line]
            dealt = [line.split(":")[0] for line in public][:5]
            assert dealt == ["Box 1 hand 1", "Box 2 hand 1", "Box 1 hand 1", "Box 2 hand 1", "Dealer"], lines
            assert all(line.endswith("card face down") for line in public[:4]), lines
            assert sum("only this box's bettors see it" in line for line in lines) >= 4, lines
            assert any(line.startswith("Box 1 shows its cards") for line in lines), lines
        kinds |= {k for k in page.locator("#results li.payment").evaluate_all("ns => ns.map(n => n.dataset.kind)")}
        check_balance(page, base_url, "ana")
        if want <= done:
            break
    assert want <= done, f"the shoe offered only {done}"
    assert "surrender" in kinds
    page.screenshot(path=str(screenshots / "macau-1983.png"), full_page=True)


# ------------------------------------------------------------------------------------------------------
# live-online


def test_online_rounds_double_and_split(new_page: Any, base_url: str, screenshots: Path) -> None:
    page = new_page()
    sign_in(page, "ana")
    open_table(page, ONLINE)
    want = {"double", "split"}
    done: set[str] = set()
    for played in range(4):
        number = wait_betting(page)
        bet(page, 1, 5)
        assert page.locator(".bet-here").count() == 0  # one box each (online §4.5): no other box offered
        page.wait_for_function("() => document.querySelector('#bj-table').dataset.phase !== 'betting'")
        if played == 0:
            page.wait_for_selector("#dealer-cards .card.back[data-hole='true']")
            # online §3.4: box, dealer up-card, box, dealer hole card (face down, no card in the page)
            dealt = [line for line in log_lines(page) if line.startswith(("Box", "Dealer"))][:4]
            assert [d.split(":")[0] for d in dealt] == ["Box 1 hand 1", "Dealer", "Box 1 hand 1", "Dealer"]
            assert dealt[3].endswith("card face down")
            assert page.locator("#dealer-cards .card.back").get_attribute("data-card") is None
        play_round(page, "ana", number, want, done, screenshots)
        check_balance(page, base_url, "ana")
        if want <= done:
            break
    assert want <= done
    page.screenshot(path=str(screenshots / "live-online.png"), full_page=True)


def test_two_players_see_each_other_live_and_never_the_hole_card(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    pages = {}
    frames: dict[str, list[str]] = {"ana": [], "ben": []}
    for name in ("ana", "ben"):
        page = new_page()
        page.on("websocket", lambda ws, name=name: ws.on("framereceived", lambda data: frames[name].append(data)))
        sign_in(page, name)
        open_table(page, ONLINE)
        pages[name] = page
    ana, ben = pages["ana"], pages["ben"]
    number = wait_betting(ana, 2200)
    bet(ana, 3, 5)
    ben.wait_for_selector(".box[data-box='3'] .bets li[data-player='ana']")  # live, on the other page
    assert ben.locator(".box[data-box='3'] .bet-here").count() == 0  # no bet behind online
    bet(ben, 5, 10)
    ana.wait_for_selector(".box[data-box='5'] .bets li[data-player='ben']")
    ana.wait_for_selector("#dealer-cards .card.back[data-hole='true']")
    ben.wait_for_selector("#dealer-cards .card.back[data-hole='true']")
    # both see the same cards, and the hole card only as a back
    for page in (ana, ben):
        page.wait_for_function("() => document.querySelectorAll('.box .hand .card.face').length >= 4")
    cards = [
        p.locator(".box .hand .card.face, #dealer-cards .card").evaluate_all(
            "ns => ns.map(n => n.dataset.card || 'back')"
        )
        for p in (ana, ben)
    ]
    assert cards[0] == cards[1] and cards[0].count("back") == 1
    ana.screenshot(path=str(screenshots / "two-players-ana.png"))
    ben.screenshot(path=str(screenshots / "two-players-ben.png"))
    # each answers their own prompts (stand), on their own page
    anyone = """([round]) => { const t = document.querySelector('.table-view');
      return Number(t.dataset.ended) >= round || Number(t.dataset.round) > round
        || (t.dataset.pending || '').startsWith('decision:'); }"""
    for _ in range(8):
        ana.wait_for_function(anyone, arg=[number], timeout=25_000)
        if round_over(ana, number):
            break
        count = awaits(ana)
        who = pending(ana).split(":")[1]
        pages[who].click("#act-stand")
        after(ana, count, number)
    ana.wait_for_function(ROUND_OVER, arg=[number], timeout=25_000)
    ben.wait_for_function(ROUND_OVER, arg=[number], timeout=25_000)
    hole = next(line for line in log_lines(ana) if "hole card:" in line).rsplit(" ", 1)[1]
    for name, received in frames.items():
        events = [m.get("event", {}) for f in received if isinstance(f, str) for m in unbatched(f)]
        turned = next(i for i, e in enumerate(events) if e.get("type") == "hole_card")
        down = [e for e in events[:turned] if e.get("type") == "card" and e.get("face_up") is False]
        assert down and all("card" not in e for e in down), name
        assert hole not in json.dumps([e for e in events[:turned] if e.get("box") == 0]), name
    check_balance(ana, base_url, "ana")
    check_balance(ben, base_url, "ben")


# ------------------------------------------------------------------------------------------------------
# live dealer


def test_dealer_console_deals_a_live_round_with_a_misdeal(new_page: Any, base_url: str, screenshots: Path) -> None:
    dealer, player = new_page(), new_page()
    sign_in(dealer, "dora")
    dealer.goto(f"/#/dealer/{LIVE}")
    dealer.wait_for_selector("#dealer-console #card-input")
    sign_in(player, "ana")
    open_table(player, LIVE)
    before = float(check_balance(player, base_url, "ana"))
    wait_betting(player)
    bet(player, 1, 10)
    dealer.wait_for_selector("#dealer-prompt:has-text('Deal the next card: burn a card')", timeout=20_000)

    def deal(cards: list[str]) -> None:
        for card in cards:
            entered = dealer.locator("#entered li.ok").count()
            dealer.fill("#card-input", "")
            dealer.keyboard.type(card)  # as a card reader types it
            dealer.keyboard.press("Enter")
            dealer.wait_for_function("(n) => document.querySelectorAll('#entered li.ok').length > n", arg=entered)

    # live-online: 6 burns at the shoe's start (§3.5), then box 1 (10 is read as T)
    deal(["2C", "3C", "4C", "5C", "6C", "7C", "10H"])
    player.wait_for_selector(".hand[data-box='1'] .card[data-card='TH']")
    dealer.keyboard.type("ZZ")
    dealer.keyboard.press("Enter")
    dealer.wait_for_selector("#entered li.bad")
    # a misdeal: the supervisor approves at the console; the bets stand, 3 are burnt, the deal again
    dealer.click("#misdeal")
    dealer.fill("#sup-name", "sam")
    dealer.fill("#sup-password", "demo")
    dealer.fill("#void-reason", "")
    dealer.click("#approve")
    player.wait_for_selector("#banner:has-text('Misdeal')")
    dealer.wait_for_selector("#dealer-prompt:has-text('burn a card')")
    deal(["8C", "9C", "TC", "TH", "9S"])
    dealer.wait_for_selector("#dealer-prompt:has-text('box 1 hand 1')")
    deal(["8D"])
    dealer.wait_for_selector("#dealer-prompt:has-text('hole card')")
    dealer.screenshot(path=str(screenshots / "dealer-console.png"), full_page=True)
    assert not contrast_failures(dealer), contrast_failures(dealer)
    deal(["KC"])
    player.wait_for_selector("#act-stand")
    assert player.locator("#dealer-cards .card.back").count() == 1
    assert player.locator("[data-card='KC']").count() == 0
    dealer.wait_for_selector("#dealer-prompt:has-text('ana is deciding')")
    player.screenshot(path=str(screenshots / "online-live.png"), full_page=True)
    player.click("#act-stand")
    player.wait_for_selector("#dealer-cards .card[data-card='KC']")  # 9S + KC = 19 beats 18
    player.wait_for_selector("#results li.payment[data-kind='lose']")
    assert float(check_balance(player, base_url, "ana")) == before - 10


# ------------------------------------------------------------------------------------------------------
# keyboard only


def test_keyboard_only_play_with_a_bet_behind(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto("/#/")
    page.wait_for_selector("#login-name:focus")
    page.keyboard.type("chen")
    page.keyboard.press("Tab")
    page.keyboard.type("demo")
    page.keyboard.press("Enter")
    page.wait_for_selector("#who:has-text('chen')")
    page.goto(f"/#/table/{MACAU}")
    page.wait_for_selector("#bj-table[data-phase]")
    ana = token_of(base_url, "ana")
    number = wait_betting(page, 2600)
    # ana (elsewhere) is on box 3; at macau-1 chen may bet behind her (Art. 13)
    rest(base_url, "POST", f"/api/tables/{MACAU}/bets", ana, {"spot": "3", "amount": "10"}, uuid.uuid4().hex)
    page.wait_for_selector("#bet-box-3:has-text('Bet behind')")
    for _ in range(40):  # Tab to the first chip; Enter adds it to the stake
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('chip')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("#stake[data-amount='10']")
    page.keyboard.press("]")  # the next chip (25)
    page.keyboard.press("=")  # added: 35
    page.wait_for_selector("#stake[data-amount='35']")
    for _ in range(20):  # back to box 3's button; Enter bets the stake behind ana
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.id") == "bet-box-3":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(".box[data-box='3'] .bets li.mine:has-text('35.00')")
    assert page.is_visible(".box[data-box='3'] .bets li[data-player='ana']")
    page.wait_for_selector(".box[data-box='3'] li.mine .decider")  # the highest bet decides (Art. 13)
    for _ in range(20):
        page.wait_for_function(READY, arg=["chen", number], timeout=25_000)
        if round_over(page, number):
            break
        count = awaits(page)
        page.keyboard.press("n" if pending(page).startswith("insurance") else "s")
        after(page, count, number)
    assert round_over(page, number)
    assert any("chen: Stand" in line for line in log_lines(page))
    check_balance(page, base_url, "chen")


# ------------------------------------------------------------------------------------------------------
# baccarat


def test_baccarat_coup(new_page: Any, base_url: str, screenshots: Path) -> None:
    page = new_page()
    sign_in(page, "ben")
    open_table(page, BACCARAT)
    assert page.locator(".spot").count() == 6  # lucky_6 is on at this table
    wait_betting(page)
    page.click("#chip-10")
    page.click("#chip-10")  # 20: banker bets go in multiples of the minimum (Art. 18)
    page.click("#bet-banker")
    page.wait_for_selector(".spot[data-spot='banker'] .bets li[data-player='ben']")
    page.wait_for_selector("#results .winner", timeout=20_000)
    assert page.locator(".side-cards.player .card.face").count() >= 2
    assert page.locator(".side-cards.banker .card.face").count() >= 2
    page.wait_for_selector("#results #net")
    page.wait_for_selector(".road-grid .bead", timeout=20_000)  # the roads, refreshed after the coup
    check_balance(page, base_url, "ben")
    page.screenshot(path=str(screenshots / "baccarat.png"), full_page=True)


# ------------------------------------------------------------------------------------------------------
# history and fairness


def test_history_and_the_shoe_seed_check(new_page: Any, base_url: str, screenshots: Path) -> None:
    supervisor, page = new_page(), new_page()
    sign_in(supervisor, "sam")
    supervisor.goto(f"/#/dealer/{ONLINE}")
    supervisor.wait_for_selector("#dealer-console")
    sign_in(page, "ana")
    open_table(page, ONLINE)
    shoe = None
    for _ in range(3):  # a round in play to void (a dealer natural can end one at once)
        number = wait_betting(page)
        shoe = int(re.search(r"shoe (\d+)", page.inner_text("#sec-head")).group(1))
        bet(page, 1, 5)
        page.wait_for_function(READY, arg=["ana", number], timeout=25_000)
        if not round_over(page, number) and pending(page).startswith("decision:ana:"):
            supervisor.click("#void")  # a supervisor needs no second approval
            page.wait_for_selector("#log li:has-text('shoe')", timeout=10_000)
            break
        play_round(page, "ana", number, set(), set())
    else:
        pytest.fail("no round stayed in play to void")
    check_balance(page, base_url, "ana")
    page.click("#sec-head a[href='#/history']")
    page.wait_for_selector(f".shoe[data-shoe='{shoe}'] .seed")
    voided = page.locator(".round[data-status='voided']").first
    assert voided.locator(".dealt .card.face").count() >= 3  # box 1's two cards and the dealer's up-card
    assert voided.locator(".dealt .card.back").count() == 1  # the hole card was never turned: never shown
    settled = page.locator(".round[data-status='settled']")  # the rounds the tests before this one played
    for i in range(settled.count()):
        assert settled.nth(i).locator(".dealt .card.face").count() >= 3
        assert settled.nth(i).locator(".payments li").count() >= 1
    page.click(f"#verify-{shoe}")
    page.wait_for_selector(f".shoe[data-shoe='{shoe}'] .verify-result[data-ok='true']")
    document = rest(base_url, "GET", f"/api/shoes/{shoe}", token_of(base_url, "ana"))
    assert hashlib.sha256(bytes.fromhex(document["server_seed"])).hexdigest() == document["commitment"]
    page.screenshot(path=str(screenshots / "history.png"), full_page=True)
    assert not contrast_failures(page), contrast_failures(page)


# ------------------------------------------------------------------------------------------------------
# languages, phones, contrast


def test_traditional_chinese_phone_width_and_contrast(new_page: Any, screenshots: Path) -> None:
    page = new_page(390, 844)
    sign_in(page, "ben")
    assert not contrast_failures(page), contrast_failures(page)
    open_table(page, MACAU)
    page.wait_for_selector("#bj-table .box")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    page.screenshot(path=str(screenshots / "macau-1983-phone.png"), full_page=True)
    failures = contrast_failures(page)
    assert not failures, failures
    page.select_option("#lang-select", "zh-Hant")
    page.wait_for_selector("#bj-table h3:has-text('第 1 門')")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert "規則" in page.inner_text("#rules-panel summary")
    assert page.evaluate("import('/js/i18n.js').then((m) => m.MISSING())") == []  # every text in both
    page.screenshot(path=str(screenshots / "macau-1983-phone-zh-Hant.png"), full_page=True)
    page.select_option("#lang-select", "en")
    page.wait_for_selector("#bj-table h3:has-text('Box 1')")

    desktop = new_page()
    sign_in(desktop, "chen")
    for table in (MACAU, ONLINE, BACCARAT):
        open_table(desktop, table)
        desktop.wait_for_timeout(300)
        failures = contrast_failures(desktop)
        assert not failures, (table, failures)
