"""The bet groups of several tables that wait together are taken in one transaction on SQLite
(croupier.server.bet_batches): every answer after the commit; a batch that cannot be taken whole keeps
nothing, and each table then takes its group alone, as without a batcher."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from sqlalchemy import event, func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from croupier.server import db
from croupier.server.bet_batches import Batcher
from croupier.server.commands import Command, Refused
from croupier.server.models import BetRecord, GameTable
from tests.server.conftest import Server
from tests.server.test_group_commit import commits, identities, leave_ben_five

MACAU, ONLINE, BACCARAT = 1, 2, 4  # the demo's macau-1, online-1 and baccarat-1


def batched(server: Server, bets: list[tuple[int, str, str, str]]) -> list[dict[str, Any] | Refused]:
    """``bets`` (table, player, spot, amount) put on their tables' queues while the batcher is held, so that
    every group waits for it together; then the batcher let go. Each bet's answer, or its refusal."""
    who = identities(server, [player for _table, player, _spot, _amount in bets])
    batcher = server.service.batcher
    assert batcher is not None
    tables = {table for table, *_rest in bets}

    async def run() -> list[Any]:
        hold = asyncio.Event()
        batcher.task = asyncio.create_task(hold.wait())  # (the batcher is busy: the groups wait)
        commands = []
        for table, player, spot, amount in bets:
            command = Command("bet", who[player], {"spot": spot, "amount": amount}, key=uuid.uuid4().hex)
            server.service.actors[table].queue.put_nowait(command)
            commands.append(command)
        async with asyncio.timeout(20):
            while {job.actor.table_id for job in batcher.waiting} != tables:
                await asyncio.sleep(0.01)
        hold.set()
        await batcher.task
        batcher.task = asyncio.create_task(batcher._drain())
        return await asyncio.gather(*(command.future for command in commands), return_exceptions=True)

    answers = server.client.portal.call(run)
    server.quiet()
    return list(answers)


def bet_records(server: Server) -> int:
    async def count() -> int:
        async with server.service.reader() as session:
            return int(await session.scalar(select(func.count()).select_from(BetRecord)) or 0)

    return int(server.client.portal.call(count))


def the_batcher(server: Server) -> Batcher:
    assert server.service.batcher is not None
    return server.service.batcher


def test_the_groups_of_three_tables_waiting_together_are_taken_in_one_transaction(sqlite_server: Server) -> None:
    server = sqlite_server
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    with commits() as seen:
        answers = batched(
            server,
            [
                (MACAU, "ana", "1", "10"),
                (ONLINE, "ben", "2", "20"),
                (ONLINE, "chen", "3", "30"),
                (BACCARAT, "ana", "player", "40"),
            ],
        )
    assert all(isinstance(a, dict) and a["accepted"] for a in answers), answers
    assert len(seen) == 1  # one commit for the three tables' four bets
    assert the_batcher(server).batches == 1
    assert [server.balance(h) for h in players.values()] == ["950.00", "980.00", "970.00"]
    assert [a["balance"] for a in answers if isinstance(a, dict)] == ["990.00", "980.00", "970.00", "950.00"]
    assert server.view(ONLINE)["seats"] == {"2": "ben", "3": "chen"}
    assert server.view(MACAU)["seats"] == {"1": "ana"}
    assert bet_records(server) == 4
    rounds = {a["round"] for a in answers if isinstance(a, dict)}
    assert len(rounds) == 3  # each table's own round record


def test_a_player_short_in_a_batch_is_found_by_the_tables_alone(sqlite_server: Server) -> None:
    """ben has 5.00: the batch's one update would leave his wallet below zero, so nothing of the batch is
    kept; each table then takes its group alone, and only ben's bet is refused, his seat not taken."""
    server = sqlite_server
    leave_ben_five(server)
    ana, ben = server.login("ana"), server.login("ben")
    answers = batched(server, [(MACAU, "ana", "1", "10"), (ONLINE, "ben", "2", "20")])
    assert isinstance(answers[0], dict) and answers[0]["balance"] == "990.00", answers
    assert isinstance(answers[1], Refused) and "balance is 5.00" in str(answers[1])
    assert the_batcher(server).batches == 0
    assert server.balance(ana) == "990.00" and server.balance(ben) == "5.00"
    assert server.view(ONLINE)["seats"] == {}
    assert bet_records(server) == 1


