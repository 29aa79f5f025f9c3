"""Seats (Art. 2.3, 13, 15, 16) and what each viewer may see: Macau's face-down box cards (Art. 3.1a)
and the baccarat squeeze (Art. 16) reach nobody but those entitled before they are face up."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from croupier.baccarat.presets import baccarat_rules
from croupier.server.baccarat_round import BaccaratDriver
from croupier.server.models import GameTable
from tests.server.conftest import Server

MACAU, ONLINE, BACCARAT = 1, 2, 4


def restart_with(server: Server, table_id: int, **changes: Any) -> None:
    """Stop a table's actor, change its row, start it again (the demo tables as an operator set them)."""
    service = server.service

    async def go() -> None:
        actor = service.actors.pop(table_id)
        await actor.stop()
        async with service.session() as session, session.begin():
            row = await session.get(GameTable, table_id)
            assert row is not None
            for name, value in changes.items():
                setattr(row, name, value)
        async with service.session() as session:
            fresh = await session.get(GameTable, table_id)
            assert fresh is not None
        service.start_table(fresh)

    server.client.portal.call(go)
    server.quiet()


def test_art_2_3_one_seat_per_player(sqlite_server: Server) -> None:
    """Regression: a player could take every empty box by betting on each. One seat per player; a seated
    player bets on another box only behind its occupant (Art. 2.3)."""
    server = sqlite_server
    ana = server.login("ana")
    answer = server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ana)
    assert answer.status_code == 200, answer.text
    assert answer.json()["seats"] == {"1": "ana"}
    again = server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 2}, headers=ana)
    assert again.status_code == 409 and "one seat per player (Art. 2.3)" in again.json()["error"]
    assert server.bet(ana, MACAU, "1", "10").status_code == 200
    for box in range(2, 8):
        refused = server.bet(ana, MACAU, str(box), "10")
        assert refused.status_code == 409, refused.text
        assert "Art. 2.3" in refused.json()["error"] and "empty" in refused.json()["error"]
    assert server.view(MACAU)["seats"] == {"1": "ana"}
    server.advance(10)
    server.play_out(MACAU, {"ana": ana})


def test_a_bet_on_an_empty_box_seats_a_player_who_sits_nowhere(sqlite_server: Server) -> None:
    server = sqlite_server
    ben = server.login("ben")
    token = ben["Authorization"].split()[1]
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}?token={token}") as socket:
        socket.receive_json()
        assert server.bet(ben, ONLINE, "3", "10").status_code == 200
        for _ in range(20):
            event = socket.receive_json().get("event", {})
            if event.get("type") == "seated":
                assert event == {"type": "seated", "box": 3, "player": "ben"}
                break
        else:
            raise AssertionError("no seated event")
    assert server.view(ONLINE)["seats"] == {"3": "ben"}
    server.advance(10)
    server.play_out(ONLINE, {"ben": ben})


def test_a_seat_is_left_only_once_nothing_of_the_player_is_in_the_round(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "2", "10").status_code == 200
    early = server.client.delete(f"/api/tables/{ONLINE}/seats/2", headers=ana)
    assert early.status_code == 409 and "Art. 2.3" in early.json()["error"]
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
    server.advance(0)
    left = server.client.delete(f"/api/tables/{ONLINE}/seats/2", headers=ana)
    assert left.status_code == 200, left.text
    assert server.view(ONLINE)["seats"] == {}
    ben = server.login("ben")
    assert server.client.post(f"/api/tables/{ONLINE}/seats", json={"box": 2}, headers=ben).status_code == 200
    staff = server.client.post(f"/api/tables/{ONLINE}/seats", json={"box": 5}, headers=server.login("sam"))
    assert staff.status_code == 403


