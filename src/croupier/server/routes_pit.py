"""The supervisor's pit view: every table at once, its round, its players, its hold, its faults and its
surveillance (the live house edges and the bets placed while a spot favoured the player).

Each table's part is its staff snapshot (from the process that runs it, as any snapshot); the hold is
read from the settlements: the house's net over the table's rounds settled since midnight (UTC).
"""

from datetime import datetime, time
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends
from sqlalchemy import func, select

from croupier.server import ledger
from croupier.server.auth import AuthError, Identity
from croupier.server.commands import Refused
from croupier.server.drivers import game_of
from croupier.server.models import GameTable, RoundRecord, Settlement
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


def pit_router(service: "Service") -> APIRouter:
    router = APIRouter(prefix="/api/pit", tags=["running the tables"])

    @router.get("")
    async def pit(identity: Annotated[Identity, Depends(signed_in(service))]) -> list[dict[str, Any]]:
        """Every table for the pit boss: phase, round, seats, bets, hold today, faults, live edges, alerts."""
        if identity.role != "supervisor":
            raise AuthError(f"only a supervisor may see the pit; {identity.name} is a {identity.role}")
        midnight = datetime.combine(service.clock.now().date(), time(), tzinfo=service.clock.now().tzinfo)
        async with service.reader() as session:
            rows = (await session.scalars(select(GameTable).order_by(GameTable.id))).all()
            holds = dict(
                (
                    await session.execute(
                        select(RoundRecord.table_id, func.sum(Settlement.staked - Settlement.returned))
                        .join(Settlement, Settlement.round_id == RoundRecord.id)
                        .where(RoundRecord.ended_at >= midnight)
                        .group_by(RoundRecord.table_id)
                    )
                ).all()
            )
            rounds = dict(
                (
                    await session.execute(
                        select(RoundRecord.table_id, func.count(RoundRecord.id))
                        .where(RoundRecord.ended_at >= midnight, RoundRecord.status == "settled")
                        .group_by(RoundRecord.table_id)
                    )
                ).all()
            )
        result = []
        for row in rows:
            entry: dict[str, Any] = {
                "id": row.id,
                "name": row.name,
                "game": row.game,
                "preset": row.preset,
                "status": row.status,
                "hold_today": ledger.money_text(int(holds.get(row.id) or 0)),
                "rounds_today": int(rounds.get(row.id) or 0),
            }
            try:
                snapshot = await service.snapshot(row.id, None, staff=True)
            except Refused as refused:  # not running anywhere now: the pit says why
                entry.update(phase="not running", reason=str(refused))
                result.append(entry)
                continue
            round_ = snapshot.get("round") or {}
            entry.update(
                phase=snapshot.get("phase"),
                round=round_.get("number"),
                shoe=(snapshot.get("shoe") or {}).get("id"),
                seats=snapshot.get("seats", {}),
                bets=game_of(row.game).bets_by_spot(round_),
                faults=snapshot.get("faults", []),
                alerts=snapshot.get("alerts", []),
            )
            if "house_edge" in round_:
                entry["house_edge"] = round_["house_edge"]
            result.append(entry)
        return result

    return router
