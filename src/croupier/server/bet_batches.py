"""The bet groups of several tables that wait together, taken in one database transaction (SQLite).

On SQLite one transaction writes at a time, and a transaction's time is mostly its statements' turns
through the event loop, not SQLite's work (docs/performance.md): when the betting windows of many tables
open together, their groups of bets (``croupier.server.betting``) passed the write gate one after another,
about ten statements each, and the last table's players waited for all of them. The batcher takes the
groups of every table that are waiting when it comes to them in one transaction, by statements that serve
them all: one read of the tables' lease epochs (the fence of each), the round records the groups open,
one update of every wallet they move, one insert of the ledger's transactions, one of their entries, one
of the bet records and one of the stored answers, one commit.

A group that waits alone is taken as before, by its own table (``betting.take``), and so is every group of
a batch that cannot be taken whole: a player's balance cannot cover the bets of the batch, a table's lease
went to another process, or the batch's transaction failed (a key sent twice from two processes, the
disk). Nothing of such a batch is kept (its seats are given back), and each of its groups is then taken by
its table, one after another, where it is refused or taken for its own reasons. So a batch changes how
many statements the bets cost, never what becomes of a bet: each group is all or nothing, and every
answer is sent after the commit that holds its ledger entries.

One batch, or one group alone, at a time: the batcher is the process's one writer of bets, as the write gate
would make it anyway on SQLite; the groups that arrive meanwhile wait for the next batch. On PostgreSQL,
where the tables' transactions run side by side, there is no batcher.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from croupier.server import ledger, stakes
from croupier.server.models import BetRecord, GameTable, IdempotencyRecord

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from croupier.server.actor import TableActor
    from croupier.server.betting import Bet

log = logging.getLogger("croupier.server")

BATCH_MOST = 256
"""The most bets one batch takes (the groups after wait for the next)."""

Outcome = tuple[int, list["Bet"]]
"""What became of a group: the id of the round record its bets were taken on, and the bets taken."""


@dataclass
class Job:
    """One table's group, waiting for the batcher. Its future's result is the group's outcome when a batch
    took it, or None when its table is to take it alone (the batcher then waits for ``done``)."""

    actor: TableActor
    group: list[Bet]
    future: asyncio.Future[Outcome | None]
    done: asyncio.Event = field(default_factory=asyncio.Event)
    planned: list[Bet] = field(default_factory=list)


def fence_of(actor: TableActor) -> tuple[int, int] | None:
    """(table id, lease epoch) that the actor's writes carry (``croupier.server.fence``), if it is known."""
    kw: dict[str, Any] = getattr(actor.sessions, "kw", None) or {}
    fence = (kw.get("info") or {}).get("fence")
    return fence if isinstance(fence, tuple) else None


