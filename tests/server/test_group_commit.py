"""Bets that wait on a table's queue together are taken together (croupier.server.betting): one database
transaction, each bet checked against the bets before it and staked in a savepoint of its own, every
answer sent after the commit. A bet refused in the group (its player's balance; a rule that the bets
before it make bite) leaves nothing and the others stand; a commit that fails keeps nothing of the group,
and every bet of it is answered."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from croupier.server.auth import Identity
from croupier.server.commands import Command, Refused
from croupier.server.models import Account, BetRecord, Entry, LedgerTransaction, Settlement, Wallet
from tests.server.conftest import Server, statements

TABLE = 2  # online-1 (live-online blackjack): 5.00-500.00, chip 1.00


def identities(server: Server, names: list[str]) -> dict[str, Identity]:
    async def read() -> dict[str, Identity]:
        async with server.service.reader() as session:
            rows = (await session.execute(select(Account.name, Account.id).where(Account.name.in_(names)))).all()
        return {name: Identity(account_id, name, "player") for name, account_id in rows}

    return dict(server.client.portal.call(read))


def together(server: Server, bets: list[tuple[str, str, str]]) -> list[dict[str, Any] | Refused]:
    """``bets`` (player, box, amount) put on the table's queue in one turn of its event loop, so that they
    wait there together; each one's answer, or its refusal."""
    return keyed_together(server, [(player, box, amount, uuid.uuid4().hex) for player, box, amount in bets])


def keyed_together(server: Server, bets: list[tuple[str, str, str, str]]) -> list[dict[str, Any] | Refused]:
    """As :func:`together`, each bet (player, box, amount, key) under the key given."""
    who = identities(server, [player for player, _box, _amount, _key in bets])
    actor = server.service.actors[TABLE]

    async def run() -> list[Any]:
        commands = [Command("bet", who[p], {"spot": box, "amount": amount}, key=key) for p, box, amount, key in bets]
        for command in commands:
            actor.queue.put_nowait(command)
        return await asyncio.gather(*(command.future for command in commands), return_exceptions=True)

    answers = server.client.portal.call(run)
    server.quiet()
    return list(answers)


@contextmanager
def commits() -> Iterator[list[int]]:
    """The database transactions committed meanwhile (every table but the one under test waits)."""
    seen: list[int] = []

    def count(_connection: Connection) -> None:
        seen.append(1)

    event.listen(Engine, "commit", count)  # a database COMMIT (a savepoint's release is none)
    try:
        yield seen
    finally:
        event.remove(Engine, "commit", count)


def table_bets(server: Server) -> dict[str, dict[str, str]]:
    view = server.view(TABLE)
    return {str(box["box"]): dict(box["bets"]) for box in view["round"]["boxes"] if box["bets"]}


def leave_ben_five(server: Server) -> None:
    """The cashier pays ben out all but 5.00 of his 1,000.00."""
    cole = server.login("cole")
    drained = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "ben", "amount": "995"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert drained.status_code == 200, drained.text


def test_bets_that_wait_together_are_taken_in_one_transaction(server: Server) -> None:
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    with commits() as seen:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "30")])
    assert [a["balance"] for a in answers if isinstance(a, dict)] == ["990.00", "980.00", "970.00"], answers
    assert len(seen) == 1  # one commit for the three bets
    assert table_bets(server) == {"1": {"ana": "10"}, "2": {"ben": "20"}, "3": {"chen": "30"}}
    assert server.view(TABLE)["seats"] == {"1": "ana", "2": "ben", "3": "chen"}
    assert [server.balance(h) for h in players.values()] == ["990.00", "980.00", "970.00"]


