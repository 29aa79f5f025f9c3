"""The seats of a baccarat table (Art. 1(5), 15, 16): who sits where, and whose spot a bet lies on.

Art. 1(5) equips the table with seven or more seats; the count is a table setting (the
:class:`~croupier.baccarat.state.BaccaratTable`'s ``seats``, 7 by default), not a rule parameter:
docs/rules.md names none. Each seat has its spot on the layout. Art. 15: standing players may not bet on
the spot reserved for a seated player; the engine reads "reserved" strictly, so no other player (a
standing one, or one seated elsewhere) may bet on an occupied seat's spot. Art. 16.2: where the house
allows the squeeze, the seated player with the largest bet on a side handles its cards.

Seats are optional: a table where nobody sits, and bets that name no seat, behave as before seats
were modelled (the squeeze then counts every bettor as seated).
"""

from __future__ import annotations

from croupier.errors import BetError, CroupierError, IllegalActionError, RulesError

DEFAULT_SEATS = 7
"""Art. 1(5): a gaming table with seven or more seats."""


class Seats:
    """Seats ``1 … count`` and the player in each occupied one."""

    def __init__(self, count: int = DEFAULT_SEATS) -> None:
        if count < 1:
            raise RulesError(f"a table needs at least one seat (Art. 1(5): seven or more); got {count}")
        self.count = count
        self._occupied: dict[int, str] = {}

    @property
    def occupied(self) -> dict[int, str]:
        """Each occupied seat and its player, by seat number."""
        return dict(sorted(self._occupied.items()))

    @property
    def players(self) -> frozenset[str]:
        return frozenset(self._occupied.values())

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, sitting in self._occupied.items() if sitting == player), None)

    def _why_not_a_seat(self, seat: int) -> CroupierError | None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.count:
            return BetError(f"the table's seats are 1 to {self.count}; there is no seat {seat!r}")
        return None

    def why_not_sit(self, player: str, seat: int) -> CroupierError | None:
        if not player:
            return IllegalActionError("a seat needs a player's name")
        error = self._why_not_a_seat(seat)
        if error is not None:
            return IllegalActionError(str(error))
        taken = self._occupied.get(seat)
        if taken is not None:
            return IllegalActionError(f"seat {seat} is taken by {taken}")
        own = self.seat_of(player)
        if own is not None:
            return IllegalActionError(f"{player} already sits in seat {own}; one seat each")
        return None

    def why_not_leave(self, player: str) -> CroupierError | None:
        if self.seat_of(player) is None:
            return IllegalActionError(f"{player} is not seated")
        return None

    def sit(self, player: str, seat: int) -> None:
        self._occupied[seat] = player

    def leave(self, player: str) -> int:
        seat = self.seat_of(player)
        assert seat is not None
        del self._occupied[seat]
        return seat

    def why_not_bet_on(self, player: str, seat: int | None) -> CroupierError | None:
        """Art. 15: a bet on the spot of a seat another player occupies is refused."""
        if seat is None:
            return None
        error = self._why_not_a_seat(seat)
        if error is not None:
            return error
        taken = self._occupied.get(seat)
        if taken is not None and taken != player:
            own = self.seat_of(player)
            if own is None:
                return BetError(
                    f"seat {seat} is {taken}'s: a standing player may not bet on a seated player's spot (Art. 15)"
                )
            return BetError(
                f"seat {seat} is {taken}'s: a seated player's spot is reserved for them (Art. 15); {player} sits in "
                f"seat {own}"
            )
        return None

    def spot_of(self, player: str, seat: int | None) -> int | None:
        """The seat whose spot a bet lies on: the one it names, else the bettor's own seat (if seated)."""
        return seat if seat is not None else self.seat_of(player)
