"""Helpers for the baccarat tests: rule sets, stacked shoes, coups with chosen cards."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from croupier import transcript
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import Rules, Spot
from croupier.baccarat.state import BaccaratTable, CoupResult
from croupier.cards import Card, parse_cards
from croupier.money import format_amount
from croupier.shoe import Shoe

RANK_OF_VALUE = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def rules(**overrides: object) -> Rules:
    return baccarat_rules("macau", overrides)


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def two_cards(total: int, suit: str = "S") -> list[str]:
    """Two cards of different ranks whose total is ``total`` (no pair, no accidental natural beyond it)."""
    if total == 0:
        return ["K" + suit, "T" + suit]
    return ["T" + suit, RANK_OF_VALUE[total] + suit]


def deal_order(player: Sequence[str], banker: Sequence[str]) -> list[str]:
    """The shoe order that deals these cards (Art. 7): P, B, P, B, then player's third, banker's third."""
    order = [player[0], banker[0], player[1], banker[1]]
    order += list(player[2:3]) + list(banker[2:3])
    return order


def fillers(count: int) -> list[str]:
    """``count`` cards for burns, never more than one copy of each."""
    pool = [rank + suit for suit in "HC" for rank in "23456789"]
    return pool[:count]


PREAMBLE = ["AH", "2H"]
"""A shoe start for ``burn = first_card_value``: an ace is turned, one card burned (Art. 2.1)."""


def table_for(order: Sequence[str], rule_set: Rules | None = None, cut_card: int | None = None) -> BaccaratTable:
    """A table over a stacked shoe whose first coup deals ``order`` after the default shoe-start burns."""
    rule_set = rule_set or rules()
    start = PREAMBLE if rule_set.burn == "first_card_value" and not rule_set.automatic_shuffler else []
    if isinstance(rule_set.burn, int):
        start = fillers(rule_set.burn)
    if rule_set.burn == "decks":
        start = fillers(rule_set.decks)
    shoe = Shoe.stacked(rule_set.decks, cards(" ".join([*start, *order])), cut_card)
    return BaccaratTable(rule_set, shoe)


def coup(
    player: Sequence[str],
    banker: Sequence[str],
    bets: Sequence[tuple[str, Spot, int | str]] = (),
    rule_set: Rules | None = None,
) -> CoupResult:
    """Deal one coup of exactly these cards with these bets and return its result."""
    table = table_for(deal_order(player, banker), rule_set)
    for player_name, spot, amount in bets:
        table.place_bet(player_name, spot, Decimal(amount))
    table.start_coup()
    result = table.results[-1]
    assert [str(c) for c in result.cards.player] == list(player)
    assert [str(c) for c in result.cards.banker] == list(banker)
    return result


def replay_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """Replay through the JSON loader, as ``croupier replay`` does."""
    return transcript.replay(transcript.load(json.dumps(doc)))


def baccarat_doc(shoe: Sequence[str], rounds: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"game": "baccarat", "rules": "macau", "shoe": list(shoe), "rounds": rounds, **extra}


def gains(result: CoupResult) -> dict[str, str]:
    return {player: format_amount(gain) for player, gain in result.net.items()}
