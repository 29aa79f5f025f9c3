"""The writing SQLite engine's connection (croupier.server.sqlite_loop): its statements run on the event loop
in slices, and only what may wait (a commit's fsync, another process's lock) runs in a thread, where the loop
keeps turning; a writer cancelled while its call runs in the thread leaves the database unlocked."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from croupier.server import db, sqlite_loop

STATEMENTS = 80


class Ticker:
    """Counts the turns of the event loop while it runs (a task that yields and counts)."""

    def __init__(self) -> None:
        self.turns = 0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0)
            self.turns += 1

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def _table(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE IF NOT EXISTS t (x INTEGER)"))


async def _turns_during_statements(engine: AsyncEngine) -> int:
    """The loop's turns while one transaction runs STATEMENTS inserts (its commit not counted)."""
    await _table(engine)
    async with db.sessions(engine)() as session, session.begin():
        await session.execute(text("SELECT 1"))  # (the ticker starts inside the transaction)
        with Ticker() as ticker:
            await asyncio.sleep(0)  # the ticker's first step
            before = ticker.turns
            for n in range(STATEMENTS):
                await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})
            turns = ticker.turns - before
    return turns


def test_a_transactions_statements_run_on_the_loop_without_a_hop_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through aiosqlite, every statement is several hops to its thread and back, each a turn of the loop;
    on the loop, a transaction that fits in its slice lets the loop turn not once."""
    monkeypatch.setattr(sqlite_loop, "SLICE", 60.0)

    async def scenario() -> tuple[int, int, int]:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'loop.db'}")
        plain = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'plain.db'}")
        on_loop = await _turns_during_statements(engine)
        threaded = await _turns_during_statements(plain)
        async with engine.connect() as connection:
            rows = (await connection.execute(text("SELECT count(*) FROM t"))).scalar_one()
        await engine.dispose()
        await plain.dispose()
        return on_loop, threaded, int(rows)

    on_loop, threaded, rows = asyncio.run(scenario())
    assert rows == STATEMENTS  # committed
    assert on_loop == 0
    assert threaded >= STATEMENTS


def test_a_long_transaction_lets_the_loop_turn_between_its_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction longer than its slice (a settlement of many boxes) yields between two statements: no
    other table's timer waits for the whole of it. With a slice of 0 it yields before every statement."""
    monkeypatch.setattr(sqlite_loop, "SLICE", 0.0)

    async def scenario() -> int:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'slices.db'}")
        turns = await _turns_during_statements(engine)
        await engine.dispose()
        return turns

    assert asyncio.run(scenario()) >= STATEMENTS


def _ticks_while(work: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[int]]:
    async def run() -> int:
        with Ticker() as ticker:
            await work()
            return ticker.turns

    return run


def _commit_after(wait: Callable[[], object]) -> tuple[threading.Event, Callable[[db._RollingBack], None]]:
    """A commit that first calls ``wait`` (a stalled disk), and the event set as it starts to."""
    committing = threading.Event()
    commit = db._RollingBack.commit

    def waiting_commit(connection: db._RollingBack) -> None:
        if connection.in_transaction:
            committing.set()
            wait()
        commit(connection)

    return committing, waiting_commit


def test_the_loop_turns_while_a_commit_waits_for_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit's fsync runs in a thread: a disk that stalls 0.3 s stalls no other table."""
    committing, slow_commit = _commit_after(lambda: time.sleep(0.3))

    async def scenario() -> tuple[int, int]:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'disk.db'}")
        await _table(engine)
        monkeypatch.setattr(db._RollingBack, "commit", slow_commit)

        async def write() -> None:
            async with db.sessions(engine)() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (1)"))

        turns = await _ticks_while(write)()
        async with engine.connect() as connection:
            rows = (await connection.execute(text("SELECT count(*) FROM t"))).scalar_one()
        await engine.dispose()
        return turns, int(rows)

    turns, rows = asyncio.run(scenario())
    assert committing.is_set() and rows == 1
    assert turns > 10  # a stalled loop would have turned at most a few times around the one commit


