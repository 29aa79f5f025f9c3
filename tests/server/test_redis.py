"""Redis between the processes: a command published on Redis is obeyed only
when signed with the deployment's key (a forged one taking money from ana is ignored); and a Redis
outage stops no table: events still reach the process's own viewers, the listener reconnects, the
viewers are told to resync, and commands between the processes work again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from croupier.server.hub import RESYNC, Hub, HubError, Recent
from tests.server.test_processes import KEY, REDIS, process, shared  # noqa: F401 (the fixture)

ONLINE = 2


# signing ------------------------------------------------------------------------------------------


def test_a_message_verifies_only_with_its_key_its_channel_and_once() -> None:
    hub = Hub("redis://127.0.0.1:1/0", "p", KEY)
    wire = hub._wire("p:cmd:2", {"kind": "bet"})
    assert hub._open("p:cmd:2", wire) is not None
    assert hub._open("p:cmd:2", wire) is None  # replayed
    assert hub._open("p:cmd:3", hub._wire("p:cmd:2", {"kind": "bet"})) is None  # moved to another table
    other = Hub("redis://127.0.0.1:1/0", "p", "another deployment's key")
    assert hub._open("p:cmd:2", other._wire("p:cmd:2", {"kind": "bet"})) is None  # another key
    tampered = json.loads(hub._wire("p:cmd:2", {"kind": "bet", "amount": "1"}))
    tampered["body"] = tampered["body"].replace('"1"', '"9"')
    assert hub._open("p:cmd:2", json.dumps(tampered)) is None
    assert hub._open("p:cmd:2", json.dumps({"kind": "bet"})) is None  # unsigned
    stale = json.loads(hub._wire("p:cmd:2", {"kind": "bet"}))
    body = json.loads(stale["body"])
    body["at"] -= 120
    stale["body"] = json.dumps(body)
    stale["sig"] = hub._sign("p:cmd:2", stale["body"])
    assert hub._open("p:cmd:2", json.dumps(stale)) is None  # too old, though signed
    assert hub.counts["refused"] == 6


def test_an_event_no_one_here_watches_is_not_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every process hears every channel: one whose events reach no socket of this process is let go before
    its signature is checked and its JSON parsed (under the 1,000-player load 3 % of a process's CPU went
    to other processes' events, and its own, that no one here watched)."""
    hub = Hub("redis://127.0.0.1:1/0", "p", KEY)
    sender = Hub("redis://127.0.0.1:1/0", "p", KEY)
    opened: list[str] = []
    real = hub._open

    def counted(channel: str, data: bytes | str) -> tuple[str, dict[str, Any]] | None:
        opened.append(channel)
        return real(channel, data)

    monkeypatch.setattr(hub, "_open", counted)

    async def run() -> list[Any]:
        watched = hub.subscribe("table:1")
        event = {"table": 1, "seq": 1, "event": {"type": "card"}}
        for channel in ("table:1", "table:2", f"reply:{sender.process}"):
            hub._received(f"p:{channel}".encode(), sender._wire(f"p:{channel}", {**event, "id": "x"}))
        await asyncio.sleep(0)
        got = [delivery.message for delivery in [watched.queue.get_nowait()] if delivery is not None]
        assert watched.queue.empty()
        for channel in ("resync", "cmd:2"):  # (the resync ends the subscription: its viewer resyncs)
            hub._received(f"p:{channel}".encode(), sender._wire(f"p:{channel}", {"id": "y"}))
        assert watched.dropped
        watched.close()
        unwatched = sender._wire("p:table:1", {**event, "seq": 2})
        hub._received(b"p:table:1", unwatched)  # no one watches it now
        again = hub.subscribe("table:1")
        hub._received(b"p:table:1", unwatched)  # the same bytes once someone does: a replay
        await asyncio.sleep(0)
        assert again.queue.empty()
        return got

    got = asyncio.run(run())
    assert [message["event"] for message in got] == [{"type": "card"}]
    assert opened == ["p:table:1", "p:resync", "p:cmd:2"]  # not table 2, not another process's reply
    assert hub.counts["unwatched"] == 2 and hub.counts["refused"] == 1


