"""The drawing rules of baccarat as data (Art. 5, 7, 9, 11, 12; docs/rules.md §4).

Values (Art. 5): A = 1, 2-9 face value, T/J/Q/K = 0; a total is the sum modulo 10. A two-card 8 or 9
on either side is a natural and both sides stand (Art. 9). Otherwise the player draws on 0-5 and
stands on 6-7 (Art. 9.1-9.2); the banker follows :data:`BANKER_DRAWS_AFTER_PLAYER_THIRD` when the
player drew, and :data:`BANKER_DRAWS_WHEN_PLAYER_STOOD` when not (Art. 9.3-9.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from croupier.cards import Card

Side = Literal["player", "banker"]
Winner = Literal["player", "banker", "tie"]

CARD_VALUES: Mapping[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 0,
    "J": 0,
    "Q": 0,
    "K": 0,
}
"""Art. 5: the point value of each rank."""

NATURALS = frozenset({8, 9})
"""Art. 9: a two-card 8 or 9 is a natural; both sides stand."""

PLAYER_DRAWS = frozenset({0, 1, 2, 3, 4, 5})
"""Art. 9.1-9.2: the player draws on two-card 0-5 and stands on 6-7."""

BANKER_DRAWS_WHEN_PLAYER_STOOD = frozenset({0, 1, 2, 3, 4, 5})
"""Art. 9.3(6), 9.4(4): when the player took no third card, the banker draws on 0-5, stands on 6-7."""

_ANY = frozenset(range(10))
BANKER_DRAWS_AFTER_PLAYER_THIRD: Mapping[int, frozenset[int]] = {
    0: _ANY,  # Art. 9.3(1)
    1: _ANY,
    2: _ANY,
    3: _ANY - {8},  # Art. 9.3(2), 9.4(1)
    4: frozenset({2, 3, 4, 5, 6, 7}),  # Art. 9.3(3), 9.4(2)
    5: frozenset({4, 5, 6, 7}),  # Art. 9.3(4), 9.4(3)
    6: frozenset({6, 7}),  # Art. 9.3(5), 9.4(4)
    7: frozenset(),  # Art. 9.4(5)
}
"""Art. 9.3-9.4: banker two-card total -> the values of the player's third card on which the banker draws."""


def card_value(card: Card) -> int:
    """Art. 5: A = 1, 2-9 face value, T/J/Q/K = 0."""
    return CARD_VALUES[card.rank]


def total(cards: Sequence[Card]) -> int:
    """Art. 5: the sum of the values modulo 10."""
    return sum(CARD_VALUES[card.rank] for card in cards) % 10


def is_natural(cards: Sequence[Card]) -> bool:
    """Art. 9: a two-card 8 or 9."""
    return len(cards) == 2 and total(cards) in NATURALS


def is_pair(cards: Sequence[Card]) -> bool:
    """Art. 13(4): the first two cards of a side have the same rank (J-J yes, J-Q no)."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def player_draws(player_total: int) -> bool:
    """Art. 9.1-9.2: with no natural on the table, the player draws on 0-5."""
    return player_total in PLAYER_DRAWS


def banker_draws(banker_total: int, player_third: Card | None) -> bool:
    """Art. 9.3-9.4: with no natural on the table, does the banker take a third card?"""
    if player_third is None:
        return banker_total in BANKER_DRAWS_WHEN_PLAYER_STOOD
    return card_value(player_third) in BANKER_DRAWS_AFTER_PLAYER_THIRD.get(banker_total, frozenset())


def next_side(player_cards: Sequence[Card], banker_cards: Sequence[Card]) -> Side | None:
    """The side that takes the next card, or ``None`` when the coup's cards are complete.

    Art. 7: player, banker, player, banker, one card at a time; then Art. 9 decides the third cards,
    the player's first.
    """
    dealt = len(player_cards) + len(banker_cards)
    if dealt < 4:
        return "player" if dealt % 2 == 0 else "banker"
    if is_natural(player_cards) or is_natural(banker_cards):
        return None
    if len(player_cards) == 2 and len(banker_cards) == 2 and player_draws(total(player_cards)):
        return "player"
    if len(banker_cards) == 2:
        player_third = player_cards[2] if len(player_cards) == 3 else None
        if banker_draws(total(banker_cards), player_third):
            return "banker"
    return None


def winner(player_total: int, banker_total: int) -> Winner:
    """Art. 11-12: the higher total wins; equal totals are a tie."""
    if player_total > banker_total:
        return "player"
    if banker_total > player_total:
        return "banker"
    return "tie"


def dealing_order(player: Iterable[Card], banker: Iterable[Card]) -> list[Card]:
    """Cards in the order dealt (Art. 7): P, B, P, B, then the third cards, the player's first."""
    player_cards, banker_cards = list(player), list(banker)
    order: list[Card] = []
    for i in range(max(len(player_cards), len(banker_cards))):
        order.extend(player_cards[i : i + 1])
        order.extend(banker_cards[i : i + 1])
    return order
