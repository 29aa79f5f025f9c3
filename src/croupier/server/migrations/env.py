"""Alembic's environment: migrations run on the connection :func:`croupier.server.db.migrate` passes."""

from __future__ import annotations

from alembic import context

from croupier.server.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - migrations run only through croupier.server.db.migrate
    raise RuntimeError("run migrations with croupier.server.db.migrate")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
