"""The cashier's screen: find a player, pay in and out (each payment once, by its key), and
the ledger's proof; a phone in Traditional Chinese."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pages import ledger_balance, sign_in

NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def test_the_cashier_pays_in_and_out_and_the_ledger_stays_balanced(
    new_page: Any, base_url: str, screenshots: Path
) -> None:
    page = new_page(1366, 900)
    sign_in(page, "cole")
    page.click("#nav-cashier")
    page.fill("#find-name", "ch")
    page.click("#find button[type=submit]")
    page.wait_for_selector(".pick[data-account='chen']")
    before = ledger_balance(base_url, "chen")
    page.click(".pick[data-account='chen']")
    page.fill("#pay-amount", "25")
    page.click("button[data-kind='deposit']")
    page.wait_for_selector("#paid:has-text('chen')")
    page.wait_for_selector("#ledger-state.ok")
    page.fill("#pay-amount", "25")
    page.click("button[data-kind='withdrawal']")
    page.wait_for_selector("#paid:has-text('paid out')")  # the withdrawal's own answer (the deposit's says 25.00 too)
    assert ledger_balance(base_url, "chen") == before
    page.screenshot(path=str(screenshots / "cashier-laptop-en.png"), full_page=True)
    phone = new_page(390, 844)
    sign_in(phone, "cole")
    phone.goto("/#/cashier")
    phone.select_option("#lang-select", "zh-Hant")
    phone.wait_for_selector("h1:has-text('帳房')")
    phone.wait_for_selector("#ledger-state.ok")
    assert phone.evaluate(NO_OVERFLOW)
    phone.screenshot(path=str(screenshots / "cashier-phone-zh-Hant.png"), full_page=True)
    phone.select_option("#lang-select", "en")  # leave the language as the other tests expect it
    player = new_page(390, 844)
    sign_in(player, "ana")
    assert player.locator("#nav-cashier").count() == 0
