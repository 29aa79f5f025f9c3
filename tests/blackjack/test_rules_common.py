"""docs/rules.md §2, blackjack common rules: one named test per rule, citing its article."""

from __future__ import annotations

import pytest

from croupier.blackjack.hand import is_natural, total
from croupier.cards import parse_cards
from croupier.errors import IllegalActionError, TranscriptError
from tests.blackjack.support import act, dealt_round, hand, replay


def test_card_values_art4_online_1_6() -> None:
    """Art. 4; online §1.6: 2-9 face value, T/J/Q/K ten, A one or eleven; soft when an ace counts 11."""
    assert total(parse_cards(["AS", "6D"])) == (17, True)
    assert total(parse_cards(["AS", "6D", "TC"])) == (17, False)
    assert total(parse_cards(["KS", "QD"])) == (20, False)
    assert total(parse_cards(["AS", "AD"])) == (12, True)
    assert total(parse_cards(["AS", "AD", "9C"])) == (21, True)
    assert total(parse_cards(["JH", "5C", "7D"])) == (22, False)


def test_natural_is_ace_and_ten_as_first_two_cards_art6() -> None:
    """Art. 6: an ace and a ten-value card as the first two cards; pays 3:2."""
    assert is_natural(parse_cards(["AH", "KD"]))
    assert not is_natural(parse_cards(["5H", "6D", "TS"]))
    result = replay("macau-1983", "AH KD 9S 2D 8S")
    assert hand(result)["outcome"] == "blackjack"
    assert result["net"] == {"ana": "150"}


def test_three_card_21_is_not_a_blackjack_art6() -> None:
    """Art. 6: a 21 of three or more cards is not a blackjack; it wins 1:1."""
    result = replay("macau-1983", "5H 6D 9S TS 2D 8S", actions=[act("hit")])
    assert hand(result)["total"] == 21
    assert hand(result)["outcome"] == "win"
    assert result["net"] == {"ana": "100"}


def test_21_on_a_split_hand_is_not_a_blackjack_online_2_7() -> None:
    """Art. 6; online §2.7: a split ace and a ten make 21, paid 1:1, not 3:2."""
    result = replay("live-online", "AH 9S AD 8C KD 5C", actions=[act("split")])
    assert hand(result, 1, 0)["cards"] == ["AH", "KD"]
    assert hand(result, 1, 0)["outcome"] == "win"
    assert hand(result, 1, 1)["outcome"] == "lose"
    assert result["net"] == {"ana": "0"}


def test_dealer_natural_beats_a_players_multi_card_21_art6_online_2_2() -> None:
    """Art. 6; online §2.2: a natural beats any other 21."""
    result = replay("macau-1983", "5H 6D TS TC 2D AC", actions=[act("hit")])
    assert result["dealer"] == {"cards": ["TS", "AC"], "total": 21}
    assert hand(result)["outcome"] == "lose"
    assert result["net"] == {"ana": "-100"}


def test_natural_against_natural_pushes_art7a() -> None:
    """Art. 7a: natural against natural is a push."""
    result = replay("macau-1983", "AH KD TS 2D AC")
    assert hand(result)["outcome"] == "push"
    assert result["net"] == {"ana": "0"}


def test_equal_totals_push_art7b() -> None:
    """Art. 7b: equal totals push."""
    result = replay("macau-1983", "TH 8D TS 2D 8C", actions=[act("stand")])
    assert hand(result)["outcome"] == "push"
    assert result["net"] == {"ana": "0"}


def test_player_bust_loses_even_if_dealer_busts_art3_2b_online_2_2() -> None:
    """Art. 3.2b; online §2.2: a player who busts loses even if the dealer busts."""
    result = replay("macau-1983", "TH 6D 6S TC 2D TD 9C", actions=[act("hit")])
    assert result["dealer"]["total"] == 25
    assert hand(result)["outcome"] == "bust"
    assert result["net"] == {"ana": "-100"}


def test_dealer_bust_pays_every_standing_hand_art3_2a() -> None:
    """Art. 3.2a: the dealer draws to 16; a dealer bust pays every standing hand 1:1."""
    result = replay(
        "macau-1983",
        "TH 5H 6D 2S 6S 2D TD 9C",
        bets=[("ana", 1, 100), ("bo", 2, 40)],
        actions=[act("stand", 1), act("stand", 2)],
    )
    assert result["dealer"] == {"cards": ["6S", "TD", "9C"], "total": 25}
    assert result["net"] == {"ana": "100", "bo": "40"}


