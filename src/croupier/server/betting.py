"""A table's bets, and the bets that reach a table together taken together (group commit).

A bet is checked first on its own (who bets, the betting window, the amount, the chip, the spot: no
database), then with the others of its group in one database transaction. In the order they arrived,
each is checked against the bets before it on a trial copy of the round (the table's limits, the box's
bettors, the seat it takes); a bet the rules refuse there has written nothing, and the others stand.
Then every wallet the group moves (its players' and the table's money in play) is moved by one
conditional update (``ledger.Postings.post_all``), and the ledger's transactions and entries, the bet
records and the idempotency records of the group are written in a few statements, and the group commits
once. If a player's balance cannot cover their bets, that update changes nothing, and the group is taken
one bet after another instead, each wallet debited by an update of its own, so that only the bet the
balance cannot cover is refused (and the seat it would have taken is left to the bets after it). Only
after the commit does the engine take the bets, in the same order, and every player gets the answer: a
bet is never answered before its ledger entries are committed. If the commit fails, nothing of the group
was kept and every bet of it gets the failure's answer (all or nothing).

The group is what waited on the table's queue when the actor came to it (the bets that arrived while
the table's last transaction was committing): no bet waits for a timer to be grouped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from croupier.errors import CroupierError, MoneyError
from croupier.money import format_amount, parse_amount
from croupier.server import drivers, faults, ledger, seating, stakes
from croupier.server.commands import Command, Refused
from croupier.server.db import retrying
from croupier.server.models import BetRecord, IdempotencyRecord

if TYPE_CHECKING:
    from croupier.server.actor import TableActor
    from croupier.server.game_round import GameRound
    from croupier.server.models import LedgerTransaction

MAX_AMOUNT_DIGITS = 15
"""An amount with more integer digits than this is refused at once (a wallet holds at most 10^13)."""
GROUP_MOST = 64
"""The most bets one transaction takes: a longer queue is taken in groups of this many."""


@dataclass
class Bet:
    """One bet of a group: its command, what it asks, and what became of it."""

    command: Command
    spot: str
    amount: Decimal
    cents: int
    match: bool
    sits_at: int | None = None
    seated: dict[int, str] = field(default_factory=dict)  # the seats as the trial saw them at this bet
    balance: int = 0  # the player's balance after it
    ledger: LedgerTransaction | None = None  # its money's transaction
    answer: dict[str, Any] | None = None
    error: Exception | None = None


def check(actor: TableActor, command: Command) -> Bet:
    """The bet's own checks, before any money: a :class:`Refused` names the rule."""
    who = command.identity
    if who.role != "player":
        raise Refused("only players bet", 403)
    if command.key is None:
        raise Refused("a bet needs an Idempotency-Key header", 400)
    if actor.phase != "betting" or actor.round is None:
        raise Refused('"No more bets": betting is closed at this table (online §2.1.4)')
    if actor.closing:
        raise Refused(f"table {actor.name} is closing: it takes no new bets")
    spot = str(command.payload.get("spot", command.payload.get("box", "")))
    amount = positive_amount(command.payload.get("amount"), "bet")
    cents = ledger.to_minor(amount, "bet")
    if cents % actor.row.chip:
        raise Refused(
            f"bet: {format_amount(amount)} is not a whole number of the table's "
            f"{ledger.money_text(actor.row.chip)} chips",
            422,
        )
    match = command.payload.get("match", True)
    if not isinstance(match, bool):
        raise Refused("bet: match is true or false (Art. 13: whether to match the decider's double or split)", 422)
    seating.verify_spot(actor, who, command.payload.get("seat"))
    return Bet(command, spot, amount, cents, match)


async def handle(actor: TableActor, commands: list[Command]) -> None:
    """Bets that waited on the table's queue together, taken together: each answered after the group's
    commit (a key sent before is answered as it was then). A bet whose key another bet of the group carries
    waits for the group and comes after it, alone. A fault part-way (the actor then voids the round) or the
    actor's end leaves none of them without an answer."""
    try:
        await _handle(actor, commands)
    except BaseException as error:
        for command in commands:
            if command.future.done():
                continue
            if isinstance(error, Exception):
                await actor.fail(command, error)
            else:  # the actor was stopped: nothing of the bet was kept
                command.future.set_exception(Refused(f"table {actor.name} is closing; nothing was changed", 503))
        raise


