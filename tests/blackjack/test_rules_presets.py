"""docs/rules.md §3, the blackjack presets: one named test per row, citing its article."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.blackjack import actions as op
from croupier.blackjack.presets import LIVE_ONLINE, MACAU_1983, blackjack_rules
from croupier.blackjack.rules import PARAMS
from croupier.errors import BetError, IllegalActionError, RulesError, TranscriptError
from croupier.money import Ratio
from tests.blackjack.support import act, dealt_round, hand, replay, transcript

PRESET_TABLE = {
    # parameter: (macau-1983, live-online)
    "decks": (6, 8),
    "boxes": (7, 7),
    "hole_card": ("none", "peek_ace"),
    "dealer_hits_soft_17": (False, True),
    "dealer_blackjack_takes": ("all", "original"),
    "double_on": ("11", "any_two"),
    "double_after_split": (False, True),
    "double_for_less": (False, True),
    "max_split_hands": (4, 2),
    "split_aces_one_card": (True, True),
    "resplit_aces": (False, False),
    "surrender": ("early_not_ace", "none"),
    "dealer_draws_when_moot": (True, False),
    "even_money": (True, False),
    "bonus_678_suited": (Ratio(3, 1), None),
    "bonus_777": (Ratio(3, 1), None),
    "bet_behind": (True, False),
    "max_boxes_per_player": (7, 1),
    "burn_at_shoe_start": ("decks", 6),
    "burn_each_round": (1, 0),
    "burn_before_dealer_second": (1, 0),
    "burn_after_misdeal": (0, 3),
    "blackjack_pays": (Ratio(3, 2), Ratio(3, 2)),
    "insurance_pays": (Ratio(2, 1), Ratio(2, 1)),
}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_defaults_are_those_of_rules_md_section_3(name: str) -> None:
    """docs/rules.md §3's table, row by row (Art. 1-13; online §1.6-§4.5)."""
    macau, live = PRESET_TABLE[name]
    assert getattr(MACAU_1983, name) == macau
    assert getattr(LIVE_ONLINE, name) == live


def test_every_parameter_of_rules_md_is_a_named_rule_parameter() -> None:
    """docs/rules.md §3 "Blackjack rule parameters and their values": every name is accepted."""
    expected = set(PRESET_TABLE) | {"cut_card", "min_bet", "max_bet"}
    assert set(PARAMS) == expected


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("decks", 9, "1-8"),
        ("boxes", 0, "1-7"),
        ("hole_card", "yes", "none, peek, peek_ace"),
        ("double_on", "10", "any_two, 9_11, 10_11, 11"),
        ("surrender", "always", "none, early_not_ace, late"),
        ("dealer_hits_soft_17", "maybe", "true, false"),
        ("max_split_hands", 5, "1-4"),
        ("burn_at_shoe_start", 11, "decks or 0-10"),
        ("burn_each_round", 3, "0-2"),
        ("burn_after_misdeal", 11, "0-10"),
        ("blackjack_pays", "3/2", "a ratio"),
        ("insurance_pays", "2:3", "a ratio"),
        ("cut_card", "half", "range"),
        ("min_bet", -5, "a positive amount"),
    ],
)
def test_a_value_outside_the_list_names_the_allowed_values(name: str, value: object, allowed: str) -> None:
    """docs/rules.md §3: a value outside the list is an error that names the allowed values."""
    with pytest.raises(RulesError, match=name) as caught:
        blackjack_rules("macau-1983", {name: value})
    assert allowed in str(caught.value)


def test_unknown_preset_and_parameter_are_named() -> None:
    with pytest.raises(RulesError, match="unknown blackjack preset 'vegas'; the presets are: macau-1983, live-online"):
        blackjack_rules("vegas")
    with pytest.raises(RulesError, match="unknown blackjack rule parameter 'dealer_peeks'"):
        blackjack_rules("macau-1983", {"dealer_peeks": True})


