"""Baccarat at a server table: bets on every spot, the coup dealt and settled, the roads."""

from __future__ import annotations

from decimal import Decimal

from tests.server.conftest import Server
from tests.server.stacked import deal_from

BACCARAT = 4


def test_a_coup_with_bets_on_every_spot(server: Server) -> None:
    """Known cards: the first card AS burns one (Art. 2.1); the player draws 4S 4H (a natural 8 and a pair),
    the banker 2D 3D (5). Player pays 1:1, the player pair 11:1 (Art. 17.3); tie, lucky 6 and banker lose."""
    deal_from(server, BACCARAT, ["AS", "KC", "4S", "2D", "4H", "3D"])
    ana, ben = server.login("ana"), server.login("ben")
    view = server.view(BACCARAT, ana)
    assert view["game"] == "baccarat" and view["phase"] == "betting"
    assert {a["spot"] for a in view["your_actions"]} == {
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "lucky_6",
    }
    for spot, amount in [("player", "20"), ("tie", "10"), ("player_pair", "10"), ("lucky_6", "10")]:
        answer = server.bet(ana, BACCARAT, spot, amount)
        assert answer.status_code == 200, answer.text
    assert server.bet(ben, BACCARAT, "banker", "30").status_code == 200
    refused = server.bet(ben, BACCARAT, "banker", "15")  # Art. 18: banker bets in multiples of the minimum
    assert refused.status_code == 409 and "multiple of the minimum" in refused.json()["error"]
    unknown = server.bet(ben, BACCARAT, "dragon", "10")
    assert unknown.status_code == 409 and "unknown spot" in unknown.json()["error"]
    assert (server.balance(ana), server.balance(ben)) == ("950.00", "970.00")
    server.advance(10)
    history = server.client.get("/api/history", headers=ana).json()
    assert len(history) == 1 and history[0]["status"] == "settled"
    result = history[0]["result"]
    assert result["winner"] == "player"
    assert result["net"] == {"ana": "110", "ben": "-30"}  # 20 - 10 + 11 x 10 - 10; ben's banker bet lost
    assert (history[0]["staked"], history[0]["returned"]) == ("50.00", "160.00")
    assert (server.balance(ana), server.balance(ben)) == ("1110.00", "970.00")
    view = server.view(BACCARAT)
    assert view["phase"] == "betting"
    assert sum(len(column) for column in view["round"]["roads"]["bead_plate"]) == 1
    cards = [e["card"] for e in history[0]["events"] if e["type"] == "card"]
    assert cards == ["4S", "2D", "4H", "3D"]
    assert [e["type"] for e in history[0]["events"]].count("coup_result") == 1


BANKER_9_TO_7 = ("TS", "TD", "7S", "9D")  # dealt player, banker, player, banker: naturals, no third card
PLAYER_9_TO_7 = ("TS", "TD", "9S", "7D")
TIE_8 = ("TS", "TD", "8S", "8D")


def test_many_coups_conserve_money(server: Server) -> None:
    """Eight known coups with 10 on the banker each: four banker wins (9.50 each after the 5% commission,
    Art. 18), three player wins (-10 each), a tie (returned, Art. 12): 1008.00 after, to the cent."""
    coups = [BANKER_9_TO_7, PLAYER_9_TO_7, BANKER_9_TO_7, TIE_8, BANKER_9_TO_7, PLAYER_9_TO_7, BANKER_9_TO_7]
    coups.append(PLAYER_9_TO_7)
    deal_from(server, BACCARAT, ["AS", "KC", *(card for coup in coups for card in coup)])
    ana = server.login("ana")
    for _ in range(8):
        assert server.bet(ana, BACCARAT, "banker", "10").status_code == 200
        server.advance(10)
    history = server.client.get("/api/history?limit=20", headers=ana).json()
    assert len(history) == 8
    winners = [h["result"]["winner"] for h in reversed(history)]
    assert winners == ["banker", "player", "banker", "tie", "banker", "player", "banker", "player"]
    returned = [h["returned"] for h in reversed(history)]
    assert returned == ["19.50", "0.00", "19.50", "10.00", "19.50", "0.00", "19.50", "0.00"]
    assert server.balance(ana) == "1008.00"
    total = sum(Decimal(h["returned"]) - Decimal(h["staked"]) for h in history)
    assert total == Decimal("8.00")
    roads = server.view(BACCARAT)["round"]["roads"]
    assert sum(len(column) for column in roads["bead_plate"]) == 8


