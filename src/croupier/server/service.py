"""The server's service: its settings, its database, its hub and the tables it runs (leased, one
process at a time per table). The routes (``routes_*.py``) are thin: each reads its request and asks
the service, or a table's actor through :meth:`Service.submit`, to do the work.
"""

import asyncio
import contextlib
import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from croupier.errors import CroupierError
from croupier.server import codes
from croupier.server.actor import HANDED_OFF, TableActor
from croupier.server.auth import Identity
from croupier.server.clock import Clock, SystemClock, wait_until
from croupier.server.commands import Command, Refused
from croupier.server.db import is_sqlite, make_engine, migrate, normalise_url, retrying, sessions
from croupier.server.fence import fenced_sessions
from croupier.server.hub import Hub, RemoteError, Subscription
from croupier.server.identities import CHANNEL as IDENTITY_CHANNEL
from croupier.server.identities import Identities
from croupier.server.metrics import Metrics
from croupier.server.models import GameTable

log = logging.getLogger("croupier.server")

FAULT_PAUSE_S = 0.1
"""The pause before the revocations' subscription begins again after a fault (never a busy loop)."""


@dataclass
class Settings:
    database: str = "sqlite+aiosqlite:///croupier.db"
    redis: str | None = None
    demo: bool = True
    betting_seconds: float = 15.0
    decision_seconds: float = 20.0
    run_tables: bool = True
    seed: str | None = None
    """Only for tests and demonstrations: derive every shoe's server seed from this text, so that a run
    can be repeated. Never set on a real table: the seeds are then predictable."""
    lease_seconds: float = 10.0
    """How long a process holds a table without renewing; another process takes it over after that."""
    settle_heap: bool = False
    """``croupier serve``: what the process made by the end of its start frozen out of the cyclic garbage
    collector, and its full collections made every ``full_collection_seconds`` rather than by its own rule
    (croupier.server.heap). Off elsewhere: a test process starts many applications, and each would keep
    its start's objects for good."""
    full_collection_seconds: float = 60.0
    """With ``settle_heap``: the time between two full collections, the longest a cycle of references that
    outlived the young collections waits to be freed (each one stops the event loop: 80–175 ms with 1,000
    players connected on the machine of docs/performance.md)."""
    stagger: bool = True
    """Tables that a process starts together (its start, a takeover) open their first betting windows
    longer by a random part of one window each (:meth:`Service.start_table`), so that they do not deal in
    step from then on. Off in tests that time every table's windows by one clock."""
    redis_prefix: str = "croupier"
    """The prefix of every Redis channel: deployments that share one Redis use different prefixes."""
    redis_key: str | None = None
    """The key every process signs its Redis messages with (HMAC-SHA256; at least 16 characters): needed
    with ``redis``, the same in every process of the deployment; a message not signed with it is ignored."""
    max_body_bytes: int = 64 * 1024
    """The largest request body taken (a JSON request here is a few hundred bytes): a larger one is a 413."""
    body_seconds: float = 10.0
    """How long a request's body may take to arrive in full: then it is a 408 and the connection closes."""
    header_seconds: float = 10.0
    """``croupier serve``: how long a request's headers may take to arrive before the connection closes."""
    max_header_bytes: int = 16 * 1024
    """``croupier serve``: the most bytes of request headers taken before the connection closes."""
    metrics_token: str | None = None
    """The bearer token that ``GET /api/metrics`` asks for (croupier.server.metrics); without one the route
    is off (404)."""


