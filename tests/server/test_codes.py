"""Refusals carry a stable code and params beside their English text; signing out revokes the token."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from croupier.server import codes
from tests.server.conftest import Server

MACAU, ONLINE, LIVE, BACCARAT = 1, 2, 3, 4
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_table_minimum_has_a_code_and_params(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    answer = server.bet(ana, MACAU, "2", "1")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "bet.below_minimum"
    assert body["params"] == {"min": "10", "player": "ana", "amount": "1", "box": 2}
    assert body["error"].startswith("the table minimum is 10")
    answer = server.bet(ana, MACAU, "2", "5000")
    assert answer.json()["code"] == "bet.above_maximum" and answer.json()["params"]["max"] == "1000"


def test_codes_of_the_refusals_a_player_meets(sqlite_server: Server) -> None:
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    answer = server.client.post(f"/api/tables/{MACAU}/bets", json={"spot": "1", "amount": "10"}, headers=ana)
    assert answer.status_code == 400 and answer.json()["code"] == "idempotency.key_required"
    key = str(uuid.uuid4())
    assert server.bet(ana, MACAU, "1", "10", key=key).status_code == 200
    reused = server.bet(ana, MACAU, "1", "20", key=key)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency.key_reused"
    taken = server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ben)
    assert taken.json()["code"] == "seat.taken" and taken.json()["params"] == {"seat": 1, "player": "ana"}
    empty = server.bet(ana, MACAU, "3", "10")
    assert empty.json()["code"] == "bet.empty_box" and empty.json()["params"]["box"] == 3
    chips = server.bet(ben, ONLINE, "1", "10.50")
    assert chips.status_code == 422 and chips.json()["code"] == "bet.not_whole_chips"
    server.advance(10)  # "No more bets"
    closed = server.bet(ben, MACAU, "2", "10")
    assert closed.json() == {
        "error": '"No more bets": betting is closed at this table (online §2.1.4)',
        "code": "table.betting_closed",
        "params": {},
    }


def test_sign_in_errors_have_codes(sqlite_server: Server) -> None:
    server = sqlite_server
    assert server.client.get("/api/me").json()["code"] == "auth.sign_in_first"
    bad = server.client.get("/api/me", headers={"Authorization": "Bearer nonsense"})
    assert bad.status_code == 401 and bad.json()["code"] == "auth.token_revoked"
    taken = server.client.post("/api/accounts", json={"name": "ana", "password": "a long pass phrase"})
    assert taken.json()["code"] == "auth.name_taken" and taken.json()["params"] == {"name": "ana"}


def test_engine_refusals_are_classified() -> None:
    cases = {
        "double on box 2: a double is on the first two cards (Art. 11); the hand holds 3": "double.first_two",
        "split on box 1: only two first cards of equal value split (Art. 10); the hand holds 9S 7D": "split.pair_only",
        "surrender on box 1: macau-1983 allows no surrender against an ace (Art. 12); the dealer shows AS": (
            "surrender.against_ace"
        ),
        "hit on box 3: box 3's decisions belong to ana, the highest bet (Art. 13); ben may not decide": (
            "turn.not_decider"
        ),
        "insurance for ana on box 1: insurance is at most half the bet (Art. 8; online §2.5): ana's bet on box 1 "
        "is 10, so at most 5; asked 6": "insurance.cap",
        "ana's balance is 5.00; 10.00 is needed (bet)": "funds.insufficient",
        "one seat per player (Art. 2.3): ana sits at 1; leave it first to sit at 2": "seat.one_per_player",
        "seat 3 is empty: sit there first to bet at its spot (Art. 15)": "bet.empty_seat",
        "table macau-1 is not running": "table.not_running",
    }
    for message, code in cases.items():
        assert codes.classify(message)[0] == code, message
    assert codes.classify(
        "insurance for ana on box 1: insurance is at most half the bet (Art. 8; online §2.5): "
        "ana's bet on box 1 is 10, so at most 5; asked 6"
    )[1] == {"cap": "5", "amount": "6"}
    assert codes.body("something new") == {"error": "something new"}


def test_every_code_is_documented() -> None:
    text = PROTOCOL.read_text(encoding="utf-8").split("### Error codes", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+(?:\.[a-z_0-9]+)?)` \|", text, flags=re.MULTILINE))
    assert set(codes.CODES) - documented == set(), "codes missing from docs/protocol.md"
    assert documented - set(codes.CODES) == set(), "docs/protocol.md lists codes the server never sends"


def test_sign_out_revokes_the_token(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    other = server.login("ana")  # a second sign-in keeps its own token
    assert server.client.get("/api/me", headers=ana).status_code == 200
    out = server.client.post("/api/logout", headers=ana)
    assert out.status_code == 200 and out.json() == {"signed_out": "ana"}
    again = server.client.get("/api/me", headers=ana)
    assert again.status_code == 401 and again.json()["code"] == "auth.token_revoked"
    assert server.client.post("/api/logout", headers=ana).status_code == 401
    assert server.client.get("/api/me", headers=other).status_code == 200
    token = ana["Authorization"][7:]
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        server.client.websocket_connect(f"/ws/tables/{MACAU}?token={token}") as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 4401
