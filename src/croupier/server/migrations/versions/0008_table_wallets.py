"""wallets of a table: each table's own ``in_play`` and ``house``, so that no two tables' transactions
lock a row in common; the money in play at an unfinished round moves to its table's wallet

Revision ID: 0008_table_wallets
Revises: 0007_idempotency_scope
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008_table_wallets"
down_revision = "0007_idempotency_scope"
branch_labels = None
depends_on = None

MEMO = "money in play moved to its table's own wallet"


def upgrade() -> None:
    if (
        op.get_bind().dialect.name == "sqlite"
    ):  # SQLite adds a column with its reference, but not by ALTER … ADD CONSTRAINT
        op.execute("ALTER TABLE wallets ADD COLUMN table_id INTEGER REFERENCES game_tables (id)")
    else:
        op.add_column("wallets", sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), nullable=True))
    op.create_index("wallets_by_table", "wallets", ["table_id", "kind"], unique=True)
    _move_money_in_play()


def _move_money_in_play() -> None:
    """The bets of the rounds left unfinished are on the one ``in_play`` wallet of no table: each table's
    share moves to the table's own, by a balanced ledger transaction, so that the table's recovery returns
    them from there (the sums of the ledger hold throughout)."""
    bind = op.get_bind()
    shared = bind.execute(
        sa.text("SELECT id FROM wallets WHERE kind = 'in_play' AND account_id IS NULL AND table_id IS NULL")
    ).scalar()
    if shared is None:
        return
    owed = bind.execute(
        sa.text(
            "SELECT r.table_id, SUM(b.amount) FROM bets b JOIN rounds r ON r.id = b.round_id "
            "WHERE r.status IN ('betting', 'playing') GROUP BY r.table_id ORDER BY r.table_id"
        )
    ).all()
    for table_id, cents in owed:
        if not cents:
            continue
        own = bind.execute(
            sa.text("INSERT INTO wallets (kind, table_id, balance) VALUES ('in_play', :t, 0) RETURNING id"),
            {"t": table_id},
        ).scalar_one()
        transaction = bind.execute(
            sa.text(
                "INSERT INTO ledger_transactions (kind, created_at, memo) VALUES ('transfer', :at, :memo) RETURNING id"
            ),
            {"at": datetime.now(UTC), "memo": MEMO},
        ).scalar_one()
        for wallet, amount in ((shared, -int(cents)), (own, int(cents))):
            bind.execute(
                sa.text("INSERT INTO ledger_entries (transaction_id, wallet_id, amount) VALUES (:t, :w, :a)"),
                {"t": transaction, "w": wallet, "a": amount},
            )
            bind.execute(sa.text("UPDATE wallets SET balance = balance + :a WHERE id = :w"), {"a": amount, "w": wallet})


def downgrade() -> None:
    """The tables' wallets fold back into the system's wallets of no table (their balances and entries)."""
    bind = op.get_bind()
    for kind in ("in_play", "house"):
        shared = bind.execute(
            sa.text("SELECT id FROM wallets WHERE kind = :k AND account_id IS NULL AND table_id IS NULL"), {"k": kind}
        ).scalar()
        own = [
            wallet
            for (wallet,) in bind.execute(
                sa.text("SELECT id FROM wallets WHERE kind = :k AND table_id IS NOT NULL"), {"k": kind}
            ).all()
        ]
        if shared is None or not own:
            continue
        for wallet in own:
            bind.execute(
                sa.text("UPDATE ledger_entries SET wallet_id = :s WHERE wallet_id = :w"), {"s": shared, "w": wallet}
            )
            bind.execute(
                sa.text(
                    "UPDATE wallets SET balance = balance + (SELECT balance FROM wallets WHERE id = :w) WHERE id = :s"
                ),
                {"s": shared, "w": wallet},
            )
            bind.execute(sa.text("DELETE FROM wallets WHERE id = :w"), {"w": wallet})
    op.drop_index("wallets_by_table", table_name="wallets")
    if bind.dialect.name != "sqlite":  # SQLite drops no column that refers to another table; the older code reads none
        op.drop_column("wallets", "table_id")
