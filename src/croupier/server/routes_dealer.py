"""The dealer's and the supervisor's commands at a table: cards at a live table, a void round, a
misdeal, and a live shoe's life and the dealer's errors (``liveshoe.py``). Each is one command to the
table's actor, which checks the role."""

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from croupier.server.auth import Identity
from croupier.server.commands import Command
from croupier.server.deps import TableId
from croupier.server.inputs import StrictInt
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


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


def dealer_router(service: "Service") -> APIRouter:
    router = APIRouter(prefix="/api/tables/{table_id}", tags=["dealer"])
    Me = Annotated[Identity, Depends(signed_in(service))]

    @router.post("/cards")
    async def supply_card(table_id: TableId, body: CardBody, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("card", identity, body.model_dump()))

    @router.post("/misdeal")
    async def misdeal(table_id: TableId, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("misdeal", identity, {}))

    @router.post("/void")
    async def void(table_id: TableId, body: VoidBody, identity: Me) -> dict[str, Any]:
        return await service.submit(table_id, Command("void", identity, body.model_dump()))

    @router.post("/shuffle")
    async def shuffle(table_id: TableId, identity: Me) -> dict[str, Any]:
        """Between rounds at a live table: the shoe ends and a new one begins (its start burns next)."""
        return await service.submit(table_id, Command("shuffle", identity, {}))

    @router.post("/end-shoe")
    async def end_shoe(table_id: TableId, identity: Me) -> dict[str, Any]:
        """The shoe ends after the round in play, or at once between rounds (online §3.2.3)."""
        return await service.submit(table_id, Command("end_shoe", identity, {}))

    @router.post("/cut-card")
    async def report_cut_card(table_id: TableId, identity: Me) -> dict[str, Any]:
        """The cut card came out (Art. 2.2; online §3.2.2; baccarat Art. 3.1)."""
        return await service.submit(table_id, Command("cut_card", identity, {}))

    @router.post("/face-up-card")
    async def face_up_card(table_id: TableId, body: CardBody, identity: Me) -> dict[str, Any]:
        """A card found face up in the shoe is void (Art. 2.1); in baccarat it stays valid (Art. 4)."""
        return await service.submit(table_id, Command("face_up_card", identity, body.model_dump()))

    @router.post("/void-card")
    async def void_card(table_id: TableId, body: VoidCardBody, identity: Me) -> dict[str, Any]:
        """A card the dealer drew by mistake is void (Art. 3.2a; a supervisor)."""
        return await service.submit(table_id, Command("void_card", identity, body.model_dump()))

    @router.post("/move-card")
    async def move_card(table_id: TableId, body: MoveCardBody, identity: Me) -> dict[str, Any]:
        """A card dealt to the wrong box goes to its box (Art. 2.1; baccarat Art. 10; a supervisor)."""
        return await service.submit(table_id, Command("move_card", identity, body.model_dump(exclude_none=True)))

    return router
