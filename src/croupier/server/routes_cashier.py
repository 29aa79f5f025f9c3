"""The cashier's routes: deposits and withdrawals (the money moves in :mod:`croupier.server.cashier`, one
unit of work each), the player search and the ledger's check."""

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.server import cashier, ledger
from croupier.server.auth import AuthError, Identity
from croupier.server.deps import Key, read_session
from croupier.server.inputs import Amount
from croupier.server.models import Account, Wallet
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


class MoneyBody(BaseModel):
    account: str = Field(min_length=1, max_length=64)
    amount: Amount


def cashier_router(service: "Service") -> APIRouter:
    router = APIRouter(tags=["cashier"])
    Me = Annotated[Identity, Depends(signed_in(service))]
    ReadDb = Annotated[AsyncSession, Depends(read_session(service))]

    @router.post("/api/cashier/deposits")
    async def deposit(body: MoneyBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        return await cashier.move_money(service, "deposit", body.account, body.amount, identity, idempotency_key)

    @router.post("/api/cashier/withdrawals")
    async def withdraw(body: MoneyBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        return await cashier.move_money(service, "withdrawal", body.account, body.amount, identity, idempotency_key)

    @router.get("/api/cashier/accounts")
    async def cashier_accounts(
        identity: Me,
        session: ReadDb,
        name: Annotated[str, Query(max_length=64, description="The start of a player's name")] = "",
    ) -> list[dict[str, Any]]:
        """Players whose name starts with ``name`` (at most 20), with their balances: the cashier's search."""
        if identity.role not in ("cashier", "supervisor"):
            raise AuthError("only a cashier or supervisor may look up players' balances")
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

    @router.get("/api/ledger")
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

    return router