async def _handle(actor: TableActor, commands: list[Command], *, read_first: bool = False) -> None:
    """``commands`` taken as one group. A bet is taken as new, without first reading whether its key was
    answered before: a key kept before makes the group's insert of it fail on the table's unique key
    (account, scope, key), nothing of the group kept, and each bet is then taken alone after that read
    (``read_first``); a bet refused is answered after the read of its own key (:func:`_refuse`). Either way
    a key sent before is answered as it was then, and one kept for another request is refused, as if read
    first; the read, a trip to the database before every group, is made only for those."""
    group: list[Bet] = []
    later: list[Command] = []
    keys: set[tuple[int, str | None]] = set()
    if read_first:
        try:
            stored = await actor.stored_answers(commands)
        except SQLAlchemyError as error:  # the database is away: every bet is answered so, the table deals on
            for command in commands:
                await actor.fail(command, error)
            return
    else:
        stored = [None] * len(commands)
    for command, replayed in zip(commands, stored, strict=True):
        try:
            if isinstance(replayed, Refused):
                raise replayed
            if replayed is None:
                bet = check(actor, command)
        except Exception as error:
            if await _refuse(actor, command, error, read=not read_first):
                raise
            continue
        if replayed is not None:
            command.future.set_result(replayed)
        elif (command.identity.id, command.key) in keys:
            later.append(command)
        else:
            keys.add((command.identity.id, command.key))
            group.append(bet)
    if group and not await _take(actor, group, read_first=read_first):
        later = [bet.command for bet in group] + later
        group = []
    await _answer(actor, group, read=not read_first)
    for command in later:
        await _handle(actor, [command], read_first=True)


async def _refuse(actor: TableActor, command: Command, error: Exception, *, read: bool) -> bool:
    """``command`` answered with ``error`` (:meth:`TableActor.fail`, whose answer this returns), but when
    ``read`` and its key was kept before: then with that key's first answer, or the refusal of a key kept
    for another request, as a bet whose key was read first would have been."""
    if read and command.key is not None and isinstance(error, CroupierError):
        try:
            [stored] = await actor.stored_answers([command])
        except SQLAlchemyError:  # the database is away: the refusal stands
            stored = None
        if isinstance(stored, Refused):
            error = stored
        elif stored is not None:
            if not command.future.done():
                command.future.set_result(stored)
            return False
    return await actor.fail(command, error)


async def _take(actor: TableActor, group: list[Bet], *, read_first: bool) -> bool:
    """The group taken (:func:`take`), or its failure answered to each of its bets; False when a key of
    the group was kept before (taken as new: ``read_first`` false) or raced in from another process:
    nothing was kept, and each bet is to be taken alone after the read of its key."""
    try:
        await take(actor, group)
    except Exception as error:  # nothing of the group was kept: each bet gets the failure's answer
        if isinstance(error, IntegrityError) and (len(group) > 1 or not read_first):
            return False
        faulted = [
            await _refuse(actor, bet.command, error, read=not read_first)
            for bet in group
            if not bet.command.future.done()
        ]
        if any(faulted):
            raise
    return True


async def _answer(actor: TableActor, group: list[Bet], *, read: bool) -> None:
    for bet in group:
        if bet.error is not None:
            await _refuse(actor, bet.command, bet.error, read=read)
        elif bet.answer is not None and not bet.command.future.done():
            bet.command.future.set_result(bet.answer)


def positive_amount(raw: object, what: str) -> Decimal:
    """An amount of a request as the actor reads it (the route's reader again, croupier.server.inputs: a
    command may reach the actor from another process)."""
    if isinstance(raw, bool) or raw is None:
        raise Refused(f"{what}: give the amount", 422)
    try:  # strictly, before any arithmetic: ASCII digits, a bounded length and exponent (croupier.numbers)
        if not isinstance(raw, int | str):
            raise MoneyError(f"{what}: not decimal text")
        value = parse_amount(raw, what=what)
    except MoneyError:
        raise Refused(f"{what}: {raw!r} is not an amount", 422) from None
    if value <= 0:
        raise Refused(f"{what}: {raw!r} is not a positive amount", 422)
    if value.adjusted() > MAX_AMOUNT_DIGITS:  # far above any wallet: refused before any arithmetic on it
        raise Refused(f"{what}: {raw!r} is more than a wallet holds", 422)
    return value


