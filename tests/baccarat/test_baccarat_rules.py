"""One named test per row of docs/rules.md §4, each citing its article.

Rows: decks (Art. 1), cut_card (Art. 2.1), burn (Art. 2.1), demo_coups (Art. 2.2), at_cut_card
(Art. 3.1), burn_each_coup (Art. 8), commission (Art. 17, 18), tie_pays (Art. 17), pair_pays
(Art. 13, 17), lucky_6 (2018 amendment), tie_bets (Art. 12, 18), min_bet/max_bet (Art. 14, 18),
banker_bet_multiple_of_min (Art. 18), the automatic shuffler (Art. 2.3, 7.2); and the bullets below the
table: the imbalance cap (Art. 14), the squeeze (Art. 16), the misdeal (Art. 10).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.baccarat.presets import MACAU, baccarat_rules
from croupier.baccarat.state import (
    BaccaratTable,
    CardBurned,
    CoupVoided,
    CutCardOut,
    FirstCardTurned,
    Phase,
    SqueezeHolderNamed,
    shuffled_shoes,
)
from croupier.cards import Card
from croupier.errors import BetError, IllegalActionError, RulesError, ShoeError
from croupier.money import Ratio
from croupier.rng import seeded
from croupier.shoe import Shoe

from .helpers import cards, coup, fillers, gains, rules, table_for

# a coup of four cards where both sides stand: player 6 (6S KS), banker 7 (7D QD)
STAND_STAND = ["6S", "7D", "KS", "QD"]


def _play(table: BaccaratTable, n: int = 1, *, demo: bool = False) -> None:
    for _ in range(n):
        table.start_coup(demo=demo)


# --------------------------------------------------------------------------------------------------
# decks (Art. 1)


def test_decks_default_8_and_6_to_12_art_1() -> None:
    """Art. 1: six to twelve decks; the macau preset deals eight."""
    assert MACAU.decks == 8
    assert rules(decks=6).decks == 6 and rules(decks="12").decks == 12
    for bad in (5, 13, "eight"):
        with pytest.raises(RulesError, match=r"decks \(Art. 1\).*allowed: 6-12"):
            rules(decks=bad)


def test_decks_bound_the_copies_of_a_card_art_1() -> None:
    """Art. 1: a shoe of six decks holds at most six copies of a card."""
    Shoe.stacked(6, cards("AS " * 6))
    with pytest.raises(ShoeError, match="more copies of AS than 6"):
        Shoe.stacked(6, cards("AS " * 7))


# --------------------------------------------------------------------------------------------------
# cut_card (Art. 2.1)


def test_cut_card_at_least_12_from_the_end_art_2_1() -> None:
    """Art. 2.1: the white card goes in at least twelve cards from the end; macau: 12-16 from the end."""
    assert MACAU.cut_card == (12, 16)
    assert rules(cut_card="12-20").cut_card == (12, 20)
    assert rules(cut_card=400).cut_card == 400  # 416 - 400 = 16 behind it
    with pytest.raises(RulesError, match=r"Art. 2.1.*at least 12"):
        rules(cut_card="10-14")
    with pytest.raises(RulesError, match=r"Art. 2.1.*fewer than 12"):
        rules(cut_card=410)
    with pytest.raises(RulesError, match=r"Art. 2.1"):
        rules(cut_card="none")


def test_cut_card_placed_by_shuffle_within_window_art_2_1() -> None:
    """Art. 2.1: a shuffled shoe's cut card lies 12-16 cards from the end."""
    new_shoe = shuffled_shoes(MACAU, seeded("cut"))
    for _ in range(30):
        shoe = new_shoe()
        assert shoe.cut_card is not None and 12 <= 416 - shoe.cut_card <= 16


def test_cut_card_leaves_room_for_the_last_coups_art_2_1_3_1_8() -> None:
    """Art. 2.1's twelve cards are exactly what one_more can need; with a burn per coup (Art. 8) the shuffle
    keeps 14 behind the cut card so the shoe never runs out before its last coup."""
    assert MACAU.cards_from_cut_card_to_end == 12
    assert rules(at_cut_card="last").cards_from_cut_card_to_end == 6
    burning = rules(burn_each_coup=1)
    assert burning.cards_from_cut_card_to_end == 14
    new_shoe = shuffled_shoes(burning, seeded("cut 14"))
    for _ in range(30):
        shoe = new_shoe()
        assert shoe.cut_card is not None and 14 <= 416 - shoe.cut_card <= 16


