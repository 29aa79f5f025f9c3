"""The cashier's money: deposits and withdrawals, each one unit of work (the idempotency key, the
ledger's transaction and the answer commit together or not at all). The routes (``routes_cashier.py``)
read the request and call :func:`move_money`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from croupier.errors import CroupierError
from croupier.money import parse_amount
from croupier.server import idempotency, ledger
from croupier.server.auth import AuthError, Identity
from croupier.server.commands import Refused
from croupier.server.models import Account

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from croupier.server.service import Service

KINDS = ("deposit", "withdrawal")
"""The cashier's movements: into the player's wallet from the cashier's, or back."""


async def move_money(
    service: Service, kind: str, account: str, amount: str, identity: Identity, key: str | None
) -> dict[str, Any]:
    """A deposit or a withdrawal of ``amount`` (decimal text) for the player ``account``, in one database
    transaction with its idempotency key; a key sent again gets the first answer (a race on it too: the
    first answer stands). The player's sockets are told the balance after it."""
    if kind not in KINDS:
        raise ValueError(f"the cashier's movements are {', '.join(KINDS)}, not {kind!r}")
    if identity.role not in ("cashier", "supervisor"):
        raise AuthError(f"only a cashier or supervisor may make a {kind}")
    if not key:
        raise Refused(f"a {kind} needs an Idempotency-Key header", 400)
    request = {"account": account, "amount": amount}
    keyed = idempotency.Keyed(identity.id, idempotency.cashier_scope(kind), key, kind, request)
    try:
        async with service.session() as session, session.begin():
            stored = await keyed.replayed(session)
            if stored is not None:
                return stored
            player, answer = await _post(session, kind, account, amount, identity, service.clock.now())
            keyed.remember(session, answer, service.clock.now())
    except IntegrityError:  # the same key, raced: the first answer stands
        async with service.session() as again:
            stored = await keyed.replayed(again)
        if stored is None:
            raise idempotency.reused(key) from None
        return stored
    await service.hub.publish(f"account:{player.id}", {"event": {"type": "balance", "balance": answer["balance"]}})
    return answer


async def _post(
    session: AsyncSession, kind: str, name: str, text: str, identity: Identity, now: datetime
) -> tuple[Account, dict[str, Any]]:
    """The ledger's side of a deposit or withdrawal: the player's wallet against the cashier's."""
    account = await session.scalar(select(Account).where(Account.name == name))
    if account is None or account.role != "player":
        raise Refused(f"{kind}: no player account {name!r}", 404)
    try:
        amount = parse_amount(text, what=kind)
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