def test_overrides_by_name_from_text_and_json() -> None:
    """Rules are data: overrides by name, from the CLI's strings or a transcript's JSON values."""
    from_text = blackjack_rules("macau-1983", {"decks": "8", "dealer_hits_soft_17": "true", "bonus_777": "none"})
    from_json = blackjack_rules("macau-1983", {"decks": 8, "dealer_hits_soft_17": True, "bonus_777": None})
    assert from_text == from_json
    assert from_text.decks == 8 and from_text.bonus_777 is None and from_text.preset == "macau-1983"


def test_decks_six_for_macau_and_eight_online_art1_online_1_6() -> None:
    """Art. 1; online §1.6: a shoe of 6 (macau-1983) or 8 (live-online) decks holds that many copies."""
    seven = " ".join(["AS"] * 7)
    with pytest.raises(TranscriptError, match="more copies of AS than 6 deck"):
        replay("macau-1983", seven)
    with pytest.raises(TranscriptError, match="more copies of AS than 8 deck"):
        replay("live-online", " ".join(["AS"] * 9))


def test_single_deck_metal_box_art1b_2_2_3_1b() -> None:
    """Art. 1b, 2.2, 3.1b: one deck: burn 1, the dealer's face-down second card in the deal, no other
    burns, one round per shuffle."""
    overrides = {"decks": 1}
    current = dealt_round("macau-1983", "TH 9D 7S TS", overrides=overrides)
    assert current.dealer_has_hole_card and [str(c) for c in current.dealer_cards] == ["7S"]
    result = replay("macau-1983", "TH 9D 7S TS", actions=[act("stand")], overrides=overrides)
    assert result["burned"] == ["2C"]
    assert result["dealer"] == {"cards": ["7S", "TS"], "total": 17}
    assert result["last_round"] is True
    doc = transcript(
        "macau-1983",
        "TH 9D 7S TS 5H 6H 7H 8H",
        overrides=overrides,
        rounds=[
            {"bets": [{"player": "ana", "box": 1, "amount": 10}], "actions": [{"type": "stand", "box": 1}]},
            {"bets": [{"player": "ana", "box": 1, "amount": 10}], "actions": []},
        ],
    )
    from croupier.blackjack.replay import replay_blackjack

    with pytest.raises(TranscriptError, match=r"round 2: .*last round"):
        replay_blackjack(doc)


def test_single_deck_one_box_each_art2_3() -> None:
    """Art. 2.3: with one deck, one box each."""
    with pytest.raises(TranscriptError, match=r"1 box\(es\) per player \(Art\. 2\.3; one deck"):
        replay("macau-1983", "TH 9D 7S TS", bets=[("ana", 1, 10), ("ana", 2, 10)], overrides={"decks": 1})


def test_seven_boxes_art2_3_online_1_2_1() -> None:
    """Art. 2.3; online §1.2.1: seven boxes (six allowed: boxes=6)."""
    with pytest.raises(TranscriptError, match=r"boxes 1-7 \(Art\. 2\.3\); there is no box 8"):
        replay("macau-1983", "TH 9D 7S", bets=[("ana", 8, 10)])
    with pytest.raises(TranscriptError, match="there is no box 7"):
        replay("macau-1983", "TH 9D 7S", bets=[("ana", 7, 10)], overrides={"boxes": 6})


def test_macau_deals_two_cards_to_each_box_then_the_dealers_up_card_art3_1a() -> None:
    """Art. 3.1a: a first card to each box in turn, a second to each box in turn, then the dealer's up-card;
    the dealer's second card comes after the players, face up, after a burn (Art. 2.4)."""
    current = dealt_round("macau-1983", "TH 5H 9D 6D 7S", bets=[("ana", 1, 10), ("bo", 2, 10)])
    dealt = [(str(o.card), o.box) for o in current.operations if isinstance(o, op.CardDealt)]
    assert dealt == [("TH", 1), ("5H", 2), ("9D", 1), ("6D", 2), ("7S", 0)]
    assert not current.dealer_has_hole_card
    result = replay("macau-1983", "TH 9D 7S 2D TS", actions=[act("stand")])
    assert result["burned"][-1] == "2D" and result["dealer"]["cards"] == ["7S", "TS"]


