"""Settlements on PostgreSQL under load: many tables settle at once, their players
shared, each settlement a win, a loss or a push per player. Each settlement locks all its wallets at
its start in one global order (``ledger.lock_wallets``), so none waits on another in a circle: no
deadlock, every round settled, the ledger whole."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from croupier.server import ledger, stakes
from croupier.server.app import Service, Settings
from croupier.server.auth import create_account
from croupier.server.clock import ManualClock
from croupier.server.models import BetRecord, RoundRecord, ShoeRecord
from tests.server.conftest import database_url

PLAYERS = 8
ROUNDS = 28  # at once: within the pool's 30 connections
WAVES = 3
STAKE = 1000  # cents


@dataclass
class Outcome:
    """A settled round as ``stakes.settle`` reads it: each player's net result."""

    results: dict[str, Decimal]

    def net(self) -> dict[str, Decimal]:
        return self.results

    def spec(self) -> dict[str, Any]:
        return {}

    def result(self) -> dict[str, Any]:
        return {"net": {p: str(v) for p, v in self.results.items()}}


@dataclass
class Table:
    """What of a table actor a settlement reads. Every one here has the same wallets (the system's of no
    table) for its own: the settlements share their money in play and house, the hardest case for the
    lock order (a real table's are its own)."""

    clock: ManualClock
    accounts: dict[str, int]
    wallets: ledger.TableWallets
    balance_before: dict[int, int] = field(default_factory=dict)
    player_wallets: dict[int, int] = field(default_factory=dict)

    def own_wallets(self) -> ledger.TableWallets:
        return self.wallets


@pytest.fixture
def url(tmp_path: Any, postgres: bool) -> Any:
    yield from database_url("postgresql", tmp_path, postgres)


def test_many_tables_settle_at_once_without_a_deadlock(url: str) -> None:
    failures, settled, sums = asyncio.run(_settle_concurrently(url))
    assert failures == []
    assert settled == ROUNDS * WAVES
    assert sums == (0, 0, 0)


async def _settle_concurrently(url: str) -> tuple[list[str], int, tuple[int, int, int]]:
    clock = ManualClock()
    service = Service(Settings(database=url, run_tables=False, seed="tests"), clock)
    await service.start()
    draw = random.Random(13)  # the test's own choices of who bets and who wins (not a game's randomness)
    failures: list[str] = []
    try:
        names = [f"p{n}" for n in range(PLAYERS)]
        async with service.session() as session, session.begin():
            ids = {name: (await create_account(session, name, "settle-wave-4721", "player")).id for name in names}
            cashier = await ledger.system_wallet(session, "cashier")
            for name in names:
                wallet = await ledger.player_wallet(session, ids[name])
                await ledger.post(session, "deposit", [(wallet, 10**7), (cashier, -(10**7))])
            shoe = ShoeRecord(table_id=1, mode="fair", client_seed="s", started_at=clock.now())
            session.add(shoe)
            await session.flush()
            shoe_id = shoe.id
        for _wave in range(WAVES):
            work: list[tuple[int, Table, Outcome]] = []
            async with service.session() as session, session.begin():
                in_play = await ledger.system_wallet(session, "in_play")
                shared = ledger.TableWallets(in_play, await ledger.system_wallet(session, "house"))
                for number in range(ROUNDS):
                    record = RoundRecord(
                        table_id=1, shoe_id=shoe_id, number=number + 1, status="playing", started_at=clock.now(), log=[]
                    )
                    session.add(record)
                    await session.flush()
                    players = draw.sample(names, draw.randint(2, 5))
                    for name in players:
                        wallet = await ledger.player_wallet(session, ids[name])
                        tx, _after = await ledger.post(session, "bet", [(wallet, -STAKE), (in_play, STAKE)])
                        session.add(
                            BetRecord(
                                round_id=record.id,
                                account_id=ids[name],
                                kind="bet",
                                spot="1",
                                amount=STAKE,
                                balance_after=0,
                                transaction_id=tx.id,
                                created_at=clock.now(),
                            )
                        )
                    # a win, a loss or a push (a push moves no house money) for each
                    outcome = Outcome({n: Decimal(draw.choice((-10, 0, 10, 15))) for n in players})
                    work.append((record.id, Table(clock, {n: ids[n] for n in players}, shared), outcome))

            async def settle(round_id: int, table: Table, outcome: Outcome) -> None:
                try:
                    async with service.session() as session, session.begin():
                        record = await session.get(RoundRecord, round_id)
                        assert record is not None
                        await stakes.settle(table, session, record, outcome)  # type: ignore[arg-type]
                except Exception as error:  # counted: the test names them all
                    failures.append(f"round {round_id}: {type(error).__name__}: {str(error)[:120]}")

            await asyncio.gather(*(settle(*item) for item in work))
        async with service.session() as session:
            settled = await session.scalar(select(func.count()).where(RoundRecord.status == "settled"))
            sums = await ledger.ledger_sums(session)
        return failures, int(settled or 0), sums
    finally:
        await service.stop()


def test_a_transaction_a_deadlock_rolled_back_is_tried_again(url: str) -> None:
    """Two transactions made to wait on each other in a circle: PostgreSQL rolls one back (a deadlock), and
    ``db.retrying`` runs it again: both are done."""
    attempts, errors = asyncio.run(_forced_deadlock(url))
    assert errors == []
    assert attempts >= 3  # two transactions, one of them twice


async def _forced_deadlock(url: str) -> tuple[int, list[str]]:
    from sqlalchemy import text

    from croupier.server.db import retrying

    service = Service(Settings(database=url, run_tables=False), ManualClock())
    await service.start()
    both_hold_one = asyncio.Barrier(2)
    attempts = 0
    errors: list[str] = []

    def transaction(first: str, second: str) -> Any:
        async def run() -> None:
            nonlocal attempts
            attempts += 1
            async with service.session() as session, session.begin():
                await session.execute(text(f"UPDATE wallets SET balance = balance WHERE kind = '{first}'"))
                if attempts <= 2:  # the first try of each: both hold one lock, then each asks for the other's
                    await both_hold_one.wait()
                await session.execute(text(f"UPDATE wallets SET balance = balance WHERE kind = '{second}'"))

        return run

    async def attempt(first: str, second: str) -> None:
        try:
            await retrying(transaction(first, second))
        except Exception as error:
            errors.append(f"{type(error).__name__}: {error}")

    try:
        await asyncio.gather(attempt("house", "in_play"), attempt("in_play", "house"))
    finally:
        await service.stop()
    return attempts, errors
