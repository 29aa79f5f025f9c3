"""The baccarat table as a state machine whose every change is a recorded, frozen operation.

Each operation has three faces, as in pokerkit: ``verify_x()`` raises a
:class:`~croupier.errors.CroupierError` that gives the reason, ``can_x()`` answers yes or no, and
``x()`` performs it and returns its record (also appended to :attr:`BaccaratTable.operations`).

The chores (loading a shuffled shoe, the burns, the deal, the settlement) are *automations*: left
to the engine by default, so a simulation runs on its own, or performed by the caller (a replay
that voids a coup, a dealer's console). With a live shoe (:meth:`~croupier.shoe.Shoe.live`) cards
arrive through :meth:`BaccaratTable.supply`; the engine waits while the shoe has no card.

The procedure (docs/rules.md §4): a shoe starts with its burns (Art. 2.1), up to ``demo_coups``
demonstration coups without bets (Art. 2.2), then coups: bets (Art. 13-15, 18), betting closes
(the squeeze holders are named, Art. 16), one burn from the second coup on where ``burn_each_coup``
(Art. 8), the deal and the tableau (Art. 7, 9), the settlement (Art. 11, 12, 17, 18). The coup in
which the cut card comes out is the last, or is followed by one more (Art. 3.1). A misdeal that
cannot be corrected voids the coup: its cards are discarded, the bets stand, the coup is dealt
again (Art. 10); a card the dealer put on the wrong side is corrected by moving it back to the side
the tableau dealt it to (``move_card``: a record, the engine's deal being right by construction).
A shoe may be ended between coups or instead of a redeal (``end_shoe``, Art. 3.2): the bets on the
layout are returned. With an automatic shuffler each coup is dealt from a fresh shuffle, with no cut
card and no burn (Art. 2.3, 7.2).

The table's vocabulary (:class:`Phase`, :class:`Automation`, :func:`shuffled_shoes`) and the shoe's end
are :mod:`croupier.baccarat.phases`; a bet against the limits and the squeeze holder,
:mod:`croupier.baccarat.betting`; the dealing order, :mod:`croupier.baccarat.tableau`. This module
re-exports what callers import from it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from decimal import Decimal
from typing import TypeVar

from croupier.baccarat import betting, tableau
from croupier.baccarat.moves import PlayerActions
from croupier.baccarat.phases import (
    ALL_AUTOMATIONS,
    Automation,
    Phase,
    ShoeSource,
    automations_of,
    is_last_coup,
    shoe_end_reason,
    shuffled_shoes,
    waiting,
)
from croupier.baccarat.records import (
    BetCarried,
    BetPlaced,
    BetReturned,
    CardBurned,
    CardDealt,
    CardMoved,
    CoupResult,
    CoupSettled,
    CoupStarted,
    CoupVoided,
    CutCardOut,
    FirstCardTurned,
    Operation,
    PlayerLeftSeat,
    PlayerSeated,
    ShoeEnded,
    ShoeLoaded,
    SqueezeHolderNamed,
)
from croupier.baccarat.rules import Rules, Spot
from croupier.baccarat.seats import DEFAULT_SEATS, Seats
from croupier.baccarat.settle import CoupCards, settle_stakes
from croupier.baccarat.tableau import Side
from croupier.cards import Card
from croupier.errors import BetError, CroupierError, IllegalActionError, ShoeError
from croupier.money import ZERO
from croupier.pending import Waiting
from croupier.shoe import Shoe

__all__ = [
    "ALL_AUTOMATIONS",
    "SIDES",
    "Automation",
    "BaccaratTable",
    "BetCarried",
    "BetPlaced",
    "BetReturned",
    "CardBurned",
    "CardDealt",
    "CardMoved",
    "CoupResult",
    "CoupSettled",
    "CoupStarted",
    "CoupVoided",
    "CutCardOut",
    "FirstCardTurned",
    "Operation",
    "Phase",
    "PlayerLeftSeat",
    "PlayerSeated",
    "ShoeEnded",
    "ShoeLoaded",
    "ShoeSource",
    "SqueezeHolderNamed",
    "shuffled_shoes",
]

OperationT = TypeVar("OperationT", bound=Operation)

SHOE_ENDED_AFTER_TIE = "the shoe ended with the bet standing after a tie (Art. 18)"
"""Why a bet carried under ``tie_bets = increase_only`` is handed back (docs/rules.md is silent; docs/baccarat.md)."""

SIDES: tuple[Side, ...] = ("player", "banker")


# --------------------------------------------------------------------------------------------------
# the table


class BaccaratTable(PlayerActions):
    """One baccarat table: its rule set, the shoe in play, the coup under way, and every record."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe | None = None,
        *,
        shoe_source: ShoeSource | None = None,
        automations: Collection[str] = ALL_AUTOMATIONS,
        seats: int = DEFAULT_SEATS,
    ) -> None:
        self.rules = rules
        self._seats = Seats(seats)
        self.automations = automations_of(automations)
        self.shoe_source = shoe_source
        self.shoe: Shoe | None = None
        self.phase = Phase.AWAITING_SHOE
        self._operations: list[Operation] = []
        self._results: list[CoupResult] = []
        self._shoe_start_burns = 0
        self._first_card_turned = False
        self._coup = 0
        self._demo_coups = 0
        self._betting_coups = 0
        self._demo = False
        self._coup_burns = 0
        self._cut_card_coup: int | None = None
        self._stakes: dict[tuple[str, Spot], Decimal] = {}
        self._standing: dict[tuple[str, Spot], Decimal] = {}
        self._carried: dict[tuple[str, Spot], Decimal] = {}
        self._player_cards: list[Card] = []
        self._banker_cards: list[Card] = []
        self._automating = False
        if shoe is not None:
            self.load_shoe(shoe)
        else:
            self._automate()

    # views --------------------------------------------------------------------------------------
    @property
    def pending(self) -> Waiting:
        """What the table waits for now (:func:`~croupier.baccarat.phases.waiting`)."""
        return waiting(self.phase, self.rules, self._first_card_turned, self._coup_burns, self.shoe)

    @property
    def operations(self) -> tuple[Operation, ...]:
        return tuple(self._operations)

    @property
    def operation_count(self) -> int:
        return len(self._operations)

    def operations_since(self, start: int) -> tuple[Operation, ...]:
        return tuple(self._operations[start:])

    @property
    def results(self) -> tuple[CoupResult, ...]:
        return tuple(self._results)

    @property
    def last_result(self) -> CoupResult | None:
        """The latest settled coup, if any."""
        return self._results[-1] if self._results else None

    @property
    def coup(self) -> int:
        """Coups begun in this shoe (demonstration coups included); the one under way while dealing."""
        return self._coup

    @property
    def stakes(self) -> dict[tuple[str, Spot], Decimal]:
        """Each player's stake on each spot for the coming or current coup, in the order first bet (a stake carried
        from a tie, :attr:`carried_bets`, included)."""
        return dict(self._stakes)

    @property
    def standing_bets(self) -> dict[tuple[str, Spot], Decimal]:
        """Under ``tie_bets = push``: the player and banker stakes of the last coup, if it was a tie. They were
        returned (Art. 12: the bettor may take them back, keep them by betting them again, or change them).

        Under ``increase_only`` this is empty: those bets were not returned but carried (:attr:`carried_bets`).
        """
        return dict(self._standing)

    @property
    def carried_bets(self) -> dict[tuple[str, Spot], Decimal]:
        """The player and banker stakes that stood on the last coup's tie and stay on their spots for the coming
        coup (Art. 18, ``tie_bets = increase_only``): already part of :attr:`stakes`, each recorded as a
        :class:`BetCarried`. Their bettors may add to them (:meth:`place_bet` on the same spot adds up) but never
        take them back or reduce them: the engine has no operation that would."""
        return dict(self._carried)

    @property
    def seats(self) -> int:
        """How many seats the table has (Art. 1(5): seven or more; 7 by default)."""
        return self._seats.count

    @property
    def seated(self) -> dict[int, str]:
        """Each occupied seat and its player (Art. 15, 16)."""
        return self._seats.occupied

    @property
    def player_cards(self) -> tuple[Card, ...]:
        return tuple(self._player_cards)

    @property
    def banker_cards(self) -> tuple[Card, ...]:
        return tuple(self._banker_cards)

    @property
    def cut_card_coup(self) -> int | None:
        """The coup during which the cut card came out, if it has."""
        return self._cut_card_coup

    @property
    def next_side(self) -> Side | None:
        """The side the tableau gives the next card, while dealing."""
        if self.phase is not Phase.DEALING or self._coup_burns:
            return None
        return tableau.next_side(self._player_cards, self._banker_cards)

    def side_total(self, side: Side) -> Decimal:
        """Every player's stake on ``side`` together (Art. 14)."""
        return betting.side_total(self._stakes, side)

    # shoe ---------------------------------------------------------------------------------------
    def _why_not_load_shoe(self, shoe: Shoe) -> CroupierError | None:
        if self.phase is not Phase.AWAITING_SHOE:
            return IllegalActionError(f"a shoe is already in play ({self.phase.value})")
        if shoe.decks != self.rules.decks:
            return ShoeError(
                f"{self.rules.preset} deals from {self.rules.decks} decks (Art. 1); the shoe holds {shoe.decks}"
            )
        if self.rules.automatic_shuffler and shoe.cut_card is not None:
            return ShoeError("an automatic shuffler uses no cut card (Art. 2.3)")
        return None

    def verify_load_shoe(self, shoe: Shoe) -> None:
        _raise(self._why_not_load_shoe(shoe))

    def can_load_shoe(self, shoe: Shoe) -> bool:
        return self._why_not_load_shoe(shoe) is None

    def load_shoe(self, shoe: Shoe) -> ShoeLoaded:
        """Put ``shoe`` in play; its start procedure follows (Art. 2.1; none with an automatic shuffler)."""
        self.verify_load_shoe(shoe)
        self.shoe = shoe
        self._coup = self._demo_coups = self._betting_coups = 0
        self._cut_card_coup = None
        self._first_card_turned = False
        burn = self.rules.burn
        if self.rules.automatic_shuffler:
            self._shoe_start_burns = 0
            self.phase = Phase.BETTING
        else:
            self._shoe_start_burns = self.rules.decks if burn == "decks" else 0 if burn == "first_card_value" else burn
            self.phase = Phase.SHOE_START
            self._open_betting_if_shoe_started()
        return self._record(ShoeLoaded(shoe.size, shoe.cut_card, shoe.is_live))

    def _open_betting_if_shoe_started(self) -> None:
        first_card_pending = self.rules.burn == "first_card_value" and not self._first_card_turned
        if self.phase is Phase.SHOE_START and not first_card_pending and self._shoe_start_burns == 0:
            self.phase = Phase.BETTING

    def _draw(self) -> Card:
        assert self.shoe is not None
        return self.shoe.draw()

    def _note_cut_card(self) -> None:
        if self.shoe is not None and self.shoe.cut_card_out and self._cut_card_coup is None:
            self._cut_card_coup = max(self._coup, 1)  # shoe-start burns belong to the first coup
            self._operations.append(CutCardOut(self._cut_card_coup))

    def _why_no_card(self) -> CroupierError | None:
        assert self.shoe is not None
        if self.shoe.can_draw():
            return None
        if self.shoe.is_live:
            return ShoeError("no card has been supplied: the live shoe waits for the dealer's next card")
        return ShoeError(f"the shoe has no card left: {self.shoe.position} card(s) drawn of {self.shoe.size} given")

    def _why_not_turn_first_card(self) -> CroupierError | None:
        if self.phase is not Phase.SHOE_START or self.rules.burn != "first_card_value" or self._first_card_turned:
            return IllegalActionError(
                "the first card is turned only at the start of a shoe with burn = first_card_value"
            )
        return self._why_no_card()

    def verify_turn_first_card(self) -> None:
        _raise(self._why_not_turn_first_card())

    def can_turn_first_card(self) -> bool:
        return self._why_not_turn_first_card() is None

    def turn_first_card(self) -> FirstCardTurned:
        """Art. 2.1: turn the first card face up, discard it, and burn as many more as its value (T-K: 10)."""
        self.verify_turn_first_card()
        card = self._draw()
        value = tableau.card_value(card) or 10
        self._first_card_turned = True
        self._shoe_start_burns = value
        return self._record(FirstCardTurned(card, value))

    def _why_not_burn_card(self) -> CroupierError | None:
        if self.phase is Phase.SHOE_START:
            if self.rules.burn == "first_card_value" and not self._first_card_turned:
                return IllegalActionError("the first card must be turned before the burn (Art. 2.1)")
            if not self._shoe_start_burns:
                return IllegalActionError("the shoe-start burns are done (Art. 2.1)")
        elif not (self.phase is Phase.DEALING and self._coup_burns):
            return IllegalActionError(f"no card is due to be burned now ({self.phase.value})")
        return self._why_no_card()

    def verify_burn_card(self) -> None:
        _raise(self._why_not_burn_card())

    def can_burn_card(self) -> bool:
        return self._why_not_burn_card() is None

    def burn_card(self) -> CardBurned:
        """Burn the next card: a shoe-start burn (Art. 2.1) or the burn before a coup (Art. 8)."""
        self.verify_burn_card()
        card = self._draw()
        if self.phase is Phase.SHOE_START:
            self._shoe_start_burns -= 1
            self._open_betting_if_shoe_started()
            return self._record(CardBurned(card, "shoe start"))
        self._coup_burns -= 1
        return self._record(CardBurned(card, "coup"))

    def supply(self, card: Card) -> None:
        """A live shoe's next card arrives from the dealer's card reader; waiting chores then run."""
        if self.shoe is None:
            raise IllegalActionError("no shoe is in play to take the card")
        self.shoe.supply(card)
        self._automate()

    def report_cut_card(self) -> None:
        """A live dealer reports that the cut card has come out (Art. 3.1 counts from this coup)."""
        if self.shoe is None:
            raise IllegalActionError("no shoe is in play")
        self.shoe.mark_cut_card()
        self._note_cut_card()

    # bets ---------------------------------------------------------------------------------------
    def _why_not_place_bet(
        self, player: str, spot: str, amount: Decimal, seat: int | None = None
    ) -> CroupierError | None:
        if self.phase is not Phase.BETTING:
            return IllegalActionError(f"bets are not taken now ({self.phase.value})")
        if not player:
            return BetError("a bet needs a player's name")
        seat_error = self._seats.why_not_bet_on(player, seat)
        if seat_error is not None:
            return seat_error
        return betting.why_not_stake(self.rules, player, spot, amount, self._stakes)

    def verify_place_bet(self, player: str, spot: str, amount: Decimal, seat: int | None = None) -> None:
        _raise(self._why_not_place_bet(player, spot, amount, seat))

    def can_place_bet(self, player: str, spot: str, amount: Decimal, seat: int | None = None) -> bool:
        return self._why_not_place_bet(player, spot, amount, seat) is None

    def place_bet(self, player: str, spot: Spot, amount: Decimal, seat: int | None = None) -> BetPlaced:
        """Put ``amount`` on ``spot`` for ``player``; two bets of one player on one spot add up.

        ``seat``: the seat whose spot the chips go on; a seat another player occupies is refused (Art. 15).
        Without it a seated player bets on their own seat's spot; the record names the seat either way.
        """
        self.verify_place_bet(player, spot, amount, seat)
        key = (player, spot)
        self._stakes[key] = self._stakes.get(key, ZERO) + amount
        return self._record(BetPlaced(player, spot, amount, self._seats.spot_of(player, seat)))

    # seats ----------------------------------------------------------------------------------------
    def _why_not_change_seats(self) -> CroupierError | None:
        if self.phase in (Phase.DEALING, Phase.SETTLING):
            return IllegalActionError(f"players take or leave seats between coups, not now ({self.phase.value})")
        return None

    def verify_sit(self, player: str, seat: int) -> None:
        _raise(self._why_not_change_seats() or self._seats.why_not_sit(player, seat))

    def can_sit(self, player: str, seat: int) -> bool:
        return (self._why_not_change_seats() or self._seats.why_not_sit(player, seat)) is None

    def sit(self, player: str, seat: int) -> PlayerSeated:
        """``player`` takes ``seat`` (1 … :attr:`seats`): its spot is theirs (Art. 15), the squeeze counts them
        (Art. 16). Between coups only; one seat each."""
        self.verify_sit(player, seat)
        self._seats.sit(player, seat)
        return self._record(PlayerSeated(player, seat))

    def verify_leave_seat(self, player: str) -> None:
        _raise(self._why_not_change_seats() or self._seats.why_not_leave(player))

    def can_leave_seat(self, player: str) -> bool:
        return (self._why_not_change_seats() or self._seats.why_not_leave(player)) is None

    def leave_seat(self, player: str) -> PlayerLeftSeat:
        """``player`` gives up their seat (between coups); bets already placed stay where they are."""
        self.verify_leave_seat(player)
        return self._record(PlayerLeftSeat(player, self._seats.leave(player)))

    # the coup -----------------------------------------------------------------------------------
    def _why_not_start_coup(self, demo: bool) -> CroupierError | None:
        rules = self.rules
        if self.phase is Phase.AWAITING_SHOE:
            last = self.last_result
            if self.shoe is not None and last is not None and last.last_coup:
                return IllegalActionError(
                    f"the shoe is over: {shoe_end_reason(self.rules, self._cut_card_coup)}; a new shoe is needed"
                )
            return IllegalActionError("no shoe is in play")
        if self.phase is not Phase.BETTING:
            return IllegalActionError(f"a coup cannot begin now ({self.phase.value})")
        if demo:
            if rules.automatic_shuffler:
                return IllegalActionError("an automatic shuffler deals no demonstration coups (Art. 2.2, 2.3)")
            if self._betting_coups:
                return IllegalActionError(
                    "demonstration coups are dealt only at the start of a shoe, before the first coup with bets "
                    "(Art. 2.2)"
                )
            if self._demo_coups >= rules.max_demo_coups:
                return IllegalActionError(
                    f"{rules.preset} allows at most {rules.max_demo_coups} demonstration coup(s) at the start "
                    f"of a shoe (Art. 2.2; demo_coups = {rules.demo_coups})"
                )
            if self._stakes:
                return BetError(f"a demonstration coup takes no bets (Art. 2.2); {len(self._stakes)} stake(s) placed")
            return None
        return None

    def verify_start_coup(self, demo: bool = False) -> None:
        _raise(self._why_not_start_coup(demo))

    def can_start_coup(self, demo: bool = False) -> bool:
        return self._why_not_start_coup(demo) is None

    def start_coup(self, demo: bool = False, seated: Collection[str] | None = None) -> CoupStarted:
        """Close betting and begin a coup (``demo``: without bets, Art. 2.2).

        ``seated``: the players seated at the table, for the squeeze (Art. 16.2); ``None``: those in
        :attr:`seated` (:meth:`sit`), or every bettor where nobody sits.
        """
        self.verify_start_coup(demo)
        self._coup += 1
        self._demo = demo
        if demo:
            self._demo_coups += 1
        else:
            self._betting_coups += 1
            self._standing = {}
            self._carried = {}
        if not self.rules.automatic_shuffler and self._coup >= 2:
            self._coup_burns = self.rules.burn_each_coup  # Art. 8: from the second coup on
        self.phase = Phase.DEALING
        self._player_cards, self._banker_cards = [], []
        record = CoupStarted(self._coup, demo)
        self._operations.append(record)
        if self.rules.squeeze and not demo:
            if seated is None and self._seats.occupied:
                seated = self._seats.players
            for side in SIDES:
                self._operations.append(SqueezeHolderNamed(side, betting.squeeze_holder(side, self._stakes, seated)))
        self._automate()
        return record

    def _why_not_deal_card(self) -> CroupierError | None:
        if self.phase is not Phase.DEALING:
            return IllegalActionError(f"no card is due to be dealt now ({self.phase.value})")
        if self._coup_burns:
            return IllegalActionError("the burn before the coup comes first (Art. 8)")
        return self._why_no_card()

    def verify_deal_card(self) -> None:
        _raise(self._why_not_deal_card())

    def can_deal_card(self) -> bool:
        return self._why_not_deal_card() is None

    def deal_card(self) -> CardDealt:
        """Deal the next card to the side the tableau names (Art. 7, 9)."""
        self.verify_deal_card()
        side = tableau.next_side(self._player_cards, self._banker_cards)
        assert side is not None
        card = self._draw()
        (self._player_cards if side == "player" else self._banker_cards).append(card)
        if tableau.next_side(self._player_cards, self._banker_cards) is None:
            self.phase = Phase.SETTLING
        return self._record(CardDealt(side, card))

    def _why_not_void_coup(self) -> CroupierError | None:
        if self.phase not in (Phase.DEALING, Phase.SETTLING) or not (self._player_cards or self._banker_cards):
            return IllegalActionError("only a coup being dealt, before its settlement, can be voided (Art. 10)")
        return None

    def verify_void_coup(self) -> None:
        _raise(self._why_not_void_coup())

    def can_void_coup(self) -> bool:
        return self._why_not_void_coup() is None

    def void_coup(self, reason: str = "misdeal") -> CoupVoided:
        """Art. 10: a misdeal that cannot be corrected voids the coup; its cards are discarded, bets stand.

        The shoe stays in play (a live shoe too) and the same coup is dealt again from the next cards, with no
        further burn: the table is back in :attr:`Phase.DEALING` with every stake in place. A live table waits for
        the dealer's next card (:meth:`supply`). Where the shoe cannot go on, :meth:`end_shoe` returns the bets.
        """
        self.verify_void_coup()
        dealt = tuple(tableau.dealing_order(self._player_cards, self._banker_cards))
        self._player_cards, self._banker_cards = [], []
        self.phase = Phase.DEALING
        return self._record(CoupVoided(self._coup, dealt, reason))

    def _why_not_move_card(self, card: Card, side: str) -> CroupierError | None:
        if side not in SIDES:
            return IllegalActionError(f"a card goes to the player or the banker, not {side!r}")
        held = self._player_cards if side == "player" else self._banker_cards
        if card not in held:
            shown = " ".join(str(c) for c in held) or "no card"
            return IllegalActionError(
                f"{card} was not dealt to the {side} in coup {self._coup}, the coup on the table: the {side} holds "
                f"{shown} (Art. 10)"
            )
        return None

    def verify_move_card(self, card: Card, side: str) -> None:
        _raise(self._why_not_move_card(card, side))

    def can_move_card(self, card: Card, side: str) -> bool:
        return self._why_not_move_card(card, side) is None

    def move_card(self, card: Card, side: Side) -> CardMoved:
        """Art. 10, a misdeal corrected: the dealer put ``card`` on the wrong side; it goes back to ``side``, the
        side the tableau dealt it to in the coup on the table (the one being dealt, or the one just settled
        until the next begins). A record only: the engine dealt it there (:class:`CardMoved`)."""
        self.verify_move_card(card, side)
        return self._record(CardMoved(self._coup, card, side))

    def _why_not_end_shoe(self) -> CroupierError | None:
        dealing = self.phase is Phase.DEALING and not (self._player_cards or self._banker_cards)
        if self.shoe is None or not (self.phase in (Phase.BETTING, Phase.SHOE_START) or dealing):
            return IllegalActionError(
                f"a shoe ends between coups, or once a voided coup's cards are gone (Art. 3.2, 10); not now "
                f"({self.phase.value})"
            )
        return None

    def verify_end_shoe(self) -> None:
        _raise(self._why_not_end_shoe())

    def can_end_shoe(self) -> bool:
        return self._why_not_end_shoe() is None

    def end_shoe(self, reason: str) -> ShoeEnded:
        """Take the shoe out of play before its last coup: between coups (Art. 3.2), or instead of redealing a
        voided coup (Art. 10). Every stake on the layout (carried ones included) is returned, each recorded as a
        :class:`BetReturned` with ``reason``; the table then awaits a new shoe (:meth:`load_shoe`)."""
        self.verify_end_shoe()
        stakes, self._stakes, self._carried = self._stakes, {}, {}
        self._coup_burns = 0
        self.phase = Phase.AWAITING_SHOE
        record = ShoeEnded(self._coup, reason)
        self._operations.append(record)
        for (player, spot), amount in stakes.items():
            self._operations.append(BetReturned(player, spot, amount, reason))
        self._automate()
        return record

    def _why_not_settle_coup(self) -> CroupierError | None:
        if self.phase is not Phase.SETTLING:
            return IllegalActionError(f"no complete coup to settle ({self.phase.value})")
        return None

    def verify_settle_coup(self) -> None:
        _raise(self._why_not_settle_coup())

    def can_settle_coup(self) -> bool:
        return self._why_not_settle_coup() is None

    def settle_coup(self) -> CoupSettled:
        """Pay and collect every stake (Art. 12, 17, 18); the shoe ends after its last coup (Art. 3.1).

        On a tie under ``tie_bets = increase_only`` (Art. 18) the player and banker stakes are neither paid nor
        returned: they settle as ``stand`` (gain 0) and stay on their spots for the next coup, each recorded as a
        :class:`BetCarried` right after :class:`CoupSettled`. Where the tie is the last coup of a dealt shoe
        (Art. 3.1), there is no next coup in it: the stakes are returned (``push``), each recorded as a
        :class:`BetReturned` with the reason. With an automatic shuffler every coup is its own shuffle but the
        table plays on, so the stakes are carried to the next coup's shuffle.
        """
        self.verify_settle_coup()
        self._note_cut_card()
        cards = CoupCards(tuple(self._player_cards), tuple(self._banker_cards))
        stakes = [(player, spot, amount) for (player, spot), amount in self._stakes.items()]
        settlements = settle_stakes(self.rules, cards, stakes)
        last_coup = is_last_coup(self.rules, self._coup, self._cut_card_coup)
        tie = cards.winner == "tie" and not self._demo
        tied = {key: amount for key, amount in self._stakes.items() if tie and key[1] in SIDES}
        carry = self.rules.tie_bets == "increase_only" and bool(tied)
        keep = carry and (not last_coup or self.rules.automatic_shuffler)
        if keep:
            settlements = tuple(replace(s, outcome="stand") if (s.player, s.spot) in tied else s for s in settlements)
        result = CoupResult(self._coup, self._demo, cards, settlements, last_coup)
        self._standing = {} if carry else tied
        self._stakes = dict(tied) if keep else {}
        self._carried = dict(tied) if keep else {}
        self._results.append(result)
        self.phase = Phase.AWAITING_SHOE if last_coup else Phase.BETTING
        record = CoupSettled(result)
        self._operations.append(record)
        for (player, spot), amount in tied.items():
            if keep:
                self._operations.append(BetCarried(player, spot, amount))
            elif carry:
                self._operations.append(BetReturned(player, spot, amount, SHOE_ENDED_AFTER_TIE))
        self._automate()
        return record

    # chores -------------------------------------------------------------------------------------
    def verify_next_chore(self) -> None:
        """Raise the reason the chore now due cannot be performed (the shoe has no card left), if it cannot."""
        if self.phase is Phase.SHOE_START:
            if self.rules.burn == "first_card_value" and not self._first_card_turned:
                self.verify_turn_first_card()
            self.verify_burn_card()
        elif self.phase is Phase.DEALING:
            if self._coup_burns:
                self.verify_burn_card()
            self.verify_deal_card()

    def perform_chores(self, automations: Collection[Automation] = ALL_AUTOMATIONS) -> list[Operation]:
        """Perform every chore of ``automations`` that is due, until none is (or the live shoe waits)."""
        performed: list[Operation] = []
        while True:
            record = self._next_chore(automations)
            if record is None:
                return performed
            performed.append(record)

    def _next_chore(self, automations: Collection[Automation]) -> Operation | None:
        phase = self.phase
        if phase is Phase.DEALING:
            if self._coup_burns:
                return self.burn_card() if Automation.BURNING in automations and self.can_burn_card() else None
            return self.deal_card() if Automation.DEALING in automations and self.can_deal_card() else None
        if phase is Phase.SETTLING:
            return self.settle_coup() if Automation.SETTLING in automations else None
        if phase is Phase.SHOE_START:
            if Automation.BURNING not in automations:
                return None
            if self.can_turn_first_card():
                return self.turn_first_card()
            return self.burn_card() if self.can_burn_card() else None
        if phase is Phase.AWAITING_SHOE and Automation.SHUFFLING in automations and self.shoe_source is not None:
            return self.load_shoe(self.shoe_source())
        return None

    def _automate(self) -> None:
        if self.automations and not self._automating:
            self._automating = True
            try:
                self.perform_chores(self.automations)
            finally:
                self._automating = False

    def _record(self, operation: OperationT) -> OperationT:
        self._operations.append(operation)
        self._note_cut_card()  # recorded after the draw that brought it out
        self._automate()
        return operation


def _raise(error: CroupierError | None) -> None:
    if error is not None:
        raise error
