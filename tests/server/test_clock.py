"""The server reads time from its injected clock: token expiry, the ledger's and the accounts' records,
the sign-in throttle; the table leases and the hub from their own clock (the system's unless one is given);
a retry's pause from the table's sleeper."""

import asyncio
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from croupier.server import auth, faults
from croupier.server.app import Service, Settings, create_app
from croupier.server.clock import ManualClock, wait_until
from croupier.server.hub import Hub
from croupier.server.models import Account, GameTable, LedgerTransaction
from tests.server.conftest import Server


def run(server: Server, work: Any) -> Any:
    async def call() -> Any:
        async with server.service.session() as session:
            return await work(session)

    return server.client.portal.call(call)


def test_a_token_expires_by_the_servers_clock(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    assert server.client.get("/api/me", headers=ana).status_code == 200
    server.advance(auth.TOKEN_LIFETIME.total_seconds() - 60)
    assert server.client.get("/api/me", headers=ana).status_code == 200
    server.advance(120)  # past its lifetime by the server's clock, though hardly any wall time passed
    answer = server.client.get("/api/me", headers=ana)
    assert answer.status_code == 401
    assert "expired" in answer.json()["error"]


def test_the_ledger_and_a_new_account_are_stamped_by_the_servers_clock(sqlite_server: Server) -> None:
    server = sqlite_server
    server.advance(3600)
    answer = server.client.post(
        "/api/cashier/deposits",
        json={"account": "ana", "amount": "5"},
        headers={**server.login("cole"), "Idempotency-Key": uuid.uuid4().hex},
    )
    assert answer.status_code == 200, answer.text
    stamped = run(
        server, lambda s: s.scalar(select(LedgerTransaction.created_at).order_by(LedgerTransaction.id.desc()))
    )
    assert stamped.replace(tzinfo=stamped.tzinfo or UTC) == server.clock.now()
    assert (
        server.client.post("/api/accounts", json={"name": "gus", "password": "a long pass phrase"}).status_code == 201
    )
    opened = run(server, lambda s: s.scalar(select(Account.created_at).where(Account.name == "gus")))
    assert opened.replace(tzinfo=opened.tzinfo or UTC) == server.clock.now()


def test_the_leases_follow_the_lease_clock(tmp_path: Any) -> None:
    settings = Settings(
        database=f"sqlite:///{tmp_path / 'c.db'}", betting_seconds=10, seed="tests", lease_seconds=10, stagger=False
    )
    app = create_app(settings, clock=ManualClock())
    lease_time = datetime(2031, 5, 1, tzinfo=UTC)
    app.state.service.lease_clock = ManualClock(lease_time)
    with TestClient(app) as client:
        leases = client.portal.call(_leases, app)
    assert leases and set(leases) == {lease_time + timedelta(seconds=10)}


def _windows(tmp_path: Any, stagger: bool) -> tuple[list[float], list[float]]:
    """How long each table's first betting window is, and what is left of each table's next one when the
    last first window has ended (betting windows of 10 s, a manual clock moved to each window's end in
    turn: no round has a bet, so each round ends with its window and the next opens at once)."""
    settings = Settings(
        database=f"sqlite:///{tmp_path / f'{stagger}.db'}",
        betting_seconds=10,
        decision_seconds=10,
        seed="tests",
        stagger=stagger,
    )
    app = create_app(settings, clock=ManualClock())
    with TestClient(app) as client:
        service = app.state.service
        server = Server(client, service.clock, service)
        server.quiet()  # every table has opened its first window

        def left() -> list[float]:
            assert all(actor.phase == "betting" for actor in service.actors.values())
            return sorted(actor.deadline - service.clock.monotonic() for actor in service.actors.values())

        first = left()
        passed = 0.0
        for ends in first:  # each table's first window ended in its turn, the next opened from then
            server.advance(ends - passed)
            passed = ends
        return first, left()


def test_tables_started_together_open_their_first_windows_out_of_step(tmp_path: Any) -> None:
    """The tables a process starts at once would otherwise open every window, take every group of bets and
    end every round in the same moment, for good: each one's first window is longer by a random part of
    one window (``secrets``), the ones after it as the table's own."""
    first, after = _windows(tmp_path, stagger=True)
    assert len(first) >= 3
    assert all(10 <= seconds < 20 for seconds in first)
    assert len(set(first)) > 1  # all equal by chance: 1 in 1,000 for each table past the first
    assert after == pytest.approx(sorted(ends + 10 - max(first) for ends in first))  # 10 s, from each one's end
    in_step, then = _windows(tmp_path, stagger=False)
    assert set(in_step) == {10.0}
    assert set(then) == {10.0}


async def _leases(app: Any) -> list[datetime]:
    async with app.state.service.session() as session:
        rows: Iterator[datetime] = (await session.scalars(select(GameTable.lease_until))).all()
        return [row.replace(tzinfo=row.tzinfo or UTC) for row in rows]


# ------------------------------------------------------------------------------------------------
# the paced waits: the hub, the leases, the retries


KEY = "a key of the deployment, for tests"


def test_a_signed_messages_age_is_read_from_the_hubs_clock() -> None:
    """The hub stamps and checks a message's time by its clock: a message whose sender's clock is 31 s
    behind is stale, whatever the system's time."""
    sent_at = datetime(2031, 5, 1, tzinfo=UTC)
    sender = Hub("redis://127.0.0.1:1/0", "p", KEY, ManualClock(sent_at))
    on_time = Hub("redis://127.0.0.1:1/0", "p", KEY, ManualClock(sent_at + timedelta(seconds=29)))
    late = Hub("redis://127.0.0.1:1/0", "p", KEY, ManualClock(sent_at + timedelta(seconds=31)))
    assert json.loads(json.loads(sender._wire("p:cmd:1", {}))["body"])["at"] == sent_at.timestamp()
    assert on_time._open("p:cmd:1", sender._wire("p:cmd:1", {"kind": "bet"})) is not None
    assert late._open("p:cmd:1", sender._wire("p:cmd:1", {"kind": "bet"})) is None


def test_a_wait_ends_by_the_clock_it_is_given() -> None:
    async def scenario() -> tuple[bool, bool]:
        clock = ManualClock()
        never = asyncio.Event()
        waiting = asyncio.create_task(wait_until(clock, never.wait(), 5.0))
        await clock.advance(4.9)
        assert not waiting.done()  # no real time counts
        await clock.advance(0.2)
        timed_out = not await waiting
        done = asyncio.Event()
        done.set()
        return timed_out, await wait_until(clock, done.wait(), 5.0)

    assert asyncio.run(scenario()) == (True, True)


def test_the_lease_renewals_are_paced_by_the_lease_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every third of a lease by the lease clock (here a manual one): a renewal round, and no other."""

    async def scenario() -> list[int]:
        service = Service(Settings(lease_seconds=9), ManualClock(), lease_clock=ManualClock())
        rounds: list[int] = []

        async def lease_round() -> None:
            rounds.append(1)

        monkeypatch.setattr(service, "lease_round", lease_round)
        loop = asyncio.create_task(service._lease_loop())
        seen = []
        for _ in range(3):
            await asyncio.sleep(0.05)  # real time: the lease clock has not moved, no round
            seen.append(len(rounds))
            assert isinstance(service.lease_clock, ManualClock)
            await service.lease_clock.advance(3)
        await asyncio.sleep(0.05)
        seen.append(len(rounds))
        loop.cancel()
        return seen

    assert asyncio.run(scenario()) == [0, 1, 2, 3]


def test_a_retry_is_paced_by_the_tables_pause() -> None:
    """While an operation keeps failing (the database away) it is tried again after a pause that doubles,
    up to the longest, each through the table's own sleeper: no real time passes here."""
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    failures = iter(range(9))

    async def operation() -> str:
        if next(failures, None) is not None:
            raise ConnectionError("the database is away")
        return "done"

    actor = SimpleNamespace(name="t", first_pause=faults.FIRST_PAUSE, pause=pause)
    assert asyncio.run(faults.patiently(actor, "a test", operation)) == "done"  # type: ignore[arg-type]
    assert pauses == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, faults.LONGEST_PAUSE, faults.LONGEST_PAUSE]


def test_a_transaction_rolled_back_by_a_deadlock_is_tried_again_after_a_pause_by_the_given_sleeper() -> None:
    """db.retrying: a deadlock (SQLSTATE 40P01) or a serialization failure (40001) is tried again after a
    short pause through the sleeper it is given; another database error is raised at once."""
    from sqlalchemy.exc import DBAPIError

    from croupier.server.db import retrying

    class Orig(Exception):
        def __init__(self, sqlstate: str) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    states = iter(["40P01", "40001"])

    async def operation() -> str:
        state = next(states, None)
        if state is not None:
            raise DBAPIError("UPDATE wallets …", None, Orig(state))
        return "committed"

    assert asyncio.run(retrying(operation, attempts=3, pause=pause)) == "committed"
    assert len(pauses) == 2 and all(0 <= p < 0.02 * 2 for p in pauses)

    async def broken() -> str:
        raise DBAPIError("INSERT …", None, Orig("23505"))

    pauses.clear()
    try:
        asyncio.run(retrying(broken, pause=pause))
    except DBAPIError as error:
        assert getattr(error.orig, "sqlstate", None) == "23505"
    else:
        raise AssertionError("a unique violation is not tried again")
    assert pauses == []