@dataclass
class Service:
    settings: Settings
    clock: Clock
    lease_clock: Clock = field(default_factory=SystemClock)
    """The clock of the table leases and of the hub (a signed message's age, its resends): the system's by
    default, since every process of a deployment compares its leases and messages with the others' (a test
    may give one; the tables' own clock is ``clock``)."""
    engine: AsyncEngine | None = None
    sessions: async_sessionmaker[AsyncSession] | None = None
    readers: async_sessionmaker[AsyncSession] | None = None
    read_engine: AsyncEngine | None = None
    table_readers: async_sessionmaker[AsyncSession] | None = None
    """The tables' own reads (whether a bet or a decision sent with a key was answered before, the balances
    a match needs, a table's pending changes before a round), from a pool that the requests' reads do not
    use: on SQLite, a burst of sign-ins' reads waiting for a connection of the requests' pool does not hold
    a table's decision behind them. On PostgreSQL the requests' reading sessions, on the one pool."""
    table_read_engine: AsyncEngine | None = None
    hub: Hub = field(default_factory=Hub)
    actors: dict[int, TableActor] = field(default_factory=dict)
    _leases: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _leasing: asyncio.Lock = field(default_factory=asyncio.Lock)
    identities: Identities = field(init=False)
    """Who the tokens used in the last few seconds sign in (croupier.server.identities)."""
    metrics: Metrics = field(init=False)
    """The process's figures for monitoring (croupier.server.metrics)."""
    _forgetting: asyncio.Task[None] | None = None
    _known_tables: set[int] = field(default_factory=set)
    """Tables found to exist (:meth:`_known_table`)."""
    started: bool = False
    """:meth:`start` has finished (the database migrated, the hub listening, the first leases taken)."""
    stopping: bool = False
    """:meth:`stop` has begun: the process is going away (its readiness says so)."""
    leased_at: float | None = None
    """When the last lease round that committed began (``lease_clock.monotonic()``, read with the time its
    leases count from); None before the first."""

    def __post_init__(self) -> None:
        self.identities = Identities(self.clock)
        self.metrics = Metrics(self)

    def session(self) -> AsyncSession:
        """A session for work that writes."""
        assert self.sessions is not None
        return self.sessions()

    def reader(self) -> AsyncSession:
        """A session for work that only reads (on SQLite it waits for no writer; on PostgreSQL each of its
        statements is a transaction of its own, with no BEGIN or ROLLBACK around them)."""
        assert self.readers is not None
        return self.readers()

    async def start(self) -> None:
        # refused before anything starts: a Redis without the deployment's key, a bad channel prefix
        self.hub = Hub(self.settings.redis, self.settings.redis_prefix, self.settings.redis_key, self.lease_clock)
        self.engine = make_engine(self.settings.database)
        await migrate(self.engine)
        self.sessions = sessions(self.engine)
        if is_sqlite(normalise_url(self.settings.database)):
            self.read_engine = make_engine(self.settings.database, writes=False)
            self.readers = sessions(self.read_engine)
            self.table_read_engine = make_engine(self.settings.database, writes=False)
            self.table_readers = sessions(self.table_read_engine)
        else:
            # PostgreSQL's READ COMMITTED takes a snapshot for each statement, in a transaction or not: a
            # read needs no BEGIN and ROLLBACK, two round trips more for every request that only reads
            # (who signs in, a stored answer). The same pool; only the reads' sessions.
            self.readers = sessions(self.engine.execution_options(isolation_level="AUTOCOMMIT"))
            self.table_readers = self.readers
        self.hub.handler = self._remote_command
        await self.hub.start()
        self._forgetting = asyncio.create_task(self._forget_revoked(self.hub.subscribe(IDENTITY_CHANNEL)))
        if self.settings.demo:
            from croupier.server.demo import seed_demo

            await seed_demo(self, self.settings)
        if self.settings.run_tables:
            await self.lease_round()
            self._leases = asyncio.create_task(self._lease_loop())
        self.started = True

    async def forget_tokens(self, account_id: int) -> None:
        """Some of the account's tokens were revoked (committed): this process forgets them at once, and the
        others as the hub's message comes (croupier.server.identities)."""
        self.identities.forget(account_id)
        try:
            await self.hub.publish(IDENTITY_CHANNEL, {"forget": account_id})
        except Exception:  # (the hub counts what it could not send; the others forget within the memory's bound)
            log.warning("could not tell the other processes to forget account %s's tokens", account_id, exc_info=True)

    async def _forget_revoked(self, subscription: Subscription) -> None:
        """The revocations of every process, each account's tokens forgotten as its message comes. When the
        hub ends the subscription (Redis went away and came back, this process fell behind), a revocation
        may have been missed: the subscription begins again, then every token is forgotten. A fault here
        does the same, is logged, and the messages that come meanwhile wait a short pause (never a busy
        loop): the revocations are never left unheard."""
        while True:
            fault = False
            try:
                async for batch in subscription.batches(64):
                    for delivery in batch:
                        account_id = delivery.message.get("forget")
                        if isinstance(account_id, int):
                            self.identities.forget(account_id)
            except Exception:
                log.exception("the revocations of the other processes: a fault; every remembered token forgotten")
                fault = True
            finally:
                subscription.close()
            subscription = self.hub.subscribe(IDENTITY_CHANNEL)  # first: what comes from now on is kept
            self.identities.clear()
            if fault:
                await asyncio.sleep(FAULT_PAUSE_S)

    # tables are leased: each runs in one process at a time, and is taken over when its owner stops renewing
    async def _lease_loop(self) -> None:
        while True:
            # woken at once when a table's task ends (the watchdog); else a third of a lease on the lease clock
            pace = self.lease_clock.monotonic() + self.settings.lease_seconds / 3
            await wait_until(self.lease_clock, self._wake.wait(), pace)
            self._wake.clear()
            try:
                await retrying(self.lease_round)
            except (OSError, SQLAlchemyError):  # the database is away for a moment: try again next time
                log.warning("lease renewal failed", exc_info=True)
            except Exception:  # a fault never stops the leases of every other table
                log.exception("lease renewal failed")

    async def lease_round(self) -> None:
        async with self._leasing:  # one at a time: the loop's, and any other caller's
            await self._lease_round_now()

    async def _lease_round_now(self) -> None:
        now, began = self.lease_clock.now(), self.lease_clock.monotonic()
        until = now + timedelta(seconds=self.settings.lease_seconds)
        up = await self.hub.processes_up(self.settings.lease_seconds)
        won: list[GameTable] = []
        gone, released = self._gone()  # taken out of :attr:`actors` once committed (a failed round changes nothing)
        running = [table_id for table_id in sorted(self.actors) if table_id not in gone]
        async with self.session() as session, session.begin():
            if released:  # given up first, so taken again below (by this process or another) with a new epoch
                await session.execute(
                    update(GameTable)
                    .where(GameTable.id.in_(released), GameTable.owner == self.hub.process)
                    .values(owner=None, lease_until=None)
                )
            share = await self._share(session, up)
            self._hand_off(share, running)
            free = (
                await session.scalars(
                    select(GameTable.id)
                    .where(or_(GameTable.owner.is_(None), GameTable.lease_until < now), GameTable.status != "closed")
                    .order_by(GameTable.id)
                )
            ).all()
            for table_id in (t for t in free if t not in running):  # its own are renewed below, late or not
                if share is not None and len(running) + len(won) >= share:
                    break  # the other processes that are up take the rest
                taken = await session.execute(
                    update(GameTable)
                    .where(
                        GameTable.id == table_id,
                        or_(GameTable.owner.is_(None), GameTable.lease_until < now),
                        GameTable.status != "closed",
                    )
                    .values(owner=self.hub.process, lease_until=until, epoch=GameTable.epoch + 1)  # fences the last
                )
                if taken.rowcount == 1:  # type: ignore[attr-defined]
                    row = await session.get(GameTable, table_id)
                    assert row is not None
                    won.append(row)
            lost = await self._renew(session, until, running)
        self.leased_at = began  # committed: the leases renewed hold until a lease after ``began``
        for table_id, (actor, stop) in gone.items():
            if self.actors.get(table_id) is actor:  # (the same actor: not one started meanwhile)
                del self.actors[table_id]
            if stop:
                await actor.stop()  # the commands left on its queue are refused (503)
        for table_id in lost:
            actor = self.actors.pop(table_id)
            log.warning("table %s: the lease went to another process; stopping here", actor.name)
            await actor.stop()
        for row in won:  # several at once: staggered, or every round of them would open and end together
            self.start_table(row, stagger=len(won) > 1 and self.settings.stagger)

    def _gone(self) -> tuple[dict[int, tuple[TableActor, bool]], list[int]]:
        """This process's tables whose actor is over: closed (nothing to stop), fenced off, handed off, or
        ended unasked (the watchdog), each with its actor and whether it is to be stopped; and those of them
        whose lease it gives up."""
        gone: dict[int, tuple[TableActor, bool]] = {}
        released: list[int] = []
        for table_id in sorted(self.actors):
            actor = self.actors[table_id]
            if actor.phase == "closed":  # a supervisor closed it: its actor has stopped
                gone[table_id] = (actor, False)
            elif actor.lease_lost:  # its writes were fenced off: another process runs the table
                gone[table_id] = (actor, True)
            elif actor.task is not None and actor.task.done() and not actor.stopping:  # handed off, or the watchdog
                gone[table_id] = (actor, True)
                released.append(table_id)
                if actor.phase != HANDED_OFF:  # (logged again if the lease round fails and is tried again)
                    log.error("table %s: its task ended (%s); the table starts again", actor.name, _ending(actor))
        return gone, released

    async def _renew(self, session: AsyncSession, until: datetime, running: list[int]) -> list[int]:
        """Renew the leases of ``running`` (this process's tables) by one statement, the lease round's last:
        its transaction holds each table's row, which every writing transaction of that table waits to
        read (fence.py), for as short a time as it can. The tables whose lease went elsewhere."""
        if not running:
            return []
        renewed = set(
            await session.scalars(
                update(GameTable)
                .where(GameTable.id.in_(running), GameTable.owner == self.hub.process)
                .values(lease_until=until)
                .returning(GameTable.id)
            )
        )
        return [table_id for table_id in running if table_id not in renewed]

    async def _share(self, session: AsyncSession, up: int | None) -> int | None:
        """The most tables this process runs: its fair share, ceil(open tables / processes up); None (no
        limit) when the processes that are up are not known (no Redis, or Redis away)."""
        if up is None:
            return None
        tables = await session.scalar(select(func.count()).select_from(GameTable).where(GameTable.status != "closed"))
        return max(1, -(-int(tables or 0) // up))

    def _hand_off(self, share: int | None, tables: list[int]) -> None:
        """Beyond its share, this process's last ``tables`` go to the others, each after the round in play."""
        running = [t for t in tables if self.actors[t].phase not in ("closed", HANDED_OFF, "stopped")]
        keep = len(running) if share is None else share
        for place, table_id in enumerate(running):
            actor = self.actors[table_id]
            excess = place >= keep
            if excess and not actor.handing_off:
                log.info("table %s: more tables here than this process's share; it moves after this round", actor.name)
            actor.handing_off = excess

    async def _release(self) -> None:
        if self.sessions is None:
            return
        async with self.session() as session, session.begin():
            await session.execute(
                update(GameTable).where(GameTable.owner == self.hub.process).values(owner=None, lease_until=None)
            )

    async def _remote_command(self, table_id: int, message: dict[str, Any]) -> dict[str, Any] | None:
        """A command another process forwards for a table this process runs."""
        actor = self.actors.get(table_id)
        if actor is None:
            return None
        try:
            if message.get("kind") == "snapshot":
                return {"answer": actor.snapshot(message.get("viewer"), staff=bool(message.get("staff")))}
            who = message["identity"]
            command = Command(
                str(message["kind"]),
                Identity(int(who["id"]), str(who["name"]), str(who["role"])),
                dict(message.get("payload", {})),
                message.get("key"),
            )
            return {"answer": await actor.submit(command)}
        except Refused as refused:
            return {**codes.body(str(refused), refused.code, refused.params), "status": refused.status}
        except CroupierError as error:
            return {**codes.body(str(error)), "status": 409}

    async def submit(self, table_id: int, command: Command) -> dict[str, Any]:
        """Run ``command`` at its table, in this process or in the one that runs the table."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.lease_lost:
            return await actor.submit(command)
        await self._known_table(table_id)
        message = {
            "kind": command.kind,
            "identity": {"id": command.identity.id, "name": command.identity.name, "role": command.identity.role},
            "payload": command.payload,
            "key": command.key,
        }
        try:
            return await self.hub.request(table_id, message)
        except RemoteError as error:
            raise Refused(str(error), error.status, error.code, error.params) from None

    async def snapshot(self, table_id: int, viewer: str | None, staff: bool = False) -> dict[str, Any]:
        """What ``viewer`` sees of the table (``staff``: a dealer or supervisor, who may see surveillance)."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.lease_lost:
            return actor.snapshot(viewer, staff=staff)
        await self._known_table(table_id)
        try:
            return await self.hub.request(table_id, {"kind": "snapshot", "viewer": viewer, "staff": staff})
        except RemoteError as error:
            raise Refused(str(error), error.status, error.code, error.params) from None

    async def _known_table(self, table_id: int) -> None:
        """A 404 for a table that does not exist, before a command goes to another process. A table, once
        made, is never deleted (a closed one answers its own refusal), so one found is remembered: a
        request at a process that does not run its table (a load balancer's choice) reads nothing."""
        if table_id in self._known_tables:
            return
        async with self.reader() as session:
            if await session.get(GameTable, table_id) is None:
                raise Refused(f"table {table_id}: no such table", 404)
        self._known_tables.add(table_id)

    def start_table(self, row: GameTable, *, stagger: bool = False) -> TableActor:
        """An actor for ``row``, started. ``stagger``: its first betting window is longer by a random part
        of one window (``secrets``), up to a whole one more. Tables started together and left in step keep
        their windows opening, their bets arriving and their rounds ending in the same moment round after
        round, every table's writes queued behind one another's (measured in docs/performance.md); a
        studio's tables, started at different times, are not in step."""
        assert self.sessions is not None
        seeds = None
        if self.settings.seed is not None:
            text = self.settings.seed
            seeds = lambda shoe: hashlib.sha256(f"{text}:{shoe}".encode()).digest()  # noqa: E731
        assert self.engine is not None
        # every write of the actor carries the lease's epoch: refused once another process took the table
        writes = fenced_sessions(self.engine, row.id, row.epoch)
        actor = TableActor(row, writes, self.hub, self.clock, seeds, self.table_readers)
        actor.window_late = self.metrics.windows_late.observe
        if stagger:
            actor.first_window_extra = secrets.randbelow(1000) / 1000 * row.betting_seconds
        self.actors[row.id] = actor
        actor.start()
        if actor.task is not None:
            actor.task.add_done_callback(lambda _task: self._ended(actor))
        return actor

    def _ended(self, actor: TableActor) -> None:
        """A table's task ended: unasked (not closed, not stopped), the watchdog looks at once."""
        if actor.phase != "closed" and not actor.stopping:  # ended unasked, or handed off: its lease is given up
            self._wake.set()

    async def stop(self) -> None:
        self.stopping = True
        if self._forgetting is not None:
            self._forgetting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._forgetting
        if self._leases is not None:
            self._leases.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._leases
        for actor in self.actors.values():
            await actor.stop()
        with contextlib.suppress(OSError, SQLAlchemyError):
            await self._release()
        await self.hub.gone()
        await self.hub.stop()
        if self.engine is not None:
            await self.engine.dispose()
        if self.read_engine is not None:
            await self.read_engine.dispose()
        if self.table_read_engine is not None:
            await self.table_read_engine.dispose()


def _ending(actor: TableActor) -> str:
    """How a table's task ended, for the log."""
    task = actor.task
    if task is None:
        return "it never started"
    if task.cancelled():
        return "cancelled"
    error = task.exception()
    return "returned" if error is None else f"{type(error).__name__}: {error}"