def test_baccarat_transcripts_replay(server: Server) -> None:
    """Stored coups exported as a transcript (from the shoe's start: the first card turned, the burns)
    replay through croupier replay to the same cards, winners and payments."""
    from croupier.transcript import replay

    ana, ben, sam = server.login("ana"), server.login("ben"), server.login("sam")
    for _ in range(4):
        assert server.bet(ana, BACCARAT, "player", "20").status_code == 200
        assert server.bet(ben, BACCARAT, "banker", "10").status_code == 200
        assert server.bet(ben, BACCARAT, "lucky_6", "10").status_code == 200
        server.advance(10)
    history = server.client.get("/api/history", headers=ana).json()
    for entry in history:
        answer = server.client.get(f"/api/rounds/{entry['round']}/transcript", headers=sam)
        assert answer.status_code == 200, answer.text
        replayed = replay(answer.json())["rounds"][-1]
        stored = entry["result"]
        # the same document as croupier replay writes, less the burned cards (never shown) and the coup number
        assert {k: v for k, v in replayed.items() if k != "burned"} == {k: v for k, v in stored.items() if k != "coup"}


def test_the_house_edge_for_the_cards_not_yet_seen(server: Server) -> None:
    """The exact house edge of each bet for the remaining shoe, counted from the cards seen face
    up only (burned cards stay unknown), as anyone at the table could."""
    from croupier.baccarat.presets import baccarat_rules
    from croupier.math.baccarat import analyze_baccarat

    ana, sam = server.login("ana"), server.login("sam")
    assert "house_edge" not in server.view(BACCARAT, ana)["round"]  # surveillance: staff only
    assert "house_edge" not in server.view(BACCARAT)["round"]
    before = server.view(BACCARAT, sam)["round"]["house_edge"]
    assert set(before) == {"player", "banker", "tie", "player_pair", "banker_pair", "lucky_6"}
    assert server.bet(ana, BACCARAT, "player", "10").status_code == 200
    server.advance(10)
    view = server.view(BACCARAT, sam)
    history = server.client.get("/api/history", headers=ana).json()
    seen = [e["card"] for e in history[0]["events"] if e["type"] in ("first_card", "card")]
    counts = [32] * 13
    for card in seen:
        counts["A23456789TJQK".index(card[0])] -= 1
    exact = analyze_baccarat(baccarat_rules("macau", {"lucky_6": True}), counts).house_edge
    assert view["round"]["house_edge"] == {spot: f"{float(edge):.6f}" for spot, edge in exact.items()}


def test_the_squeeze_holder_is_in_the_view() -> None:
    """Art. 16: where the table allows the squeeze, the largest bet on a side handles its cards; the view and
    the events name the holder (None: the dealer)."""
    from decimal import Decimal as D

    from croupier.baccarat.presets import baccarat_rules
    from croupier.server.games import BaccaratDriver

    driver = BaccaratDriver(baccarat_rules("macau", {"squeeze": True}))
    driver.load(driver.build(b"\x01" * 32, "table-9", 1))
    coup = driver.next_round()
    coup.bet("ana", "player", D(30))
    coup.bet("ben", "player", D(50))
    coup.close_betting()
    assert coup.view()["squeeze"] == {"player": "ben", "banker": None}
    _count, events = coup.events_since(0)
    assert {"type": "squeeze_holder", "side": "player", "player": "ben"} in events
