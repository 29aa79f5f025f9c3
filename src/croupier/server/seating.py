"""Seats, the cut and the matching choices at a live table: the commands a table actor runs for them.

docs/rules.md "Seats and boxes" (Art. 2.3, 13, 15, 16): a player occupies one seat (:mod:`seats`); a
seated player bets on other boxes only behind their occupants; at baccarat a bet at a seat's spot is
that seat's player's (Art. 15). The first seated player cuts each new shoe (Art. 2.1; docs/rules.md §5).
Each other bettor of a shared box chooses whether to match the decider's double or split (Art. 13).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from croupier.server.auth import Identity
from croupier.server.commands import Command, Refused
from croupier.server.drivers import game_of

if TYPE_CHECKING:
    from croupier.server.actor import TableActor

CUT_SECONDS = 10.0
"""How long the first seated player has to cut a new shoe (supply its client seed, Art. 2.1)."""


async def await_cut(actor: TableActor) -> str | None:
    """The cut: the first seated player (the lowest box) may supply the shoe's client seed within the
    cut window, once the commitment is out; None: nobody sits, or nobody cut (the house's default)."""
    if not actor.seats.taken:
        return None
    cutter = actor.cutter = actor.seats.names()[min(actor.seats.taken)]
    actor.cut_seed = None
    actor.phase = "cut"
    actor.set_timer(min(CUT_SECONDS, actor.row.betting_seconds))
    await actor.publish({"type": "cut", "player": cutter, "closes_at": actor.deadline_at})
    try:
        await actor.serve_until(lambda: actor.cut_seed is not None)
    finally:
        actor.cutter = None
    if actor.cut_seed is not None:
        await actor.publish({"type": "cut_made", "player": cutter, "client_seed": actor.cut_seed})
    return actor.cut_seed


async def cut(actor: TableActor, command: Command) -> dict[str, Any]:
    who = command.identity
    if actor.phase != "cut" or actor.cutter is None:
        raise Refused("there is no cut now: a player cuts once a new shoe's commitment is out (Art. 2.1; §5)")
    if who.name != actor.cutter:
        raise Refused(f"the first seated player cuts (Art. 2.1): {actor.cutter}, not {who.name}", 403)
    seed = command.payload.get("client_seed")
    if not isinstance(seed, str) or not 1 <= len(seed) <= 64 or not seed.isprintable():
        raise Refused("cut: the client seed is 1-64 printable characters", 422)
    actor.cut_seed = seed
    return {"cut": True, "client_seed": seed, "commitment": actor.commitment}


def verify_spot(actor: TableActor, who: Identity, seat: object) -> None:
    """Baccarat, Art. 15: a bet placed at a seat's spot is that seat's player's; standing players may not
    bet on a seated player's spot. A bet that names no seat is at the bettor's own seat, or standing."""
    if seat is None:
        return
    if game_of(actor.game).shared_boxes:
        raise Refused("bet: a blackjack bet names its box as its spot, not a seat", 422)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= actor.seats.count:
        raise Refused(f"bet: seat is a number 1-{actor.seats.count}", 422)
    holder = actor.seats.taken.get(seat)
    if holder is not None and holder.player != who.name:
        raise Refused(
            f"standing players may not bet on a seated player's spot (Art. 15): seat {seat} is {holder.player}'s"
        )
    if holder is None:
        raise Refused(f"seat {seat} is empty: sit there first to bet at its spot (Art. 15)")


def seat_for_bet(actor: TableActor, who: Identity, spot: str) -> int | None:
    """The empty box a blackjack bet seats its player at, or None. Refuses a seated player's bet on an
    empty box: a seated player bets on other boxes only behind their occupants (Art. 2.3)."""
    if not game_of(actor.game).shared_boxes or not spot.isascii() or not spot.isdigit():
        return None
    box = int(spot)
    if box in actor.seats.taken or not 1 <= box <= actor.seats.count:
        return None
    mine = actor.seats.of(who.name)
    if mine is not None:
        raise Refused(
            f"box {box} is empty: a seated player bets on another box only behind its occupant (Art. 2.3); "
            f"{who.name} sits at box {mine}"
        )
    return box


async def sit(actor: TableActor, command: Command) -> dict[str, Any]:
    """A player takes a seat (a box; baccarat: a position at the layout), between rounds or while
    betting is open: the round in play keeps the seats it was dealt with (Art. 2.3, 13, 16)."""
    who = command.identity
    if who.role != "player":
        raise Refused("only players sit at a table", 403)
    box = _seat_number(command.payload.get("box"))
    if actor.seats.sit(who.id, who.name, box):
        if actor.round is not None and actor.phase == "betting":
            actor.round.set_seated(actor.seats.names())
        await actor.publish({"type": "seated", "box": box, "player": who.name})
    return {"seated": box, "seats": actor.seats.document()}


async def leave(actor: TableActor, command: Command) -> dict[str, Any]:
    """A player leaves their seat once nothing of theirs is on this round (Art. 2.3: the occupant
    handles the box's cards for the whole round)."""
    who = command.identity
    box = _seat_number(command.payload.get("box"))
    holder = actor.seats.taken.get(box)
    if holder is None or holder.player != who.name:
        raise Refused(f"{who.name} does not sit at {box}", 409)
    if actor.round is not None and who.name in actor.round.staked():
        raise Refused(
            f"{who.name} has a bet in this round: the occupant handles the box until it settles (Art. 2.3); "
            "leave after the round"
        )
    actor.seats.leave(who.name, box)
    if actor.round is not None and actor.phase == "betting":
        actor.round.set_seated(actor.seats.names())
    await actor.publish({"type": "left", "box": box, "player": who.name})
    return {"left": box, "seats": actor.seats.document()}


async def set_matching(actor: TableActor, command: Command) -> dict[str, Any]:
    """A bettor's standing choice to match (or not) the decider's double or split on a shared box
    (Art. 13), changeable until the decision."""
    who = command.identity
    if not game_of(actor.game).shared_boxes:
        raise Refused("matching is for a shared blackjack box (Art. 13)", 409)
    box = _seat_number(command.payload.get("box"))
    match = command.payload.get("match")
    if not isinstance(match, bool):
        raise Refused("matching: match is true or false", 422)
    if actor.round is None or (who.name, box) not in actor.matching:
        raise Refused(f"{who.name} has no bet on box {box} this round", 409)
    actor.matching[(who.name, box)] = match
    return {"box": box, "match": match}


def _seat_number(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise Refused("name the seat (box) by its number", 422)
    return raw


COMMANDS: dict[str, Callable[[TableActor, Command], Awaitable[dict[str, Any]]]] = {
    "sit": sit,
    "leave": leave,
    "matching": set_matching,
    "cut": cut,
}
