"""A command for a table that another process runs is checked for a table that exists before it goes
there (404 otherwise); a table once found is not read again, since no table is ever deleted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from croupier.server.app import Service, Settings
from croupier.server.clock import ManualClock
from croupier.server.commands import Refused
from croupier.server.models import GameTable
from tests.server.conftest import statements


def test_a_table_found_once_is_not_read_again_and_a_missing_one_is_refused_each_time(tmp_path: Path) -> None:
    async def run() -> tuple[list[str], list[int]]:
        service = Service(Settings(database=f"sqlite:///{tmp_path / 'c.db'}", run_tables=False), ManualClock())
        await service.start()
        refused: list[int] = []
        try:
            async with service.session() as session, session.begin():
                row = GameTable(
                    name="t", game="blackjack", preset="live-online", overrides={}, min_bet=500, max_bet=50_000,
                    chip=100, betting_seconds=5.0, decision_seconds=10.0, mode="rng",
                )  # fmt: skip
                session.add(row)
                await session.flush()
                table_id = row.id
            with statements() as seen:
                for _ in range(3):
                    await service._known_table(table_id)
                for _ in range(2):
                    with pytest.raises(Refused) as refusal:
                        await service._known_table(table_id + 1)
                    refused.append(refusal.value.status)
        finally:
            await service.stop()
        return [sql for sql in seen if "FROM game_tables" in sql], refused

    reads, refused = asyncio.run(run())
    assert len(reads) == 3  # the table once, the missing one each time
    assert refused == [404, 404]
