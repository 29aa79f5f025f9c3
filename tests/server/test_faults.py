"""No rule ever stops a table (Art. 2.1, online §3.5): a fault in any phase of a round
voids the round, returns every stake, is recorded, published and shown to the supervisor, and the
table deals on. Each case injects one fault (a method of that phase raises once) and checks that the
stake is back, the round is recorded void with its fault, and a later round settles; the ledger's
sums are checked after every test (conftest).

On the code before this change each of these faults ended the table's task: the table answered 503
until a restart while its lease kept renewing, and the round's stakes stayed in play.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from croupier.baccarat.state import BaccaratTable
from croupier.errors import BetError, IllegalActionError
from croupier.server.actor import TableActor
from croupier.server.games import BaccaratDriver, BaccaratRound, BlackjackDriver, BlackjackRound
from croupier.server.models import GameTable, ShoeRecord
from tests.server.conftest import Server

ONLINE, LIVE, BACCARAT = 2, 3, 4
BURNS = ["2C", "3C", "4C", "5C", "6C", "7C"]  # live-online burns 6 at a shoe's start (§3.5)


def once(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, fault: Callable[..., Any]) -> list[bool]:
    """``owner.name`` runs ``fault`` instead of itself the first time it is called, then as before."""
    original = getattr(owner, name)
    fired: list[bool] = []

    def patched(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not fired:
            fired.append(True)
            return fault(self, *args, **kwargs)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, patched)
    return fired


def raising(error: Exception) -> Callable[..., Any]:
    def fault(*_args: Any, **_kwargs: Any) -> Any:
        raise error

    return fault


DEALERS: dict[int, dict[str, str]] = {}


def card(server: Server, value: str) -> Any:
    if id(server) not in DEALERS:
        DEALERS.clear()
        DEALERS[id(server)] = server.login("dora")
    answer = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": value}, headers=DEALERS[id(server)])
    server.quiet()
    return answer


def deal_live(server: Server, cards: list[str]) -> None:
    """The shoe's start burns if it has just begun, then ``cards`` (box 1, dealer, box 1, hole card)."""
    burns = iter(BURNS)
    while server.view(LIVE).get("pending", {}).get("purpose") == "burn":
        answer = card(server, next(burns))
        assert answer.status_code == 200, answer.text
    for value in cards:
        answer = card(server, value)
        assert answer.status_code == 200, answer.text


def fault_round(server: Server, player: dict[str, str], table: int) -> dict[str, Any]:
    """The player's latest round: void, with its fault recorded and its stake back."""
    history = server.client.get("/api/history", headers=player).json()
    latest = history[0]
    assert latest["status"] == "voided", latest
    assert "fault" in latest["result"] and "returned" in latest["result"]
    assert any(e.get("type") == "round_voided" and e.get("fault") for e in latest["events"])
    assert server.balance(player) == "1000.00"
    view = server.view(table)
    assert latest["round"] in [fault["round"] for fault in view["faults"]]
    return dict(latest)