def test_a_bet_of_a_group_is_checked_against_the_bets_before_it(server: Server) -> None:
    """Art. 2.3: one bet per player per box. Alone, ana's second bet on box 1 is legal; after her first, in
    the same group, it is refused, and only it: ben's bet after it stands."""
    ana = server.login("ana")
    answers = together(server, [("ana", "1", "10"), ("ana", "1", "20"), ("ben", "2", "10")])
    assert isinstance(answers[0], dict) and isinstance(answers[2], dict), answers
    assert isinstance(answers[1], Refused) and "one bet per player per box (Art. 2.3)" in str(answers[1])
    assert table_bets(server) == {"1": {"ana": "10"}, "2": {"ben": "10"}}
    assert server.balance(ana) == "990.00"


def test_a_bet_its_balance_cannot_cover_is_refused_alone_in_its_group(server: Server) -> None:
    leave_ben_five(server)
    ben = server.login("ben")
    with commits() as seen:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "10"), ("chen", "3", "10")])
    assert isinstance(answers[1], Refused) and answers[1].status == 409 and "balance is 5.00" in str(answers[1])
    assert isinstance(answers[0], dict) and isinstance(answers[2], dict), answers
    assert len(seen) == 1
    assert table_bets(server) == {"1": {"ana": "10"}, "3": {"chen": "10"}}
    assert server.view(TABLE)["seats"] == {"1": "ana", "3": "chen"}  # ben's refused bet took no seat
    assert server.balance(ben) == "5.00"


def test_a_groups_money_moves_by_one_statement(server: Server) -> None:
    """Three players' bets: every wallet they move (theirs and the table's money in play) by one UPDATE, and
    their three ledger transactions by one INSERT (a player's two bets in one group: test_postings.py)."""
    server.login("ana")
    with statements() as seen:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "40")])
    assert [a["balance"] for a in answers if isinstance(a, dict)] == ["990.00", "980.00", "960.00"], answers
    assert len([s for s in seen if "UPDATE wallets" in s]) == 1, seen
    assert len([s for s in seen if "INSERT INTO ledger_transactions" in s]) == 1, seen


def test_a_groups_writes_on_postgresql_are_two_statements(server: Server) -> None:
    """On PostgreSQL a group's wallets are locked and moved by one statement, and its ledger transactions,
    their entries, the bets and the stored answers inserted by one more (croupier.server.pgbatch); nothing
    else is sent but the lease's fence (and, for a round's first bets, the round's record)."""
    if server.service.engine is None or server.service.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only: SQLite keeps its plain statements (test_a_groups_money_moves_by_one_statement)")
    together(server, [("ana", "1", "10")])  # the round's record made before
    with statements() as seen:
        answers = together(server, [("ben", "2", "20"), ("chen", "3", "40")])
    assert [a["balance"] for a in answers if isinstance(a, dict)] == ["980.00", "960.00"], answers
    reads = (
        "SELECT game_tables.epoch",
        "SELECT accounts.name",
        "SELECT wallets.id FROM wallets WHERE wallets.account_id",
    )
    writes = [s for s in seen if not s.startswith(reads)]  # the fence, the test's names, a wallet's id found once
    assert len(writes) == 2, seen
    assert "FOR UPDATE" in writes[0] and "UPDATE wallets" in writes[0], writes
    for table in ("ledger_transactions", "ledger_entries", "bets", "idempotency"):
        assert f"INSERT INTO {table} " in writes[1], writes


def test_a_bet_refused_for_its_balance_leaves_its_box_to_the_next_bet_of_the_group(server: Server) -> None:
    """ben cannot cover his bet on box 2; chen bets on box 2 after him in the same group. Taken one by one,
    ben's refused bet takes no seat, so chen sits at box 2 (Art. 2.3) rather than betting behind ben."""
    leave_ben_five(server)
    with commits() as seen:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "10"), ("chen", "2", "10")])
    assert isinstance(answers[1], Refused) and "balance is 5.00" in str(answers[1])
    assert isinstance(answers[0], dict) and isinstance(answers[2], dict), answers
    assert len(seen) == 1
    assert server.view(TABLE)["seats"] == {"1": "ana", "2": "chen"}
    assert table_bets(server) == {"1": {"ana": "10"}, "2": {"chen": "10"}}


