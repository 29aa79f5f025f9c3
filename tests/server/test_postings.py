"""ledger.Postings, the transactions a table posts together (a group of bets, a settlement): a debit its
balance cannot cover is refused alone and writes nothing; the system wallets move once, by their sums;
every transaction balances and every wallet equals its entries; a move onto a wallet that is not a
system one is refused whole."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select, update

from croupier.server import ledger
from croupier.server.db import make_engine, migrate, sessions
from croupier.server.models import Entry, Wallet
from tests.server.conftest import statements

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def with_wallets(path: Path, balances: list[int]) -> tuple[object, list[int], int]:
    engine = make_engine(f"sqlite:///{path}")
    await migrate(engine)
    async with sessions(engine)() as session, session.begin():
        players = [Wallet(kind="player", balance=0) for _cents in balances]
        table = Wallet(kind="in_play", balance=0)
        cashier = Wallet(kind="cashier", balance=0)
        session.add_all([*players, table, cashier])
        await session.flush()
        for wallet, cents in zip(players, balances, strict=True):
            await ledger.post(session, "deposit", [(wallet.id, cents), (cashier.id, -cents)], now=NOW)
        return engine, [w.id for w in players], table.id


def test_a_debit_refused_writes_nothing_and_the_others_stand(tmp_path: Path) -> None:
    async def run() -> tuple[list[object], tuple[int, int, int], bool, list[int]]:
        engine, players, table = await with_wallets(tmp_path / "p.db", [1000, 50, 1000])
        outcomes: list[object] = []
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            postings = ledger.Postings(session, "bet", NOW, [table])
            for wallet in players:
                try:
                    _record, after = await postings.post([(wallet, -100), (table, 100)], round_id=None, memo="bet")
                    outcomes.append(after[wallet])
                except ledger.InsufficientFunds as refused:
                    outcomes.append(str(refused))
            await postings.write()
        async with sessions(engine)() as session:  # type: ignore[arg-type]
            sums = await ledger.ledger_sums(session)
            whole = await ledger.wallets_match_entries(session)
            left = [await session.get(Wallet, w) for w in [*players, table]]
        await engine.dispose()  # type: ignore[attr-defined]
        return outcomes, sums, whole, [w.balance for w in left if w is not None]

    outcomes, sums, whole, balances = asyncio.run(run())
    assert outcomes[0] == 900 and outcomes[2] == 900
    assert "balance is 0.50; 1.00 is needed (bet)" in str(outcomes[1])
    assert balances == [900, 50, 900, 200]
    assert whole and sums[0] == 0 and sums[2] == 0  # entries sum to zero, every transaction balances


def test_a_move_onto_a_wallet_that_is_not_a_system_one_is_refused(tmp_path: Path) -> None:
    async def run() -> None:
        engine, players, _table = await with_wallets(tmp_path / "q.db", [1000, 1000])
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            postings = ledger.Postings(session, "bet", NOW, [players[1]])  # a player's wallet named as the table's
            await postings.post([(players[0], -100), (players[1], 100)], round_id=None, memo="bet")
            await postings.write()

    with pytest.raises(ledger.LedgerError, match="is not a system wallet"):
        asyncio.run(run())


def test_post_all_moves_every_wallet_by_one_statement_and_gives_each_balance_in_order(tmp_path: Path) -> None:
    """A group's debits (one player twice) and the table's sum: one UPDATE, each posting's balance after it
    as if posted one by one in order, and the transactions written by one INSERT with ids of their own."""

    async def run() -> tuple[object, list[str], list[int], tuple[int, int, int], bool, list[int]]:
        engine, players, table = await with_wallets(tmp_path / "a.db", [1000, 1000])
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            postings = ledger.Postings(session, "bet", NOW, [table])
            with statements() as seen:
                posted = await postings.post_all(
                    [
                        ([(players[0], -100), (table, 100)], None, "bet on 1"),
                        ([(players[1], -200), (table, 200)], None, "bet on 2"),
                        ([(players[0], -300), (table, 300)], None, "bet on 3"),
                    ]
                )
                await postings.write()
        assert posted is not None
        ids = [record.id for record, _after in posted]
        async with sessions(engine)() as session:  # type: ignore[arg-type]
            sums = await ledger.ledger_sums(session)
            whole = await ledger.wallets_match_entries(session)
            left = [await session.get(Wallet, w) for w in [*players, table]]
        await engine.dispose()  # type: ignore[attr-defined]
        return [after for _record, after in posted], seen, ids, sums, whole, [w.balance for w in left if w]

    afters, seen, ids, sums, whole, balances = asyncio.run(run())
    assert [list(after.values()) for after in afters] == [[900], [800], [600]]
    assert balances == [600, 800, 600]
    assert len([s for s in seen if s.startswith("UPDATE wallets")]) == 1, seen
    assert len([s for s in seen if s.startswith("INSERT INTO ledger_transactions")]) == 1, seen
    assert len(set(ids)) == 3 and ids == sorted(ids)
    assert whole and sums[0] == 0 and sums[2] == 0


def test_post_all_with_a_player_short_changes_nothing(tmp_path: Path) -> None:
    """One player cannot cover the sum of their debits: None, every wallet as it was (the caller then posts
    one by one to find whose), and nothing to write."""

    async def run() -> tuple[object, list[int], int, tuple[int, int, int]]:
        engine, players, table = await with_wallets(tmp_path / "b.db", [1000, 150])
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            postings = ledger.Postings(session, "bet", NOW, [table])
            posted = await postings.post_all(
                [
                    ([(players[0], -100), (table, 100)], None, "bet on 1"),
                    ([(players[1], -100), (table, 100)], None, "bet on 2"),
                    ([(players[1], -100), (table, 100)], None, "bet on 3"),  # 200 in all: ben has 150
                ]
            )
            left = [
                (await session.execute(select(Wallet.balance).where(Wallet.id == w))).scalar_one()
                for w in [*players, table]
            ]
            records = len(postings.records)
            await postings.write()
        async with sessions(engine)() as session:  # type: ignore[arg-type]
            sums = await ledger.ledger_sums(session)
        await engine.dispose()  # type: ignore[attr-defined]
        return posted, left, records, sums

    posted, left, records, sums = asyncio.run(run())
    assert posted is None
    assert left == [1000, 150, 0]
    assert records == 0
    assert sums == (0, 0, 0)


def test_post_all_past_the_most_a_wallet_holds_changes_nothing(tmp_path: Path) -> None:
    async def run() -> tuple[object, list[int]]:
        engine, players, table = await with_wallets(tmp_path / "c.db", [ledger.MAX_BALANCE - 10, 0])
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            await session.execute(update(Wallet).where(Wallet.id == table).values(balance=1000))
            postings = ledger.Postings(session, "settle", NOW, [table])
            posted = await postings.post_all(
                [
                    ([(players[1], 100), (table, -100)], None, "settled"),
                    ([(players[0], 100), (table, -100)], None, "settled"),
                ]
            )
            left = [
                (await session.execute(select(Wallet.balance).where(Wallet.id == w))).scalar_one()
                for w in [*players, table]
            ]
        await engine.dispose()  # type: ignore[attr-defined]
        return posted, left

    posted, left = asyncio.run(run())
    assert posted is None
    assert left == [ledger.MAX_BALANCE - 10, 0, 1000]


def test_post_all_with_a_players_moves_that_cancel_out_leaves_them_to_post(tmp_path: Path) -> None:
    """A player paid and charged the same in one group: their balance after each posting is theirs, not
    zero; post_all gives the group to post (one by one), which reads it."""

    async def run() -> tuple[object, list[int]]:
        engine, players, table = await with_wallets(tmp_path / "d.db", [1000])
        async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
            postings = ledger.Postings(session, "bet", NOW, [table])
            items = [
                ([(players[0], -100), (table, 100)], None, "bet on 1"),
                ([(players[0], 100), (table, -100)], None, "bet on 1 returned"),
            ]
            posted = await postings.post_all(items)
            afters = [
                (await postings.post(moves, round_id=None, memo=memo))[1][players[0]] for moves, _r, memo in items
            ]
        await engine.dispose()  # type: ignore[attr-defined]
        return posted, afters

    posted, afters = asyncio.run(run())
    assert posted is None
    assert afters == [900, 1000]


def test_a_row_written_with_the_transactions_must_name_one_of_them(tmp_path: Path) -> None:
    """A row written with a group's transactions (``Postings.write``'s riders) whose ``transaction_id`` is
    not one of the group's is refused before it is written, as on PostgreSQL (test_pgbatch.py)."""

    async def run() -> None:
        engine, players, table = await with_wallets(tmp_path / "p.db", [1000])
        try:
            async with sessions(engine)() as session, session.begin():  # type: ignore[arg-type]
                postings = ledger.Postings(session, "bet", NOW, [table])
                await postings.post([(players[0], -100), (table, 100)], round_id=None, memo="bet")
                row = {"transaction_id": 1, "wallet_id": players[0], "amount": 0}
                await postings.write([(Entry.__table__, [row])])  # type: ignore[list-item]
        finally:
            await engine.dispose()  # type: ignore[attr-defined]

    with pytest.raises(ValueError, match="not of the group"):
        asyncio.run(run())
