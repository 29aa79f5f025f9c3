"""Whether a process is alive and whether it is ready for its share of the load, for the operator's load
balancer, and its figures for monitoring. The probes are open (no account: a probe holds no token), cheap,
and never a way to load the database.

* ``GET /api/health``: the process answers (its event loop runs). No database, no Redis: a process whose
  database is away is alive, and restarting it would not bring the database back.
* ``GET /api/ready``: 200 when the process can do its work, else 503, each answer with every check's
  finding. The checks: ``database`` (one ``SELECT 1`` through the requests' reading pool, within
  :data:`CHECK_SECONDS`), ``redis`` (only with Redis: the listener subscribed to the deployment's channels,
  and a ``PING`` answered within :data:`CHECK_SECONDS`), ``leases`` (only for a process that runs tables:
  its last lease round that committed began less than two thirds of a lease ago (:data:`LEASE_LATE`),
  before its leases lapse and the other processes take its tables over), ``service`` (started, not
  stopping). One check runs at a time however many probes ask (a probe waits for it at most
  :data:`ANSWER_SECONDS`), and its finding answers every probe for :data:`FRESH_SECONDS`: a flood of probes
  makes at most one database statement a second. What failed is logged once when it begins and once when
  it ends (not at every probe). On PostgreSQL the ``SELECT 1`` waits for a connection of the requests'
  pool like any request: a process whose 20 connections are all lent for 2 s is reported not ready (under
  the 1,000-player benchmark none was); a load balancer's threshold of a few failed probes in a row tells
  a saturated moment from a process that is down.
* ``GET /api/metrics``: the process's figures for monitoring (croupier.server.metrics), for the
  deployment's metrics token only.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from croupier import __version__
from croupier.server.commands import Refused
from croupier.server.metrics import CONTENT_TYPE

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from croupier.server.service import Service

log = logging.getLogger("croupier.server")

CHECK_SECONDS = 2.0
"""How long the database and Redis (checked at the same time) have to answer a readiness check."""
ANSWER_SECONDS = CHECK_SECONDS + 0.5
"""The most a probe waits for the check: a check that has not ended by then (a connection that hangs even
as it is given up) is a 503 that says so, and the next probes wait for the same check."""
LEASE_LATE = 2 / 3
"""The part of a lease after which leases not renewed make a process unready: they are renewed every third
of a lease, so two renewals have been missed, before the lease lapses and the other processes take over."""
FRESH_SECONDS = 1.0
"""How long a readiness finding answers the probes that come after it."""
OK = "ok"


class NotTheToken(Refused):
    """A scrape without the metrics token: a 401 that names the scheme (``WWW-Authenticate: Bearer``)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message, status)
        self.headers = {"WWW-Authenticate": "Bearer"}


