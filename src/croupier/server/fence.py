"""Lease fencing: the writes of a table's owner carry its lease epoch, and a stale owner's are refused.

A table runs in one process at a time, under a lease the process renews (``Service.lease_round``).
A process that freezes (a long pause, an overloaded host) stops renewing; another process then takes
the table over, voids the round in play and returns its bets. When the frozen process wakes, its
actor still believes it runs the table: without a fence it would go on and settle the round the new
owner has just voided, and the money would move twice.

Every acquisition of a table's lease adds one to the table's ``epoch`` (the fencing token), and the
actor that runs it holds the epoch it was started with. Every database transaction of that actor (a
bet, a stake, a settlement, a refund, a shoe record, a round record) begins by reading the table's
epoch with a shared row lock (``SELECT … FOR SHARE`` on PostgreSQL; on SQLite the transaction already
holds the database's write lock from its ``BEGIN IMMEDIATE``), so no takeover can commit between the
check and the transaction's commit. A transaction whose epoch is no longer the table's raises
:class:`LeaseLost` before it writes anything: it is rolled back, and the actor stops without moving
money (the new owner has returned the stakes).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, select
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session, SessionTransaction

from croupier.server.models import GameTable


class LeaseLost(Exception):
    """The table's lease went to another process: this actor's write is refused, and the actor stops.

    Deliberately neither a :class:`~croupier.errors.CroupierError` (a refusal) nor a database error (a
    request that could not be stored): a fault the actor does not contain but ends on."""

    def __init__(self, table_id: int, held: int, current: int | None) -> None:
        now = "the table is gone" if current is None else f"the table's epoch is now {current}"
        super().__init__(
            f"table {table_id}: the lease went to another process (this process holds epoch {held}; {now}): "
            "nothing was written"
        )
        self.table_id = table_id
        self.held = held
        self.current = current


class FencedSession(Session):
    """A session whose every transaction checks the fence in ``info["fence"]`` first."""


@event.listens_for(FencedSession, "after_begin")
def _check_fence(session: Session, _transaction: SessionTransaction, connection: Connection) -> None:
    fence: Any = session.info.get("fence")
    if fence is None:
        return
    table_id, epoch = fence
    current = connection.execute(
        select(GameTable.epoch).where(GameTable.id == table_id).with_for_update(read=True)
    ).scalar()
    if current != epoch:
        raise LeaseLost(table_id, epoch, current)


def fenced_sessions(engine: AsyncEngine, table_id: int, epoch: int) -> async_sessionmaker[AsyncSession]:
    """Sessions for the actor that runs ``table_id`` under lease epoch ``epoch``: every transaction of
    theirs is refused (:class:`LeaseLost`) once another process has taken the table over."""
    return async_sessionmaker(
        engine, expire_on_commit=False, sync_session_class=FencedSession, info={"fence": (table_id, epoch)}
    )
