"""SQLite's write gate (croupier.server.db): one writer at a time, and the writes a player waits on (a bet,
a decision's stakes: ``db.answered()``) before the ones no one waits on (the other tables' settlements,
round and shoe records), each class in the order it came. A bet is never queued behind a burst of
settlements, neither at the gate nor, before it, for a connection from the pool."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from croupier.server import db
from tests.server.conftest import Server

CHORES = 24
"""Writers no one waits on, queued at the gate before a bet's: more than the connections the engine's pool
kept before the gate served bets first (5, and 10 more at most)."""


def test_turns_serve_the_answered_first_then_in_order() -> None:
    async def scenario() -> list[str]:
        turns = db._Turns()
        order: list[str] = []
        await turns.acquire(False)  # held

        async def writer(name: str, first: bool) -> None:
            await turns.acquire(first)
            order.append(name)
            await asyncio.sleep(0)
            turns.release()

        tasks = [asyncio.create_task(writer("chore-1", False)), asyncio.create_task(writer("chore-2", False))]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(writer("bet-1", True)), asyncio.create_task(writer("bet-2", True))]
        await asyncio.sleep(0)
        turns.release()
        await asyncio.gather(*tasks)
        assert not turns.held and not turns.waiting
        return order

    assert asyncio.run(scenario()) == ["bet-1", "bet-2", "chore-1", "chore-2"]


def test_a_writer_that_gives_up_waiting_does_not_hold_the_gate() -> None:
    """A wait that times out (SQLite's 'database is locked') leaves the queue; one handed the gate as it gave
    up hands it on."""

    async def scenario() -> list[str]:
        turns = db._Turns()
        order: list[str] = []
        await turns.acquire(False)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(turns.acquire(True), 0.01)
        assert not turns.waiting

        async def writer(name: str) -> None:
            await turns.acquire(False)
            order.append(name)
            turns.release()

        late = asyncio.create_task(turns.acquire(True))
        after = asyncio.create_task(writer("after"))
        await asyncio.sleep(0)
        turns.release()  # handed to ``late`` ...
        late.cancel()  # ... which gives up before it runs: the gate goes on to ``after``
        await asyncio.gather(late, return_exceptions=True)
        await asyncio.wait_for(after, 1)
        return order

    assert asyncio.run(scenario()) == ["after"]


def test_a_bet_passes_the_settlements_queued_before_it(tmp_path: Path) -> None:
    """A transaction holds the gate; CHORES writers no one waits on queue behind it, then one a player waits
    on. When the first commits, the answered writer writes next, before every chore queued before it."""

    async def scenario() -> list[str]:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'gate.db'}")
        # no chore may count as overdue here (CHORE_WAIT_MOST), however slowly a loaded machine runs the test
        db.GATES[engine.sync_engine].turns.wait_most = 60.0
        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE writes (n INTEGER PRIMARY KEY, who TEXT)"))
        make = db.sessions(engine)

        async def write(who: str) -> None:
            async with make() as session, session.begin():
                await session.execute(text("INSERT INTO writes (who) VALUES (:who)"), {"who": who})

        async def bet() -> None:
            with db.answered():
                await write("bet")

        holder = make()
        await holder.begin()
        await holder.execute(text("INSERT INTO writes (who) VALUES ('holder')"))  # holds the gate
        chores = [asyncio.create_task(write(f"chore-{i}")) for i in range(CHORES)]
        await asyncio.sleep(0.2)  # every chore is waiting for its turn
        answered = asyncio.create_task(bet())
        await asyncio.sleep(0.2)
        await holder.commit()
        await holder.close()
        await asyncio.wait_for(asyncio.gather(answered, *chores), 30)
        async with make() as session:
            order = [row[0] for row in await session.execute(text("SELECT who FROM writes ORDER BY n"))]
        await engine.dispose()
        return order

    order = asyncio.run(scenario())
    assert order[:2] == ["holder", "bet"], order
    assert sorted(order[2:]) == sorted(f"chore-{i}" for i in range(CHORES))  # then every chore


def test_a_wait_given_up_after_the_gate_passed_it_by_ends_cleanly() -> None:
    """A waiter cancelled while the gate is released: the release skips it, and its own end finds its place
    in the queue already gone (it is cancelled, not failed, and the gate is free)."""

    async def scenario() -> tuple[object, bool, int]:
        turns = db._Turns()
        await turns.acquire(False)
        waiter = asyncio.create_task(turns.acquire(True))
        await asyncio.sleep(0)  # waiting for its turn
        waiter.cancel()  # its turn is cancelled at once; the task ends at its next step
        turns.release()  # passes the cancelled turn by: the gate is free
        (outcome,) = await asyncio.gather(waiter, return_exceptions=True)
        return outcome, turns.held, turns.waiting

    outcome, held, waiting = asyncio.run(scenario())
    assert isinstance(outcome, asyncio.CancelledError), outcome
    assert (held, waiting) == (False, 0)


def test_a_chore_that_waited_long_enough_goes_before_newer_answered_writes() -> None:
    """No starvation: a steady flow of answered writes does not hold a settlement back past ``wait_most``."""

    async def scenario() -> list[str]:
        turns = db._Turns(wait_most=0.05)
        order: list[str] = []
        await turns.acquire(False)

        async def writer(name: str, first: bool) -> None:
            await turns.acquire(first)
            order.append(name)
            turns.release()

        chore = asyncio.create_task(writer("chore", False))
        await asyncio.sleep(0.1)  # the chore has waited past wait_most
        bet = asyncio.create_task(writer("bet", True))
        await asyncio.sleep(0)
        turns.release()
        await asyncio.gather(chore, bet)
        return order

    assert asyncio.run(scenario()) == ["chore", "bet"]


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_database_still_makes_an_engine(url: str) -> None:
    async def scenario() -> int:
        engine = db.make_engine(url)
        async with engine.begin() as connection:
            value = (await connection.execute(text("SELECT 1"))).scalar_one()
        await engine.dispose()
        return int(value)

    assert asyncio.run(scenario()) == 1


def test_the_gate_is_handed_on_at_the_commit(tmp_path: Path) -> None:
    """The dialect's commit is given the pool's wrapper of the connection: the gate is left there, not only
    when the connection goes back to the pool, so a session kept open holds nothing between transactions."""

    async def scenario() -> tuple[bool, bool]:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'commit.db'}")
        gate = db.GATES[engine.sync_engine]
        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE t (x INTEGER)"))
        session = db.sessions(engine)()
        await session.begin()
        await session.execute(text("INSERT INTO t VALUES (1)"))
        during = gate.turns.held
        await session.commit()
        after = gate.turns.held  # the session is still open
        await session.close()
        await engine.dispose()
        return during, after

    assert asyncio.run(scenario()) == (True, False)


def test_a_writer_cancelled_while_its_statement_runs_leaves_the_database_unlocked(tmp_path: Path) -> None:
    """A table's actor stopped (or a request given up) while its statement runs in the driver's thread: its
    connection is closed, not rolled back, and a close that left the transaction open while the statement
    was not finalized held SQLite's write lock until the garbage collector found the cursor, so that every
    other writer waited out the 30 s busy timeout. After the cancelled writer has ended, another connection
    that does not wait at all takes the write lock at once."""
    path = tmp_path / "cancelled.db"
    entered, release = threading.Event(), threading.Event()

    def hold() -> int:  # a statement that runs until the test lets it finish
        entered.set()
        release.wait(10)
        return 1

    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{path}")

        @event.listens_for(engine.sync_engine, "connect")
        def _hold(connection: Any, _record: Any) -> None:
            connection.create_function("hold", 0, hold)

        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE t (x INTEGER)"))

        async def writer() -> None:
            async with db.sessions(engine)() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (1)"))
                await session.execute(text("SELECT hold()"))

        task = asyncio.create_task(writer())
        await asyncio.to_thread(entered.wait, 10)
        task.cancel()
        await asyncio.sleep(0.05)  # the cancellation reaches the connection while the statement still runs
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # 'database is locked' at once if the lock was kept
            assert other.execute("SELECT count(*) FROM t").fetchone() == (0,)  # the insert rolled back
            other.execute("ROLLBACK")
        finally:
            other.close()
        async with db.sessions(engine)() as session, session.begin():  # and the engine writes on
            await session.execute(text("INSERT INTO t VALUES (2)"))
        await engine.dispose()

    asyncio.run(scenario())


def test_a_requests_writes_go_first_and_a_table_it_opens_does_not_take_the_mark(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every HTTP request's writes are ones someone waits on (a sign-in, a cashier's payment, a table's
    opening): they pass the gate before the settlements. A table opened by a request runs in a task made with
    a copy of the request's context, yet only the commands it serves are marked: its round's records and
    settlement stay behind the answered writes."""
    seen: list[tuple[str, bool]] = []
    acquire = db._Turns.acquire

    async def watched(turns: db._Turns, first: bool) -> None:
        task = asyncio.current_task()
        seen.append((task.get_name() if task else "", first))
        await acquire(turns, first)

    monkeypatch.setattr(db._Turns, "acquire", watched)
    server = sqlite_server
    sam = server.login("sam")
    body = {"name": "mini-9", "game": "baccarat", "preset": "macau", "overrides": {}, "chip": "1"}
    opened = server.client.post("/api/tables", json={**body, "min_bet": "10", "max_bet": "1000"}, headers=sam)
    assert opened.status_code == 201, opened.text
    table_id = opened.json()["id"]
    from_requests = [first for name, first in seen if not name.startswith("table-")]
    assert from_requests and all(from_requests)  # the sign-in's token, the table's opening and lease
    server.quiet()
    ana = server.login("ana")
    seen.clear()
    assert server.bet(ana, table_id, "player", "10").status_code == 200
    server.advance(30)  # the window closes, the coup is dealt and settled
    assert server.client.get("/api/history", headers=ana).json()[0]["status"] == "settled"
    table = [first for name, first in seen if name == f"table-{table_id}"]
    assert True in table  # the bet, served for the request that waits on it
    assert False in table  # the coup's records and settlement: no one waits on them


def test_a_burst_of_requests_reads_does_not_hold_a_tables_reads(sqlite_server: Server) -> None:
    """A sign-in storm's reads (each request's throttle and account) take every connection of the requests'
    reading pool at once; a table reads a stored answer to a bet or a decision sent again from a pool of its
    own, so that its player is not answered after them. Here every connection of the requests' pool is held
    while the table reads."""
    server = sqlite_server
    service = server.service
    actor = next(iter(service.actors.values()))
    assert service.read_engine is not None
    pool = service.read_engine.sync_engine.pool
    most = pool.size() + pool._max_overflow  # type: ignore[attr-defined]

    async def scenario() -> int:
        held = [service.reader() for _ in range(most)]
        try:
            for session in held:  # each checks a connection out and keeps it
                await session.execute(text("SELECT 1"))
            async with asyncio.timeout(5):  # the requests' pool waits 30 s for a connection
                async with actor.readers() as session:
                    return int((await session.execute(text("SELECT 7"))).scalar_one())
        finally:
            for session in held:
                await session.close()

    assert server.client.portal.call(scenario) == 7
