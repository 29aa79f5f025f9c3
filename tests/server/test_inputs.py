"""Request inputs: no input stops a table, freezes the server, or means
two things. Each hostile request is sent through the real app; then the table must still deal a round
to its end, with no fault recorded and no stake left in play."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from croupier.errors import MoneyError, RulesError
from croupier.money import Ratio, parse_amount
from croupier.numbers import read_int
from croupier.ruleset import integer
from croupier.server.actor import TableActor
from croupier.server.betting import positive_amount
from croupier.server.commands import Refused
from croupier.server.game_round import ActionError, amount_or_none
from croupier.server.models import Wallet
from tests.server.conftest import Server

MACAU, ONLINE, LIVE, BACCARAT = 1, 2, 3, 4
HOSTILE_AMOUNTS = ["1e999998", "1e999997", "1E+999999", "١٠", "１０", "1_0", "²", "9" * 19]
"""An amount beyond what a Decimal's context multiplies (decimal.Overflow in to_minor), one whose int() is a
million digits (the event loop stalls for seconds), Arabic-Indic and full-width digits (10 to Decimal)."""


def in_play(server: Server) -> int:
    async def read() -> int:
        async with server.service.reader() as session:
            value = await session.scalar(select(func.sum(Wallet.balance)).where(Wallet.kind == "in_play"))
            return int(value or 0)

    return int(server.client.portal.call(read))


def deals_on(server: Server, table: int, player: str = "ben", box: str = "5") -> None:
    """The table takes a bet and deals the round to its end; no table has a fault, nothing stays in play."""
    who = server.login(player)
    seated = [seat for seat, name in server.view(table)["seats"].items() if name == player]
    placed = server.bet(who, table, seated[0] if seated else box, "10")
    assert placed.status_code == 200, placed.text
    server.advance(10)
    server.play_out(table, {player: who})
    history = server.client.get("/api/history", headers=who).json()
    assert history[0]["round"] == placed.json()["round"] and history[0]["status"] == "settled", history[0]
    assert {a.table_id: list(a.faults) for a in server.service.actors.values() if a.faults} == {}
    assert all(a.task is not None and not a.task.done() for a in server.service.actors.values())
    assert in_play(server) == 0


# --------------------------------------------------------------------------------------------------
# finding 1: the requests that stopped a table


def test_a_spot_of_unicode_digits_is_refused_and_the_table_deals_on(server: Server) -> None:
    """ "²" and "①" are digits to str.isdigit() and not to int(): the int() failed inside the table's task."""
    ana = server.login("ana")
    for spot in ("²", "①", "١", "１", "1²"):
        for table in (MACAU, ONLINE):
            answer = server.bet(ana, table, spot, "10")
            assert answer.status_code == 409, answer.text
            assert repr(spot) in answer.json()["error"] and "box number" in answer.json()["error"]
    assert server.balance(ana) == "1000.00"
    deals_on(server, ONLINE)


def test_the_same_key_with_two_bodies_to_two_tables_at_once(server: Server) -> None:
    """Once a race between two tables' actors over one key: the loser's refusal escaped the actor's handler
    and voided the round (before: the table stopped). The key is each table's now: both bets stand."""
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    for n, (name, who) in enumerate(players.items()):
        key = f"race-{n}-{uuid.uuid4().hex}"
        start = threading.Barrier(2)

        def bet(
            table: int, amount: str, who: dict[str, str] = who, key: str = key, n: int = n, start: Any = start
        ) -> Any:
            start.wait()
            return server.client.post(
                f"/api/tables/{table}/bets",
                json={"spot": str(1 + n), "amount": amount},
                headers={**who, "Idempotency-Key": key},
            )

        with ThreadPoolExecutor(max_workers=2) as pool:  # before the fix, the loser's request never answered
            answers = [pool.submit(bet, t, a) for t, a in ((MACAU, "10"), (ONLINE, "20"))]
            answers = [future.result(timeout=30) for future in answers]
        assert [a.status_code for a in answers] == [200, 200], (name, [a.text for a in answers])
        assert [a.json()["amount"] for a in answers] == ["10.00", "20.00"]
    server.quiet()
    assert [server.balance(who) for who in players.values()] == ["970.00"] * 3
    server.advance(10)
    for table in (MACAU, ONLINE):
        server.play_out(table, players)
    for who in players.values():
        assert [e["status"] for e in server.client.get("/api/history", headers=who).json()] == ["settled"] * 2
    deals_on(server, ONLINE)


