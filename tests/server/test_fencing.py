"""A table's owner and its task: a process that froze and lost its table's lease to another
cannot settle the round the new owner voided (lease fencing, ``fence.py``); a table whose task ends
unasked is started again by the watchdog, its stakes returned."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from croupier.server import codes
from croupier.server.app import Settings, create_app
from croupier.server.clock import ManualClock
from croupier.server.models import GameTable, LedgerTransaction, RoundRecord, Settlement
from tests.server.conftest import Server, database_url

ONLINE = 2


def start(url: str) -> tuple[TestClient, Server]:
    settings = Settings(
        database=url, betting_seconds=10, decision_seconds=10, seed="tests", lease_seconds=10, stagger=False
    )
    app = create_app(settings, clock=ManualClock())
    client = TestClient(app)
    client.__enter__()
    server = Server(client, app.state.service.clock, app.state.service)
    server.quiet()
    return client, server


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Any, postgres: bool) -> Iterator[str]:
    yield from database_url(request.param, tmp_path, postgres)


def test_a_frozen_owner_cannot_settle_a_round_taken_over(url: str) -> None:
    first_client, first = start(url)
    second_client: TestClient | None = None
    try:
        ana = first.login("ana")
        assert first.bet(ana, ONLINE, "1", "40").status_code == 200
        first.advance(10)  # no more bets: the cards are dealt, ana's hand waits for her decision
        old = first.service.actors[ONLINE]
        assert old.phase == "playing"
        round_id = old.round_id

        # the first process freezes: it renews no lease, and its lease on the table lapses
        first.client.portal.call(first.service._leases.cancel) if first.service._leases else None

        first.client.portal.call(_expire, first, ONLINE)
        second_client, second = start(url)  # takes the table over: the round is void, ana's 40 returned
        assert ONLINE in second.service.actors
        assert second.balance(second.login("ana")) == "1000.00"

        # the first process wakes and plays the round on to its settlement: refused, the actor stops
        for _ in range(10):
            if old.task is not None and old.task.done():
                break
            first.advance(30)

        async def money() -> tuple[str, int, int, int]:
            async with second.service.session() as session:
                record = await session.get(RoundRecord, round_id)
                assert record is not None
                settles = await session.scalar(
                    select(func.count()).where(
                        LedgerTransaction.round_id == round_id, LedgerTransaction.kind == "settle"
                    )
                )
                refunds = await session.scalar(
                    select(func.count()).where(
                        LedgerTransaction.round_id == round_id, LedgerTransaction.kind == "refund"
                    )
                )
                settlements = await session.scalar(select(func.count()).where(Settlement.round_id == round_id))
                return record.status, int(settles or 0), int(refunds or 0), int(settlements or 0)

        assert second.client.portal.call(money) == ("voided", 0, 1, 0)  # the money moved once: the refund
        assert second.balance(second.login("ana")) == "1000.00"
        assert old.lease_lost and old.task is not None and old.task.done()
        assert first.service.actors.get(ONLINE) is old  # its lease loop is frozen: still listed, never used
        refused = first.client.post(
            f"/api/tables/{ONLINE}/bets", json={"spot": "1", "amount": "10"}, headers={**ana, "Idempotency-Key": "k"}
        )
        assert refused.status_code == 503  # this process runs the table no longer (no Redis to forward it)
        assert refused.json()["code"] == "table.unreachable"
        moved = "table online-1 moved to another process; nothing was changed: try again"  # a command queued then
        assert codes.classify(moved) == ("table.unreachable", {"table": "online-1"})

        assert second.ledger()["balances_sum"] == 0 and second.ledger()["wallets_match_entries"]
        epoch = second.client.portal.call(_epoch, second, ONLINE)
        assert epoch == old.row.epoch + 1  # the takeover moved the fencing token on
    finally:
        if second_client is not None:
            second_client.__exit__(None, None, None)
        first.service.settings.run_tables = False
        first_client.__exit__(None, None, None)


async def _expire(server: Server, table_id: int) -> None:
    from datetime import UTC, datetime, timedelta

    async with server.service.session() as session, session.begin():
        await session.execute(
            update(GameTable)
            .where(GameTable.id == table_id)
            .values(lease_until=datetime.now(UTC) - timedelta(seconds=60))
        )


async def _epoch(server: Server, table_id: int) -> int:
    async with server.service.session() as session:
        row = await session.get(GameTable, table_id)
        assert row is not None
        return row.epoch


def test_the_watchdog_starts_a_dead_table_again(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "40").status_code == 200
    assert server.balance(ana) == "960.00"
    old = server.service.actors[ONLINE]
    assert old.task is not None
    server.client.portal.call(old.task.cancel)  # the table's task dies unasked, its bet in play

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and server.service.actors.get(ONLINE) in (None, old):
        time.sleep(0.05)
    fresh = server.service.actors.get(ONLINE)
    assert fresh is not None and fresh is not old, "the watchdog did not start the table again"
    server.quiet()
    assert server.balance(ana) == "1000.00"  # the round it left was void and the bet returned
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200  # and the table deals on
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
    assert server.client.get("/api/history", headers=ana).json()[0]["status"] == "settled"

    async def statuses() -> list[str]:
        async with server.service.session() as session:
            return list((await session.scalars(select(RoundRecord.status).order_by(RoundRecord.id))).all())

    assert server.client.portal.call(statuses)[-2:] == ["voided", "settled"]
