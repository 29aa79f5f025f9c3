"""The table service's REST API, with SQLite and with PostgreSQL."""

from __future__ import annotations

import json
import uuid

from croupier.transcript import replay
from tests.server.conftest import Server, statements
from tests.server.stacked import MACAU_BURNS, ONLINE_BURNS, deal_from

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
    """Known cards: ana holds TS 8D against the dealer's 7H; she stands on 18, the dealer turns TC and stands
    on 17, and she is paid even money: 10 staked, 20 returned, 1010.00 after."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, "TS", "7H", "8D", "TC"])
    ana = server.login("ana")
    placed = server.bet(ana, ONLINE, "1", "10")
    assert placed.status_code == 200, placed.text
    assert placed.json()["balance"] == "990.00"
    view = server.view(ONLINE)
    assert view["phase"] == "betting" and view["round"]["boxes"][0]["bets"] == {"ana": "10"}
    server.advance(10)  # "No more bets"
    view = server.view(ONLINE, ana)
    assert view["phase"] == "playing"
    assert (view["pending"]["kind"], view["pending"]["player"]) == ("decision", "ana")
    assert "stand" in {a["type"] for a in view["your_actions"]}
    server.play_out(ONLINE, {"ana": ana})  # she stands
    history = server.client.get("/api/history", headers=ana).json()
    assert len(history) == 1
    entry = history[0]
    assert entry["status"] == "settled"
    assert (entry["staked"], entry["returned"]) == ("10.00", "20.00")
    assert (entry["balance_before"], entry["balance_after"]) == ("1000.00", "1010.00")
    assert server.balance(ana) == "1010.00"
    assert entry["bets"][0] == {"kind": "bet", "spot": "1", "amount": "10.00", "at": entry["bets"][0]["at"]}
    assert entry["result"]["dealer"] == {"cards": ["7H", "TC"], "total": 17}
    assert entry["result"]["boxes"][0]["hands"][0]["cards"] == ["TS", "8D"]
    assert entry["result"]["net"] == {"ana": "10"}
    shown = [{k: v for k, v in e.items() if k != "at"} for e in entry["events"] if e["type"] in ("stand", "payment")]
    assert shown == [
        {"type": "stand", "player": "ana", "box": 1, "hand": 0},
        {"type": "payment", "player": "ana", "box": 1, "hand": 0, "kind": "win", "stake": "10", "amount": "10"},
    ]


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
    # a player waits for the shoe's end (docs/rules.md §5)
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
    """Each refused bet names its rule and takes nothing; the one bet taken then plays on known cards (ana TS
    9D against 7H, the dealer burns one and draws TC to 17) and wins: 1010.00 after."""
    deal_from(server, MACAU, [*MACAU_BURNS, "TS", "9D", "7H", "2D", "TC"])
    ana = server.login("ana")
    low = server.bet(ana, MACAU, "1", "5")
    assert low.status_code == 409 and low.json()["error"] == "the table minimum is 10; ana bet 5 on box 1"
    fraction = server.bet(ana, MACAU, "1", "10.50")
    assert fraction.status_code == 422 and "not a whole number of the table's 1.00 chips" in fraction.json()["error"]
    cents = server.bet(ana, MACAU, "1", "1000.01")
    assert cents.status_code == 422 and cents.json()["code"] == "bet.not_whole_chips"
    rich = server.bet(ana, MACAU, "1", "1001")
    assert rich.status_code == 409 and rich.json()["error"] == "the table maximum is 1000; ana bet 1001 on box 1"
    no_key = server.client.post(f"/api/tables/{MACAU}/bets", json={"spot": "1", "amount": "10"}, headers=ana)
    assert no_key.status_code == 400 and "Idempotency-Key" in no_key.json()["error"]
    sam = server.login("sam")
    assert server.bet(sam, MACAU, "1", "10").status_code == 403
    assert server.balance(ana) == "1000.00"  # nothing refused was taken
    assert server.bet(ana, MACAU, "1", "10").status_code == 200
    server.advance(10)
    late = server.bet(ana, MACAU, "2", "10")
    assert late.status_code == 409 and "No more bets" in late.json()["error"]
    assert server.balance(ana) == "990.00"
    server.play_out(MACAU, {"ana": ana})
    assert server.balance(ana) == "1010.00"
    history = server.client.get("/api/history", headers=ana).json()
    assert [(h["staked"], h["returned"]) for h in history] == [("10.00", "20.00")]


def test_decision_timer_stands_the_hand(server: Server) -> None:
    """Known cards: ana's TS 6D against the dealer's 9H. Nobody answers; when the decision timer runs out
    the hand stands on 16, the dealer turns 8C and stands on 17, and ana loses her 10."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, "TS", "9H", "6D", "8C"])
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    server.advance(10)
    pending = server.view(ONLINE)["pending"]
    assert (pending["kind"], pending["player"]) == ("decision", "ana")
    server.advance(9)
    assert server.view(ONLINE)["phase"] == "playing"  # the timer has not run out yet
    server.advance(1)  # nobody answers
    assert server.view(ONLINE)["phase"] == "betting"
    history = server.client.get("/api/history", headers=ana).json()
    events = [{k: v for k, v in e.items() if k != "at"} for e in history[0]["events"]]
    timeouts = [e for e in events if e["type"] == "timeout"]
    assert len(timeouts) == 1 and timeouts[0]["kind"] == "decision"
    after = events[events.index(timeouts[0]) + 1 :]
    assert [e for e in after if e["type"] in ("stand", "hit", "double", "split")] == [
        {"type": "stand", "player": "ana", "box": 1, "hand": 0}
    ]
    assert history[0]["result"]["dealer"] == {"cards": ["9H", "8C"], "total": 17}
    assert history[0]["result"]["net"] == {"ana": "-10"}
    assert server.balance(ana) == "990.00"


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
    """Online §3.6: the offer has a timer; once every offer is answered it closes without waiting. Known
    cards: ana's 9H 7D against the dealer's AS (hole 5D, no blackjack)."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, "9H", "AS", "7D", "5D"])
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    server.advance(10)
    view = server.view(ONLINE, ana)
    assert view["pending"]["kind"] == "insurance"
    kinds = {a["type"] for a in view["your_actions"]}
    assert "no_insurance" in kinds and "insurance" in kinds
    answer = server.act(ana, ONLINE, {"type": "no_insurance", "box": 1})
    assert answer.status_code == 200, answer.text
    after = server.view(ONLINE, ana)
    assert (after["pending"]["kind"], after["pending"]["player"]) == ("decision", "ana")  # no timer was needed
    again = server.act(ana, ONLINE, {"type": "no_insurance", "box": 1})
    assert again.status_code == 409
    server.play_out(ONLINE, {"ana": ana})
    events = server.client.get("/api/history", headers=ana).json()[0]["events"]
    assert not [e for e in events if e["type"] == "timeout"]


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
    """Fifty bets sent at once, each for a player's whole balance: exactly one is taken."""
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


def test_a_settlement_updates_its_round_record_once(server: Server) -> None:
    """The round's cards, log, result and status are written by one UPDATE of its record, in the
    settlement's transaction (each statement of which every other bet of the table waits behind)."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, "TS", "9H", "8D", "8C"])
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    server.advance(10)
    with statements() as seen:
        server.play_out(ONLINE, {"ana": ana})
    updates = [s for s in seen if s.startswith("UPDATE rounds")]
    assert len(updates) == 1 and "cards=" in updates[0] and "status=" in updates[0], updates
    last = server.client.get("/api/history", headers=ana).json()[0]
    assert last["status"] == "settled" and last["result"]["dealer"]["cards"] == ["9H", "8C"]