# --------------------------------------------------------------------------------------------------
# burn (Art. 2.1)


@pytest.mark.parametrize(("first", "burns"), [("AS", 1), ("5H", 5), ("9C", 9), ("TD", 10), ("KH", 10), ("QS", 10)])
def test_burn_first_card_value_art_2_1(first: str, burns: int) -> None:
    """Art. 2.1 (83/2011 amendment): turn the first card, discard it, burn as many more as its value (T-K: 10)."""
    order = [first, *fillers(burns), *STAND_STAND]
    table = BaccaratTable(MACAU, Shoe.stacked(8, cards(" ".join(order))))
    turned = [op for op in table.operations if isinstance(op, FirstCardTurned)]
    burned = [op for op in table.operations if isinstance(op, CardBurned)]
    assert turned == [FirstCardTurned(Card.parse(first), burns)]
    assert len(burned) == burns and all(op.when == "shoe start" for op in burned)
    assert table.phase is Phase.BETTING
    table.start_coup()
    assert [str(c) for c in table.results[-1].cards.player] == ["6S", "KS"]


def test_burn_decks_art_2_1() -> None:
    """Art. 2.1: burn as many cards as there are decks."""
    table = table_for(STAND_STAND, rules(burn="decks", decks=6))
    assert [op.when for op in table.operations if isinstance(op, CardBurned)] == ["shoe start"] * 6
    assert not any(isinstance(op, FirstCardTurned) for op in table.operations)


@pytest.mark.parametrize("count", [1, 4, 8])
def test_burn_fixed_count_art_2_1(count: int) -> None:
    """Art. 2.1: a fixed burn of 1-8 cards."""
    table = table_for(STAND_STAND, rules(burn=count))
    assert len([op for op in table.operations if isinstance(op, CardBurned)]) == count


def test_burn_bad_value_names_allowed_values_art_2_1() -> None:
    with pytest.raises(RulesError, match=r"burn \(Art. 2.1\): 9 is not allowed; allowed: first_card_value, decks, 1-8"):
        rules(burn=9)


def test_short_shoe_stops_at_shoe_start_art_2_1() -> None:
    """A king asks for ten burns; a shoe that holds fewer waits (stacked: no card left)."""
    table = BaccaratTable(MACAU, Shoe.stacked(8, cards("KH 2C 3C")))
    assert table.phase is Phase.SHOE_START
    with pytest.raises(ShoeError, match="no card left"):
        table.verify_next_chore()


# --------------------------------------------------------------------------------------------------
# demo_coups (Art. 2.2)


def test_demo_coups_up_to_three_art_2_2() -> None:
    """Art. 2.2: up to three demonstration coups at the start of a shoe; a fourth is refused."""
    table = table_for(STAND_STAND * 5)
    _play(table, 3, demo=True)
    assert [r.demo for r in table.results] == [True, True, True]
    assert table.results[0].settlements == ()
    with pytest.raises(IllegalActionError, match=r"at most 3 demonstration coup\(s\).*Art. 2.2"):
        table.start_coup(demo=True)
    assert not table.can_start_coup(demo=True)
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()
    assert not table.results[-1].demo


def test_demo_coup_takes_no_bets_art_2_2() -> None:
    """Art. 2.2: a demonstration coup is played without bets."""
    table = table_for(STAND_STAND)
    table.place_bet("ana", "banker", Decimal(100))
    with pytest.raises(BetError, match=r"demonstration coup takes no bets \(Art. 2.2\)"):
        table.start_coup(demo=True)


def test_demo_coups_only_before_the_first_betting_coup_art_2_2() -> None:
    table = table_for(STAND_STAND * 3)
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    with pytest.raises(IllegalActionError, match=r"only at the start of a shoe.*Art. 2.2"):
        table.start_coup(demo=True)


def test_demo_coups_zero_refuses_any_art_2_2() -> None:
    table = table_for(STAND_STAND, rules(demo_coups=0))
    with pytest.raises(IllegalActionError, match=r"at most 0"):
        table.start_coup(demo=True)


def test_demo_coup_cards_count_like_any_other_art_2_2() -> None:
    """Art. 2.2: their cards come from the shoe; the cut card counts them too."""
    table = table_for(STAND_STAND * 3, cut_card=2 + 3)  # the cut card comes out in the demo coup
    table.start_coup(demo=True)
    assert table.cut_card_coup == 1
    table.start_coup()
    assert table.results[-1].last_coup  # one more coup after the demonstration coup (Art. 3.1)


