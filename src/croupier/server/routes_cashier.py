"""The cashier: deposits and withdrawals (each one unit of work: the idempotency key, the ledger's
transaction and the answer commit together or not at all), the player search and the ledger's check."""

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError
from croupier.money import parse_amount
from croupier.server import idempotency, ledger
from croupier.server.auth import AuthError, Identity
from croupier.server.commands import Refused
from croupier.server.deps import Key, read_session
from croupier.server.inputs import Amount
from croupier.server.models import Account, Wallet
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service


class MoneyBody(BaseModel):
    account: str = Field(min_length=1, max_length=64)
    amount: Amount


async def move_money(
    service: "Service", kind: str, body: MoneyBody, identity: Identity, key: str | None
) -> dict[str, Any]:
    """A deposit or a withdrawal, in one database transaction with its idempotency key; a key sent again
    gets the first answer (a race on it too: the first answer stands)."""
    if identity.role not in ("cashier", "supervisor"):
        raise AuthError(f"only a cashier or supervisor may make a {kind}")
    if not key:
        raise Refused(f"a {kind} needs an Idempotency-Key header", 400)
    keyed = idempotency.Keyed(identity.id, idempotency.cashier_scope(kind), key, kind, body.model_dump())
    try:
        async with service.session() as session, session.begin():
            stored = await keyed.replayed(session)
            if stored is not None:
                return stored
            account, answer = await _post(session, kind, body, identity, service.clock.now())
            keyed.remember(session, answer, service.clock.now())
    except IntegrityError:  # the same key, raced: the first answer stands
        async with service.session() as again:
            stored = await keyed.replayed(again)
        if stored is None:
            raise idempotency.reused(key) from None
        return stored
    await service.hub.publish(f"account:{account.id}", {"event": {"type": "balance", "balance": answer["balance"]}})
    return answer


async def _post(
    session: AsyncSession, kind: str, body: MoneyBody, identity: Identity, now: datetime
) -> tuple[Account, dict[str, Any]]:
    """The ledger's side of a deposit or withdrawal: the player's wallet against the cashier's."""
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
        now=now,
    )
    answer = {"account": account.name, kind: ledger.money_text(cents), "balance": ledger.money_text(after[wallet])}
    return account, answer


def cashier_router(service: "Service") -> APIRouter:
    router = APIRouter(tags=["cashier"])
    Me = Annotated[Identity, Depends(signed_in(service))]
    ReadDb = Annotated[AsyncSession, Depends(read_session(service))]

    @router.post("/api/cashier/deposits")
    async def deposit(body: MoneyBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        return await move_money(service, "deposit", body, identity, idempotency_key)

    @router.post("/api/cashier/withdrawals")
    async def withdraw(body: MoneyBody, identity: Me, idempotency_key: Key = None) -> dict[str, Any]:
        return await move_money(service, "withdrawal", body, identity, idempotency_key)

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
