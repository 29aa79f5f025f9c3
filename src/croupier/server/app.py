"""The ASGI application: REST for everything but the live view, a WebSocket per table viewer.

``create_app(settings)`` builds it; ``croupier serve`` runs it with uvicorn. Every answer to a bad
request is a 4xx with ``{"error": "…"}`` naming the rule or the field; an unexpected fault is a 500
with no traceback in it. The protocol is documented in ``docs/protocol.md``.
"""

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from croupier import __version__
from croupier.errors import CroupierError
from croupier.money import parse_amount
from croupier.server import codes, history, ledger, tables_admin
from croupier.server.actor import TableActor, table_rules
from croupier.server.auth import AuthError, Identity, identify
from croupier.server.auth import digest as auth_digest
from croupier.server.baccarat_round import BaccaratDriver
from croupier.server.clock import Clock, SystemClock
from croupier.server.commands import Command, Refused, request_digest
from croupier.server.db import is_sqlite, make_engine, migrate, normalise_url, retrying, sessions
from croupier.server.fence import fenced_sessions
from croupier.server.guard import RequestGuard
from croupier.server.hub import Hub, RemoteError
from croupier.server.inputs import Amount, StrictBool, StrictInt
from croupier.server.models import GameTable, IdempotencyRecord
from croupier.server.routes_accounts import accounts_router
from croupier.server.routes_pit import pit_router
from croupier.server.routes_tables import tables_router

log = logging.getLogger("croupier.server")

STAFF = ("dealer", "supervisor")
"""Roles that may see a table's surveillance figures (the live house edges, where the table shows them)."""

MAX_ID = 2**62
"""The largest record number a path may name (database integers are 64-bit)."""


@dataclass
class Settings:
    database: str = "sqlite+aiosqlite:///croupier.db"
    redis: str | None = None
    demo: bool = True
    betting_seconds: float = 15.0
    decision_seconds: float = 20.0
    run_tables: bool = True
    seed: str | None = None
    """Only for tests and demonstrations: derive every shoe's server seed from this text, so that a run
    can be repeated. Never set on a real table: the seeds are then predictable."""
    lease_seconds: float = 10.0
    """How long a process holds a table without renewing; another process takes it over after that."""
    redis_prefix: str = "croupier"
    """The prefix of every Redis channel: deployments that share one Redis use different prefixes."""
    redis_key: str | None = None
    """The key every process signs its Redis messages with (HMAC-SHA256; at least 16 characters): needed
    with ``redis``, the same in every process of the deployment; a message not signed with it is ignored."""
    max_body_bytes: int = 64 * 1024
    """The largest request body taken (a JSON request here is a few hundred bytes): a larger one is a 413."""
    body_seconds: float = 10.0
    """How long a request's body may take to arrive in full: then it is a 408 and the connection closes."""
    header_seconds: float = 10.0
    """``croupier serve``: how long a request's headers may take to arrive before the connection closes."""
    max_header_bytes: int = 16 * 1024
    """``croupier serve``: the most bytes of request headers taken before the connection closes."""


