"""Several ``croupier serve`` processes on one PostgreSQL database and one Redis: each
table runs in one process at a time; a request or a viewer at any process reaches every table; a
process that dies loses its tables to another, which voids the round it left and returns the bets."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from croupier.server.app import Settings, create_app
from croupier.server.clock import ManualClock
from tests.server.conftest import Server, database_url

REDIS = os.environ.get("CROUPIER_TEST_REDIS", "redis://127.0.0.1:6379/0")
KEY = "a test deployment's shared key"


def redis_available() -> bool:
    async def probe() -> bool:
        import redis.asyncio as redis

        client = redis.from_url(REDIS, socket_connect_timeout=2)
        try:
            await client.ping()
        except (OSError, redis.RedisError):
            return False
        finally:
            await client.aclose()
        return True

    return asyncio.run(probe())


@pytest.fixture
def shared(tmp_path: Any, postgres: bool) -> Iterator[tuple[str, str]]:
    if not redis_available():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required under CI=true and does not answer at {REDIS}")
        pytest.skip(f"Redis does not answer at {REDIS} (it is required under CI=true)")
    for url in database_url("postgresql", tmp_path, postgres):
        yield url, f"croupier-test-{uuid.uuid4().hex[:8]}"


def process(url: str, prefix: str, lease: float = 10.0, redis: str = REDIS) -> tuple[TestClient, Server]:
    clock = ManualClock()
    settings = Settings(
        database=url,
        redis=redis,
        redis_prefix=prefix,
        redis_key=KEY,
        betting_seconds=10,
        decision_seconds=10,
        seed="tests",
        lease_seconds=lease,
        stagger=False,
    )
    app = create_app(settings, clock=clock)
    client = TestClient(app)
    client.__enter__()
    return client, Server(client, clock, app.state.service)


def test_a_table_runs_in_one_process_and_answers_at_every_one(shared: tuple[str, str]) -> None:
    url, prefix = shared
    first_client, first = process(url, prefix)
    second_client, second = process(url, prefix)
    try:
        first.quiet()
        assert set(first.service.actors) == {1, 2, 3, 4} and second.service.actors == {}
        lobby = second.client.get("/api/tables").json()
        assert {t["phase"] for t in lobby} == {"elsewhere"}
        ana = second.login("ana")
        ben = first.login("ben")
        token = ben["Authorization"].split()[1]
        with second.client.websocket_connect(f"/ws/tables/2?token={token}") as socket:
            snapshot = socket.receive_json()
            assert snapshot["type"] == "snapshot" and snapshot["snapshot"]["phase"] == "betting"
            placed = second.bet(ana, 2, "1", "10")  # through the second process to the first
            assert placed.status_code == 200, placed.text
            assert placed.json()["balance"] == "990.00"
            for _ in range(20):
                message = socket.receive_json()
                if message.get("event", {}).get("type") == "bet":
                    assert message["event"]["player"] == "ana"
                    break
            else:
                raise AssertionError("the viewer at the second process never saw the bet")
        refused = second.bet(ana, 2, "1", "3")
        assert refused.status_code == 409 and "minimum" in refused.json()["error"]
        view = second.view(2, ana)
        assert view["round"]["boxes"][0]["bets"] == {"ana": "10"}
        first.advance(10)
        first.play_out(2, {"ana": ana})
        history = second.client.get("/api/history", headers=ana).json()
        assert history[0]["status"] == "settled"
        assert second.balance(ana) == history[0]["balance_after"]
    finally:
        second_client.__exit__(None, None, None)
        first_client.__exit__(None, None, None)


def test_a_dead_process_loses_its_tables(shared: tuple[str, str]) -> None:
    url, prefix = shared
    first_client, first = process(url, prefix, lease=1.0)
    first.quiet()
    ana = first.login("ana")
    assert first.bet(ana, 2, "1", "40").status_code == 200
    # the first process dies: its tables stop, its leases are not released
    first.client.portal.call(first.service._leases.cancel) if first.service._leases else None
    for actor in list(first.service.actors.values()):
        first.client.portal.call(actor.stop)
    first.service.actors.clear()
    second_client, second = process(url, prefix, lease=1.0)
    try:
        import time

        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and 2 not in second.service.actors:
            time.sleep(0.2)
        assert 2 in second.service.actors, "the second process did not take the table over"
        second.quiet()
        ana = second.login("ana")
        assert second.balance(ana) == "1000.00"  # the round was voided and the bet returned
        history = second.client.get("/api/history", headers=ana).json()
        assert history[0]["status"] == "voided"
        assert second.ledger()["entries_sum"] == 0
    finally:
        second_client.__exit__(None, None, None)
        first.service.settings.run_tables = False
        first_client.__exit__(None, None, None)


def _owner_and_other(a: Server, b: Server, table: int) -> tuple[Server, Server]:
    if table in a.service.actors:
        return a, b
    assert table in b.service.actors, f"no process runs table {table}"
    return b, a


def test_a_player_whose_socket_is_on_another_process_gets_their_actions(shared: tuple[str, str]) -> None:
    url, prefix = shared
    first_client, first = process(url, prefix)
    second_client, second = process(url, prefix)
    try:
        first.quiet()
        owner, other = _owner_and_other(first, second, 2)
        ana = other.login("ana")
        token = ana["Authorization"].split()[1]
        with (
            other.client.websocket_connect(f"/ws/tables/2?token={token}") as socket,
            other.client.websocket_connect("/ws/tables/2") as anonymous,
        ):
            assert socket.receive_json()["type"] == "snapshot"
            assert anonymous.receive_json()["type"] == "snapshot"
            assert other.bet(ana, 2, "1", "10").status_code == 200
            owner.advance(10)  # no more bets: the cards are dealt, and ana decides
            for _ in range(60):
                message = socket.receive_json()
                assert "actions" not in message, "a socket sent every player's legal actions"
                event = message.get("event", {})
                if event.get("type") == "bet":
                    assert message["your_actions"] == []  # blackjack: no decision while betting
                if event.get("type") == "await" and event.get("player") == "ana":
                    assert {"hit", "stand"} <= {a["type"] for a in message["your_actions"]}, message
                    break
            else:
                raise AssertionError("ana's socket on the other process never got her decision's actions")
            while True:  # a viewer who is not signed in is sent the same events, with no one's actions
                message = anonymous.receive_json()
                assert "actions" not in message and "your_actions" not in message
                if message.get("event", {}).get("type") == "await":
                    break
        owner.play_out(2, {"ana": ana})
    finally:
        second_client.__exit__(None, None, None)
        first_client.__exit__(None, None, None)


def test_the_tables_are_spread_over_the_processes_that_are_up(shared: tuple[str, str]) -> None:
    url, prefix = shared
    first_client, first = process(url, prefix)
    first.quiet()
    assert set(first.service.actors) == {1, 2, 3, 4}  # alone, it runs every table
    second_client, second = process(url, prefix)
    try:
        assert second.service.actors == {}  # every table is leased: none is taken from its process
        first.client.portal.call(first.service.lease_round)  # two processes up: two tables each
        assert {t for t, a in first.service.actors.items() if a.handing_off} == {3, 4}
        first.advance(10)  # the betting windows end (no bets): tables 3 and 4 stop between rounds
        first.client.portal.call(first.service.lease_round)  # and are released
        second.client.portal.call(second.service.lease_round)
        assert set(first.service.actors) == {1, 2}
        assert set(second.service.actors) == {3, 4}
        second.quiet()
        assert {second.view(t)["phase"] for t in (3, 4)} == {"betting"}
        ana = first.login("ana")
        placed = first.bet(ana, 4, "banker", "10")  # baccarat, through the first process to the second
        assert placed.status_code == 200, placed.text
        for _ in range(10):
            second.advance(30)
        assert first.client.get("/api/history", headers=ana).json()[0]["status"] == "settled"
    finally:
        second_client.__exit__(None, None, None)  # the second process stops: its tables are free at once
    try:
        first.client.portal.call(first.service.lease_round)
        assert set(first.service.actors) == {1, 2, 3, 4}
        first.quiet()
        assert first.ledger()["entries_sum"] == 0
    finally:
        first_client.__exit__(None, None, None)
