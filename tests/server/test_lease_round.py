"""A process's lease round (``Service.lease_round``): its tables' leases renewed by one statement, the
transaction's last, so that the rows every table's writes read (fence.py) are held as briefly as can be;
a lease of its own that ran out is renewed, not taken anew (which would fence off its own table); a
table whose lease went to another process stops here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
    assert [s for s in seen if s not in ("BEGIN", "BEGIN (implicit)")][-2:] == [renewals[0], "COMMIT"] or (
        seen[-1] == renewals[0]  # the driver's COMMIT is not a statement of its own on every database
    ), seen
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
