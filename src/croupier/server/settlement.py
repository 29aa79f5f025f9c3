"""A table's rounds end here: settled (or void, every bet returned) in one database transaction, its
record and log kept; bets standing after a tie carried, or returned when their coup will not be dealt;
and, when a table starts, what a stopped process left unfinished is voided and returned (Art. 2.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select, update

from croupier.server import ledger, stakes
from croupier.server.db import retrying
from croupier.server.models import BetRecord, RoundRecord, ShoeRecord

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from croupier.server.actor import TableActor


async def recover(actor: TableActor) -> None:
    """Void what a stopped process left unfinished and return its bets; end its shoes. The table's own
    wallets are found (or made) first: every movement of the table's money is theirs."""
    async with actor.sessions() as session, session.begin():
        wallets = await ledger.table_wallets(session, actor.table_id)
        actor.wallets = wallets  # unfinished rounds are returned from them (this transaction's, or the next try's)
        unfinished = (
            await session.scalars(
                select(RoundRecord).where(
                    RoundRecord.table_id == actor.table_id, RoundRecord.status.in_(("betting", "playing"))
                )
            )
        ).all()
        accounts = (
            await session.scalars(
                select(BetRecord.account_id).where(BetRecord.round_id.in_([r.id for r in unfinished])).distinct()
            )
        ).all()
        players = [await stakes.player_wallet(actor, session, account_id) for account_id in accounts]
        await ledger.lock_wallets(session, [wallets.in_play, *players])
        for record in unfinished:
            await actor.refund(
                session,
                record,
                "the server stopped during the round; it is void and every bet is returned (Art. 2.1)",
            )
        await session.execute(
            update(ShoeRecord)
            .where(ShoeRecord.table_id == actor.table_id, ShoeRecord.ended_at.is_(None))
            .values(ended_at=actor.clock.now())
        )


async def refund(actor: TableActor, session: AsyncSession, record: RoundRecord, reason: str) -> dict[int, int]:
    """Void ``record`` and return every bet of it, in ``session``; each account's balance after."""
    bets = (await session.scalars(select(BetRecord).where(BetRecord.round_id == record.id))).all()
    per_account: dict[int, int] = {}
    for bet in bets:
        per_account[bet.account_id] = per_account.get(bet.account_id, 0) + bet.amount
    in_play = actor.own_wallets().in_play
    wallets = {account_id: await stakes.player_wallet(actor, session, account_id) for account_id in per_account}
    await ledger.lock_wallets(session, [in_play, *wallets.values()])  # at once, in one order: no deadlock
    balances: dict[int, int] = {}
    for account_id, amount in sorted(per_account.items()):
        wallet = wallets[account_id]
        _tx, after = await ledger.post(
            session,
            "refund",
            [(in_play, -amount), (wallet, amount)],
            round_id=record.id,
            memo=reason,
            now=actor.clock.now(),
        )
        balances[account_id] = after[wallet]
    record.status = "voided"
    record.ended_at = actor.clock.now()
    record.result = {"voided": reason, "returned": {str(a): ledger.money_text(c) for a, c in per_account.items()}}
    return balances


async def return_carry(actor: TableActor, reason: str) -> None:
    """Bets standing after a tie whose next coup will not be dealt (the table closes, the shoe ends):
    their round record is void and the bets are returned."""
    if actor.carry is None:
        return
    round_id, _accounts, _before = actor.carry
    actor.carry = None

    async def store() -> dict[int, int]:
        async with actor.sessions() as session, session.begin():
            record = await session.get(RoundRecord, round_id)
            if record is not None and record.status == "betting":
                return await actor.refund(session, record, reason)
            return {}

    balances = await retrying(store, pause=actor.pause)
    for account_id, cents in balances.items():
        await actor.tell_balance(account_id, cents)


async def finish_round(actor: TableActor) -> None:
    round_ = actor.round
    assert round_ is not None and actor.round_id is not None
    round_id = actor.round_id

    async def store() -> dict[int, int]:
        balances: dict[int, int]
        async with actor.sessions() as session, session.begin():
            record = await session.get(RoundRecord, round_id)
            assert record is not None
            cards = actor.voided_cards + round_.cards_drawn()  # set with the log, last: the row updated once
            if round_.voided:
                reason = "the round was void (Art. 2.1); every bet is returned"
                balances = await actor.refund(session, record, reason)
                record.spec = {"voided_after_cards": len(cards)}
            else:
                balances = await stakes.settle(actor, session, record, round_)
                face_up = round_.face_up_voided()
                if face_up:
                    record.result = {**(record.result or {}), "voided_cards": face_up}
                if actor.misdeals:
                    record.spec = {**(record.spec or {}), **round_.misdeal_spec(actor.misdeals, actor.misdeal_burn)}
            record.cards = cards
            record.log = actor.log
            carried = {} if round_.voided else round_.carried_out()
            if carried:
                await stakes.carry(actor, session, record, carried)
        return balances

    balances = await retrying(store, pause=actor.pause)  # a deadlock rolled it back whole: the same settlement again
    actor.fault_streak = 0
    if not round_.voided:
        actor.round_number += 1
    actor.last_round = {"id": actor.round_id, "voided": round_.voided, **round_.view()}
    await actor.publish({"type": "round_over", "round": actor.round_id, "voided": round_.voided})
    for account_id, cents in balances.items():
        await actor.tell_balance(account_id, cents)
    if round_.voided or round_.last_of_shoe or actor.end_shoe_after_round:
        actor.end_shoe_after_round = False
        await actor.end_shoe()
    actor.phase = "idle"
    actor.round = None
