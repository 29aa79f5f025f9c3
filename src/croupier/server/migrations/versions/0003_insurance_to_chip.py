"""a table may let insurance be half the bet rounded up to the next chip (online §2.5.1)

Revision ID: 0003_insurance_to_chip
Revises: 0002_tables_admin
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_insurance_to_chip"
down_revision = "0002_tables_admin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN, as 0002 (no batch copy of game_tables under the foreign keys of an existing database)
    op.add_column(
        "game_tables", sa.Column("insurance_to_chip", sa.Boolean(), server_default=sa.false(), nullable=False)
    )


def downgrade() -> None:
    op.drop_column("game_tables", "insurance_to_chip")
