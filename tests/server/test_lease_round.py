"""A process's lease round (``Service.lease_round``): its tables' leases renewed by one statement, the
transaction's last, so that the rows every table's writes read (fence.py) are held as briefly as can be;
a lease of its own that ran out is renewed, not taken anew (which would fence off its own table); a
table whose lease went to another process stops here; a table whose task ended is given up and started
again by the same round; a lease round that fails changes nothing of what the process runs."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from croupier.server.models import GameTable
from tests.server.conftest import Server, statements


def leases(server: Server) -> dict[int, tuple[str | None, datetime | None, int]]:
    async def read() -> dict[int, tuple[str | None, datetime | None, int]]:
        async with server.service.session() as session:
            rows = (
                await session.execute(select(GameTable.id, GameTable.owner, GameTable.lease_until, GameTable.epoch))
            ).all()
        return {row.id: (row.owner, row.lease_until, row.epoch) for row in rows}

    return dict(server.client.portal.call(read))


def aware(moment: datetime | None) -> datetime:
    assert moment is not None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def set_leases(server: Server, table_ids: list[int], **values: object) -> None:
    async def write() -> None:
        async with server.service.session() as session, session.begin():
            await session.execute(update(GameTable).where(GameTable.id.in_(table_ids)).values(**values))

    server.client.portal.call(write)


def test_a_lease_round_renews_every_table_by_one_statement_its_last(server: Server) -> None:
    tables = sorted(server.service.actors)
    assert len(tables) >= 3
    before = leases(server)
    with statements() as seen:
        server.client.portal.call(server.service.lease_round)
    renewals = [s for s in seen if s.startswith("UPDATE game_tables SET lease_until")]
    assert len(renewals) == 1, renewals
    assert seen[-1] == renewals[0], seen  # the last statement before the commit
    after = leases(server)
    me = server.service.hub.process
    for table_id in tables:
        assert after[table_id][0] == me and after[table_id][2] == before[table_id][2]
        assert aware(after[table_id][1]) > aware(before[table_id][1])


def test_a_lease_of_its_own_that_ran_out_is_renewed_not_taken_anew(server: Server) -> None:
    """The process was too busy to renew in time, and no other took the tables: it keeps them, the same
    actors, the same epochs (a new epoch would fence off its own tables' writes)."""
    actors = dict(server.service.actors)
    before = leases(server)
    set_leases(server, list(actors), lease_until=datetime.now(UTC) - timedelta(seconds=30))
    server.client.portal.call(server.service.lease_round)
    after = leases(server)
    assert server.service.actors == actors
    for table_id in actors:
        assert after[table_id][2] == before[table_id][2], "a new epoch: the table was taken anew"
        assert aware(after[table_id][1]) > datetime.now(UTC)


def test_a_table_whose_lease_went_elsewhere_stops_here(server: Server) -> None:
    taken = min(server.service.actors)
    actor = server.service.actors[taken]
    set_leases(server, [taken], owner="another-process", lease_until=datetime.now(UTC) + timedelta(seconds=30))
    server.client.portal.call(server.service.lease_round)
    assert taken not in server.service.actors
    assert actor.task is None or actor.task.done()
    assert leases(server)[taken][0] == "another-process"


def dead(server: Server, table_id: int) -> object:
    """The table's task ended unasked (cancelled); its actor, still in the service's actors."""
    loop = server.service._leases  # the lease loop's own rounds (the watchdog's at once) are not what is tested
    assert loop is not None
    server.client.portal.call(loop.cancel)
    actor = server.service.actors[table_id]
    assert actor.task is not None
    server.client.portal.call(actor.task.cancel)
    deadline = time.monotonic() + 5
    while not actor.task.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert actor.task.done()
    return actor


def test_a_table_whose_task_ended_is_given_up_and_started_again_by_one_lease_round(server: Server) -> None:
    table = min(server.service.actors)
    before = leases(server)[table]
    old = dead(server, table)
    server.client.portal.call(server.service.lease_round)
    fresh = server.service.actors.get(table)
    assert fresh is not None and fresh is not old
    owner, _until, epoch = leases(server)[table]
    assert owner == server.service.hub.process and epoch == before[2] + 1  # taken anew: the old actor fenced off


def test_a_lease_round_that_fails_changes_nothing_of_what_the_process_runs(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round's transaction fails (the database, a deadlock): the table whose task ended is still the
    process's to give up, and the next round does it."""
    table = min(server.service.actors)
    old = dead(server, table)
    actors = dict(server.service.actors)
    service = type(server.service)
    real = service._share

    async def failing(self: object, *args: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "_share", failing)
    with pytest.raises(RuntimeError):
        server.client.portal.call(server.service.lease_round)
    assert server.service.actors == actors and server.service.actors[table] is old
    monkeypatch.setattr(service, "_share", real)
    server.client.portal.call(server.service.lease_round)
    fresh = server.service.actors.get(table)
    assert fresh is not None and fresh is not old