def test_macau_ace_up_takes_the_second_card_face_down_at_once_art3_1a() -> None:
    """Art. 3.1a: with an ace up the second card is dealt face down at once (no burn) and not looked at
    until all boxes are done; the burn moves before the dealer's first extra card (Art. 2.4)."""
    current = dealt_round("macau-1983", "TH 9D AS 5C 2D 3H")
    assert current.dealer_has_hole_card
    assert [str(c) for c in current.dealer_cards] == ["AS"]
    assert not current.peeked
    result = replay("macau-1983", "TH 9D AS 5C 2D 3H", actions=[act("stand")])
    assert result["dealer"] == {"cards": ["AS", "5C", "3H"], "total": 19}
    assert result["burned"][-1] == "2D"
    assert result["net"] == {"ana": "0"}


def test_live_online_deal_order_box_up_box_hole_online_3_4() -> None:
    """Online §3.4: box first card, dealer up-card, box second card, dealer hole card."""
    current = dealt_round("live-online", "TH 5H 7S 9D 6D 8C", bets=[("ana", 1, 10), ("bo", 2, 10)])
    dealt = [(str(o.card), o.box, o.face_up) for o in current.operations if isinstance(o, op.CardDealt)]
    assert dealt == [
        ("TH", 1, True),
        ("5H", 2, True),
        ("7S", 0, True),
        ("9D", 1, True),
        ("6D", 2, True),
        ("8C", 0, False),
    ]
    assert [str(c) for c in current.dealer_cards] == ["7S"]


def test_peek_ace_checks_and_a_dealer_natural_ends_the_round_online_3_8() -> None:
    """Online §3.8: with an ace up the dealer peeks after insurance; a natural ends the round at once."""
    result = replay("live-online", "TH AS 9D KC")
    assert result["dealer"] == {"cards": ["AS", "KC"], "total": 21}
    assert result["net"] == {"ana": "-100"}
    with pytest.raises(TranscriptError, match="round is over"):
        replay("live-online", "TH AS 9D KC", actions=[act("stand")])


def test_peek_ace_does_not_peek_a_ten_online_3_8() -> None:
    """Online §3.8: with a ten up there is no peek; the natural is found after play."""
    current = dealt_round("live-online", "TH TS 9D AC")
    assert not current.peeked and isinstance(current.pending, op.AwaitDecision)
    assert replay("live-online", "TH TS 9D AC", actions=[act("stand")])["net"] == {"ana": "-100"}


def test_hole_card_peek_checks_a_ten_too() -> None:
    """docs/rules.md §3 ``hole_card=peek``: the dealer checks with an ace or a ten up."""
    current = dealt_round("live-online", "6H TS 5D AC", overrides={"hole_card": "peek"})
    assert current.peeked and current.ended
    assert current.net() == {"ana": Decimal(-100)}


def test_dealer_blackjack_takes_all_under_macau_art8() -> None:
    """Art. 8 (dealer_blackjack_takes=all): doubles and splits are lost to a natural found after play."""
    split = replay("macau-1983", "8H 8D TS 9C 9H 2D AC", actions=[act("split"), act("stand"), act("stand")])
    assert split["net"] == {"ana": "-200"}
    doubled = replay("macau-1983", "6H 5D TS 2C 2D AC", actions=[act("double")])
    assert doubled["net"] == {"ana": "-200"}


def test_dealer_blackjack_takes_original_bet_once_online_2_6() -> None:
    """Online §2.6 (dealer_blackjack_takes=original): the box loses its original bet once."""
    split = replay(
        "macau-1983",
        "8H 8D TS 9C 9H 2D AC",
        actions=[act("split"), act("stand"), act("stand")],
        overrides={"dealer_blackjack_takes": "original"},
    )
    assert split["net"] == {"ana": "-100"}


def test_a_busted_hand_was_lost_when_it_busted_under_original_online_2_6() -> None:
    """docs/rules.md §3: a hand that busted was lost when it busted; the unbusted hands lose the original once."""
    result = replay("live-online", "8H TS 8D AC 6C TC 9C", actions=[act("split"), act("hit"), act("stand")])
    assert hand(result, 1, 0)["outcome"] == "bust"
    assert result["net"] == {"ana": "-200"}