def deals_on(server: Server, player: dict[str, str], table: int) -> None:
    """A later round at the table is dealt and settled."""
    server.quiet()
    if server.view(table)["phase"] == "cut":  # the new shoe waits for its cut (Art. 2.1): nobody cuts
        server.advance(10)
    assert server.view(table)["phase"] == "betting"
    if table == LIVE:
        assert server.bet(player, LIVE, "1", "10").status_code == 200
        server.advance(10)
        deal_live(server, ["TH", "9S", "8D", "KC"])
        assert server.act(player, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    else:
        spot = "banker" if table == BACCARAT else "1"
        answer = server.bet(player, table, spot, "10")
        assert answer.status_code == 200, answer.text
        server.advance(10)
        server.play_out(table, {"ana": player})
    server.quiet()
    history = server.client.get("/api/history", headers=player).json()
    assert history[0]["status"] == "settled", history[0]


# ------------------------------------------------------------------------------------------------
# blackjack


def test_a_fault_placing_a_bet_voids_the_round_art_2_1(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine fails after the bet's money was stored: once a 409 that left the money in play and
    the round without the bet (it was then never dealt, never refunded)."""
    ana = server.login("ana")
    once(monkeypatch, BlackjackRound, "bet", raising(IllegalActionError("the engine lost the bet")))
    answer = server.bet(ana, ONLINE, "1", "20")
    assert answer.status_code == 500 and "void" in answer.json()["error"]
    server.quiet()
    fault_round(server, ana, ONLINE)
    deals_on(server, ana, ONLINE)


def test_a_fault_at_no_more_bets_voids_the_round(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    once(monkeypatch, BlackjackRound, "close_betting", raising(ValueError("the deal failed")))
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200
    server.advance(10)
    latest = fault_round(server, ana, ONLINE)
    assert "ValueError: the deal failed" in latest["result"]["fault"]["error"]
    assert latest["result"]["fault"]["during"] == "playing"  # "No more bets" was called: the deal failed
    deals_on(server, ana, ONLINE)


def test_a_fault_in_a_decision_voids_the_round(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    assert server.bet(ana, LIVE, "1", "20").status_code == 200
    server.advance(10)
    deal_live(server, ["TH", "9S", "8D", "KC"])
    assert server.view(LIVE)["pending"]["kind"] == "decision"
    once(monkeypatch, BlackjackRound, "act", raising(ValueError("the stand failed")))
    answer = server.act(ana, LIVE, {"type": "stand", "box": 1, "hand": 0})
    assert answer.status_code == 500
    server.quiet()
    latest = fault_round(server, ana, LIVE)
    assert latest["result"]["fault"]["during"] == "playing"
    deals_on(server, ana, LIVE)


def test_a_fault_taking_insurance_returns_the_insurance_too(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Art. 8: the insurance stake is taken, then the engine fails; the bet and the insurance return."""
    ana = server.login("ana")
    assert server.bet(ana, LIVE, "1", "20").status_code == 200
    server.advance(10)
    deal_live(server, ["TH", "AS", "8D", "5C"])
    assert server.view(LIVE)["pending"]["kind"] == "insurance"
    once(monkeypatch, BlackjackRound, "act", raising(ValueError("the insurance failed")))
    answer = server.act(ana, LIVE, {"type": "insurance", "box": 1, "amount": "10"})
    assert answer.status_code == 500
    server.quiet()
    latest = fault_round(server, ana, LIVE)
    assert [b["kind"] for b in latest["bets"]] == ["bet", "insurance"]
    deals_on(server, ana, LIVE)


def test_a_fault_in_the_dealers_play_voids_the_round(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    assert server.bet(ana, LIVE, "1", "20").status_code == 200
    server.advance(10)
    deal_live(server, ["TH", "5S", "8D", "6C"])
    assert server.act(ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    assert server.view(LIVE)["pending"]["kind"] == "card"  # 5 + 6: the dealer draws
    once(monkeypatch, BlackjackRound, "supply_card", raising(ValueError("the reader misread")))
    assert card(server, "9D").status_code == 500
    fault_round(server, ana, LIVE)
    deals_on(server, ana, LIVE)


def test_a_payout_that_is_not_whole_cents_voids_the_round(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A settlement the ledger cannot post (a payout of a fraction of a cent, Art. 18's "money a payout
    cannot express"): once it ended the table; now the round is void and the bet returned."""
    ana = server.login("ana")
    once(monkeypatch, BlackjackRound, "net", lambda _self: {"ana": Decimal("0.005")})
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
    server.quiet()
    latest = fault_round(server, ana, ONLINE)
    assert "not a whole number of cents" in latest["result"]["fault"]["error"]
    deals_on(server, ana, ONLINE)


def test_a_fault_loading_a_new_shoe_ends_it_and_deals_on(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, sam = server.login("ana"), server.login("sam")
    assert server.bet(ana, LIVE, "1", "20").status_code == 200
    server.advance(10)
    failed = once(monkeypatch, BlackjackDriver, "load", raising(ValueError("the shoe would not load")))
    answer = server.client.post(f"/api/tables/{LIVE}/void", json={"reason": "test"}, headers=sam)
    assert answer.status_code == 200, answer.text  # the void ends the shoe: the next round needs a new one
    server.quiet()
    assert failed and server.balance(ana) == "1000.00"
    view = server.view(LIVE)
    assert view["faults"][-1]["during"] == "between rounds" and view["faults"][-1]["round"] is None
    deals_on(server, ana, LIVE)

    async def shoes() -> list[bool]:
        async with server.service.session() as session:
            rows = await session.scalars(select(ShoeRecord).where(ShoeRecord.table_id == LIVE).order_by(ShoeRecord.id))
            return [row.ended_at is not None for row in rows]

    assert server.client.portal.call(shoes) == [True, True, False]  # the shoe that failed to load was ended


def test_a_publication_that_fails_between_rounds(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    original = TableActor.publish
    fired: list[bool] = []

    async def publish(self: TableActor, event: dict[str, Any]) -> None:
        if event.get("type") == "round_over" and not fired:
            fired.append(True)
            raise ConnectionError("the hub is away")
        await original(self, event)

    monkeypatch.setattr(TableActor, "publish", publish)
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
    server.quiet()
    assert fired
    history = server.client.get("/api/history", headers=ana).json()
    assert history[0]["status"] == "settled"  # the round was settled before the fault: never refunded
    assert server.view(ONLINE)["faults"][-1]["round"] is None
    deals_on(server, ana, ONLINE)


# ------------------------------------------------------------------------------------------------
# baccarat


def test_a_baccarat_fault_placing_a_bet(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    once(monkeypatch, BaccaratRound, "bet", raising(BetError("the engine lost the bet")))
    assert server.bet(ana, BACCARAT, "banker", "20").status_code == 500
    server.quiet()
    fault_round(server, ana, BACCARAT)
    deals_on(server, ana, BACCARAT)


def test_a_baccarat_bet_refused_at_the_coup_voids_it_art_18(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coup cannot start (as with tie_bets = increase_only when a standing tie bet is missing,
    Art. 18): once the table's end, now a void coup with every bet returned."""
    ana = server.login("ana")
    once(monkeypatch, BaccaratTable, "start_coup", raising(BetError("a bet that stood on a tie may not be reduced")))
    assert server.bet(ana, BACCARAT, "banker", "20").status_code == 200
    server.advance(10)
    fault_round(server, ana, BACCARAT)
    deals_on(server, ana, BACCARAT)


def test_a_baccarat_payout_that_is_not_whole_cents(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = server.login("ana")
    once(monkeypatch, BaccaratRound, "net", lambda _self: {"ana": Decimal("0.005")})
    assert server.bet(ana, BACCARAT, "banker", "20").status_code == 200
    server.advance(10)
    fault_round(server, ana, BACCARAT)
    deals_on(server, ana, BACCARAT)


def test_a_baccarat_fault_in_a_new_shoe(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault voids the coup and the table starts a new shoe; that shoe fails to load once as well:
    a second fault between rounds, and the table still deals on."""
    ana = server.login("ana")
    once(monkeypatch, BaccaratRound, "close_betting", raising(ValueError("the deal failed")))
    load = once(monkeypatch, BaccaratDriver, "load", raising(ValueError("the shoe would not load")))
    assert server.bet(ana, BACCARAT, "banker", "20").status_code == 200
    server.advance(10)
    server.quiet()
    assert load
    fault_round(server, ana, BACCARAT)
    assert [f["during"] for f in server.view(BACCARAT)["faults"]][-2:] == ["playing", "between rounds"]
    deals_on(server, ana, BACCARAT)


# ------------------------------------------------------------------------------------------------
# the database away, a table that cannot start


def test_a_fault_while_the_database_is_away_loses_no_money(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refund is tried again, with a pause, until the database takes it; meanwhile the table takes
    no bet (503) and its task lives on."""
    ana = server.login("ana")
    actor = server.service.actors[ONLINE]
    actor.first_pause = 0.01
    away = [True]
    tries: list[int] = []
    original = TableActor.refund

    async def refund(self: TableActor, session: Any, record: Any, reason: str) -> dict[int, int]:
        if away[0]:
            tries.append(1)
            raise OperationalError("UPDATE wallets", {}, ConnectionError("the database is away"))
        return await original(self, session, record, reason)

    monkeypatch.setattr(TableActor, "refund", refund)
    once(monkeypatch, BlackjackRound, "close_betting", raising(ValueError("the deal failed")))
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200
    server.client.portal.call(server.clock.advance, 10)

    async def wait_for(condition: Callable[[], bool]) -> None:
        for _ in range(500):
            if condition():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the table never got there")

    server.client.portal.call(wait_for, lambda: len(tries) >= 3)
    assert server.view(ONLINE)["phase"] == "fault"
    late = server.client.post(
        f"/api/tables/{ONLINE}/bets",
        json={"spot": "2", "amount": "10"},
        headers={**ana, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert late.status_code == 503 and "recovering from a fault" in late.json()["error"]
    assert server.balance(ana) == "980.00"  # still in play, not lost
    assert actor.task is not None and not actor.task.done()
    away[0] = False
    server.client.portal.call(wait_for, lambda: actor.phase in ("betting", "cut"))
    server.quiet()
    fault_round(server, ana, ONLINE)
    deals_on(server, ana, ONLINE)


def test_a_table_whose_rules_cannot_be_set_up_is_stopped_with_the_reason(server: Server) -> None:
    async def add_table() -> None:
        async with server.service.session() as session, session.begin():
            session.add(
                GameTable(
                    name="broken",
                    game="blackjack",
                    preset="live-online",
                    overrides={"decks": 99},
                    min_bet=500,
                    max_bet=50000,
                    chip=100,
                    betting_seconds=10,
                    decision_seconds=10,
                    mode="rng",
                )
            )
        await server.service.lease_round()

    server.client.portal.call(add_table)
    lobby = {t["name"]: t for t in server.client.get("/api/tables").json()}
    broken = lobby["broken"]
    assert broken["phase"] == "stopped" and "decks" in broken["stopped"]
    view = server.view(broken["id"])
    assert view["phase"] == "stopped" and "decks" in view["stopped"]
    refused = server.bet(server.login("ana"), broken["id"], "1", "10")
    assert refused.status_code == 503 and "stopped" in refused.json()["error"]
    assert server.service._leases is not None and not server.service._leases.done()
    deals_on(server, server.login("ana"), ONLINE)  # the other tables play on
