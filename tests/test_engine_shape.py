"""Both engines have one shape: a ``pending`` record of what the table waits for (the shared records of
croupier.pending) and ``automations`` named alike (members of each engine's ``Automation``, or their
names as text), a chore left to the caller waited for by its name."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier import pending
from croupier.baccarat.presets import MACAU
from croupier.baccarat.state import Automation as BaccaratAutomation
from croupier.baccarat.state import BaccaratTable
from croupier.blackjack import actions
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.round import AUTOMATIONS
from croupier.blackjack.state import Table
from croupier.cards import Card, parse_cards
from croupier.shoe import Shoe

STAND_STAND = "6S 7D KS QD"


def test_the_two_engines_wait_in_the_same_records() -> None:
    for name in ("AwaitBets", "AwaitCard", "AwaitChore"):
        assert getattr(actions, name) is getattr(pending, name)


def test_a_baccarat_table_left_every_chore_says_each_one_it_waits_for() -> None:
    table = BaccaratTable(MACAU, automations=())
    assert table.pending == pending.AwaitShoe()
    table.load_shoe(Shoe.stacked(8, parse_cards(f"3D 4C 5C 6C {STAND_STAND}".split())))
    assert table.pending == pending.AwaitChore("turn_first_card")
    table.turn_first_card()
    for _ in range(3):
        assert table.pending == pending.AwaitChore("burn")
        table.burn_card()
    assert table.pending == pending.AwaitBets()
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()
    for _ in range(4):
        assert table.pending == pending.AwaitChore("deal")
        table.deal_card()
    assert table.pending == pending.AwaitChore("settle")
    table.settle_coup()
    assert table.pending == pending.AwaitBets()


def test_a_live_baccarat_shoe_waits_for_its_card_by_the_chore_it_is_for() -> None:
    table = BaccaratTable(MACAU, Shoe.live(8))
    assert table.pending == pending.AwaitCard("turn_first_card")
    table.supply(Card.parse("2S"))
    assert table.pending == pending.AwaitCard("burn")
    table.supply(Card.parse("9H"))
    table.supply(Card.parse("9D"))
    assert table.pending == pending.AwaitBets()
    table.start_coup(demo=True)
    assert table.pending == pending.AwaitCard("deal")


def test_automations_are_named_alike_and_taken_as_text() -> None:
    assert {str(a) for a in BaccaratAutomation} == {"shuffle", "burn", "deal", "settle"}
    assert {str(a) for a in AUTOMATIONS} == {"burn", "deal", "dealer_play", "settle"}
    shoe = f"AH 2H {STAND_STAND}".split()
    by_name = BaccaratTable(MACAU, Shoe.stacked(8, parse_cards(shoe)), automations={"burn", "deal"})
    by_member = BaccaratTable(
        MACAU, Shoe.stacked(8, parse_cards(shoe)), automations={BaccaratAutomation.BURNING, BaccaratAutomation.DEALING}
    )
    for table in (by_name, by_member):
        table.start_coup()
        assert table.pending == pending.AwaitChore("settle")
    assert by_name.automations == by_member.automations


def test_an_unknown_automation_is_refused_naming_them_all() -> None:
    with pytest.raises(ValueError, match=r"unknown automations \['dealing'\]; they are burn, deal, settle, shuffle"):
        BaccaratTable(MACAU, automations={"dealing"})
    rules = blackjack_rules("macau-1983")
    with pytest.raises(
        ValueError, match=r"unknown automations \['shuffle'\]; they are burn, deal, dealer_play, settle"
    ):
        Table(rules, Shoe.stacked(6, parse_cards(["AS"] * 4)), automations=frozenset({"shuffle"})).new_round()


def test_a_blackjack_round_left_its_burns_waits_for_the_burn_chore_by_name() -> None:
    rules = blackjack_rules("macau-1983")
    shoe = Shoe.stacked(6, parse_cards("5S 6S 7S 8S 9S TS 2D 3D 4D 5D 6D 7D 8D 9D TD".split() * 4))
    round_ = Table(rules, shoe, automations=frozenset(AUTOMATIONS - {actions.Automation.BURNING})).new_round()
    round_.bet("ana", 1, Decimal(10))
    round_.deal()
    assert round_.pending == pending.AwaitChore("burn")


def test_automations_given_as_a_generator_are_all_taken() -> None:
    table = BaccaratTable(MACAU, automations=(name for name in ("burn", "deal")))
    assert {str(a) for a in table.automations} == {"burn", "deal"}
