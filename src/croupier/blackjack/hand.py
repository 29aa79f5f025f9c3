"""Blackjack hands: cards, totals and the stakes that ride on them (docs/rules.md §2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from croupier.cards import Card

POINTS: dict[str, int] = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}
"""Art. 4; online §1.6: 2–9 face value, T/J/Q/K ten, A one (or eleven, see :func:`total`)."""


def total(cards: Sequence[Card]) -> tuple[int, bool]:
    """The best total and whether it is soft (an ace counted as 11) (Art. 4)."""
    points = 0
    ace = False
    for card in cards:
        value = POINTS[card.rank]
        points += value
        if value == 1:
            ace = True
    if ace and points <= 11:
        return points + 10, True
    return points, False


def is_natural(cards: Sequence[Card]) -> bool:
    """An ace and a ten-value card as the first two cards (Art. 6)."""
    return (
        len(cards) == 2
        and POINTS[cards[0].rank] + POINTS[cards[1].rank] == 11
        and (cards[0].rank == "A" or cards[1].rank == "A")
    )


def is_678_suited(cards: Sequence[Card]) -> bool:
    """Art. 9: exactly three cards 6, 7, 8 of one suit."""
    return (
        len(cards) == 3
        and sorted(card.rank for card in cards) == ["6", "7", "8"]
        and len({card.suit for card in cards}) == 1
    )


def is_777(cards: Sequence[Card]) -> bool:
    """Art. 9: exactly three sevens, any suits."""
    return len(cards) == 3 and all(card.rank == "7" for card in cards)


@dataclass
class Hand:
    """One hand of a box: its cards and each bettor's stake on it.

    ``settled`` holds the bettors whose stake on this hand is already paid or taken (a bust, a
    surrender, a bonus, even money); ``outcome`` is the hand's result once known.
    """

    cards: list[Card]
    stakes: dict[str, Decimal]
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    done: bool = False
    outcome: str | None = None
    settled: set[str] = field(default_factory=set)
    results: dict[str, str] = field(default_factory=dict)
    _points: int = field(default=0, init=False, repr=False)
    _ace: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        self._count()

    def _count(self) -> None:
        self._points = sum(POINTS[card.rank] for card in self.cards)
        self._ace = any(card.rank == "A" for card in self.cards)

    def add(self, card: Card) -> None:
        """A card to this hand (the engine's only way to change ``cards``)."""
        self.cards.append(card)
        self._points += POINTS[card.rank]
        self._ace = self._ace or card.rank == "A"

    def split_off(self) -> Card:
        """Take the second card away for a new split hand."""
        card = self.cards.pop()
        self._count()
        return card

    @property
    def total(self) -> int:
        """The best total (Art. 4), kept as cards are added."""
        points = self._points
        return points + 10 if self._ace and points <= 11 else points

    @property
    def soft(self) -> bool:
        return self._ace and self._points <= 11

    @property
    def natural(self) -> bool:
        """Art. 6: a 21 on a split hand is not a blackjack."""
        return not self.from_split and len(self.cards) == 2 and self._ace and self._points == 11

    @property
    def busted(self) -> bool:
        return self.total > 21

    @property
    def open_bettors(self) -> list[str]:
        """Bettors whose stake on this hand still waits for the dealer."""
        return [player for player in self.stakes if player not in self.settled]

    def pair(self) -> bool:
        """Two first cards of equal value (Art. 10; online "分牌": Q-K splits)."""
        return len(self.cards) == 2 and POINTS[self.cards[0].rank] == POINTS[self.cards[1].rank]
