"""Misdeals (docs/rules.md §4, Art. 10): correct the deal if possible, else the coup is void and the bets stand;
and a shoe taken out of play (Art. 3.2) returns the bets still on the layout."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.baccarat.presets import MACAU
from croupier.baccarat.records import BetReturned, CardMoved, CoupVoided, ShoeEnded
from croupier.baccarat.state import BaccaratTable, Phase
from croupier.cards import Card, parse_cards
from croupier.errors import IllegalActionError
from croupier.shoe import Shoe

from .helpers import gains, rules, table_for

STAND_STAND = ["6S", "7D", "KS", "QD"]  # player 6 S-K, banker 7 D-Q: the banker wins
PLAYER_WINS = ["9S", "2D", "KH", "QC"]  # a player natural 9 against banker 2: the player wins


def _live_table() -> BaccaratTable:
    """A live table past its shoe-start burns (2S turned, two burned), betting open."""
    table = BaccaratTable(MACAU, Shoe.live(8))
    for text in ("2S", "9H", "9D"):
        table.supply(Card.parse(text))
    assert table.phase is Phase.BETTING
    return table


def _supply(table: BaccaratTable, texts: list[str]) -> None:
    for text in texts:
        table.supply(Card.parse(text))


def test_a_card_put_on_the_wrong_side_is_moved_back_art_10() -> None:
    """Art. 10: a card the dealer put on the wrong side is corrected by giving it back to the side the tableau
    dealt it to; the engine dealt it there, so the correction is a record and the coup goes on."""
    table = _live_table()
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    _supply(table, STAND_STAND[:2])  # 6S to the player, 7D to the banker
    seven = Card.parse("7D")
    assert table.move_card(seven, "banker") == CardMoved(1, seven, "banker")
    assert table.banker_cards == (seven,) and table.phase is Phase.DEALING
    with pytest.raises(IllegalActionError) as refused:
        table.move_card(seven, "player")
    assert (
        str(refused.value)
        == "7D was not dealt to the player in coup 1, the coup on the table: the player holds 6S (Art. 10)"
    )
    _supply(table, STAND_STAND[2:])
    assert gains(table.results[-1]) == {"ana": "95"}


def test_a_settled_coups_card_may_be_moved_back_until_the_next_coup_art_10() -> None:
    table = table_for([*STAND_STAND, *STAND_STAND])
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()
    king = Card.parse("KS")
    assert table.can_move_card(king, "player") and not table.can_move_card(king, "banker")
    table.move_card(king, "player")
    assert gains(table.results[-1]) == {"ana": "-10"}  # unchanged: the settlement was on the tableau's deal
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()  # the next coup's own cards are now on the table
    assert table.can_move_card(king, "player")
    table.place_bet("ana", "player", Decimal(10))
    assert not table.can_move_card(Card.parse("AS"), "player")
    with pytest.raises(IllegalActionError, match="not 'dealer'"):
        table.verify_move_card(king, "dealer")


def test_a_void_coup_at_a_live_shoe_keeps_the_shoe_and_the_bets_for_a_redeal_art_10() -> None:
    """Art. 10: a misdeal that cannot be corrected voids the coup: the cards are discarded, the bets stand, and
    the same coup is dealt again from the live shoe's next cards; the shoe is not ended."""
    table = _live_table()
    shoe = table.shoe
    table.place_bet("ana", "banker", Decimal(100))
    table.place_bet("bo", "player", Decimal(30))
    table.start_coup()
    _supply(table, ["4S", "5D"])
    voided = table.void_coup("a card exposed by the reader (Art. 10)")
    assert voided == CoupVoided(1, tuple(parse_cards(["4S", "5D"])), "a card exposed by the reader (Art. 10)")
    assert table.shoe is shoe and table.phase is Phase.DEALING and table.coup == 1
    assert table.stakes == {("ana", "banker"): Decimal(100), ("bo", "player"): Decimal(30)}
    assert table.next_side == "player" and table.player_cards == () == table.banker_cards
    _supply(table, PLAYER_WINS)
    result = table.results[-1]
    assert result.coup == 1 and [str(c) for c in result.cards.player] == ["9S", "KH"]
    assert gains(result) == {"ana": "-100", "bo": "30"}


def test_end_shoe_after_a_void_returns_the_bets_and_takes_a_new_shoe_art_3_2_10() -> None:
    """Where the voided coup cannot be redealt from this shoe, ending the shoe returns every bet; a new shoe can
    then be loaded (before, a voided table stayed dealing and refused the new shoe)."""
    table = _live_table()
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    _supply(table, ["4S", "5D"])
    table.void_coup()
    assert not table.can_load_shoe(Shoe.live(8))
    ended = table.end_shoe("the shoe is changed after a misdeal (Art. 3.2, 10)")
    assert ended == ShoeEnded(1, "the shoe is changed after a misdeal (Art. 3.2, 10)")
    assert table.operations[-1] == BetReturned(
        "ana", "banker", Decimal(100), "the shoe is changed after a misdeal (Art. 3.2, 10)"
    )
    assert table.phase is Phase.AWAITING_SHOE and table.stakes == {}
    loaded = table.load_shoe(Shoe.live(8))
    assert loaded.live and table.coup == 0 and table.phase.name == "SHOE_START"  # its start burns come first


def test_end_shoe_between_coups_returns_a_carried_bet_art_3_2_18() -> None:
    table = table_for(["7S", "7D", "KS", "QD", *STAND_STAND], rules(tie_bets="increase_only"))
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    assert table.carried_bets
    table.place_bet("bo", "tie", Decimal(5))
    table.end_shoe("the players ask for a new shoe (Art. 3.2)")
    returned = [op for op in table.operations if isinstance(op, BetReturned)]
    assert [(op.player, op.spot, op.amount) for op in returned] == [
        ("ana", "banker", Decimal(100)),
        ("bo", "tie", Decimal(5)),
    ]
    assert table.carried_bets == {} and table.stakes == {}


def test_end_shoe_is_refused_while_cards_are_on_the_table_art_10() -> None:
    table = _live_table()
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    _supply(table, ["4S"])
    assert not table.can_end_shoe()
    with pytest.raises(IllegalActionError, match=r"once a voided coup's cards are gone.*\(dealing\)"):
        table.end_shoe("no")
    assert table.can_void_coup()