@pytest.mark.parametrize(
    ("double_on", "allowed", "refused"),
    [
        ("11", [11], [9, 10, 12]),
        ("10_11", [10, 11], [9, 12]),
        ("9_11", [9, 10, 11], [8, 12]),
        ("any_two", [4, 9, 12, 20], []),
    ],
)
def test_double_on_first_two_card_totals_art11_online_2_6(
    double_on: str, allowed: list[int], refused: list[int]
) -> None:
    """Art. 11 (double_on=11); online §2.6 (any_two); 9_11 and 10_11."""
    pairs = {4: "2H 2D", 8: "5H 3D", 9: "5H 4D", 10: "6H 4D", 11: "6H 5D", 12: "7H 5D", 20: "KH QD"}
    for points in allowed + refused:
        first, second = pairs[points].split()
        current = dealt_round("macau-1983", f"{first} {second} 9S 3S", overrides={"double_on": double_on})
        assert current.can_double(1) == (points in allowed), points
    if refused:
        first, second = pairs[refused[0]].split()
        current = dealt_round("macau-1983", f"{first} {second} 9S 3S", overrides={"double_on": double_on})
        with pytest.raises(IllegalActionError, match=r"double only on a first-two-card total .*\(Art\. 11\)"):
            current.double(1)


def test_no_double_after_split_under_macau_art11() -> None:
    """Art. 11 "first two cards" (double_after_split=false)."""
    current = dealt_round("macau-1983", "8H 8D 9S 3C")
    current.split(1)
    assert current.hands[1][0].total == 11
    with pytest.raises(IllegalActionError, match=r"no double after a split \(Art\. 11"):
        current.double(1)


def test_double_after_split_under_live_online_2_6() -> None:
    """Online §2.6 (double_after_split=true): the scenario's split then double on both hands."""
    current = dealt_round("live-online", "8H TC 8D 9S 3S")
    current.split(1)
    assert current.can_double(1, 0)


def test_double_for_less_only_online_2_6() -> None:
    """Art. 11 "加多一倍" (macau-1983 doubles for the full bet); online §2.6 "不超過" (for less)."""
    macau = dealt_round("macau-1983", "6H 5D 9S 2C")
    with pytest.raises(IllegalActionError, match=r"full bet only \(Art\. 11"):
        macau.double(1, amount=50)
    live = replay("live-online", "6H 9S 5D 8C 2C", actions=[act("double", amount=50)])
    assert hand(live)["stakes"] == {"ana": "150"}
    assert live["net"] == {"ana": "-150"}
    with pytest.raises(TranscriptError, match="at most the bet"):
        replay("live-online", "6H 9S 5D 8C 2C", actions=[act("double", amount=150)])


def test_max_split_hands_four_under_macau_art10() -> None:
    """Art. 10 sets no limit; macau-1983's house cap is 4 hands (max_split_hands=4)."""
    current = dealt_round("macau-1983", "8H 8D 9S 8C 8S 8C")
    current.split(1)
    current.split(1, 0)
    current.split(1, 0)
    assert len(current.hands[1]) == 4 and current.hands[1][0].pair()
    with pytest.raises(IllegalActionError, match=r"max_split_hands=4\); box 1 already has 4"):
        current.split(1, 0)


def test_one_split_per_round_online_2_7() -> None:
    """Online §2.7 (max_split_hands=2): one split per round."""
    with pytest.raises(TranscriptError, match=r"online §2\.7; max_split_hands=2\)"):
        replay("live-online", "8H 9S 8D 8C 8S", actions=[act("split"), act("split", hand=0)])


def test_no_split_when_max_split_hands_is_1() -> None:
    current = dealt_round("macau-1983", "8H 8D 9S", overrides={"max_split_hands": 1})
    assert not current.can_split(1)


def test_split_aces_take_one_card_each_art10_online_2_7() -> None:
    """Art. 10; online §2.7 (split_aces_one_card=true)."""
    result = replay("macau-1983", "AH AD 9S 5C 6C 2D 8S", actions=[act("split")])
    assert [h["cards"] for h in result["boxes"][0]["hands"]] == [["AH", "5C"], ["AD", "6C"]]
    assert result["net"] == {"ana": "-100"}
    free = dealt_round("macau-1983", "AH AD 9S 5C 6C 2D 8S", overrides={"split_aces_one_card": False})
    free.split(1)
    assert free.can_hit(1)


