"""The double-entry ledger: every movement of money is a transaction whose entries sum to zero.

Wallets: one per player account (``player``, never below zero); each table's own ``in_play`` (money on
that table: bets taken and not yet settled) and ``house`` (the bank's result at that table); and the
system's ``cashier`` (money from and to the outside world: deposits make it negative), ``house`` and
``in_play`` of no table (what was moved before the tables had their own). The sum of all balances is
zero at every moment, because every transaction is posted whole inside the caller's database
transaction; the money in play is the sum of the ``in_play`` wallets, the house's result the sum of
the ``house`` wallets.

A balance changes by one conditional ``UPDATE … RETURNING``: a player's wallet is debited only if it
stays at or above zero, atomically, so fifty concurrent bets for a whole balance leave exactly one
taken, on SQLite and on PostgreSQL alike. Wallets are locked in one order (:data:`LOCK_ORDER`: the
players', then the system's), and a transaction of several postings (a settlement, a refund, a
decision's stakes, a group of bets) locks all its wallets before it moves any (:func:`lock_wallets`; on
PostgreSQL a group's :meth:`Postings.post_all` locks them by the statement that moves them,
croupier.server.pgbatch), so that two transactions never wait on each other in a circle. A single
posting (a deposit, a lone bet) locks its player's wallet by its update, and the system's wallet it moves
by its update, last. Since every table moves only its own system wallets, the transactions of two tables
share no row but a player's who plays at both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Table, and_, case, func, insert, literal, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from croupier.errors import CroupierError
from croupier.server import pgbatch
from croupier.server.clock import SystemClock
from croupier.server.models import Entry, LedgerTransaction, Wallet

MINOR_PER_UNIT = 100
"""Minor units (cents) per unit of currency: the ledger counts cents."""

SYSTEM_WALLETS = ("house", "in_play", "cashier")
"""The system's wallets of no table."""
TABLE_WALLETS = ("in_play", "house")
"""The system's wallets each table has of its own (:func:`table_wallets`)."""
MAX_BALANCE = 10**15
"""The most cents a player's wallet holds (10^13 units of currency): far below what a 64-bit integer
counts, so that no sum of wallets can overflow the database's arithmetic."""


LOCK_ORDER = (case((Wallet.kind == "player", 0), else_=1), Wallet.id)
"""The one order every transaction locks wallets in: the players' (by id), then the system's (by id). A
posting locks its players' wallets first and the system's by its updates, at its end; a transaction of
several postings locks all its wallets at its start in this order: no two ever wait on each other in a
circle."""


class InsufficientFunds(CroupierError):
    """A player's wallet would go below zero."""


class LedgerError(CroupierError):
    """A transaction that cannot be posted (not balanced, not a whole number of cents)."""


def to_minor(amount: Decimal, what: str = "amount") -> int:
    """``amount`` of currency as a whole number of cents, or :class:`LedgerError`."""
    cents = amount * MINOR_PER_UNIT
    if cents != cents.to_integral_value():
        raise LedgerError(f"{what}: {amount} is not a whole number of cents")
    return int(cents)


def from_minor(cents: int) -> Decimal:
    return (Decimal(cents) / MINOR_PER_UNIT).quantize(Decimal("0.01"))


def money_text(cents: int) -> str:
    """Cents as the decimal text of the currency: ``1050`` → ``"10.50"``."""
    return f"{from_minor(cents):.2f}"


async def ensure_system_wallets(session: AsyncSession) -> None:
    existing = set(
        (await session.scalars(select(Wallet.kind).where(Wallet.account_id.is_(None), Wallet.table_id.is_(None)))).all()
    )
    for kind in SYSTEM_WALLETS:
        if kind not in existing:
            session.add(Wallet(kind=kind, account_id=None, balance=0))
    await session.flush()


async def system_wallet(session: AsyncSession, kind: str) -> int:
    wallet_id = await session.scalar(
        select(Wallet.id).where(Wallet.kind == kind, Wallet.account_id.is_(None), Wallet.table_id.is_(None))
    )
    if wallet_id is None:
        raise LedgerError(f"ledger: no {kind} wallet; the database was not set up")
    return wallet_id


@dataclass(frozen=True)
class TableWallets:
    """A table's own system wallets' ids."""

    in_play: int
    house: int


