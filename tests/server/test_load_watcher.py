"""The load benchmark's watcher (``benchmarks/load.py``), a WebSocket client read frame by frame so that
its own CPU does not set the delivery figures: what it reads must be what the server sent. Checked
against a real server's socket (the handshake, the events as they come) and against frames cut at every
byte (the lengths' three forms, a fragmented message, a ping it must answer, a close)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
from typing import Any

from benchmarks.crash import ServerProcess, free_port
from benchmarks.load import WEBSOCKET_GUID, Watcher


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.sent = bytearray()
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def _frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    head = bytes([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        return head + bytes([len(payload)]) + payload
    if len(payload) < 1 << 16:
        return head + bytes([126]) + len(payload).to_bytes(2, "big") + payload
    return head + bytes([127]) + len(payload).to_bytes(8, "big") + payload


def _unmask(frame: bytes) -> tuple[int, bytes]:
    assert frame[1] & 0x80  # a client's frames are masked (RFC 6455 5.3)
    length, mask = frame[1] & 0x7F, frame[2:6]
    return frame[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(frame[6 : 6 + length]))


def test_the_watcher_reads_every_frame_whatever_the_cuts() -> None:
    async def run() -> tuple[dict[bytes, list[float]], str | None, list[tuple[int, bytes]]]:
        arrivals: dict[bytes, list[float]] = {}
        measuring = asyncio.Event()
        measuring.set()
        watcher = Watcher("127.0.0.1:1", "/ws/tables/1", arrivals, measuring)
        transport = _Transport()
        watcher.connection_made(transport)
        request = bytes(transport.sent)
        key = request.split(b"Sec-WebSocket-Key: ")[1].split(b"\r\n")[0]
        accept = base64.b64encode(hashlib.sha1(key + WEBSOCKET_GUID.encode()).digest())
        transport.sent.clear()
        short, middle, long = b'{"n":1}', json.dumps({"n": 2, "pad": "x" * 300}).encode(), b"y" * 70_000
        stream = (
            b"HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: "
            + accept
            + b"\r\n\r\n"
            + _frame(1, short)
            + _frame(9, b"ping")
            + _frame(1, middle[:100], fin=False)
            + _frame(0, middle[100:])
            + _frame(1, long)
            + _frame(2, os.urandom(10))  # not text: not an event
            + _frame(8, (1000).to_bytes(2, "big") + b"bye")
        )
        for byte in range(len(stream)):  # the worst cut: a byte at a time
            watcher.data_received(stream[byte : byte + 1])
        pongs = [_unmask(bytes(transport.sent))]
        return arrivals, await watcher.ended, pongs

    arrivals, ended, pongs = asyncio.run(run())
    assert list(arrivals) == [b'{"n":1}', json.dumps({"n": 2, "pad": "x" * 300}).encode(), b"y" * 70_000]
    assert [len(times) for times in arrivals.values()] == [1, 1, 1]
    assert pongs == [(10, b"ping")]
    assert ended is not None and ended.startswith("the server closed the socket: 03e8 bye")


def test_the_watcher_sees_a_real_servers_events(tmp_path: Any) -> None:
    port = free_port()
    server = ServerProcess(tmp_path / "watch.db", port, tmp_path / "server.log", 5, 5)
    server.start()
    try:

        async def run() -> tuple[Any, str | None]:
            arrivals: dict[bytes, list[float]] = {}
            measuring = asyncio.Event()
            measuring.set()
            loop = asyncio.get_running_loop()
            _transport, watcher = await loop.create_connection(
                lambda: Watcher(f"127.0.0.1:{port}", "/ws/tables/1", arrivals, measuring), "127.0.0.1", port
            )
            await asyncio.wait_for(watcher.opened, 30)
            for _ in range(300):  # the snapshot first, then whatever the table does
                if arrivals:
                    break
                await asyncio.sleep(0.05)
            watcher.close()
            return [json.loads(raw) for raw in arrivals], await watcher.ended

        messages, ended = asyncio.run(run())
    finally:
        server.stop()
    assert messages and messages[0]["type"] == "snapshot"
    assert ended is None  # closed by the watcher, not the server
