"""Supervisors open, change and close tables, with SQLite and with PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.transcript import replay
from tests.server.conftest import Server, statements

ONLINE = 2


def table(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "vip-1",
        "game": "blackjack",
        "preset": "macau-1983",
        "overrides": {"decks": "1"},  # Macau's single deck: one round per shuffle, so every round is a new shoe
        "min_bet": "20",
        "max_bet": "2000",
        "chip": "1",
        "betting_seconds": 10,
        "decision_seconds": 10,
    }
    body.update(changes)
    return body


def lobby_entry(server: Server, name: str) -> dict[str, Any]:
    return next(t for t in server.client.get("/api/tables").json() if t["name"] == name)


def create(server: Server, sam: dict[str, str], **changes: Any) -> dict[str, Any]:
    answer = server.client.post("/api/tables", json=table(**changes), headers=sam)
    assert answer.status_code == 201, answer.text
    server.quiet()
    return dict(answer.json())


def test_a_supervisor_opens_a_table_and_it_runs_at_once(server: Server) -> None:
    sam = server.login("sam")
    made = create(server, sam, mode="live", dealer="dora", live_edges=True)
    assert made["status"] == "open" and made["dealer"] == "dora" and made["live_edges"] is True
    assert made["min_bet"] == "20.00" and made["chip"] == "1.00" and made["pending"] == []
    entry = lobby_entry(server, "vip-1")
    assert entry["id"] == made["id"] and entry["status"] == "open" and entry["phase"] == "betting"
    assert entry["rules"] == "macau-1983" and entry["parameters"]["decks"] == "1" and entry["mode"] == "live"
    assert made["id"] in server.service.actors
    settings = server.client.get(f"/api/tables/{made['id']}/settings", headers=sam)
    assert settings.status_code == 200 and settings.json() == made


def test_only_a_supervisor_runs_the_tables(server: Server) -> None:
    for name in ("ana", "dora", "cole"):
        who = server.login(name)
        answer = server.client.post("/api/tables", json=table(), headers=who)
        assert answer.status_code == 403 and "only a supervisor may open a table" in answer.json()["error"]
        assert server.client.patch(f"/api/tables/{ONLINE}", json={"min_bet": "10"}, headers=who).status_code == 403
        assert server.client.delete(f"/api/tables/{ONLINE}", headers=who).status_code == 403
        assert server.client.get(f"/api/tables/{ONLINE}/changes", headers=who).status_code == 403
    assert server.client.post("/api/tables", json=table()).status_code == 401


REFUSALS: list[tuple[dict[str, Any], int, str]] = [
    ({"game": "poker"}, 422, "game: 'poker' is not a game here"),
    ({"preset": "vegas"}, 422, "unknown blackjack preset 'vegas'"),
    ({"overrides": {"decks": "99"}}, 422, "decks"),
    ({"overrides": {"no_such_rule": "1"}}, 422, "no_such_rule"),
    ({"min_bet": "500", "max_bet": "100"}, 422, "min_bet 500.00 is above max_bet 100.00"),
    ({"chip": "25", "min_bet": "30"}, 422, "min_bet 30.00 is not a whole number of the table's 25.00 chips"),
    ({"name": "online-1"}, 409, "a table named 'online-1' exists already"),
    ({"dealer": "sam"}, 422, "dealer: sam is a supervisor, not a dealer"),
    ({"dealer": "nobody"}, 422, "dealer: no account 'nobody'"),
    ({"mode": "telepathy"}, 422, "mode"),
    ({"squeeze_seconds": 5}, 422, "squeeze_seconds"),
    ({"chip": "0.01", "min_bet": "1", "max_bet": "10"}, 422, "a blackjack pays 3:2 (Art. 6; online §2.3)"),
    (
        {"game": "baccarat", "preset": "macau", "overrides": {}, "chip": "0.10", "min_bet": "0.10", "max_bet": "10"},
        422,
        "a banker win pays 0.95:1",
    ),
    ({"min_bet": "abc"}, 422, "min_bet"),
]


def test_settings_the_rules_refuse_name_the_reason(server: Server) -> None:
    sam = server.login("sam")
    for changes, status, reason in REFUSALS:
        answer = server.client.post("/api/tables", json=table(**changes), headers=sam)
        assert answer.status_code == status, (changes, answer.text)
        assert reason in answer.json()["error"], (changes, answer.text)
    assert [t["name"] for t in server.client.get("/api/tables").json()].count("vip-1") == 0


def test_a_change_waits_for_the_next_shoe(server: Server) -> None:
    sam, ana = server.login("sam"), server.login("ana")
    table_id = create(server, sam)["id"]
    assert server.bet(ana, table_id, "1", "20").status_code == 200
    changed = server.client.patch(
        f"/api/tables/{table_id}", json={"min_bet": "50", "overrides": {"decks": "1", "bonus_777": "none"}}, headers=sam
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["applies"] == "next_shoe"
    assert changed.json()["table"]["pending"][0]["settings"] == {
        "min_bet": "50.00",
        "overrides": {"decks": "1", "bonus_777": "none"},
    }
    # the round with its bet goes on under the settings it began with
    assert lobby_entry(server, "vip-1")["min_bet"] == "20.00"
    assert server.view(table_id)["rules"]["bonus_777"] == "3:1"
    server.advance(10)
    server.play_out(table_id, {"ana": ana})
    server.advance(0)
    # one deck: the next round is a new shoe, dealt under the new settings
    entry = lobby_entry(server, "vip-1")
    assert entry["min_bet"] == "50.00" and entry["parameters"]["bonus_777"] == "none"
    assert server.view(table_id)["rules"]["bonus_777"] == "none"
    low = server.bet(ana, table_id, "1", "20")
    assert low.status_code == 409
    log = server.client.get(f"/api/tables/{table_id}/changes", headers=sam).json()
    assert [c["kind"] for c in log] == ["create", "change"]
    assert log[1]["by"] == "sam" and log[1]["applied_at"] is not None
    assert log[1]["previous"] == {"min_bet": "20.00", "overrides": {"decks": "1"}}
    # the round dealt before the change still replays under the rules it was dealt with
    round_id = server.client.get("/api/history", headers=ana).json()[0]["round"]
    document = server.client.get(f"/api/rounds/{round_id}/transcript", headers=sam).json()
    assert document["overrides"].get("bonus_777", "3:1") == "3:1"
    result = replay(json.loads(json.dumps(document)))
    stored = server.client.get(f"/api/rounds/{round_id}", headers=sam).json()["result"]
    assert {k: v for k, v in result["rounds"][-1].items() if k != "burned"} == stored


def test_a_round_with_nothing_pending_opens_no_writing_transaction_before_it(server: Server) -> None:
    """Between two rounds the table looks for a close or a pending change: when there is neither, it only
    reads (on SQLite a writing transaction would wait for, and hold, the write gate every table shares)."""
    from croupier.server.tables_admin import before_round

    actor = server.service.actors[ONLINE]
    with statements() as seen:
        closed = server.client.portal.call(before_round, actor)
    writes = [s for s in seen if s.startswith(("BEGIN IMMEDIATE", "UPDATE", "INSERT")) or "FOR SHARE" in s]
    assert closed is False
    assert writes == []


def test_a_change_is_checked_like_a_new_table(server: Server) -> None:
    sam = server.login("sam")
    table_id = create(server, sam)["id"]
    for body, reason in (
        ({"min_bet": "5000"}, "min_bet 5000.00 is above max_bet 2000.00"),
        ({"chip": "0.01"}, "would be paid 0.015"),
        ({"name": "other"}, "a table's name is fixed"),
        ({"game": "baccarat"}, "a table's game is fixed"),
        ({"dealer": "ana"}, "dealer: ana is a player, not a dealer"),
        ({"min_bet": "20.00"}, "nothing to change"),
    ):
        answer = server.client.patch(f"/api/tables/{table_id}", json=body, headers=sam)
        assert answer.status_code == 422 and reason in answer.json()["error"], (body, answer.text)
    # pending changes add up: a second change is checked against the first
    assert server.client.patch(f"/api/tables/{table_id}", json={"max_bet": "100"}, headers=sam).status_code == 200
    answer = server.client.patch(f"/api/tables/{table_id}", json={"min_bet": "200"}, headers=sam)
    assert answer.status_code == 422 and "above max_bet 100.00" in answer.json()["error"]
    assert server.client.patch("/api/tables/999", json={"min_bet": "10"}, headers=sam).status_code == 404


def test_closing_finishes_the_round_then_stops_the_table(server: Server) -> None:
    sam, ana = server.login("sam"), server.login("ana")
    table_id = create(server, sam)["id"]
    assert server.bet(ana, table_id, "1", "20").status_code == 200
    closed = server.client.delete(f"/api/tables/{table_id}", headers=sam)
    assert closed.status_code == 202 and closed.json() == {"id": table_id, "name": "vip-1", "status": "closing"}
    late = server.bet(ana, table_id, "2", "20")
    assert late.status_code == 409 and "closing: it takes no new bets" in late.json()["error"]
    again = server.client.delete(f"/api/tables/{table_id}", headers=sam)
    assert again.status_code == 409 and "closing already" in again.json()["error"]
    server.advance(10)
    server.play_out(table_id, {"ana": ana})
    server.advance(0)
    entry = lobby_entry(server, "vip-1")
    assert entry["status"] == "closed" and entry["phase"] == "closed"
    history = server.client.get("/api/history", headers=ana).json()
    assert history[0]["table"] == "vip-1" and history[0]["status"] == "settled"
    server.client.portal.call(server.service.lease_round)
    assert table_id not in server.service.actors
    refused = server.bet(ana, table_id, "1", "20")
    assert refused.status_code in (409, 503)
    # a closed table changes at once, and may be reopened
    changed = server.client.patch(f"/api/tables/{table_id}", json={"max_bet": "1000"}, headers=sam)
    assert changed.status_code == 200 and changed.json()["applies"] == "now"
    reopened = server.client.post(f"/api/tables/{table_id}/reopen", headers=sam)
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    server.quiet()
    entry = lobby_entry(server, "vip-1")
    assert entry["phase"] == "betting" and entry["max_bet"] == "1000.00"
    assert server.bet(ana, table_id, "1", "20").status_code == 200
    server.advance(10)
    server.play_out(table_id, {"ana": ana})
    log = server.client.get(f"/api/tables/{table_id}/changes", headers=sam).json()
    assert [c["kind"] for c in log] == ["create", "close", "change", "reopen"]
    assert all(c["applied_at"] for c in log)


def test_an_idle_table_closes_at_once(server: Server) -> None:
    sam = server.login("sam")
    closed = server.client.delete(f"/api/tables/{ONLINE}", headers=sam)
    assert closed.status_code == 202
    server.quiet()
    assert lobby_entry(server, "online-1")["status"] == "closed"
    reopen = server.client.post(f"/api/tables/{ONLINE}/reopen", headers=sam)
    assert reopen.status_code == 200
    server.quiet()
    assert lobby_entry(server, "online-1")["phase"] == "betting"
    assert server.client.post(f"/api/tables/{ONLINE}/reopen", headers=sam).status_code == 409


def test_the_migration_keeps_the_rules_of_the_shoes_already_dealt(tmp_path: Any) -> None:
    """Revision 0002 writes each existing shoe's rules down: a later change of its table leaves them be."""
    import asyncio

    import sqlalchemy as sa
    from alembic import command

    from croupier.server.db import _alembic_config, make_engine

    url = f"sqlite:///{tmp_path / 'old.db'}"

    def upgrade(connection: Any, target: str) -> None:
        config = _alembic_config(url)
        config.attributes["connection"] = connection
        command.upgrade(config, target)

    def downgrade(connection: Any, target: str) -> None:
        config = _alembic_config(url)
        config.attributes["connection"] = connection
        command.downgrade(config, target)

    async def run() -> Any:
        engine = make_engine(url)
        async with engine.begin() as connection:
            await connection.run_sync(upgrade, "0001")
            await connection.execute(
                sa.text(
                    "INSERT INTO game_tables (id, name, game, preset, overrides, min_bet, max_bet, chip, "
                    "betting_seconds, decision_seconds, mode) VALUES (1, 't', 'blackjack', 'live-online', "
                    "'{\"decks\": \"6\"}', 500, 50000, 100, 15, 20, 'rng')"
                )
            )
            await connection.execute(
                sa.text(
                    "INSERT INTO shoes (id, table_id, mode, client_seed, nonce, started_at) "
                    "VALUES (1, 1, 'fair', 'table-1', 1, '2026-01-01 00:00:00')"
                )
            )
        async with engine.begin() as connection:
            await connection.run_sync(upgrade, "head")
            rules = (await connection.execute(sa.text("SELECT rules FROM shoes"))).scalar_one()
            status = (await connection.execute(sa.text("SELECT status, live_edges FROM game_tables"))).one()
        async with engine.begin() as connection:  # and back: the old schema, the shoes still there
            await connection.run_sync(downgrade, "0001")
            assert (await connection.execute(sa.text("SELECT count(*) FROM shoes"))).scalar_one() == 1
        await engine.dispose()
        return rules, status

    rules, status = asyncio.run(run())
    assert json.loads(rules) == {"preset": "live-online", "overrides": {"decks": "6"}, "min_bet": 500, "max_bet": 50000}
    assert tuple(status) == ("open", 0)


