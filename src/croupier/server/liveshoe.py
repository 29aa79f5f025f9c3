"""A live shoe's whole life, and the dealer's errors, at a card-reader table (docs/rules.md "A live shoe's
whole life", "The dealer's errors at a live table"; online §3.2, §3.5; baccarat Art. 2.1, 3.1, 4, 10).

At a live table (``mode = live``) the cards come from the dealer's shoe one at a time. The dealer (or
a supervisor) reports what only the dealer sees:

* ``shuffle``: between rounds, the shoe ends and a new live shoe begins; its start burns (online
  §3.5: 6; Art. 2.1; baccarat Art. 2.1: the first card turned and its value burned) are the next
  cards the dealer supplies;
* ``cut_card``: the cut card came out: the round in play (or, between rounds, the next) is the shoe's
  last (Art. 2.2; online §3.2.2); baccarat plays the rule set's ``at_cut_card`` (Art. 3.1);
* ``end_shoe``: the shoe ends after the round in play, or at once between rounds (§3.2.3);
* ``face_up_card``: a card found face up in the shoe is void (Art. 2.1; the round waits for the next
  card); in baccarat it stays valid (Art. 4) and the request is refused;

and, with a supervisor's approval (the dealer's own errors, online §3.5):

* ``void_card``: a card the dealer drew by mistake is void (Art. 3.2a);
* ``move_card``: a card dealt to the wrong box is moved to the box it belonged to (Art. 2.1; baccarat
  Art. 10), before any void of the round.

Each is recorded in the round's log and, where it changes which cards a transcript deals, in the
round's record (the shoe's cut card, the cards voided).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import update

from croupier.server.drivers import driver_for, game_of
from croupier.server.game_round import UnreadableRequest
from croupier.server.games import read_card
from croupier.server.models import ShoeRecord

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from croupier.server.actor import TableActor
    from croupier.server.commands import Command
    from croupier.server.game_round import GameRound


def _refused(message: str, status: int = 409) -> Exception:
    from croupier.server.commands import Refused

    return Refused(message, status)


def _dealer_or_supervisor(actor: TableActor, command: Command, what: str) -> None:
    who = command.identity
    if who.role not in ("dealer", "supervisor"):
        raise _refused(f"only the table's dealer or a supervisor may report {what} (online §3.2)", 403)
    if who.role == "dealer" and actor.row.dealer_id not in (None, who.id):
        raise _refused(f"{who.name} is not the dealer of table {actor.name}", 403)


def _supervisor(command: Command, what: str, article: str) -> None:
    if command.identity.role != "supervisor":
        raise _refused(f"{what} needs a supervisor's approval ({article}; online §3.5)", 403)


def _live(actor: TableActor, what: str) -> None:
    if actor.row.mode != "live":
        raise _refused(
            f"table {actor.name} deals from its own shuffled shoe: the server shuffles it and finds its cut card; "
            f"{what} is reported only at a live table"
        )


def _between_rounds(actor: TableActor) -> bool:
    """Betting is open and no bet has been taken: the last round is over, the next not begun."""
    return actor.phase == "betting" and actor.round_id is None


# ------------------------------------------------------------------------------------------------
# the shoe


async def shuffle(actor: TableActor, command: Command) -> dict[str, Any]:
    _dealer_or_supervisor(actor, command, "a shuffle")
    _live(actor, "a shuffle")
    if not _between_rounds(actor):
        raise _refused(
            "a shuffle is reported between rounds (online §3.2): a round has bets or is in play; end the shoe "
            "after it (end-shoe) and report the shuffle then"
        )
    await _new_shoe_now(actor)
    return {"accepted": True, "shoe": actor.shoe_id}


async def end_shoe(actor: TableActor, command: Command) -> dict[str, Any]:
    _dealer_or_supervisor(actor, command, "the end of the shoe")
    _live(actor, "the end of the shoe")
    if _between_rounds(actor):
        await _new_shoe_now(actor)
        return {"accepted": True, "ended": True, "shoe": actor.shoe_id}
    actor.end_shoe_after_round = True
    await actor.publish({"type": "shoe_ends_after_round", "round": actor.round_number + 1})
    return {"accepted": True, "ended": False, "after_round": actor.round_number + 1}


async def _new_shoe_now(actor: TableActor) -> None:
    """End the shoe, begin a new live one, and open the same betting window on its first round."""
    await actor.end_shoe()
    actor.driver = driver_for(actor.game, actor.rules)  # the engine's shoe state starts afresh with the new shoe
    await actor.new_shoe()
    actor.round = actor.driver.next_round()
    actor.ops_seen = 0
    actor.log = []
    actor.end_shoe_after_round = False
    await actor.publish({"type": "betting_open", "closes_at": actor.deadline_at, "round": 1})


async def cut_card(actor: TableActor, command: Command) -> dict[str, Any]:
    _dealer_or_supervisor(actor, command, "the cut card")
    _live(actor, "the cut card")
    round_ = actor.round
    if round_ is None:
        raise _refused("no round is open to report the cut card in")
    position = round_.report_cut_card()
    shoe_id = actor.shoe_id
    async with actor.sessions() as session, session.begin():
        await session.execute(update(ShoeRecord).where(ShoeRecord.id == shoe_id).values(cut_card=position))
    await actor.publish_engine_events()
    return {"accepted": True, "cut_card": position}


# ------------------------------------------------------------------------------------------------
# the dealer's errors


def _awaiting_card(actor: TableActor) -> GameRound:
    round_ = actor.round
    if round_ is None or actor.phase != "playing" or round_.pending().kind != "card":
        raise _refused("the table is not dealing: no card is due from the shoe now")
    return round_


async def face_up_card(actor: TableActor, command: Command) -> dict[str, Any]:
    _dealer_or_supervisor(actor, command, "a card found face up")
    _live(actor, "a card found face up")
    refusal = game_of(actor.game).face_up_card_refusal
    if refusal is not None:
        raise _refused(refusal)
    round_ = _awaiting_card(actor)
    card = read_card(command.payload.get("card"))
    round_.void_face_up_card(card)
    await actor.publish_engine_events()
    return {"accepted": True, "voided": str(card), "reason": "a card found face up in the shoe is void (Art. 2.1)"}


async def void_card(actor: TableActor, command: Command) -> dict[str, Any]:
    _supervisor(command, "voiding a card the dealer drew by mistake", "Art. 3.2a")
    _live(actor, "a card drawn by mistake")
    refusal = game_of(actor.game).void_card_refusal
    if refusal is not None:
        raise _refused(refusal)
    round_ = actor.round
    if round_ is None or actor.phase != "playing":
        raise _refused("no round in play")
    card = read_card(command.payload.get("card"))
    reason = str(command.payload.get("reason") or "a card the dealer drew by mistake is void (Art. 3.2a)")
    round_.void_card(card, reason)
    await actor.publish_engine_events()
    return {"accepted": True, "voided": str(card), "reason": reason}


async def move_card(actor: TableActor, command: Command) -> dict[str, Any]:
    _supervisor(command, "moving a misdealt card", "Art. 2.1; baccarat Art. 10")
    _live(actor, "a misdealt card")
    round_ = actor.round
    if round_ is None or actor.phase != "playing":
        raise _refused("no round in play")
    card = read_card(command.payload.get("card"))
    try:
        where = round_.move_misdealt(card, command.payload)
    except UnreadableRequest as unreadable:
        raise _refused(str(unreadable), 422) from None
    await actor.publish_engine_events()
    return {"accepted": True, "moved": str(card), **where}


async def misdeal(actor: TableActor, round_: GameRound | None) -> dict[str, Any]:
    """A misdeal that cannot be corrected, approved by a supervisor (the actor checked the role): the round
    voids its deal as its game says (blackjack Art. 2.1, online §3.5; baccarat Art. 10) and the bets stand;
    a round that redeals is replaced by its redeal, dealt from the same shoe after its burns."""
    if round_ is None:
        raise _refused("no deal in play to void")
    voided = round_.misdeal(in_play=actor.phase == "playing", earlier=len(actor.misdeals))
    actor.voided_cards.extend(voided.voided)
    actor.misdeals.append(voided.dealt)
    actor.misdeal_burn = voided.burn
    await actor.publish_engine_events()
    if voided.redeals:
        fresh = round_.redeal()
        actor.round = fresh
        actor.ops_seen = 0
        fresh.close_betting()
        await actor.publish({"type": "redeal", "burn": voided.burn})
        await actor.publish_engine_events()
    return {"accepted": True, "misdeal": True, "burn": voided.burn}


COMMANDS: dict[str, Callable[[TableActor, Command], Awaitable[dict[str, Any]]]] = {
    "shuffle": shuffle,
    "end_shoe": end_shoe,
    "cut_card": cut_card,
    "face_up_card": face_up_card,
    "void_card": void_card,
    "move_card": move_card,
}
"""The live shoe's commands, by the kind the actor is sent."""
