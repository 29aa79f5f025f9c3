"""PostgreSQL's round trips: a pooled connection pinged before use only after lying idle (a dead one
replaced), and the reads run with no BEGIN and ROLLBACK around them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from croupier.server import db
from tests.server.conftest import database_url, make_server


@pytest.fixture
def pg_url(tmp_path: Path, postgres: bool) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path, postgres)


def _counting_pings(engine: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pings: list[int] = []
    dialect = engine.sync_engine.dialect
    real = dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings.append(1)
        return bool(real(dbapi_connection))

    monkeypatch.setattr(dialect, "do_ping", counted)
    return pings


def test_a_connection_given_back_a_moment_ago_is_not_pinged(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each transaction on a busy server took three more round trips for the ping (pool_pre_ping)."""
    monkeypatch.setattr(db, "PING_AFTER_IDLE_S", 60.0)

    async def run() -> list[int]:
        engine = db.make_engine(pg_url)
        pings = _counting_pings(engine, monkeypatch)
        try:
            for _ in range(5):
                async with engine.begin() as connection:
                    assert (await connection.execute(text("SELECT 1"))).scalar() == 1
        finally:
            await engine.dispose()
        return pings

    assert asyncio.run(run()) == []


def test_an_idle_connection_the_database_ended_is_replaced_before_use(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "PING_AFTER_IDLE_S", 0.0)

    async def run() -> tuple[int, int, list[int]]:
        engine = db.make_engine(pg_url)
        pings = _counting_pings(engine, monkeypatch)
        try:
            async with engine.connect() as connection:
                first = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            # the server ends that pooled session (a restart, an administrator, an idle timeout)
            admin = db.make_engine(pg_url)
            try:
                async with admin.begin() as connection:
                    await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
            finally:
                await admin.dispose()
            await asyncio.sleep(0.2)
            async with engine.begin() as connection:
                second = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        finally:
            await engine.dispose()
        return first, second, pings

    first, second, pings = asyncio.run(run())
    assert second != first
    assert pings  # the dead connection failed its ping and was replaced, so no statement failed


def test_a_readers_statements_on_postgresql_are_each_a_transaction_of_their_own(pg_url: str) -> None:
    """A request that only reads (who signs in, a stored answer) took a BEGIN and a ROLLBACK more, two round
    trips, around its statements; READ COMMITTED gives each statement its own snapshot either way."""
    for server in make_server(pg_url):

        async def probe(service: Any = server.service) -> Any:
            async with service.reader() as session:
                # a setting local to the transaction outlives its statement only inside a transaction block
                await session.execute(text("SELECT set_config('croupier.probe', 'held', true)"))
                return (await session.execute(text("SELECT current_setting('croupier.probe', true)"))).scalar()

        assert server.client.portal.call(probe) in ("", None)
        assert "phase" in server.view(1, server.login("ana"))  # and a signed-in read still finds its player


def test_a_burst_of_transactions_keeps_the_connections_it_opened(pg_url: str) -> None:
    """A pool that kept 10 connections and opened 20 more in a burst closed the extra ones as they came back,
    and the next burst opened them again: a connection, its authentication and a prepare of every
    statement each time. Two bursts of more transactions than the pool holds open its connections once."""

    async def run() -> tuple[int, int, int]:
        engine = db.make_engine(pg_url)
        opened: list[int] = []

        @event.listens_for(engine.sync_engine.pool, "connect")
        def _opened(_dbapi_connection: Any, _record: Any) -> None:
            opened.append(1)

        async def transaction() -> None:
            async with engine.begin() as connection:
                await connection.execute(text("SELECT pg_sleep(0.02)"))

        try:
            await asyncio.gather(*(transaction() for _ in range(db.PG_POOL + 15)))
            first = len(opened)
            await asyncio.gather(*(transaction() for _ in range(db.PG_POOL + 15)))
            async with engine.connect() as connection:
                adapted = (await connection.get_raw_connection()).dbapi_connection
                kept = adapted._prepared_statement_cache.capacity
        finally:
            await engine.dispose()
        return first, len(opened), kept

    first, total, kept = asyncio.run(run())
    assert first <= db.PG_POOL
    assert total == first  # the second burst opened nothing
    assert kept == db.PG_PREPARED >= 200  # more than the distinct statements the server runs
