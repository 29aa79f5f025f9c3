"""The records of a baccarat table: every change of :class:`~croupier.baccarat.state.BaccaratTable` is
one of these frozen operations, appended to :attr:`~croupier.baccarat.state.BaccaratTable.operations`.

Kept apart from the state machine so that a reader (a server, a replay, a simulator) can import the
vocabulary without the machine; :mod:`croupier.baccarat.state` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from croupier.baccarat.rules import Spot
from croupier.baccarat.settle import BetSettlement, CoupCards, net_by_player
from croupier.baccarat.tableau import Side
from croupier.cards import Card


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    """A shoe is put in play: shuffled, stacked, or live (cards to come from a reader)."""

    cards: int
    cut_card: int | None
    live: bool


@dataclass(frozen=True, slots=True)
class FirstCardTurned:
    """Art. 2.1: the first card is turned face up and discarded; ``burns`` more follow (its value)."""

    card: Card
    burns: int


@dataclass(frozen=True, slots=True)
class CardBurned:
    """A card set aside face down: at the shoe's start (Art. 2.1) or before a coup (Art. 8)."""

    card: Card
    when: Literal["shoe start", "coup"]


@dataclass(frozen=True, slots=True)
class BetPlaced:
    player: str
    spot: Spot
    amount: Decimal


@dataclass(frozen=True, slots=True)
class CoupStarted:
    """Betting closes and the coup begins (``demo``: a demonstration coup without bets, Art. 2.2)."""

    coup: int
    demo: bool


@dataclass(frozen=True, slots=True)
class SqueezeHolderNamed:
    """Art. 16.2: the seated player with the largest bet on a side handles its cards (``None``: the dealer)."""

    side: Side
    player: str | None


@dataclass(frozen=True, slots=True)
class CardDealt:
    side: Side
    card: Card


@dataclass(frozen=True, slots=True)
class CutCardOut:
    """The cut card has come out, during coup ``coup`` (Art. 3.1 counts from that coup)."""

    coup: int


@dataclass(frozen=True, slots=True)
class CoupVoided:
    """Art. 10: a misdeal that cannot be corrected; the cards are discarded, the bets stand."""

    coup: int
    cards: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CoupResult:
    """A settled coup: its cards, each stake's settlement, and whether the shoe ends with it."""

    coup: int
    demo: bool
    cards: CoupCards
    settlements: tuple[BetSettlement, ...]
    last_coup: bool

    @property
    def net(self) -> dict[str, Decimal]:
        return net_by_player(self.settlements)


@dataclass(frozen=True, slots=True)
class CoupSettled:
    result: CoupResult


Operation = (
    ShoeLoaded
    | FirstCardTurned
    | CardBurned
    | BetPlaced
    | CoupStarted
    | SqueezeHolderNamed
    | CardDealt
    | CutCardOut
    | CoupVoided
    | CoupSettled
)
