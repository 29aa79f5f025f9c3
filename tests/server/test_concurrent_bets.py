"""Bets that reach a table at the same moment: each is taken or refused whole. One that its player's
balance cannot cover is refused alone; the others are taken, with their money, their records and their
answers, and the ledger balances."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.server.conftest import Server

TABLE = 2  # online-1: 5.00-500.00, chip 1.00


def test_a_bet_the_balance_cannot_cover_is_refused_alone_among_concurrent_bets(server: Server) -> None:
    cole = server.login("cole")
    drained = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "chen", "amount": "995"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert drained.status_code == 200, drained.text
    players = {name: server.login(name) for name in ("ana", "ben", "chen")}
    boxes = {"ana": "1", "ben": "2", "chen": "3"}

    def bet(name: str) -> Any:
        return server.client.post(
            f"/api/tables/{TABLE}/bets",
            json={"spot": boxes[name], "amount": "10"},
            headers={**players[name], "Idempotency-Key": uuid.uuid4().hex},
        )

    with ThreadPoolExecutor(3) as pool:  # sent together: they wait on the table's queue together
        answers = dict(zip(boxes, pool.map(bet, boxes), strict=True))
    server.quiet()
    assert answers["ana"].status_code == 200 and answers["ana"].json()["balance"] == "990.00"
    assert answers["ben"].status_code == 200 and answers["ben"].json()["balance"] == "990.00"
    assert answers["chen"].status_code == 409, answers["chen"].text
    assert "balance is 5.00" in answers["chen"].json()["error"]
    assert {name: server.balance(headers) for name, headers in players.items()} == {
        "ana": "990.00",
        "ben": "990.00",
        "chen": "5.00",
    }
    view = server.view(TABLE)
    taken = {player: amount for box in view["round"]["boxes"] for player, amount in box["bets"].items()}
    assert taken == {"ana": "10", "ben": "10"}  # chen's bet left nothing: no record, no seat, no money
    assert view["seats"] == {"1": "ana", "2": "ben"}
    assert server.ledger()["entries_sum"] == 0
    history = server.client.get("/api/history", headers=players["chen"]).json()
    assert all(entry.get("round") != answers["ana"].json()["round"] for entry in history)