def test_online_2_5_1_a_table_may_round_insurance_up_to_its_chip(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Online §2.5.1: where the table's smallest chip cannot make exactly half the bet, the table may take
    the next chip above. A bet of 5 with a 1.00 chip: insurance up to 3, not 2.50."""
    from croupier.cards import DECK, Card
    from croupier.server import games
    from croupier.shoe import Shoe

    top = [Card.parse(c) for c in ("2C", "3C", "4C", "5C", "6C", "7C", "9H", "AS", "7D", "5D")]
    rest = list(DECK * 8)
    for card in top:
        rest.remove(card)
    monkeypatch.setattr(games.BlackjackDriver, "build", lambda self, *args: Shoe.stacked(8, top + rest))
    sam, ana = server.login("sam"), server.login("ana")
    made = create(
        server,
        sam,
        name="online-chip",
        preset="live-online",
        overrides={},
        min_bet="5",
        max_bet="500",
        insurance_to_chip=True,
    )
    assert made["insurance_to_chip"] is True
    table_id = made["id"]
    assert server.bet(ana, table_id, "1", "5").status_code == 200
    server.advance(10)
    offers = [a for a in server.view(table_id, ana)["your_actions"] if a["type"] == "insurance"]
    assert offers and offers[0]["max_amount"] == "3"
    taken = server.act(ana, table_id, {"type": "insurance", "box": 1, "amount": "3"})
    assert taken.status_code == 200, taken.text
    server.play_out(table_id, {"ana": ana})


def test_the_migration_moves_the_money_in_play_to_each_tables_own_wallet(tmp_path: Any) -> None:
    """Revision 0008: a table's unfinished round's bets, on the one ``in_play`` wallet of before, move to the
    table's own by a balanced transaction; the ledger's sums hold, and the way back folds them home again."""
    import asyncio

    import sqlalchemy as sa
    from alembic import command

    from croupier.server.db import _alembic_config, make_engine

    url = f"sqlite:///{tmp_path / 'old.db'}"

    def migrate(connection: Any, target: str, down: bool = False) -> None:
        config = _alembic_config(url)
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, target)

    async def run() -> Any:
        engine = make_engine(url)
        async with engine.begin() as connection:
            await connection.run_sync(migrate, "0007_idempotency_scope")
            for statement in (
                "INSERT INTO accounts (id, name, password_hash, role, created_at, name_key) "
                "VALUES (1, 'ana', 'x', 'player', '2026-01-01 00:00:00', 'ana')",
                "INSERT INTO wallets (id, kind, account_id, balance) VALUES (1, 'player', 1, 900), "
                "(2, 'in_play', NULL, 100), (3, 'cashier', NULL, -1000)",
                "INSERT INTO game_tables (id, name, game, preset, overrides, min_bet, max_bet, chip, "
                "betting_seconds, decision_seconds, mode) VALUES (7, 't', 'blackjack', 'live-online', '{}', "
                "500, 50000, 100, 15, 20, 'rng')",
                "INSERT INTO shoes (id, table_id, mode, client_seed, nonce, started_at) "
                "VALUES (1, 7, 'fair', 'table-7', 1, '2026-01-01 00:00:00')",
                "INSERT INTO rounds (id, table_id, shoe_id, number, status, started_at, log) "
                "VALUES (1, 7, 1, 1, 'playing', '2026-01-01 00:00:00', '[]')",
                "INSERT INTO ledger_transactions (id, kind, created_at, memo) VALUES "
                "(1, 'deposit', '2026-01-01 00:00:00', ''), (2, 'bet', '2026-01-01 00:00:00', '')",
                "INSERT INTO ledger_entries (transaction_id, wallet_id, amount) VALUES (1, 1, 1000), (1, 3, -1000), "
                "(2, 1, -100), (2, 2, 100)",
                "INSERT INTO bets (round_id, account_id, kind, spot, amount, balance_after, transaction_id, "
                "created_at) VALUES (1, 1, 'bet', '1', 100, 900, 2, '2026-01-01 00:00:00')",
            ):
                await connection.execute(sa.text(statement))
        async with engine.begin() as connection:
            await connection.run_sync(migrate, "head")
            wallets = (
                await connection.execute(sa.text("SELECT kind, table_id, balance FROM wallets ORDER BY id"))
            ).all()
            moved = (
                await connection.execute(
                    sa.text("SELECT SUM(e.amount) FROM ledger_entries e JOIN wallets w ON w.id = e.wallet_id")
                )
            ).scalar_one()
        async with engine.begin() as connection:
            await connection.run_sync(migrate, "0007_idempotency_scope", True)
            back = (await connection.execute(sa.text("SELECT kind, balance FROM wallets ORDER BY id"))).all()
        await engine.dispose()
        return wallets, moved, back

    wallets, moved, back = asyncio.run(run())
    assert [tuple(w) for w in wallets] == [
        ("player", None, 900),
        ("in_play", None, 0),
        ("cashier", None, -1000),
        ("in_play", 7, 100),
    ]
    assert moved == 0
    assert [tuple(w) for w in back] == [("player", 900), ("in_play", 100), ("cashier", -1000)]
