"""drivers.GAMES: the one place a game picks its rules, its engine driver and its procedures."""

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from croupier.server import drivers, liveshoe
from croupier.server.baccarat_round import BaccaratDriver
from croupier.server.games import BlackjackDriver


def row(game: str, preset: str, **fields: Any) -> Any:
    return SimpleNamespace(game=game, preset=preset, overrides={}, min_bet=1000, max_bet=100000, chip=100, **fields)


def test_each_game_has_its_rules_driver_and_misdeal() -> None:
    blackjack = drivers.table_rules(row("blackjack", "live-online"))
    baccarat = drivers.table_rules(row("baccarat", "macau"))
    assert blackjack.burn_after_misdeal == 3 and blackjack.min_bet == Decimal(10)
    assert isinstance(drivers.driver_for("blackjack", blackjack), BlackjackDriver)
    assert isinstance(drivers.driver_for("baccarat", baccarat), BaccaratDriver)
    assert drivers.game_of("blackjack").misdeal is liveshoe.blackjack_misdeal
    assert drivers.game_of("baccarat").misdeal is liveshoe.baccarat_misdeal
    assert drivers.game_of("blackjack").shared_boxes and not drivers.game_of("baccarat").shared_boxes


def test_an_unknown_game_is_refused_naming_the_games() -> None:
    with pytest.raises(ValueError, match="game 'poker': the games are blackjack, baccarat"):
        drivers.table_rules(row("poker", "macau"))


def test_a_blackjack_table_sets_its_insurance_chip_before_each_round() -> None:
    driver = drivers.driver_for("blackjack", drivers.table_rules(row("blackjack", "live-online")))
    drivers.game_of("blackjack").before_round(driver, row("blackjack", "live-online", insurance_to_chip=True))
    assert driver.insurance_chip == Decimal(1)
    drivers.game_of("blackjack").before_round(driver, row("blackjack", "live-online", insurance_to_chip=False))
    assert driver.insurance_chip is None
