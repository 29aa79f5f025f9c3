"""HTTP hardening: a request body's size and read time, the headers' read time, and security headers.

* :class:`RequestGuard` (ASGI middleware, every HTTP request):
  - a body larger than ``max_body_bytes`` is answered ``413 {"error": ...}`` and never kept: at once
    when its ``Content-Length`` says so, else as soon as the bytes received pass the limit (a chunked
    body). Up to 1 MiB of it is read and dropped first, so that the client can read the answer; a
    larger one is not read at all. A ``Content-Length`` that is not a number of ASCII digits is a ``400``;
  - a body not received in full within ``body_seconds`` of the request's start is answered
    ``408 {"error": ...}`` and the connection closes (a client that half-sends its body holds nothing);
  - every answer carries the security headers (:func:`security_headers`): a Content-Security-Policy of
    the server's own origin only, ``frame-ancestors 'none'``, ``X-Content-Type-Options: nosniff``, a
    ``Referrer-Policy``, and ``Cache-Control: no-store`` on every ``/api/`` answer (tokens, balances,
    history: nothing of an account's is kept by a browser or a proxy), and a ``Server-Timing: app;dur=…``
    header: the milliseconds from the request's reaching the application to its answer (a load test
    reads it to tell the server's time from its own clients' and the network's);
  - the request's database writes are ones someone waits on (``db.answered()``): on SQLite they pass the
    write gate before the settlements and records that no one waits on, as a table's bets do.
* :func:`guarded_protocol` (uvicorn's HTTP protocol, for ``croupier serve``): a connection whose request
  headers are not complete within ``header_seconds`` of their first byte (or of the connection's
  opening), or pass ``max_header_bytes``, is closed. uvicorn itself bounds only the idle time between
  two requests of a kept-alive connection (``timeout_keep_alive``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.server.db import answered

if TYPE_CHECKING:
    from croupier.server.metrics import Metrics

log = logging.getLogger("croupier.server")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The pages load every script, style sheet and image from the server itself (web/), and open WebSockets
to it (``connect-src 'self'`` covers ws: and wss: of the same host); no inline script, no inline style
sheet, never framed. Only a ``style`` attribute is allowed (the chip stacks place their chips with one:
web/js/svg.js); a style attribute runs no script."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
NO_STORE = (b"cache-control", b"no-store")
DRAIN_BYTES = 1024 * 1024
"""A refused body up to this size is read and dropped before the answer (see :func:`_drain`); a larger one
is not read at all: the answer is sent and the connection closed."""


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer to ``path`` carries; an API answer is never stored (``no-store``)."""
    headers = list(SECURITY_HEADERS)
    if path.startswith("/api/") or path == "/openapi.json":
        headers.append(NO_STORE)
    return headers