def test_a_group_whose_commit_fails_keeps_nothing_and_answers_every_bet(server: Server) -> None:
    """All or nothing: the commit of the group fails (the disk, say); no bet of it is kept, no money moved,
    no seat taken, and each bettor is told that nothing was changed. The table then takes bets again."""
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    actor = server.service.actors[TABLE]
    real = actor.sessions

    def failing() -> Any:
        session = real()

        @event.listens_for(session.sync_session, "before_commit")
        def _fail(_session: Session) -> None:
            raise OperationalError("COMMIT", None, Exception("disk I/O error"))

        return session

    actor.sessions = failing  # type: ignore[assignment]
    try:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "30")])
    finally:
        actor.sessions = real
    assert all(isinstance(a, Refused) and a.status == 503 for a in answers), answers
    assert all("nothing was changed" in str(a) for a in answers)
    assert [server.balance(h) for h in players.values()] == ["1000.00"] * 3
    assert table_bets(server) == {}
    assert server.view(TABLE)["seats"] == {}
    assert actor.round_id is None  # not even the round's record was kept
    again = server.bet(players["ana"], TABLE, "1", "10")
    assert again.status_code == 200 and again.json()["balance"] == "990.00", again.text


def test_a_group_every_bet_of_which_is_refused_keeps_nothing(server: Server) -> None:
    """Both bets of the group refused by the rules (below the table's 5.00 minimum): no round record, no
    money, no seat; each names its rule."""
    players = {name: server.login(name) for name in ("ana", "ben")}
    actor = server.service.actors[TABLE]
    answers = together(server, [("ana", "1", "1"), ("ben", "2", "2")])
    assert all(isinstance(a, Refused) and "the table minimum is 5" in str(a) for a in answers), answers
    assert actor.round_id is None and table_bets(server) == {} and server.view(TABLE)["seats"] == {}
    assert [server.balance(h) for h in players.values()] == ["1000.00"] * 2