class Readiness:
    """The readiness checks of one process, made once for every probe that asks meanwhile."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._finding: tuple[float, dict[str, str]] | None = None
        self._checking: asyncio.Task[dict[str, str]] | None = None
        self._failing: dict[str, str] = {}

    async def checks(self) -> dict[str, str]:
        """Each check's finding: ``"ok"``, or what is wrong. A probe that goes away does not stop the check
        that the others wait for. A process that has begun to stop says so at once (no finding kept)."""
        if self.service.stopping:
            return {"service": "stopping"}
        now = self.service.lease_clock.monotonic()
        if self._finding is not None and now - self._finding[0] < FRESH_SECONDS:
            return self._finding[1]
        if self._checking is None or self._checking.done():
            self._checking = asyncio.create_task(self._check())
        try:
            return await asyncio.wait_for(asyncio.shield(self._checking), ANSWER_SECONDS)
        except TimeoutError:
            return {"checks": f"not ended within {ANSWER_SECONDS:g} s (a connection that does not let go)"}

    async def _check(self) -> dict[str, str]:
        service = self.service
        found: dict[str, str] = {}
        causes: dict[str, str] = {}
        try:
            found["service"] = "stopping" if service.stopping else OK if service.started else "starting"
            asked = {"database": _within(self._database(), "the database")}
            if service.hub.redis_url is not None and service.hub.listening:
                asked["redis"] = _within(service.hub.ping(), "Redis")
            elif service.hub.redis_url is not None:
                found["redis"] = "not subscribed to the deployment's channels (reconnecting)"
            for name, (finding, cause) in zip(asked, await asyncio.gather(*asked.values()), strict=True):
                found[name], causes[name] = finding, cause
            if service.settings.run_tables:
                found["leases"] = self._leases()
        except Exception as error:  # never a probe's 500: the fault is the finding
            found["checks"] = f"the checks failed ({type(error).__name__})"
            causes["checks"] = str(error)
        self._log(found, causes)
        self._finding = (service.lease_clock.monotonic(), found)
        return found

    async def _database(self) -> None:
        async with self.service.reader() as session:
            await session.execute(text("SELECT 1"))

    def _leases(self) -> str:
        service = self.service
        lease = service.settings.lease_seconds
        if service.leased_at is None:
            return "no lease round has committed yet"
        since = service.lease_clock.monotonic() - service.leased_at
        if since > lease * LEASE_LATE:
            return f"not renewed for {since:.1f} s (a lease lasts {lease:g} s: then the others take its tables)"
        return OK

    def _log(self, found: dict[str, str], causes: dict[str, str]) -> None:
        for name in {**found, **self._failing}:  # a failing check no longer made (``checks``) is over too
            finding, was = found.get(name, OK), self._failing.get(name)
            if finding != OK and was is None:
                cause = causes.get(name)
                log.warning("not ready: %s: %s%s", name, finding, f": {cause}" if cause else "")
                self._failing[name] = finding
            elif finding == OK and was is not None:
                log.warning("ready again: %s (was: %s)", name, was)
                del self._failing[name]


async def _within(check: Awaitable[None], what: str) -> tuple[str, str]:
    """``"ok"`` when ``check`` ends within :data:`CHECK_SECONDS`, else what happened, and the error's own
    text for the log (the answer names only the error's kind: it is open, and a driver's message may name
    hosts and users)."""
    bound = asyncio.timeout(CHECK_SECONDS)
    try:
        async with bound:
            await check
    except TimeoutError as error:
        if bound.expired():
            return f"{what} did not answer within {CHECK_SECONDS:g} s", ""
        return f"{what} failed ({type(error).__name__})", str(error) or "a timeout of its own"
    except Exception as error:
        return f"{what} failed ({type(error).__name__})", str(error)
    return OK, ""


def health_router(service: Service) -> APIRouter:
    router = APIRouter(prefix="/api", tags=["operations"])
    readiness = Readiness(service)

    @router.get("/health")
    async def health() -> dict[str, Any]:
        """The process answers: its event loop runs. Nothing else is checked (``/api/ready`` does)."""
        return {"status": "alive", "version": __version__}

    @router.get("/ready", responses={503: {"description": "Not ready: each check's finding"}})
    async def ready() -> JSONResponse:
        """200 when the process can take its share of the load, else 503; each check's finding either way."""
        checks = await readiness.checks()
        body: dict[str, Any] = {
            "ready": all(finding == OK for finding in checks.values()),
            "checks": checks,
            "tables": len(service.actors),
            "version": __version__,
        }
        if not body["ready"]:
            wrong = "; ".join(f"{name}: {finding}" for name, finding in checks.items() if finding != OK)
            body = {"error": f"not ready: {wrong}", **body}
        return JSONResponse(body, status_code=200 if body["ready"] else 503)

    @router.get(
        "/metrics",
        response_class=Response,
        responses={
            200: {"content": {CONTENT_TYPE.split(";")[0]: {}}, "description": "Prometheus's text format"},
            401: {"description": "Not the metrics token"},
            404: {"description": "No metrics token is set: the route is off"},
        },
    )
    async def metrics(authorization: Annotated[str | None, Header()] = None) -> Response:
        """The process's figures in Prometheus's text format (croupier.server.metrics), for the deployment's
        metrics token (``Authorization: Bearer TOKEN``); off (404) when the process has none."""
        expected = service.settings.metrics_token
        if not expected:
            raise Refused("metrics are off: start the server with CROUPIER_METRICS_TOKEN set", 404)
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(given.strip().encode(), expected.encode()):
            raise NotTheToken("metrics: send the deployment's metrics token (Authorization: Bearer TOKEN)", 401)
        return Response(service.metrics.text(), media_type=CONTENT_TYPE)

    return router