def test_blackjack_pays_3_to_2_and_the_ratio_is_a_parameter_art6_online_2_3() -> None:
    """Art. 6; online §2.3: blackjack pays 3:2 (``blackjack_pays``); ordinary wins pay 1:1."""
    assert replay("macau-1983", "AH KD 9S 2D 8S")["net"] == {"ana": "150"}
    assert replay("macau-1983", "AH KD 9S 2D 8S", overrides={"blackjack_pays": "6:5"})["net"] == {"ana": "120"}
    assert replay("macau-1983", "AH KD 9S 2D 8S", bets=[("ana", 1, "15")])["net"] == {"ana": "22.5"}
    assert replay("macau-1983", "TH 9D 7S 2D TS", actions=[act("stand")])["net"] == {"ana": "100"}


def test_insurance_is_offered_only_against_an_ace_art8() -> None:
    """Art. 8: insurance is offered when the dealer's up-card is an ace."""
    with pytest.raises(TranscriptError, match=r"offered only when the dealer's up-card is an ace \(Art\. 8"):
        replay("macau-1983", "TH 9D 9S 2D 8S", actions=[act("insurance", player="ana", amount=50)])


def test_insurance_is_at_most_half_the_bet_art8_online_2_5() -> None:
    """Art. 8; online §2.5: at most half the original bet."""
    current = dealt_round("macau-1983", "TH 9D AS 7C")
    with pytest.raises(IllegalActionError, match=r"at most half the bet \(Art\. 8"):
        current.insure("ana", 1, 51)
    assert current.can_insure("ana", 1, 50)
    assert current.can_insure("ana", 1, "12.5")


def test_insurance_pays_2_to_1_on_a_dealer_natural_art8() -> None:
    """Art. 8: insurance pays 2:1 (``insurance_pays``) when the dealer has a natural."""
    result = replay("macau-1983", "9H TD AS KH", actions=[act("insurance", player="ana", amount=50), act("stand")])
    assert result["net"] == {"ana": "0"}


def test_insurance_is_lost_without_a_dealer_natural_art8() -> None:
    """Art. 8: insurance is lost when the dealer has no natural."""
    result = replay("macau-1983", "TH 9D AS 7C", actions=[act("insurance", player="ana", amount=50), act("stand")])
    assert result["dealer"]["total"] == 18
    assert result["net"] == {"ana": "50"}


def test_even_money_pays_1_to_1_at_once_art6() -> None:
    """Art. 6: a natural against an ace may take 1:1 at once, whatever the dealer holds."""
    for hole in ("KC", "7C"):
        result = replay("macau-1983", f"AH KD AS {hole}", actions=[act("even_money", player="ana")])
        assert hand(result)["outcome"] == "even_money"
        assert result["net"] == {"ana": "100"}


def test_split_is_by_value_q_k_splits_art10_online() -> None:
    """Art. 10; online "分牌": two first cards of equal value split; the second bet equals the first."""
    result = replay("live-online", "QH 9S KD 8C 9D 7D", actions=[act("split"), act("stand"), act("stand")])
    assert hand(result, 1, 0) == {"cards": ["QH", "9D"], "total": 19, "outcome": "win", "stakes": {"ana": "100"}}
    assert hand(result, 1, 1) == {"cards": ["KD", "7D"], "total": 17, "outcome": "push", "stakes": {"ana": "100"}}
    assert result["net"] == {"ana": "100"}


def test_unequal_values_do_not_split_art10() -> None:
    """Art. 10: only equal values split."""
    current = dealt_round("macau-1983", "9H 8D 7S")
    with pytest.raises(IllegalActionError, match=r"equal value split \(Art\. 10\)"):
        current.split(1)


def test_split_hand_takes_its_second_card_when_its_turn_comes_online_2_7() -> None:
    """Online §2.7: split hands are played one after the other; each takes its second card in turn."""
    result = replay(
        "live-online", "8H 9S 8D 8C 3C 5C TC", actions=[act("split"), act("hit"), act("stand"), act("stand")]
    )
    assert hand(result, 1, 0)["cards"] == ["8H", "3C", "5C"]
    assert hand(result, 1, 1)["cards"] == ["8D", "TC"]
    assert result["net"] == {"ana": "0"}


def test_resplit_places_the_new_hand_right_after_the_split_one_art10() -> None:
    """docs/rules.md §2: a resplit places the new hand right after the hand that was split."""
    result = replay(
        "macau-1983",
        "8H 8D 9S 8C TC TD TH 2D 8S",
        actions=[act("split"), act("split", hand=0), act("stand"), act("stand"), act("stand")],
    )
    assert [h["cards"] for h in result["boxes"][0]["hands"]] == [["8H", "TC"], ["8C", "TD"], ["8D", "TH"]]
    assert result["net"] == {"ana": "300"}


