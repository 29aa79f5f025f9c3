"""Database connections and schema migrations.

SQLite is the embedded default (a local file, WAL journal, ``synchronous=FULL``, foreign keys on, a
busy timeout so concurrent writers wait rather than fail); PostgreSQL through asyncpg for several
processes. The schema comes from the Alembic migrations in ``migrations/``; :func:`migrate` brings a
database to the newest.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
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
"""Connections a SQLite engine opens beyond its 10 kept ones. Writers wait for their turn at the write gate
(:class:`_WriteGate`) holding a connection: a pool smaller than the writers waiting would make a bet wait
for a connection behind the other tables' settlements, first come first served, before it ever reaches
the gate that would let it pass them."""


def make_engine(url: str, *, writes: bool = True) -> AsyncEngine:
    """An engine for ``url``. On SQLite a writing engine begins every transaction IMMEDIATE (it takes the
    write lock first, so a read then a write never fails on a snapshot a concurrent writer made stale);
    a reading engine (``writes=False``) begins DEFERRED and, in WAL mode, never waits for a writer."""
    url = normalise_url(url)
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=10, max_overflow=POOL_OVERFLOW)

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

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(connection: Connection) -> None:
            # a writer holds the write lock from its first statement: no lost update between a read and a
            # write; a reader only reads a snapshot
            if gate is not None:
                gate.enter(connection)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


GATE_SECONDS = 30.0
"""How long a writer waits for its turn (SQLite's busy timeout): then its transaction fails, as locked."""


ANSWERED: ContextVar[bool] = ContextVar("croupier_db_answered", default=False)
"""Set while a coroutine writes what a waiting request is answered with (a bet, a decision's stakes):
on SQLite its transaction takes the write gate before those that no one waits on (see :func:`answered`)."""


@contextlib.contextmanager
def answered() -> Iterator[None]:
    """The transactions opened inside are ones a player waits on: SQLite's write gate serves them first."""
    token = ANSWERED.set(True)
    try:
        yield
    finally:
        ANSWERED.reset(token)


class _Turns:
    """A lock whose waiters are served by class (answered first, then the rest), and in each class in the
    order they came: what a player waits on (a bet, a decision's stakes) is not queued behind the
    settlements, round records and shoe records of the other tables, which no one waits on. It starves
    nothing for long: answered writes come only in betting windows and decisions, a few milliseconds each.
    """

    def __init__(self) -> None:
        self.held = False
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.arrivals = itertools.count()

    async def acquire(self, first: bool) -> None:
        if not self.held and not self.waiting:
            self.held = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (0 if first else 1, next(self.arrivals), turn)
        heapq.heappush(self.waiting, entry)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():  # the gate was handed over as the wait was given up
                self.release()
            elif entry in self.waiting:  # (a release may have passed the cancelled turn by already)
                self.waiting.remove(entry)
                heapq.heapify(self.waiting)
            raise

    def release(self) -> None:
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
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
            try:
                commit(dbapi_connection)
            finally:
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
                await_only(asyncio.wait_for(self.turns.acquire(ANSWERED.get()), GATE_SECONDS))
            except TimeoutError:  # as SQLite's busy timeout would have said
                raise OperationalError("BEGIN IMMEDIATE", None, Exception("database is locked")) from None
            self.holder = raw

    def leave(self, dbapi_connection: Any) -> None:
        if self.holder is not None and self.holder == id(dbapi_connection):
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
