"""The coup state machine: recorded frozen operations, the verify/can/do faces, chores automated or
performed by the caller, and a live shoe fed card by card."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from croupier.baccarat.presets import MACAU
from croupier.baccarat.state import (
    Automation,
    BaccaratTable,
    BetPlaced,
    CardBurned,
    CardDealt,
    CoupSettled,
    CoupStarted,
    CutCardOut,
    FirstCardTurned,
    Phase,
    ShoeLoaded,
)
from croupier.cards import Card
from croupier.errors import BetError, IllegalActionError, ShoeError
from croupier.shoe import Shoe

from .helpers import cards, gains, rules, table_for

STAND_STAND = ["6S", "7D", "KS", "QD"]


def test_operations_are_recorded_and_frozen() -> None:
    table = table_for(STAND_STAND)
    record = table.place_bet("ana", "banker", Decimal(100))
    assert record == BetPlaced("ana", "banker", Decimal(100))
    table.start_coup()
    kinds = [type(op) for op in table.operations]
    assert kinds == [
        ShoeLoaded, FirstCardTurned, CardBurned, BetPlaced, CoupStarted,
        CardDealt, CardDealt, CardDealt, CardDealt, CoupSettled,
    ]  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.amount = Decimal(1)  # type: ignore[misc]


def test_verify_can_and_do_faces_agree() -> None:
    table = table_for(STAND_STAND, rules(min_bet=10))
    assert not table.can_place_bet("ana", "banker", Decimal(15))
    with pytest.raises(BetError, match="multiple of the minimum 10"):
        table.verify_place_bet("ana", "banker", Decimal(15))
    with pytest.raises(BetError, match="multiple of the minimum 10"):
        table.place_bet("ana", "banker", Decimal(15))
    assert table.stakes == {}
    assert table.can_place_bet("ana", "banker", Decimal(20))
    assert not table.can_deal_card() and not table.can_settle_coup() and not table.can_burn_card()
    with pytest.raises(IllegalActionError, match=r"no card is due to be dealt now \(betting\)"):
        table.deal_card()


def test_chores_performed_by_the_caller_when_not_automated() -> None:
    shoe = Shoe.stacked(8, cards("3D 4C 5C 6C " + " ".join(STAND_STAND)))
    table = BaccaratTable(MACAU, shoe, automations=())
    assert table.phase is Phase.SHOE_START
    with pytest.raises(IllegalActionError, match=r"first card must be turned before the burn \(Art. 2.1\)"):
        table.burn_card()
    assert table.turn_first_card() == FirstCardTurned(Card.parse("3D"), 3)
    for _ in range(3):
        table.burn_card()
    assert table.phase is Phase.BETTING and not table.can_burn_card() and not table.can_turn_first_card()
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()
    sides = [table.deal_card().side for _ in range(4)]
    assert sides == ["player", "banker", "player", "banker"]
    assert table.phase is Phase.SETTLING and table.next_side is None
    settled = table.settle_coup()
    assert gains(settled.result) == {"ana": "-10"}


def test_partial_automation_deals_but_leaves_settlement() -> None:
    table = BaccaratTable(
        MACAU,
        Shoe.stacked(8, cards("AH 2H " + " ".join(STAND_STAND))),
        automations={Automation.BURNING, Automation.DEALING},
    )
    table.start_coup()
    assert table.phase is Phase.SETTLING and len(table.player_cards) == 2
    table.settle_coup()
    assert table.phase is Phase.BETTING


def test_live_shoe_waits_for_each_card() -> None:
    """A live table: the dealer's card reader supplies each card; the engine waits while none is there."""
    table = BaccaratTable(MACAU, Shoe.live(8))
    assert table.phase is Phase.SHOE_START
    with pytest.raises(ShoeError, match="live shoe waits"):
        table.verify_next_chore()
    table.supply(Card.parse("2S"))  # turned: two more to burn
    table.supply(Card.parse("9H"))
    assert table.phase is Phase.SHOE_START
    table.supply(Card.parse("9D"))
    assert table.phase is Phase.BETTING
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    for text in STAND_STAND[:3]:
        table.supply(Card.parse(text))
        assert table.phase is Phase.DEALING
    table.report_cut_card()
    assert table.cut_card_coup == 1 and isinstance(table.operations[-1], CutCardOut)
    table.supply(Card.parse(STAND_STAND[3]))
    assert gains(table.results[-1]) == {"ana": "95"}
    assert not table.results[-1].last_coup  # one more coup after the cut card (Art. 3.1)


def test_next_side_follows_the_tableau_art_7_9() -> None:
    """Player 4 (AS 3S) draws a 5; banker 5 (2D 3D) draws on a player's 5 (Art. 9.3(4))."""
    table = BaccaratTable(MACAU, Shoe.stacked(8, cards("AH 2H AS 2D 3S 3D 5C 9H")), automations={Automation.BURNING})
    table.start_coup()
    order = []
    while table.next_side is not None:
        order.append(table.next_side)
        table.deal_card()
    assert order == ["player", "banker", "player", "banker", "player", "banker"]
    assert table.phase is Phase.SETTLING


def test_bets_refused_outside_betting() -> None:
    with pytest.raises(IllegalActionError, match="no shoe is in play"):
        BaccaratTable(MACAU).start_coup()
    with pytest.raises(IllegalActionError, match=r"bets are not taken now \(awaiting a shoe\)"):
        BaccaratTable(MACAU).place_bet("ana", "banker", Decimal(1))
    table = BaccaratTable(MACAU, Shoe.stacked(8, cards("AH 2H 6S 7D KS")), automations={Automation.BURNING})
    table.start_coup()
    with pytest.raises(IllegalActionError, match=r"bets are not taken now \(dealing\)"):
        table.place_bet("ana", "banker", Decimal(1))


def test_loading_a_shoe_of_other_decks_is_refused_art_1() -> None:
    with pytest.raises(ShoeError, match=r"macau deals from 8 decks \(Art. 1\); the shoe holds 6"):
        BaccaratTable(MACAU, Shoe.stacked(6, []))
