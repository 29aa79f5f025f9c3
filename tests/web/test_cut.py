"""The cut of a new shoe (Art. 2.1, docs/rules.md §5) and the live house edges as surveillance, through the page.

A supervisor's void of a round in play ends the shoe; with someone seated, the new shoe's commitment is
published and the first seated player cuts: the page offers them a random seed to keep or replace and a
"Cut" button, tells everyone else who cuts, both with the countdown, then logs the seed with the
commitment. The cut tables of the test server (online-cut, baccarat-cut: tests/web/run_server.py) bet,
and so cut, for 10 s. Screenshots land in tests/web/screenshots/ (cut-*, edges-*), at 1366×900 and
390×844, in English and Traditional Chinese.
"""

from __future__ import annotations

import re
import time
import urllib.error
import uuid
from pathlib import Path
from typing import Any

from tests.web.pages import contrast_failures, open_table, rest, sign_in, token_of
from tests.web.test_seats import frames_of, in_language

BACCARAT, ONLINE_CUT, BACCARAT_CUT = 4, 7, 8  # baccarat-1 and the test server's cut tables
LAPTOP, PHONE = (1366, 900), (390, 844)


def end_shoe(base_url: str, table: int, player: str, spot: str, timeout: float = 40.0) -> int:
    """``player`` bets on ``spot``; once the round is in play the supervisor voids it, which ends the shoe.
    Returns the ended shoe's id."""
    token, sam = token_of(base_url, player), token_of(base_url, "sam")
    deadline = time.monotonic() + timeout
    placed = False  # a bet of the player's in this round
    while time.monotonic() < deadline:
        view = rest(base_url, "GET", f"/api/tables/{table}")
        if view["phase"] == "betting" and not placed:
            try:
                body = {"spot": spot, "amount": "10"}
                rest(base_url, "POST", f"/api/tables/{table}/bets", token, body, key=uuid.uuid4().hex)
                placed = True
            except urllib.error.HTTPError:
                pass  # the window closed under the bet: the next one
        elif view["phase"] == "playing" and placed:
            try:
                rest(base_url, "POST", f"/api/tables/{table}/void", sam, {"reason": "the test ends the shoe"})
                return int(view["shoe"]["id"])
            except urllib.error.HTTPError:
                placed = False  # the round ended first: bet again
        elif view["phase"] not in ("betting", "playing"):
            placed = False
        time.sleep(0.1)
    raise AssertionError(f"table {table}: no round of {player}'s stayed in play to void")


