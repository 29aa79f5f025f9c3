"""The typed actions a player takes at a baccarat table: the same shape as blackjack's
(:mod:`croupier.blackjack.moves`).

Each action is a frozen value. :meth:`BaccaratTable.verify(action) <croupier.baccarat.state.BaccaratTable.verify>`
raises the rule's error naming the article, changing nothing; :meth:`~PlayerActions.apply` performs it
and returns its record; :meth:`~PlayerActions.legal_actions` lists what a player may do now, each entry
with the bounds of its amount, and :meth:`LegalMove.action` turns an entry into an action.

The dealer's steps (load a shoe, burn, start the coup, deal, settle) are not a player's actions: they
stay the table's own methods and chores (:meth:`~croupier.baccarat.state.BaccaratTable.perform_chores`).

>>> parse("bet", player="ana", spot="banker", amount="20")
PlaceBet(player='ana', spot='banker', amount='20', seat=None)
>>> parse("sit", player="ana", seat=3).kind
'sit'
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from croupier.baccarat import betting
from croupier.baccarat.phases import Phase
from croupier.errors import CroupierError, IllegalActionError, not_an_action
from croupier.money import parse_amount

if TYPE_CHECKING:
    from croupier.baccarat.records import BetPlaced, PlayerLeftSeat, PlayerSeated
    from croupier.baccarat.rules import Rules, Spot
    from croupier.baccarat.seats import Seats
    from croupier.baccarat.tableau import Side

Amount = Decimal | int | str
"""An amount as given: read exactly (:func:`croupier.money.parse_amount`); a float is refused."""

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class PlaceBet:
    """Put ``amount`` on ``spot`` (Art. 13); ``seat``: the seat whose spot the chips go on (Art. 15)."""

    kind: ClassVar[str] = "bet"
    player: str
    spot: str
    amount: Amount
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Sit:
    """Take ``seat`` between coups (Art. 15, 16)."""

    kind: ClassVar[str] = "sit"
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class LeaveSeat:
    """Give up one's seat between coups; bets already placed stay."""

    kind: ClassVar[str] = "leave_seat"
    player: str


Action = PlaceBet | Sit | LeaveSeat
"""Everything a player does at a baccarat table."""

TYPES: tuple[type[Action], ...] = (PlaceBet, Sit, LeaveSeat)
KINDS: tuple[str, ...] = tuple(cls.kind for cls in TYPES)
"""The action kinds, as the wire names them: ``bet``, ``sit``, ``leave_seat``."""


def require(action: object) -> Action:
    """``action`` itself when it is a baccarat action; anything else (a text, a blackjack action) is
    refused naming what was held."""
    if isinstance(action, TYPES):
        return action
    raise not_an_action("baccarat", action, TYPES)


def parse(kind: str, **fields: object) -> Action:
    """The action ``kind`` (one of :data:`KINDS`) with ``fields``; an unknown kind is refused by name."""
    cls = type_of(kind)
    player = str(fields.get("player") or "")
    if cls is PlaceBet:
        seat = fields.get("seat")
        return PlaceBet(player, str(fields.get("spot")), _amount(fields.get("amount")), _seat(seat))
    if cls is Sit:
        return Sit(player, _seat(fields.get("seat")) or 0)
    return LeaveSeat(player)


_BY_KIND: dict[str, type[Action]] = {cls.kind: cls for cls in TYPES}


def type_of(kind: object) -> type[Action]:
    """The action type named ``kind`` (one of :data:`KINDS`); an unknown kind is refused by name."""
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalActionError(f"unknown action {kind!r}; a player's actions are {', '.join(KINDS)}")
    return cls


def _amount(raw: object) -> Amount:
    if isinstance(raw, Decimal | int | str) and not isinstance(raw, bool):
        return raw
    raise IllegalActionError(f"a bet's amount is a whole number or a decimal text, got {raw!r}")


def _seat(raw: object) -> int | None:
    if raw is None or (isinstance(raw, int) and not isinstance(raw, bool)):
        return raw
    raise IllegalActionError(f"a seat is a whole number, got {raw!r}")


