"""A process's liveness and readiness probes (``croupier.server.routes_health``): open, cheap, bounded in
time, and never a way to load the database; each failing check named, the database's own message kept out
of the open answer."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError

from croupier.server import routes_health
from croupier.server.app import Settings, create_app
from croupier.server.clock import ManualClock
from croupier.server.routes_health import Readiness
from tests.server.conftest import Server, make_server, statements
from tests.server.test_processes import process, shared  # noqa: F401 (the fixture)
from tests.server.test_redis import Proxy, proxy  # noqa: F401 (the fixture)

SECRET = "password authentication failed for user croupier_admin at db.internal:5432"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every probe makes its own check (none answered from the last one's finding)."""
    monkeypatch.setattr(routes_health, "FRESH_SECONDS", 0.0)


class _Session:
    """A reading session whose statement fails (``error``), or never ends (``hang``), or one that does not let
    go even when given up (``stuck``: it ignores cancellation until ``released``)."""

    def __init__(self, hang: bool, error: Exception | None, stuck: asyncio.Event | None) -> None:
        self.hang, self.error, self.stuck = hang, error, stuck

    async def execute(self, *_args: Any) -> None:
        if self.stuck is not None:
            while not self.stuck.is_set():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(0.01)
            return
        if self.hang:
            await asyncio.Event().wait()
        raise self.error or OperationalError("SELECT 1", {}, Exception(SECRET))


@contextlib.contextmanager
def database_away(
    server: Server, *, hang: bool = False, error: Exception | None = None, stuck: asyncio.Event | None = None
) -> Iterator[None]:
    @contextlib.asynccontextmanager
    async def reader() -> AsyncIterator[_Session]:
        yield _Session(hang, error, stuck)

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


def test_a_timeout_of_the_drivers_own_is_a_failure_not_the_checks_bound(sqlite_server: Server, fresh: None) -> None:
    with database_away(sqlite_server, error=TimeoutError("connect timed out")):
        answer = sqlite_server.client.get("/api/ready")
    assert answer.json()["checks"]["database"] == "the database failed (TimeoutError)"


