"""The one place a table's game picks its rules, its engine driver and its game-specific procedures:
everything else asks :func:`game_of` (or :func:`table_rules`, :func:`driver_for`), never the game's name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from croupier.server import ledger, liveshoe
from croupier.server.baccarat_round import BaccaratDriver
from croupier.server.games import BlackjackDriver

if TYPE_CHECKING:
    from croupier.server.actor import TableActor
    from croupier.server.models import GameTable


def _blackjack_rules(preset: str, overrides: dict[str, Any]) -> Any:
    from croupier.blackjack.presets import blackjack_rules

    return blackjack_rules(preset, overrides)


def _baccarat_rules(preset: str, overrides: dict[str, Any]) -> Any:
    from croupier.baccarat.presets import baccarat_rules

    return baccarat_rules(preset, overrides)


@dataclass(frozen=True)
class Game:
    """A game as the server runs it."""

    rules: Callable[[str, dict[str, Any]], Any]
    """The rules of a preset with overrides (a preset or value not allowed is a ``RulesError``)."""
    driver: Callable[[Any], BlackjackDriver | BaccaratDriver]
    """The engine driver that deals the game's rounds under those rules."""
    misdeal: Callable[[TableActor, Any], Awaitable[dict[str, Any]]]
    """A misdeal the supervisor approved: blackjack Art. 2.1 (online §3.5), baccarat Art. 10."""
    before_round: Callable[[Any, GameTable], None]
    """The table's settings the driver takes before each round."""
    shared_boxes: bool
    """Whether others bet on a player's box and match its doubles and splits (blackjack Art. 13)."""


def _blackjack_before_round(driver: BlackjackDriver, row: GameTable) -> None:
    """Online §2.5.1: insurance rounded to the table's chip, where the table says so."""
    driver.insurance_chip = ledger.from_minor(row.chip) if row.insurance_to_chip else None


def _nothing_before_round(_driver: BaccaratDriver, _row: GameTable) -> None:
    return None


GAMES: dict[str, Game] = {
    "blackjack": Game(
        _blackjack_rules, BlackjackDriver, liveshoe.blackjack_misdeal, _blackjack_before_round, shared_boxes=True
    ),
    "baccarat": Game(
        _baccarat_rules, BaccaratDriver, liveshoe.baccarat_misdeal, _nothing_before_round, shared_boxes=False
    ),
}


def game_of(name: str) -> Game:
    game = GAMES.get(name)
    if game is None:
        raise ValueError(f"game {name!r}: the games are {', '.join(GAMES)}")
    return game


def table_rules(row: GameTable) -> Any:
    """A table's rules: its game's preset, its overrides and its limits."""
    overrides = dict(row.overrides)
    overrides["min_bet"] = ledger.money_text(row.min_bet)
    overrides["max_bet"] = ledger.money_text(row.max_bet)
    return game_of(row.game).rules(row.preset, overrides)


def driver_for(game: str, rules: Any) -> BlackjackDriver | BaccaratDriver:
    """A fresh engine driver for ``game`` under ``rules`` (a new table, a new shoe, after a fault)."""
    return game_of(game).driver(rules)
