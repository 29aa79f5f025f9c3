"""Cards: 52-card French decks, text form rank then suit (``AS``, ``TD``; ``10D`` read as ``TD``).

docs/rules.md §1. Cards are interned: ``Card.parse("AS") is Card.parse("AS")``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from croupier.errors import CardError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is one of ``A23456789TJQK``, ``suit`` one of ``SHDC``."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or len(self.rank) != 1:
            raise CardError(f"unknown card rank {self.rank!r}: ranks are {' '.join(RANKS)}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"unknown card suit {self.suit!r}: suits are S H D C")

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``AS``, ``td``, ``10D``; raise :class:`CardError` naming what was given."""
        if not isinstance(text, str):
            raise CardError(f"a card is a string such as 'AS', got {text!r}")
        key = text.strip().upper()
        card = _BY_TEXT.get(key)
        if card is None:
            raise CardError(f"unknown card {text!r}: a card is a rank A 2-9 T J Q K then a suit S H D C")
        return card

    @property
    def index(self) -> int:
        """0–51: suit-major position in a new deck (S A..K, H A..K, D …, C …)."""
        return SUITS.index(self.suit) * 13 + RANKS.index(self.rank)

    @property
    def rank_index(self) -> int:
        """0–12 for A, 2, …, 9, T, J, Q, K."""
        return RANKS.index(self.rank)

    def pretty(self) -> str:
        """``A♠``, ``10♦``: the form shown to people."""
        rank = "10" if self.rank == "T" else self.rank
        return f"{rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({self.rank + self.suit!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""One new deck, suit-major (spades A–K, hearts, diamonds, clubs)."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_BY_TEXT.update({"10" + card.suit: card for card in DECK if card.rank == "T"})


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse many cards; the error names the position of the first bad one."""
    cards = []
    for position, text in enumerate(texts):
        try:
            cards.append(Card.parse(text))
        except CardError as error:
            raise CardError(f"card {position + 1}: {error}") from None
    return cards


def new_shoe_order(decks: int) -> list[Card]:
    """``decks`` new decks one after another, before any shuffle."""
    return list(DECK) * decks