def test_a_batch_whose_commit_fails_keeps_nothing_and_the_tables_take_their_groups_alone(
    sqlite_server: Server,
) -> None:
    """All or nothing: the batch's commit fails (the disk, say); nothing of it is kept, no seat stays
    taken, and each table takes its group alone: every bet is taken once, none twice."""
    server = sqlite_server
    players = {name: server.login(name) for name in ("ana", "ben")}
    batcher = the_batcher(server)
    real = batcher.sessions

    def failing() -> Any:
        session = real()

        @event.listens_for(session.sync_session, "before_commit")
        def _fail(_session: Session) -> None:
            raise OperationalError("COMMIT", None, Exception("disk I/O error"))

        return session

    batcher.sessions = failing
    try:
        answers = batched(server, [(MACAU, "ana", "1", "10"), (ONLINE, "ben", "2", "20"), (ONLINE, "ana", "3", "30")])
    finally:
        batcher.sessions = real
    assert all(isinstance(a, dict) and a["accepted"] for a in answers), answers
    assert batcher.batches == 0
    assert [server.balance(h) for h in players.values()] == ["960.00", "980.00"]
    assert server.view(ONLINE)["seats"] == {"2": "ben", "3": "ana"}
    assert bet_records(server) == 3


def test_a_table_whose_lease_went_elsewhere_takes_nothing_and_the_others_bets_stand(sqlite_server: Server) -> None:
    """The batch reads every table's lease epoch: one table's went to another process, so the batch is taken
    apart; that table's own transaction finds it (nothing written, the table stops), the other's bet stands."""
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")

    async def take_over() -> None:
        async with server.service.session() as session, session.begin():
            await session.execute(update(GameTable).where(GameTable.id == ONLINE).values(epoch=GameTable.epoch + 1))

    server.client.portal.call(take_over)
    answers = batched(server, [(MACAU, "ana", "1", "10"), (ONLINE, "ben", "2", "20")])
    assert isinstance(answers[0], dict) and answers[0]["accepted"], answers
    assert not isinstance(answers[1], dict), answers  # refused: nothing of it was written
    assert the_batcher(server).batches == 0
    assert server.balance(ana) == "990.00" and server.balance(ben) == "1000.00"
    assert bet_records(server) == 1


def test_a_table_stopped_while_its_group_is_in_a_batch_answers_what_the_batch_took(sqlite_server: Server) -> None:
    """A table is stopped (a shutdown, its close) while its group waits in a batch for the write gate: the
    stop waits for the batch, and the bets it committed are answered as taken, not as 'nothing was changed'
    (a later start of the table voids the round and returns them, as for any round a stop interrupts)."""
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    who = identities(server, ["ana", "ben"])
    batcher = the_batcher(server)
    assert server.service.engine is not None
    gate = db.GATES[server.service.engine.sync_engine]

    async def run() -> tuple[bool, list[Any]]:
        await gate.turns.acquire(True)  # the gate held: the batch waits at its BEGIN
        hold = asyncio.Event()
        batcher.task = asyncio.create_task(hold.wait())
        commands = []
        for table, player, spot in ((MACAU, "ana", "1"), (ONLINE, "ben", "2")):
            command = Command("bet", who[player], {"spot": spot, "amount": "10"}, key=uuid.uuid4().hex)
            server.service.actors[table].queue.put_nowait(command)
            commands.append(command)
        async with asyncio.timeout(20):
            while len(batcher.waiting) < 2:
                await asyncio.sleep(0.01)
            hold.set()
            await batcher.task
            batcher.task = asyncio.create_task(batcher._drain())
            while not gate.turns.waiting:  # the batch at the gate
                await asyncio.sleep(0.01)
        stopping = asyncio.create_task(server.service.actors[ONLINE].stop())
        await asyncio.sleep(0.2)
        waited = not stopping.done()
        gate.turns.release()
        async with asyncio.timeout(20):
            await stopping
            answers = await asyncio.gather(*(command.future for command in commands), return_exceptions=True)
        return waited, list(answers)

    waited, answers = server.client.portal.call(run)
    assert waited  # the stop waited for the batch
    assert all(isinstance(a, dict) and a["accepted"] for a in answers), answers
    assert batcher.batches == 1
    assert server.balance(ana) == "990.00" and server.balance(ben) == "990.00"
    assert bet_records(server) == 2