# --------------------------------------------------------------------------------------------------
# at_cut_card (Art. 3.1)


def test_at_cut_card_one_more_art_3_1() -> None:
    """Art. 3.1: the coup in which the cut card appears is followed by exactly one more coup."""
    table = table_for(STAND_STAND * 4, cut_card=2 + 4 + 1)  # the second card of coup 2
    _play(table, 2)
    assert [r.last_coup for r in table.results] == [False, False]
    assert table.cut_card_coup == 2
    _play(table)
    assert table.results[-1].last_coup
    assert table.phase is Phase.AWAITING_SHOE
    with pytest.raises(IllegalActionError, match=r"the shoe is over.*coup 2.*one more coup.*Art. 3.1"):
        table.start_coup()


def test_at_cut_card_last_art_3_1() -> None:
    """Art. 3.1 (``last``): the coup in which the cut card appears is the shoe's last."""
    table = table_for(STAND_STAND * 4, rules(at_cut_card="last"), cut_card=2 + 4 + 1)
    _play(table, 2)
    assert [r.last_coup for r in table.results] == [False, True]
    with pytest.raises(IllegalActionError, match=r"the shoe is over.*at_cut_card = last"):
        table.start_coup()


def test_cut_card_during_shoe_start_burns_counts_for_first_coup_art_3_1() -> None:
    """The cut card coming out with a shoe-start burn belongs to the first coup (docs/transcript.md)."""
    table = table_for(STAND_STAND * 3, cut_card=1)
    assert table.cut_card_coup == 1
    assert any(isinstance(op, CutCardOut) for op in table.operations)
    _play(table, 2)
    assert [r.last_coup for r in table.results] == [False, True]


def test_cut_card_on_a_coup_burn_art_3_1() -> None:
    """The cut card comes out with the draw at its position, a burn included."""
    table = table_for([*STAND_STAND, "9S", *STAND_STAND], rules(burn_each_coup=1, at_cut_card="last"), cut_card=2 + 4)
    _play(table)  # positions 2-5
    assert table.cut_card_coup is None
    _play(table)  # burns position 6, the cut card's
    assert table.cut_card_coup == 2
    assert [r.last_coup for r in table.results] == [False, True]


# --------------------------------------------------------------------------------------------------
# burn_each_coup (Art. 8)


def test_burn_each_coup_zero_by_default_art_8() -> None:
    table = table_for(STAND_STAND * 2)
    _play(table, 2)
    assert [op.when for op in table.operations if isinstance(op, CardBurned)] == ["shoe start"]


def test_burn_each_coup_one_from_the_second_coup_art_8() -> None:
    """Art. 8: the house may burn a card at the start of each coup, from the second coup on (demos count)."""
    table = table_for([*STAND_STAND, "9S", *STAND_STAND, "8S", *STAND_STAND], rules(burn_each_coup=1))
    table.start_coup(demo=True)
    _play(table, 2)
    coup_burns = [str(op.card) for op in table.operations if isinstance(op, CardBurned) and op.when == "coup"]
    assert coup_burns == ["9S", "8S"]
    assert all(str(r.cards.player[0]) == "6S" for r in table.results)


# --------------------------------------------------------------------------------------------------
# commission (Art. 17, 18)


def test_commission_5pct_banker_pays_0_95_art_18() -> None:
    """Art. 18: the house takes 5% of a banker win."""
    result = coup(["6S", "KS"], ["7D", "QD"], [("ana", "banker", 100), ("bo", "banker", 15), ("cy", "player", 40)])
    assert gains(result) == {"ana": "95", "bo": "14.25", "cy": "-40"}


def test_player_pays_1_to_1_art_17() -> None:
    """Art. 17.1: player wins pay 1:1."""
    result = coup(["7S", "KS"], ["6D", "QD"], [("ana", "player", 100), ("bo", "banker", 100)])
    assert gains(result) == {"ana": "100", "bo": "-100"}


def test_commission_none_super6_pays_1_to_1_art_18() -> None:
    """Art. 17, 18 (`none_super6`, no commission): a banker win pays 1:1."""
    result = coup(["6S", "KS"], ["7D", "QD"], [("ana", "banker", 100)], rules(commission="none_super6"))
    assert gains(result) == {"ana": "100"}