def test_no_resplit_of_aces_resplit_aces_false() -> None:
    """docs/rules.md §3 resplit_aces=false: a split ace that draws an ace stands."""
    current = dealt_round("macau-1983", "AH AD 9S AC 6C 2D 8S")
    current.split(1)
    assert [str(c) for c in current.hands[1][0].cards] == ["AH", "AC"]
    assert current.hands[1][0].done and current.ended
    resplit = dealt_round("macau-1983", "AH AD 9S AC 6C", overrides={"resplit_aces": True})
    resplit.split(1)
    assert resplit.can_split(1, 0)
    assert not resplit.can_hit(1, 0)


def test_early_surrender_not_against_an_ace_art12() -> None:
    """Art. 12 (surrender=early_not_ace): half the bet, before any extra card, not against an ace."""
    assert replay("macau-1983", "TH 6D TS 2D 9C", actions=[act("surrender")])["net"] == {"ana": "-50"}
    with pytest.raises(TranscriptError, match=r"no surrender against an ace \(Art\. 12\)"):
        replay("macau-1983", "TH 6D AS 9C", actions=[act("surrender")])


def test_surrender_is_the_first_decision_only_art12() -> None:
    """Art. 12: before any card the box asks for; after a split see test_rules_readings.py."""
    current = dealt_round("macau-1983", "5H 4D TS 2C 2D 9C")
    current.hit(1)
    with pytest.raises(IllegalActionError, match=r"before it takes any card it asks for \(Art\. 12\)"):
        current.surrender(1)


def test_no_surrender_online() -> None:
    """Live-online offers no surrender (surrender=none)."""
    with pytest.raises(TranscriptError, match=r"no surrender \(surrender=none\)"):
        replay("live-online", "TH 9S 6D 8C", actions=[act("surrender")])


def test_late_surrender_after_the_peek() -> None:
    """docs/rules.md §3 surrender=late: first decision, after the dealer has checked for a natural."""
    result = replay("live-online", "TH AS 6D 8C", actions=[act("surrender")], overrides={"surrender": "late"})
    assert result["net"] == {"ana": "-50"}


def test_bonus_678_suited_pays_3_to_1_at_once_art9() -> None:
    """Art. 9: a three-card 6-7-8 of one suit is paid 3:1 at once; the dealer's natural does not matter."""
    result = replay("macau-1983", "6H 7H TS 8H 2D AC", actions=[act("hit")])
    assert hand(result)["outcome"] == "bonus"
    assert result["net"] == {"ana": "300"}


def test_bonus_777_any_suits_pays_3_to_1_art9() -> None:
    """Art. 9: 7-7-7 of any suits is paid 3:1."""
    result = replay("macau-1983", "7H 7D 9S 7C 2D 8S", actions=[act("hit")])
    assert hand(result)["outcome"] == "bonus"
    assert result["net"] == {"ana": "300"}


def test_678_of_mixed_suits_is_a_plain_21_art9() -> None:
    """Art. 9: the 6-7-8 must be of one suit."""
    result = replay("macau-1983", "6H 7H TS 8D 2D 7C", actions=[act("hit")])
    assert hand(result)["outcome"] == "win"
    assert result["net"] == {"ana": "100"}


def test_bonus_on_a_split_hand_and_against_an_ace_art9() -> None:
    """docs/rules.md §3 Art. 9: a split hand qualifies, and the bonus is settled even with an ace up."""
    result = replay(
        "macau-1983",
        "7H 7D AS KC 7C 7S TD",
        actions=[act("split"), act("hit"), act("stand")],
    )
    assert hand(result, 1, 0)["cards"] == ["7H", "7C", "7S"]
    assert hand(result, 1, 0)["outcome"] == "bonus"
    assert hand(result, 1, 1)["outcome"] == "lose"
    assert result["net"] == {"ana": "200"}


