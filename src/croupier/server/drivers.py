"""The one place a table's game picks its rules, its engine driver and its game-specific settings:
everything else asks :func:`game_of` (or :func:`table_rules`, :func:`driver_for`), never the game's name.
What differs from game to game while a round is played (a misdeal, the cut card, a card moved) is the
round's own (:class:`~croupier.server.game_round.GameRound`): no other module names a game's classes.

This module loads no database or web stack (the ledger and the live shoe's procedures are imported when
a table runs them): ``croupier verify`` reads a shoe's game here and needs no server extra.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from croupier.server.baccarat_round import FACE_UP_CARD_STAYS, VOID_CARD_REFUSED, BaccaratDriver, baccarat_cut_setting
from croupier.server.games import BlackjackDriver

if TYPE_CHECKING:
    from croupier.server.models import GameTable

CutSetting = tuple[int, int] | int | None
"""Where a shoe's cut card goes (:func:`croupier.shoe.place_cut_card`): a range, a count, or none."""


@dataclass(frozen=True)
class Game:
    """A game as the server runs it."""

    rules: Callable[[str, dict[str, Any]], Any]
    """The rules of a preset with overrides (a preset or value not allowed is a ``RulesError``)."""
    driver: Callable[[Any], BlackjackDriver | BaccaratDriver]
    """The engine driver that deals the game's rounds under those rules."""
    before_round: Callable[[Any, GameTable], None]
    """The table's settings the driver takes before each round."""
    shared_boxes: bool
    """Whether a bet's spot is a box that others bet on behind its occupant, matching its doubles and
    splits, and a bet on an empty box seats its player (blackjack Art. 2.3, 13); otherwise a bet names a
    spot of the layout and, at a seat, that seat (baccarat Art. 15)."""
    default_preset: str
    """The preset a new table gets when none is named."""
    cut_setting: Callable[[Any], CutSetting]
    """Where the table's shoes put the cut card under these rules, as the server builds them."""
    rule_overrides: Callable[[Any], dict[str, str]]
    """The parameters in which rules differ from their preset, as a transcript writes them."""
    bets_by_spot: Callable[[Mapping[str, Any]], dict[str, dict[str, str]]]
    """A round's bets, by spot (blackjack: by box) and player, from the round's staff view."""
    face_up_card_refusal: str | None
    """Why a card found face up in the shoe is not voided, where the game keeps it (None: it is void)."""
    void_card_refusal: str | None
    """Why one card the dealer drew by mistake is not voided, where the game voids the whole deal instead
    (None: the card is void, Art. 3.2a)."""
    boxes: Callable[[Any], int | None]
    """The boxes of the layout under these rules, as the lobby shows them (None: the game has no boxes)."""


def _blackjack_rules(preset: str, overrides: dict[str, Any]) -> Any:
    from croupier.blackjack.presets import blackjack_rules

    return blackjack_rules(preset, overrides)


def _baccarat_rules(preset: str, overrides: dict[str, Any]) -> Any:
    from croupier.baccarat.presets import baccarat_rules

    return baccarat_rules(preset, overrides)


def _blackjack_before_round(driver: BlackjackDriver, row: GameTable) -> None:
    """Online §2.5.1: insurance rounded to the table's chip, where the table says so."""
    from croupier.server import ledger

    driver.insurance_chip = ledger.from_minor(row.chip) if row.insurance_to_chip else None


def _nothing_before_round(_driver: BaccaratDriver, _row: GameTable) -> None:
    return None


def _blackjack_cut_setting(rules: Any) -> CutSetting:
    setting: CutSetting = rules.cut_card
    return setting


def _blackjack_overrides(rules: Any) -> dict[str, str]:
    from croupier.blackjack.replay import overrides_of

    return overrides_of(rules)


def _baccarat_overrides(rules: Any) -> dict[str, str]:
    from croupier.baccarat.presets import PRESETS

    base = PRESETS[rules.preset].describe()
    return {name: value for name, value in rules.describe().items() if base.get(name) != value}


def _boxes_of(rules: Any) -> int | None:
    boxes: int = rules.boxes
    return boxes


def _no_boxes(_rules: Any) -> int | None:
    return None


def _bets_by_box(round_: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    return {str(box["box"]): dict(box.get("bets") or {}) for box in round_.get("boxes", [])}


def _bets_by_layout_spot(round_: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    return dict(round_.get("bets") or {})


GAMES: dict[str, Game] = {
    "blackjack": Game(
        _blackjack_rules,
        BlackjackDriver,
        _blackjack_before_round,
        shared_boxes=True,
        default_preset="macau-1983",
        cut_setting=_blackjack_cut_setting,
        rule_overrides=_blackjack_overrides,
        bets_by_spot=_bets_by_box,
        face_up_card_refusal=None,
        void_card_refusal=None,
        boxes=_boxes_of,
    ),
    "baccarat": Game(
        _baccarat_rules,
        BaccaratDriver,
        _nothing_before_round,
        shared_boxes=False,
        default_preset="macau",
        cut_setting=baccarat_cut_setting,
        rule_overrides=_baccarat_overrides,
        bets_by_spot=_bets_by_layout_spot,
        face_up_card_refusal=FACE_UP_CARD_STAYS,
        void_card_refusal=VOID_CARD_REFUSED,
        boxes=_no_boxes,
    ),
}


def game_of(name: str) -> Game:
    game = GAMES.get(name)
    if game is None:
        raise ValueError(f"game {name!r}: the games are {', '.join(GAMES)}")
    return game


def table_rules(row: GameTable) -> Any:
    """A table's rules: its game's preset, its overrides and its limits."""
    from croupier.server import ledger

    overrides = dict(row.overrides)
    overrides["min_bet"] = ledger.money_text(row.min_bet)
    overrides["max_bet"] = ledger.money_text(row.max_bet)
    return game_of(row.game).rules(row.preset, overrides)


def driver_for(game: str, rules: Any) -> BlackjackDriver | BaccaratDriver:
    """A fresh engine driver for ``game`` under ``rules`` (a new table, a new shoe, after a fault)."""
    return game_of(game).driver(rules)
