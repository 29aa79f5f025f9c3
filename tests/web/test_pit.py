"""The supervisor's pit view in the browser: every table at once, with the live edges as
surveillance; players have no link to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pages import sign_in

LAPTOP, PHONE = (1366, 900), (390, 844)
NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def test_the_pit_shows_every_table_and_the_live_edges_to_a_supervisor(new_page: Any, screenshots: Path) -> None:
    page = new_page(*LAPTOP)
    sign_in(page, "sam")
    page.click("#nav-pit")
    page.wait_for_selector(".pit-table[data-table='4'] .pit-edges li")
    assert page.locator(".pit-table").count() >= 4
    assert page.locator(".pit-table[data-table='1'] .hold").count() == 1
    assert page.evaluate(NO_OVERFLOW)
    page.screenshot(path=str(screenshots / "pit-laptop-en.png"), full_page=True)
    phone = new_page(*PHONE)
    sign_in(phone, "sam")
    phone.goto("/#/pit")
    phone.wait_for_selector(".pit-table[data-table='4'] .pit-edges li")
    phone.select_option("#lang-select", "zh-Hant")
    phone.wait_for_selector("h1:has-text('賭區總覽')")
    phone.wait_for_selector(".pit-table[data-table='4'] .pit-edges li")
    assert phone.evaluate(NO_OVERFLOW)
    phone.screenshot(path=str(screenshots / "pit-phone-zh-Hant.png"), full_page=True)
    phone.select_option("#lang-select", "en")  # leave the language as the other tests expect it
    player = new_page(*LAPTOP)
    sign_in(player, "ana")
    assert player.locator("#nav-pit").count() == 0
