"""a shoe keeps the cards drawn before its first coup (baccarat Art. 2.1), for croupier verify

Revision ID: 0004_shoe_start_cards
Revises: 0003_insurance_to_chip
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_shoe_start_cards"
down_revision = "0003_insurance_to_chip"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN, as 0002 and 0003; older shoes keep NULL (their first round's cards include them)
    op.add_column("shoes", sa.Column("start_cards", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("shoes", "start_cards")