def test_commission_none_super6_banker_six_pays_half_art_18() -> None:
    """Art. 17, 18 (`none_super6`): a winning banker 6 pays 1:2, with two cards or three."""
    super6 = rules(commission="none_super6")
    two_card = coup(["5S", "KS", "KC"], ["6D", "QD"], [("ana", "banker", 100)], super6)
    three_card = coup(["AS", "KS", "2C"], ["2D", "QD", "4H"], [("ana", "banker", 30)], super6)
    assert two_card.cards.banker_total == 6 and three_card.cards.banker_total == 6
    assert gains(two_card) == {"ana": "50"}
    assert gains(three_card) == {"ana": "15"}


def test_commission_bad_value_art_18() -> None:
    with pytest.raises(RulesError, match=r"commission \(Art. 17, 18\).*allowed: 5pct, none_super6"):
        rules(commission="4pct")


# --------------------------------------------------------------------------------------------------
# tie_pays (Art. 17)


def test_tie_pays_8_to_1_art_17() -> None:
    """Art. 17.2: a tie pays 8:1."""
    result = coup(["7S", "KS"], ["7D", "QD"], [("ana", "tie", 10)])
    assert gains(result) == {"ana": "80"}


def test_tie_pays_9_to_1_override_art_17() -> None:
    result = coup(["7S", "KS"], ["7D", "QD"], [("ana", "tie", 10)], rules(tie_pays="9:1"))
    assert gains(result) == {"ana": "90"}
    assert rules(tie_pays="9:1").tie_pays == Ratio(9, 1)


def test_tie_bet_loses_otherwise_art_17() -> None:
    assert gains(coup(["6S", "KS"], ["7D", "QD"], [("ana", "tie", 10)])) == {"ana": "-10"}


# --------------------------------------------------------------------------------------------------
# pair_pays (Art. 13, 17)


def test_pair_pays_11_to_1_same_rank_art_13_17() -> None:
    """Art. 13(4), 17.3: the first two cards of a side of one rank pay 11:1, whatever the suits."""
    result = coup(["JS", "JH", "5C"], ["4D", "2D"], [("ana", "player_pair", 10), ("bo", "banker_pair", 10)])
    assert result.cards.player_pair and not result.cards.banker_pair
    assert gains(result) == {"ana": "110", "bo": "-10"}


def test_pair_needs_the_same_rank_not_value_art_13() -> None:
    """Art. 13(4): J-J is a pair, J-Q is not (both are worth 0)."""
    result = coup(["JS", "QS", "KC"], ["5D", "5H", "4C"], [("ana", "player_pair", 10), ("bo", "banker_pair", 10)])
    assert not result.cards.player_pair and result.cards.banker_pair
    assert gains(result) == {"ana": "-10", "bo": "110"}


def test_pair_counts_only_the_first_two_cards_art_13() -> None:
    result = coup(["2S", "3S", "2C"], ["6D", "KH"], [("ana", "player_pair", 10)])
    assert not result.cards.player_pair
    assert gains(result) == {"ana": "-10"}


# --------------------------------------------------------------------------------------------------
# lucky_6 (2018 amendment)


def test_lucky_6_not_offered_by_default_2018_amendment() -> None:
    table = table_for(STAND_STAND)
    with pytest.raises(BetError, match=r"macau does not offer lucky_6 \(lucky_6 = false; 2018 amendment\)"):
        table.place_bet("ana", "lucky_6", Decimal(10))


def test_lucky_6_pays_12_two_cards_20_three_cards_2018_amendment() -> None:
    """2018 amendment: 12:1 on a two-card banker 6 win, 20:1 on a three-card one."""
    lucky = rules(lucky_6=True)
    two = coup(["5S", "KS", "KC"], ["6D", "QD"], [("ana", "lucky_6", 10)], lucky)
    three = coup(["AS", "KS", "2C"], ["2D", "QD", "4H"], [("ana", "lucky_6", 10)], lucky)
    assert gains(two) == {"ana": "120"}
    assert gains(three) == {"ana": "200"}


def test_lucky_6_loses_on_a_banker_6_tie_and_otherwise_2018_amendment() -> None:
    lucky = rules(lucky_6=True)
    tie = coup(["6S", "KS"], ["6D", "QD"], [("ana", "lucky_6", 10)], lucky)
    seven = coup(["6S", "KS"], ["7D", "QD"], [("ana", "lucky_6", 10)], lucky)
    player = coup(["7S", "KS"], ["6D", "QD"], [("ana", "lucky_6", 10)], lucky)
    assert tie.cards.winner == "tie"
    assert gains(tie) == gains(seven) == gains(player) == {"ana": "-10"}