def test_art_3_1a_macau_box_cards_reach_only_the_boxs_bettors_until_it_has_played(sqlite_server: Server) -> None:
    """A spy at a Macau 1983 table sees the boxes' first two cards face down until each box has played;
    the box's bettor gets them privately at once."""
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    spy_token = ben["Authorization"].split()[1]
    ana_token = ana["Authorization"].split()[1]
    checked = 0
    with (
        server.client.websocket_connect(f"/ws/tables/{MACAU}?token={spy_token}") as spy,
        server.client.websocket_connect(f"/ws/tables/{MACAU}?token={ana_token}") as own,
    ):
        spy.receive_json()
        own.receive_json()
        for _ in range(6):
            assert server.bet(ana, MACAU, "1", "10").status_code == 200
            server.advance(10)
            view = server.view(MACAU)
            hands = view["round"]["boxes"][0]["hands"] if view["round"] else []
            if view["phase"] == "playing" and hands and hands[0]["outcome"] is None:
                assert hands[0]["cards"][:2] == [None, None] and hands[0]["total"] is None
                mine = server.view(MACAU, ana)["round"]["boxes"][0]["hands"][0]
                assert None not in mine["cards"] and isinstance(mine["total"], int)
                checked += 1
            server.play_out(MACAU, {"ana": ana})
            server.advance(0)
        server.bet(ana, MACAU, "1", "10")
        spy_messages = _until_rounds(spy, 6)
        own_messages = _until_rounds(own, 6)
    assert checked >= 1
    shown = False
    face_down = 0
    for message in spy_messages:
        event = message["event"]
        assert not event.get("private")
        if event.get("type") == "betting_open":
            shown = False
        if event.get("type") == "box_shown":
            shown = True
        if event.get("type") == "card" and event.get("box", 0) > 0 and not shown and not event.get("face_up"):
            assert "card" not in event, f"a box card reached the spy: {event}"
            face_down += 1
    private = [m["event"] for m in own_messages if m["event"].get("private")]
    assert private and all(e["type"] == "card" and "card" in e and e["box"] == 1 for e in private)
    assert any(m["event"].get("type") == "box_shown" for m in spy_messages)
    assert face_down >= 2 * 6