def cut_events(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kinds = ("new_shoe", "cut", "cut_made")
    return [f["event"] for f in frames if f.get("type") == "event" and f.get("event", {}).get("type") in kinds]


def test_the_first_seated_player_cuts_with_a_typed_seed_and_the_table_sees_it(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    """At online-cut ana sits at box 1 and ben at box 4: ana cuts the new shoe with a seed she types;
    ben (a phone, in Chinese) sees that ana cuts, then her seed and the commitment in the log; the
    shoe's document (GET /api/shoes/{id}) carries her seed."""
    ana, ben = new_page(*LAPTOP), new_page(*PHONE)
    in_language(ana, "en")
    in_language(ben, "zh-Hant")
    ben_frames = frames_of(ben)
    sign_in(ana, "ana")
    sign_in(ben, "ben")
    open_table(ana, ONLINE_CUT)
    open_table(ben, ONLINE_CUT)
    ben.click("#sit-box-4")
    ana.wait_for_selector(".box[data-box='4'] .seat[data-occupant='ben']")
    ana.click("#sit-box-1")
    ben.wait_for_selector(".box[data-box='1'] .seat[data-occupant='ana']")

    ended = end_shoe(base_url, ONLINE_CUT, "ana", "1")
    # the cutter: a form with a random seed, the Cut button and the countdown
    ana.wait_for_selector("#cut-prompt[data-mine='true'] #cut-seed", timeout=15_000)
    assert ana.get_attribute(".table-view", "data-phase") == "cut"
    assert re.fullmatch(r"[0-9a-f]{32}", ana.input_value("#cut-seed"))
    assert "Cut the new shoe" in ana.inner_text("#cut-prompt")
    ana.wait_for_function("() => /\\d+ s/.test(document.querySelector('#cut-timer').textContent)")
    # everyone else: who cuts, with the countdown, and no form
    ben.wait_for_selector("#cut-prompt[data-cutter='ana']:has-text('ana 為新牌靴切牌') #cut-timer")
    assert ben.locator("#cut-seed, #cut-submit").count() == 0
    ben.wait_for_function("() => /\\d+ 秒/.test(document.querySelector('#cut-timer').textContent)")
    seed = "ana's cut, 2024 #7"
    ana.fill("#cut-seed", seed)
    ana.screenshot(path=str(screenshots / "cut-laptop-en-cutter.png"), full_page=True)
    for page in (ana, ben):
        assert not contrast_failures(page), contrast_failures(page)
    ben.screenshot(path=str(screenshots / "cut-phone-zh-Hant-watcher.png"), full_page=True)
    with ana.expect_response(lambda r: r.url.endswith(f"/api/tables/{ONLINE_CUT}/cut")) as answer:
        ana.click("#cut-submit")
    assert answer.value.ok, answer.value.text()
    body = answer.value.json()
    assert body["cut"] is True and body["client_seed"] == seed and re.fullmatch(r"[0-9a-f]{64}", body["commitment"])

    # the seed and the commitment in the log, and the shoe's client seed in the header, for both
    for page in (ana, ben):
        line = page.wait_for_selector(f'#log li:has-text("{seed}")', timeout=10_000)
        assert body["commitment"] in line.inner_text()
        page.wait_for_selector(f'#client-seed:has-text("{seed}")')
        assert page.inner_text("#commitment") == body["commitment"]
        page.wait_for_selector("#cut-prompt", state="detached")
    assert "croupier verify" in ben.inner_text("#log") and "切牌" in ben.inner_text("#log")
    ana.wait_for_function("() => document.querySelector('.table-view').dataset.phase === 'betting'")
    ana.screenshot(path=str(screenshots / "cut-after-laptop-en-cutter.png"), full_page=True)
    ben.screenshot(path=str(screenshots / "cut-after-phone-zh-Hant-watcher.png"), full_page=True)

    view = rest(base_url, "GET", f"/api/tables/{ONLINE_CUT}")
    shoe = int(view["shoe"]["id"])
    assert shoe != ended and view["cutter"] is None and view["shoe"]["commitment"] == body["commitment"]
    document = rest(base_url, "GET", f"/api/shoes/{shoe}")
    assert document["client_seed"] == seed and document["commitment"] == body["commitment"]
    events = cut_events(ben_frames)
    assert [e["type"] for e in events] == ["new_shoe", "cut", "cut_made"]
    assert events[1]["player"] == "ana" and events[2] == {"type": "cut_made", "player": "ana", "client_seed": seed}


def test_at_baccarat_the_cutter_keeps_the_random_seed_and_the_table_sees_it(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    """At baccarat-cut ana (a phone, in Chinese) cuts with the random seed the page offers, by Enter;
    chen (a laptop, in Chinese) and cole (a phone, in English) watch; the seed reaches the log, the header
    and the shoe's document."""
    ana = new_page(*PHONE)
    watchers = {"laptop-zh-Hant": new_page(*LAPTOP), "phone-en": new_page(*PHONE)}
    in_language(ana, "zh-Hant")
    in_language(watchers["laptop-zh-Hant"], "zh-Hant")
    in_language(watchers["phone-en"], "en")
    sign_in(ana, "ana")
    sign_in(watchers["laptop-zh-Hant"], "chen")
    sign_in(watchers["phone-en"], "cole")
    for page in (ana, *watchers.values()):
        open_table(page, BACCARAT_CUT)
    ana.click("#sit-seat-1")
    watchers["phone-en"].wait_for_selector(".bac-seats .seat[data-seat='1'][data-occupant='ana']")

    end_shoe(base_url, BACCARAT_CUT, "ana", "player")  # her squeeze holds the coup in play
    ana.wait_for_selector("#cut-prompt[data-mine='true'] #cut-seed", timeout=15_000)
    seed = ana.input_value("#cut-seed")
    assert re.fullmatch(r"[0-9a-f]{32}", seed)
    assert "為新牌靴切牌" in ana.inner_text("#cut-prompt")
    watchers["phone-en"].wait_for_selector("#cut-prompt[data-cutter='ana']:has-text('ana cuts the new shoe')")
    watchers["laptop-zh-Hant"].wait_for_selector("#cut-prompt[data-cutter='ana']:has-text('ana 為新牌靴切牌')")
    ana.screenshot(path=str(screenshots / "cut-phone-zh-Hant-cutter-baccarat.png"), full_page=True)
    for name, page in watchers.items():
        page.screenshot(path=str(screenshots / f"cut-{name}-watcher-baccarat.png"), full_page=True)
    ana.focus("#cut-seed")
    with ana.expect_response(lambda r: r.url.endswith(f"/api/tables/{BACCARAT_CUT}/cut")) as answer:
        ana.keyboard.press("Enter")
    assert answer.value.ok and answer.value.json()["client_seed"] == seed

    for page in (ana, *watchers.values()):
        page.wait_for_selector(f"#client-seed:has-text('{seed}')", timeout=10_000)
        page.wait_for_selector(f"#log li:has-text('{seed}')", state="attached")
        page.wait_for_selector("#cut-prompt", state="detached")
        page.click("#log-title")  # the baccarat log is folded: open it for the screenshot
    ana.screenshot(path=str(screenshots / "cut-after-phone-zh-Hant-cutter-baccarat.png"), full_page=True)
    for name, page in watchers.items():
        page.screenshot(path=str(screenshots / f"cut-after-{name}-watcher-baccarat.png"), full_page=True)
    shoe = int(rest(base_url, "GET", f"/api/tables/{BACCARAT_CUT}")["shoe"]["id"])
    assert rest(base_url, "GET", f"/api/shoes/{shoe}")["client_seed"] == seed


def test_the_live_house_edges_are_for_staff_only(new_page: Any, base_url: str, screenshots: Path) -> None:
    """baccarat-1 shows staff the live edges (surveillance): the supervisor's page has the edges panel, a
    player's has none (and its snapshot no house_edge), in either language and size."""
    pages = {
        "laptop-en-sam": new_page(*LAPTOP),
        "phone-zh-Hant-sam": new_page(*PHONE),
        "laptop-zh-Hant-ana": new_page(*LAPTOP),
        "phone-en-ana": new_page(*PHONE),
    }
    frames = {}
    for name, page in pages.items():
        in_language(page, "zh-Hant" if "zh-Hant" in name else "en")
        frames[name] = frames_of(page)
        sign_in(page, name.rsplit("-", 1)[1])
        open_table(page, BACCARAT)
    for name, page in pages.items():
        if name.endswith("sam"):
            page.wait_for_selector("#edges:not([hidden]) table tr[data-spot='banker']", timeout=20_000)
            title = "即時賭場優勢" if "zh-Hant" in name else "Live house edges"
            assert title in page.inner_text("#edges")
            banker = page.inner_text("#edges tr[data-spot='banker'] td")
            assert re.fullmatch(r"-?\d+\.\d{3}%", banker), banker
    for name, page in pages.items():
        if name.endswith("ana"):
            assert page.locator("#edges").is_hidden()
            assert page.inner_html("#edges") == ""
            assert page.locator(".edge, #edges tr").count() == 0
            snapshots = [f["snapshot"] for f in frames[name] if f.get("type") == "snapshot"]
            assert snapshots and all("house_edge" not in (s.get("round") or {}) for s in snapshots)
        page.screenshot(path=str(screenshots / f"edges-{name}.png"), full_page=True)
        assert not contrast_failures(page), (name, contrast_failures(page))
    answer = rest(base_url, "GET", f"/api/tables/{BACCARAT}", token_of(base_url, "ana"))
    assert "house_edge" not in (answer.get("round") or {})
