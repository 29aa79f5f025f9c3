"""Database connections and schema migrations.

SQLite is the embedded default (a local file, WAL journal, ``synchronous=FULL``, foreign keys on, a
busy timeout so concurrent writers wait rather than fail); PostgreSQL through asyncpg for several
processes. The schema comes from the Alembic migrations in ``migrations/``; :func:`migrate` brings a
database to the newest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from croupier.errors import CroupierError
from croupier.server.clock import Sleeper

log = logging.getLogger("croupier.server")
T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")


class DatabaseError(CroupierError):
    """The database cannot be used as asked."""


def normalise_url(url: str) -> str:
    """Accept the plain forms (``sqlite:///x.db``, ``postgresql://…``) and name the async drivers."""
    if url.startswith("sqlite:///") or url == "sqlite://":
        return "sqlite+aiosqlite" + url[len("sqlite") :]
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return url
    raise DatabaseError(f"--database {url!r}: use sqlite:///FILE or postgresql://USER@HOST/DB")


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


POOL_OVERFLOW = 90
"""Connections a writing SQLite engine opens beyond its 10 kept ones (a reading engine, which never waits
at the gate, keeps SQLAlchemy's default pool; an in-memory database its single connection). Writers wait
for their turn at the write gate (:class:`_WriteGate`) holding a connection: a pool smaller than the
writers waiting would make a bet wait for a connection behind the other tables' settlements, first come
first served, before it ever reaches the gate that would let it pass them."""


PG_POOL = 20
"""PostgreSQL connections a process opens, and keeps: a transaction, a table's or a request's, that finds
all of them in use waits for one (up to 30 s) rather than opening another. A pool that opened more in a
burst (it kept 10 and opened 20 more) closed each extra one when it came back, and the next burst opened a
new one: its connection, authentication and driver's set-up, then a prepare, one more round trip, of
every statement it ran, since prepared statements belong to their connection. Under the 1,000-player load
a process opened and closed about 180 connections in 45 s and prepared some 2,300 statements, of fewer than
a hundred distinct ones. More connections than this would not run more at once: one event loop sends
every statement of the process. Two processes hold 40 of PostgreSQL's default ``max_connections`` (100)."""

PG_PREPARED = 500
"""Prepared statements a PostgreSQL connection keeps (the driver's default, 100, is about the number of
distinct statements the server runs, so they pushed each other out)."""


def make_engine(url: str, *, writes: bool = True) -> AsyncEngine:
    """An engine for ``url``. On SQLite a writing engine begins every transaction IMMEDIATE (it takes the
    write lock first, so a read then a write never fails on a snapshot a concurrent writer made stale);
    a reading engine (``writes=False``) begins DEFERRED and, in WAL mode, never waits for a writer."""
    url = normalise_url(url)
    if is_sqlite(url):
        in_memory = url in ("sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:")
        pool: dict[str, int] = {} if in_memory or not writes else {"pool_size": 10, "max_overflow": POOL_OVERFLOW}
        engine = create_async_engine(url, connect_args={"timeout": 30, "factory": _RollingBack}, **pool)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            connection.isolation_level = None  # the driver emits no BEGIN of its own: ``_begin`` does
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        gate = _WriteGate(engine) if writes else None
        if gate is not None:
            GATES[engine.sync_engine] = gate

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(connection: Connection) -> None:
            # a writer holds the write lock from its first statement: no lost update between a read and a
            # write; a reader only reads a snapshot
            if gate is not None:
                gate.enter(connection)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

        return engine
    engine = create_async_engine(
        url,
        pool_size=PG_POOL,
        max_overflow=0,
        connect_args={"prepared_statement_cache_size": PG_PREPARED},
    )
    _ping_when_idle(engine)
    return engine


PING_AFTER_IDLE_S = 1.0
"""A PostgreSQL connection that has lain in the pool this long is pinged before it is handed out."""


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Ping a pooled connection before handing it out only when it has lain idle ``PING_AFTER_IDLE_S``:
    one that fails the ping (the database restarted, or ended the session) is replaced before anyone
    uses it. SQLAlchemy's ``pool_pre_ping`` pinged at every checkout, three round trips (a transaction
    begun, ``;``, rolled back) before each transaction: under the 1,000-player load 11 % of a server's CPU,
    and three more turns of a busy event loop for every transaction. A connection given back a moment ago
    is as alive as the statement that just ran on it. If the database goes away within that moment, the first
    statement on the connection fails, and that disconnect invalidates the whole pool."""
    pool = engine.sync_engine.pool
    dialect = engine.sync_engine.dialect

    @event.listens_for(pool, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _taken(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned_at = record.info.get("returned_at")  # the info goes with the driver's connection
        if returned_at is None or time.monotonic() - returned_at < PING_AFTER_IDLE_S:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:  # the pool replaces the connection and tries again
            raise DisconnectionError(f"a pooled connection failed its ping: {error}") from error


class _RollingBack(sqlite3.Connection):
    """A SQLite connection that rolls back its open transaction when it is closed.

    A task cancelled while its statement runs in aiosqlite's thread (a table's actor stopped at shutdown,
    a request given up) has its connection closed by SQLAlchemy rather than rolled back. Python's
    ``close()`` then leaves the connection open inside SQLite for as long as that statement is not
    finalized (``sqlite3_close_v2``): its transaction, and the database's write lock with it, outlive the
    close until the garbage collector finds the cursor, and every other writer waits out the busy
    timeout. The rollback here, in the connection's own thread before it closes, ends the transaction
    whatever is left of its statements."""

    def close(self) -> None:
        if self.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # (closed already, or gone with its file)
                self.rollback()
        super().close()


GATES: weakref.WeakKeyDictionary[Any, _WriteGate] = weakref.WeakKeyDictionary()
"""Each writing SQLite engine's gate, by its sync engine (for tests and diagnostics)."""