class Batcher:
    """The bet groups of a process's tables (module docstring): a table's actor takes its turn
    (:meth:`turn`)."""

    def __init__(self, sessions: Callable[[], AsyncSession]) -> None:
        self.sessions = sessions
        self.waiting: list[Job] = []
        self.task: asyncio.Task[None] | None = None
        self.batches = 0  # batches of more than one table taken (for tests and diagnostics)

    @contextlib.asynccontextmanager
    async def turn(self, actor: TableActor, group: list[Bet]) -> AsyncIterator[Outcome | None]:
        """Wait for ``group``'s turn: what a batch made of it, or None when the table is to take it alone now,
        inside the block (the batcher takes no other group meanwhile). A table stopped while its group is in
        a batch waits for the batch's end, and the bets the batch took are answered as taken."""
        job = Job(actor, group, asyncio.get_running_loop().create_future())
        self.waiting.append(job)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain(), name="bet-batches")
        try:
            outcome = await asyncio.shield(job.future)
        except asyncio.CancelledError:
            await self._abandon(job)
            raise
        try:
            yield outcome
        finally:
            job.done.set()

    async def _abandon(self, job: Job) -> None:
        if job in self.waiting:  # not begun: nothing of it will be
            self.waiting.remove(job)
            job.future.cancel()
        while not job.future.done():  # in a batch now: its end is waited for, whatever is asked meanwhile
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(job.future)
        if not job.future.cancelled() and job.future.exception() is None:
            outcome = job.future.result()
            for bet in outcome[1] if outcome is not None else []:
                if bet.answer is not None and not bet.command.future.done():
                    bet.command.future.set_result(bet.answer)  # committed: taken, whatever the table does next
        job.done.set()

    async def _drain(self) -> None:
        batch: list[Job] = []
        try:
            while self.waiting:
                batch, count = [], 0
                while self.waiting and (not batch or count + len(self.waiting[0].group) <= BATCH_MOST):
                    job = self.waiting.pop(0)
                    batch.append(job)
                    count += len(job.group)
                if len(batch) > 1 and await self._together(batch):
                    self.batches += 1
                    continue
                for job in batch:  # alone: its table takes it, as without a batcher, and the next waits
                    if not job.future.done():
                        job.future.set_result(None)
                        await job.done.wait()
        except BaseException:
            for job in [*batch, *self.waiting]:
                if not job.future.done():
                    job.future.cancel()
                job.done.set()
            raise

    async def _together(self, batch: list[Job]) -> bool:
        """The batch taken in one transaction, each job's future given its outcome; False when it could not
        be taken whole (nothing of it kept, every seat given back): its groups are then taken alone."""
        try:
            outcome = await self._store(batch)
        except Exception:
            log.info("a batch of %s tables' bets was taken apart, each table alone", len(batch), exc_info=True)
            outcome = None
        if outcome is None:
            for job in batch:
                _give_back(job)
            return False
        for job, result in zip(batch, outcome, strict=True):
            if not job.future.done():
                job.future.set_result(result)
        return True

    async def _store(self, batch: list[Job]) -> list[Outcome] | None:
        from croupier.server import betting

        fences = [fence_of(job.actor) for job in batch]
        if any(fence is None for fence in fences) or any(job.actor.round is None for job in batch):
            return None
        now = batch[0].actor.clock.now()
        for job in batch:  # the rules, on each table's trial copy of its round: no database
            round_ = job.actor.round
            assert round_ is not None
            job.planned = betting.plan(job.actor, round_.trial(), job.group)
        wallets: dict[int, int] = {}  # each bet's player's wallet (remembered by its table once read)
        for job in batch:
            async with job.actor.readers() as reader:
                for bet in job.planned:
                    wallets[id(bet)] = await stakes.player_wallet(job.actor, reader, bet.command.identity.id)
        async with self.sessions() as session, session.begin() as transaction:
            ids = [fence[0] for fence in fences if fence is not None]
            found = await session.execute(select(GameTable.id, GameTable.epoch).where(GameTable.id.in_(ids)))
            epochs = {int(table_id): int(epoch) for table_id, epoch in found.all()}
            if any(fence is None or epochs.get(fence[0]) != fence[1] for fence in fences):
                return None  # a lease went elsewhere: that table finds out by itself
            rounds = await stakes.round_records(session, [job.actor for job in batch if job.planned])
            rounds = [rounds.pop(0) if job.planned else 0 for job in batch]
            in_play = [job.actor.own_wallets().in_play for job in batch]
            postings = ledger.Postings(session, "bet", now, in_play)
            await ledger.lock_wallets(session, [*in_play, *wallets.values()])
            moves = [
                ([(wallets[id(bet)], -bet.cents), (wallet, bet.cents)], round_id, f"bet on {bet.spot}")
                for job, round_id, wallet in zip(batch, rounds, in_play, strict=True)
                for bet in job.planned
            ]
            posted = await postings.post_all(moves) if moves else []
            if posted is None:
                await transaction.rollback()
                return None  # a player short: each table alone finds whose bet is refused
            taken = iter(posted)
            for job in batch:
                for bet in job.planned:
                    bet.ledger, after = next(taken)
                    bet.balance = after[wallets[id(bet)]]
            await postings.write()
            bets: list[dict[str, Any]] = []
            answers: list[dict[str, Any]] = []
            for job, round_id in zip(batch, rounds, strict=True):
                rows, keyed = betting.rows(job.actor, round_id, job.planned, now)
                bets += rows
                answers += keyed
            if bets:
                await session.execute(insert(BetRecord), bets)
            if answers:
                await session.execute(insert(IdempotencyRecord), answers)
        return [(round_id, job.planned) for job, round_id in zip(batch, rounds, strict=True)]


def _give_back(job: Job) -> None:
    """The seats the batch's trial gave ``job``'s bets, given back; the bets as they came."""
    from croupier.server import betting

    betting.undo(job.actor, job.planned)
    if job.actor.round is not None:
        job.actor.round.set_seated(job.actor.seats.names())
    for bet in job.group:
        bet.error, bet.answer, bet.ledger = None, None, None
    job.planned = []