@dataclass
class Service:
    settings: Settings
    clock: Clock
    engine: AsyncEngine | None = None
    sessions: async_sessionmaker[AsyncSession] | None = None
    readers: async_sessionmaker[AsyncSession] | None = None
    read_engine: AsyncEngine | None = None
    hub: Hub = field(default_factory=Hub)
    actors: dict[int, TableActor] = field(default_factory=dict)
    _leases: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def session(self) -> AsyncSession:
        """A session for work that writes."""
        assert self.sessions is not None
        return self.sessions()

    def reader(self) -> AsyncSession:
        """A session for work that only reads (on SQLite it waits for no writer)."""
        assert self.readers is not None
        return self.readers()

    async def start(self) -> None:
        # refused before anything starts: a Redis without the deployment's key, a bad channel prefix
        self.hub = Hub(self.settings.redis, self.settings.redis_prefix, self.settings.redis_key)
        self.engine = make_engine(self.settings.database)
        await migrate(self.engine)
        self.sessions = sessions(self.engine)
        if is_sqlite(normalise_url(self.settings.database)):
            self.read_engine = make_engine(self.settings.database, writes=False)
            self.readers = sessions(self.read_engine)
        else:
            self.readers = self.sessions
        self.hub.handler = self._remote_command
        await self.hub.start()
        if self.settings.demo:
            from croupier.server.demo import seed_demo

            await seed_demo(self, self.settings)
        if self.settings.run_tables:
            await self._lease_round()
            self._leases = asyncio.create_task(self._lease_loop())

    # tables are leased: each runs in one process at a time, and is taken over when its owner stops renewing
    async def _lease_loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):  # woken at once when a table's task ends (the watchdog)
                await asyncio.wait_for(self._wake.wait(), self.settings.lease_seconds / 3)
            self._wake.clear()
            try:
                await retrying(self._lease_round)
            except (OSError, SQLAlchemyError):  # the database is away for a moment: try again next time
                log.warning("lease renewal failed", exc_info=True)
            except Exception:  # a fault never stops the leases of every other table
                log.exception("lease renewal failed")

    async def _lease_round(self) -> None:
        now = datetime.now(UTC)
        until = now + timedelta(seconds=self.settings.lease_seconds)
        me = self.hub.process
        lost: list[int] = []
        won: list[GameTable] = []
        ended: list[TableActor] = []
        async with self.session() as session, session.begin():
            for table_id in sorted(self.actors):
                actor = self.actors[table_id]
                if actor.phase == "closed":  # a supervisor closed it: its actor has stopped
                    self.actors.pop(table_id)
                    continue
                if actor.lease_lost:  # its writes were fenced off: another process runs the table
                    self.actors.pop(table_id)
                    ended.append(actor)
                    continue
                if actor.task is not None and actor.task.done() and not actor.stopping:  # the watchdog: ended unasked
                    log.error("table %s: its task ended (%s); the table starts again", actor.name, _ending(actor))
                    self.actors.pop(table_id)
                    ended.append(actor)
                    await session.execute(  # released, then taken again below with a new epoch
                        update(GameTable)
                        .where(GameTable.id == table_id, GameTable.owner == me)
                        .values(owner=None, lease_until=None)
                    )
                    continue
                renewed = await session.execute(
                    update(GameTable).where(GameTable.id == table_id, GameTable.owner == me).values(lease_until=until)
                )
                if renewed.rowcount == 0:  # type: ignore[attr-defined]
                    lost.append(table_id)
            free = (
                await session.scalars(
                    select(GameTable.id)
                    .where(or_(GameTable.owner.is_(None), GameTable.lease_until < now), GameTable.status != "closed")
                    .order_by(GameTable.id)
                )
            ).all()
            for table_id in free:
                taken = await session.execute(
                    update(GameTable)
                    .where(
                        GameTable.id == table_id,
                        or_(GameTable.owner.is_(None), GameTable.lease_until < now),
                        GameTable.status != "closed",
                    )
                    .values(owner=me, lease_until=until, epoch=GameTable.epoch + 1)  # fences the last owner
                )
                if taken.rowcount == 1:  # type: ignore[attr-defined]
                    row = await session.get(GameTable, table_id)
                    assert row is not None
                    won.append(row)
        for actor in ended:
            await actor.stop()  # the commands left on its queue are refused (503)
        for table_id in lost:
            actor = self.actors.pop(table_id)
            log.warning("table %s: the lease went to another process; stopping here", actor.name)
            await actor.stop()
        for row in won:
            self.start_table(row)

    async def _release(self) -> None:
        if self.sessions is None:
            return
        async with self.session() as session, session.begin():
            await session.execute(
                update(GameTable).where(GameTable.owner == self.hub.process).values(owner=None, lease_until=None)
            )

    async def _remote_command(self, table_id: int, message: dict[str, Any]) -> dict[str, Any] | None:
        """A command another process forwards for a table this process runs."""
        actor = self.actors.get(table_id)
        if actor is None:
            return None
        try:
            if message.get("kind") == "snapshot":
                return {"answer": actor.snapshot(message.get("viewer"), staff=bool(message.get("staff")))}
            who = message["identity"]
            command = Command(
                str(message["kind"]),
                Identity(int(who["id"]), str(who["name"]), str(who["role"])),
                dict(message.get("payload", {})),
                message.get("key"),
            )
            return {"answer": await actor.submit(command)}
        except Refused as refused:
            return {**codes.body(str(refused), refused.code, refused.params), "status": refused.status}
        except CroupierError as error:
            return {**codes.body(str(error)), "status": 409}

    async def submit(self, table_id: int, command: Command) -> dict[str, Any]:
        """Run ``command`` at its table, in this process or in the one that runs the table."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.lease_lost:
            return await actor.submit(command)
        await self._known_table(table_id)
        message = {
            "kind": command.kind,
            "identity": {"id": command.identity.id, "name": command.identity.name, "role": command.identity.role},
            "payload": command.payload,
            "key": command.key,
        }
        try:
            return await self.hub.request(table_id, message)
        except RemoteError as error:
            raise Refused(str(error), error.status, error.code, error.params) from None

    async def snapshot(self, table_id: int, viewer: str | None, staff: bool = False) -> dict[str, Any]:
        """What ``viewer`` sees of the table (``staff``: a dealer or supervisor, who may see surveillance)."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.lease_lost:
            return actor.snapshot(viewer, staff=staff)
        await self._known_table(table_id)
        try:
            return await self.hub.request(table_id, {"kind": "snapshot", "viewer": viewer, "staff": staff})
        except RemoteError as error:
            raise Refused(str(error), error.status, error.code, error.params) from None

    async def _known_table(self, table_id: int) -> None:
        async with self.reader() as session:
            if await session.get(GameTable, table_id) is None:
                raise Refused(f"table {table_id}: no such table", 404)

    def start_table(self, row: GameTable) -> TableActor:
        assert self.sessions is not None
        seeds = None
        if self.settings.seed is not None:
            text = self.settings.seed
            seeds = lambda shoe: hashlib.sha256(f"{text}:{shoe}".encode()).digest()  # noqa: E731
        assert self.engine is not None
        # every write of the actor carries the lease's epoch: refused once another process took the table
        writes = fenced_sessions(self.engine, row.id, row.epoch)
        actor = TableActor(row, writes, self.hub, self.clock, seeds, self.readers)
        self.actors[row.id] = actor
        actor.start()
        if actor.task is not None:
            actor.task.add_done_callback(lambda _task: self._ended(actor))
        return actor

    def _ended(self, actor: TableActor) -> None:
        """A table's task ended: unasked (not closed, not stopped), the watchdog looks at once."""
        if actor.phase != "closed" and not actor.stopping:
            self._wake.set()

    async def stop(self) -> None:
        if self._leases is not None:
            self._leases.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._leases
        for actor in self.actors.values():
            await actor.stop()
        with contextlib.suppress(OSError, SQLAlchemyError):
            await self._release()
        await self.hub.stop()
        if self.engine is not None:
            await self.engine.dispose()
        if self.read_engine is not None:
            await self.read_engine.dispose()


