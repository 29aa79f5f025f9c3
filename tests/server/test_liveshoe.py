"""A live shoe's whole life at a card-reader table (docs/rules.md "A live shoe's whole life", "The dealer's
errors at a live table"; online §3.2, §3.5; Art. 2.1, 2.2, 3.2a; baccarat Art. 2.1, 3.1, 4, 10).

Before this change a live shoe never ended: the dealer could report neither a shuffle, nor the cut
card, nor a card found face up in the shoe, so the start burns and the last-round rule never applied
again, and every error of the dealer voided the whole round.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from croupier.server.models import Account, GameTable
from croupier.transcript import replay
from tests.server.conftest import Server

ONLINE, LIVE = 2, 3
BURNS = ["2C", "3C", "4C", "5C", "6C", "7C"]  # online §3.5: 6 burns after each shuffle


class Staff:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.dora = server.login("dora")
        self.sam = server.login("sam")
        self.ana = server.login("ana")

    def post(self, table: int, path: str, who: dict[str, str], body: Any = None) -> Any:
        answer = self.server.client.post(f"/api/tables/{table}/{path}", json=body, headers=who)
        self.server.quiet()
        return answer

    def card(self, table: int, *cards: str) -> None:
        for value in cards:
            answer = self.post(table, "cards", self.dora, {"card": value})
            assert answer.status_code == 200, answer.text

    def pending(self, table: int) -> dict[str, Any]:
        return dict(self.server.view(table).get("pending") or {})

    def burns_due(self, table: int) -> int:
        burns = 0
        while self.pending(table).get("purpose") == "burn":
            self.card(table, BURNS[burns])
            burns += 1
        return burns

    def shoe(self, table: int) -> int:
        return int(self.server.view(table)["shoe"]["id"])

    def transcript(self, round_id: int) -> dict[str, Any]:
        answer = self.server.client.get(f"/api/rounds/{round_id}/transcript", headers=self.sam)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def stored(self, round_id: int) -> dict[str, Any]:
        return dict(self.server.client.get(f"/api/rounds/{round_id}", headers=self.sam).json())


@pytest.fixture
def staff(server: Server) -> Staff:
    return Staff(server)


def play_live_round(staff: Staff, cards: tuple[str, ...] = ("TH", "9S", "8D", "KC")) -> int:
    """ana bets 10 on box 1, the dealer deals (start burns if due), ana stands; the round's id."""
    server = staff.server
    answer = server.bet(staff.ana, LIVE, "1", "10")
    assert answer.status_code == 200, answer.text
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, *cards)
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    return int(answer.json()["round"])


# ------------------------------------------------------------------------------------------------
# the shoe


def test_a_shuffle_between_rounds_starts_a_new_shoe_with_its_burns_online_3_2(staff: Staff) -> None:
    server = staff.server
    play_live_round(staff)
    first = staff.shoe(LIVE)
    assert staff.post(LIVE, "shuffle", staff.ana).status_code == 403
    refused = staff.post(ONLINE, "shuffle", staff.sam)
    assert refused.status_code == 409 and "own shuffled shoe" in refused.json()["error"]
    answer = staff.post(LIVE, "shuffle", staff.dora)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"accepted": True, "shoe": first + answer.json()["shoe"] - first}
    assert staff.shoe(LIVE) == answer.json()["shoe"] != first
    assert server.client.get(f"/api/shoes/{first}").json()["ended"]
    # the new shoe's start burns are the next cards the dealer supplies (online §3.5: 6)
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    late = staff.post(LIVE, "shuffle", staff.dora)
    assert late.status_code == 409 and "between rounds" in late.json()["error"]
    server.advance(10)
    assert staff.burns_due(LIVE) == 6
    staff.card(LIVE, "TH", "9S", "8D", "KC")
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    assert server.balance(staff.ana) == "980.00"  # 18 against 19, twice