def test_a_fault_in_a_group_answers_every_bet_and_returns_the_money(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine fails on the second bet after the group's commit (a fault, not a refusal): every bet of
    the group is answered (500: the round is void and its bets returned), and the money comes back."""
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    actor = server.service.actors[TABLE]
    assert actor.round is not None
    kind = type(actor.round)
    real = kind.bet
    calls = {"n": 0}

    def failing(self: Any, player: str, spot: str, amount: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 5:  # the trial takes the three bets, then the round itself: its second
            raise RuntimeError("the engine broke")
        real(self, player, spot, amount)

    monkeypatch.setattr(kind, "bet", failing)
    answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "30")])
    monkeypatch.setattr(kind, "bet", real)
    assert all(isinstance(a, Refused) and a.status == 500 for a in answers), answers
    server.advance(1)
    assert [server.balance(h) for h in players.values()] == ["1000.00"] * 3
    for _ in range(10):  # the table deals on: its next betting window takes a bet
        if server.view(TABLE)["phase"] == "betting":
            break
        server.advance(5)
    again = server.bet(players["ana"], TABLE, "1", "10")
    assert again.status_code == 200, again.text


def test_a_group_of_new_bets_reads_no_stored_answer_before_its_transaction(server: Server) -> None:
    """New keys are taken as new: the group's insert of its keys is what finds a key kept before (below), so
    no read of the stored answers goes before the transaction."""
    with statements() as seen:
        answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "40")])
    assert all(isinstance(answer, dict) for answer in answers), answers
    assert not [s for s in seen if s.startswith("SELECT") and "FROM idempotency" in s], seen


def test_a_bet_sent_again_in_a_later_group_gets_its_first_answer_and_moves_no_money(server: Server) -> None:
    """ana's bet, sent again under its key in a group with ben's new bet: the group's insert of the keys
    fails on ana's key, nothing of it is kept, and each bet is taken alone after the read of its key: ana
    gets her first answer, ben's bet stands, and ana's money moved once."""
    ana = server.login("ana")
    key = uuid.uuid4().hex
    [first] = keyed_together(server, [("ana", "1", "10", key)])
    assert isinstance(first, dict), first
    again = keyed_together(server, [("ana", "1", "10", key), ("ben", "2", "20", uuid.uuid4().hex)])
    assert again[0] == first
    assert isinstance(again[1], dict), again
    assert table_bets(server) == {"1": {"ana": "10"}, "2": {"ben": "20"}}
    assert server.balance(ana) == "990.00"
    reused = keyed_together(server, [("ana", "3", "10", key), ("chen", "3", "10", uuid.uuid4().hex)])
    assert isinstance(reused[0], Refused) and reused[0].status == 422 and "different request" in str(reused[0])
    assert isinstance(reused[1], dict), reused
    assert server.balance(ana) == "990.00"


def test_each_bet_and_settlement_names_its_own_ledger_transaction(server: Server) -> None:
    """The bets' and the settlements' records are written with the group's ledger transactions (on PostgreSQL
    in one statement, each naming its transaction by its place in the group): each names the transaction
    that moved its own money: a bet's, its player's wallet by its amount; a settlement's, the money in play
    by its player's stake (different for each player here, so a settlement that named another's
    transaction is seen whether its player won or lost) and its player's wallet by what was returned."""
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    answers = together(server, [("ana", "1", "10"), ("ben", "2", "20"), ("chen", "3", "40")])
    assert all(isinstance(answer, dict) for answer in answers), answers
    for _ in range(4):  # the betting window closes, the cards are dealt
        if server.view(TABLE)["phase"] == "playing":
            break
        server.advance(10)
    server.play_out(TABLE, players)

    async def read() -> tuple[list[Any], list[Any], dict[int, Any], dict[int, tuple[str, dict[int, int]]]]:
        async with server.service.reader() as session:
            bets = (
                await session.execute(select(BetRecord.account_id, BetRecord.amount, BetRecord.transaction_id))
            ).all()
            settled = (
                await session.execute(
                    select(Settlement.account_id, Settlement.staked, Settlement.returned, Settlement.transaction_id)
                )
            ).all()
            wallets = {
                row[0]: row[1:]
                for row in (await session.execute(select(Wallet.id, Wallet.account_id, Wallet.kind))).all()
            }
            moved: dict[int, tuple[str, dict[int, int]]] = {}
            rows = await session.execute(
                select(LedgerTransaction.id, LedgerTransaction.kind, Entry.wallet_id, Entry.amount).join(
                    Entry, Entry.transaction_id == LedgerTransaction.id
                )
            )
            for transaction, kind, wallet, amount in rows.all():
                moved.setdefault(transaction, (kind, {}))[1][wallet] = amount
        return list(bets), list(settled), wallets, moved

    bets, settled, wallets, moved = server.client.portal.call(read)
    mine = {account: wallet for wallet, (account, _kind) in wallets.items() if account is not None}
    in_play = [wallet for wallet, (account, kind) in wallets.items() if kind == "in_play" and account is None]
    assert sorted(amount for _account, amount, _tx in bets) == [1000, 2000, 4000]
    for account, amount, transaction in bets:
        kind, entries = moved[transaction]
        assert kind == "bet" and entries[mine[account]] == -amount, (account, moved[transaction])
    assert sorted(staked for _account, staked, _returned, _tx in settled) == [1000, 2000, 4000], settled
    for account, staked, returned, transaction in settled:
        kind, entries = moved[transaction]
        assert kind == "settle", (account, moved[transaction])
        assert sum(entries.get(wallet, 0) for wallet in in_play) == -staked, (account, staked, entries)
        assert entries.get(mine[account], 0) == returned, (account, returned, entries)
