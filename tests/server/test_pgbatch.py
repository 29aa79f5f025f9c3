"""croupier.server.pgbatch on PostgreSQL: the statement that moves a group's wallets first locks every
wallet it names, moved or not, before it moves any; the statement that inserts a group's rows refuses a
value too long for its column rather than cutting it short, and writes each row whole."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError

from croupier.server import pgbatch
from croupier.server.db import make_engine, migrate, sessions
from croupier.server.models import Account, Entry, IdempotencyRecord, LedgerTransaction, Wallet
from tests.server.conftest import database_url

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def url(tmp_path: Any, postgres: bool) -> Iterator[str]:
    yield from database_url("postgresql", tmp_path, postgres)


async def _wallets(url: str, balances: list[int]) -> tuple[Any, list[int], int]:
    engine = make_engine(url)
    await migrate(engine)
    async with sessions(engine)() as session, session.begin():
        players = [Wallet(kind="player", balance=cents) for cents in balances]
        in_play = Wallet(kind="in_play", balance=0)
        session.add_all([*players, in_play])
        await session.flush()
        return engine, [wallet.id for wallet in players], in_play.id


def _raw(url: str) -> str:
    return url.replace("postgresql://", "postgres://")


def test_the_move_locks_every_wallet_it_names_even_one_it_cannot_move(url: str) -> None:
    """ana's wallet cannot take her debit (it is left unmoved), ben's moves, chen's is only named to be
    locked (as a settlement locks a loser's): all are locked by the statement, and the table's wallet
    too; another connection cannot lock any of them until the transaction ends."""

    async def run() -> tuple[dict[int, int], set[int], list[bool]]:
        engine, (ana, ben, chen), in_play = await _wallets(url, [500, 5000, 700])
        other = await asyncpg.connect(_raw(url))
        try:
            async with sessions(engine)() as session, session.begin():
                moved = await pgbatch.move_locked(
                    session, {ana: -1000, ben: -1000, in_play: 2000}, [ana, ben], 10**15, lock=[in_play, chen]
                )
                held = []
                for wallet in (ana, ben, chen, in_play):
                    try:
                        await other.fetch("SELECT id FROM wallets WHERE id = $1 FOR UPDATE NOWAIT", wallet)
                        held.append(False)
                    except asyncpg.LockNotAvailableError:
                        held.append(True)
                await session.rollback()
        finally:
            await other.close()
            await engine.dispose()
        return moved, {ben, in_play}, held

    moved, movable, held = asyncio.run(run())
    assert set(moved) == movable, moved  # ben's and the table's, not ana's
    assert held == [True, True, True, True]


def test_a_value_too_long_for_its_column_is_refused_and_nothing_is_written(url: str) -> None:
    """An idempotency key of 200 characters (its column holds 128): the group's one insert fails, so no
    transaction of it is written, rather than a key cut short to a prefix another key may share."""

    async def run() -> tuple[bool, int]:
        engine, (ana,), in_play = await _wallets(url, [500])
        refused = False
        try:
            async with sessions(engine)() as session:
                account = Account(name="ana", name_key="ana", role="player", password_hash="x", created_at=NOW)
                session.add(account)
                await session.commit()
                record = LedgerTransaction(kind="bet", round_id=None, created_at=NOW, memo="a bet")
                row = {
                    "account_id": account.id,
                    "scope": "bets",
                    "key": "k" * 200,
                    "request_digest": "d",
                    "status": 200,
                    "response": {"accepted": True},
                    "created_at": NOW,
                }
                try:
                    async with session.begin():
                        await pgbatch.insert_all(
                            session,
                            "bet",
                            NOW,
                            [(record, {ana: -100, in_play: 100})],
                            [(IdempotencyRecord.__table__, [row])],  # type: ignore[list-item]
                        )
                except DBAPIError:
                    refused = True
            other = await asyncpg.connect(_raw(url))
            try:
                written = int(await other.fetchval("SELECT count(*) FROM ledger_transactions"))
            finally:
                await other.close()
        finally:
            await engine.dispose()
        return refused, written

    refused, written = asyncio.run(run())
    assert refused
    assert written == 0


def test_rows_that_name_different_columns_are_refused_before_any_statement(url: str) -> None:
    async def run() -> None:
        engine, (ana,), in_play = await _wallets(url, [500])
        try:
            async with sessions(engine)() as session, session.begin():
                record = LedgerTransaction(kind="bet", round_id=None, created_at=NOW, memo="a bet")
                rows = [{"transaction_id": record, "wallet_id": ana, "amount": 1}, {"transaction_id": record}]
                await pgbatch.insert_all(
                    session,
                    "bet",
                    NOW,
                    [(record, {ana: -1, in_play: 1})],
                    [(Entry.__table__, rows)],  # type: ignore[list-item]
                )
        finally:
            await engine.dispose()

    with pytest.raises(ValueError, match="different columns"):
        asyncio.run(run())


def test_a_row_that_names_a_transaction_not_of_the_group_is_refused(url: str) -> None:
    async def run() -> None:
        engine, (ana,), in_play = await _wallets(url, [500])
        try:
            async with sessions(engine)() as session, session.begin():
                record = LedgerTransaction(kind="bet", round_id=None, created_at=NOW, memo="a bet")
                rows = [{"transaction_id": 1, "wallet_id": ana, "amount": 0}]
                await pgbatch.insert_all(
                    session,
                    "bet",
                    NOW,
                    [(record, {ana: -1, in_play: 1})],
                    [(Entry.__table__, rows)],  # type: ignore[list-item]
                )
        finally:
            await engine.dispose()

    with pytest.raises(ValueError, match="not of the group"):
        asyncio.run(run())
