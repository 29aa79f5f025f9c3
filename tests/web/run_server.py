"""The server the browser tests play against: ``croupier serve`` with ``seed="tests"``.

It differs from ``croupier serve`` in two ways, both for repeatable runs: every shoe's seed is derived
from the text ``tests`` (``Settings.seed``), and the tables are started one after another, each once
its first shoe is made, so table 1 always deals shoe 1, table 2 shoe 2 and table 3 shoe 3 (started
together, the tables race for the shoe numbers the seeds are derived from).

``--test-tables`` adds, for the tests only, two tables after the demo's four: ``baccarat-squeeze``
(table 5), the demo's baccarat with the squeeze allowed (Art. 16) and ``--squeeze-seconds`` to squeeze,
and ``macau-seats`` (table 6), a second Macau 1983 table, so that the seat tests leave the card order of
``macau-1`` to the tests that rely on it; and two tables for the cut of a new shoe (Art. 2.1), whose
window is the table's betting time up to 10 s: ``online-cut`` (table 7, the demo's online-1) and
``baccarat-cut`` (table 8, baccarat-squeeze again), both with ``--cut-seconds`` to bet and so to cut;
``online-fair`` and ``baccarat-fair`` (9, 10), whose shoes the fairness test ends; ``baccarat-play`` (11),
where the table-play tests count coups; ``online-touch`` and ``baccarat-touch`` (12, 13), played with taps
by the touch tests; and ``baccarat-live`` (14), a live baccarat table dealt by ``dora`` through the dealer
API, whose shoe the shoe-change test ends. The demo tables keep their defaults.

    python tests/web/run_server.py --port 8765 --database sqlite:///tmp/t.db --betting-seconds 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from fastapi import FastAPI
from sqlalchemy import select

from croupier.server.app import Settings, create_app
from croupier.server.db import normalise_url
from croupier.server.models import Account, GameTable

SQUEEZE_TABLE = "baccarat-squeeze"
SEATS_TABLE = "macau-seats"
CUT_TABLES = ("online-cut", "baccarat-cut")
FAIR_TABLES = ("online-fair", "baccarat-fair")  # tests/web/test_fairness.py ends their shoes
PLAY_TABLE = "baccarat-play"  # tests/web/test_table_play.py counts coups there, no other test plays it
TOUCH_TABLES = ("online-touch", "baccarat-touch")  # tests/web/test_touch.py plays them with taps only
LIVE_BACCARAT = "baccarat-live"  # a live baccarat table dealt by dora: tests/web/test_shoe_change.py ends its shoe


def build(
    database: str,
    betting_seconds: float,
    decision_seconds: float,
    squeeze_seconds: float | None = None,
    cut_seconds: float = 10.0,
) -> FastAPI:
    settings = Settings(
        database=normalise_url(database),
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        seed="tests",
        run_tables=False,
        stagger=False,
    )
    app = create_app(settings)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: FastAPI) -> AsyncIterator[None]:
        async with inner(app_):
            service = app_.state.service
            if squeeze_seconds is not None:
                await _add_test_tables(service, betting_seconds, squeeze_seconds, cut_seconds)
            async with service.session() as session:
                rows = (await session.scalars(select(GameTable).order_by(GameTable.id))).all()
            for row in rows:
                actor = service.start_table(row)
                while actor.shoe_id is None and actor.task is not None and not actor.task.done():
                    await asyncio.sleep(0.005)
            yield

    app.router.lifespan_context = lifespan
    return app


async def _add_test_tables(
    service: Any, betting_seconds: float, squeeze_seconds: float, cut_seconds: float = 10.0
) -> None:
    """The demo's baccarat table again with the squeeze on (its timer, the table's decision time, is the
    time the holder has to turn the cards), the demo's Macau 1983 table again, the two cut tables, and two
    tables whose shoes the fairness test ends (so no other test's cards depend on it)."""
    squeeze = {"squeeze": "true"}
    copies = (
        (SQUEEZE_TABLE, "baccarat-1", squeeze, squeeze_seconds, betting_seconds),
        (SEATS_TABLE, "macau-1", {}, None, betting_seconds),
        (CUT_TABLES[0], "online-1", {}, None, cut_seconds),
        (CUT_TABLES[1], "baccarat-1", squeeze, squeeze_seconds, cut_seconds),
        (FAIR_TABLES[0], "online-1", {}, None, betting_seconds),
        (FAIR_TABLES[1], "baccarat-1", squeeze, squeeze_seconds, betting_seconds),
        (PLAY_TABLE, "baccarat-1", {}, None, betting_seconds),
        (TOUCH_TABLES[0], "online-1", {}, None, betting_seconds),
        (TOUCH_TABLES[1], "baccarat-1", {}, None, betting_seconds),
        (LIVE_BACCARAT, "baccarat-1", {}, None, betting_seconds),
    )
    async with service.session() as session, session.begin():
        for name, model, overrides, decision_seconds, betting in copies:
            if await session.scalar(select(GameTable.id).where(GameTable.name == name)) is not None:
                continue
            demo = await session.scalar(select(GameTable).where(GameTable.name == model))
            assert demo is not None, f"the demo's table {model} is missing"
            live = name == LIVE_BACCARAT
            dealer = await session.scalar(select(Account.id).where(Account.name == "dora")) if live else None
            session.add(
                GameTable(
                    name=name,
                    game=demo.game,
                    preset=demo.preset,
                    overrides={**demo.overrides, **overrides},
                    min_bet=demo.min_bet,
                    max_bet=demo.max_bet,
                    chip=demo.chip,
                    betting_seconds=betting,
                    decision_seconds=decision_seconds or demo.decision_seconds,
                    mode="live" if live else "rng",
                    dealer_id=dealer,
                )
            )
            await session.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--betting-seconds", type=float, default=4.0)
    parser.add_argument("--decision-seconds", type=float, default=4.0)
    tables = ", ".join((SQUEEZE_TABLE, SEATS_TABLE, *CUT_TABLES))
    parser.add_argument("--test-tables", action="store_true", help=f"add the test tables {tables}")
    parser.add_argument("--squeeze-seconds", type=float, default=8.0)
    parser.add_argument("--cut-seconds", type=float, default=10.0, help="the cut tables' betting (and cut) time")
    args = parser.parse_args()
    squeeze = args.squeeze_seconds if args.test_tables else None
    app = build(args.database, args.betting_seconds, args.decision_seconds, squeeze, args.cut_seconds)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