GATE_SECONDS = 30.0
"""How long a writer waits for its turn (SQLite's busy timeout): then its transaction fails, as locked."""


ANSWERED: ContextVar[bool] = ContextVar("croupier_db_answered", default=False)
"""Set while a coroutine writes what a waiting request is answered with (a bet, a decision's stakes, every
HTTP request's own writes: ``guard.RequestGuard``): on SQLite its transaction takes the write gate before
those that no one waits on (see :func:`answered`)."""


@contextlib.contextmanager
def answered() -> Iterator[None]:
    """The transactions opened inside are ones a player waits on: SQLite's write gate serves them first."""
    token = ANSWERED.set(True)
    try:
        yield
    finally:
        ANSWERED.reset(token)


CHORE_WAIT_MOST = 0.5
"""Seconds a write no one waits on (a settlement, a round or shoe record) waits behind the answered ones at
most: then it goes next, however many answered writes have come since, so none is starved."""


class _Turns:
    """A lock whose waiters are served by class, each class in the order it came: the writes someone waits
    on (a bet, a decision's stakes, a request's sign-in or payment) before the others (the settlements,
    round and shoe records of the other tables, the lease round), so that a bet is not queued behind the
    chores of every table whose round just ended. A write of the second class that has waited
    :data:`CHORE_WAIT_MOST` goes next all the same: a steady flow of answered writes never holds a
    settlement back for long."""

    def __init__(self, wait_most: float = CHORE_WAIT_MOST) -> None:
        self.held = False
        self.wait_most = wait_most
        self.answered: deque[asyncio.Future[None]] = deque()
        self.chores: deque[tuple[float, asyncio.Future[None]]] = deque()

    @property
    def waiting(self) -> int:
        return len(self.answered) + len(self.chores)

    async def acquire(self, first: bool) -> None:
        if not self.held and not self.waiting:
            self.held = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (time.monotonic(), turn)
        if first:
            self.answered.append(turn)
        else:
            self.chores.append(entry)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():  # the gate was handed over as the wait was given up
                self.release()
            elif first and turn in self.answered:  # (a release may have passed the cancelled turn by already)
                self.answered.remove(turn)
            elif not first and entry in self.chores:
                self.chores.remove(entry)
            raise

    def release(self) -> None:
        now = time.monotonic()
        while self.answered or self.chores:
            overdue = bool(self.chores) and now - self.chores[0][0] >= self.wait_most
            turn = self.chores.popleft()[1] if overdue or not self.answered else self.answered.popleft()
            if not turn.done():
                turn.set_result(None)  # handed over: still held
                return
        self.held = False


