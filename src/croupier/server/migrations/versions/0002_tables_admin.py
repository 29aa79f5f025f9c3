"""tables made by supervisors: status, squeeze time, live edges, the change log, each shoe's rules

Revision ID: 0002_tables_admin
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_tables_admin"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs (no batch copy of the tables: on SQLite that would drop game_tables under the
    # foreign keys of shoes and rounds)
    op.add_column("game_tables", sa.Column("status", sa.String(length=8), server_default="open", nullable=False))
    op.add_column("game_tables", sa.Column("squeeze_seconds", sa.Double(), nullable=True))
    op.add_column("game_tables", sa.Column("live_edges", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("shoes", sa.Column("rules", sa.JSON(), nullable=True))
    op.create_table(
        "table_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("previous", sa.JSON(), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("table_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_table_changes_table_id"), ["table_id"], unique=False)
    # The shoes dealt before this revision were dealt under their table's rules as they stand: no table
    # could be changed before it. Write those rules down, so that a later change leaves them as they were.
    connection = op.get_bind()
    tables = sa.table(
        "game_tables",
        sa.column("id", sa.Integer),
        sa.column("preset", sa.String),
        sa.column("overrides", sa.JSON),
        sa.column("min_bet", sa.BigInteger),
        sa.column("max_bet", sa.BigInteger),
    )
    shoes = sa.table("shoes", sa.column("table_id", sa.Integer), sa.column("rules", sa.JSON))
    for row in connection.execute(sa.select(tables)).all():
        rules = {"preset": row.preset, "overrides": row.overrides, "min_bet": row.min_bet, "max_bet": row.max_bet}
        connection.execute(sa.update(shoes).where(shoes.c.table_id == row.id).values(rules=rules))


def downgrade() -> None:
    with op.batch_alter_table("table_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_changes_table_id"))
    op.drop_table("table_changes")
    op.drop_column("shoes", "rules")  # plain DROP COLUMNs (SQLite 3.35+), for the same reason as above
    op.drop_column("game_tables", "live_edges")
    op.drop_column("game_tables", "squeeze_seconds")
    op.drop_column("game_tables", "status")
