"""The live table service under test: a real database (SQLite in a file, and PostgreSQL where it runs),
a manual clock the tests move, and the ledger's invariants checked after every test."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from croupier.server.app import Service, Settings, create_app
from croupier.server.clock import ManualClock

POSTGRES_ADMIN = os.environ.get("CROUPIER_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def postgres_available() -> bool:
    async def probe() -> bool:
        import asyncpg

        try:
            connection = await asyncpg.connect(POSTGRES_ADMIN.replace("postgresql://", "postgres://"), timeout=3)
        except (TimeoutError, OSError, asyncpg.PostgresError):
            return False
        await connection.close()
        return True

    return asyncio.run(probe())


def _admin(sql: str) -> None:
    async def run() -> None:
        import asyncpg

        connection = await asyncpg.connect(POSTGRES_ADMIN.replace("postgresql://", "postgres://"), timeout=10)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(run())


@pytest.fixture(scope="session")
def postgres() -> bool:
    available = postgres_available()
    if not available and os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI=true and does not answer at {POSTGRES_ADMIN}")
    return available


def database_url(kind: str, tmp_path: Any, postgres: bool) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'croupier.db'}"
        return
    if not postgres:
        pytest.skip(f"PostgreSQL does not answer at {POSTGRES_ADMIN} (it is required under CI=true)")
    name = f"croupier_test_{uuid.uuid4().hex[:12]}"
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def statements() -> Iterator[list[str]]:
    """The SQL statements sent on any engine meanwhile, each on one line."""
    seen: list[str] = []

    def sent(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", sent)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", sent)


@dataclass
class Server:
    client: TestClient
    clock: ManualClock
    service: Service

    def advance(self, seconds: float) -> None:
        """Move the clock, then wait until every table waits for its next command."""
        self.client.portal.call(self.clock.advance, seconds)
        self.quiet()

    def quiet(self) -> None:
        async def wait() -> None:
            for actor in list(self.service.actors.values()):  # a table handed off leaves the dict meanwhile
                await asyncio.wait_for(actor.idle.wait(), 20)

        self.client.portal.call(wait)

    def settle_queue(self) -> None:
        self.advance(0)

    def login(self, name: str, password: str = "demo") -> dict[str, str]:
        answer = self.client.post("/api/login", json={"name": name, "password": password})
        assert answer.status_code == 200, answer.text
        return {"Authorization": f"Bearer {answer.json()['token']}"}

    def bet(self, headers: dict[str, str], table: int, spot: str, amount: str, key: str | None = None) -> Any:
        answer = self.client.post(
            f"/api/tables/{table}/bets",
            json={"spot": spot, "amount": amount},
            headers={**headers, "Idempotency-Key": key or uuid.uuid4().hex},
        )
        self.quiet()
        return answer

    def act(self, headers: dict[str, str], table: int, body: dict[str, Any], key: str | None = None) -> Any:
        answer = self.client.post(
            f"/api/tables/{table}/actions", json=body, headers={**headers, "Idempotency-Key": key or uuid.uuid4().hex}
        )
        self.quiet()
        return answer

    def view(self, table: int, headers: dict[str, str] | None = None) -> dict[str, Any]:
        answer = self.client.get(f"/api/tables/{table}", headers=headers or {})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def ledger(self) -> dict[str, Any]:
        answer = self.client.get("/api/ledger", headers=self.login("sam"))
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def balance(self, headers: dict[str, str]) -> str:
        return str(self.client.get("/api/me", headers=headers).json()["balance"])

    def play_out(self, table: int, players: dict[str, dict[str, str]], choose: Any = None, limit: int = 60) -> None:
        """Answer every decision (``choose(actions)`` picks, else stand) until the round is over."""
        for _ in range(limit):
            view = self.view(table)
            if view["phase"] != "playing":
                return
            pending = view.get("pending", {})
            player = pending.get("player")
            if pending.get("kind") == "decision" and player in players:
                actions = self.view(table, players[player])["your_actions"]
                action = choose(actions) if choose else next(a for a in actions if a["type"] == "stand")
                body = {k: v for k, v in action.items() if k in ("type", "box", "hand")}
                if action["type"] == "double":
                    body["amount"] = action["max_amount"]
                answer = self.act(players[player], table, body)
                assert answer.status_code == 200, answer.text
            else:
                self.advance(30)
        raise AssertionError("the round did not end")


def make_server(url: str, **overrides: Any) -> Iterator[Server]:
    """A server on ``url`` with the tests' settings (``overrides`` changing some), its ledger checked after."""
    clock = ManualClock()
    settings = Settings(database=url, betting_seconds=10, decision_seconds=10, seed="tests", stagger=False, **overrides)
    app = create_app(settings, clock=clock)
    with TestClient(app) as client:
        server = Server(client, clock, app.state.service)
        server.quiet()  # every table has opened its first betting window
        yield server
        ledger = server.ledger()
        assert ledger == {
            "entries_sum": 0,
            "balances_sum": 0,
            "unbalanced_transactions": 0,
            "wallets_match_entries": True,
        }


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Any, postgres: bool) -> Iterator[Server]:
    for url in database_url(request.param, tmp_path, postgres):
        yield from make_server(url)


@pytest.fixture
def sqlite_server(tmp_path: Any) -> Iterator[Server]:
    yield from make_server(f"sqlite:///{tmp_path / 'croupier.db'}")
