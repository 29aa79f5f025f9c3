"""A process's liveness and readiness probes (``croupier.server.routes_health``): open, cheap, bounded in
time, and never a way to load the database; each failing check named, the database's own message kept out
of the open answer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from croupier.server import routes_health
from croupier.server.routes_health import Readiness
from tests.server.conftest import Server, statements
from tests.server.test_processes import process, shared  # noqa: F401 (the fixture)
from tests.server.test_redis import Proxy, proxy  # noqa: F401 (the fixture)

SECRET = "password authentication failed for user croupier_admin at db.internal:5432"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every probe makes its own check (none answered from the last one's finding)."""
    monkeypatch.setattr(routes_health, "FRESH_SECONDS", 0.0)


class _Session:
    """A reading session whose statement fails, or never ends."""

    def __init__(self, hang: bool) -> None:
        self.hang = hang

    async def execute(self, *_args: Any) -> None:
        if self.hang:
            await asyncio.Event().wait()
        raise OperationalError("SELECT 1", {}, Exception(SECRET))


@contextlib.contextmanager
def database_away(server: Server, *, hang: bool = False) -> Iterator[None]:
    @contextlib.asynccontextmanager
    async def reader() -> AsyncIterator[_Session]:
        yield _Session(hang)

    service: Any = server.service
    service.reader = reader
    try:
        yield
    finally:
        del service.reader


def test_a_process_that_runs_is_alive_and_ready(sqlite_server: Server, fresh: None) -> None:
    alive = sqlite_server.client.get("/api/health")
    assert alive.status_code == 200 and alive.json()["status"] == "alive"
    ready = sqlite_server.client.get("/api/ready")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["ready"] is True and "error" not in body
    assert body["checks"] == {"service": "ok", "database": "ok", "leases": "ok"}  # no Redis here: not checked
    assert body["tables"] == len(sqlite_server.service.actors) > 0
    assert ready.headers["cache-control"] == "no-store"


def test_without_its_database_a_process_is_alive_but_not_ready(
    sqlite_server: Server, fresh: None, caplog: pytest.LogCaptureFixture
) -> None:
    with database_away(sqlite_server), caplog.at_level(logging.WARNING, "croupier.server"):
        assert sqlite_server.client.get("/api/health").status_code == 200  # restarting it would not help
        first = sqlite_server.client.get("/api/ready")
        again = sqlite_server.client.get("/api/ready")
    assert first.status_code == 503 and again.status_code == 503
    body = first.json()
    assert body["ready"] is False
    assert body["checks"]["database"] == "the database failed (OperationalError)"
    assert body["error"] == "not ready: database: the database failed (OperationalError)"
    assert body["checks"]["service"] == "ok" and body["checks"]["leases"] == "ok"
    assert "croupier_admin" not in first.text and "db.internal" not in first.text  # open: no hosts, no users
    failing = [r.getMessage() for r in caplog.records if "not ready" in r.getMessage()]
    assert len(failing) == 1 and SECRET in failing[0]  # the log has it whole, once for the two probes
    with caplog.at_level(logging.WARNING, "croupier.server"):
        back = sqlite_server.client.get("/api/ready")
    assert back.status_code == 200, back.text
    assert any("ready again: database" in r.getMessage() for r in caplog.records)


def test_a_database_that_does_not_answer_is_not_waited_for(
    sqlite_server: Server, fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes_health, "CHECK_SECONDS", 0.2)
    with database_away(sqlite_server, hang=True):
        began = time.monotonic()
        answer = sqlite_server.client.get("/api/ready")
        took = time.monotonic() - began
    assert answer.status_code == 503
    assert answer.json()["checks"]["database"] == "the database did not answer within 0.2 s"
    assert took < 10  # bounded by the check's time, not by the statement's (which never ends)


def test_many_probes_at_once_make_one_check(sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A flood of probes is one statement, and a finding answers the probes of the next moments."""
    readiness = Readiness(sqlite_server.service)

    async def probes(count: int) -> list[dict[str, str]]:
        return await asyncio.gather(*(readiness.checks() for _ in range(count)))

    monkeypatch.setattr(routes_health, "FRESH_SECONDS", 3600.0)
    with statements() as sent:
        found = sqlite_server.client.portal.call(probes, 200)
        found += sqlite_server.client.portal.call(probes, 200)  # answered from the first finding
    assert all(f["database"] == "ok" for f in found) and len(found) == 400
    assert sum("SELECT 1" in s for s in sent) == 1, sent
    monkeypatch.setattr(routes_health, "FRESH_SECONDS", 0.0)
    with statements() as sent:
        sqlite_server.client.portal.call(probes, 1)
    assert sum("SELECT 1" in s for s in sent) == 1  # stale: checked again


def test_a_probe_that_goes_away_does_not_stop_the_check(sqlite_server: Server, fresh: None) -> None:
    readiness = Readiness(sqlite_server.service)

    async def leave_early() -> dict[str, str]:
        waiting = asyncio.ensure_future(readiness.checks())
        await asyncio.sleep(0)
        waiting.cancel()  # the probe's connection closed
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        return await readiness.checks()  # the next probe

    found = sqlite_server.client.portal.call(leave_early)
    assert found["database"] == "ok"


def test_leases_not_renewed_and_a_stopping_process_are_not_ready(sqlite_server: Server, fresh: None) -> None:
    service = sqlite_server.service
    renewed = service.leased_at
    assert renewed is not None
    service.leased_at = service.lease_clock.monotonic() - service.settings.lease_seconds - 1
    stale = sqlite_server.client.get("/api/ready")
    assert stale.status_code == 503
    assert stale.json()["checks"]["leases"].startswith("not renewed for 11.")
    service.leased_at = renewed
    sqlite_server.client.portal.call(service.lease_round)  # a lease round commits: ready again
    assert sqlite_server.client.get("/api/ready").status_code == 200
    service.stopping = True  # (what Service.stop sets first)
    try:
        stopping = sqlite_server.client.get("/api/ready")
        assert stopping.status_code == 503 and stopping.json()["checks"]["service"] == "stopping"
    finally:
        service.stopping = False


def test_stop_says_the_process_is_stopping(tmp_path: Any) -> None:
    from tests.server.conftest import make_server

    servers = make_server(f"sqlite:///{tmp_path / 'croupier.db'}")
    server = next(servers)
    assert server.service.started and not server.service.stopping
    with contextlib.suppress(StopIteration):
        next(servers)  # the application stops
    assert server.service.stopping


def test_redis_away_is_not_ready_and_back_is_ready(shared: tuple[str, str], proxy: Proxy, fresh: None) -> None:  # noqa: F811
    url, prefix = shared
    client, server = process(url, prefix, redis=f"redis://127.0.0.1:{proxy.port}/0")
    try:
        server.quiet()
        ready = client.get("/api/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json()["checks"] == {"service": "ok", "database": "ok", "redis": "ok", "leases": "ok"}
        proxy.cut()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.service.hub.listening:
            time.sleep(0.05)
        away = client.get("/api/ready")
        assert away.status_code == 503
        assert away.json()["checks"]["redis"] == "not subscribed to the deployment's channels (reconnecting)"
        assert client.get("/api/health").status_code == 200
        proxy.restore()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and client.get("/api/ready").status_code != 200:
            time.sleep(0.05)
        assert client.get("/api/ready").json()["checks"]["redis"] == "ok"
    finally:
        client.__exit__(None, None, None)