def _until_rounds(socket: Any, rounds: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    while sum(1 for m in messages if m.get("event", {}).get("type") == "round_over") < rounds:
        message = socket.receive_json()
        if "event" in message:
            messages.append(message)
    return messages


def test_art_16_a_squeezed_card_reaches_its_holder_only_until_turned() -> None:
    """The seated player with the largest bet on a side squeezes it: the side's cards are face down to
    everyone else, nothing dealt after them leaves the server, and turning shows them to all."""
    driver = BaccaratDriver(baccarat_rules("macau", {"squeeze": True}))
    driver.load(driver.build(b"\x02" * 32, "table-9", 1))
    coup = driver.next_round()
    coup.set_seated({1: "ben"})
    coup.bet("ben", "player", Decimal(50))
    coup.bet("ana", "banker", Decimal(100))  # the largest banker bet, but ana stands: the dealer turns (Art. 16)
    coup.close_betting()
    assert coup.holders() == {"player": "ben"}
    assert coup.pending().kind == "squeeze" and coup.pending().player == "ben"
    count, events = coup.events_since(0)
    public = [e for e in events if "to" not in e]
    private = [e for e in events if "to" in e]
    assert [e["face_up"] for e in public if e["type"] == "card" and e["side"] == "player"] == [False, False]
    assert all("card" not in e for e in public if e["type"] == "card" and e["side"] == "player")
    assert [e["to"] for e in private] == [["ben"], ["ben"]] and all("card" in e for e in private)
    assert not any(e["type"] == "coup_result" for e in events)
    assert coup.view()["player_cards"] == [None, None] and coup.view()["result"] is None
    assert None not in coup.view("ben")["player_cards"]
    assert None not in coup.view()["banker_cards"]
    assert coup.legal_for("ben") == [{"type": "turn", "side": "player"}]
    assert coup.legal_for("ana") == []
    coup.act("ben", {"type": "turn", "side": "player"})
    while coup.pending().kind == "squeeze":  # a third card is squeezed on its own; the timer turns it here
        coup.timeout()
    assert coup.pending().kind == "over" and coup.finished
    _count, later = coup.events_since(count)
    assert [e["type"] for e in later].count("card_turned") >= 2
    assert any(e["type"] == "coup_result" for e in later)
    assert None not in coup.view()["player_cards"]


def test_art_16_squeeze_at_the_table_spy_sees_no_squeezed_card(sqlite_server: Server) -> None:
    server = sqlite_server
    restart_with(server, BACCARAT, overrides={"squeeze": True})
    ana, ben = server.login("ana"), server.login("ben")
    assert server.client.post(f"/api/tables/{BACCARAT}/seats", json={"box": 2}, headers=ana).status_code == 200
    spy_token = ben["Authorization"].split()[1]
    with server.client.websocket_connect(f"/ws/tables/{BACCARAT}?token={spy_token}") as spy:
        spy.receive_json()
        assert server.bet(ana, BACCARAT, "player", "100").status_code == 200
        server.advance(10)
        view = server.view(BACCARAT)
        assert view["pending"]["kind"] == "squeeze" and view["round"]["player_cards"] == [None, None]
        assert None not in server.view(BACCARAT, ana)["round"]["player_cards"]
        turn = server.act(ana, BACCARAT, {"type": "turn", "side": "player"})
        assert turn.status_code == 200, turn.text
        for _ in range(5):
            if server.view(BACCARAT)["phase"] != "playing":
                break
            server.advance(30)  # a squeezed third card: the squeeze time runs out
        messages = _until_rounds(spy, 1)
    hidden = 0
    for message in messages:
        event = message["event"]
        assert not event.get("private")
        if event.get("type") == "card" and not event.get("face_up"):
            assert "card" not in event
            hidden += 1
    assert hidden >= 2
    assert sum(1 for m in messages if m["event"].get("type") == "card_turned") >= 2


def _end_shoe(server: Server, table: int, player: dict[str, str]) -> None:
    """Void a round in play (the supervisor's void ends the shoe and reveals its seed)."""
    sam = server.login("sam")
    for _ in range(10):
        assert server.bet(player, table, "1", "10").status_code == 200
        server.advance(10)
        if server.view(table)["phase"] == "playing":
            answer = server.client.post(f"/api/tables/{table}/void", json={"reason": "end the shoe"}, headers=sam)
            assert answer.status_code == 200, answer.text
            server.quiet()
            return
        server.advance(0)
    raise AssertionError("no round stayed in play to void")


def test_art_2_1_the_first_seated_player_cuts_and_verify_checks_the_cut(sqlite_server: Server, tmp_path: Any) -> None:
    """docs/rules.md §5, Art. 2.1 ("a player cuts"): once a new shoe's commitment is out, the first seated
    player may supply its client seed; the shoe is built from it and `croupier verify` checks it."""
    import json

    from typer.testing import CliRunner

    from croupier.cli import app as cli

    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    assert server.client.post(f"/api/tables/{ONLINE}/seats", json={"box": 3}, headers=ben).status_code == 200
    assert server.client.post(f"/api/tables/{ONLINE}/seats", json={"box": 1}, headers=ana).status_code == 200
    early = server.client.post(f"/api/tables/{ONLINE}/cut", json={"client_seed": "too soon"}, headers=ana)
    assert early.status_code == 409 and "Art. 2.1" in early.json()["error"]
    _end_shoe(server, ONLINE, ana)
    view = server.view(ONLINE)
    assert view["phase"] == "cut" and view["cutter"] == "ana" and len(view["shoe"]["commitment"]) == 64
    shoe_id = view["shoe"]["id"]
    refused = server.client.post(f"/api/tables/{ONLINE}/cut", json={"client_seed": "ben's"}, headers=ben)
    assert refused.status_code == 403 and "first seated player" in refused.json()["error"]
    answer = server.client.post(f"/api/tables/{ONLINE}/cut", json={"client_seed": "ana's cut"}, headers=ana)
    assert answer.status_code == 200, answer.text
    server.quiet()
    assert server.view(ONLINE)["phase"] == "betting"
    _end_shoe(server, ONLINE, ana)
    server.advance(10)  # nobody cuts the next shoe: the house's default seed
    document = server.client.get(f"/api/shoes/{shoe_id}").json()
    assert document["client_seed"] == "ana's cut" and document["ended"]
    path = tmp_path / "shoe.json"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.stderr
    document["client_seed"] = "table-2"  # the house's default would have dealt another shoe
    path.write_text(json.dumps(document))
    assert CliRunner().invoke(cli, ["verify", str(path)]).exit_code == 2


def test_art_18_tied_bets_stay_on_the_spot_and_the_table_deals_on(sqlite_server: Server, monkeypatch: Any) -> None:
    """Regression: a table with tie_bets=increase_only refunded the tied bets, then stopped at the next coup
    (BetError: may not be cancelled or reduced), a stake stuck in play. Now the tied banker bet stays on
    its spot, ana adds to it, the next coup settles it and the table deals on."""
    from croupier.cards import DECK, Card
    from croupier.server.baccarat_round import BaccaratDriver as Driver
    from croupier.shoe import Shoe

    top = [Card.parse(c) for c in ("AS", "2S", "9S", "9H", "TS", "TH")]  # first card A: one burn; a 9-9 tie
    rest = list(DECK * 8)
    for card in top:
        rest.remove(card)
    monkeypatch.setattr(Driver, "build", lambda self, *args: Shoe.stacked(8, top + rest))
    server = sqlite_server
    restart_with(server, BACCARAT, overrides={"tie_bets": "increase_only"})
    ana = server.login("ana")
    assert server.bet(ana, BACCARAT, "banker", "100").status_code == 200
    server.advance(10)
    last = server.view(BACCARAT)["last_round"]
    assert last["result"]["winner"] == "tie"
    assert server.balance(ana) == "900.00"  # the bet stands on the spot
    view = server.view(BACCARAT)
    assert view["phase"] == "betting" and view["round"]["bets"] == {"banker": {"ana": "100"}}
    assert server.bet(ana, BACCARAT, "banker", "20").status_code == 200  # added to, never reduced
    server.advance(10)
    view = server.view(BACCARAT)
    assert view["phase"] == "betting", view
    result = view["last_round"]["result"]
    paid = {"banker": Decimal("120") * Decimal("1.95"), "player": Decimal(0), "tie": Decimal(120)}[result["winner"]]
    assert Decimal(server.balance(ana)) == Decimal(880) + paid
    assert server.bet(ana, BACCARAT, "player", "10").status_code == 200  # the table deals on


def test_art_15_standing_players_may_not_bet_on_a_seated_players_spot(sqlite_server: Server) -> None:
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    assert server.client.post(f"/api/tables/{BACCARAT}/seats", json={"box": 2}, headers=ana).status_code == 200

    def bet(who: dict[str, str], seat: int) -> Any:
        import uuid

        return server.client.post(
            f"/api/tables/{BACCARAT}/bets",
            json={"spot": "player", "amount": "10", "seat": seat},
            headers={**who, "Idempotency-Key": uuid.uuid4().hex},
        )

    refused = bet(ben, 2)
    assert refused.status_code == 409 and "Art. 15" in refused.json()["error"] and "ana" in refused.json()["error"]
    assert bet(ben, 5).status_code == 409  # an empty seat's spot is nobody's to bet at
    assert bet(ana, 2).status_code == 200
    server.quiet()
    standing = server.bet(ben, BACCARAT, "banker", "10")  # standing, at no seat's spot
    assert standing.status_code == 200, standing.text
    server.advance(10)


def test_a_request_with_an_odd_spot_or_a_huge_amount_is_refused_and_the_table_deals_on(sqlite_server: Server) -> None:
    """No request stops a table: a box of "²" or "①" (digits to str.isdigit, not to int) and an amount of
    1e999998 are refused with a 4xx; the round in betting is untouched and the table records no fault."""
    server = sqlite_server
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    for spot, amount in (("²", "10"), ("①", "10"), ("2", "1e999998"), ("2", "1e999997")):
        answer = server.bet(server.login("ben"), ONLINE, spot, amount)
        assert 400 <= answer.status_code < 500, answer.text
    view = server.view(ONLINE)
    assert view["phase"] == "betting" and view["faults"] == []
    assert view["round"]["boxes"][0]["bets"] == {"ana": "10"}
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def test_art_2_3_a_bet_behind_before_the_occupant_plays_and_one_left_alone_is_returned(sqlite_server: Server) -> None:
    """Bets in any order (Art. 2.3 is judged when betting closes): ben's bet behind ana's box before she
    bets plays with hers; the next round, ana does not bet and ben's bet behind is returned whole."""
    server = sqlite_server
    ana, ben = server.login("ana"), server.login("ben")
    assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 4}, headers=ana).status_code == 200
    early = server.client.post(
        f"/api/tables/{MACAU}/bets",
        json={"spot": "4", "amount": "10", "match": False},
        headers={**ben, "Idempotency-Key": "ben-early"},
    )
    assert early.status_code == 200, early.text
    assert server.bet(ana, MACAU, "4", "20").status_code == 200
    assert server.view(MACAU)["round"]["boxes"][0]["bets"] == {"ben": "10", "ana": "20"}
    server.advance(10)
    server.play_out(MACAU, {"ana": ana, "ben": ben})
    server.advance(0)
    before = server.client.get("/api/me", headers=ben).json()["balance"]
    token = ben["Authorization"].split()[1]
    with server.client.websocket_connect(f"/ws/tables/{MACAU}?token={token}") as socket:
        socket.receive_json()
        assert server.bet(ben, MACAU, "4", "10").status_code == 200
        server.advance(10)
        messages = _until_rounds(socket, 1)
    returned = [m["event"] for m in messages if m["event"].get("type") == "bet_returned"]
    assert len(returned) == 1 and returned[0]["player"] == "ben" and returned[0]["box"] == 4
    assert "Art. 2.3" in returned[0]["reason"]
    assert server.client.get("/api/me", headers=ben).json()["balance"] == before
    ledger = server.client.get("/api/ledger", headers=server.login("sam")).json()
    assert ledger == {"entries_sum": 0, "balances_sum": 0, "unbalanced_transactions": 0, "wallets_match_entries": True}