def _ending(actor: TableActor) -> str:
    """How a table's task ended, for the log."""
    task = actor.task
    if task is None:
        return "it never started"
    if task.cancelled():
        return "cancelled"
    error = task.exception()
    return "returned" if error is None else f"{type(error).__name__}: {error}"


# --------------------------------------------------------------------------------------------------
# request bodies


class BetBody(BaseModel):
    spot: str = Field(min_length=1, max_length=24, description="A box number (blackjack) or a baccarat spot")
    amount: Amount
    match: StrictBool = Field(
        default=True,
        description="Blackjack, a bet on another's box: whether to match the decider's double or split (Art. 13)",
    )
    seat: StrictInt | None = Field(
        default=None, ge=1, le=7, description="Baccarat: the seat whose spot the bet is placed at (Art. 15)"
    )


class SeatBody(BaseModel):
    box: StrictInt = Field(ge=1, le=7, description="The box (baccarat: the seat) to sit at")


class CutBody(BaseModel):
    client_seed: str = Field(min_length=1, max_length=64, description="The shoe's client seed (the cut, Art. 2.1)")


class MatchingBody(BaseModel):
    box: StrictInt = Field(ge=1, le=7)
    match: StrictBool = Field(description="Whether to match the decider's double or split on this box (Art. 13)")


