"""A group's writes on PostgreSQL in two statements, each with a text that does not change with the group's
size (so each connection prepares it once): the wallets locked and moved, then the ledger's transactions,
their entries and the rows that name them (the bets, the stored answers, the settlements) inserted.

A table's group of bets was nine round trips to the database, one after the other: BEGIN, the lease's
fence, the wallets' lock, their update, the transactions, their entries, the bets, the stored answers,
COMMIT. Under a studio's load every round trip is also a turn of a busy event loop, so a bet's answer
waited on each of them. Here the lock and the update are one statement (:func:`move_locked`), and the
four inserts one more (:func:`insert_all`): five round trips (six for a round's first bets, which make
its record). What they write, and when it is committed, is the same as before; SQLite, whose transaction
holds the database's write lock from its start and whose statements cost no round trip, keeps the plain
statements (croupier.server.ledger).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, String, Table, TextClause, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.server.models import Entry, LedgerTransaction

MOVE_LOCKED = text(
    """
    WITH locked AS MATERIALIZED (
        SELECT id FROM wallets WHERE id = ANY(CAST(:locks AS INTEGER[]))
        ORDER BY kind <> 'player', id
        FOR UPDATE
    )
    UPDATE wallets SET balance = wallets.balance + moves.cents
    FROM unnest(CAST(:ids AS INTEGER[]), CAST(:cents AS BIGINT[]), CAST(:players AS BOOLEAN[]))
        AS moves(id, cents, player)
    WHERE wallets.id = moves.id
      AND (SELECT count(*) FROM locked) >= 0
      AND CASE WHEN moves.player
          THEN wallets.kind = 'player' AND wallets.balance + moves.cents BETWEEN 0 AND :cap
          ELSE wallets.kind <> 'player' END
    RETURNING wallets.id, wallets.balance
    """
)
"""Every wallet of ``locks`` locked in :data:`croupier.server.ledger.LOCK_ORDER` (the players', then the
system's, each by id): the uncorrelated count is computed once, before the update's first row (a one-time
filter of the plan; without it the locking CTE, read by nothing else, would not run at all), so every lock
is taken, in that order, before any wallet moves. Then each wallet of ``ids`` moved by its ``cents``: a
player's only if it stays between zero and ``cap``, a system wallet only if it is not a player's.

The statement reads the wallets as they were when it began, before it waited for their locks. A wallet
that a transaction committing meanwhile changed is checked again as it is now if it passed the condition
as it was (PostgreSQL's recheck of an updated row); one that failed it as it was is left unmoved, even if
it would pass now (a player short by then credited by another table's settlement). The caller then takes
the postings one by one (``ledger.Postings.post_all`` gives None), each by a statement of its own that
reads the wallet as it is: correct, only slower, in that rare case."""


async def move_locked(
    session: AsyncSession, moves: Mapping[int, int], players: Iterable[int], cap: int, lock: Iterable[int] = ()
) -> dict[int, int]:
    """:data:`MOVE_LOCKED`: the wallets of ``moves`` and of ``lock`` locked, then those of ``moves`` moved;
    the balances after, of the wallets that moved (a player's that could not take its move is missing)."""
    ids = sorted(moves)
    who = frozenset(players)
    rows = await session.execute(
        MOVE_LOCKED,
        {
            "locks": sorted({*ids, *lock}),
            "ids": ids,
            "cents": [moves[wallet] for wallet in ids],
            "players": [wallet in who for wallet in ids],
            "cap": cap,
        },
    )
    return {int(wallet): int(balance) for wallet, balance in rows.all()}


NOT_OF_THE_GROUP = "a row written with a group's transactions names a transaction not of the group"
"""Why a row written with a group's transactions is refused when its ``transaction_id`` is not one of them."""

_DIALECT = postgresql.dialect()  # type: ignore[no-untyped-call]


@functools.lru_cache(maxsize=256)
def _array_of(table: Table, column: str) -> tuple[str, bool]:
    """The type of ``column``'s array parameter, and whether the column is JSON (sent as its text, as the
    engine's JSON type sends it: ``json.dumps``, no serializer of its own being set, croupier.server.db). A
    string is sent as TEXT, so that the insert into a column of a bounded length refuses a value too long
    (a cast to ``VARCHAR(n)[]`` would cut it short without a word)."""
    sql_type = table.c[column].type
    if column == "transaction_id":
        return "INTEGER", False  # the transaction's number in the statement (:func:`insert_all`)
    if isinstance(sql_type, JSON):
        return "TEXT", True
    if isinstance(sql_type, String):
        return "TEXT", False
    return str(sql_type.compile(_DIALECT)), False


def _rows_part(name: str, table: Table, rows: Sequence[Mapping[str, Any]], params: dict[str, Any]) -> str:
    """An ``INSERT … SELECT … FROM unnest(…)`` of ``rows`` into ``table`` (each column an array parameter);
    a value of ``transaction_id`` is the 1-based number of a transaction of the statement's ``ids``. Every
    row names the same columns."""
    columns = list(rows[0])
    if any(row.keys() != rows[0].keys() for row in rows):
        raise ValueError(f"rows for {table.name} name different columns; each is written whole or not at all")
    arrays, selected = [], []
    for column in columns:
        cast, is_json = _array_of(table, column)
        key = f"{name}_{column}"
        params[key] = [json.dumps(row[column]) if is_json else row[column] for row in rows]
        arrays.append(f"CAST(:{key} AS {cast}[])")
        if column == "transaction_id":
            selected.append(f'(SELECT ids.id FROM ids WHERE ids.n = r."{column}")')
        elif is_json:
            selected.append(f'CAST(r."{column}" AS JSON)')
        else:
            selected.append(f'r."{column}"')
    names = ", ".join(f'"{column}"' for column in columns)
    return (
        f"{name} AS (INSERT INTO {table.name} ({names}) SELECT {', '.join(selected)} "
        f"FROM unnest({', '.join(arrays)}) AS r({names}))"
    )


async def insert_all(
    session: AsyncSession,
    kind: str,
    now: datetime,
    records: Sequence[tuple[LedgerTransaction, Mapping[int, int]]],
    riders: Sequence[tuple[Table, Sequence[Mapping[str, Any]]]] = (),
) -> None:
    """``records`` (each a transaction of ``kind`` made at ``now``, with its moves by wallet) inserted with
    their entries and ``riders`` (rows of other tables; a row's ``transaction_id`` is a transaction of
    ``records``), by one statement; each record given its id."""
    if not records and not any(rows for _table, rows in riders):
        return
    params: dict[str, Any] = {
        "count": len(records),
        "kind": kind,
        "now": now,
        "rounds": [record.round_id for record, _moves in records],
        "memos": [record.memo for record, _moves in records],
    }
    entries = [
        {"transaction_id": n, "wallet_id": wallet, "amount": amount}
        for n, (_record, moves) in enumerate(records, start=1)
        for wallet, amount in moves.items()
    ]
    number = {id(record): n for n, (record, _moves) in enumerate(records, start=1)}
    parts = [
        "ids AS MATERIALIZED (SELECT n, nextval(pg_get_serial_sequence('ledger_transactions', 'id')) AS id "
        "FROM generate_series(1, CAST(:count AS INTEGER)) AS n)",
        "tx AS (INSERT INTO ledger_transactions (id, kind, round_id, created_at, memo) "
        "SELECT ids.id, CAST(:kind AS VARCHAR), t.round_id, CAST(:now AS TIMESTAMP WITH TIME ZONE), t.memo "
        "FROM unnest(CAST(:rounds AS INTEGER[]), CAST(:memos AS TEXT[])) WITH ORDINALITY AS t(round_id, memo, n) "
        "JOIN ids USING (n))",
    ]
    if entries:
        parts.append(_rows_part("entries", Entry.__table__, entries, params))  # type: ignore[arg-type]
    for n, (table, rows) in enumerate(riders):
        if rows:
            named = [{**row, **_numbered(row, number)} for row in rows]
            parts.append(_rows_part(f"rows{n}", table, named, params))
    result = await session.execute(_statement("WITH " + ", ".join(parts) + " SELECT n, id FROM ids"), params)
    ids: dict[int, int] = {int(n): int(i) for n, i in result.all()}
    for n, (record, _moves) in enumerate(records, start=1):
        record.id = int(ids[n])


@functools.lru_cache(maxsize=64)
def _statement(sql: str) -> TextClause:
    """``sql`` as a statement, made once (its text is one of a few: the tables and columns of a group)."""
    return text(sql)


def _numbered(row: Mapping[str, Any], number: Mapping[int, int]) -> dict[str, Any]:
    """``row``'s ``transaction_id`` (a transaction of the statement) as its number."""
    if "transaction_id" not in row:
        return {}
    found = number.get(id(row["transaction_id"]))
    if found is None:
        raise ValueError(NOT_OF_THE_GROUP)
    return {"transaction_id": found}