def test_the_cut_card_makes_the_round_the_last_art_2_2(staff: Staff) -> None:
    server = staff.server
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, "TH", "9S", "8D", "KC")
    shoe = staff.shoe(LIVE)
    answer = staff.post(LIVE, "cut-card", staff.dora)
    assert answer.status_code == 200 and answer.json() == {"accepted": True, "cut_card": 9}
    again = staff.post(LIVE, "cut-card", staff.dora)
    assert again.status_code == 409 and "already" in again.json()["error"]
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    round_id = server.client.get("/api/history", headers=staff.ana).json()[0]["round"]
    events = [e["type"] for e in staff.stored(round_id)["events"]]
    assert "cut_card" in events
    document = server.client.get(f"/api/shoes/{shoe}").json()
    assert document["ended"] and document["cut_card"] == 9  # the shoe ended after the round
    transcript = staff.transcript(round_id)
    assert transcript["cut_card"] == 9
    assert replay(transcript)["rounds"][-1]["last_round"] is True
    assert staff.shoe(LIVE) != shoe
    play_live_round(staff)  # a new shoe: its start burns again
    assert server.balance(staff.ana) == "980.00"


def test_the_dealer_ends_the_shoe_after_a_round_online_3_2_3(staff: Staff) -> None:
    server = staff.server
    shoe = staff.shoe(LIVE)
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    answer = staff.post(LIVE, "end-shoe", staff.dora)
    assert answer.status_code == 200 and answer.json() == {"accepted": True, "ended": False, "after_round": 1}
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, "TH", "9S", "8D", "KC")
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    assert server.client.get(f"/api/shoes/{shoe}").json()["ended"]
    assert staff.shoe(LIVE) != shoe
    between = staff.post(LIVE, "end-shoe", staff.sam)  # between rounds: at once
    assert between.status_code == 200 and between.json()["ended"] is True
    assert staff.post(LIVE, "end-shoe", staff.ana).status_code == 403


# ------------------------------------------------------------------------------------------------
# the dealer's errors


def test_a_card_found_face_up_in_the_shoe_is_void_art_2_1(staff: Staff) -> None:
    server = staff.server
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    refused = staff.post(LIVE, "face-up-card", staff.dora, {"card": "AS"})
    assert refused.status_code == 409 and "no card is due" in refused.json()["error"]
    server.advance(10)
    staff.burns_due(LIVE)
    answer = staff.post(LIVE, "face-up-card", staff.dora, {"card": "AS"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["voided"] == "AS" and "Art. 2.1" in answer.json()["reason"]
    staff.card(LIVE, "TH", "9S", "8D", "KC")
    view = server.view(LIVE, staff.ana)
    assert view["round"]["boxes"][0]["hands"][0]["cards"] == ["TH", "8D"]  # the ace was never in play
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    round_id = server.client.get("/api/history", headers=staff.ana).json()[0]["round"]
    stored = staff.stored(round_id)
    assert {"type": "card_voided", "card": "AS", "reason": "found face up in the shoe (Art. 2.1)"} in [
        {k: v for k, v in e.items() if k != "at"} for e in stored["events"]
    ]
    assert stored["result"]["voided_cards"] == ["AS"]
    transcript = staff.transcript(round_id)
    assert "AS" not in transcript["shoe"]  # void: as if the shoe had not held it
    replayed = {k: v for k, v in replay(transcript)["rounds"][-1].items() if k != "burned"}
    assert replayed == {k: v for k, v in stored["result"].items() if k != "voided_cards"}
    assert server.balance(staff.ana) == "990.00"


def test_voiding_or_moving_a_drawn_card_needs_a_supervisor_online_3_5(staff: Staff) -> None:
    server = staff.server
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, "TH")
    for path, body in (("void-card", {"card": "TH"}), ("move-card", {"card": "TH", "box": 2})):
        refused = staff.post(LIVE, path, staff.dora, body)
        assert refused.status_code == 403 and "supervisor" in refused.json()["error"], refused.text
        at_rng = staff.post(ONLINE, path, staff.sam, body)
        assert at_rng.status_code == 409 and "live table" in at_rng.json()["error"]
    staff.card(LIVE, "9S", "8D", "KC")
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200


def test_a_card_the_dealer_drew_by_mistake_is_void_art_3_2a(staff: Staff) -> None:
    """Art. 2.1, 3.2a: while ana decides, the dealer draws a card by mistake; the supervisor voids it and
    the round goes on as if the shoe had not held it (its transcript replays to the same result)."""
    server = staff.server
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, "TH", "9S", "8D", "KC")  # box 1 TH 8D against 9S up, KC face down
    assert server.view(LIVE)["pending"]["kind"] == "decision"
    answer = staff.post(LIVE, "void-card", staff.sam, {"card": "5H", "reason": "drawn by mistake (Art. 3.2a)"})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"accepted": True, "voided": "5H", "reason": "drawn by mistake (Art. 3.2a)"}
    assert server.act(staff.ana, LIVE, {"type": "stand", "box": 1, "hand": 0}).status_code == 200
    server.quiet()
    assert server.view(LIVE)["phase"] == "betting"
    assert server.balance(staff.ana) == "990.00"  # 18 against the dealer's 19
    round_id = server.client.get("/api/history", headers=staff.ana).json()[0]["round"]
    stored = staff.stored(round_id)
    assert {"type": "card_voided", "card": "5H", "reason": "drawn by mistake (Art. 3.2a)"} in [
        {k: v for k, v in e.items() if k != "at"} for e in stored["events"]
    ]
    transcript = staff.transcript(round_id)
    assert "5H" not in transcript["shoe"]
    replayed = {k: v for k, v in replay(transcript)["rounds"][-1].items() if k != "burned"}
    assert replayed == {k: v for k, v in stored["result"].items() if k != "voided_cards"}