def test_a_check_that_does_not_let_go_holds_no_probe(
    sqlite_server: Server, fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection that does not end even when given up: each probe is answered after ANSWER_SECONDS, and
    the probes share the one check that hangs rather than start more."""
    monkeypatch.setattr(routes_health, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(routes_health, "ANSWER_SECONDS", 0.3)
    stuck = sqlite_server.client.portal.call(_event)  # let go after 5 s at most, should the bound not hold
    with database_away(sqlite_server, stuck=stuck):
        first = sqlite_server.client.get("/api/ready")
        second = sqlite_server.client.get("/api/ready")
    assert first.status_code == 503 and second.status_code == 503
    assert first.json()["checks"] == {"checks": "not ended within 0.3 s (a connection that does not let go)"}
    sqlite_server.client.portal.call(_release, stuck)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and sqlite_server.client.get("/api/ready").status_code != 200:
        time.sleep(0.02)
    assert sqlite_server.client.get("/api/ready").status_code == 200


async def _event() -> asyncio.Event:
    event = asyncio.Event()
    asyncio.get_running_loop().call_later(5, event.set)
    return event


async def _release(event: asyncio.Event) -> None:
    event.set()


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

    async def leave_early() -> tuple[dict[str, str], bool, bool]:
        waiting = asyncio.ensure_future(readiness.checks())
        await asyncio.sleep(0)
        the_check = readiness._checking
        assert the_check is not None and not the_check.done()
        waiting.cancel()  # the probe's connection closed
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        found = await readiness.checks()  # the next probe: the same check's finding
        return found, readiness._checking is the_check, the_check.cancelled()

    found, same, cancelled = sqlite_server.client.portal.call(leave_early)
    assert found["database"] == "ok" and same and not cancelled


def test_leases_not_renewed_and_a_stopping_process_are_not_ready(sqlite_server: Server, fresh: None) -> None:
    service = sqlite_server.service
    renewed = service.leased_at
    assert renewed is not None
    service.leased_at = service.lease_clock.monotonic() - 6  # one renewal missed (one every third of 10 s)
    assert sqlite_server.client.get("/api/ready").status_code == 200
    service.leased_at = service.lease_clock.monotonic() - 7  # two: 3 s before the others take its tables
    stale = sqlite_server.client.get("/api/ready")
    assert stale.status_code == 503
    assert stale.json()["checks"]["leases"].startswith("not renewed for 7.")
    service.leased_at = renewed
    sqlite_server.client.portal.call(service.lease_round)  # a lease round commits: ready again
    assert sqlite_server.client.get("/api/ready").status_code == 200
    service.stopping = True  # (what Service.stop sets first)
    try:
        stopping = sqlite_server.client.get("/api/ready")
        assert stopping.status_code == 503 and stopping.json()["checks"] == {"service": "stopping"}
    finally:
        service.stopping = False


def test_a_process_that_runs_no_tables_has_no_leases_to_check(tmp_path: Any, fresh: None) -> None:
    settings = Settings(database=f"sqlite:///{tmp_path / 'croupier.db'}", run_tables=False)
    with TestClient(create_app(settings, clock=ManualClock())) as client:
        answer = client.get("/api/ready")
    assert answer.status_code == 200, answer.text
    assert answer.json()["checks"] == {"service": "ok", "database": "ok"} and answer.json()["tables"] == 0


def test_the_leases_count_from_the_round_that_took_them(sqlite_server: Server) -> None:
    """A lease round that takes a while: the process's leases count from its start, as ``lease_until`` does."""
    service = sqlite_server.service
    before = service.lease_clock.monotonic()
    sqlite_server.client.portal.call(service.lease_round)
    assert service.leased_at is not None and before <= service.leased_at <= service.lease_clock.monotonic()


def test_stop_says_the_process_is_stopping(tmp_path: Any) -> None:
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


# metrics ------------------------------------------------------------------------------------------

TOKEN = "a deployment's metrics token"


@pytest.fixture
def metered(tmp_path: Any) -> Iterator[Server]:
    yield from make_server(f"sqlite:///{tmp_path / 'croupier.db'}", metrics_token=TOKEN)


def scrape(server: Server) -> dict[str, float]:
    """Each sample of ``GET /api/metrics`` by its name and labels, as Prometheus reads it."""
    answer = server.client.get("/api/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        sample.name + json.dumps(sample.labels, sort_keys=True): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def sample(name: str, **labels: str) -> str:
    return name + json.dumps(labels, sort_keys=True)


def test_metrics_are_off_without_a_token(sqlite_server: Server) -> None:
    answer = sqlite_server.client.get("/api/metrics", headers={"Authorization": "Bearer anything at all"})
    assert answer.status_code == 404
    assert "CROUPIER_METRICS_TOKEN" in answer.json()["error"]


@pytest.mark.parametrize("authorization", [None, "Bearer not the token", f"Basic {TOKEN}", TOKEN, "Bearer "])
def test_metrics_need_the_token(metered: Server, authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    answer = metered.client.get("/api/metrics", headers=headers)
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == "Bearer"
    assert "metrics token" in answer.json()["error"]
    assert "croupier_" not in answer.text


def test_metrics_count_the_answers_tables_sockets_and_windows(metered: Server) -> None:
    tables = len(metered.service.actors)
    before = scrape(metered)
    assert before[sample("croupier_tables", phase="betting")] == tables
    assert before[sample("croupier_websockets_open")] == 0
    assert before[sample("croupier_hub_unsent_total")] == 0
    assert sample("croupier_database_connections_in_use") in before
    ana = metered.login("ana")
    assert metered.bet(ana, 1, "1", "10").status_code == 200
    assert metered.client.get("/api/tables/999999").status_code == 404
    assert metered.client.get("/api/no/such/path").status_code == 404
    with metered.client.websocket_connect("/ws/tables/1") as socket:
        assert socket.receive_json()["type"] == "snapshot"
        assert scrape(metered)[sample("croupier_websockets_open")] == 1
    metered.advance(10.5)  # every table's betting window closes, half a second late by the table's clock
    after = scrape(metered)
    bets = dict(route="/api/tables/{table_id}/bets", method="POST", status="200")
    assert after[sample("croupier_http_answer_seconds_count", **bets)] == 1
    assert after[sample("croupier_http_answer_seconds_bucket", **bets, le="+Inf")] == 1
    assert after[sample("croupier_http_answer_seconds_count", route="/api/login", method="POST", status="200")] == 1
    view = dict(route="/api/tables/{table_id}", method="GET", status="404")
    assert after[sample("croupier_http_answer_seconds_count", **view)] == 1  # the template, not the path
    assert after[sample("croupier_http_answer_seconds_count", route="other", method="GET", status="404")] == 1
    assert not any("999999" in key or "no/such" in key for key in after)
    assert after[sample("croupier_websockets_open")] == 0
    closed = after[sample("croupier_betting_window_late_seconds_count")]
    assert closed >= 1  # table 1's window at least (the others' too)
    assert after[sample("croupier_betting_window_late_seconds_sum")] == pytest.approx(0.5 * closed)
    text = metered.client.get("/api/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert "ana" not in text  # no account, no amount


def test_serve_refuses_a_short_metrics_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from croupier import cli

    monkeypatch.setattr(uvicorn.Server, "run", lambda *_args, **_kwargs: None)
    args = ["serve", "--database", f"sqlite:///{tmp_path}/c.db"]
    for token in ("short", "a token with a space at its end ", "ein Schlüssel für die Metriken"):
        refused = CliRunner().invoke(cli.app, args, env={"CROUPIER_METRICS_TOKEN": token})
        assert refused.exit_code != 0 and "--metrics-token: at least 16 printable ASCII" in refused.output
        assert "Traceback" not in refused.output
    taken = CliRunner().invoke(cli.app, args, env={"CROUPIER_METRICS_TOKEN": TOKEN})
    assert taken.exit_code == 0, taken.output


# draining at a signal -----------------------------------------------------------------------------


def test_a_signal_makes_the_process_unready_and_it_serves_on_for_the_drain(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal

    import uvicorn

    from croupier.server.guard import draining_server

    monkeypatch.setattr(routes_health, "FRESH_SECONDS", 3600.0)
    assert sqlite_server.client.get("/api/ready").status_code == 200  # a finding kept: not for a stopping process
    service = sqlite_server.service
    server = draining_server(uvicorn.Config(app=None), service, 0.5)
    server.handle_exit(signal.SIGTERM, None)
    assert service.stopping and not server.should_exit  # it serves on, and says it is going
    going = sqlite_server.client.get("/api/ready")
    assert going.status_code == 503 and going.json()["checks"] == {"service": "stopping"}
    assert sqlite_server.client.get("/api/tables").status_code == 200  # every request as before
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not server.should_exit:
        time.sleep(0.02)
    assert server.should_exit  # then uvicorn's own shutdown
    service.stopping = False

    again = draining_server(uvicorn.Config(app=None), service, 60)
    again.handle_exit(signal.SIGTERM, None)
    assert not again.should_exit
    again.handle_exit(signal.SIGTERM, None)  # a second signal: at once
    assert again.should_exit
    service.stopping = False

    at_once = draining_server(uvicorn.Config(app=None), service, 0)
    at_once.handle_exit(signal.SIGTERM, None)
    assert at_once.should_exit  # no drain: as uvicorn alone


def test_serve_refuses_a_drain_out_of_bounds(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from croupier import cli

    monkeypatch.setattr(uvicorn.Server, "run", lambda *_args, **_kwargs: None)
    args = ["serve", "--database", f"sqlite:///{tmp_path}/c.db", "--drain-seconds"]
    for seconds in ("-1", "301"):
        refused = CliRunner().invoke(cli.app, [*args, seconds])
        assert refused.exit_code != 0 and "--drain-seconds: from 0 to 300" in refused.output
    assert CliRunner().invoke(cli.app, [*args, "15"]).exit_code == 0


def test_a_fault_in_the_checks_is_a_finding_and_its_end_is_logged(
    sqlite_server: Server, fresh: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_self: Readiness) -> str:
        raise RuntimeError("a fault of the checks' own")

    with caplog.at_level(logging.WARNING, "croupier.server"):
        with monkeypatch.context() as patched:
            patched.setattr(Readiness, "_leases", broken)
            faulty = sqlite_server.client.get("/api/ready")
        back = sqlite_server.client.get("/api/ready")
    assert faulty.status_code == 503  # never a 500
    assert faulty.json()["checks"]["checks"] == "the checks failed (RuntimeError)"
    assert back.status_code == 200, back.text
    said = [r.getMessage() for r in caplog.records]
    assert any("not ready: checks" in m and "a fault of the checks' own" in m for m in said)
    assert any("ready again: checks" in m for m in said)  # the finding no longer made: its failure is over