def test_a_writer_waits_for_another_processs_lock_in_a_thread(tmp_path: Path) -> None:
    """Another process holds SQLite's write lock: the writer's ``BEGIN IMMEDIATE`` fails on the loop at once
    (a busy timeout of 0) and is tried again in a thread that waits for the lock; the loop turns meanwhile,
    and the writer writes once the lock is let go."""
    path = tmp_path / "locked.db"

    async def scenario() -> tuple[int, list[int]]:
        engine = db.make_engine(f"sqlite:///{path}")
        await _table(engine)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO t VALUES (1)")

        async def write() -> None:
            async with db.sessions(engine)() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (2)"))

        writer = asyncio.create_task(_ticks_while(write)())
        await asyncio.sleep(0.3)
        assert not writer.done()  # waiting for the lock
        other.execute("COMMIT")
        other.close()
        turns = await asyncio.wait_for(writer, 30)
        async with engine.connect() as connection:
            rows = [int(x) for (x,) in await connection.execute(text("SELECT x FROM t ORDER BY x"))]
        await engine.dispose()
        return turns, rows

    turns, rows = asyncio.run(scenario())
    assert rows == [1, 2]
    assert turns > 10


def _assert_unlocked(path: Path, rows: int) -> None:
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # 'database is locked' at once if a transaction was left open
        assert other.execute("SELECT count(*) FROM t").fetchone() == (rows,)
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_a_writer_cancelled_while_it_waits_for_the_lock_leaves_the_database_unlocked(tmp_path: Path) -> None:
    """The writer's task is cancelled (a table stopped) while its ``BEGIN IMMEDIATE`` waits in the thread for
    another process: the thread's wait goes on, and when it gets the lock, the transaction it opened is
    rolled back before the connection is used again, so the lock is not kept."""
    path = tmp_path / "cancelled.db"

    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{path}")
        await _table(engine)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")

        async def write() -> None:
            async with db.sessions(engine)() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (1)"))

        writer = asyncio.create_task(write())
        await asyncio.sleep(0.2)
        writer.cancel()
        await asyncio.sleep(0.1)
        other.execute("ROLLBACK")  # the thread now gets the lock for the cancelled writer
        other.close()
        with pytest.raises(asyncio.CancelledError):
            await writer
        await asyncio.sleep(0.2)
        _assert_unlocked(path, 0)
        async with db.sessions(engine)() as session, session.begin():  # and the engine writes on
            await session.execute(text("INSERT INTO t VALUES (2)"))
        await engine.dispose()
        _assert_unlocked(path, 1)

    asyncio.run(scenario())


