"""The server the browser tests play against: ``croupier serve`` with ``seed="tests"``.

It differs from ``croupier serve`` in two ways, both for repeatable runs: every shoe's seed is derived
from the text ``tests`` (``Settings.seed``), and the tables are started one after another, each once
its first shoe is made, so table 1 always deals shoe 1, table 2 shoe 2 and table 3 shoe 3 (started
together, the tables race for the shoe numbers the seeds are derived from).

    python tests/web/run_server.py --port 8765 --database sqlite:///tmp/t.db --betting-seconds 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator

import uvicorn
from fastapi import FastAPI
from sqlalchemy import select

from croupier.server.app import Settings, create_app
from croupier.server.db import normalise_url
from croupier.server.models import GameTable


def build(database: str, betting_seconds: float, decision_seconds: float) -> FastAPI:
    settings = Settings(
        database=normalise_url(database),
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        seed="tests",
        run_tables=False,
    )
    app = create_app(settings)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: FastAPI) -> AsyncIterator[None]:
        async with inner(app_):
            service = app_.state.service
            async with service.session() as session:
                rows = (await session.scalars(select(GameTable).order_by(GameTable.id))).all()
            for row in rows:
                actor = service.start_table(row)
                while actor.shoe_id is None and actor.task is not None and not actor.task.done():
                    await asyncio.sleep(0.005)
            yield

    app.router.lifespan_context = lifespan
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--betting-seconds", type=float, default=4.0)
    parser.add_argument("--decision-seconds", type=float, default=4.0)
    args = parser.parse_args()
    app = build(args.database, args.betting_seconds, args.decision_seconds)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
