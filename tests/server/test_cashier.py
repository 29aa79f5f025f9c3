"""The cashier's service (croupier.server.cashier), called as the routes call it: one unit of work per
movement, a key sent again answered once, the player's sockets told the balance."""

import uuid
from typing import Any

import pytest
from sqlalchemy import func, select

from croupier.server import cashier
from croupier.server.auth import AuthError, Identity
from croupier.server.commands import Refused
from croupier.server.models import Account, LedgerTransaction
from tests.server.conftest import Server


def identity(server: Server, name: str) -> Identity:
    async def find() -> Identity:
        async with server.service.session() as session:
            account = await session.scalar(select(Account).where(Account.name == name))
            assert account is not None
            return Identity(account.id, account.name, account.role)

    return server.client.portal.call(find)


def transactions(server: Server, kind: str) -> int:
    async def count() -> int:
        async with server.service.session() as session:
            found = await session.scalar(
                select(func.count()).select_from(LedgerTransaction).where(LedgerTransaction.kind == kind)
            )
            return int(found or 0)

    return server.client.portal.call(count)


def test_a_deposit_is_one_unit_of_work_answered_once_per_key(sqlite_server: Server) -> None:
    server = sqlite_server
    cole, ana = identity(server, "cole"), identity(server, "ana")
    before = transactions(server, "deposit")
    told: list[dict[str, Any]] = []
    subscription = server.service.hub.subscribe(f"account:{ana.id}")
    key = uuid.uuid4().hex

    async def deposit() -> dict[str, Any]:
        return await cashier.move_money(server.service, "deposit", "ana", "25.50", cole, key)

    first = server.client.portal.call(deposit)
    again = server.client.portal.call(deposit)
    assert first == again == {"account": "ana", "deposit": "25.50", "balance": "1025.50"}
    assert transactions(server, "deposit") == before + 1
    while not subscription.queue.empty():
        delivery = subscription.queue.get_nowait()
        if delivery is not None:
            told.append(delivery.message)
    subscription.close()
    assert told == [{"event": {"type": "balance", "balance": "1025.50"}}]  # the replay tells nobody again
    assert server.balance(server.login("ana")) == "1025.50"


def test_the_cashiers_service_refuses_as_the_routes_did(sqlite_server: Server) -> None:
    server = sqlite_server
    cole, ana = identity(server, "cole"), identity(server, "ana")

    def move(who: Identity, kind: str, account: str, amount: str, key: str | None) -> Any:
        async def call() -> Any:
            return await cashier.move_money(server.service, kind, account, amount, who, key)

        return server.client.portal.call(call)

    with pytest.raises(AuthError, match="only a cashier or supervisor"):
        move(ana, "deposit", "ana", "10", uuid.uuid4().hex)
    with pytest.raises(Refused, match="needs an Idempotency-Key") as no_key:
        move(cole, "withdrawal", "ana", "10", None)
    assert no_key.value.status == 400
    with pytest.raises(Refused, match="no player account 'cole'"):
        move(cole, "deposit", "cole", "10", uuid.uuid4().hex)
    with pytest.raises(Refused, match="must be positive"):
        move(cole, "deposit", "ana", "0", uuid.uuid4().hex)
    assert move(cole, "withdrawal", "ana", "100", uuid.uuid4().hex)["balance"] == "900.00"