def test_a_writer_cancelled_during_its_commit_leaves_the_database_unlocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelled while the commit runs in the thread (it cannot be called back from there): the commit ends
    there, the gate is handed on, and the next writer writes."""
    path = tmp_path / "commit.db"
    release = threading.Event()
    committing, held_commit = _commit_after(lambda: release.wait(10))

    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{path}")
        await _table(engine)
        monkeypatch.setattr(db._RollingBack, "commit", held_commit)

        async def write(x: int) -> None:
            async with db.sessions(engine)() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (:x)"), {"x": x})

        writer = asyncio.create_task(write(1))
        await asyncio.to_thread(committing.wait, 10)
        writer.cancel()
        await asyncio.sleep(0.05)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await writer
        await asyncio.wait_for(write(2), 10)  # the gate was handed on
        await engine.dispose()
        _assert_unlocked(path, 2)  # the commit in flight ended in its thread

    asyncio.run(scenario())


LONG_READ = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c"


def test_a_long_read_is_cut_short_on_the_loop_and_finished_in_a_thread(tmp_path: Path) -> None:
    """A reading engine's statement that runs past READ_MOST (a whole history read) is interrupted on the loop
    and run again in a thread: the loop turns meanwhile, the rows come back whole, and the read transaction
    keeps its snapshot (a write committed meanwhile is not seen)."""
    path = tmp_path / "reads.db"

    async def scenario() -> tuple[int, int, int, int]:
        writer = db.make_engine(f"sqlite:///{path}")
        await _table(writer)
        reader = db.make_engine(f"sqlite:///{path}", writes=False)
        async with db.sessions(reader)() as session, session.begin():
            before = (await session.execute(text("SELECT count(*) FROM t"))).scalar_one()
            async with writer.begin() as connection:
                await connection.execute(text("INSERT INTO t VALUES (1)"))
            with Ticker() as ticker:
                counted = (await session.execute(text(LONG_READ))).scalar_one()
                turns = ticker.turns
            after = (await session.execute(text("SELECT count(*) FROM t"))).scalar_one()
        await reader.dispose()
        await writer.dispose()
        return int(before), int(counted), int(after), turns

    before, counted, after, turns = asyncio.run(scenario())
    assert counted == 2_000_000
    assert (before, after) == (0, 0)  # one snapshot, before and after the interrupted statement
    assert turns > 10


def test_a_writers_statement_is_never_cut_short(tmp_path: Path) -> None:
    """SQLite rolls a whole write transaction back when one of its statements is interrupted: a writer's
    statement runs to its end on the loop, however long."""

    async def scenario() -> tuple[int, int]:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'writes.db'}")
        await _table(engine)
        async with db.sessions(engine)() as session, session.begin():
            await session.execute(text("INSERT INTO t VALUES (1)"))
            counted = (await session.execute(text(LONG_READ))).scalar_one()
        async with engine.connect() as connection:
            rows = (await connection.execute(text("SELECT count(*) FROM t"))).scalar_one()
        await engine.dispose()
        return int(counted), int(rows)

    assert asyncio.run(scenario()) == (2_000_000, 1)


def test_a_sqlite_uri_names_its_file_as_sqlalchemy_reads_it(tmp_path: Path) -> None:
    """The file comes from SQLAlchemy's own reading of the URL: a path relative or absolute, or a SQLite URI
    (``?uri=true``) with its options, such as a read-only connection that refuses to write."""
    path = tmp_path / "uri.db"

    async def scenario() -> tuple[int, str]:
        writer = db.make_engine(f"sqlite:///{path}")
        async with writer.begin() as connection:
            await connection.execute(text("CREATE TABLE t (x INTEGER)"))
            await connection.execute(text("INSERT INTO t VALUES (7)"))
        await writer.dispose()
        reader = db.make_engine(f"sqlite:///file:{path}?mode=ro&uri=true", writes=False)
        async with reader.connect() as connection:
            value = (await connection.execute(text("SELECT x FROM t"))).scalar_one()
            try:
                await connection.execute(text("INSERT INTO t VALUES (8)"))
                refused = ""
            except Exception as error:
                refused = str(error)
        await reader.dispose()
        return int(value), refused

    value, refused = asyncio.run(scenario())
    assert value == 7
    assert "readonly" in refused


SCHEMA_TABLES = 3000


def test_a_new_connection_reads_its_schema_in_a_thread(tmp_path: Path) -> None:
    """A connection opened under load (the pools grow for a burst of sign-ins or bets) reads and parses the
    database's schema at its first statement: that is done in the thread that opens it, not on the loop.
    The loop's own CPU time (``time.thread_time``: another thread's work, or the machine's other load, is not
    counted) while a fresh engine opens its connection and runs a first statement is compared with the CPU
    time the same schema takes to parse on the loop, in the same run."""
    path = tmp_path / "schema.db"
    big = sqlite3.connect(path)
    big.executescript("".join(f"CREATE TABLE t{n} (x INTEGER, y TEXT, z REAL);" for n in range(SCHEMA_TABLES)))
    big.close()

    def parse_on_the_loop() -> float:
        plain = sqlite3.connect(path)
        began = time.thread_time()
        plain.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        took = time.thread_time() - began
        plain.close()
        return took

    async def scenario() -> float:
        engine = db.make_engine(f"sqlite:///{path}")
        async with engine.connect() as connection:  # the engine's own first connection (its dialect's set-up)
            await connection.execute(text("SELECT 1"))
        await engine.dispose()  # the pool is empty: the next connection is a new one
        began = time.thread_time()
        async with engine.connect() as connection:
            await connection.execute(text("SELECT count(*) FROM t7"))
        spent = time.thread_time() - began
        await engine.dispose()
        return spent

    parse = min(parse_on_the_loop() for _ in range(3))
    spent = min(asyncio.run(scenario()) for _ in range(3))
    assert spent < parse / 2, (spent, parse)