def test_no_bonus_online() -> None:
    """Live-online pays no bonus (bonus_678_suited=bonus_777=none)."""
    result = replay("live-online", "6H 9S 7H 8C 8H", actions=[act("hit")])
    assert hand(result)["outcome"] == "win"
    assert result["net"] == {"ana": "100"}


def test_bet_behind_macau_art13_and_not_online_4_5() -> None:
    """Art. 13 (bet_behind=true); online §4.5 (bet_behind=false)."""
    result = replay("macau-1983", "TH 9D 7S 2D TS", bets=[("ana", 1, 100), ("bo", 1, 50)], actions=[act("stand")])
    assert result["net"] == {"ana": "100", "bo": "50"}
    with pytest.raises(TranscriptError, match=r"no bets behind \(online §4\.5; bet_behind=false\)"):
        replay("live-online", "TH 9S 9D 8C", bets=[("ana", 1, 100), ("bo", 1, 50)])


def test_max_boxes_per_player_art2_3_online_4_5() -> None:
    """Art. 2.3 (7 boxes where each further box's occupant also bets); online §4.5 (one hand)."""
    cards = "TH TD TS TC 9H 9D 9S 9C 8H 8D 8S 8C 7H 7D 7S"
    bets = [("ana", box, 10) for box in range(1, 8)]
    current = dealt_round("macau-1983", cards, bets=bets)
    assert current.boxes == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(TranscriptError, match=r"1 box\(es\) per player \(Art\. 2\.3; max_boxes_per_player=1\)"):
        replay("live-online", cards, bets=[("ana", 1, 10), ("ana", 2, 10)])


def test_burn_at_shoe_start_as_many_as_decks_art2_1() -> None:
    """Art. 2.1 (burn_at_shoe_start=decks): one card per deck, one at a time."""
    result = replay("macau-1983", "TH 9D 7S 2D TS", actions=[act("stand")], overrides={"decks": 4})
    assert result["burned"] == ["2C", "3C", "4C", "5C", "2D"]


def test_burn_six_after_each_shuffle_online_3_5() -> None:
    """Online §3.5: burn 6 after each shuffle."""
    result = replay("live-online", "TH 9S 9D 8C", actions=[act("stand")])
    assert result["burned"] == ["2C", "3C", "4C", "5C", "6C", "7C"]


def test_burn_one_each_round_after_the_first_art2_4() -> None:
    """Art. 2.4 (burn_each_round=1): each round after the first starts with a burn."""
    from croupier.blackjack.replay import replay_blackjack

    bet = [{"player": "ana", "box": 1, "amount": 10}]
    doc = transcript(
        "macau-1983",
        "TH 9D 7S 2D TS  KH 8H 9C 7S 3D TD",
        rounds=[
            {"bets": bet, "actions": [{"type": "stand", "box": 1}]},
            {"bets": bet, "actions": [{"type": "stand", "box": 1}]},
        ],
    )
    second = replay_blackjack(doc)["rounds"][1]
    assert second["burned"] == ["KH", "3D"]
    assert hand(second)["cards"] == ["8H", "9C"]
    live = transcript(
        "live-online",
        "TH 9S 9D 8C  8H 9C 7S TD",
        rounds=[
            {"bets": bet, "actions": [{"type": "stand", "box": 1}]},
            {"bets": bet, "actions": [{"type": "stand", "box": 1}]},
        ],
    )
    assert replay_blackjack(live)["rounds"][1]["burned"] == []


def test_the_round_in_which_the_cut_card_comes_out_is_the_last_art2_2_online_3_2_2() -> None:
    """Art. 2.1, 2.2; online §3.2.2: the round in which the cut card appears is the last."""
    from croupier.blackjack.replay import replay_blackjack

    bet = [{"player": "ana", "box": 1, "amount": 10}]
    rounds = [{"bets": bet, "actions": [{"type": "stand", "box": 1}]}] * 2
    # macau-1983: 6 burns, then TH 9D 7S, burn 2D, TS; the cut card lies above position 8 (9D)
    doc = transcript("macau-1983", "TH 9D 7S 2D TS KH 8H 9C 7S 3D TD", rounds=rounds[:1], cut_card=7)
    assert replay_blackjack(doc)["rounds"][0]["last_round"] is True
    with pytest.raises(TranscriptError, match=r"round 2: the cut card came out in round 1"):
        replay_blackjack(transcript("macau-1983", "TH 9D 7S 2D TS KH 8H 9C 7S 3D TD", rounds=rounds, cut_card=7))
    # a cut card among the shoe-start burns makes the first round the last
    assert replay_blackjack(transcript("macau-1983", "TH 9D 7S 2D TS", rounds=rounds[:1], cut_card=0))["rounds"][0][
        "last_round"
    ]
    not_reached = replay_blackjack(transcript("macau-1983", "TH 9D 7S 2D TS KH 8H 9C 7S 3D TD", rounds=rounds))
    assert [r["last_round"] for r in not_reached["rounds"]] == [False, False]