# --------------------------------------------------------------------------------------------------
# tie_bets (Art. 12, 18)


def test_tie_returns_player_and_banker_bets_push_art_12() -> None:
    """Art. 12: on a tie, player and banker bets are neither won nor lost."""
    result = coup(["7S", "KS"], ["7D", "QD"], [("ana", "player", 100), ("bo", "banker", 100)])
    assert gains(result) == {"ana": "0", "bo": "0"}
    assert {s.outcome for s in result.settlements} == {"push"}


def test_tie_bets_push_lets_the_bettor_change_or_take_back_art_12() -> None:
    """Art. 12: after a tie the bets may be cancelled, kept or changed."""
    table = table_for(["7S", "7D", "KS", "QD", *STAND_STAND])
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    assert table.standing_bets == {("ana", "banker"): Decimal(100)}
    table.place_bet("ana", "player", Decimal(20))
    table.start_coup()
    assert gains(table.results[-1]) == {"ana": "-20"}


def test_tie_bets_increase_only_art_18() -> None:
    """Art. 18 (SJM): after a tie a bet stays on its spot and may only be increased, never cancelled or
    reduced (tests/baccarat/test_baccarat_ties.py has the whole contract)."""
    order = ["7S", "7D", "KS", "QD", *STAND_STAND]
    table = table_for(order, rules(tie_bets="increase_only"))
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    assert table.carried_bets == table.stakes == {("ana", "banker"): Decimal(100)}
    table.place_bet("ana", "banker", Decimal(10))
    table.start_coup()
    assert gains(table.results[-1]) == {"ana": "104.5"}
    assert table.carried_bets == {}


# --------------------------------------------------------------------------------------------------
# min_bet, max_bet (Art. 14, 18)


def test_min_bet_art_18() -> None:
    table = table_for(STAND_STAND, rules(min_bet=10))
    with pytest.raises(BetError, match=r"macau's minimum bet is 10 \(Art. 18\)"):
        table.place_bet("ana", "player", Decimal(5))
    assert table.can_place_bet("ana", "player", Decimal(10))


def test_max_bet_art_14_18() -> None:
    table = table_for(STAND_STAND, rules(max_bet=1000))
    table.place_bet("ana", "player", Decimal(600))
    with pytest.raises(BetError, match=r"maximum bet is 1000.*makes ana's player stake 1200"):
        table.place_bet("ana", "player", Decimal(600))


def test_min_above_max_is_refused_art_14_18() -> None:
    with pytest.raises(RulesError, match="min_bet 100 is above max_bet 50"):
        rules(min_bet=100, max_bet=50)


def test_no_limits_by_default_art_14_18() -> None:
    assert MACAU.min_bet is None and MACAU.max_bet is None
    assert table_for(STAND_STAND).can_place_bet("ana", "banker", Decimal("0.01"))


# --------------------------------------------------------------------------------------------------
# banker_bet_multiple_of_min (Art. 18)


def test_banker_bet_multiple_of_min_art_18() -> None:
    """Art. 18: a banker bet is the minimum or a multiple of it; a player bet need only reach the minimum."""
    table = table_for(STAND_STAND, rules(min_bet=10))
    with pytest.raises(BetError, match=r"macau banker bets must be a multiple of the minimum 10 \(Art. 18\)"):
        table.place_bet("ana", "banker", Decimal(15))
    table.place_bet("ana", "banker", Decimal(30))
    table.place_bet("bo", "player", Decimal(15))


def test_banker_bet_multiple_of_min_off_art_18() -> None:
    table = table_for(STAND_STAND, rules(min_bet=10, banker_bet_multiple_of_min=False))
    table.place_bet("ana", "banker", Decimal(15))


# --------------------------------------------------------------------------------------------------
# the automatic shuffler (Art. 2.3, 7.2)


def test_automatic_shuffler_no_cut_no_burn_cards_returned_art_2_3_7_2() -> None:
    """Art. 2.3, 7.2: no cut card, no burn; the cards go back after each coup: a fresh shuffle per coup."""
    auto = rules(shuffler="automatic", burn_each_coup=1)
    table = BaccaratTable(auto, shoe_source=shuffled_shoes(auto, seeded("auto")))
    for _ in range(5):
        table.place_bet("ana", "banker", Decimal(10))
        table.start_coup()
    assert not any(isinstance(op, CardBurned | FirstCardTurned) for op in table.operations)
    assert all(r.last_coup for r in table.results)
    assert table.shoe is not None and table.shoe.cut_card is None and table.shoe.position == 0


