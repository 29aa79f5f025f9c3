"""Seats at a live table (docs/rules.md "Seats and boxes"; Art. 2.3, 13, 15, 16; online §4.5).

A player occupies (sits at) a box: the occupant handles the box's cards and decides on equal highest
bets (Art. 13). One seat per player per table. A seat is taken by a click (``sit``) or by a player who
sits nowhere yet betting on an empty box; it is left by ``leave`` once nothing of the player's stays on
that box. Baccarat's seats are the positions around the layout: the seated player with the largest bet
on a side squeezes it (Art. 16), and a standing player may not bet on a seated player's spot (Art. 15).

Seats live in the table's actor, the only writer of its table; a table taken over by another process
starts with its seats empty (players sit again), as after a dealer change.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.errors import CroupierError

BACCARAT_SEATS = 7
"""Seats at a baccarat table: the seven positions of the layout (Art. 15, 16)."""


class SeatError(CroupierError):
    """A seat that cannot be taken or left: the message names the rule."""


@dataclass(frozen=True)
class Seat:
    account_id: int
    player: str


class Seats:
    """Who sits where at one table."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.taken: dict[int, Seat] = {}

    def of(self, player: str) -> int | None:
        """The box (seat) ``player`` occupies, if any."""
        return next((box for box, seat in self.taken.items() if seat.player == player), None)

    def names(self) -> dict[int, str]:
        return {box: seat.player for box, seat in sorted(self.taken.items())}

    def document(self) -> dict[str, str]:
        return {str(box): seat.player for box, seat in sorted(self.taken.items())}

    def verify_sit(self, player: str, box: int) -> None:
        if not 1 <= box <= self.count:
            raise SeatError(f"this table has seats 1-{self.count} (Art. 2.3); there is no seat {box}")
        holder = self.taken.get(box)
        if holder is not None and holder.player != player:
            raise SeatError(f"seat {box} is taken by {holder.player} (Art. 2.3)")
        mine = self.of(player)
        if mine is not None and mine != box:
            raise SeatError(
                f"one seat per player (Art. 2.3): {player} sits at {mine}; leave it first to sit at {box} "
                "(a seated player bets on other boxes only behind their occupants)"
            )

    def sit(self, account_id: int, player: str, box: int) -> bool:
        """Seat ``player`` at ``box``; False when already there."""
        self.verify_sit(player, box)
        if box in self.taken:
            return False
        self.taken[box] = Seat(account_id, player)
        return True

    def leave(self, player: str, box: int) -> None:
        holder = self.taken.get(box)
        if holder is None or holder.player != player:
            raise SeatError(f"{player} does not sit at {box}")
        del self.taken[box]
