"""Live dealing, misdeals and voids, fairness, the WebSocket view, recovery and money under contention."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app as cli
from croupier.server import ledger
from croupier.server.auth import create_account
from croupier.server.db import make_engine, migrate, sessions
from tests.server.conftest import Server, make_server
from tests.server.stacked import ONLINE_BURNS, deal_from

ONLINE, LIVE = 2, 3
CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


def test_supervisor_void_returns_every_bet_and_ends_the_shoe(server: Server) -> None:
    """Known cards keep the round in play (ana's TS 6D against 9H, a decision pending): the void returns it."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, "TS", "9H", "6D", "8C"])
    ana, sam = server.login("ana"), server.login("sam")
    assert server.bet(ana, ONLINE, "1", "20").status_code == 200
    server.advance(10)
    view = server.view(ONLINE)
    assert view["phase"] == "playing" and view["pending"]["player"] == "ana"
    assert server.balance(ana) == "980.00"
    refused = server.client.post(f"/api/tables/{ONLINE}/void", json={"reason": "x"}, headers=ana)
    assert refused.status_code == 403 and "supervisor" in refused.json()["error"]
    answer = server.client.post(f"/api/tables/{ONLINE}/void", json={"reason": "dealer error"}, headers=sam)
    assert answer.status_code == 200, answer.text
    server.quiet()
    assert server.balance(ana) == "1000.00"
    history = server.client.get("/api/history", headers=ana).json()
    assert history[0]["status"] == "voided"
    shoe = server.client.get(f"/api/shoes/{history[0]['shoe']}").json()
    assert shoe["ended"] and shoe["server_seed"]


def test_a_shoe_verifies_after_it_ends(server: Server, tmp_path: Any) -> None:
    ana, sam = server.login("ana"), server.login("sam")
    rounds = 0
    while rounds < 3:
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        server.advance(10)
        server.play_out(ONLINE, {"ana": ana})
        rounds += 1
    shoe_id = server.client.get("/api/history", headers=ana).json()[0]["shoe"]
    before = server.client.get(f"/api/shoes/{shoe_id}").json()
    assert before["server_seed"] is None and before["rounds"] == [] and len(before["commitment"]) == 64
    # end the shoe: a voided round does (the seed is revealed). A round a natural settles at once cannot be
    # voided; it is one more of the shoe's rounds, and the next one is voided.
    for _ in range(20):
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        server.advance(10)
        rounds += 1
        if server.view(ONLINE)["phase"] == "playing":
            voided = server.client.post(f"/api/tables/{ONLINE}/void", json={}, headers=sam)
            assert voided.status_code == 200, voided.text
            server.quiet()
            break
    document = server.client.get(f"/api/shoes/{shoe_id}").json()
    assert document["ended"] and len(document["rounds"]) == rounds
    assert server.client.get("/api/history", headers=ana).json()[0]["status"] == "voided"
    path = tmp_path / "shoe.json"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.stderr
    assert "the seed matches the commitment" in result.stdout
    # one card changed: found and named
    document["rounds"][1]["cards"][0] = "AS" if document["rounds"][1]["cards"][0] != "AS" else "KD"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert "card 1: the shoe dealt" in result.stderr and result.stderr.count("\n") == 1
    # a seed that is not the committed one
    document["server_seed"] = "00" * 32
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 2 and "not the commitment" in result.stderr


BACCARAT = 4


def _finished_baccarat_shoe(server: Server, coups: int = 3) -> dict[str, Any]:
    """A shoe of the demo baccarat table: a few coups, then a supervisor's void of the next ends it.

    The table squeezes (Art. 16), so a coup waits in play for its holder and can be voided. A betting window
    with no bets passes first, as at any table nobody has sat at yet: the shoe's start (Art. 2.1) was drawn
    before it, and a round without bets keeps no record, so the shoe itself must keep its start cards."""
    ana, sam = server.login("ana"), server.login("sam")
    changed = server.client.patch(
        f"/api/tables/{BACCARAT}", json={"overrides": {"lucky_6": "true", "squeeze": "true"}}, headers=sam
    )
    assert changed.status_code == 200, changed.text
    server.advance(10)  # the first window passes: the change applies with a new shoe
    shoe_id = server.view(BACCARAT)["shoe"]["id"]
    server.advance(10)  # a window with no bets, after the shoe's start
    assert server.client.post(f"/api/tables/{BACCARAT}/seats", json={"box": 1}, headers=ana).status_code == 200
    for _ in range(coups):
        assert server.bet(ana, BACCARAT, "banker", "10").status_code == 200
        server.advance(10)
        server.play_out(BACCARAT, {})  # the squeeze times out: the dealer turns the cards
    before = server.client.get(f"/api/shoes/{shoe_id}").json()
    assert before["server_seed"] is None and before.get("start_cards", []) == [] and before["rounds"] == []
    assert (
        before["cut_card"] is None and before.get("cut_setting") is None
    )  # docs/rules.md §5: nothing of the order yet
    assert server.bet(ana, BACCARAT, "banker", "10").status_code == 200
    server.advance(10)
    assert server.view(BACCARAT)["phase"] == "playing"
    answer = server.client.post(f"/api/tables/{BACCARAT}/void", json={"reason": "end the shoe"}, headers=sam)
    assert answer.status_code == 200, answer.text
    server.quiet()
    document: dict[str, Any] = server.client.get(f"/api/shoes/{shoe_id}").json()
    assert document["ended"] and document["shoe"] == shoe_id
    return document


def _verify(tmp_path: Any, document: dict[str, Any]) -> Any:
    path = tmp_path / "shoe.json"
    path.write_text(json.dumps(document))
    return CliRunner().invoke(cli, ["verify", str(path)])


def test_a_finished_baccarat_shoe_verifies_with_its_start_cards(sqlite_server: Server, tmp_path: Any) -> None:
    """Regression: `croupier verify` refused every baccarat shoe whose first card and burns (Art. 2.1) went
    with a round that kept no record; the shoe document now carries them as ``start_cards``."""
    from croupier.baccarat.tableau import card_value
    from croupier.cards import Card

    document = _finished_baccarat_shoe(sqlite_server)
    result = _verify(tmp_path, document)
    assert result.exit_code == 0, result.stderr
    assert "the seed matches the commitment" in result.stdout
    start = document["start_cards"]
    assert len(start) == 1 + (card_value(Card.parse(start[0])) or 10)  # the turned card, then its value burned
    assert document["cut_setting"] == [12, 16] and [r["status"] for r in document["rounds"]] == [
        "settled",
        "settled",
        "settled",
        "voided",
    ]


def test_verify_names_the_round_and_card_of_any_change_to_a_baccarat_shoe(sqlite_server: Server, tmp_path: Any) -> None:
    document = _finished_baccarat_shoe(sqlite_server)

    def fails(changed: dict[str, Any]) -> str:
        result = _verify(tmp_path, changed)
        assert result.exit_code == 2 and result.stdout == "", result.stdout
        assert result.stderr.count("\n") == 1, result.stderr
        return str(result.stderr)

    def other(card: str) -> str:
        return "AS" if card != "AS" else "KD"

    altered = json.loads(json.dumps(document))
    altered["rounds"][1]["cards"][2] = other(altered["rounds"][1]["cards"][2])
    assert "round 2, card 3: the shoe dealt " in fails(altered)
    altered = json.loads(json.dumps(document))
    altered["start_cards"][2] = other(altered["start_cards"][2])
    assert "shoe start, card 3: the shoe dealt " in fails(altered)
    altered = json.loads(json.dumps(document))
    del altered["start_cards"]  # the document of today's server, before the fix
    assert "round 1, card 1: the shoe dealt " in fails(altered)
    for key, value in (("client_seed", "table-4x"), ("nonce", document["nonce"] + 1)):
        altered = {**document, key: value}
        assert re.search(r"verify: (shoe start|round \d+), card \d+: the shoe dealt ", fails(altered))
    assert "not the commitment" in fails({**document, "server_seed": "00" * 32})


def test_the_dealer_deals_a_live_round(server: Server) -> None:
    ana, dora, ben = server.login("ana"), server.login("dora"), server.login("ben")
    assert server.bet(ana, LIVE, "1", "10").status_code == 200
    server.advance(10)
    refused = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": "9H"}, headers=ben)
    assert refused.status_code == 403
    bad = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": "ZZ"}, headers=dora)
    assert bad.status_code == 409 and "not a card" in bad.json()["error"]
    # live-online: 6 burns at the shoe's start (§3.5), then box 1, dealer, box 1, hole card
    for card in ["2C", "3C", "4C", "5C", "6C", "7C", "TH", "9S", "8D", "KC"]:
        answer = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": card}, headers=dora)
        assert answer.status_code == 200, answer.text
        server.quiet()
    view = server.view(LIVE, ana)
    assert view["round"]["boxes"][0]["hands"][0]["cards"] == ["TH", "8D"]
    assert view["round"]["dealer"] == {"cards": ["9S"], "hole_card": True, "total": 9}
    assert "KC" not in json.dumps(view)  # the hole card is not shown
    assert server.act(ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    view = server.view(LIVE)
    assert view["phase"] == "betting"  # 9S + KC = 19 stands; 18 loses
    assert server.balance(ana) == "990.00"


def test_misdeal_redeals_the_same_bets(server: Server) -> None:
    ana, dora, sam = server.login("ana"), server.login("dora"), server.login("sam")
    assert server.bet(ana, LIVE, "2", "10").status_code == 200
    server.advance(10)
    for card in ["2C", "3C", "4C", "5C", "6C", "7C", "TH"]:
        server.client.post(f"/api/tables/{LIVE}/cards", json={"card": card}, headers=dora)
        server.quiet()
    assert server.client.post(f"/api/tables/{LIVE}/misdeal", headers=dora).status_code == 403
    answer = server.client.post(f"/api/tables/{LIVE}/misdeal", headers=sam)
    assert answer.status_code == 200 and answer.json() == {"accepted": True, "misdeal": True, "burn": 3}
    server.quiet()
    # online §3.5: burn 3 after an error, then the deal again
    for card in ["8C", "9C", "TC", "TS", "6D", "9D", "QH"]:
        answer = server.client.post(f"/api/tables/{LIVE}/cards", json={"card": card}, headers=dora)
        assert answer.status_code == 200, answer.text
        server.quiet()
    assert server.view(LIVE)["round"]["boxes"][0]["hands"][0]["cards"] == ["TS", "9D"]
    assert server.act(ana, LIVE, {"type": "stand", "box": 2, "hand": 0}).status_code == 200
    server.quiet()
    # 19 against 6 + QH = 16: the dealer draws the next card supplied, a ten, and busts
    assert server.client.post(f"/api/tables/{LIVE}/cards", json={"card": "TD"}, headers=dora).status_code == 200
    server.quiet()
    assert server.balance(ana) == "1010.00"


def test_a_spy_sees_no_card_before_it_is_face_up(sqlite_server: Server) -> None:
    """Record every message a player's socket receives over several shoes' worth of rounds; a card
    string may appear only once a face-up event has shown that many copies of it."""
    server = sqlite_server
    ana = server.login("ana")
    token = ana["Authorization"].split()[1]
    messages: list[dict[str, Any]] = []
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}?token={token}") as socket:
        messages.append(socket.receive_json())
        for _ in range(12):
            assert server.bet(ana, ONLINE, "1", "10").status_code == 200
            server.advance(10)
            server.play_out(ONLINE, {"ana": ana}, choose=lambda acts: acts[0])
            server.advance(0)
        sentinel = server.bet(ana, ONLINE, "1", "10")  # a last event to read up to
        assert sentinel.status_code == 200
        while True:
            message = socket.receive_json()
            messages.append(message)
            event = message.get("event", {})
            rounds_over = sum(1 for m in messages if m.get("event", {}).get("type") == "round_over")
            if event.get("type") == "bet" and event.get("player") == "ana" and rounds_over >= 12:
                break
    shown: dict[str, int] = {}
    for message in messages:
        event = message.get("event", {})
        if event.get("type") in ("card", "hole_card", "card_voided") and "card" in event:
            shown[event["card"]] = shown.get(event["card"], 0) + 1
        text = json.dumps(message)
        for card in CARD.findall(text):
            assert shown.get(card, 0) >= 1, f"{card} sent before it was dealt face up: {text[:300]}"
        assert "server_seed" not in text or '"server_seed": null' in text
    burns = sum(1 for m in messages if m.get("event", {}).get("type") == "burn")
    assert burns >= 6  # the shoe's start burns were announced, never their cards
    assert sum(1 for m in messages if m.get("event", {}).get("type") == "round_over") >= 12


def test_two_viewers_see_each_others_bets(sqlite_server: Server) -> None:
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    token = ben["Authorization"].split()[1]
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}?token={token}") as socket:
        first = socket.receive_json()
        assert first["type"] == "snapshot" and first["snapshot"]["game"] == "blackjack"
        assert server.bet(ana, ONLINE, "4", "30").status_code == 200
        for _ in range(20):
            message = socket.receive_json()
            if message.get("event", {}).get("type") == "bet":
                assert message["event"] == {"type": "bet", "player": "ana", "box": 4, "amount": "30"}
                break
        else:
            raise AssertionError("ben never saw ana's bet")
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def test_recovery_voids_an_unfinished_round(tmp_path: Any) -> None:
    """A process that stops in the middle of a round: the next one voids it and returns every bet."""
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    first = make_server(url)
    server = next(first)
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "50").status_code == 200
    server.advance(10)
    for actor in server.service.actors.values():  # the process dies: nothing more is written
        server.client.portal.call(actor.stop)
    server.service.actors.clear()
    first.close()  # the client closes; the ledger check in make_server is skipped by close()
    second = make_server(url)
    server = next(second)
    ana = server.login("ana")
    server.quiet()
    assert server.balance(ana) == "1000.00"
    history = server.client.get("/api/history", headers=ana).json()
    assert history[0]["status"] == "voided" and "server stopped" in json.dumps(history[0]["result"])
    with pytest.raises(StopIteration):
        next(second)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_fifty_concurrent_debits_of_a_whole_balance(kind: str, tmp_path: Any, postgres: bool) -> None:
    """The ledger itself, under real concurrency: 50 transactions on 50 connections each try to take a
    player's whole balance; exactly one succeeds and the wallet ends at zero."""
    from tests.server.conftest import database_url

    for url in database_url(kind, tmp_path, postgres):

        async def run(url: str = url) -> tuple[int, int]:
            engine = make_engine(url)
            await migrate(engine)
            make = sessions(engine)
            async with make() as session, session.begin():
                account = await create_account(session, "dee", "dee-plays-7391")
                wallet = await ledger.player_wallet(session, account.id)
                cashier = await ledger.system_wallet(session, "cashier")
                await ledger.post(session, "deposit", [(wallet, 10_000), (cashier, -10_000)])
                in_play = await ledger.system_wallet(session, "in_play")

            async def take() -> bool:
                try:
                    async with make() as session, session.begin():
                        await ledger.post(session, "bet", [(wallet, -10_000), (in_play, 10_000)], who="dee")
                    return True
                except ledger.InsufficientFunds:
                    return False

            results = await asyncio.gather(*(take() for _ in range(50)))
            async with make() as session:
                balance = await ledger.balance(session, account.id)
                entries, balances, unbalanced = await ledger.ledger_sums(session)
                assert (entries, balances, unbalanced) == (0, 0, 0)
            await engine.dispose()
            return sum(results), balance

        accepted, balance = asyncio.run(run())
        assert accepted == 1 and balance == 0
