"""SQLite with its statements run on the event loop, and what may wait in a thread.

aiosqlite runs every call on the connection (the cursor, the statement, its rows, the cursor's close) in the
connection's thread and wakes the event loop with the result: three or four hops between the loop and the
thread for each statement, each waiting its turn behind every callback the loop has ready, and each thread
taking Python's lock from the loop whenever it runs. Under a burst of requests that is most of a write
transaction's time (a group of bets held SQLite's one write lock about 6 ms for 16 statements of
0.05-0.1 ms each: docs/performance.md), and the other writers wait at the gate
(:class:`croupier.server.db._WriteGate`) for all of it.

A statement of SQLite on a local file is a few tens of microseconds of CPU, less than a hop; what can take
long is waiting, the disk, and a read of many rows. So this connection runs its statements on the loop, and
only these in :data:`EXECUTOR`'s threads:

- a statement that finds the database locked by another process (its busy timeout is 0 on the loop): it
  is tried again in a thread with the busy timeout of :data:`BUSY_MS`;
- ``COMMIT``, whose fsync (``synchronous=FULL``) waits for the disk;
- a reading engine's statement still running after :data:`READ_MOST`: SQLite cuts it short (a progress
  handler) and it runs again, whole, in a thread, in the same read transaction. A writer's statement is
  never cut short (SQLite would roll its whole transaction back); a writer reads only what it writes by;
- opening a connection, with its first read of the schema (which SQLite parses whole: a burst that grows the
  pools must not stall the tables' timers), and closing one.

A transaction that runs long (a settlement of many boxes) lets the loop turn at least every :data:`SLICE`
seconds of its own, between two statements, so that no other table's timer or request waits behind a whole
transaction. Its shape is aiosqlite's, as SQLAlchemy's aiosqlite dialect uses it (``async_creator``:
:func:`connect`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

BUSY_MS = 30_000
"""SQLite's busy timeout for a statement tried in a thread after it found the database locked (another
process writing): then it fails as 'database is locked'."""

SLICE = 0.002
"""Seconds a transaction runs on the loop at most before it lets the loop turn (between two statements)."""

EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="croupier-sqlite")
"""The threads that open connections, commit, and wait for another process's lock. One transaction writes at
a time in a process (the write gate), so few are ever busy; they are not the loop's default executor, which
hashes passwords (a sign-in storm must not hold a commit back)."""

READ_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="croupier-sqlite-reads")
"""The threads that finish the reads cut short on the loop: long reads never hold a commit back."""

READ_MOST = 0.005
"""Seconds a reading engine's statement runs on the loop at most: then it is cut short and run again in a
thread (a writer's cannot be: SQLite would roll its whole transaction back)."""

PROGRESS_STEPS = 1000
"""SQLite's virtual machine steps between two looks at a read's time on the loop."""

LOCKED = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _locked(error: sqlite3.OperationalError) -> bool:
    return getattr(error, "sqlite_errorcode", None) in LOCKED or "locked" in str(error)


class LoopCursor:
    """A cursor whose statements run on the loop (see the module docstring); aiosqlite's shape."""

    def __init__(self, connection: LoopConnection) -> None:
        self._connection = connection
        self._cursor = connection.open().cursor()
        self._rows: deque[Any] = deque()

    async def __aenter__(self) -> LoopCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    async def execute(self, sql: str, parameters: Any = ()) -> LoopCursor:
        await self._connection.run(self._execute, sql, parameters)
        return self

    def _execute(self, sql: str, parameters: Any) -> None:
        """The statement and all its rows, in one call (on the loop, or again in a thread): what SQLAlchemy
        does with them at once anyway, and a statement that is cut short (a reader's) is then run again
        whole."""
        self._rows.clear()
        self._cursor.execute(sql, parameters)
        if self._cursor.description is not None:
            self._rows.extend(self._cursor.fetchall())

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> LoopCursor:
        rows = list(parameters)  # (tried again in a thread if the database is locked: read once)
        self._rows.clear()
        await self._connection.run(self._cursor.executemany, sql, rows)
        return self

    async def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        count = self._cursor.arraysize if size is None else size
        return [self._rows.popleft() for _ in range(min(count, len(self._rows)))]

    async def fetchall(self) -> list[Any]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        self._rows.clear()
        self._cursor.close()


class LoopConnection:
    """A SQLite connection that runs its statements on the event loop, and its commits and its waits for a
    lock in a thread; what aiosqlite's ``Connection`` offers SQLAlchemy. Only one call uses the underlying
    connection at a time: a call made while a thread still commits (its caller was cancelled) first waits
    for that commit to end."""

    def __init__(self, conn: sqlite3.Connection, *, reads: bool = False) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.reads = reads  # a reading engine's: a statement longer than READ_MOST goes on in a thread
        self._pending: asyncio.Future[Any] | None = None  # a call running in a thread
        self._since = time.perf_counter()  # when this connection's task last let the loop turn

    @property
    def _connection(self) -> sqlite3.Connection | None:  # (what SQLAlchemy's dialect tests for 'open')
        return self._conn

    @property
    def isolation_level(self) -> str | None:
        return self.open().isolation_level

    @property
    def in_transaction(self) -> bool:
        return self.open().in_transaction

    def open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError("no active connection")
        return self._conn

    async def _settled(self) -> None:
        """Wait for a call still running in a thread (its caller gave up waiting: cancelled)."""
        pending = self._pending
        if pending is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(pending)
            self._pending = None

    async def _in_thread(self, call: Callable[[], T]) -> T:
        await self._settled()
        pending = asyncio.get_running_loop().run_in_executor(READ_EXECUTOR if self.reads else EXECUTOR, call)
        self._pending = pending
        try:
            return await asyncio.shield(pending)  # a cancellation leaves the call to end in its thread
        finally:
            if pending.done():
                self._pending = None
            self._since = time.perf_counter()

    async def run(self, call: Callable[..., Any], *args: Any) -> Any:
        await self._settled()
        conn = self.open()
        if not conn.in_transaction:  # ``BEGIN``, just after the write gate: the transaction's slice starts
            self._since = time.perf_counter()
        elif time.perf_counter() - self._since > SLICE:
            await asyncio.sleep(0)  # the loop turns: every other task ready runs before the next statement
            self._since = time.perf_counter()
        try:
            if not self.reads:
                return call(*args)
            with _bounded(conn):
                return call(*args)
        except sqlite3.OperationalError as error:
            if not (_locked(error) or (self.reads and _interrupted(error))):
                raise
        # another process holds the lock, or a read ran past READ_MOST (a statement that failed so had no
        # effect): it runs again in a thread, where it may wait and take its time
        return await self._in_thread(functools.partial(_patiently, conn, call, args))

    def cursor(self) -> LoopCursor:
        return LoopCursor(self)

    async def execute(self, sql: str, parameters: Any = ()) -> LoopCursor:
        cursor = self.cursor()
        await cursor.execute(sql, parameters)
        return cursor

    async def commit(self) -> None:
        conn = self.open()
        await self._in_thread(functools.partial(_patiently, conn, conn.commit, ()))

    async def rollback(self) -> None:
        await self._settled()
        self.open().rollback()  # (no fsync: what was written goes with the transaction's pages)

    async def close(self) -> None:
        await self._settled()
        conn, self._conn = self._conn, None
        if conn is not None:  # (a close frees the connection's cache and may checkpoint: in a thread)
            await asyncio.shield(asyncio.get_running_loop().run_in_executor(EXECUTOR, conn.close))

    def stop(self) -> None:
        """Closed without waiting (SQLAlchemy's terminate), or as soon as a call still running in a thread has
        ended: an open transaction is rolled back by the connection's own ``close``
        (``croupier.server.db._RollingBack``)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        pending = self._pending
        if pending is not None and not pending.done():  # closed once the call in its thread has ended
            pending.add_done_callback(lambda _call: conn.close())
        else:
            conn.close()

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self.open().create_function(*args, **kwargs)


@contextlib.contextmanager
def _bounded(conn: sqlite3.Connection) -> Iterator[None]:
    """A read on the loop is cut short (SQLITE_INTERRUPT) once it has run :data:`READ_MOST` seconds: a
    statement that reads a whole history must not hold every table's loop."""
    until = time.perf_counter() + READ_MOST
    conn.set_progress_handler(lambda: time.perf_counter() > until, PROGRESS_STEPS)
    try:
        yield
    finally:
        conn.set_progress_handler(None, 0)


def _interrupted(error: sqlite3.OperationalError) -> bool:
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT or "interrupted" in str(error)


def _patiently(conn: sqlite3.Connection, call: Callable[..., T], args: Sequence[Any]) -> T:
    """``call(*args)`` with the busy timeout of :data:`BUSY_MS` (in a thread: it may wait that long)."""
    conn.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    try:
        return call(*args)
    finally:
        conn.execute("PRAGMA busy_timeout=0")


async def connect(
    database: str, factory: type[sqlite3.Connection] = sqlite3.Connection, *, reads: bool = False, uri: bool = False
) -> LoopConnection:
    """A :class:`LoopConnection` to the file ``database`` (``:memory:`` for a private database), opened in a
    thread, with no implicit transactions (SQLAlchemy's ``begin`` listener issues ``BEGIN IMMEDIATE``)."""

    def open_() -> sqlite3.Connection:
        conn = sqlite3.connect(
            database, timeout=0, isolation_level=None, check_same_thread=False, factory=factory, uri=uri
        )
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # the schema read and parsed here
        return conn

    return LoopConnection(await asyncio.get_running_loop().run_in_executor(EXECUTOR, open_), reads=reads)