def test_the_nonces_seen_are_kept_for_their_span_and_no_longer() -> None:
    """A nonce is refused again for as long as its message may be accepted (up to MAX_AGE early or late),
    and the memory holds what came in the last two spans only, each key at the same cost: the map it
    replaces was scanned whole at every message once more than 50,000 came within 30 s."""
    recent: Recent[str] = Recent(60.0)
    assert not recent.seen("a", 1000.0)
    assert recent.seen("a", 1059.9)  # within its span
    for second in range(120_000):  # 1,000 a second for two minutes
        recent.seen(f"n{second}", 1060.0 + second / 1000)
        assert len(recent) <= 2 * 60 * 1000 + 2
    assert recent.seen("n119999", 1180.0)
    assert "a" not in recent and "n0" not in recent  # more than two spans ago
    assert not recent.seen("a", 1180.0)


def test_redis_needs_a_key_and_a_plain_prefix() -> None:
    with pytest.raises(HubError, match="--redis needs --redis-key"):
        Hub("redis://127.0.0.1:1/0", "croupier", None)
    with pytest.raises(HubError, match="at least 16"):
        Hub("redis://127.0.0.1:1/0", "croupier", "short")
    with pytest.raises(HubError, match="--redis-prefix"):
        Hub("redis://127.0.0.1:1/0", "a:*", KEY)
    Hub(None, "croupier", None)  # one process without Redis needs no key


def test_a_forged_command_is_not_obeyed(shared: tuple[str, str]) -> None:  # noqa: F811
    url, prefix = shared
    client, first = process(url, prefix)
    try:
        first.quiet()
        ana = first.login("ana")
        ana_id = first.client.get("/api/me", headers=ana).json()["id"]
        command = {
            "reply": "nobody",
            "kind": "bet",
            "identity": {"id": ana_id, "name": "ana", "role": "player"},
            "payload": {"spot": "1", "amount": "10.00"},
        }

        async def publish_forged(signed_with: str | None) -> None:
            import redis.asyncio as redis

            raw = redis.from_url(REDIS)
            channel = f"{prefix}:cmd:{ONLINE}"
            forged = {"id": uuid.uuid4().hex, "key": uuid.uuid4().hex, **command}
            if signed_with is None:  # a forged command: no signature at all
                await raw.publish(channel, json.dumps(forged))
            else:
                await raw.publish(channel, Hub(REDIS, prefix, signed_with)._wire(channel, forged))
            await raw.aclose()

        def settle_down(refusals: int) -> None:
            deadline = time.monotonic() + 5
            while first.service.hub.counts["refused"] < refusals and time.monotonic() < deadline:
                time.sleep(0.02)
            first.quiet()

        assert first.service.actors[ONLINE].phase == "betting"
        first.client.portal.call(publish_forged, None)
        settle_down(1)
        assert first.balance(ana) == "1000.00"  # not obeyed: ana's 10.00 stays hers
        first.client.portal.call(publish_forged, "a key that is not the deployment's")
        settle_down(2)
        assert first.balance(ana) == "1000.00"
        assert first.service.hub.counts["refused"] == 2

        async def genuine() -> dict[str, Any]:
            # the same command signed with the deployment's key is obeyed: the refusals were for the signature
            hub = Hub(REDIS, prefix, KEY)
            await hub.start()
            try:
                message = {k: v for k, v in command.items() if k != "reply"}
                return await hub.request(ONLINE, {**message, "key": uuid.uuid4().hex})
            finally:
                await hub.stop()

        answer = first.client.portal.call(genuine)
        assert answer["accepted"] is True and answer["balance"] == "990.00"
        assert first.balance(ana) == "990.00"
        assert first.view(ONLINE)["round"]["boxes"][0]["bets"] == {"ana": "10"}
    finally:
        client.__exit__(None, None, None)


