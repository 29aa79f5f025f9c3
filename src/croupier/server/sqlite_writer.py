"""A table's write transactions on SQLite, each run whole in one thread of its own (the writer).

On SQLite a write transaction holds the database's one write lock, and this process's write gate
(:class:`croupier.server.db._WriteGate`), from its ``BEGIN IMMEDIATE`` to its commit. Through aiosqlite
every statement is three or four hops between the event loop and the connection's thread, each waiting
its turn behind every callback the loop has ready: measured under the 200-player load, a hop waited
0.07 ms at the median but 1.3-3.5 ms at p90 and 10-12 ms at p99, so that a group of bets held the gate
18 ms at the median and 240-290 ms at p99 for ten statements of a few tens of microseconds each, while
every other table's bets waited behind it (docs/performance.md).

The writer is a thread with an event loop of its own and one SQLite connection whose statements run in
that thread directly (:class:`DirectConnection`, aiosqlite's shape, as SQLAlchemy's aiosqlite dialect
uses it). A table hands it a whole transaction (:meth:`Writer.run`): the transaction's coroutine runs on
the writer's loop, where nothing else waits, so its statements follow each other without a hop; it still
takes this process's write gate first (the gate lives on the server's loop: the writer waits for its
turn there, in the class of the caller, :data:`croupier.server.db.ANSWERED`), and hands it on at its
commit. The disk is waited for in the writer's thread (sqlite3 lets Python's lock go while SQLite runs),
never on the server's loop. The writer runs one transaction at a time, in the order they came.

A caller that is cancelled while its transaction runs does not cancel it: the transaction ends (commits
or rolls back) in the writer, as a statement already sent to a database does. A table's actor is only
cancelled when it stops; what it leaves in play is voided and returned by whoever runs the table next.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

T = TypeVar("T")


class DirectCursor:
    """A cursor whose statements run at once in the calling thread; aiosqlite's shape."""

    def __init__(self, connection: DirectConnection) -> None:
        self._cursor = connection.open().cursor()
        self._rows: deque[Any] = deque()

    async def __aenter__(self) -> DirectCursor:
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

    async def execute(self, sql: str, parameters: Any = ()) -> DirectCursor:
        self._rows.clear()
        self._cursor.execute(sql, parameters)
        if self._cursor.description is not None:
            self._rows.extend(self._cursor.fetchall())
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> DirectCursor:
        self._rows.clear()
        self._cursor.executemany(sql, parameters)
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


class DirectConnection:
    """A SQLite connection used only from the writer's thread: each call runs at once (what aiosqlite's
    ``Connection`` offers SQLAlchemy, without the hop to a thread of its own)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn: sqlite3.Connection | None = conn

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

    def cursor(self) -> DirectCursor:
        return DirectCursor(self)

    async def execute(self, sql: str, parameters: Any = ()) -> DirectCursor:
        cursor = self.cursor()
        await cursor.execute(sql, parameters)
        return cursor

    async def commit(self) -> None:
        self.open().commit()

    async def rollback(self) -> None:
        self.open().rollback()

    async def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self.open().create_function(*args, **kwargs)


def connector(
    database: str, factory: type[sqlite3.Connection], *, uri: bool = False
) -> Callable[[], Awaitable[DirectConnection]]:
    """SQLAlchemy's ``async_creator`` for the writer's engine: a :class:`DirectConnection` to ``database``
    with no implicit transactions (the engine's ``begin`` listener issues ``BEGIN IMMEDIATE``)."""

    async def connect() -> DirectConnection:
        conn = sqlite3.connect(
            database, timeout=30, isolation_level=None, check_same_thread=False, factory=factory, uri=uri
        )
        return DirectConnection(conn)

    return connect


class Writer:
    """The writer's thread and loop (module docstring). :meth:`start` from the server's loop, then
    :meth:`run` a transaction's coroutine function; :meth:`stop` lets the transactions sent end first."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="croupier-sqlite-writer", daemon=True)
        self._turn: asyncio.Lock | None = None  # (made on the writer's loop)
        self._running: set[asyncio.Future[Any]] = set()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        self.loop.close()

    def start(self) -> None:
        self._thread.start()

    def here(self) -> bool:
        """Whether the caller runs on the writer's loop."""
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return False

    async def call(self, function: Callable[[], Awaitable[T]]) -> T:
        """``function()`` run on the writer's loop, its result (or its exception) given back; never
        cancelled by the caller's cancellation (module docstring)."""
        from croupier.server.db import ANSWERED

        answered = ANSWERED.get()
        caller = asyncio.current_task()
        name = caller.get_name() if caller is not None else "writer"

        async def body() -> T:
            ANSWERED.set(answered)
            task = asyncio.current_task()
            if task is not None:
                task.set_name(name)  # (the table's: what waits at the gate is named after it)
            return await function()

        future = asyncio.wrap_future(asyncio.run_coroutine_threadsafe(body(), self.loop))
        self._running.add(future)
        future.add_done_callback(self._running.discard)
        return await asyncio.shield(future)

    async def run(self, function: Callable[[], Awaitable[T]]) -> T:
        """One transaction: ``function()`` (which opens its session, begins, writes and commits) run whole on
        the writer's loop, after the transactions sent before it."""
        return await self.call(lambda: self._one_at_a_time(function))

    async def _one_at_a_time(self, function: Callable[[], Awaitable[T]]) -> T:
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            return await function()

    async def stop(self, before: Callable[[], Awaitable[None]] | None = None) -> None:
        """Wait for the transactions sent, then ``before()`` on the writer's loop (the engine disposed), then
        end the thread."""
        if self._running:
            with contextlib.suppress(BaseException):
                await asyncio.gather(*self._running, return_exceptions=True)
        if before is not None and self._thread.is_alive():
            with contextlib.suppress(Exception):
                await self.call(before)
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            await asyncio.to_thread(self._thread.join)


class OnLoop:
    """A table's sessions: ``writer``'s (``there``) when opened on the writer's loop, in a transaction
    handed to it (:meth:`Writer.run`), the server's (``here``) anywhere else."""

    def __init__(self, here: Callable[[], AsyncSession], there: Callable[[], AsyncSession], writer: Writer) -> None:
        self.here = here
        self.there = there
        self.writer = writer

    def __call__(self) -> AsyncSession:
        return self.there() if self.writer.here() else self.here()


def on_loop(here: Callable[[], AsyncSession], there: Callable[[], AsyncSession], writer: Writer) -> OnLoop:
    return OnLoop(here, there, writer)
