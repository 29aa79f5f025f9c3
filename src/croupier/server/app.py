"""The ASGI application: REST for everything but the live view, a WebSocket per table viewer.

``create_app(settings)`` builds it; ``croupier serve`` runs it with uvicorn. Every answer to a bad
request is a 4xx with ``{"error": "…"}`` naming the rule or the field; an unexpected fault is a 500
with no traceback in it. The protocol is documented in ``docs/protocol.md``.

``create_app`` only assembles: the work is in the :class:`~croupier.server.service.Service` and the
routers (``routes_*.py``), one per group of routes.
"""

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from croupier import __version__
from croupier.errors import CroupierError
from croupier.server import codes, history
from croupier.server.auth import AuthError
from croupier.server.clock import Clock, SystemClock
from croupier.server.commands import Refused
from croupier.server.guard import RequestGuard
from croupier.server.heap import Heap
from croupier.server.routes_accounts import accounts_router
from croupier.server.routes_cashier import cashier_router
from croupier.server.routes_dealer import dealer_router
from croupier.server.routes_health import health_router
from croupier.server.routes_history import history_router
from croupier.server.routes_live import live_router
from croupier.server.routes_pit import pit_router
from croupier.server.routes_play import play_router
from croupier.server.routes_tables import tables_router
from croupier.server.service import Service, Settings

__all__ = ["GuardedApp", "Service", "Settings", "create_app"]

log = logging.getLogger("croupier.server")


class GuardedApp(FastAPI):
    """The app with :class:`~croupier.server.guard.RequestGuard` outside every other layer: a body's size
    and read time are checked first, and every answer, a 500 too, carries the security headers."""

    guard: dict[str, Any] = {}  # noqa: RUF012  (set by create_app before the first request)

    def build_middleware_stack(self) -> ASGIApp:
        return RequestGuard(super().build_middleware_stack(), **self.guard)


def install_handlers(app: FastAPI) -> None:
    """Every error answers ``{"error": …}`` with its status and stable code (``codes.py``)."""

    @app.exception_handler(Refused)
    async def refused(_request: Request, error: Refused) -> JSONResponse:
        headers = getattr(error, "headers", None)  # a throttled sign-in's Retry-After
        return JSONResponse(codes.body(str(error), error.code, error.params), status_code=error.status, headers=headers)

    @app.exception_handler(AuthError)
    async def auth_error(_request: Request, error: AuthError) -> JSONResponse:
        status = 403 if "may not" in str(error) or "only" in str(error) else 401
        return JSONResponse(codes.body(str(error)), status_code=status)

    @app.exception_handler(history.HistoryError)
    async def history_error(_request: Request, error: history.HistoryError) -> JSONResponse:
        return JSONResponse(codes.body(str(error)), status_code=error.status)

    @app.exception_handler(CroupierError)
    async def croupier_error(_request: Request, error: CroupierError) -> JSONResponse:
        return JSONResponse(codes.body(str(error)), status_code=409)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        # the framework's own refusals (an unknown path, a wrong method, a body that is not UTF-8) in the
        # same shape as every other error
        reason = error.detail if isinstance(error.detail, str) else "request refused"
        return JSONResponse({"error": reason}, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        for problem in error.errors():
            where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
            parts.append(f"{where}: {problem.get('msg', 'invalid')}")
        fields = ", ".join(".".join(str(p) for p in e.get("loc", ()) if p != "body") for e in error.errors())
        answer = codes.body("; ".join(parts) or "invalid request", "request.invalid", {"fields": fields})
        return JSONResponse(answer, status_code=422)

    @app.exception_handler(Exception)
    async def fault(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected fault", exc_info=error)
        return JSONResponse(codes.body("internal error; nothing was changed", "internal"), status_code=500)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    service = Service(settings or Settings(), clock or SystemClock())

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        heap = Heap(service.settings.full_collection_seconds, service.metrics.pauses)
        await service.start()
        try:
            if service.settings.settle_heap:
                heap.start()
            yield
        finally:
            try:
                await heap.stop()
            finally:
                await service.stop()

    app = GuardedApp(
        title="croupier",
        version=__version__,
        description="Live tables for Macau blackjack, live-online blackjack and Macau baccarat.",
        lifespan=lifespan,
        docs_url=None,  # the interactive pages load their scripts from the internet; the document stays
        redoc_url=None,
    )
    app.state.service = service
    app.guard = {
        "max_body_bytes": service.settings.max_body_bytes,
        "body_seconds": service.settings.body_seconds,
        "metrics": service.metrics,
    }
    install_handlers(app)
    for router in (
        accounts_router,  # open, sign in and out, password, disable (supervisor), /api/me
        cashier_router,  # deposits, withdrawals, the player search, the ledger's check
        tables_router,  # a supervisor opens, changes and closes tables
        pit_router,  # the supervisor's pit view of every table
        play_router,  # the lobby, a table's view, bets, decisions, seats, the cut, matching
        dealer_router,  # cards, void, misdeal, a live shoe's life and the dealer's errors
        history_router,  # history, rounds, transcripts, shoes
        live_router,  # the WebSocket live view
        health_router,  # whether the process is alive, and ready (the load balancer's probes)
    ):
        app.include_router(router(service))
    web = Path(__file__).with_name("web")
    if (web / "index.html").is_file():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