def test_a_key_taken_meanwhile_for_another_request_is_a_refusal_not_a_fault(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is stored by another request between the actor's look-up and its write (IntegrityError):
    the stored answer is for a different body, so the request is refused (422): the table deals on."""
    server = sqlite_server
    ana = server.login("ana")
    key = uuid.uuid4().hex
    assert server.bet(ana, BACCARAT, "player", "10", key=key).status_code == 200
    real = TableActor.stored_answers
    calls = {"n": 0}

    async def blind_once(self: TableActor, commands: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:  # the first look misses the stored key, as a look made a moment too early does
            return [None] * len(commands)
        return await real(self, commands)

    monkeypatch.setattr(TableActor, "stored_answers", blind_once)
    with ThreadPoolExecutor(max_workers=1) as pool:  # before the fix, the request never answered
        answer = pool.submit(server.bet, ana, BACCARAT, "banker", "20", key).result(timeout=30)
    assert answer.status_code == 422 and answer.json()["code"] == "idempotency.key_reused", answer.text
    monkeypatch.setattr(TableActor, "stored_answers", real)
    assert server.balance(ana) == "990.00" and calls["n"] == 1
    server.advance(10)
    server.play_out(BACCARAT, {"ana": ana})
    assert server.client.get("/api/history", headers=ana).json()[0]["status"] == "settled"
    deals_on(server, ONLINE)


# --------------------------------------------------------------------------------------------------
# finding 2: amounts and numbers read strictly before any arithmetic, everywhere


def test_amounts_are_read_strictly_before_any_arithmetic(server: Server) -> None:
    ana, cole, sam = server.login("ana"), server.login("cole"), server.login("sam")
    for amount in HOSTILE_AMOUNTS:
        sent = [
            ("POST", "/api/tables/1/bets", {"spot": "1", "amount": amount}, ana, "amount"),
            ("POST", "/api/tables/4/bets", {"spot": "player", "amount": amount}, ana, "amount"),
            ("POST", "/api/tables/2/actions", {"type": "double", "box": 1, "amount": amount}, ana, "amount"),
            ("POST", "/api/tables/2/actions", {"type": "insurance", "box": 1, "amount": amount}, ana, "amount"),
            ("POST", "/api/cashier/deposits", {"account": "ben", "amount": amount}, cole, "amount"),
            ("POST", "/api/cashier/withdrawals", {"account": "ben", "amount": amount}, cole, "amount"),
            (
                "POST",
                "/api/tables",
                {"name": "x", "game": "baccarat", "min_bet": amount, "max_bet": "9"},
                sam,
                "min_bet",
            ),
            ("PATCH", "/api/tables/2", {"chip": amount}, sam, "chip"),
        ]
        for method, path, body, who, field in sent:
            answer = server.client.request(
                method, path, json=body, headers={**who, "Idempotency-Key": uuid.uuid4().hex}
            )
            # refused while the body is read: the amount never reaches a table, the ledger or the rules
            assert answer.status_code == 422, f"{path} {amount!r}: {answer.text}"
            assert answer.json()["code"] == "request.invalid", answer.text
            assert answer.json()["params"] == {"fields": field}, answer.text
    assert server.balance(ana) == "1000.00" and server.balance(server.login("ben")) == "1000.00"
    deals_on(server, ONLINE)


def test_the_readers_refuse_what_python_reads_generously() -> None:
    """The same readers serve a command that comes from another process (no request body to validate)."""
    for text in HOSTILE_AMOUNTS:
        with pytest.raises(MoneyError):
            parse_amount(text)
        with pytest.raises(Refused):
            positive_amount(text, "bet")
        with pytest.raises(ActionError):
            amount_or_none(text, "double")
    assert parse_amount("12.50") == Decimal("12.50") and parse_amount(" 1e3 ") == Decimal(1000)
    assert positive_amount("25", "bet") == Decimal(25) and amount_or_none("5", "insurance") == Decimal(5)
    for text in ("١٠", "٦", "²", "1" * 19, "1.0", ""):
        with pytest.raises(ValueError):
            read_int(text)
        with pytest.raises(ValueError):
            integer(1, 8)(text)
    assert read_int(" 6 ") == 6 and integer(1, 8)("6") == 6
    with pytest.raises(RulesError):
        Ratio.parse("٣:٢", name="blackjack_pays")
    assert Ratio.parse("3:2", name="blackjack_pays") == Ratio(3, 2)


def test_rule_overrides_in_other_digits_are_refused(sqlite_server: Server) -> None:
    server = sqlite_server
    sam = server.login("sam")
    for overrides in ({"decks": "٦"}, {"decks": "６"}, {"blackjack_pays": "٣:٢"}):
        answer = server.client.post(
            "/api/tables",
            json={"name": "digits", "game": "blackjack", "min_bet": "10", "max_bet": "100", "overrides": overrides},
            headers=sam,
        )
        assert answer.status_code == 422, answer.text
        assert "is not allowed" in answer.json()["error"], answer.text
    assert [t["name"] for t in server.client.get("/api/tables").json()].count("digits") == 0


# --------------------------------------------------------------------------------------------------
# finding 11: a key is the table's and the operation's


def test_the_same_key_and_body_to_another_table_is_another_request(server: Server) -> None:
    ana, cole = server.login("ana"), server.login("cole")
    key = uuid.uuid4().hex
    first = server.bet(ana, MACAU, "1", "10", key=key)
    second = server.bet(ana, ONLINE, "1", "10", key=key)
    again = server.bet(ana, ONLINE, "1", "10", key=key)
    assert first.status_code == second.status_code == again.status_code == 200, (first.text, second.text)
    assert first.json()["round"] != second.json()["round"] and again.json() == second.json()
    assert server.balance(ana) == "980.00"
    assert server.view(MACAU)["round"]["boxes"][0]["bets"] == {"ana": "10"}
    assert server.view(ONLINE)["round"]["boxes"][0]["bets"] == {"ana": "10"}
    # the cashier's operations: a deposit and a withdrawal under one key are two payments
    money = {"account": "ben", "amount": "50"}
    for path in ("/api/cashier/deposits", "/api/cashier/withdrawals", "/api/cashier/withdrawals"):
        answer = server.client.post(path, json=money, headers={**cole, "Idempotency-Key": key})
        assert answer.status_code == 200, answer.text
    assert answer.json()["balance"] == "1000.00"  # +50, -50, and the withdrawal's retry replayed
    server.advance(10)
    for table in (MACAU, ONLINE):
        server.play_out(table, {"ana": ana})
    deals_on(server, ONLINE)


# --------------------------------------------------------------------------------------------------
# finding 12: strict types, and a live table's every burn awaited


@pytest.mark.parametrize("box", ["1", True, 1.0, "١"])
def test_a_box_is_a_json_integer(sqlite_server: Server, box: Any) -> None:
    server = sqlite_server
    chen = server.login("chen")
    sam = server.login("sam")
    sent = [
        ("POST", "/api/tables/1/seats", {"box": box}, chen),
        ("PUT", "/api/tables/1/matching", {"box": box, "match": True}, chen),
        ("POST", "/api/tables/2/actions", {"type": "stand", "box": box}, chen),
        ("POST", "/api/tables/2/actions", {"type": "stand", "box": 1, "hand": box}, chen),
        ("POST", "/api/tables/4/bets", {"spot": "player", "amount": "10", "seat": box}, chen),
        ("POST", "/api/tables/1/bets", {"spot": "1", "amount": "10", "match": "true"}, chen),
        ("PUT", "/api/tables/1/matching", {"box": 1, "match": 1}, chen),
        ("PATCH", "/api/tables/2", {"betting_seconds": "10"}, sam),
        ("PATCH", "/api/tables/2", {"decision_seconds": True}, sam),
        ("PATCH", "/api/tables/2", {"live_edges": "yes"}, sam),
    ]
    for method, path, body, who in sent:
        answer = server.client.request(method, path, json=body, headers={**who, "Idempotency-Key": uuid.uuid4().hex})
        assert answer.status_code == 422 and answer.json()["code"] == "request.invalid", f"{path} {body}: {answer.text}"
    assert server.view(MACAU)["seats"] == {}
    seated = server.client.post("/api/tables/1/seats", json={"box": 1}, headers=chen)
    assert seated.status_code == 200 and seated.json()["seats"] == {"1": "chen"}, seated.text


def test_a_live_table_awaits_each_burn(sqlite_server: Server) -> None:
    """Online §3.5: six burns start a live shoe; the dealer's console is told of each card awaited."""
    server = sqlite_server
    ana, dora = server.login("ana"), server.login("dora")
    assert server.bet(ana, LIVE, "1", "10").status_code == 200
    server.advance(10)
    actor = server.service.actors[LIVE]

    def burn_awaits() -> int:
        return sum(1 for e in actor.log if e["type"] == "await" and e.get("purpose") == "burn")

    burned = 0
    while server.view(LIVE).get("pending", {}).get("purpose") == "burn":
        assert burn_awaits() == burned + 1, actor.log[-3:]
        answer = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": f"{2 + burned}C"}, headers=dora)
        assert answer.status_code == 200, answer.text
        server.quiet()
        burned += 1
    assert burned == 6 and burn_awaits() == 6
    for card in ("TH", "9S", "8D", "KC"):
        assert server.client.post(f"/api/tables/{LIVE}/cards", json={"card": card}, headers=dora).status_code == 200
        server.quiet()
    assert server.act(ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    assert in_play(server) == 0
