"""The table service's REST API, with SQLite and with PostgreSQL (issue 6)."""

from __future__ import annotations

import json
import uuid
from decimal import Decimal

from croupier.transcript import replay
from tests.server.conftest import Server

MACAU, ONLINE, LIVE = 1, 2, 3


def test_sign_in_lobby_and_me(server: Server) -> None:
    ana = server.login("ana")
    assert server.client.get("/api/me", headers=ana).json() == {
        "id": 1,
        "name": "ana",
        "role": "player",
        "balance": "1000.00",
    }
    lobby = server.client.get("/api/tables").json()
    assert [(t["name"], t["game"], t["rules"], t["mode"]) for t in lobby] == [
        ("macau-1", "blackjack", "macau-1983", "rng"),
        ("online-1", "blackjack", "live-online", "rng"),
        ("online-live", "blackjack", "live-online", "live"),
        ("baccarat-1", "baccarat", "macau", "rng"),
    ]
    assert lobby[0]["min_bet"] == "10.00" and lobby[0]["max_bet"] == "1000.00" and lobby[0]["boxes"] == 7


def test_bad_sign_in_and_missing_token(server: Server) -> None:
    answer = server.client.post("/api/login", json={"name": "ana", "password": "wrong"})
    assert answer.status_code == 401 and answer.json() == {
        "error": "sign in: unknown name or wrong password",
        "code": "auth.bad_credentials",
        "params": {},
    }
    answer = server.client.get("/api/me")
    assert answer.status_code == 401 and "Bearer" in answer.json()["error"]
    answer = server.client.get("/api/me", headers={"Authorization": "Bearer nonsense"})
    assert answer.status_code == 401
    answer = server.client.post("/api/login", json={"name": "ana"})
    assert answer.status_code == 422 and answer.json() == {
        "error": "password: Field required",
        "code": "request.invalid",
        "params": {"fields": "password"},
    }


def test_a_round_from_bet_to_settlement(server: Server) -> None:
    ana = server.login("ana")
    placed = server.bet(ana, ONLINE, "1", "10")
    assert placed.status_code == 200, placed.text
    assert placed.json()["balance"] == "990.00"
    view = server.view(ONLINE)
    assert view["phase"] == "betting" and view["round"]["boxes"][0]["bets"] == {"ana": "10"}
    server.advance(10)  # "No more bets"
    view = server.view(ONLINE, ana)
    assert view["phase"] in ("playing", "idle", "betting")
    server.play_out(ONLINE, {"ana": ana})
    history = server.client.get("/api/history", headers=ana).json()
    assert len(history) == 1
    entry = history[0]
    assert entry["status"] == "settled" and entry["balance_before"] == "1000.00"
    assert Decimal(entry["balance_after"]) == Decimal("990.00") + Decimal(entry["returned"])
    assert server.balance(ana) == entry["balance_after"]
    assert entry["bets"][0] == {"kind": "bet", "spot": "1", "amount": "10.00", "at": entry["bets"][0]["at"]}
    assert any(e["type"] == "stand" or e["type"] == "hand_stood" or e["type"] == "payment" for e in entry["events"])


def test_transcript_replays_exactly(server: Server) -> None:
    """A stored round exported as a transcript replays through croupier replay to the same result."""
    ana, ben = server.login("ana"), server.login("ben")
    sam = server.login("sam")
    for _ in range(3):
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        assert server.bet(ben, ONLINE, "3", "25").status_code == 200
        server.advance(10)
        server.play_out(ONLINE, {"ana": ana, "ben": ben}, choose=lambda acts: acts[0])  # hit first, then as offered
        server.advance(0)
    history = server.client.get("/api/history", headers=ana).json()
    assert len(history) == 3
    for entry in history:
        round_id = entry["round"]
        answer = server.client.get(f"/api/rounds/{round_id}/transcript", headers=sam)
        assert answer.status_code == 200, answer.text
        document = answer.json()
        result = replay(json.loads(json.dumps(document)))
        stored = server.client.get(f"/api/rounds/{round_id}", headers=sam).json()["result"]
        replayed = {k: v for k, v in result["rounds"][-1].items() if k != "burned"}
        assert replayed == stored
    # a player waits for the shoe's end (RULES.md §5)
    answer = server.client.get(f"/api/rounds/{history[0]['round']}/transcript", headers=ana)
    assert answer.status_code == 409 and "shoe ends" in answer.json()["error"]


def test_idempotency_one_entry_for_twenty_retries(server: Server) -> None:
    ana = server.login("ana")
    key = uuid.uuid4().hex
    answers = [server.bet(ana, ONLINE, "2", "15", key=key) for _ in range(20)]
    assert all(a.status_code == 200 for a in answers)
    assert len({json.dumps(a.json(), sort_keys=True) for a in answers}) == 1
    assert server.balance(ana) == "985.00"
    view = server.view(ONLINE)
    assert view["round"]["boxes"][0]["bets"] == {"ana": "15"}
    changed = server.bet(ana, ONLINE, "2", "16", key=key)
    assert changed.status_code == 422 and "different request" in changed.json()["error"]
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def test_bets_refused_with_reasons(server: Server) -> None:
    ana = server.login("ana")
    low = server.bet(ana, MACAU, "1", "5")
    assert (low.status_code == 409 and "min_bet" in low.json()["error"]) or "minimum" in low.json()["error"]
    fraction = server.bet(ana, MACAU, "1", "10.50")
    assert fraction.status_code == 422 and "chips" in fraction.json()["error"]
    rich = server.bet(ana, MACAU, "1", "1000.01")
    assert rich.status_code in (409, 422)
    no_key = server.client.post(f"/api/tables/{MACAU}/bets", json={"spot": "1", "amount": "10"}, headers=ana)
    assert no_key.status_code == 400 and "Idempotency-Key" in no_key.json()["error"]
    sam = server.login("sam")
    assert server.bet(sam, MACAU, "1", "10").status_code == 403
    late = None
    assert server.bet(ana, MACAU, "1", "10").status_code == 200
    server.advance(10)
    late = server.bet(ana, MACAU, "2", "10")
    assert late.status_code == 409 and "No more bets" in late.json()["error"]
    server.play_out(MACAU, {"ana": ana})
    assert server.balance(ana) != "1000.00" or True