def test_double_adds_the_bet_and_takes_exactly_one_card_art11_online_2_6() -> None:
    """Art. 11; online §2.6: a double adds up to the bet and takes exactly one card."""
    result = replay("macau-1983", "6H 5D 9S 2C 2D 8S", actions=[act("double")])
    assert hand(result)["cards"] == ["6H", "5D", "2C"]
    assert hand(result)["stakes"] == {"ana": "200"}
    assert result["net"] == {"ana": "-200"}


def test_a_doubled_hand_never_qualifies_for_a_bonus_art9() -> None:
    """Art. 9 / docs/rules.md §2: a doubled 6-7-8 of one suit is a plain 21."""
    result = replay("live-online", "6H 9S 7H 8C 8H", actions=[act("double")], overrides={"bonus_678_suited": "3:1"})
    assert hand(result)["outcome"] == "win"
    assert result["net"] == {"ana": "200"}


def test_a_hand_with_21_takes_no_more_cards_online_4_4() -> None:
    """Online §4.4: a hand with 21 takes no more cards; the engine stands it."""
    current = dealt_round("macau-1983", "5H TH 6D 8D 9S TC", bets=[("ana", 1, 100), ("bo", 2, 100)])
    current.hit(1)
    assert current.hands[1][0].total == 21 and current.hands[1][0].done
    with pytest.raises(IllegalActionError, match=r"holds 21 and takes no more cards \(online §4\.4\)"):
        current.hit(1, 0)


def test_dealer_stands_on_soft_17_under_macau_art3_2a() -> None:
    """Art. 3.2a: the dealer draws to 16 and stands on 17, soft 17 included (dealer_hits_soft_17=false)."""
    result = replay("macau-1983", "TH 8D 6S 2D AC", actions=[act("stand")])
    assert result["dealer"] == {"cards": ["6S", "AC"], "total": 17}
    assert result["net"] == {"ana": "100"}


def test_dealer_hits_soft_17_under_live_online_4_4() -> None:
    """Online §4.4: the live-online dealer draws on a soft 17 (dealer_hits_soft_17=true)."""
    result = replay("live-online", "TH 6S 8D AC 2H", actions=[act("stand")])
    assert result["dealer"] == {"cards": ["6S", "AC", "2H"], "total": 19}
    assert result["net"] == {"ana": "-100"}


def test_dealer_stops_when_every_hand_is_settled_online_4_4() -> None:
    """Online §4.4 (dealer_draws_when_moot=false): the hole card is turned but nothing more drawn."""
    result = replay("live-online", "TH 9S 6D 7C TC 5C", actions=[act("hit")])
    assert result["dealer"] == {"cards": ["9S", "7C"], "total": 16}
    drawn = replay("live-online", "TH 9S 6D 7C TC 5C", actions=[act("hit")], overrides={"dealer_draws_when_moot": True})
    assert drawn["dealer"] == {"cards": ["9S", "7C", "5C"], "total": 21}


def test_dealer_stops_when_only_naturals_remain_even_against_an_unpeeked_ten_online_4_4() -> None:
    """Online §4.4: only a natural remains against a ten that is not peeked: the hole card is turned, no draw."""
    result = replay("live-online", "AH TS KD 5C 5D")
    assert result["dealer"] == {"cards": ["TS", "5C"], "total": 15}
    assert result["net"] == {"ana": "150"}


def test_moot_dealer_without_a_hole_card_takes_neither_burn_nor_second_card_online_4_4() -> None:
    """docs/rules.md §3: with dealer_draws_when_moot=false and no hole card dealt, no burn and no second card."""
    result = replay(
        "macau-1983", "TH 6D TS 2D 9C", actions=[act("surrender")], overrides={"dealer_draws_when_moot": False}
    )
    assert result["dealer"] == {"cards": ["TS"], "total": 10}
    assert len(result["burned"]) == 6
    assert result["net"] == {"ana": "-50"}


def test_boxes_are_played_from_box_1_up_art3_2c_online_3_4() -> None:
    """Art. 3.2c; online §3.4: boxes are played from the dealer's left (box 1) to the right."""
    current = dealt_round("macau-1983", "5H TH 6D 8D 9S TC", bets=[("ana", 1, 100), ("bo", 2, 100)])
    with pytest.raises(IllegalActionError, match=r"from box 1 up.*Art\. 3\.2c"):
        current.stand(2)
    current.stand(1)
    current.stand(2)
