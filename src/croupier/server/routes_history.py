"""History and fairness documents: a player's rounds, one round, its transcript, a shoe (``history.py``)."""

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.server import history
from croupier.server.auth import Identity
from croupier.server.deps import MAX_ID, RoundId, ShoeId, read_session
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


def history_router(service: "Service") -> APIRouter:
    router = APIRouter(prefix="/api")
    Me = Annotated[Identity, Depends(signed_in(service))]
    ReadDb = Annotated[AsyncSession, Depends(read_session(service))]

    @router.get("/history", tags=["history"])
    async def my_history(
        identity: Me,
        session: ReadDb,
        limit: Annotated[int, Query(ge=1, le=100)] = 10,
        before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Rounds older than this one")] = None,
    ) -> list[dict[str, Any]]:
        return await history.player_history(session, identity.id, limit, before)

    @router.get("/rounds/{round_id}", tags=["history"])
    async def one_round(round_id: RoundId, identity: Me, session: ReadDb) -> dict[str, Any]:
        return await history.round_document(session, round_id, identity.id, identity.role)

    @router.get("/rounds/{round_id}/transcript", tags=["history"])
    async def round_transcript(round_id: RoundId, identity: Me, session: ReadDb) -> dict[str, Any]:
        return await history.transcript(session, round_id, identity.id, identity.role)

    @router.get("/shoes/{shoe_id}", tags=["fairness"])
    async def shoe(shoe_id: ShoeId, session: ReadDb) -> dict[str, Any]:
        return await history.shoe_document(session, shoe_id)

    return router