def test_art_18_a_bet_standing_after_a_tie_is_returned_when_the_table_closes(
    sqlite_server: Server, monkeypatch: Any
) -> None:
    """The tie's coup was the table's last (a supervisor closed it meanwhile): the bet left standing for a
    coup that will not be dealt is returned, not left in play."""
    from croupier.cards import DECK, Card
    from croupier.server.baccarat_round import BaccaratDriver as Driver
    from croupier.shoe import Shoe

    top = [Card.parse(c) for c in ("AS", "2S", "9S", "9H", "TS", "TH")]
    rest = list(DECK * 8)
    for card in top:
        rest.remove(card)
    monkeypatch.setattr(Driver, "build", lambda self, *args: Shoe.stacked(8, top + rest))
    server = sqlite_server
    restart_with(server, BACCARAT, overrides={"tie_bets": "increase_only"})
    ana, sam = server.login("ana"), server.login("sam")
    assert server.bet(ana, BACCARAT, "banker", "100").status_code == 200
    closing = server.client.delete(f"/api/tables/{BACCARAT}", headers=sam)
    assert closing.status_code == 202, closing.text
    server.advance(10)
    import asyncio

    for _ in range(200):  # the actor closes the table after the coup, then stops
        if server.view(BACCARAT)["phase"] == "closed" and server.balance(ana) == "1000.00":
            break
        server.client.portal.call(asyncio.sleep, 0.02)
    assert server.balance(ana) == "1000.00"
    history = server.client.get("/api/history", headers=ana).json()
    assert history[0]["status"] == "voided" and "tie" in str(history[0]["result"]["voided"])
    assert history[1]["result"]["winner"] == "tie"
