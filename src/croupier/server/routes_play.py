"""Play at a table: the lobby, a table's view, bets, decisions, seats, the cut and matching (Art. 13).
Each route is one command to the table's actor (``Service.submit``), which verifies it and moves its
money in one unit of work (``stakes.py``)."""

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError
from croupier.server import ledger, tables_admin
from croupier.server.actor import TableActor
from croupier.server.auth import Identity, identify
from croupier.server.commands import Command
from croupier.server.deps import STAFF, Key, TableId, read_session
from croupier.server.drivers import game_of, table_rules
from croupier.server.inputs import Amount, StrictBool, StrictInt
from croupier.server.models import GameTable
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


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


def game_lobby(actor: TableActor | None, round_: dict[str, Any]) -> dict[str, Any]:
    """What the table's game adds to its lobby entry (baccarat: the shoe's roads and how often each side
    won or paired so far)."""
    if actor is None or actor.rules is None:
        return {}
    return actor.driver.lobby(round_)


def stopped_entry(row: GameTable, reason: str) -> dict[str, Any]:
    """The lobby's entry for a table whose rules cannot be set up."""
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


def lobby_entry(row: GameTable, actor: TableActor | None) -> dict[str, Any]:
    """One table in the lobby: its rules, limits, phase and seats."""
    try:
        rules = table_rules(row)
    except (CroupierError, ValueError) as error:  # a table whose rules cannot be set up is stopped
        return stopped_entry(row, str(error))
    snapshot = actor.snapshot() if actor else {}
    round_ = snapshot.get("round") or {}
    seats = [box.get("box") for box in round_.get("boxes", [])]
    return {
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
        "boxes": game_of(row.game).boxes(rules),
        "boxes_taken": seats,
        "phase": "closed"
        if row.status == "closed"
        else snapshot.get("phase", "elsewhere" if row.owner else "starting"),
        "seats": snapshot.get("seats", {}),
        **tables_admin.lobby_fields(row),
        **game_lobby(actor, round_),
    }


def play_router(service: "Service") -> APIRouter:
    router = APIRouter()
    Me = Annotated[Identity, Depends(signed_in(service))]
    ReadDb = Annotated[AsyncSession, Depends(read_session(service))]

    @router.get("/api/tables", tags=["tables"])
    async def lobby(session: ReadDb) -> list[dict[str, Any]]:
        rows = (await session.scalars(select(GameTable).order_by(GameTable.id))).all()
        return [lobby_entry(row, service.actors.get(row.id)) for row in rows]

    @router.get("/api/tables/{table_id}", tags=["tables"])
    async def table_view(table_id: TableId, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        viewer: Identity | None = None
        if authorization and authorization.lower().startswith("bearer "):
            async with service.reader() as session:
                viewer = await identify(session, authorization[7:].strip(), service.clock.now())
        if viewer is None:
            return await service.snapshot(table_id, None)
        return await service.snapshot(table_id, viewer.name, staff=viewer.role in STAFF)

    @router.post("/api/tables/{table_id}/bets", tags=["play"])
    async def place_bet(table_id: TableId, body: BetBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        command = Command("bet", identity, body.model_dump(), idempotency_key)
        return await service.submit(table_id, command)

    @router.post("/api/tables/{table_id}/actions", tags=["play"])
    async def act(table_id: TableId, body: ActionBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        payload = body.model_dump(exclude_none=True)
        return await service.submit(table_id, Command("act", identity, payload, idempotency_key))

    @router.post("/api/tables/{table_id}/seats", tags=["play"])
    async def sit(table_id: TableId, body: SeatBody, identity: Me) -> dict[str, Any]:
        """Take a seat: one per player (Art. 2.3); the occupant handles the box's cards (Art. 13)."""
        return await service.submit(table_id, Command("sit", identity, body.model_dump()))

    @router.delete("/api/tables/{table_id}/seats/{box}", tags=["play"])
    async def leave(table_id: TableId, box: Annotated[int, PathParam(ge=1, le=7)], identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("leave", identity, {"box": box}))

    @router.post("/api/tables/{table_id}/cut", tags=["fairness"])
    async def cut(table_id: TableId, body: CutBody, identity: Me) -> dict[str, Any]:
        """The first seated player cuts a new shoe: its client seed, once the commitment is out (Art. 2.1)."""
        return await service.submit(table_id, Command("cut", identity, body.model_dump()))

    @router.put("/api/tables/{table_id}/matching", tags=["play"])
    async def matching(table_id: TableId, body: MatchingBody, identity: Me) -> dict[str, Any]:
        """A bettor behind a shared box: match the decider's double or split, or not (Art. 13)."""
        return await service.submit(table_id, Command("matching", identity, body.model_dump()))

    return router
