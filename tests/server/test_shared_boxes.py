"""Shared boxes at a live Macau 1983 table: bets behind in any order (Art. 2.3) and matching the decider's
double or split (Art. 13), with the ledger balanced after each test (conftest)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from croupier.cards import DECK, Card
from croupier.server import games
from croupier.shoe import Shoe
from tests.server.conftest import Server
from tests.server.stacked import MACAU_BURNS, deal_from
from tests.server.test_seats import _end_shoe

MACAU = 1


def stacked_macau(first: list[str]) -> Shoe:
    """Six decks with ``first`` on top (after the six start burns) and the rest in a fixed order."""
    cards = [Card.parse(c) for c in first]
    rest = [card for card in DECK * 6]
    for card in cards:
        rest.remove(card)
    return Shoe.stacked(6, cards + rest)


def post_bet(server: Server, who: dict[str, str], box: int, amount: str, match: bool = True) -> Any:
    answer = server.client.post(
        f"/api/tables/{MACAU}/bets",
        json={"spot": str(box), "amount": amount, "match": match},
        headers={**who, "Idempotency-Key": uuid.uuid4().hex},
    )
    server.quiet()
    return answer


def new_player(server: Server, name: str, balance: str) -> dict[str, str]:
    assert (
        server.client.post("/api/accounts", json={"name": name, "password": "pass phrase of " + name}).status_code
        == 201
    )
    cole = server.login("cole")
    deposit = server.client.post(
        "/api/cashier/deposits",
        json={"account": name, "amount": balance},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert deposit.status_code == 200, deposit.text
    return server.login(name, "pass phrase of " + name)


def test_art_2_3_a_bet_behind_may_arrive_before_the_occupants_bet(sqlite_server: Server) -> None:
    """Regression: a bet behind was refused when it came before the occupant's own bet. Art. 2.3 is judged
    when betting closes: the early bet behind plays; one behind a box whose occupant never bet is returned."""
    server = sqlite_server
    deal_from(server, MACAU, [*MACAU_BURNS, "TS", "5D", "7H"])  # box 1: 15 against 7, a decision to make
    ana, chen = server.login("ana"), server.login("chen")
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ana).status_code == 200
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 2}, headers=chen).status_code == 200
    ben = server.login("ben")
    dan = new_player(server, "dan", "100")
    early = post_bet(server, ben, 1, "20")
    assert early.status_code == 200, early.text
    assert post_bet(server, dan, 2, "30").status_code == 200  # chen never bets on box 2
    assert post_bet(server, ana, 1, "50").status_code == 200
    server.advance(10)
    view = server.view(MACAU)
    assert view["phase"] == "playing" and view["pending"]["player"] == "ana"
    boxes = {b["box"]: b for b in view["round"]["boxes"]}
    assert set(boxes[1]["bets"]) == {"ana", "ben"} and 2 not in boxes
    server.play_out(MACAU, {"ana": ana})
    server.advance(0)
    assert server.balance(dan) == "100.00"
    history = server.client.get("/api/history", headers=dan).json()
    round_id = history[0]["round"]
    record = server.client.get(f"/api/rounds/{round_id}", headers=server.login("sam")).json()
    text = str(record)
    assert "returned" in text and "Art. 2.3" in text
    ben_history = server.client.get("/api/history", headers=ben).json()
    assert ben_history and ben_history[0]["status"] == "settled"


def test_art_13_a_bettor_who_declines_or_cannot_cover_keeps_the_bet_as_it_was(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a split was refused because a bettor behind could not fund the matching stake. Now the
    decider splits; ben (who chose not to match) and chen (whose balance cannot cover) stay on the first
    hand only, and pay nothing more (Art. 13)."""
    server = sqlite_server
    ana, ben, chen = server.login("ana"), server.login("ben"), server.login("chen")
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ana).status_code == 200
    burns = ["2C", "3C", "4C", "5C", "6C", "7C"]  # the start burns (Art. 2.1: as many as decks)
    # box 1: 8S 8H; dealer 6D; split hands draw TC and 9C; burn 2D, dealer TD then 5S
    shoe = stacked_macau([*burns, "8S", "8H", "6D", "TC", "9C", "2D", "TD", "5S"])
    monkeypatch.setattr(games.BlackjackDriver, "build", lambda self, *args: shoe)
    _end_shoe(server, MACAU, ana)
    server.advance(10)  # the cut window lapses
    cole = server.login("cole")
    withdraw = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "chen", "amount": "985"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert withdraw.status_code == 200, withdraw.text
    assert post_bet(server, ben, 1, "20").status_code == 200
    assert post_bet(server, chen, 1, "10").status_code == 200  # chen's balance is 5: no match possible
    assert post_bet(server, ana, 1, "100").status_code == 200
    changed = server.client.put(f"/api/tables/{MACAU}/matching", json={"box": 1, "match": False}, headers=ben)
    assert changed.status_code == 200, changed.text
    ben_before, chen_before = server.balance(ben), server.balance(chen)
    server.advance(10)
    pending = server.view(MACAU)["pending"]
    assert pending["kind"] == "decision" and pending["player"] == "ana"
    split = server.act(ana, MACAU, {"type": "split", "box": 1})
    assert split.status_code == 200, split.text
    assert split.json()["declined_by"] == ["ben", "chen"] and split.json()["staked"] == {"ana": "100.00"}
    hands = server.view(MACAU, ana)["round"]["boxes"][0]["hands"]
    assert set(hands[0]["stakes"]) == {"ana", "ben", "chen"} and set(hands[1]["stakes"]) == {"ana"}
    assert (server.balance(ben), server.balance(chen)) == (ben_before, chen_before)
    server.play_out(MACAU, {"ana": ana})
    server.advance(0)
    transcript = server.client.get(
        f"/api/rounds/{server.client.get('/api/history', headers=ana).json()[0]['round']}/transcript",
        headers=server.login("sam"),
    )
    assert transcript.status_code == 200, transcript.text
    split_action = next(a for a in transcript.json()["rounds"][0]["actions"] if a["type"] == "split")
    assert split_action["declined_by"] == ["ben", "chen"]
    from croupier.blackjack.replay import replay_blackjack

    replayed = replay_blackjack(transcript.json())
    assert set(replayed["rounds"][0]["net"]) == {"ana", "ben", "chen"}