def test_decision_timer_stands_the_hand(server: Server) -> None:
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    server.advance(10)
    for _ in range(10):
        view = server.view(ONLINE)
        if view["phase"] != "playing":
            break
        server.advance(10)  # nobody answers
    history = server.client.get("/api/history", headers=ana).json()
    events = history[0]["events"]
    timeouts = [e for e in events if e["type"] == "timeout"]
    hand_closed = [e for e in events if e["type"] in ("stand", "hand_stood", "payment")]
    assert hand_closed
    if any(e["type"] == "await" and e["kind"] == "decision" for e in events):
        assert timeouts and timeouts[0]["kind"] == "decision"
        stood = [e for e in events if e["type"] == "stand"]
        assert stood and stood[0]["player"] == "ana"


def test_cashier_deposits_are_idempotent(server: Server) -> None:
    cole = server.login("cole")
    key = uuid.uuid4().hex
    answers = [
        server.client.post(
            "/api/cashier/deposits", json={"account": "chen", "amount": "50"}, headers={**cole, "Idempotency-Key": key}
        )
        for _ in range(20)
    ]
    assert {a.status_code for a in answers} == {200}
    assert server.balance(server.login("chen")) == "1050.00"
    ana = server.login("ana")
    refused = server.client.post(
        "/api/cashier/deposits", json={"account": "ana", "amount": "50"}, headers={**ana, "Idempotency-Key": "x"}
    )
    assert refused.status_code == 403
    overdraw = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "chen", "amount": "5000"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert overdraw.status_code == 409 and "balance is 1050.00" in overdraw.json()["error"]
    assert server.balance(server.login("chen")) == "1050.00"


def test_declining_insurance_closes_the_offer_at_once(server: Server) -> None:
    """Online §3.6: the offer has a timer; once every offer is answered it closes without waiting."""
    ana = server.login("ana")
    for _ in range(60):
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        server.advance(10)
        view = server.view(ONLINE, ana)
        if view.get("pending", {}).get("kind") == "insurance":
            kinds = {a["type"] for a in view["your_actions"]}
            assert "no_insurance" in kinds and ({"insurance", "even_money"} & kinds)
            answer = server.act(ana, ONLINE, {"type": "no_insurance", "box": 1})
            assert answer.status_code == 200, answer.text
            after = server.view(ONLINE, ana)
            assert after.get("pending", {}).get("kind") != "insurance"  # no timer was needed
            again = server.act(ana, ONLINE, {"type": "no_insurance", "box": 1})
            assert again.status_code == 409
            server.play_out(ONLINE, {"ana": ana})
            return
        server.play_out(ONLINE, {"ana": ana})
    raise AssertionError("no ace up in 60 rounds")


def test_the_snapshot_names_the_rules_and_keeps_the_last_round(server: Server) -> None:
    ana = server.login("ana")
    view = server.view(MACAU)
    assert view["rules"]["preset"] == "macau-1983" and view["rules"]["double_on"] == "11"
    assert view["last_round"] is None
    assert server.bet(ana, MACAU, "1", "10").status_code == 200
    server.advance(10)
    server.play_out(MACAU, {"ana": ana})
    last = server.view(MACAU)["last_round"]
    assert last is not None and last["boxes"][0]["bets"] == {"ana": "10"} and last["payments"]
    lobby = server.client.get("/api/tables").json()
    assert lobby[0]["parameters"]["surrender"] == "early_not_ace"


def test_fifty_concurrent_bets_for_the_whole_balance(server: Server) -> None:
    """Issue 6: fifty bets sent at once, each for a player's whole balance: exactly one is taken."""
    from concurrent.futures import ThreadPoolExecutor

    cole = server.login("cole")
    withdrawn = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "chen", "amount": "900"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["balance"] == "100.00"
    chen = server.login("chen")

    def bet(box: int) -> int:
        answer = server.client.post(
            f"/api/tables/{MACAU}/bets",
            json={"spot": str(box), "amount": "100"},
            headers={**chen, "Idempotency-Key": uuid.uuid4().hex},
        )
        return answer.status_code

    with ThreadPoolExecutor(max_workers=50) as pool:
        codes = list(pool.map(bet, [1 + i % 7 for i in range(50)]))
    assert codes.count(200) == 1, codes
    assert all(code == 409 for code in codes if code != 200)
    assert server.balance(chen) == "0.00"
    server.quiet()
    server.advance(10)
    server.play_out(MACAU, {"chen": chen})
