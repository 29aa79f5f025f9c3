"""The lobby: each baccarat table's shoe so far (statistics and bead plate), seats taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pages import sign_in


def test_the_lobby_shows_each_baccarat_shoes_statistics(new_page: Any, screenshots: Path) -> None:
    for size, name in (((1366, 900), "laptop"), ((390, 844), "phone")):
        page = new_page(*size)
        sign_in(page, "ben")
        page.wait_for_selector(".table-card[data-table='4'] .shoe-stats")
        assert "coup" in page.inner_text(".table-card[data-table='4'] .shoe-stats")
        assert page.locator(".table-card[data-game='blackjack'] .shoe-stats").count() == 0
        page.screenshot(path=str(screenshots / f"lobby-{name}.png"), full_page=True)