def test_table_limits() -> None:
    """Table limits (min_bet, max_bet) in table units."""
    overrides = {"min_bet": 10, "max_bet": 500}
    with pytest.raises(TranscriptError, match="the table minimum is 10"):
        replay("macau-1983", "TH 9D 7S", bets=[("ana", 1, 5)], overrides=overrides)
    with pytest.raises(TranscriptError, match="the table maximum is 500"):
        replay("macau-1983", "TH 9D 7S", bets=[("ana", 1, 501)], overrides=overrides)
    with pytest.raises(RulesError, match="min_bet 600 is above max_bet 500"):
        blackjack_rules("macau-1983", {"min_bet": 600, "max_bet": 500})


def test_one_bet_per_player_per_box_art2_3() -> None:
    with pytest.raises(BetError, match=r"one bet per player per box \(Art\. 2\.3\)"):
        dealt_round("macau-1983", "TH 9D 7S", bets=[("ana", 1, 10), ("ana", 1, 10)])


def test_automated_chores_can_be_performed_by_the_caller() -> None:
    """docs/api.md (the pending chores): burns, dealing, dealer play and settlement can be left to the
    engine or done outside."""
    from croupier.blackjack.state import Table
    from croupier.cards import parse_cards
    from croupier.shoe import Shoe

    rules = blackjack_rules("macau-1983")
    shoe = Shoe.stacked(6, parse_cards("2C 3C 4C 5C 6C 7C TH 9D 7S 2D TS".split()))
    current = Table(rules, shoe, automations=frozenset()).new_round()
    current.bet("ana", 1, 100)
    current.deal()
    chores = []
    while isinstance(current.pending, op.AwaitChore):
        chores.append(current.pending.chore)
        getattr(current, {"burn": "burn_card", "deal": "deal_card"}[current.pending.chore])()
    current.stand(1)
    while isinstance(current.pending, op.AwaitChore):
        chores.append(current.pending.chore)
        if current.pending.chore == "dealer_stand":
            with pytest.raises(IllegalActionError, match=r"stands on 17 \(Art\. 3\.2a\)"):
                current.dealer_hit()
        getattr(
            current,
            {"burn": "burn_card", "deal": "deal_card", "dealer_stand": "dealer_stand", "settle": "settle"}[
                current.pending.chore
            ],
        )()
    assert chores == ["burn"] * 6 + ["deal"] * 3 + ["burn", "deal", "dealer_stand", "settle"]
    assert current.ended and current.net() == {"ana": Decimal(100)}


def test_cards_from_a_live_dealers_reader() -> None:
    """docs/rules.md §1: a live dealer's card reader supplies cards one at a time; the engine waits."""
    from croupier.blackjack.state import Table
    from croupier.cards import Card
    from croupier.shoe import Shoe

    rules = blackjack_rules("live-online")
    current = Table(rules, Shoe.live(8)).new_round()
    current.bet("ana", 1, 100)
    current.deal()
    for text in "2C 3C 4C 5C 6C 7C TH 9S 9D".split():
        assert isinstance(current.pending, op.AwaitCard)
        current.supply_card(Card.parse(text))
    assert current.pending == op.AwaitCard("dealer hole card")
    current.supply_card(Card.parse("8C"))
    assert [str(c) for c in current.dealer_cards] == ["9S"]
    current.stand(1)
    assert current.ended and current.net() == {"ana": Decimal(100)}
