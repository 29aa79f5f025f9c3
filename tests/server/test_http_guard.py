"""HTTP hardening against a real ``croupier serve``: a body's size limit and
read time, the headers' read time, the security headers, and WebSockets refused with their close codes.

The server runs with one-second read times, so that a half-sent request is seen dropped quickly; the
bounds below (a few seconds) only keep a broken server from hanging the test."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from benchmarks.crash import ServerProcess, free_port

from croupier.server.guard import CONTENT_SECURITY_POLICY

LIMIT = 4096


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("guard")
    options = ("--max-body-bytes", str(LIMIT), "--body-seconds", "1", "--header-seconds", "1")
    server = ServerProcess(directory / "croupier.db", free_port(), directory / "server.log", 5, 5, options)
    server.start()
    try:
        yield server
    finally:
        server.stop()
    log = (directory / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


def raw(server: ServerProcess, data: bytes, wait: float = 8.0) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it (or ``wait`` passes)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as connection:
        connection.sendall(data)
        answer = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                return answer
            answer += chunk
        raise AssertionError(f"the server kept the connection open: {answer[:300]!r}")


def test_a_body_over_the_limit_is_a_413_unread(served: ServerProcess) -> None:
    with httpx.Client(base_url=served.base, timeout=10) as http:
        big = json.dumps({"name": "ana", "password": "x" * (LIMIT + 10)})
        answer = http.post("/api/login", content=big, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413, answer.text
        assert answer.json() == {"error": f"request body: more than {LIMIT} bytes; a request here is smaller"}

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(10):
                yield b" " * 1000

        answer = http.post("/api/login", content=chunks(), headers={"Content-Type": "application/json"})
        assert answer.status_code == 413 and "error" in answer.json(), answer.text
        assert http.post("/api/login", json={"name": "ana", "password": "demo"}).status_code == 200
    # a Content-Length of 200 MB is refused before a byte of the body is sent
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n"
    assert raw(served, head).startswith(b"HTTP/1.1 413")
    odd = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: \xd9\xa1\xd9\xa0\r\n\r\n"
    assert raw(served, odd).split(b" ")[1] in (b"400", b"413")


def test_a_half_sent_body_is_dropped(served: ServerProcess) -> None:
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    answer = raw(served, head + b'{"name": ')
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"not received within 1 s" in answer


def test_half_sent_headers_are_dropped(served: ServerProcess) -> None:
    assert raw(served, b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-") == b""
    assert raw(served, b"") == b""  # a connection that sends nothing at all
    assert raw(served, b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 20000) == b""  # over 16 KiB
    # a kept-alive connection: an answered request, then the next one's headers half-sent
    answer = raw(served, b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\nGET /api/tab")
    assert answer.startswith(b"HTTP/1.1 200") and answer.count(b"HTTP/1.1") == 1


def test_every_answer_carries_the_security_headers(served: ServerProcess) -> None:
    with httpx.Client(base_url=served.base, timeout=10) as http:
        signed = http.post("/api/login", json={"name": "ana", "password": "demo"})
        token = signed.json()["token"]
        answers = {
            "page": http.get("/"),
            "script": http.get("/js/app.js"),
            "lobby": http.get("/api/tables"),
            "sign-in": signed,
            "me": http.get("/api/me", headers={"Authorization": f"Bearer {token}"}),
            "refused": http.post("/api/login", json={"name": "ana", "password": "wrong"}),
            "missing": http.get("/api/nowhere"),
            "too large": http.post("/api/login", content=b"x" * (LIMIT + 1)),
        }
    for what, answer in answers.items():
        assert answer.headers.get("content-security-policy") == CONTENT_SECURITY_POLICY, what
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers.get("x-content-type-options") == "nosniff", what
        assert answer.headers.get("referrer-policy") == "no-referrer", what
        assert answer.headers.get("x-frame-options") == "DENY", what
        timing = answer.headers.get("server-timing", "")
        assert timing.startswith("app;dur=") and float(timing.split("=", 1)[1]) >= 0, (what, timing)
    for what in ("lobby", "sign-in", "me", "refused", "missing", "too large"):
        assert answers[what].headers.get("cache-control") == "no-store", what


def test_a_refused_websocket_gets_its_close_code(served: ServerProcess) -> None:
    """docs/protocol.md: 4401 for an unknown token, 4404 for no such table; never an HTTP 403 handshake."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async def close_code(path: str) -> tuple[int | None, str | None]:
        async with connect(served.base.replace("http", "ws") + path, open_timeout=10) as socket_:
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket_.recv(), 10)
            assert socket_.close_code is not None
            return socket_.close_code, socket_.close_reason

    code, reason = asyncio.run(close_code("/ws/tables/1?token=nonsense"))
    assert code == 4401 and reason is not None and reason.startswith("unknown or revoked token")
    code, reason = asyncio.run(close_code("/ws/tables/999"))
    assert code == 4404 and reason == "table 999: no such table"
    code, _reason = asyncio.run(close_code(f"/ws/tables/{2**63}"))
    assert code == 4404


def test_a_table_socket_is_not_compressed(served: ServerProcess) -> None:
    """A table's event is made once for all its viewers (hub.py); a socket with per-message compression
    would deflate it again for each of them. The server declines the extension a client offers."""
    from websockets.asyncio.client import connect

    async def extensions() -> tuple[list[object], str | None]:
        async with connect(served.base.replace("http", "ws") + "/ws/tables/1", open_timeout=10) as socket_:
            assert json.loads(await asyncio.wait_for(socket_.recv(), 10))["type"] == "snapshot"
            assert socket_.response is not None
            return list(socket_.protocol.extensions), socket_.response.headers.get("Sec-WebSocket-Extensions")

    found, header = asyncio.run(extensions())  # the client offers permessage-deflate, websockets' default
    assert found == [] and header is None


def test_the_served_pages_need_nothing_inline() -> None:
    """The Content-Security-Policy allows no inline script or style: the pages have none."""
    web = Path(__file__).resolve().parents[2] / "src" / "croupier" / "server" / "web"
    for page in web.rglob("*.html"):
        text = page.read_text()
        assert "<style" not in text and " style=" not in text, page
        for tag in text.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], page
        assert " onclick=" not in text and " onload=" not in text, page