async def table_wallets(session: AsyncSession, table_id: int) -> TableWallets:
    """The wallets of ``table_id`` (:data:`TABLE_WALLETS`), made the first time a table asks for them (by the
    process that runs the table, under its lease; a unique index refuses a second of a kind)."""
    rows = await session.execute(
        select(Wallet.kind, Wallet.id).where(Wallet.table_id == table_id, Wallet.account_id.is_(None))
    )
    found: dict[str, int] = {kind: wallet_id for kind, wallet_id in rows.all()}
    missing = [Wallet(kind=kind, table_id=table_id, balance=0) for kind in TABLE_WALLETS if kind not in found]
    if missing:
        session.add_all(missing)
        await session.flush()
        found.update({wallet.kind: wallet.id for wallet in missing})
    return TableWallets(in_play=found["in_play"], house=found["house"])


async def player_wallet(session: AsyncSession, account_id: int) -> int:
    wallet_id = await session.scalar(select(Wallet.id).where(Wallet.account_id == account_id))
    if wallet_id is None:
        raise LedgerError(f"ledger: account {account_id} has no wallet")
    return wallet_id


async def balance(session: AsyncSession, account_id: int) -> int:
    value = await session.scalar(select(Wallet.balance).where(Wallet.account_id == account_id))
    return int(value or 0)


async def lock_wallets(session: AsyncSession, wallet_ids: Iterable[int]) -> None:
    """Lock ``wallet_ids`` for the rest of the transaction, all at once and in :data:`LOCK_ORDER` (``SELECT …
    FOR UPDATE``; on SQLite the transaction holds the database's write lock already).

    A transaction that moves several wallets' money in several postings (a settlement: every player's,
    the house's and the money in play) locks the whole set first: every transaction then takes its
    wallets in one global order, so no two ever wait on each other in a circle (a deadlock)."""
    ids = sorted(set(wallet_ids))
    if ids and session.get_bind().dialect.name != "sqlite":
        await session.execute(select(Wallet.id).where(Wallet.id.in_(ids)).order_by(*LOCK_ORDER).with_for_update())


async def post(
    session: AsyncSession,
    kind: str,
    moves: Sequence[tuple[int, int]],
    *,
    round_id: int | None = None,
    memo: str = "",
    who: str = "",
    now: datetime | None = None,
) -> tuple[LedgerTransaction, dict[int, int]]:
    """Post one balanced transaction of ``moves`` (wallet id, cents) and return it with each wallet's new
    balance. Raises :class:`InsufficientFunds` (naming ``who``) when a player's wallet would go below zero;
    the caller's database transaction must then be rolled back (nothing of it is kept). ``now``: when,
    by the server's clock (None, for tools outside a server: the system clock)."""
    merged: dict[int, int] = {}
    for wallet_id, amount in moves:
        merged[wallet_id] = merged.get(wallet_id, 0) + amount
    if sum(merged.values()) != 0:
        raise LedgerError(f"ledger: a {kind} transaction does not balance ({sum(merged.values())} cents)")
    moved = [wallet_id for wallet_id, amount in merged.items() if amount != 0]
    # the players' wallets now; the system's only by their updates, last, so that the transactions that
    # share one (the cashier's) wait on it as briefly as may be. On SQLite the transaction holds the
    # database's write lock from its BEGIN IMMEDIATE: no row lock to take, no order to keep.
    players: set[int] = set()
    if session.get_bind().dialect.name != "sqlite":
        players = set(
            (
                await session.scalars(
                    select(Wallet.id)
                    .where(Wallet.id.in_(moved), Wallet.kind == "player")
                    .order_by(Wallet.id)
                    .with_for_update()
                )
            ).all()
        )
    record = LedgerTransaction(kind=kind, round_id=round_id, created_at=now or SystemClock().now(), memo=memo)
    session.add(record)
    await session.flush()
    balances: dict[int, int] = {}
    for wallet_id in sorted(moved, key=lambda w: (w not in players, w)):  # the order of LOCK_ORDER
        amount = merged[wallet_id]
        if abs(amount) > MAX_BALANCE:
            raise LedgerError(f"ledger: {money_text(abs(amount))} is more than one movement may carry")
        row = (
            await session.execute(
                text(
                    "UPDATE wallets SET balance = balance + :amount WHERE id = :id "
                    "AND (kind <> 'player' OR (balance + :amount >= 0 AND balance + :amount <= :cap)) "
                    "RETURNING balance"
                ),
                {"amount": amount, "id": wallet_id, "cap": MAX_BALANCE},
            )
        ).first()
        if row is None:
            raise await _refusal(session, wallet_id, amount, who, memo or kind)
        balances[wallet_id] = int(row[0])
        session.add(Entry(transaction_id=record.id, wallet_id=wallet_id, amount=amount))
    await session.flush()
    return record, balances