class ActionBody(BaseModel):
    type: str = Field(
        min_length=1,
        max_length=16,
        description="hit, stand, double, split, surrender, insurance, even_money, no_insurance; baccarat: turn",
    )
    box: StrictInt | None = Field(default=None, ge=0, le=7, description="The box (blackjack)")
    hand: StrictInt | None = Field(default=None, ge=0, le=7)
    amount: Amount | None = None
    side: str | None = Field(default=None, max_length=8, description="turn: the side whose squeezed cards to turn")


class CardBody(BaseModel):
    card: str = Field(min_length=2, max_length=3)


class VoidBody(BaseModel):
    reason: str = Field(default="", max_length=200)


class VoidCardBody(CardBody):
    reason: str = Field(default="", max_length=200)


class MoveCardBody(CardBody):
    box: StrictInt | None = Field(
        default=None, ge=0, le=7, description="Blackjack: the box it belongs to (0: the dealer)"
    )
    hand: StrictInt = Field(default=0, ge=0, le=7)
    side: str | None = Field(default=None, max_length=8, description="Baccarat: player or banker")


class MoneyBody(BaseModel):
    account: str = Field(min_length=1, max_length=64)
    amount: Amount


# --------------------------------------------------------------------------------------------------
# the app


class GuardedApp(FastAPI):
    """The app with :class:`~croupier.server.guard.RequestGuard` outside every other layer: a body's size
    and read time are checked first, and every answer, a 500 too, carries the security headers."""

    guard: dict[str, Any] = {}  # noqa: RUF012  (set by create_app before the first request)

    def build_middleware_stack(self) -> ASGIApp:
        return RequestGuard(super().build_middleware_stack(), **self.guard)


async def refuse_socket(websocket: WebSocket, code: int, reason: str) -> None:
    """Refuse a WebSocket with one of the documented close codes (4401, 4404, …) and the reason: it is
    accepted first, then closed, since a close before the handshake reaches the client as a bare HTTP 403
    with neither. A close frame's reason holds at most 123 bytes: a longer one is cut at a character."""
    await websocket.accept()
    await websocket.close(code=code, reason=reason.encode()[:123].decode(errors="ignore"))