def test_a_card_dealt_to_the_wrong_box_is_moved_art_2_1(staff: Staff) -> None:
    server = staff.server
    ben = server.login("ben")
    assert server.bet(staff.ana, LIVE, "1", "10").status_code == 200
    assert server.bet(ben, LIVE, "2", "10").status_code == 200
    server.advance(10)
    staff.burns_due(LIVE)
    staff.card(LIVE, "TH")  # the reader's order gives it to box 1; the dealer laid it at box 2
    wrong = staff.post(LIVE, "move-card", staff.sam, {"card": "TH", "box": 2, "hand": 0})
    assert wrong.status_code == 409 and "Art. 2.1" in wrong.json()["error"], wrong.text
    answer = staff.post(LIVE, "move-card", staff.sam, {"card": "TH", "box": 1})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"accepted": True, "moved": "TH", "box": 1, "hand": 0}
    round_ = server.view(LIVE)["round"]
    assert [b["hands"][0]["cards"] for b in round_["boxes"]] == [["TH"], []]
    server.quiet()
    events = server.client.get(f"/api/tables/{LIVE}").json()  # the table deals on
    assert events["phase"] == "playing"


def test_a_misdeal_burns_as_the_rules_say_online_3_5() -> None:
    from croupier.blackjack.presets import blackjack_rules

    assert blackjack_rules("live-online", {}).burn_after_misdeal == 3
    assert blackjack_rules("macau-1983", {}).burn_after_misdeal == 0
    assert blackjack_rules("macau-1983", {"burn_after_misdeal": "2"}).burn_after_misdeal == 2


def test_a_misdeal_burns_the_rule_parameters_cards(sqlite_server: Server) -> None:
    """The burn is the table's ``burn_after_misdeal`` (a rule parameter), not its preset's name: a
    Macau table set to burn 2 burns 2, though the preset burns none."""
    server = sqlite_server
    sam, ana = server.login("sam"), server.login("ana")
    table = {
        "name": "burn-two",
        "game": "blackjack",
        "preset": "macau-1983",
        "overrides": {"burn_after_misdeal": "2"},
        "min_bet": "10",
        "max_bet": "1000",
        "chip": "1",
        "betting_seconds": 10,
        "decision_seconds": 10,
        "mode": "live",
        "dealer": "dora",
    }
    assert server.client.post("/api/tables", json=table, headers=sam).status_code == 201
    server.quiet()
    entry = next(t for t in server.client.get("/api/tables").json() if t["name"] == "burn-two")
    assert entry["parameters"]["burn_after_misdeal"] == "2"
    assert server.bet(ana, entry["id"], "1", "10").status_code == 200
    server.advance(10)
    answer = server.client.post(f"/api/tables/{entry['id']}/misdeal", headers=sam)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"accepted": True, "misdeal": True, "burn": 2}
    server.quiet()
    assert server.view(entry["id"])["phase"] == "playing"  # dealt again, ana's bet standing