# an outage ----------------------------------------------------------------------------------------


class Proxy:
    """A TCP proxy in front of Redis, in a thread of its own, that a test cuts and restores: cut, it drops
    every connection and closes each new one at once (as a Redis that went away)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.up = True
        self.loop = asyncio.new_event_loop()
        self.links: set[asyncio.StreamWriter] = set()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(5)

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._link, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.links.update((writer, up_writer))

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.links.difference_update((writer, up_writer))

    def cut(self) -> None:
        def go() -> None:
            self.up = False
            for writer in list(self.links):
                writer.transport.abort()

        self.loop.call_soon_threadsafe(go)

    def restore(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "up", True)

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    host, port = REDIS.split("//", 1)[1].split("/", 1)[0].split(":")
    running = Proxy((host, int(port)))
    yield running
    running.close()


def test_a_redis_outage_stops_no_table(shared: tuple[str, str], proxy: Proxy) -> None:  # noqa: F811
    url, prefix = shared
    via = f"redis://127.0.0.1:{proxy.port}/0"
    first_client, first = process(url, prefix, redis=via)
    second_client, second = process(url, prefix, redis=via)
    try:
        first.quiet()
        assert ONLINE in first.service.actors
        ana = first.login("ana")
        token = ana["Authorization"].split()[1]
        with first.client.websocket_connect(f"/ws/tables/{ONLINE}?token={token}") as socket:
            assert socket.receive_json()["type"] == "snapshot"
            proxy.cut()  # Redis goes away
            placed = first.bet(ana, ONLINE, "1", "10")
            assert placed.status_code == 200, placed.text  # the table takes bets
            seen = [socket.receive_json()["event"]["type"] for _ in range(3)]  # seated, balance, bet
            assert "bet" in seen, seen  # and its own viewers see them
            first.advance(10)
            first.play_out(ONLINE, {"ana": ana})  # the round is dealt and settled without Redis
            history = first.client.get("/api/history", headers=ana).json()
            assert history[0]["status"] == "settled"
            assert first.service.hub.counts["unsent"] > 0

            proxy.restore()  # Redis is back
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not all(
                s.service.hub.counts["reconnects"] >= 1 for s in (first, second)
            ):
                time.sleep(0.05)
            assert first.service.hub.counts["reconnects"] >= 1 and second.service.hub.counts["reconnects"] >= 1
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):  # the viewer is told to resync: a fresh snapshot replaces what it missed
                    socket.receive_json()
            assert closed.value.code == 4408 and closed.value.reason == RESYNC
        first.quiet()
        again = second.bet(second.login("ana"), ONLINE, "1", "10")  # a command between processes again
        assert again.status_code == 200, again.text
        assert first.service.actors[ONLINE].phase == "betting"
    finally:
        second_client.__exit__(None, None, None)
        first_client.__exit__(None, None, None)


def test_a_burst_of_calls_to_redis_waits_for_a_connection_rather_than_failing(
    shared: tuple[str, str],  # noqa: F811 (the fixture: Redis answers, or the test is skipped)
) -> None:
    """More calls at once than the pool has connections (a burst of watchers opening on a process, each
    asking the table's owner for a snapshot): each waits for a free connection. redis-py's default pool
    failed the calls beyond its 100 at once ("Too many connections"), and an event that could not be sent
    then sent every viewer of every process for a fresh snapshot."""
    _url, prefix = shared

    async def burst() -> list[int | None]:
        hub = Hub(REDIS, prefix, KEY)
        await hub.start()
        try:
            return await asyncio.gather(*(hub.processes_up(10) for _ in range(300)))
        finally:
            await hub.stop()

    counts = asyncio.run(burst())
    assert all(isinstance(count, int) and count >= 1 for count in counts), [c for c in counts if c is None][:3]
