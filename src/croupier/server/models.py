"""The server's database: accounts, wallets and the double-entry ledger, tables, shoes, rounds, bets.

SQLAlchemy 2 declarative models; the schema is created and changed only by the Alembic migrations in
``croupier/server/migrations`` (``croupier serve`` upgrades to the newest on start).

Money is an integer count of the currency's minor unit (cents): never a float. A ledger transaction
is a set of entries whose amounts sum to zero; each entry changes one wallet's balance in the same
database transaction, and a player's wallet may never go below zero (a CHECK constraint backs the
service's own check).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The metadata every model shares."""


ROLES = ("player", "dealer", "supervisor", "cashier")


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # names are unique by this key (croupier.server.names.name_key: look-alike names are one)
    name_key: Mapped[str | None] = mapped_column(String(256))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # by a supervisor; None: enabled
    disabled_reason: Mapped[str | None] = mapped_column(String(200))

    __table_args__ = (Index("accounts_by_name_key", "name_key", unique=True),)


class Token(Base):
    """A bearer token: only its SHA-256 is stored."""

    __tablename__ = "tokens"
    __table_args__ = (Index("tokens_account", "account_id"), Index("tokens_expires", "expires_at"))

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SignInFailure(Base):
    """Failed sign-ins counted per name key (scope ``name``) and per address (``address``), and the
    registrations per address (``register``): croupier.server.throttle."""

    __tablename__ = "sign_in_failures"
    __table_args__ = (Index("sign_in_failures_last", "last_failure"),)

    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(256), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_failure: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Wallet(Base):
    """A ledger account: a player's wallet, the house, money in play on the tables, or the cashier
    (money from and to the outside world). A table has its own ``in_play`` and ``house`` wallets
    (``table_id``), so that no two tables' transactions lock a row in common; the system's wallets of no
    table (``table_id`` NULL) hold what was moved before tables had their own, and the cashier."""

    __tablename__ = "wallets"
    __table_args__ = (
        CheckConstraint("kind <> 'player' OR balance >= 0", name="player_balance_not_negative"),
        Index("wallets_by_table", "table_id", "kind", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # player, house, in_play, cashier
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), unique=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("game_tables.id"))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerTransaction(Base):
    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))  # deposit, withdrawal, bet, stake, settle, refund
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    memo: Mapped[str] = mapped_column(Text, default="")


class Entry(Base):
    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    wallet_id: Mapped[int] = mapped_column(ForeignKey("wallets.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class IdempotencyRecord(Base):
    """The first answer to a money-moving request, kept under its key, per account and per scope: the
    table and operation (``table:3:bet``, ``table:3:act``) or the cashier's (``cashier:deposit``). The same
    key sent to another table, or for another operation, is another request (migration 0005)."""

    __tablename__ = "idempotency"
    __table_args__ = (UniqueConstraint("account_id", "scope", "key", name="uq_idempotency_account_scope_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    scope: Mapped[str] = mapped_column(String(64), default="", server_default="")
    key: Mapped[str] = mapped_column(String(128))
    request_digest: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(16))
    preset: Mapped[str] = mapped_column(String(32))
    overrides: Mapped[dict[str, Any]] = mapped_column(JSON)
    min_bet: Mapped[int] = mapped_column(BigInteger)  # minor units
    max_bet: Mapped[int] = mapped_column(BigInteger)
    chip: Mapped[int] = mapped_column(BigInteger)  # bets are whole multiples of the chip
    betting_seconds: Mapped[float] = mapped_column()
    decision_seconds: Mapped[float] = mapped_column()
    mode: Mapped[str] = mapped_column(String(8))  # rng or live
    dealer_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    owner: Mapped[str | None] = mapped_column(String(64))  # the process that runs it now
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # the fencing token: one more at every acquisition of the lease; the owner's writes carry it (fence.py)
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    status: Mapped[str] = mapped_column(String(8), default="open", server_default="open")  # open, closing, closed
    squeeze_seconds: Mapped[float | None] = mapped_column()  # a baccarat squeeze's time (Art. 16)
    live_edges: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # staff see the live edges
    # online §2.5.1: insurance up to half the bet rounded up to the next chip
    insurance_to_chip: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class TableChange(Base):
    """A supervisor's change to a table, in order: opened, changed (applies at the table's next shoe),
    closed, reopened. ``settings`` holds what was asked; ``previous`` what it replaced, once applied."""

    __tablename__ = "table_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(8))  # create, change, close, reopen
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    previous: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    applied_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ShoeRecord(Base):
    """A shoe: its commitment is public from the start, its seed once the shoe has ended (docs/rules.md §5)."""

    __tablename__ = "shoes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    mode: Mapped[str] = mapped_column(String(8))  # fair (seeded HMAC stream) or live
    server_seed: Mapped[str | None] = mapped_column(String(64))  # hex; never sent before ``ended_at``
    commitment: Mapped[str | None] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(64), default="")
    nonce: Mapped[int] = mapped_column(Integer, default=0)
    cut_card: Mapped[int | None] = mapped_column(Integer)
    # the cards drawn before the first coup (baccarat Art. 2.1: the turned first card and its burns);
    # never sent before ``ended_at``
    start_cards: Mapped[list[str] | None] = mapped_column(JSON)
    rules: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the table's rules for this shoe
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RoundRecord(Base):
    __tablename__ = "rounds"
    __table_args__ = (Index("rounds_table_number", "table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    shoe_id: Mapped[int] = mapped_column(ForeignKey("shoes.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # within the shoe, from 1
    status: Mapped[str] = mapped_column(String(12))  # betting, playing, settled, voided
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    log: Mapped[list[Any]] = mapped_column(JSON)  # every public event with its time
    spec: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the transcript round (bets, decisions)
    cards: Mapped[list[Any] | None] = mapped_column(JSON)  # every card the round drew, burns included
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class BetRecord(Base):
    """Money a player put on the table in a round: a bet, a double, a split, insurance."""

    __tablename__ = "bets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # bet, double, split, insurance
    spot: Mapped[str] = mapped_column(String(24))  # a box number or a baccarat spot
    amount: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)  # the player's wallet once this was taken
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Settlement(Base):
    """A player's result in a round: staked, returned, and the wallet's balance before and after."""

    __tablename__ = "settlements"
    __table_args__ = (UniqueConstraint("round_id", "account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    staked: Mapped[int] = mapped_column(BigInteger)
    returned: Mapped[int] = mapped_column(BigInteger)
    balance_before: Mapped[int] = mapped_column(BigInteger)  # before the round's first bet
    balance_after: Mapped[int] = mapped_column(BigInteger)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"))