# ------------------------------------------------------------------------------------------------
# baccarat at a live table


def live_baccarat(server: Server) -> int:
    async def add() -> int:
        async with server.service.session() as session, session.begin():
            dora = await session.scalar(select(Account.id).where(Account.name == "dora"))
            row = GameTable(
                name="baccarat-live",
                game="baccarat",
                preset="macau",
                overrides={},
                min_bet=1000,
                max_bet=200_000,
                chip=100,
                betting_seconds=10,
                decision_seconds=10,
                mode="live",
                dealer_id=dora,
            )
            session.add(row)
            await session.flush()
            table_id = row.id
        await server.service.lease_round()
        return table_id

    table = int(server.client.portal.call(add))
    server.quiet()
    return table


def shoe_start(staff: Staff, table: int) -> None:
    """Art. 2.1: the first card turned (a 2), then 2 burned; then bets are taken."""
    staff.card(table, "2D", "3D", "4D")


def test_baccarat_misdeal_voids_the_coup_and_the_bets_stand_art_10(staff: Staff) -> None:
    server = staff.server
    table = live_baccarat(server)
    shoe_start(staff, table)
    shoe = staff.shoe(table)
    assert server.bet(staff.ana, table, "banker", "20").status_code == 200
    server.advance(10)
    staff.card(table, "9H", "9C")
    assert staff.post(table, "misdeal", staff.dora).status_code == 403
    answer = staff.post(table, "misdeal", staff.sam)
    assert answer.status_code == 200 and answer.json() == {"accepted": True, "misdeal": True, "burn": 0}
    again_refused = staff.post(table, "misdeal", staff.sam)
    assert again_refused.status_code == 409 and "Art. 10" in again_refused.json()["error"]
    staff.card(table, "8H", "2H", "TD", "5D")  # player 8 (natural), banker 7: the player wins
    history = server.client.get("/api/history", headers=staff.ana).json()
    assert history[0]["status"] == "settled" and server.balance(staff.ana) == "980.00"
    assert staff.shoe(table) == shoe  # the shoe goes on (Art. 10)
    transcript = staff.transcript(history[0]["round"])
    assert transcript["rounds"][-1]["misdeal_after_cards"] == 2
    replayed = replay(transcript)["rounds"][-1]
    assert replayed["winner"] == "player" and replayed["net"] == {"ana": "-20"}
    face_up = staff.post(table, "face-up-card", staff.dora, {"card": "AS"})
    assert face_up.status_code == 409 and "Art. 4" in face_up.json()["error"]


def test_baccarat_cut_card_one_more_coup_then_a_new_shoe_art_3_1(staff: Staff) -> None:
    server = staff.server
    table = live_baccarat(server)
    shoe_start(staff, table)
    shoe = staff.shoe(table)
    rounds = []
    for coup in range(2):
        answer = server.bet(staff.ana, table, "player", "10")
        assert answer.status_code == 200, answer.text
        rounds.append(answer.json()["round"])
        server.advance(10)
        staff.card(table, "8H")
        if coup == 0:
            assert staff.post(table, "cut-card", staff.dora).json() == {"accepted": True, "cut_card": 3}
        staff.card(table, "2H", "TD", "5D")
    assert server.client.get(f"/api/shoes/{shoe}").json()["ended"]  # one more coup after it, then the end
    assert staff.shoe(table) != shoe
    for round_id in rounds:
        replayed = replay(staff.transcript(round_id))["rounds"][-1]
        assert replayed["winner"] == "player"
    assert replay(staff.transcript(rounds[-1]))["rounds"][-1]["last_round"] is True
    # the new shoe starts with its own first card and burns; the dealer may end it between coups
    shoe_start(staff, table)
    assert server.bet(staff.ana, table, "player", "10").status_code == 200
    ended = staff.post(table, "end-shoe", staff.dora)
    assert ended.json() == {"accepted": True, "ended": False, "after_round": 1}
    server.advance(10)
    staff.card(table, "8H", "2H", "TD", "5D")
    assert staff.shoe(table) != shoe
    assert server.balance(staff.ana) == "1030.00"