@dataclass(frozen=True, slots=True)
class LegalMove:
    """An action open to ``player`` now. A bet's amount lies in ``min_amount``..``max_amount`` (None: no
    bound of the rules), and a banker bet is also a multiple of the rules' ``banker_stake_step``."""

    kind: str
    player: str
    spot: str | None = None
    seat: int | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None

    @property
    def type(self) -> type[Action]:
        """The type of this entry's typed action."""
        return type_of(self.kind)

    def action(self, amount: Amount | None = None) -> Action:
        """This entry as a typed action; ``amount`` for a bet (None: ``min_amount``)."""
        cls = type_of(self.kind)
        if cls is PlaceBet:
            chosen = amount if amount is not None else self.min_amount
            if chosen is None:
                raise IllegalActionError("a bet needs an amount: these rules set no minimum to default to")
            return PlaceBet(self.player, str(self.spot), chosen, self.seat)
        if cls is Sit:
            return Sit(self.player, self.seat or 0)
        return LeaveSeat(self.player)


class PlayerActions:
    """The typed actions of :class:`~croupier.baccarat.state.BaccaratTable` (a base class of it)."""

    rules: Rules
    phase: Phase
    _seats: Seats
    _stakes: dict[tuple[str, Spot], Decimal]

    if TYPE_CHECKING:  # the table's own checks and steps, which these actions call

        def verify_place_bet(self, player: str, spot: str, amount: Decimal, seat: int | None = None) -> None: ...
        def place_bet(self, player: str, spot: Spot, amount: Decimal, seat: int | None = None) -> BetPlaced: ...
        def verify_sit(self, player: str, seat: int) -> None: ...
        def sit(self, player: str, seat: int) -> PlayerSeated: ...
        def verify_leave_seat(self, player: str) -> None: ...
        def leave_seat(self, player: str) -> PlayerLeftSeat: ...

    def verify(self, action: Action) -> None:
        """Raise the rule's error unless ``action`` may be taken now; the table does not change. Anything that
        is not a baccarat action is refused naming what was held."""
        match require(action):
            case PlaceBet(player, spot, amount, seat):
                self.verify_place_bet(player, spot, parse_amount(amount, what="bet"), seat)
            case Sit(player, seat):
                self.verify_sit(player, seat)
            case LeaveSeat(player):
                self.verify_leave_seat(player)

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action``."""
        try:
            self.verify(action)
        except CroupierError:
            return False
        return True

    def apply(self, action: Action) -> BetPlaced | PlayerSeated | PlayerLeftSeat:
        """Take ``action``, checked as :meth:`verify` checks it (refused whole, changing nothing); returns its
        record. Anything that is not a baccarat action is refused the same way."""
        match require(action):
            case PlaceBet(player, spot, amount, seat):
                return self.place_bet(player, spot, parse_amount(amount, what="bet"), seat)  # type: ignore[arg-type]
            case Sit(player, seat):
                return self.sit(player, seat)
            case LeaveSeat(player):
                return self.leave_seat(player)
        raise AssertionError(action)  # pragma: no cover - require admits the actions matched above

    def legal_actions(self, player: str) -> tuple[LegalMove, ...]:
        """What ``player`` may do now, as an immutable tuple: a bet on each spot still open to them (on their
        own seat's spot), with its bounds, then taking a free seat or leaving theirs."""
        moves: list[LegalMove] = []
        if self.phase is Phase.BETTING and player:
            for spot in self.rules.spots:
                bounds = self._bet_bounds(player, spot)
                if bounds is not None:
                    moves.append(LegalMove(PlaceBet.kind, player, spot, None, *bounds))
        if self.phase not in (Phase.DEALING, Phase.SETTLING) and player:
            if self._seats.seat_of(player) is None:
                seats = range(1, self._seats.count + 1)
                free = [s for s in seats if self._seats.why_not_sit(player, s) is None]
                moves += [LegalMove(Sit.kind, player, seat=s) for s in free]
            else:
                moves.append(LegalMove(LeaveSeat.kind, player))
        return tuple(moves)

    def _bet_bounds(self, player: str, spot: Spot) -> tuple[Decimal | None, Decimal | None] | None:
        """The least and most ``player`` may add on ``spot`` now (None: no bound); None: no bet fits."""
        rules, stakes = self.rules, self._stakes
        current = stakes.get((player, spot), ZERO)
        low = rules.min_bet - current if rules.min_bet is not None and current < rules.min_bet else None
        highs = [] if rules.max_bet is None else [rules.max_bet - current]
        if rules.max_side_imbalance is not None and (spot == "player" or spot == "banker"):
            other: Side = "player" if spot == "banker" else "banker"
            lead = betting.side_total(stakes, spot) - betting.side_total(stakes, other)
            highs.append(rules.max_side_imbalance - lead)
        high = min(highs) if highs else None
        if high is not None and (high <= 0 or (low is not None and high < low)):
            return None
        return low, high