class BodyRefused(HTTPException):
    """A request body the guard refuses: too large, too slow, or of a length that is not a number. An
    HTTP exception, so that the framework answers it as any other (``{"error": ...}``); the connection
    closes after the answer, so that the rest of the body is never read."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message, headers={"Connection": "close"})


class RequestGuard:
    """The ASGI middleware; see the module's docstring."""

    def __init__(
        self, app: ASGIApp, *, max_body_bytes: int, body_seconds: float, metrics: Metrics | None = None
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_seconds = body_seconds
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        extra = security_headers(str(scope.get("path", "")))
        loop = asyncio.get_running_loop()
        began = loop.time()

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                # how long the server took, from the request's first byte of the app to its answer (W3C
                # Server-Timing): what a load test tells apart from its own clients' delays
                seconds = loop.time() - began
                took = f"app;dur={seconds * 1000:.1f}".encode()
                if self.metrics is not None:
                    self.metrics.answered(scope, int(message["status"]), seconds)
                headers = [*message.get("headers", []), *(h for h in extra if h[0] not in names)]
                message["headers"] = [*headers, (b"server-timing", took)]
            await send(message)

        try:
            length = _content_length(scope)
        except BodyRefused as refused:
            await _refuse(send_guarded, refused)
            return
        # the event loop's time, not the server's Clock: a bound on a connection's transport, not on the game
        deadline = loop.time() + self.body_seconds
        if length is not None and length > self.max_body_bytes:
            if length <= DRAIN_BYTES:  # a little over: read and dropped, so that the client reads the answer
                await _drain(receive, deadline, DRAIN_BYTES)
            await _refuse(send_guarded, self._too_large())
            return
        received = 0
        body_done = False

        async def receive_guarded() -> Message:
            nonlocal received, body_done
            if body_done:  # after the body: only a disconnect is awaited, for as long as the answer takes
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyRefused(
                    408, f"request body: not received within {self.body_seconds:g} s; send it at once"
                ) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    if message.get("more_body", False):
                        await _drain(receive, deadline, DRAIN_BYTES)
                    body_done = True
                    raise self._too_large()
                body_done = not message.get("more_body", False)
            else:
                body_done = True
            return message

        try:
            with answered():  # someone waits on this request: on SQLite its writes go before the chores
                await self.app(scope, receive_guarded, send_guarded)
        except BodyRefused as refused:
            if started:  # the answer had begun: nothing more can be said; the connection closes
                raise
            await _refuse(send_guarded, refused)

    def _too_large(self) -> BodyRefused:
        return BodyRefused(413, f"request body: more than {self.max_body_bytes} bytes; a request here is smaller")


async def _drain(receive: Receive, deadline: float, most: int) -> None:
    """Read and drop the rest of a refused body, at most ``most`` bytes and until ``deadline``: a server that
    closes a connection with unread bytes in it resets it, and the client may lose the answer with them."""
    dropped = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(deadline):
            while dropped <= most:
                message = await receive()
                if message["type"] != "http.request":
                    return
                dropped += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 18:
                raise BodyRefused(400, f"Content-Length: {text[:20]!r} is not a number of bytes")
            return int(text)
    return None


async def _refuse(send: Send, refused: BodyRefused) -> None:
    body = json.dumps({"error": refused.detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refused.status_code,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# --------------------------------------------------------------------------------------------------
# the headers' read time, in uvicorn's protocol


def guarded_protocol(base: type[Any], header_seconds: float, max_header_bytes: int) -> type[Any]:
    """``base`` (uvicorn's H11Protocol or HttpToolsProtocol) closing a connection whose request headers are
    not complete within ``header_seconds`` of their first byte (of the connection's opening, for the first
    request), or that sends more than ``max_header_bytes`` before they are."""

    class HeaderTimeout(base):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._header_since: float | None = self.loop.time()
            self._header_bytes = 0
            self._header_timer: asyncio.TimerHandle | None = None
            self._arm()

        def _between_requests(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            self._header_timer = self.loop.call_later(min(1.0, header_seconds), self._check)

        def _check(self) -> None:
            self._header_timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or upgraded: a WebSocket's protocol has the connection now
            if not self._between_requests():  # the headers came: the request is the app's (RequestGuard)
                self._header_since = None
                self._header_bytes = 0
            elif self._header_since is not None and self.loop.time() - self._header_since >= header_seconds:
                self.transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._between_requests() and self._header_since is None:
                self._header_since = self.loop.time()  # the first byte of a request's headers
            super().data_received(data)
            if not self._between_requests():  # the headers are complete (this data may hold body bytes too)
                self._header_since = None
                self._header_bytes = 0
                return
            self._header_bytes += len(data)
            if self._header_bytes > max_header_bytes and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            super().connection_lost(exc)

    HeaderTimeout.__name__ = f"HeaderTimeout{base.__name__}"
    return HeaderTimeout


def uvicorn_options(header_seconds: float, max_header_bytes: int) -> dict[str, Any]:
    """The options ``croupier serve`` runs uvicorn with: the guarded protocol of the HTTP implementation
    uvicorn would choose, a short keep-alive, h11's own bound on an incomplete event, and WebSockets
    without per-message compression: a table's event is made once for all its viewers (hub.py), and a
    compressed socket would deflate it again for each of them (the most CPU a table's watchers cost)."""
    base: type[Any]
    try:
        import httptools  # noqa: F401  (uvicorn's choice when it is installed)
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol

        base = H11Protocol
    return {
        "http": guarded_protocol(base, header_seconds, max_header_bytes),
        "timeout_keep_alive": 5,
        "h11_max_incomplete_event_size": max_header_bytes,
        "ws_per_message_deflate": False,
    }


class Stoppable(Protocol):
    stopping: bool


def draining_server(config: Any, service: Stoppable, seconds: float) -> Any:
    """uvicorn's server for ``config``, whose first SIGTERM (or Ctrl-C) marks ``service`` as stopping, so
    that its readiness answers 503 (routes_health), and goes on serving ``seconds`` more, every request
    and socket as before, while the load balancer sees it and sends its traffic elsewhere; then it shuts
    down as uvicorn does (its port closed first, the open requests finished, the application stopped). A
    second signal meanwhile shuts down at once. ``seconds`` 0: at the first signal, as uvicorn alone."""
    import uvicorn

    class Draining(uvicorn.Server):
        draining = False

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if seconds <= 0 or self.draining:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            service.stopping = True
            log.warning("signal %s: not ready from now; stopping in %g s (again to stop at once)", sig, seconds)
            later = threading.Timer(seconds, uvicorn.Server.handle_exit, (self, sig, frame))
            later.daemon = True
            later.start()

    return Draining(config)