async def _refusal(session: AsyncSession, wallet_id: int, cents: int, who: str, memo: str) -> CroupierError:
    """Why a player's wallet did not move by ``cents``: below zero, or past the cap."""
    current = int(await session.scalar(select(Wallet.balance).where(Wallet.id == wallet_id)) or 0)
    owner = f"{who}'s" if who else "the"
    if cents > 0:
        return LedgerError(
            f"{owner} balance is {money_text(current)}; with {money_text(cents)} more it would "
            f"pass {money_text(MAX_BALANCE)}, the most a wallet holds"
        )
    return InsufficientFunds(f"{owner} balance is {money_text(current)}; {money_text(-cents)} is needed ({memo})")


async def move_player(session: AsyncSession, wallet_id: int, cents: int, *, who: str = "", memo: str = "") -> int:
    """Move ``cents`` (negative: a debit) on a player's wallet by one conditional update (the balance stays
    between zero and :data:`MAX_BALANCE`); the balance after, or, with nothing changed,
    :class:`InsufficientFunds` (a debit the balance cannot cover) or :class:`LedgerError` (past the cap)."""
    if abs(cents) > MAX_BALANCE:
        raise LedgerError(f"ledger: {money_text(abs(cents))} is more than one movement may carry")
    row = (
        await session.execute(
            text(
                "UPDATE wallets SET balance = balance + :cents WHERE id = :id AND kind = 'player' "
                "AND balance + :cents >= 0 AND balance + :cents <= :cap RETURNING balance"
            ),
            {"cents": cents, "id": wallet_id, "cap": MAX_BALANCE},
        )
    ).first()
    if row is None:
        raise await _refusal(session, wallet_id, cents, who, memo or "a debit")
    return int(row[0])


