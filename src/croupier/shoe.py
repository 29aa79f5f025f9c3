"""Shoes and card sources (docs/rules.md §1).

A :class:`Shoe` holds ``decks × 52`` cards in one order, drawn from the top, with a cut card
``cut_card`` cards from the top. The order comes from a card source:

* :meth:`Shoe.shuffled`: a Fisher–Yates shuffle over a :class:`~croupier.rng.RandomSource` (the OS
  CSPRNG by default, a provably-fair or seeded stream where asked);
* :meth:`Shoe.stacked`: an order given in full or in part (transcripts, disputes, tests);
* :meth:`Shoe.live`: cards arrive one at a time from outside (a dealer's card reader) through
  :meth:`Shoe.supply`; the engine waits while none is there.

The cut card comes out with the draw of the card at 0-based position ``cut_card``, whether that
draw is a burn or a deal (docs/transcript.md); the game's rule decides what follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from croupier.cards import DECK, Card, new_shoe_order
from croupier.errors import RulesError, ShoeError
from croupier.rng import RandomSource, SystemRandom, fisher_yates


class Shoe:
    """Cards in one order, drawn from the top; see the module docstring."""

    def __init__(self, decks: int, cards: Sequence[Card], cut_card: int | None, *, live: bool = False) -> None:
        if decks < 1:
            raise ShoeError(f"a shoe needs at least one deck, got {decks}")
        self.decks = decks
        self.is_live = live
        self.cut_card = cut_card
        self.cut_card_out = False
        self.position = 0
        self._cards: list[Card] = []
        self._copies: Counter[Card] = Counter()
        for card in cards:
            self._add(card)

    # construction -------------------------------------------------------------------------------
    @classmethod
    def shuffled(cls, decks: int, cut_card: int | None, source: RandomSource | None = None) -> Shoe:
        """A full shoe in Fisher–Yates order (the OS CSPRNG unless ``source`` is given)."""
        shoe = cls(decks, [], cut_card)
        shoe._cards = fisher_yates(new_shoe_order(decks), source or SystemRandom())
        shoe._copies = Counter(dict.fromkeys(DECK, decks))  # a permutation of full decks: known counts
        return shoe

    @classmethod
    def stacked(cls, decks: int, cards: Sequence[Card], cut_card: int | None = None) -> Shoe:
        """A shoe in a given order; it may stop short of ``decks × 52`` cards."""
        return cls(decks, cards, cut_card)

    @classmethod
    def live(cls, decks: int) -> Shoe:
        """A shoe whose cards are supplied one at a time (:meth:`supply`)."""
        return cls(decks, [], None, live=True)

    def _add(self, card: Card) -> None:
        if self._copies[card] >= self.decks:
            raise ShoeError(f"the shoe holds more copies of {card} than {self.decks} deck(s) contain ({self.decks})")
        if len(self._cards) >= self.decks * 52:
            raise ShoeError(f"the shoe already holds all {self.decks * 52} cards of {self.decks} deck(s)")
        self._copies[card] += 1
        self._cards.append(card)

    # drawing ------------------------------------------------------------------------------------
    def supply(self, card: Card) -> None:
        """Put the next card in a live shoe (a card reader's read)."""
        if not self.is_live:
            raise ShoeError("cards are supplied from outside only to a live shoe")
        self._add(card)

    def mark_cut_card(self) -> None:
        """A live dealer reports that the cut card has come out."""
        self.cut_card_out = True

    def can_draw(self) -> bool:
        return self.position < len(self._cards)

    def draw(self) -> Card:
        """The top card; marks the cut card out when the card at position ``cut_card`` is drawn."""
        if self.position >= len(self._cards):
            if self.is_live:
                raise ShoeError("no card has been supplied: the live shoe waits for the dealer's next card")
            raise ShoeError(f"the shoe has no card left: {self.position} card(s) drawn of {len(self._cards)} given")
        if self.position == self.cut_card:
            self.cut_card_out = True
        card = self._cards[self.position]
        self.position += 1
        return card

    @property
    def size(self) -> int:
        """Cards the shoe holds now (given so far, for a live shoe)."""
        return len(self._cards)

    @property
    def remaining(self) -> int:
        return len(self._cards) - self.position

    def drawn(self) -> list[Card]:
        return self._cards[: self.position]

    def remaining_cards(self) -> list[Card]:
        """The undrawn cards in order. For analysis and replay only; never sent to a client."""
        return self._cards[self.position :]


def parse_cut_card_range(raw: object) -> tuple[int, int] | int | None:
    """Read a cut-card setting: ``none``, an int (cards above it), or ``"A-B"`` cards from the end."""
    if raw is None or raw == "none":
        return None
    if isinstance(raw, bool):
        raise RulesError(f"cut_card: expected a card count or a range such as '20-30', got {raw!r}")
    if isinstance(raw, int):
        if raw < 0:
            raise RulesError(f"cut_card: a card count cannot be negative, got {raw}")
        return raw
    if isinstance(raw, tuple) and len(raw) == 2:
        low, high = raw
        if isinstance(low, int) and isinstance(high, int) and 0 <= low <= high:
            return (low, high)
    if isinstance(raw, str):
        text = raw.strip()
        if text.isdigit():
            return int(text)
        parts = text.split("-")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            low, high = int(parts[0]), int(parts[1])
            if low <= high:
                return (low, high)
    raise RulesError(
        f"cut_card: expected a count of cards above the cut card (an integer) or a range of cards "
        f"from the end of the shoe ('20-30'), got {raw!r}"
    )


def place_cut_card(setting: tuple[int, int] | int | None, total: int, source: RandomSource | None = None) -> int | None:
    """Where a shuffle puts the cut card: an int is used as is; a range from the end is drawn from."""
    if setting is None or isinstance(setting, int):
        return setting
    low, high = setting
    from_end = low + (source or SystemRandom()).randbelow(high - low + 1)
    return max(0, total - from_end)