def test_automatic_shuffler_refuses_demo_coups_and_cut_cards_art_2_3() -> None:
    auto = rules(shuffler="automatic")
    table = BaccaratTable(auto, Shoe.stacked(8, cards(" ".join(STAND_STAND))))
    with pytest.raises(IllegalActionError, match=r"automatic shuffler deals no demonstration coups"):
        table.start_coup(demo=True)
    with pytest.raises(ShoeError, match=r"no cut card \(Art. 2.3\)"):
        BaccaratTable(auto, Shoe.stacked(8, cards("AS"), 0))


# --------------------------------------------------------------------------------------------------
# the bullets under the table: imbalance (Art. 14), squeeze (Art. 16), misdeal (Art. 10)


def test_max_side_imbalance_art_14() -> None:
    """Art. 14: the table caps the difference between total banker and total player stakes."""
    table = table_for(STAND_STAND, rules(max_side_imbalance=500))
    table.place_bet("ana", "banker", Decimal(400))
    table.place_bet("bo", "player", Decimal(700))
    with pytest.raises(BetError, match=r"caps the difference between banker and player stakes at 500 \(Art. 14\)"):
        table.place_bet("cy", "player", Decimal(300))
    table.place_bet("cy", "tie", Decimal(300))  # side bets do not count


def test_squeeze_holder_largest_seated_bet_art_16() -> None:
    """Art. 16.2: the seated player with the largest bet on a side holds its cards; first to bet on equal bets."""
    table = table_for(STAND_STAND, rules(squeeze=True))
    table.place_bet("ana", "player", Decimal(100))
    table.place_bet("bo", "player", Decimal(500))
    table.place_bet("cy", "banker", Decimal(200))
    table.place_bet("dd", "banker", Decimal(200))
    table.start_coup(seated=["ana", "cy", "dd"])
    holders = {op.side: op.player for op in table.operations if isinstance(op, SqueezeHolderNamed)}
    assert holders == {"player": "ana", "banker": "cy"}


def test_squeeze_not_recorded_where_not_allowed_art_16() -> None:
    table = table_for(STAND_STAND)
    table.place_bet("ana", "player", Decimal(100))
    table.start_coup()
    assert not any(isinstance(op, SqueezeHolderNamed) for op in table.operations)


def test_misdeal_voids_the_coup_bets_stand_art_10() -> None:
    """Art. 10: a misdeal that cannot be corrected voids the coup; the bets stand for the coup dealt again."""
    table = BaccaratTable(rules(), Shoe.stacked(8, cards("AH 2H 4S 4D 4C " + " ".join(STAND_STAND))), automations=())
    table.perform_chores()
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    table.deal_card()
    table.deal_card()
    table.deal_card()
    voided = table.void_coup("card exposed out of order")
    assert voided == CoupVoided(1, tuple(cards("4S 4D 4C")), "card exposed out of order")
    assert table.stakes == {("ana", "banker"): Decimal(100)}
    table.perform_chores()
    result = table.results[-1]
    assert [str(c) for c in result.cards.player] == ["6S", "KS"]
    assert gains(result) == {"ana": "95"} and result.coup == 1


def test_misdeal_cannot_void_a_settled_coup_art_10() -> None:
    table = table_for(STAND_STAND)
    table.start_coup()
    assert not table.can_void_coup()
    with pytest.raises(IllegalActionError, match=r"Art. 10"):
        table.void_coup()


def test_preset_names_and_unknown_preset() -> None:
    assert baccarat_rules("macau") == MACAU
    with pytest.raises(RulesError, match=r"unknown baccarat preset 'vegas'; the presets are: macau"):
        baccarat_rules("vegas")
    with pytest.raises(RulesError, match=r"unknown baccarat rule parameter 'dekcs'"):
        baccarat_rules("macau", {"dekcs": 8})


def test_every_rules_md_parameter_is_named() -> None:
    """docs/rules.md §4: every parameter by its name."""
    names = set(MACAU.describe())
    assert names == {
        "decks", "cut_card", "burn", "demo_coups", "at_cut_card", "burn_each_coup", "commission", "tie_pays",
        "pair_pays", "lucky_6", "tie_bets", "min_bet", "max_bet", "banker_bet_multiple_of_min",
        "max_side_imbalance", "shuffler", "squeeze",
    }  # fmt: skip
    assert MACAU.describe()["burn"] == "first_card_value" and MACAU.describe()["tie_pays"] == "8:1"