class Postings:
    """Transactions of one kind posted together, each moving one player's wallet and some of ``system``
    (a table's own wallets): a table's group of bets, or a round's settlement. :meth:`post_all` moves every
    wallet of them, the system's too, by one statement; :meth:`post` moves one player's wallet at once, in
    the caller's order, and one refused (:class:`InsufficientFunds`: nothing of its transaction is
    written) leaves the others be. :meth:`write` then moves each system wallet that :meth:`post` left
    unmoved once, by the sum of its moves, and writes the transactions and all their entries in a few
    statements. All of it inside the caller's database transaction: committed whole, or not at all."""

    def __init__(self, session: AsyncSession, kind: str, now: datetime, system: Iterable[int]) -> None:
        self.session = session
        self.kind = kind
        self.now = now
        self.system = frozenset(system)
        self.records: list[tuple[LedgerTransaction, dict[int, int]]] = []
        self.unmoved: list[dict[int, int]] = []  # the system wallets' moves that write() is still to make

    def _merged(self, moves: Sequence[tuple[int, int]]) -> tuple[dict[int, int], list[int]]:
        """``moves`` summed by wallet (those of no amount left out) and the player's wallet among them."""
        merged: dict[int, int] = {}
        for wallet_id, amount in moves:
            merged[wallet_id] = merged.get(wallet_id, 0) + amount
        if sum(merged.values()) != 0:
            raise LedgerError(f"ledger: a {self.kind} transaction does not balance ({sum(merged.values())} cents)")
        merged = {wallet: amount for wallet, amount in merged.items() if amount}
        players = [wallet for wallet in merged if wallet not in self.system]
        if len(players) > 1:
            raise LedgerError(f"ledger: a posting of a group moves one player's wallet, not {len(players)}")
        return merged, players

    async def post(
        self, moves: Sequence[tuple[int, int]], *, round_id: int | None, memo: str, who: str = ""
    ) -> tuple[LedgerTransaction, dict[int, int]]:
        """One balanced transaction of ``moves`` (wallet id, cents); it and its player's balance after it
        (by wallet id; none when the player's wallet does not move)."""
        merged, players = self._merged(moves)
        balances = {
            wallet: await move_player(self.session, wallet, merged[wallet], who=who, memo=memo) for wallet in players
        }
        record = LedgerTransaction(kind=self.kind, round_id=round_id, created_at=self.now, memo=memo)
        self.records.append((record, merged))
        self.unmoved.append({wallet: amount for wallet, amount in merged.items() if wallet in self.system})
        return record, balances

    async def post_all(
        self, postings: Sequence[tuple[Sequence[tuple[int, int]], int | None, str]], lock: Iterable[int] = ()
    ) -> list[tuple[LedgerTransaction, dict[int, int]]] | None:
        """Balanced transactions (each its moves, its round and its memo) posted together: every wallet they
        move, the system's with the players', by one conditional ``UPDATE … RETURNING``. Each comes back
        with its player's balance after it, as from :meth:`post` one after another in this order. None when
        a player's wallet cannot take the sum of its moves (it would go below zero or past
        :data:`MAX_BALANCE`): then no wallet has changed, and the caller posts them one by one
        (:meth:`post`) to learn which cannot, after :func:`lock_wallets` (a None may come before any wallet
        was locked). On PostgreSQL the same statement first locks every wallet it moves and those of
        ``lock``, in :data:`LOCK_ORDER` (croupier.server.pgbatch); on SQLite the transaction holds the
        database's write lock already."""
        each = [self._merged(moves) for moves, _round, _memo in postings]
        totals: dict[int, int] = {}
        for merged, _players in each:
            for wallet, amount in merged.items():
                totals[wallet] = totals.get(wallet, 0) + amount
        players = sorted({player for _merged, found in each for player in found})
        if any(abs(totals.get(wallet, 0)) > MAX_BALANCE for wallet in players):
            return None  # (post names the movement that is too large)
        if any(totals.get(wallet, 0) == 0 for wallet in players):
            return None  # a player's moves that cancel out: the update would not read their balance
        moved = {wallet: cents for wallet, cents in totals.items() if cents}
        finals: dict[int, int] = {}
        if moved:
            if self.session.get_bind().dialect.name == "postgresql":
                finals = await pgbatch.move_locked(self.session, moved, players, MAX_BALANCE, lock)
            else:
                finals = await _move_many(self.session, moved, players)
            if finals.keys() != moved.keys():  # a player short (or a wallet of the wrong kind): all put back
                if finals:
                    await _move_many(self.session, {wallet: -moved[wallet] for wallet in finals}, None)
                return None
        posted: list[tuple[LedgerTransaction, dict[int, int]]] = []
        after = {wallet: finals.get(wallet, 0) for wallet in players}
        for (merged, found), (_moves, round_id, memo) in reversed(list(zip(each, postings, strict=True))):
            balances = {wallet: after[wallet] for wallet in found}
            for wallet in found:  # the balance before this posting is the one after the posting before it
                after[wallet] -= merged[wallet]
            record = LedgerTransaction(kind=self.kind, round_id=round_id, created_at=self.now, memo=memo)
            posted.append((record, balances))
        posted.reverse()
        for (record, _balances), (merged, _found) in zip(posted, each, strict=True):
            self.records.append((record, merged))
        return posted

    async def write(self, riders: Sequence[tuple[Table, Sequence[Mapping[str, Any]]]] = ()) -> None:
        """The system wallets that :meth:`post` left unmoved, each by its sum, and the transactions with
        their entries (their ids are known after), and ``riders``: rows of other tables (a table and its
        rows), a row's ``transaction_id`` one of the transactions posted here (replaced by its id). On
        PostgreSQL the transactions, entries and riders go in one statement (croupier.server.pgbatch)."""
        sums: dict[int, int] = {}
        for moves in self.unmoved:
            for wallet, amount in moves.items():
                sums[wallet] = sums.get(wallet, 0) + amount
        self.unmoved.clear()
        for wallet, cents in sorted(sums.items()):
            if cents:
                moved = await self.session.execute(
                    text(
                        "UPDATE wallets SET balance = balance + :cents WHERE id = :id AND kind <> 'player' RETURNING id"
                    ),
                    {"cents": cents, "id": wallet},
                )
                if moved.first() is None:  # never half a transaction: the whole of the caller's is rolled back
                    raise LedgerError(f"ledger: wallet {wallet} is not a system wallet; nothing is posted")
        if self.session.get_bind().dialect.name == "postgresql":
            await pgbatch.insert_all(self.session, self.kind, self.now, self.records, riders)
            return
        await insert_transactions(self.session, [record for record, _moves in self.records])
        entries = [
            {"transaction_id": record.id, "wallet_id": wallet, "amount": amount}
            for record, moves in self.records
            for wallet, amount in moves.items()
        ]
        if entries:  # all of them in one statement (the ORM's flush would insert them one by one)
            await self.session.execute(insert(Entry), entries)
        posted = {id(record) for record, _moves in self.records}
        for table, rows in riders:
            if rows:
                await self.session.execute(insert(table), [_with_id(row, posted) for row in rows])