async def take(actor: TableActor, group: list[Bet]) -> list[Bet]:
    """Take ``group`` (each already :func:`check`-ed) in one transaction; the bets taken, in order. Each
    bet refused alone has its ``error``; a failure of the whole transaction (the database, the lease) is
    raised, with nothing of the group kept."""
    assert actor.round is not None
    round_ = actor.round
    together = len(group) > 1

    async def store() -> tuple[int, list[Bet]]:
        for bet in group:
            bet.error, bet.answer, bet.sits_at = None, None, None
        taken: list[Bet] = []
        try:
            async with actor.sessions() as session, session.begin() as transaction:
                round_id = await stakes.round_record(actor, session)
                postings = ledger.Postings(session, "bet", actor.clock.now(), [actor.own_wallets().in_play])
                # (the group's update locks its wallets; a bet alone locks its player's, then the table's)
                at_once = await _all_at_once(actor, round_.trial(), group, postings, round_id) if together else None
                if at_once is None:  # a bet alone, or a player short: one by one, to know whose bet is refused
                    if together:
                        await stakes.lock_bettors(actor, session, [bet.command.identity.id for bet in group])
                    taken = await _one_by_one(actor, round_.trial() if together else round_, group, postings, round_id)
                else:
                    taken = at_once
                if not taken:
                    await transaction.rollback()  # no bet stands: not even the round's record is kept
                    return round_id, taken
                await postings.write(_records(actor, round_id, taken))
        except BaseException:
            for bet in reversed(taken):  # nothing was kept: neither are the seats the bets took
                _leave(actor, bet)
            round_.set_seated(actor.seats.names())
            raise
        return round_id, taken

    round_id, taken = await retrying(store, pause=actor.pause)  # a deadlock rolled it back whole: again
    if taken:
        actor.round_id = round_id
    await _play(actor, round_, taken)
    return taken


async def _all_at_once(
    actor: TableActor, trial: GameRound, group: list[Bet], postings: ledger.Postings, round_id: int
) -> list[Bet] | None:
    """The group's bets checked by the rules on ``trial`` in the order they came, each against those before
    it, then every debit made by one statement (``ledger.Postings.post_all``); the bets taken. None when a
    player's balance cannot cover their bets: then no wallet and no seat has changed, and the caller takes
    the bets one by one (:func:`_one_by_one`), which finds whose."""
    planned: list[Bet] = []
    in_play = actor.own_wallets().in_play
    try:
        for bet in group:
            try:
                with _seated(actor, trial, bet):
                    trial.verify_bet(bet.command.identity.name, bet.spot, bet.amount)
            except CroupierError as error:  # the rules: nothing of it was written
                bet.error = error
                continue
            trial.bet(bet.command.identity.name, bet.spot, bet.amount)
            planned.append(bet)
        wallets = [await stakes.player_wallet(actor, postings.session, bet.command.identity.id) for bet in planned]
        posted = await postings.post_all(
            [
                ([(wallet, -bet.cents), (in_play, bet.cents)], round_id, f"bet on {bet.spot}")
                for bet, wallet in zip(planned, wallets, strict=True)
            ]
        )
    except BaseException:
        _undo(actor, planned)
        raise
    if posted is None:
        _undo(actor, planned)
        for bet in group:
            bet.error = None
        return None
    for bet, wallet, (record, after) in zip(planned, wallets, posted, strict=True):
        bet.ledger, bet.balance = record, after[wallet]
    return planned


def _undo(actor: TableActor, planned: list[Bet]) -> None:
    """The seats that ``planned`` took on trial given back, the last first."""
    for bet in reversed(planned):
        _leave(actor, bet)