def test_art_6_even_money_until_the_hole_card_is_turned(sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: even money was refused once play had started. Macau 1983 (Art. 6): a natural against an
    ace may take even money at any moment before the dealer's face-down card is turned."""
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ana).status_code == 200
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 2}, headers=ben).status_code == 200
    burns = ["2C", "3C", "4C", "5C", "6C", "7C"]
    # box 1 AS KS (a natural), box 2 9H 7C, dealer AD up and 5D face down at once (Art. 3.1a), burn 2H, 3C
    shoe = stacked_macau([*burns, "AS", "9H", "KS", "7C", "AD", "5D", "2H", "3D"])
    monkeypatch.setattr(games.BlackjackDriver, "build", lambda self, *args: shoe)
    _end_shoe(server, MACAU, ana)
    server.advance(10)  # the cut window lapses
    assert post_bet(server, ana, 1, "100").status_code == 200
    assert post_bet(server, ben, 2, "50").status_code == 200
    server.advance(10)
    assert server.view(MACAU)["pending"]["kind"] == "insurance"
    for who, box in ((ana, 1), (ben, 2)):
        assert server.act(who, MACAU, {"type": "no_insurance", "box": box}).status_code == 200
    pending = server.view(MACAU)["pending"]
    assert pending["kind"] == "decision" and pending["player"] == "ben"
    offers = server.view(MACAU, ana)["your_actions"]
    assert {"type": "even_money", "box": 1, "hand": 0} in offers
    taken = server.act(ana, MACAU, {"type": "even_money", "box": 1})
    assert taken.status_code == 200, taken.text
    server.play_out(MACAU, {"ben": ben})
    server.advance(0)
    assert server.balance(ana) == "1100.00"  # 1:1 at once (Art. 6), paid with the round's settlement