def baccarat_lobby(actor: TableActor | None, round_: dict[str, Any]) -> dict[str, Any]:
    """A baccarat table's shoe so far, for the lobby: the roads and how often each side won or paired."""
    if actor is None or not isinstance(actor.driver, BaccaratDriver):
        return {}
    return {"shoe_stats": actor.driver.stats(), "roads": round_.get("roads")}


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    service = Service(settings or Settings(), clock or SystemClock())

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
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
    app.guard = {"max_body_bytes": service.settings.max_body_bytes, "body_seconds": service.settings.body_seconds}

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

    async def db() -> AsyncIterator[AsyncSession]:
        async with service.session() as session:
            yield session

    async def read_db() -> AsyncIterator[AsyncSession]:
        async with service.reader() as session:
            yield session

    async def who(authorization: Annotated[str | None, Header()] = None) -> Identity:
        # a session of its own, closed at once: a request that then waits on a table holds no database lock
        if not authorization or not authorization.lower().startswith("bearer "):
            raise AuthError("sign in first: send Authorization: Bearer TOKEN")
        async with service.reader() as session:
            return await identify(session, authorization[7:].strip())

    Me = Annotated[Identity, Depends(who)]
    TableId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A table's number")]
    RoundId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A round's number")]
    ShoeId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A shoe's number")]
    Db = Annotated[AsyncSession, Depends(db)]
    ReadDb = Annotated[AsyncSession, Depends(read_db)]
    Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]

    # accounts ------------------------------------------------------------------------------------
    app.include_router(accounts_router(service))  # open, sign in and out, password, disable (supervisor)

    @app.get("/api/me", tags=["accounts"])
    async def me(identity: Me, session: ReadDb) -> dict[str, Any]:
        balance = await ledger.balance(session, identity.id) if identity.role == "player" else None
        return {
            "id": identity.id,
            "name": identity.name,
            "role": identity.role,
            "balance": None if balance is None else ledger.money_text(balance),
        }

    # cashier -------------------------------------------------------------------------------------
    async def cashier_move(
        kind: str, body: MoneyBody, identity: Identity, key: str | None, session: AsyncSession
    ) -> dict[str, Any]:
        if identity.role not in ("cashier", "supervisor"):
            raise AuthError(f"only a cashier or supervisor may make a {kind}")
        if not key:
            raise Refused(f"a {kind} needs an Idempotency-Key header", 400)
        payload = body.model_dump()
        digest = request_digest(kind, payload)
        scope = f"cashier:{kind}"  # a key is the cashier's, per operation: never a table's bet or decision
        try:
            async with session.begin():
                stored = await session.scalar(
                    select(IdempotencyRecord).where(
                        IdempotencyRecord.account_id == identity.id,
                        IdempotencyRecord.scope == scope,
                        IdempotencyRecord.key == key,
                    )
                )
                if stored is not None:
                    if stored.request_digest != digest:
                        raise Refused(f"Idempotency-Key {key!r} was used for a different request; use a new key", 422)
                    return dict(stored.response)
                from croupier.server.models import Account

                account = await session.scalar(select(Account).where(Account.name == body.account))
                if account is None or account.role != "player":
                    raise Refused(f"{kind}: no player account {body.account!r}", 404)
                try:
                    amount = parse_amount(body.amount, what=kind)
                except CroupierError as error:
                    raise Refused(str(error), 422) from None
                if amount <= 0:
                    raise Refused(f"{kind}: the amount must be positive", 422)
                cents = ledger.to_minor(amount, kind)
                wallet = await ledger.player_wallet(session, account.id)
                cashier = await ledger.system_wallet(session, "cashier")
                sign = 1 if kind == "deposit" else -1
                _tx, after = await ledger.post(
                    session,
                    kind,
                    [(wallet, sign * cents), (cashier, -sign * cents)],
                    memo=f"{kind} by {identity.name}",
                    who=account.name,
                )
                answer = {
                    "account": account.name,
                    kind: ledger.money_text(cents),
                    "balance": ledger.money_text(after[wallet]),
                }
                session.add(
                    IdempotencyRecord(
                        account_id=identity.id,
                        scope=scope,
                        key=key,
                        request_digest=digest,
                        status=200,
                        response=answer,
                        created_at=service.clock.now(),
                    )
                )
        except IntegrityError:  # the same key, raced: the first answer stands
            async with service.session() as again:
                stored = await again.scalar(
                    select(IdempotencyRecord).where(
                        IdempotencyRecord.account_id == identity.id,
                        IdempotencyRecord.scope == scope,
                        IdempotencyRecord.key == key,
                    )
                )
            if stored is None or stored.request_digest != digest:
                raise Refused(f"Idempotency-Key {key!r} was used for a different request; use a new key", 422) from None
            return dict(stored.response)
        await service.hub.publish(f"account:{account.id}", {"event": {"type": "balance", "balance": answer["balance"]}})
        return answer

    @app.post("/api/cashier/deposits", tags=["cashier"])
    async def deposit(body: MoneyBody, identity: Me, session: Db, idempotency_key: Key = None) -> dict[str, Any]:
        return await cashier_move("deposit", body, identity, idempotency_key, session)

    @app.post("/api/cashier/withdrawals", tags=["cashier"])
    async def withdraw(body: MoneyBody, identity: Me, session: Db, idempotency_key: Key = None) -> dict[str, Any]:
        return await cashier_move("withdrawal", body, identity, idempotency_key, session)

    @app.get("/api/cashier/accounts", tags=["cashier"])
    async def cashier_accounts(
        identity: Me,
        session: ReadDb,
        name: Annotated[str, Query(max_length=64, description="The start of a player's name")] = "",
    ) -> list[dict[str, Any]]:
        """Players whose name starts with ``name`` (at most 20), with their balances: the cashier's search."""
        if identity.role not in ("cashier", "supervisor"):
            raise AuthError("only a cashier or supervisor may look up players' balances")
        from croupier.server.models import Account, Wallet

        escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = (
            await session.execute(
                select(Account.name, Wallet.balance, Account.disabled_at)
                .join(Wallet, Wallet.account_id == Account.id)
                .where(Account.role == "player", Account.name.like(f"{escaped}%", escape="\\"))
                .order_by(Account.name)
                .limit(20)
            )
        ).all()
        return [
            {
                "account": row.name,
                "balance": ledger.money_text(int(row.balance)),
                "disabled": row.disabled_at is not None,
            }
            for row in rows
        ]

    @app.get("/api/ledger", tags=["cashier"])
    async def ledger_check(identity: Me, session: ReadDb) -> dict[str, Any]:
        """The ledger's invariants: entries and balances each sum to zero, every transaction balances."""
        if identity.role not in ("cashier", "supervisor"):
            raise AuthError("only a cashier or supervisor may read the ledger")
        entries, balances, unbalanced = await ledger.ledger_sums(session)
        return {
            "entries_sum": entries,
            "balances_sum": balances,
            "unbalanced_transactions": unbalanced,
            "wallets_match_entries": await ledger.wallets_match_entries(session),
        }

    # tables ----------------------------------------------------------------------------------------
    app.include_router(tables_router(service))  # a supervisor opens, changes and closes tables
    app.include_router(pit_router(service))  # the supervisor's pit view of every table

    @app.get("/api/tables", tags=["tables"])
    async def lobby(session: ReadDb) -> list[dict[str, Any]]:
        rows = (await session.scalars(select(GameTable).order_by(GameTable.id))).all()
        result = []
        for row in rows:
            actor = service.actors.get(row.id)
            try:
                rules = table_rules(row)
            except (CroupierError, ValueError) as error:  # a table whose rules cannot be set up is stopped
                result.append(stopped_entry(row, str(error)))
                continue
            snapshot = actor.snapshot() if actor else {}
            seats = []
            round_ = snapshot.get("round") or {}
            for box in round_.get("boxes", []):
                seats.append(box.get("box"))
            result.append(
                {
                    "id": row.id,
                    "name": row.name,
                    "game": row.game,
                    "rules": rules.preset,
                    "overrides": dict(row.overrides),
                    "parameters": rules.describe(),
                    "min_bet": ledger.money_text(row.min_bet),
                    "max_bet": ledger.money_text(row.max_bet),
                    "chip": ledger.money_text(row.chip),
                    "mode": row.mode,
                    "boxes": getattr(rules, "boxes", None),
                    "boxes_taken": seats,
                    "phase": "closed"
                    if row.status == "closed"
                    else snapshot.get("phase", "elsewhere" if row.owner else "starting"),
                    "seats": snapshot.get("seats", {}),
                    **tables_admin.lobby_fields(row),
                    **baccarat_lobby(actor, round_),
                }
            )
        return result

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table_view(table_id: TableId, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        viewer: Identity | None = None
        if authorization and authorization.lower().startswith("bearer "):
            async with service.reader() as session:
                viewer = await identify(session, authorization[7:].strip())
        if viewer is None:
            return await service.snapshot(table_id, None)
        return await service.snapshot(table_id, viewer.name, staff=viewer.role in STAFF)

    @app.post("/api/tables/{table_id}/bets", tags=["play"])
    async def place_bet(table_id: TableId, body: BetBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        command = Command("bet", identity, body.model_dump(), idempotency_key)
        return await service.submit(table_id, command)

    @app.post("/api/tables/{table_id}/actions", tags=["play"])
    async def act(table_id: TableId, body: ActionBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        payload = body.model_dump(exclude_none=True)
        return await service.submit(table_id, Command("act", identity, payload, idempotency_key))

    @app.post("/api/tables/{table_id}/seats", tags=["play"])
    async def sit(table_id: TableId, body: SeatBody, identity: Me) -> dict[str, Any]:
        """Take a seat: one per player (Art. 2.3); the occupant handles the box's cards (Art. 13)."""
        return await service.submit(table_id, Command("sit", identity, body.model_dump()))

    @app.delete("/api/tables/{table_id}/seats/{box}", tags=["play"])
    async def leave(table_id: TableId, box: Annotated[int, PathParam(ge=1, le=7)], identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("leave", identity, {"box": box}))

    @app.post("/api/tables/{table_id}/cut", tags=["fairness"])
    async def cut(table_id: TableId, body: CutBody, identity: Me) -> dict[str, Any]:
        """The first seated player cuts a new shoe: its client seed, once the commitment is out (Art. 2.1)."""
        return await service.submit(table_id, Command("cut", identity, body.model_dump()))

    @app.put("/api/tables/{table_id}/matching", tags=["play"])
    async def matching(table_id: TableId, body: MatchingBody, identity: Me) -> dict[str, Any]:
        """A bettor behind a shared box: match the decider's double or split, or not (Art. 13)."""
        return await service.submit(table_id, Command("matching", identity, body.model_dump()))

    @app.post("/api/tables/{table_id}/cards", tags=["dealer"])
    async def supply_card(table_id: TableId, body: CardBody, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("card", identity, body.model_dump()))

    @app.post("/api/tables/{table_id}/misdeal", tags=["dealer"])
    async def misdeal(table_id: TableId, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("misdeal", identity, {}))

    @app.post("/api/tables/{table_id}/void", tags=["dealer"])
    async def void(table_id: TableId, body: VoidBody, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("void", identity, body.model_dump()))

    # a live shoe's life and the dealer's errors (liveshoe.py) ----------------------------------------
    @app.post("/api/tables/{table_id}/shuffle", tags=["dealer"])
    async def shuffle(table_id: TableId, identity: Me) -> dict[str, Any]:
        """Between rounds at a live table: the shoe ends and a new one begins (its start burns next)."""
        return await service.submit(table_id, Command("shuffle", identity, {}))

    @app.post("/api/tables/{table_id}/end-shoe", tags=["dealer"])
    async def end_shoe(table_id: TableId, identity: Me) -> dict[str, Any]:
        """The shoe ends after the round in play, or at once between rounds (online §3.2.3)."""
        return await service.submit(table_id, Command("end_shoe", identity, {}))

    @app.post("/api/tables/{table_id}/cut-card", tags=["dealer"])
    async def report_cut_card(table_id: TableId, identity: Me) -> dict[str, Any]:
        """The cut card came out (Art. 2.2; online §3.2.2; baccarat Art. 3.1)."""
        return await service.submit(table_id, Command("cut_card", identity, {}))

    @app.post("/api/tables/{table_id}/face-up-card", tags=["dealer"])
    async def face_up_card(table_id: TableId, body: CardBody, identity: Me) -> dict[str, Any]:
        """A card found face up in the shoe is void (Art. 2.1); in baccarat it stays valid (Art. 4)."""
        return await service.submit(table_id, Command("face_up_card", identity, body.model_dump()))

    @app.post("/api/tables/{table_id}/void-card", tags=["dealer"])
    async def void_card(table_id: TableId, body: VoidCardBody, identity: Me) -> dict[str, Any]:
        """A card the dealer drew by mistake is void (Art. 3.2a; a supervisor)."""
        return await service.submit(table_id, Command("void_card", identity, body.model_dump()))

    @app.post("/api/tables/{table_id}/move-card", tags=["dealer"])
    async def move_card(table_id: TableId, body: MoveCardBody, identity: Me) -> dict[str, Any]:
        """A card dealt to the wrong box goes to its box (Art. 2.1; baccarat Art. 10; a supervisor)."""
        return await service.submit(table_id, Command("move_card", identity, body.model_dump(exclude_none=True)))

    # history ---------------------------------------------------------------------------------------
    @app.get("/api/history", tags=["history"])
    async def my_history(
        identity: Me,
        session: ReadDb,
        limit: Annotated[int, Query(ge=1, le=100)] = 10,
        before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Rounds older than this one")] = None,
    ) -> list[dict[str, Any]]:
        return await history.player_history(session, identity.id, limit, before)

    @app.get("/api/rounds/{round_id}", tags=["history"])
    async def one_round(round_id: RoundId, identity: Me, session: ReadDb) -> dict[str, Any]:
        return await history.round_document(session, round_id, identity.id, identity.role)

    @app.get("/api/rounds/{round_id}/transcript", tags=["history"])
    async def round_transcript(round_id: RoundId, identity: Me, session: ReadDb) -> dict[str, Any]:
        return await history.transcript(session, round_id, identity.id, identity.role)

    @app.get("/api/shoes/{shoe_id}", tags=["fairness"])
    async def shoe(shoe_id: ShoeId, session: ReadDb) -> dict[str, Any]:
        return await history.shoe_document(session, shoe_id)

    def stopped_entry(row: GameTable, reason: str) -> dict[str, Any]:
        return {
            "id": row.id,
            "name": row.name,
            "game": row.game,
            "rules": row.preset,
            "overrides": dict(row.overrides),
            "parameters": {},
            "min_bet": ledger.money_text(row.min_bet),
            "max_bet": ledger.money_text(row.max_bet),
            "chip": ledger.money_text(row.chip),
            "mode": row.mode,
            "boxes": None,
            "boxes_taken": [],
            "phase": "stopped",
            "stopped": f"its rules cannot be set up: {reason}",
        }

    # the live view ---------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def watch(websocket: WebSocket, table_id: int, token: str | None = None) -> None:
        if not 1 <= table_id <= MAX_ID:
            await refuse_socket(websocket, 4404, f"table {table_id}: no such table")
            return
        identity: Identity | None = None
        if token:
            try:
                async with service.reader() as session:
                    identity = await identify(session, token)
            except AuthError as error:
                await refuse_socket(websocket, 4401, str(error))
                return
        try:
            snapshot = await service.snapshot(
                table_id, identity.name if identity else None, staff=identity is not None and identity.role in STAFF
            )
        except Refused as refused:
            await refuse_socket(websocket, 4000 + refused.status, str(refused))
            return
        await websocket.accept()
        channels = [f"table:{table_id}"]
        if identity is not None:
            channels.append(f"account:{identity.id}")
        subscription = service.hub.subscribe(*channels)
        try:
            await websocket.send_json({"type": "snapshot", "snapshot": snapshot})
            async for message in subscription.messages():
                if "signed_out" in message:  # tokens of this account were revoked (routes_accounts)
                    if token and revoked(message["signed_out"], token):
                        await websocket.close(code=4401, reason="the token was revoked; sign in again")
                        return
                    continue
                out = {"type": "event", **message}
                actor = service.actors.get(table_id)  # the legal actions are known where the table runs
                if identity is not None and actor is not None and actor.round is not None:
                    event = message.get("event", {})
                    if event.get("type") in (
                        "await",
                        "card",
                        "card_turned",
                        "bet",
                        "hit",
                        "stand",
                        "double",
                        "split",
                        "surrender",
                    ):
                        out["your_actions"] = actor.round.legal_for(identity.name)
                await websocket.send_json(out)
            await websocket.close(code=4408, reason=subscription.reason)  # too slow, or a resync after an outage
        except WebSocketDisconnect:
            pass
        finally:
            subscription.close()

    def revoked(signed_out: dict[str, Any], token: str) -> bool:
        """Whether a ``signed_out`` message (its ``tokens``, else all but ``keep``) revoked ``token``."""
        mine = auth_digest(token)
        if signed_out.get("tokens") is not None:
            return mine in signed_out["tokens"]
        return bool(mine != signed_out.get("keep"))

    web = Path(__file__).with_name("web")
    if (web / "index.html").is_file():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
