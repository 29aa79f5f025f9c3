"""The server reads time from its injected clock: token expiry, the ledger's and the accounts' records,
the sign-in throttle; the table leases from their own clock (the system's unless one is given)."""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from croupier.server import auth
from croupier.server.app import Settings, create_app
from croupier.server.clock import ManualClock
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
    settings = Settings(database=f"sqlite:///{tmp_path / 'c.db'}", betting_seconds=10, seed="tests", lease_seconds=10)
    app = create_app(settings, clock=ManualClock())
    lease_time = datetime(2031, 5, 1, tzinfo=UTC)
    app.state.service.lease_clock = ManualClock(lease_time)
    with TestClient(app) as client:
        leases = client.portal.call(_leases, app)
    assert leases and set(leases) == {lease_time + timedelta(seconds=10)}


async def _leases(app: Any) -> list[datetime]:
    async with app.state.service.session() as session:
        rows: Iterator[datetime] = (await session.scalars(select(GameTable.lease_until))).all()
        return [row.replace(tzinfo=row.tzinfo or UTC) for row in rows]
