"""The supervisor's tables page: open a table (a refusal shows its reason), change it, read its log, see it in
the lobby, close and reopen it; at laptop and phone widths, in English and Traditional Chinese."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pages import contrast_failures, sign_in

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_a_supervisor_opens_a_table_and_it_appears_in_the_lobby(new_page: Any, screenshots: Path) -> None:
    page = new_page(1366, 900)
    sign_in(page, "sam")
    page.click("#nav-tables")
    page.wait_for_selector("#table-form[data-mode='create']")
    page.wait_for_selector(".admin-table[data-table='1']")
    page.fill("#f-name", "vip-web")
    page.select_option("#f-game", "baccarat")
    page.fill("#f-min", "0.10")
    page.fill("#f-max", "10")
    page.fill("#f-chip", "0.10")
    page.click("#form-submit")
    page.wait_for_selector("#form-error:has-text('0.095')")
    page.screenshot(path=str(screenshots / "supervisor-refused.png"))
    page.fill("#f-min", "100")
    page.fill("#f-max", "10000")
    page.fill("#f-chip", "10")
    page.check("#f-squeeze")
    page.fill("#f-squeeze-seconds", "12")
    page.check("#f-live-edges")
    page.fill("#f-overrides", "lucky_6=true")
    page.click("#form-submit")
    card = ".admin-table:has(h3:has-text('vip-web'))"
    page.wait_for_selector(card)
    assert page.input_value("#f-name") == ""  # the form is ready for the next table
    page.click(f"{card} button.edit")
    page.wait_for_selector("#table-form[data-mode='change']")
    assert page.input_value("#f-chip") == "10.00" and page.is_checked("#f-squeeze")
    page.fill("#f-max", "20000")
    page.click("#form-submit")
    page.wait_for_selector("#table-form[data-mode='create']")
    page.click(f"{card} button.show-log")
    page.wait_for_selector(f"{card} .change-log li:nth-child(2)")
    page.screenshot(path=str(screenshots / "supervisor-tables.png"), full_page=True)
    assert not contrast_failures(page), contrast_failures(page)
    assert page.evaluate(NO_OVERFLOW)

    page.goto("/#/")
    lobby_card = page.wait_for_selector(".table-card:has(h2:has-text('vip-web'))")
    text = lobby_card.inner_text()  # the change waits for the table's next shoe
    assert "100.00 – 10,000.00" in text and "Lucky 6" in text and "Squeeze (Art. 16)" in text

    page.goto("/#/tables")
    page.wait_for_selector(card)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"{card} button.close")
    page.wait_for_selector(f"{card}[data-status='closed'] button.reopen")
    page.click(f"{card} button.reopen")
    page.wait_for_selector(f"{card}[data-status='open']")


def test_the_tables_page_on_a_phone_in_both_languages(new_page: Any, screenshots: Path) -> None:
    page = new_page(390, 844)
    sign_in(page, "sam")
    page.goto("/#/tables")
    page.wait_for_selector(".admin-table[data-table='1']")
    assert page.evaluate(NO_OVERFLOW)
    page.screenshot(path=str(screenshots / "supervisor-tables-phone.png"), full_page=True)
    assert not contrast_failures(page), contrast_failures(page)
    page.select_option("#lang-select", "zh-Hant")
    page.wait_for_selector("#form-title:has-text('開設賭枱')")
    page.wait_for_selector(".admin-table[data-table='1']")
    assert page.evaluate(NO_OVERFLOW)
    page.screenshot(path=str(screenshots / "supervisor-tables-phone-zh-Hant.png"), full_page=True)
    assert not contrast_failures(page), contrast_failures(page)
    page.select_option("#lang-select", "en")  # leave the language as the other tests expect it
    # a player who finds the page is told whose it is
    player = new_page(390, 844)
    sign_in(player, "ana")
    assert player.locator("#nav-tables").count() == 0
    player.goto("/#/tables")
    player.wait_for_selector("text=Only a supervisor")
