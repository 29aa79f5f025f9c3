"""a table's lease epoch: the fencing token of the process that runs it

Revision ID: 0006_table_epoch
Revises: 0005_accounts_security
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_table_epoch"
down_revision = "0005_accounts_security"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN with a default, as 0002 and 0003: every table starts at epoch 0
    op.add_column("game_tables", sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("game_tables", "epoch")
