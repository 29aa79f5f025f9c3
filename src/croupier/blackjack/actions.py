"""The recorded operations of a blackjack round, and the requests a round waits on.

Every change of a :class:`~croupier.blackjack.state.Round` is one of these frozen records, appended
to ``Round.operations`` in order. Replaying the same operations on the same shoe gives the same
round.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from croupier.blackjack import moves
from croupier.cards import Card
from croupier.pending import AwaitBets as AwaitBets
from croupier.pending import AwaitCard as AwaitCard
from croupier.pending import AwaitChore as AwaitChore


class Automation(StrEnum):
    """The chores a round performs by itself unless the caller takes them over (``Round(automations=)``).
    Each member is its name as text (``"burn"``), so a set of names serves as well; the baccarat table's
    :class:`~croupier.baccarat.phases.Automation` has the same shape."""

    BURNING = "burn"
    DEALING = "deal"
    DEALER_PLAY = "dealer_play"
    SETTLING = "settle"


@dataclass(frozen=True, slots=True)
class BetPlaced:
    player: str
    box: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class BetReturned:
    """Art. 2.3, judged when betting closes: a bet on a box whose occupant did not bet is returned,
    never played; it nets 0. ``reason`` names the rule."""

    player: str
    box: int
    amount: Decimal
    reason: str


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: Card


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card to a box's hand, or to the dealer (``box`` 0); ``face_up`` false for a hole card."""

    card: Card
    box: int
    hand: int
    face_up: bool = True


FACE_UP = "found face up in the shoe (Art. 2.1)"


@dataclass(frozen=True, slots=True)
class CardVoided:
    """A void card, set aside and never dealt to a hand: found face up in the shoe (Art. 2.1), or
    drawn by the dealer by mistake (Art. 2.1, 3.2a); ``reason`` says which."""

    card: Card
    reason: str = FACE_UP


@dataclass(frozen=True, slots=True)
class CardMoved:
    """Art. 2.1: a card the dealer placed at the wrong box (``from_box``, where known) was given to the
    box it was dealt to (``to_box``, 0 the dealer; its ``hand``). The engine had dealt it there."""

    card: Card
    to_box: int
    hand: int
    from_box: int | None = None
    reason: str = "placed at the wrong box (Art. 2.1)"


@dataclass(frozen=True, slots=True)
class HoleCardTurned:
    card: Card


@dataclass(frozen=True, slots=True)
class CutCardOut:
    """The cut card came out: this round is the shoe's last (Art. 2.2; online §3.2.2)."""


@dataclass(frozen=True, slots=True)
class InsuranceTaken:
    player: str
    box: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class EvenMoneyTaken:
    player: str
    box: int


@dataclass(frozen=True, slots=True)
class InsuranceClosed:
    """No more insurance or even money: the first play decision, or the offer's timer."""


@dataclass(frozen=True, slots=True)
class DealerPeeked:
    """The dealer checked the hole card for a natural (online §3.8)."""

    natural: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's play decision: ``hit``, ``stand``, ``double``, ``split`` or ``surrender``.

    ``declined_by``: on a double or a split, the box's other bettors who did not add a matching stake
    (Art. 13), sorted.
    """

    kind: str
    box: int
    hand: int
    player: str
    amount: Decimal | None = None
    declined_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandStood:
    """The engine stood a hand: 21 (online §4.4), a split ace's one card, a double's one card."""

    box: int
    hand: int
    reason: str


@dataclass(frozen=True, slots=True)
class DealerStood:
    total: int


@dataclass(frozen=True, slots=True)
class Payment:
    """One settlement of one bettor's stake: ``amount`` is the bettor's gain (+) or loss (−).

    ``kind``: ``win``, ``lose``, ``push``, ``blackjack``, ``bust``, ``surrender``, ``bonus``,
    ``even_money``, ``insurance_won``, ``insurance_lost``; ``hand`` is ``None`` for insurance.
    """

    player: str
    box: int
    hand: int | None
    kind: str
    stake: Decimal
    amount: Decimal


@dataclass(frozen=True, slots=True)
class RoundEnded:
    last_round: bool


@dataclass(frozen=True, slots=True)
class RoundVoided:
    """Art. 2.1: a misdeal that cannot be corrected voids every card; bets stand for the replay."""

    reason: str


Operation = (
    BetPlaced
    | BetReturned
    | CardBurned
    | CardDealt
    | CardVoided
    | CardMoved
    | HoleCardTurned
    | CutCardOut
    | InsuranceTaken
    | EvenMoneyTaken
    | InsuranceClosed
    | DealerPeeked
    | Decision
    | HandStood
    | DealerStood
    | Payment
    | RoundEnded
    | RoundVoided
)


# What a round waits for: the shared records (croupier.pending) and the round's own ---------------


@dataclass(frozen=True, slots=True)
class AwaitInsurance:
    """Insurance (and even money) are offered; any play decision or :meth:`close_insurance` ends it."""


@dataclass(frozen=True, slots=True)
class AwaitDecision:
    box: int
    hand: int
    player: str


Pending = AwaitBets | AwaitCard | AwaitChore | AwaitInsurance | AwaitDecision | None


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action open now. Amounts bound what may be staked (``min_amount``..``max_amount``)."""

    kind: str
    box: int
    hand: int | None = None
    player: str | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None

    @property
    def is_player_action(self) -> bool:
        """A player's action (or closing insurance), not a chore, a card, a bet or the deal."""
        return self.kind in moves.KINDS

    @property
    def type(self) -> type[moves.Action] | None:
        """The type of this entry's typed action (:mod:`croupier.blackjack.moves`); None for a chore, a
        card, a bet or the deal."""
        return moves.type_of(self.kind) if self.is_player_action else None

    def action(self, amount: Decimal | None = None) -> moves.Action:
        """This entry as a typed action for :meth:`Round.apply`. ``amount``: for a double (None: the
        full bet) or insurance (None: the most offered, ``max_amount``)."""
        if not self.is_player_action:
            raise ValueError(f"{self.kind} is not a player action; they are {', '.join(moves.KINDS)}")
        if amount is None and moves.type_of(self.kind) is moves.Insure:
            amount = self.max_amount
        return moves.parse(self.kind, box=self.box, hand=self.hand, player=self.player, amount=amount)


def describe_pending(pending: Pending) -> str:
    """What a round waits for, in words."""
    if pending is None:
        return "nothing: the round is over"
    if isinstance(pending, AwaitBets):
        return "bets"
    if isinstance(pending, AwaitInsurance):
        return "insurance decisions"
    if isinstance(pending, AwaitCard):
        return f"the next card ({pending.purpose})"
    if isinstance(pending, AwaitChore):
        return f"the chore {pending.chore.replace('_', ' ')}"
    return f"a decision on box {pending.box} hand {pending.hand} by {pending.player}"
