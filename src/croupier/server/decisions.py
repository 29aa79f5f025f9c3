"""A player's decision at a table (hit, stand, double, split, surrender, insurance, even money; a baccarat
turn), and its key (docs/protocol.md, Idempotency).

A decision is verified against the engine; the stakes it adds (a double, a split, insurance; the box's
other bettors' matching stakes, Art. 13) are taken in one database transaction with the decision's
idempotency record, and only then does the engine make the move.

A decision sent again under its ``Idempotency-Key`` gets its first answer and is not made twice. The
table's actor remembers the answers of its latest decisions under their keys
(:data:`DECISIONS_REMEMBERED`, the oldest forgotten first), those that move no money included, which the
database does not keep: a hit sent again after a broken connection does not draw a second card. A new
decision reads nothing before it is made: the memory answers the decisions sent again to the actor that
made them, and a decision the rules refuse (the hand it names is done, the round is over) is answered
from the database when its key was kept there with its money, by an actor that ran the table before
this one. A decision that adds a stake under a key kept before fails on the key's insert in its
transaction and is answered the same way (``TableActor.fail``). What the actor does not remember (it
is new, or the key was pushed out) is not found for a decision that moves no money: it is made as new,
unchecked against a key the database keeps for a decision with money (docs/protocol.md).
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from croupier.errors import CroupierError
from croupier.server import faults, ledger, stakes
from croupier.server.commands import Command, Refused

if TYPE_CHECKING:
    from croupier.server.actor import TableActor

log = logging.getLogger("croupier.server")

DECISIONS_REMEMBERED = 512
"""The answers of a table's latest keyed decisions its process keeps in memory: a round's are a few dozen
(14 bettors, each hand a few decisions), so a key sent again within many rounds is found."""


async def act(actor: TableActor, command: Command) -> dict[str, Any]:
    """``command``'s decision, made once under its key (the module's docstring)."""
    keyed = actor.keyed(command)
    recalled = actor.decided.recall(keyed) if keyed is not None else None
    if recalled is not None:
        return recalled
    try:
        answer = await _decide(actor, command)
    except CroupierError as refusal:
        try:  # kept with its money, before this process ran the table
            stored = await actor.stored_answer(command)
        except SQLAlchemyError:  # the database is away: the rules' refusal stands
            raise refusal from None
        if stored is None:
            raise
        answer = stored
    if keyed is not None:
        actor.decided.keep(keyed, answer)
    return answer


async def _decide(actor: TableActor, command: Command) -> dict[str, Any]:
    who = command.identity
    if actor.phase != "playing" or actor.round is None:
        raise Refused("there is no decision to make now: the round is not in play")
    round_ = actor.round
    action = dict(command.payload)
    kind = action.get("type")
    # Art. 13: the other bettors of a shared box match the decider's double or split by their own
    # standing choice; one whose balance cannot cover the match does not match. The decider is never
    # refused for another bettor's money.
    declined = frozenset(
        player for (player, box), match in actor.matching.items() if box == action.get("box") and not match
    )
    declined -= {who.name}
    for _attempt in range(3):
        required = round_.stakes_for(who.name, action, declined)
        money = {player: ledger.to_minor(amount, f"{kind} for {player}") for player, amount in required.items()}
        if money and command.key is None:
            raise Refused(f"{kind} puts money on the table: it needs an Idempotency-Key header", 400)
        matched = round_.others_match(who.name, action)
        short = await stakes.cannot_cover(actor, money, who.name) if matched else set()
        if short:
            declined |= short
            continue
        try:
            answer, balances = await stakes.take_stakes(actor, command, money, declined, matched=matched)
        except ledger.InsufficientFunds:
            short = await stakes.cannot_cover(actor, money, who.name)
            if not short:
                raise  # the decider's own money: the decision is refused
            declined |= short
            continue
        break
    else:
        raise Refused(f"{kind}: the other bettors' balances kept changing; try again", 409)
    before = round_.staked()
    if money:
        with faults.after_commit(str(action.get("type"))):
            round_.act(who.name, action, declined)
    else:
        round_.act(who.name, action, declined)
    after_staked = round_.staked()
    for player, amount in required.items():
        if after_staked.get(player, Decimal(0)) - before.get(player, Decimal(0)) != amount:
            log.error("table %s: %s's stake moved otherwise than taken", actor.name, player)
    await actor.publish_engine_events()
    for account_id, cents in balances.items():
        await actor.tell_balance(account_id, cents)
    return answer
