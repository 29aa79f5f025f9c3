"""accounts: a name key (look-alike names are one), disabling by a supervisor; sign-in throttling

Revision ID: 0005_accounts_security
Revises: 0004_shoe_start_cards
"""

import sqlalchemy as sa
from alembic import op

from croupier.server.names import name_key

revision = "0005_accounts_security"
down_revision = "0004_shoe_start_cards"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_key", sa.String(length=256), nullable=True))
    op.add_column("accounts", sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("accounts", sa.Column("disabled_reason", sa.String(length=200), nullable=True))
    # the existing names' keys; where two old names share one (``Ana`` beside ``ana``), the later account's
    # key is made its own with its id, so that both still sign in by their exact names
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String))
    bind = op.get_bind()
    seen: set[str] = set()
    for account_id, name in bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)).all():
        key = name_key(name)
        if key in seen:
            key = f"{key}#{account_id}"
        seen.add(key)
        bind.execute(sa.text("UPDATE accounts SET name_key = :key WHERE id = :id"), {"key": key, "id": account_id})
    op.create_index("accounts_by_name_key", "accounts", ["name_key"], unique=True)
    op.create_index("tokens_account", "tokens", ["account_id"])
    op.create_index("tokens_expires", "tokens", ["expires_at"])
    op.create_table(
        "sign_in_failures",
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=256), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_index("sign_in_failures_last", "sign_in_failures", ["last_failure"])


def downgrade() -> None:
    op.drop_index("sign_in_failures_last", table_name="sign_in_failures")
    op.drop_table("sign_in_failures")
    op.drop_index("tokens_expires", table_name="tokens")
    op.drop_index("tokens_account", table_name="tokens")
    op.drop_index("accounts_by_name_key", table_name="accounts")
    op.drop_column("accounts", "disabled_reason")
    op.drop_column("accounts", "disabled_at")
    op.drop_column("accounts", "name_key")
