"""Seats (Art. 2.3), a bet behind (Art. 13), Macau's face-down box cards (Art. 3.1a) and the baccarat
squeeze (Art. 16), played through the page in several browser contexts at once: a laptop (1366×900)
and a phone (390×844), in English and Traditional Chinese. The screenshots land in
tests/web/screenshots/ (seats-*, squeeze-*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pages import check_balance, ledger_balanced, open_table, seats, sign_in, unbatched, wait_betting
from tests.web.test_tables import ROUND_OVER, play_round

SQUEEZE, MACAU = 5, 6  # the test server's baccarat-squeeze and macau-seats (tests/web/run_server.py)
LAPTOP, PHONE = (1366, 900), (390, 844)
BALANCED = {"entries_sum": 0, "balances_sum": 0, "unbalanced_transactions": 0, "wallets_match_entries": True}


def in_language(page: Any, lang: str) -> None:
    page.goto("/#/")
    page.evaluate("(lang) => localStorage.setItem('croupier.lang', lang)", lang)
    page.reload()
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)


def frames_of(page: Any) -> list[dict[str, Any]]:
    """Every message the page receives over its WebSocket (each event of a batch on its own), as it comes."""
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.extend(unbatched(data))))
    return frames


def test_a_seat_is_taken_by_a_click_shows_the_name_and_is_left_after_the_round(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    ana, ben = new_page(*LAPTOP), new_page(*PHONE)
    sign_in(ana, "ana")
    sign_in(ben, "ben")
    open_table(ana, MACAU)
    open_table(ben, MACAU)
    ana.click("#sit-box-5")
    ana.wait_for_selector(".box[data-box='5'] .seat.mine:has-text('Your seat') #leave-box-5")
    assert ana.locator("button.sit").count() == 0  # one seat per player (Art. 2.3)
    ben.wait_for_selector(".box[data-box='5'] .seat[data-occupant='ana']:has-text('ana')")
    assert ben.locator("#sit-box-5").count() == 0 and ben.locator("#sit-box-4").count() == 1
    assert seats(base_url, MACAU) == {"5": "ana"}

    number = wait_betting(ana)
    ana.click("#chip-10")
    ana.click("#bet-box-5")
    ana.wait_for_selector(".box[data-box='5'] .bets li.mine")
    ana.click("#leave-box-5")  # refused while she has a bet in the round: the server says why
    ana.wait_for_selector(".toast-item:has-text('Art. 2.3')")
    assert "leave after the round" in ana.inner_text(".toast-item")
    assert seats(base_url, MACAU) == {"5": "ana"}
    play_round(ana, "ana", number, set(), set())
    ana.click("#leave-box-5")
    ben.wait_for_selector(".box[data-box='5'] .seat.open")
    ana.wait_for_selector("#sit-box-5")
    assert seats(base_url, MACAU) == {}
    check_balance(ana, base_url, "ana")


def test_a_bet_behind_before_the_occupant_bets_and_both_are_settled(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    """ben bets behind ana's box 6 before she bets (bets in any order: Art. 2.3 is judged when betting
    closes), not matching her doubles and splits, then changes his mind; ana bets and decides (the higher
    bet, Art. 13). The table sees box 6's first two cards as backs until the box has played (Art. 3.1a);
    ben, a bettor of the box, sees them. Both are settled and the ledger balances."""
    ana, ben = new_page(*LAPTOP), new_page(*PHONE)
    watchers = {"laptop-zh-Hant": new_page(*LAPTOP), "phone-en": new_page(*PHONE)}
    in_language(ben, "zh-Hant")
    in_language(watchers["laptop-zh-Hant"], "zh-Hant")
    in_language(watchers["phone-en"], "en")
    ben_frames, watcher_frames = frames_of(ben), frames_of(watchers["phone-en"])
    sign_in(ana, "ana")
    sign_in(ben, "ben")
    sign_in(watchers["laptop-zh-Hant"], "chen")  # watching: chen bets nothing
    sign_in(watchers["phone-en"], "cole")  # staff watch too
    bodies: list[tuple[str, Any]] = []
    ben.on("request", lambda r: bodies.append((f"{r.method} {r.url}", r.post_data_json)) if "/api/" in r.url else None)
    for page in (ana, ben, *watchers.values()):
        open_table(page, MACAU)
    ana.click("#sit-box-6")
    ben.wait_for_selector(".box[data-box='6'] .seat[data-occupant='ana']")

    number = wait_betting(ben, 2400)
    ben.click("#match-box-6")  # ben's standing choice: do not match ana's doubles and splits
    assert not ben.is_checked("#match-box-6")
    ben.click("#chip-10")
    ben.click("#bet-box-6:has-text('買馬')")  # a bet behind, before the occupant's own bet
    ben.wait_for_selector(".box[data-box='6'] .bets li.mine")
    ana.wait_for_selector(".box[data-box='6'] .bets li[data-player='ben']")
    ana.click("#chip-10")
    ana.click("#chip-10")
    ana.click("#bet-box-6")
    ana.wait_for_selector(".box[data-box='6'] .bets li.mine")
    ben.wait_for_selector(".box[data-box='6'] li[data-player='ana'] .decider")  # 20 against 10: ana decides
    with ben.expect_response(lambda r: r.url.endswith(f"/api/tables/{MACAU}/matching")) as answer:
        ben.click("#match-box-6")  # ben changes his mind until the decision: PUT /matching
    assert answer.value.ok and answer.value.json() == {"box": 6, "match": True}
    assert ben.is_checked("#match-box-6")
    bet_body = next(body for where, body in bodies if where.startswith("POST") and where.endswith("/bets"))
    assert bet_body == {"spot": "6", "amount": "10", "match": False}
    assert ("PUT " + base_url + f"/api/tables/{MACAU}/matching", {"box": 6, "match": True}) in bodies

    # the deal: backs for the table while the box plays; a screenshot of each page as it stands
    ana.wait_for_function("() => document.querySelector('#bj-table').dataset.phase !== 'betting'")
    shots = {"laptop-en-ana": ana, "phone-zh-Hant-ben": ben, **watchers}
    watchers["phone-en"].wait_for_selector(".box[data-box='6'] .hand .card", timeout=10_000)
    for name, page in shots.items():
        page.screenshot(path=str(screenshots / f"seats-{name}.png"), full_page=True)
    play_round(ana, "ana", number, set(), set())
    for page in (ana, ben, *watchers.values()):
        page.wait_for_function(ROUND_OVER, arg=[number], timeout=25_000)
    # the box has played: everyone sees its cards (box_shown), none is a back any more
    for page in watchers.values():
        page.wait_for_function(
            "() => document.querySelectorAll(\".box[data-box='6'] .hand .card.face\").length >= 2"
            " && !document.querySelector(\".box[data-box='6'] .hand .card.back\")"
        )
    for name, page in (("ana", ana), ("ben", ben)):
        page.wait_for_selector("#results li.payment")
        assert page.locator("#results #net").count() == 1, name
        check_balance(page, base_url, name)
    for name, page in shots.items():
        page.screenshot(path=str(screenshots / f"seats-after-{name}.png"), full_page=True)

    events = [f.get("event", {}) for f in watcher_frames if f.get("type") == "event"]
    shown = next(i for i, e in enumerate(events) if e.get("type") == "box_shown" and e.get("box") == 6)
    down = [e for e in events[:shown] if e.get("type") == "card" and e.get("box") == 6]
    assert len(down) >= 2 and all(e["face_up"] is False and "card" not in e for e in down[:2])
    assert not any(e.get("private") for e in events)
    private = [f["event"] for f in ben_frames if f.get("event", {}).get("private")]
    assert [e["box"] for e in private][:2] == [6, 6] and all("card" in e for e in private)
    assert ledger_balanced(base_url) == BALANCED


def test_the_squeeze_holder_turns_the_cards_and_the_table_sees_backs_until_then(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    """At baccarat-squeeze (the squeeze allowed, Art. 16) ana sits, bets the largest player bet and holds
    the player's cards: she sees them with a Turn button, the others see backs and the countdown; her turn
    shows them to everyone (card_turned), and nothing after them was sent before."""
    ana, ben = new_page(*LAPTOP), new_page(*PHONE)
    watchers = {"laptop-zh-Hant": new_page(*LAPTOP), "phone-en": new_page(*PHONE)}
    in_language(ben, "zh-Hant")
    in_language(watchers["laptop-zh-Hant"], "zh-Hant")
    in_language(watchers["phone-en"], "en")
    ben_frames = frames_of(ben)
    sign_in(ana, "ana")
    sign_in(ben, "ben")
    sign_in(watchers["laptop-zh-Hant"], "chen")  # watching: chen bets nothing
    sign_in(watchers["phone-en"], "cole")  # staff watch too
    for page in (ana, ben, *watchers.values()):
        open_table(page, SQUEEZE)
    ana.click("#sit-seat-2")
    ben.wait_for_selector(".bac-seats .seat[data-seat='2'][data-occupant='ana']")
    ana.wait_for_selector(".bac-seats .seat.mine #leave-seat-2")
    assert ana.locator("#bac-table button.sit").count() == 0

    wait_betting(ana)
    ana.click("#chip-10")
    ana.click("#bet-player")
    ana.wait_for_selector(".spot[data-spot='player'] .bets li[data-player='ana']")
    ana.wait_for_selector("#turn-player", timeout=15_000)
    # the holder sees her two cards (marked as hers alone) and no total; the table sees backs
    assert ana.locator(".side-cards.player .card.face[data-private]").count() == 2
    assert ana.get_attribute(".side-cards.player .total", "data-total") == ""
    ana.wait_for_selector("#squeeze-prompt[data-mine='true'] #squeeze-timer")
    for page in (ben, *watchers.values()):
        page.wait_for_selector("#squeeze-prompt #squeeze-timer")
        assert page.locator(".side-cards.player .card.back").count() == 2
        assert page.locator(".side-cards.player .card.face").count() == 0
        assert page.locator("#turn-player").count() == 0
    shots = {"laptop-en-ana": ana, "phone-zh-Hant-ben": ben, **watchers}
    for name, page in shots.items():
        page.screenshot(path=str(screenshots / f"squeeze-{name}.png"), full_page=True)
    ana.click("#turn-player")
    for page in (ben, *watchers.values()):
        page.wait_for_function(
            "() => document.querySelectorAll('.side-cards.player .card.face').length >= 2", timeout=10_000
        )
    for _ in range(3):  # a third card is squeezed on its own; its holder turns it too
        ana.wait_for_selector("#results .winner, #turn-player", timeout=20_000)
        if ana.locator("#results .winner").count():
            break
        ana.click("#turn-player")
    ana.wait_for_selector("#results .winner", timeout=20_000)
    for page in (ben, *watchers.values()):
        page.wait_for_selector("#results .winner", timeout=20_000)
        assert page.locator(".side-cards .card.back").count() == 0
    check_balance(ana, base_url, "ana")
    for name, page in shots.items():
        page.screenshot(path=str(screenshots / f"squeeze-after-{name}.png"), full_page=True)

    events = [f.get("event", {}) for f in ben_frames if f.get("type") == "event"]
    turned = next(i for i, e in enumerate(events) if e.get("type") == "card_turned")
    before = events[:turned]
    assert all("card" not in e for e in before if e.get("type") == "card" and e.get("side") == "player")
    assert not any(e.get("type") == "coup_result" for e in before)
    assert ledger_balanced(base_url) == BALANCED
