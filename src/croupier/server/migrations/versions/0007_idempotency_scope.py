"""an Idempotency-Key is scoped: to the table and the operation (a bet, a decision), or to the cashier's
deposit or withdrawal; the same key sent to another table is another request

Revision ID: 0007_idempotency_scope
Revises: 0006_table_epoch
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_idempotency_scope"
down_revision = "0006_table_epoch"
branch_labels = None
depends_on = None

UNIQUE = "uq_idempotency_account_scope_key"


def _without_unique() -> sa.Table:
    """The table as 0001 made it, less its unnamed UNIQUE (account_id, key): SQLite copies it from this."""
    return sa.Table(
        "idempotency",
        sa.MetaData(),
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("request_digest", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def upgrade() -> None:
    scope = sa.Column("scope", sa.String(length=64), server_default="", nullable=False)
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":  # an unnamed constraint cannot be dropped: the table is copied without it
        with op.batch_alter_table("idempotency", copy_from=_without_unique(), recreate="always") as batch:
            batch.add_column(scope)
            batch.create_unique_constraint(UNIQUE, ["account_id", "scope", "key"])
        return
    op.add_column("idempotency", scope)
    for constraint in sa.inspect(bind).get_unique_constraints("idempotency"):
        if sorted(constraint["column_names"]) == ["account_id", "key"] and constraint["name"]:
            op.drop_constraint(constraint["name"], "idempotency", type_="unique")
    op.create_unique_constraint(UNIQUE, "idempotency", ["account_id", "scope", "key"])


def downgrade() -> None:
    # a key kept under two scopes cannot go back under one UNIQUE (account_id, key): those rows go
    op.execute("DELETE FROM idempotency WHERE id NOT IN (SELECT MIN(id) FROM idempotency GROUP BY account_id, key)")
    with op.batch_alter_table("idempotency") as batch:
        batch.drop_constraint(UNIQUE, type_="unique")
        batch.drop_column("scope")
        batch.create_unique_constraint("uq_idempotency_account_key", ["account_id", "key"])
