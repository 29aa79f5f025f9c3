"""The records of a baccarat table: every change of :class:`~croupier.baccarat.state.BaccaratTable` is
one of these frozen operations, appended to :attr:`~croupier.baccarat.state.BaccaratTable.operations`.

Kept apart from the state machine so that a reader (a server, a replay, a simulator) can import the
vocabulary without the machine; :mod:`croupier.baccarat.state` re-exports every name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from croupier.baccarat.rules import Spot
from croupier.baccarat.settle import BetSettlement, CoupCards, net_by_player
from croupier.baccarat.tableau import Side
from croupier.cards import Card
from croupier.money import ZERO


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
    """A bet; ``seat``: the seat whose spot it lies on (the one the bet named, else the bettor's own; Art. 15),
    ``None`` where it names none and the bettor is not seated."""

    player: str
    spot: Spot
    amount: Decimal
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player takes a seat (Art. 15: its spot is reserved for them; Art. 16: the squeeze counts them)."""

    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerLeftSeat:
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class BetCarried:
    """Art. 18 (``tie_bets = increase_only``): a player or banker bet that stood on a tie stays on its spot
    for the next coup, where its bettor may add to it but never take it back or reduce it.

    Recorded right after the tie's :class:`CoupSettled`, as the next coup's betting opens: the stake is
    then part of :attr:`~croupier.baccarat.state.BaccaratTable.stakes` (and of
    :attr:`~croupier.baccarat.state.BaccaratTable.carried_bets`) without being placed again.
    """

    player: str
    spot: Spot
    amount: Decimal


@dataclass(frozen=True, slots=True)
class BetReturned:
    """A stake handed back without being settled, and why (a bet standing after a tie when the shoe ends)."""

    player: str
    spot: Spot
    amount: Decimal
    reason: str


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
class CardMoved:
    """Art. 10, a misdeal corrected: ``card``, which the engine dealt to ``side`` in coup ``coup`` as the tableau
    calls for (Art. 7, 9), was put on the other side of the layout by the dealer and is moved back to ``side``.

    The engine's own state never holds a card on the wrong side (it assigns every card as it is drawn), so
    the correction changes nothing but the record: the layout is made to match the deal.
    """

    coup: int
    card: Card
    side: Side


@dataclass(frozen=True, slots=True)
class ShoeEnded:
    """The shoe is taken out of play before its last coup (Art. 3.2: after any coup; or after a void, Art. 10);
    every stake still on the layout is returned (:class:`BetReturned`)."""

    coup: int
    reason: str


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
        """Each bettor's gain over the coup (0 for a stake that stands for the next coup: it is settled there)."""
        return net_by_player(self.settlements)

    @property
    def staked(self) -> dict[str, Decimal]:
        """Each bettor's stakes in this coup, those carried onto it from a tie included."""
        return _by_player((s.player, s.stake) for s in self.settlements)

    @property
    def returned(self) -> dict[str, Decimal]:
        """What goes back to each bettor now: ``staked + net - carried``."""
        return _by_player((s.player, s.returned) for s in self.settlements)

    @property
    def carried(self) -> dict[str, Decimal]:
        """Each bettor's stakes that stay on the table for the next coup (Art. 18, ``increase_only``), if any."""
        return _by_player((s.player, s.carried) for s in self.settlements if s.outcome == "stand")


@dataclass(frozen=True, slots=True)
class CoupSettled:
    result: CoupResult


Operation = (
    ShoeLoaded
    | FirstCardTurned
    | CardBurned
    | BetPlaced
    | PlayerSeated
    | PlayerLeftSeat
    | BetCarried
    | BetReturned
    | CoupStarted
    | SqueezeHolderNamed
    | CardDealt
    | CutCardOut
    | CardMoved
    | ShoeEnded
    | CoupVoided
    | CoupSettled
)


def _by_player(amounts: Iterable[tuple[str, Decimal]]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    for player, amount in amounts:
        totals[player] = totals.get(player, ZERO) + amount
    return totals