class _WriteGate:
    """SQLite lets one transaction write at a time. Left to SQLite, a writer that finds the database locked
    sleeps and tries again (its busy handler: 1, 2, 5, … up to 100 ms at a time), so that under load most of
    a write's time is sleeping after the lock was free. The gate queues this process's writers instead: a
    transaction that writes waits for its turn (:class:`_Turns`: the writes a request waits on first, then
    the others, each in the order they came) before its ``BEGIN IMMEDIATE`` and hands it on the moment its
    commit or rollback has returned. Another process on the same file still meets the busy handler, as
    before."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.turns = _Turns()
        self.holder: int | None = None  # id() of the DBAPI connection whose transaction holds the gate
        dialect = engine.sync_engine.dialect
        commit, rollback = dialect.do_commit, dialect.do_rollback

        def do_commit(dbapi_connection: Any) -> None:
            commit(dbapi_connection)  # a commit that failed leaves the transaction to its rollback, which hands on
            self.leave(dbapi_connection)

        def do_rollback(dbapi_connection: Any) -> None:
            try:
                rollback(dbapi_connection)
            finally:
                self.leave(dbapi_connection)

        dialect.do_commit = do_commit  # type: ignore[method-assign]
        dialect.do_rollback = do_rollback  # type: ignore[method-assign]

        @event.listens_for(engine.sync_engine.pool, "checkin")
        def _checkin(dbapi_connection: Any, _record: Any) -> None:  # given back mid-transaction
            if dbapi_connection is not None:
                self.leave(dbapi_connection)

        @event.listens_for(engine.sync_engine.pool, "invalidate")
        @event.listens_for(engine.sync_engine.pool, "close")
        def _gone(dbapi_connection: Any, *_rest: Any) -> None:  # a connection lost mid-transaction
            if dbapi_connection is not None:
                self.leave(dbapi_connection)

    def enter(self, connection: Connection) -> None:
        from sqlalchemy.util import await_only

        raw = id(connection.connection.dbapi_connection)
        if self.holder != raw:
            try:
                await_only(self._acquire(ANSWERED.get()))
            except TimeoutError:  # as SQLite's busy timeout would have said
                raise OperationalError("BEGIN IMMEDIATE", None, Exception("database is locked")) from None
            self.holder = raw

    async def _acquire(self, first: bool) -> None:
        async with asyncio.timeout(GATE_SECONDS):  # no task of its own: a cancellation is never lost
            await self.turns.acquire(first)

    def leave(self, dbapi_connection: Any) -> None:
        """The gate handed on, if ``dbapi_connection`` (the driver's connection, or the pool's wrapper of it
        that the dialect's commit and rollback are given) holds it."""
        raw = getattr(dbapi_connection, "dbapi_connection", dbapi_connection)
        if self.holder is not None and self.holder == id(raw):
            self.holder = None
            self.turns.release()


RETRIED_STATES = frozenset({"40P01", "40001"})
"""PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back whole, and
the same transaction tried again succeeds."""
ATTEMPTS = 5


def retryable(error: BaseException) -> bool:
    """Whether ``error`` is a deadlock or a serialization failure (the transaction may simply be tried again)."""
    orig = getattr(error, "orig", None)
    return isinstance(error, DBAPIError) and getattr(orig, "sqlstate", None) in RETRIED_STATES


async def retrying(
    operation: Callable[[], Awaitable[T]], attempts: int = ATTEMPTS, pause: Sleeper = asyncio.sleep
) -> T:
    """``operation()`` (one whole database transaction), tried again after a deadlock or a serialization
    failure, after a short random pause (through ``pause``), up to ``attempts`` times in all."""
    for attempt in range(1, attempts + 1):
        try:
            return await operation()
        except DBAPIError as error:
            if not retryable(error) or attempt == attempts:
                raise
            log.warning("a transaction was rolled back (%s); trying it again", type(error.orig).__name__)
            await pause(secrets.randbelow(20) / 1000 * attempt)
    raise AssertionError("unreachable")


def sessions(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)


def _alembic_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return config


def _upgrade(connection: Connection, url: str) -> None:
    from alembic import command

    config = _alembic_config(url)
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the database to the newest schema."""
    url = engine.url.render_as_string(hide_password=False)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade, url)
    except OSError as error:
        raise DatabaseError(f"database: cannot connect: {error}") from None