def _with_id(row: Mapping[str, Any], posted: set[int]) -> dict[str, Any]:
    """``row`` with its ``transaction_id`` (a :class:`LedgerTransaction` of ``posted``, inserted) as that
    one's id; a row that names anything else is refused, as on PostgreSQL (croupier.server.pgbatch)."""
    if "transaction_id" not in row:
        return dict(row)
    if id(row["transaction_id"]) not in posted:
        raise ValueError(pgbatch.NOT_OF_THE_GROUP)
    return {**row, "transaction_id": row["transaction_id"].id}


async def _move_many(session: AsyncSession, moves: dict[int, int], players: Sequence[int] | None) -> dict[int, int]:
    """Every wallet of ``moves`` (wallet id, cents) moved by one statement; the balances after, of the wallets
    that moved. With ``players``: those are players' wallets, each moved only if it stays between zero and
    :data:`MAX_BALANCE`, and the others system wallets, moved only if they are not a player's (a wallet left
    unmoved is missing from the answer). Without: every wallet of ``moves`` moved as it is (putting back
    what such a statement moved)."""
    delta = case({wallet: literal(cents, BigInteger) for wallet, cents in moves.items()}, value=Wallet.id)
    where: ColumnElement[bool] = Wallet.id.in_(list(moves))
    if players is not None:
        system = [wallet for wallet in moves if wallet not in frozenset(players)]
        where = or_(
            and_(
                Wallet.id.in_(list(players)),
                Wallet.kind == "player",
                Wallet.balance + delta >= 0,
                Wallet.balance + delta <= MAX_BALANCE,
            ),
            and_(Wallet.id.in_(system), Wallet.kind != "player"),
        )
    rows = await session.execute(
        update(Wallet)
        .where(where)
        .values(balance=Wallet.balance + delta)
        .returning(Wallet.id, Wallet.balance)
        .execution_options(synchronize_session=False)
    )
    return {int(wallet): int(balance) for wallet, balance in rows.all()}


async def insert_transactions(session: AsyncSession, records: Sequence[LedgerTransaction]) -> None:
    """``records`` inserted, each given its id. On SQLite by one statement, their ids the next after the
    largest (the transaction holds the database's write lock from its ``BEGIN IMMEDIATE``, so no other
    writer, of this process or another, inserts meanwhile): the ORM's flush would insert them one by one,
    since SQLite cannot say which id ``RETURNING`` gave which row of a multi-row insert. On PostgreSQL by the
    ORM's flush (one statement, its sequence giving the ids)."""
    if not records:
        return
    if session.get_bind().dialect.name != "sqlite":
        session.add_all(records)
        await session.flush()
        return
    last = int(await session.scalar(select(func.coalesce(func.max(LedgerTransaction.id), 0))) or 0)
    for offset, record in enumerate(records, start=1):
        record.id = last + offset
    session.add_all(records)
    await session.flush()  # the ids given: one INSERT of many rows


async def ledger_sums(session: AsyncSession) -> tuple[int, int, int]:
    """(sum of all entries, sum of all balances, transactions whose entries do not sum to zero)."""
    entries = int(await session.scalar(select(func.coalesce(func.sum(Entry.amount), 0))) or 0)
    balances = int(await session.scalar(select(func.coalesce(func.sum(Wallet.balance), 0))) or 0)
    unbalanced = await session.scalar(
        select(func.count()).select_from(
            select(Entry.transaction_id).group_by(Entry.transaction_id).having(func.sum(Entry.amount) != 0).subquery()
        )
    )
    return entries, balances, int(unbalanced or 0)


async def wallets_match_entries(session: AsyncSession) -> bool:
    """Every wallet's balance is the sum of its entries."""
    rows = (
        await session.execute(
            select(Wallet.id, Wallet.balance, func.coalesce(func.sum(Entry.amount), 0))
            .outerjoin(Entry, Entry.wallet_id == Wallet.id)
            .group_by(Wallet.id, Wallet.balance)
        )
    ).all()
    return all(int(b) == int(s) for _id, b, s in rows)
