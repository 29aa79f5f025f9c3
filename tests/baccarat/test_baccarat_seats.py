"""Seats (docs/rules.md §4; Art. 1(5), 15, 16): standing players may not bet on a seated player's spot, and the
squeeze goes to the seated player with the largest bet on a side."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.baccarat.records import BetPlaced, PlayerLeftSeat, PlayerSeated, SqueezeHolderNamed
from croupier.baccarat.state import BaccaratTable, Phase
from croupier.cards import parse_cards
from croupier.errors import BetError, IllegalActionError, RulesError
from croupier.shoe import Shoe

from .helpers import PREAMBLE, rules, table_for

STAND_STAND = ["6S", "7D", "KS", "QD"]


def test_standing_players_may_not_bet_on_a_seated_players_spot_art_15() -> None:
    table = table_for(STAND_STAND)
    assert table.seats == 7 and table.seated == {}
    assert table.sit("ana", 3) == PlayerSeated("ana", 3)
    assert table.seated == {3: "ana"}
    assert not table.can_place_bet("bo", "banker", Decimal(10), seat=3)
    with pytest.raises(BetError) as refused:
        table.place_bet("bo", "banker", Decimal(10), seat=3)
    assert str(refused.value) == "seat 3 is ana's: a standing player may not bet on a seated player's spot (Art. 15)"
    assert table.stakes == {}
    assert table.place_bet("bo", "banker", Decimal(10), seat=4) == BetPlaced("bo", "banker", Decimal(10), 4)
    assert table.place_bet("bo", "player", Decimal(10)) == BetPlaced("bo", "player", Decimal(10), None)


def test_a_seated_players_bet_lies_on_their_own_spot_art_15() -> None:
    table = table_for(STAND_STAND)
    table.sit("ana", 2)
    assert table.place_bet("ana", "banker", Decimal(10)) == BetPlaced("ana", "banker", Decimal(10), 2)
    assert table.place_bet("ana", "tie", Decimal(5), seat=2).seat == 2
    table.sit("bo", 5)
    with pytest.raises(BetError, match=r"seat 2 is ana's: a seated player's spot is reserved for them \(Art\. 15\); "
                       r"bo sits in seat 5"):  # fmt: skip
        table.place_bet("bo", "player", Decimal(10), seat=2)


def test_a_seat_left_is_open_to_other_bettors_art_15() -> None:
    table = table_for(STAND_STAND)
    table.sit("ana", 1)
    assert table.leave_seat("ana") == PlayerLeftSeat("ana", 1)
    assert table.seated == {}
    table.place_bet("bo", "banker", Decimal(10), seat=1)
    table.sit("cy", 1)
    assert table.stakes == {("bo", "banker"): Decimal(10)}  # a bet already placed stays


def test_seats_are_numbered_one_each_and_change_between_coups_art_1() -> None:
    table = BaccaratTable(
        rules(), Shoe.stacked(8, parse_cards([*PREAMBLE, *STAND_STAND]), None), automations=(), seats=9
    )
    with pytest.raises(IllegalActionError, match="there is no seat 0"):
        table.sit("ana", 0)
    table.perform_chores()
    with pytest.raises(BetError, match="the table's seats are 1 to 9; there is no seat 10"):
        table.verify_place_bet("bo", "banker", Decimal(10), seat=10)
    table.sit("ana", 9)
    with pytest.raises(IllegalActionError, match="seat 9 is taken by ana"):
        table.sit("bo", 9)
    with pytest.raises(IllegalActionError, match="ana already sits in seat 9; one seat each"):
        table.sit("ana", 1)
    with pytest.raises(IllegalActionError, match="bo is not seated"):
        table.leave_seat("bo")
    table.place_bet("ana", "banker", Decimal(10))
    table.start_coup()
    assert table.phase is Phase.DEALING
    assert not table.can_sit("bo", 1) and not table.can_leave_seat("ana")
    with pytest.raises(IllegalActionError, match=r"between coups, not now \(dealing\)"):
        table.sit("bo", 1)
    with pytest.raises(RulesError, match="at least one seat"):
        BaccaratTable(rules(), seats=0)


def test_the_squeeze_goes_to_the_largest_seated_bet_art_16() -> None:
    """Art. 16.2: with seats taken, a standing player's larger bet does not make them the holder; a side
    where no seated player bets is handled by the dealer (None)."""
    table = table_for(STAND_STAND, rules(squeeze=True))
    table.sit("ana", 1)
    table.place_bet("ana", "banker", Decimal(10))
    table.place_bet("bo", "banker", Decimal(500), seat=6)
    table.place_bet("bo", "player", Decimal(50))
    table.start_coup()
    named = [op for op in table.operations if isinstance(op, SqueezeHolderNamed)]
    assert named == [SqueezeHolderNamed("player", None), SqueezeHolderNamed("banker", "ana")]


def test_without_seats_every_bettor_counts_for_the_squeeze_art_16() -> None:
    """Nobody seated (the table's seats unused): as before seats were modelled, every bettor counts."""
    table = table_for(STAND_STAND, rules(squeeze=True))
    table.place_bet("ana", "banker", Decimal(10))
    table.place_bet("bo", "banker", Decimal(500))
    table.start_coup()
    named = [op for op in table.operations if isinstance(op, SqueezeHolderNamed)]
    assert named[1] == SqueezeHolderNamed("banker", "bo")


def test_start_coups_seated_list_still_decides_art_16() -> None:
    table = table_for(STAND_STAND, rules(squeeze=True))
    table.sit("ana", 1)
    table.place_bet("ana", "banker", Decimal(10))
    table.place_bet("bo", "banker", Decimal(500))
    table.start_coup(seated=["bo"])
    named = [op for op in table.operations if isinstance(op, SqueezeHolderNamed)]
    assert named[1] == SqueezeHolderNamed("banker", "bo")
