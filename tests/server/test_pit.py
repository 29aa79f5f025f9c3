"""The supervisor's pit view: every table, its hold, its faults, and the live edges as
surveillance: staff always see them, players only where the table shows them; a baccarat bet placed
while its spot favoured the player is an alert."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from croupier.server.baccarat_round import BaccaratRound
from tests.server.conftest import Server
from tests.server.test_seats import restart_with

MACAU, ONLINE, BACCARAT = 1, 2, 4


def test_the_pit_lists_every_table_with_its_round_bets_and_hold(sqlite_server: Server) -> None:
    server = sqlite_server
    ana, sam = server.login("ana"), server.login("sam")
    refused = server.client.get("/api/pit", headers=ana)
    assert refused.status_code == 403 and "supervisor" in refused.json()["error"]
    assert server.bet(ana, ONLINE, "3", "10").status_code == 200
    pit = {entry["id"]: entry for entry in server.client.get("/api/pit", headers=sam).json()}
    assert set(pit) == {MACAU, ONLINE, 3, BACCARAT}
    assert pit[ONLINE]["bets"] == {"3": {"ana": "10"}} and pit[ONLINE]["seats"] == {"3": "ana"}
    assert pit[ONLINE]["phase"] == "betting" and pit[ONLINE]["hold_today"] == "0.00"
    assert "house_edge" in pit[BACCARAT]  # staff always see the live edges
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
    server.advance(0)
    after = {entry["id"]: entry for entry in server.client.get("/api/pit", headers=sam).json()}[ONLINE]
    assert after["rounds_today"] == 1
    assert Decimal(after["hold_today"]) == Decimal(1000) - Decimal(server.balance(ana))


def test_players_see_the_live_edges_only_where_the_table_shows_them(sqlite_server: Server) -> None:
    server = sqlite_server
    ana, sam = server.login("ana"), server.login("sam")
    assert "house_edge" not in server.view(BACCARAT, ana)["round"]
    assert "house_edge" in server.view(BACCARAT, sam)["round"]
    restart_with(server, BACCARAT, live_edges=True)
    assert "house_edge" in server.view(BACCARAT, ana)["round"]


def test_a_bet_placed_while_its_spot_favoured_the_player_is_an_alert(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = sqlite_server
    ana, sam = server.login("ana"), server.login("sam")
    edges = {"player": "0.012345", "banker": "0.010579", "player_pair": "-0.004200"}

    def house_edge(self: Any) -> dict[str, str]:
        return edges

    monkeypatch.setattr(BaccaratRound, "house_edge", house_edge)
    assert server.bet(ana, BACCARAT, "player", "10").status_code == 200
    assert server.bet(ana, BACCARAT, "player_pair", "10").status_code == 200
    alerts = server.view(BACCARAT, sam)["alerts"]
    assert [(a["player"], a["spot"], a["house_edge"]) for a in alerts] == [("ana", "player_pair", "-0.004200")]
    assert "alerts" not in server.view(BACCARAT, ana)
    pit = {entry["id"]: entry for entry in server.client.get("/api/pit", headers=sam).json()}
    assert pit[BACCARAT]["alerts"][0]["player"] == "ana"
    server.advance(10)


def test_history_pages_back_beyond_the_latest_rounds(sqlite_server: Server) -> None:
    """History beyond 10 rounds: ``before`` pages back through every round, none twice."""
    server = sqlite_server
    ana = server.login("ana")
    for _ in range(4):
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        server.advance(10)
        server.play_out(ONLINE, {"ana": ana})
        server.advance(0)
    first = server.client.get("/api/history?limit=3", headers=ana).json()
    rest = server.client.get(f"/api/history?limit=3&before={first[-1]['round']}", headers=ana).json()
    rounds = [entry["round"] for entry in first + rest]
    assert len(rounds) == 4 and rounds == sorted(rounds, reverse=True) and len(set(rounds)) == 4


def test_the_cashier_finds_players_with_their_balances(sqlite_server: Server) -> None:
    server = sqlite_server
    cole, ana = server.login("cole"), server.login("ana")
    found = server.client.get("/api/cashier/accounts?name=a", headers=cole).json()
    assert found == [{"account": "ana", "balance": "1000.00", "disabled": False}]
    assert server.client.get("/api/cashier/accounts?name=%25", headers=cole).json() == []  # no wildcard
    assert len(server.client.get("/api/cashier/accounts", headers=cole).json()) == 3
    assert server.client.get("/api/cashier/accounts", headers=ana).status_code == 403


def test_the_lobby_shows_seats_and_each_baccarat_shoes_statistics(sqlite_server: Server) -> None:
    """The lobby shows who sits, and for every baccarat table its roads and how often each
    side won or paired this shoe."""
    server = sqlite_server
    ana = server.login("ana")
    assert server.bet(ana, BACCARAT, "player", "10").status_code == 200
    server.advance(10)
    server.advance(0)
    assert server.client.post(f"/api/tables/{ONLINE}/seats", json={"box": 5}, headers=ana).status_code == 200
    lobby = {entry["id"]: entry for entry in server.client.get("/api/tables").json()}
    stats = lobby[BACCARAT]["shoe_stats"]
    assert stats["coups"] == 1 and stats["banker"] + stats["player"] + stats["tie"] == 1
    assert len(lobby[BACCARAT]["roads"]["bead_plate"][0]) == 1
    assert lobby[ONLINE]["seats"] == {"5": "ana"} and "shoe_stats" not in lobby[ONLINE]
