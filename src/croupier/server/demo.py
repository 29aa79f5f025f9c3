"""The demo a fresh database starts with: a few tables and accounts, so that ``croupier serve`` answers.

Tables: Macau 1983 blackjack, live-online blackjack (one dealt by the server, one by a dealer's card
reader), Macau baccarat with Lucky 6. Accounts (password ``demo`` for all; change them for anything but a demo):
players ``ana``, ``ben``, ``chen`` with 1,000.00 each, dealer ``dora``, supervisor ``sam``, cashier
``cole``. Their published password is the one exception to the password policy (croupier.server.passwords):
serve with ``--no-demo`` anywhere but a demonstration.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from croupier.server import ledger
from croupier.server.auth import create_account, hash_off_loop
from croupier.server.models import Account, GameTable

if TYPE_CHECKING:
    from croupier.server.service import Service, Settings

DEMO_PASSWORD = "demo"
PLAYERS = ("ana", "ben", "chen")
STAFF = (("dora", "dealer"), ("sam", "supervisor"), ("cole", "cashier"))
START_BALANCE = 100_000  # cents


def demo_tables(settings: Settings, dealer_id: int | None) -> list[dict[str, Any]]:
    common = {"betting_seconds": settings.betting_seconds, "decision_seconds": settings.decision_seconds}
    return [
        {
            "name": "macau-1",
            "game": "blackjack",
            "preset": "macau-1983",
            "overrides": {},
            "min_bet": 1000,
            "max_bet": 100_000,
            "chip": 100,
            "mode": "rng",
            **common,
        },
        {
            "name": "online-1",
            "game": "blackjack",
            "preset": "live-online",
            "overrides": {},
            "min_bet": 500,
            "max_bet": 50_000,
            "chip": 100,
            "mode": "rng",
            **common,
        },
        {
            "name": "online-live",
            "game": "blackjack",
            "preset": "live-online",
            "overrides": {},
            "min_bet": 500,
            "max_bet": 50_000,
            "chip": 100,
            "mode": "live",
            "dealer_id": dealer_id,
            **common,
        },
        {
            "name": "baccarat-1",
            "game": "baccarat",
            "preset": "macau",
            "overrides": {"lucky_6": "true"},
            "min_bet": 1000,
            "max_bet": 200_000,
            "chip": 100,
            "mode": "rng",
            **common,
        },
    ]


async def seed_demo(service: Service, settings: Settings) -> None:
    """Make the demo in an empty database; a process that finds another one making it leaves it be."""
    try:
        await _seed(service, settings)
    except IntegrityError:
        return


async def _seed(service: Service, settings: Settings) -> None:
    async with service.session() as session:
        if await session.scalar(select(GameTable.id).limit(1)) is not None:
            return  # made before: no password to hash
    names = [*PLAYERS, *(name for name, _ in STAFF)]
    hashes = dict(zip(names, await asyncio.gather(*(hash_off_loop(DEMO_PASSWORD) for _ in names)), strict=True))
    async with service.session() as session, session.begin():
        if await session.scalar(select(GameTable.id).limit(1)) is not None:
            return
        await ledger.ensure_system_wallets(session)
        now = service.clock.now()
        ids: dict[str, int] = {}
        for name in PLAYERS:
            account = await create_account(
                session, name, DEMO_PASSWORD, "player", password_hash=hashes[name], policy=False, now=now
            )
            ids[name] = account.id
        for name, role in STAFF:
            account = await create_account(
                session, name, DEMO_PASSWORD, role, password_hash=hashes[name], policy=False, now=now
            )
            ids[name] = account.id
        cashier = await ledger.system_wallet(session, "cashier")
        for name in PLAYERS:
            wallet = await ledger.player_wallet(session, ids[name])
            await ledger.post(
                session, "deposit", [(wallet, START_BALANCE), (cashier, -START_BALANCE)], memo="demo", now=now
            )
        for spec in demo_tables(settings, ids["dora"]):
            session.add(GameTable(**spec))
        await session.flush()


async def account_id(service: Service, name: str) -> int | None:
    async with service.session() as session:
        return await session.scalar(select(Account.id).where(Account.name == name))