async def _one_by_one(
    actor: TableActor, trial: GameRound, group: list[Bet], postings: ledger.Postings, round_id: int
) -> list[Bet]:
    """The group's bets taken one after another, each checked by the rules on ``trial`` against those
    before it and its wallet debited by its own conditional update; the bets taken. A bet refused (the
    rules, or its player's balance) has its ``error`` and wrote nothing; alone, it is raised."""
    together = len(group) > 1
    in_play = actor.own_wallets().in_play
    taken: list[Bet] = []
    try:
        for bet in group:
            try:
                with _seated(actor, trial, bet):
                    trial.verify_bet(bet.command.identity.name, bet.spot, bet.amount)
                    wallet = await stakes.player_wallet(actor, postings.session, bet.command.identity.id)
                    bet.ledger, after = await postings.post(
                        [(wallet, -bet.cents), (in_play, bet.cents)],
                        round_id=round_id,
                        memo=f"bet on {bet.spot}",
                        who=bet.command.identity.name,
                    )
                    bet.balance = after[wallet]
            except CroupierError as error:  # the rules, or the balance: nothing of it was written
                if not together:
                    raise
                bet.error = error
                continue
            if together:  # the next bet is checked against this one
                trial.bet(bet.command.identity.name, bet.spot, bet.amount)
            taken.append(bet)
    except BaseException:
        _undo(actor, taken)
        raise
    return taken


def _records(actor: TableActor, round_id: int, taken: list[Bet]) -> list[tuple[Table, list[dict[str, Any]]]]:
    """The bets' records and their answers, kept with their keys: written with the group's ledger
    transactions (``ledger.Postings.write``), each bet's record naming its transaction."""
    now = actor.clock.now()
    bets, answers = [], []
    for bet in taken:
        who = bet.command.identity
        assert bet.ledger is not None
        bets.append(
            {
                "round_id": round_id,
                "account_id": who.id,
                "kind": "bet",
                "spot": bet.spot,
                "amount": bet.cents,
                "balance_after": bet.balance,
                "transaction_id": bet.ledger,
                "created_at": now,
            }
        )
        bet.answer = {
            "accepted": True,
            "round": round_id,
            "spot": bet.spot,
            "amount": ledger.money_text(bet.cents),
            "balance": ledger.money_text(bet.balance),
        }
        keyed = actor.keyed(bet.command)
        if keyed is not None:
            answers.append(keyed.row(bet.answer, now))
    return [(BetRecord.__table__, bets), (IdempotencyRecord.__table__, answers)]  # type: ignore[list-item]


@contextlib.contextmanager
def _seated(actor: TableActor, trial: GameRound, bet: Bet) -> Iterator[None]:
    """A player who sits nowhere takes the empty box they bet on (Art. 2.3), for the bet's trial; a bet
    refused gives the box back."""
    who = bet.command.identity
    bet.sits_at = seating.seat_for_bet(actor, who, bet.spot)
    if bet.sits_at is not None:
        actor.seats.sit(who.id, who.name, bet.sits_at)
    bet.seated = actor.seats.names()
    trial.set_seated(bet.seated)
    try:
        yield
    except BaseException:
        _leave(actor, bet)
        trial.set_seated(actor.seats.names())
        raise


def _leave(actor: TableActor, bet: Bet) -> None:
    if bet.sits_at is not None:
        actor.seats.leave(bet.command.identity.name, bet.sits_at)
        bet.sits_at = None


async def _play(actor: TableActor, round_: GameRound, taken: list[Bet]) -> None:
    """After the commit: the engine takes the bets, in the order the trial took them, and the table sees
    each (the seat it took, the bet); every bettor is told their balance."""
    for bet in taken:
        who = bet.command.identity
        actor.balance_before.setdefault(who.id, bet.balance + bet.cents)
        actor.accounts[who.name] = who.id
        if drivers.game_of(actor.game).shared_boxes:
            actor.matching[(who.name, int(bet.spot))] = bet.match
        round_.set_seated(bet.seated)
        if bet.sits_at is not None:
            await actor.publish({"type": "seated", "box": bet.sits_at, "player": who.name})
        with faults.after_commit("bet"):
            round_.bet(who.name, bet.spot, bet.amount)
        stakes.watch_edge(actor, who.name, bet.spot, bet.amount)
        await actor.publish_engine_events()
    round_.set_seated(actor.seats.names())
    for bet in taken:
        await actor.tell_balance(bet.command.identity.id, bet.balance)
