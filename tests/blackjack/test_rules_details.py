"""docs/rules.md §3 "Macau 1983 details" and "Live online details": several bettors on one box (Art. 13),
who may bet where (Art. 2.3), misdeals (Art. 2.1), insurance timing, errors (online §3.5), timers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.blackjack import actions as op
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.state import Table
from croupier.cards import Card, parse_cards
from croupier.errors import BetError, IllegalActionError, TranscriptError
from croupier.shoe import Shoe
from tests.blackjack.support import act, dealt_round, hand, replay


def test_highest_bet_decides_art13() -> None:
    """Art. 13: the highest bet on the box makes every decision for the round."""
    current = dealt_round("macau-1983", "TH 9D 7S 2D TS", bets=[("ana", 1, 100), ("bo", 1, 200)])
    assert current.decider(1) == "bo"
    with pytest.raises(IllegalActionError, match=r"belong to bo, the highest bet \(Art\. 13\); ana may not decide"):
        current.stand(1, player="ana")
    with pytest.raises(TranscriptError, match=r"round 1, action 1 \(stand, box 1\): .*Art\. 13"):
        replay(
            "macau-1983", "TH 9D 7S 2D TS", bets=[("ana", 1, 100), ("bo", 1, 200)], actions=[act("stand", player="ana")]
        )
    current.stand(1, player="bo")


def test_on_equal_highest_bets_the_seated_player_decides_art13() -> None:
    """Art. 13: on equal highest bets the seated player decides."""
    current = dealt_round("macau-1983", "TH 9D 7S", bets=[("ana", 1, 100), ("bo", 1, 100)])
    assert current.occupant(1) == "ana" and current.decider(1) == "ana"


def test_seated_player_not_among_equal_highest_the_first_of_them_to_bet_decides_art13() -> None:
    """Art. 13: if the seated player is not among the equal highest, the first of them to have bet decides."""
    current = dealt_round("macau-1983", "TH 9D 7S", bets=[("ana", 1, 50), ("bo", 1, 100), ("cy", 1, 100)])
    assert current.decider(1) == "bo"


def test_a_double_adds_a_matching_stake_from_each_bettor_art13() -> None:
    """Art. 13: every bet on the box follows the decision; a double adds a matching stake from each bettor."""
    result = replay("macau-1983", "6H 5D 9S TC 2D 8S", bets=[("ana", 1, 100), ("bo", 1, 50)], actions=[act("double")])
    assert hand(result)["stakes"] == {"ana": "200", "bo": "100"}
    assert result["net"] == {"ana": "200", "bo": "100"}


def test_a_double_for_less_adds_the_same_fraction_of_each_stake_art13() -> None:
    """Art. 13: a double for less adds the same fraction of each bettor's stake as the decider adds."""
    result = replay(
        "macau-1983",
        "6H 5D 9S TC 2D 8S",
        bets=[("ana", 1, 100), ("bo", 1, 50)],
        actions=[act("double", amount=50)],
        overrides={"double_for_less": True},
    )
    assert hand(result)["stakes"] == {"ana": "150", "bo": "75"}


def test_a_split_adds_a_matching_stake_from_each_bettor_art13() -> None:
    result = replay(
        "macau-1983",
        "8H 8D 9S TC TD 2D 8S",
        bets=[("ana", 1, 100), ("bo", 1, 50)],
        actions=[act("split"), act("stand"), act("stand")],
    )
    assert [h["stakes"] for h in result["boxes"][0]["hands"]] == [{"ana": "100", "bo": "50"}] * 2
    assert result["net"] == {"ana": "200", "bo": "100"}


def test_insurance_and_even_money_stay_each_bettors_own_choice_art13() -> None:
    """Art. 13: insurance and even money stay each bettor's own; a natural may insure instead of even money."""
    result = replay(
        "macau-1983",
        "AH KD AS KC",
        bets=[("ana", 1, 100), ("bo", 1, 50), ("cy", 1, 20)],
        actions=[act("even_money", player="ana"), act("insurance", player="bo", amount=25)],
    )
    assert result["net"] == {"ana": "100", "bo": "50", "cy": "0"}
    assert hand(result)["results"] == {"ana": "even_money", "bo": "push", "cy": "push"}


def test_each_bettor_insures_a_box_once() -> None:
    current = dealt_round("macau-1983", "TH 9D AS 7C")
    current.insure("ana", 1, 10)
    with pytest.raises(IllegalActionError, match=r"insures a box once \(Art\. 8\)"):
        current.insure("ana", 1, 10)


def test_a_seated_player_bets_on_another_box_only_where_its_occupant_bets_art2_3() -> None:
    """Art. 2.3: a player seated at a box may bet on other boxes only where that box's occupant also
    bets, judged when betting closes: the bet may arrive before the occupant's."""
    rules = blackjack_rules("macau-1983")
    current = Table(rules, Shoe.stacked(6, [])).new_round({1: "ana", 2: "bo"})
    current.bet("ana", 1, 10)
    current.bet("ana", 2, 10)  # bo has not bet yet: accepted on arrival
    current.bet("bo", 2, 10)
    assert current.bets == {1: {"ana": Decimal(10)}, 2: {"ana": Decimal(10), "bo": Decimal(10)}}


def test_an_unseated_player_bets_on_one_box_only_art2_3() -> None:
    """Art. 2.3: an unseated player may bet on one box only."""
    rules = blackjack_rules("macau-1983")
    current = Table(rules, Shoe.stacked(6, [])).new_round({1: "ana", 2: "bo"})
    current.bet("ana", 1, 10)
    current.bet("bo", 2, 10)
    current.bet("cy", 1, 10)
    with pytest.raises(BetError, match=r"without a box may bet on one box only \(Art\. 2\.3\)"):
        current.bet("cy", 2, 10)


def test_misdeal_voids_the_round_and_bets_stand_art2_1() -> None:
    """Art. 2.1: a misdeal that cannot be corrected voids every card; the round is replayed with bets standing."""
    rules = blackjack_rules("macau-1983")
    cards = "2C 3C 4C 5C 6C 7C TH 9D 7S  5H 8H 9S 2D TS".split()
    table = Table(rules, Shoe.stacked(6, parse_cards(cards)))
    first = table.new_round()
    first.bet("ana", 1, 100)
    first.bet("bo", 1, 50)
    first.deal()
    first.void("misdeal: a card to the wrong box")
    assert first.voided and first.payments == [] and isinstance(first.operations[-1], op.RoundVoided)
    with pytest.raises(IllegalActionError, match="voided"):
        first.stand(1)
    again = table.replay_voided(first)
    assert again.bets == {1: {"ana": Decimal(100), "bo": Decimal(50)}}
    again.deal()
    assert [str(c) for c in again.hands[1][0].cards] == ["8H", "9S"]
    assert [str(c) for c in again.burned] == ["5H"]  # Art. 2.4: a new round's burn


def test_burn_3_after_a_game_error_online_3_5() -> None:
    """Online §3.5: after a game error, with supervisor approval, burn 3."""
    rules = blackjack_rules("live-online")
    cards = "2C 3C 4C 5C 6C 7C TH 9S 9D 8C  2H 3H 4H  KH 7S QD 9C".split()
    table = Table(rules, Shoe.stacked(8, parse_cards(cards)))
    first = table.new_round()
    first.bet("ana", 1, 100)
    first.deal()
    first.void("game error")
    again = table.replay_voided(first, burn=3)
    again.deal()
    assert [str(c) for c in again.burned] == ["2H", "3H", "4H"]
    assert [str(c) for c in again.hands[1][0].cards] == ["KH", "QD"]


def test_a_card_found_face_up_in_the_shoe_is_void_art2_1() -> None:
    """Art. 2.1: a card found face up in the shoe is void."""
    rules = blackjack_rules("live-online")
    current = Table(rules, Shoe.live(8)).new_round()
    current.bet("ana", 1, 100)
    current.deal()
    current.void_face_up_card(Card.parse("AS"))
    for text in "2C 3C 4C 5C 6C 7C TH 9S 9D 8C".split():
        current.supply_card(Card.parse(text))
    assert [str(c) for c in current.burned] == ["2C", "3C", "4C", "5C", "6C", "7C"]
    assert op.CardVoided(Card.parse("AS")) in current.operations


def test_macau_insurance_settles_when_the_face_down_card_is_turned_after_play_art8() -> None:
    """docs/rules.md Macau details: insurance is offered after the deal and settles when the card is turned after
    play."""
    current = dealt_round("macau-1983", "TH 9D AS 7C")
    current.insure("ana", 1, 50)
    current.close_insurance()
    assert current.payments == []
    current.stand(1)
    kinds = [o.kind if isinstance(o, (op.Decision, op.Payment)) else type(o).__name__ for o in current.operations]
    assert kinds.index("stand") < kinds.index("HoleCardTurned") < kinds.index("insurance_lost")


def test_insurance_comes_before_any_box_acts_and_an_untaken_offer_is_declined() -> None:
    """Macau details; online §3.6: insurance before the first decision; no answer declines it."""
    current = dealt_round("live-online", "TH AS 9D 7C")
    assert isinstance(current.pending, op.AwaitInsurance)
    kinds = {a.kind for a in current.legal_actions()}
    assert kinds == {"insurance", "close_insurance"}
    with pytest.raises(IllegalActionError, match="insurance is still offered"):
        current.stand(1)  # the do-face agrees with verify_stand: the offer must be closed first
    current.close_insurance()  # no answer declines the offer
    with pytest.raises(IllegalActionError, match="waits for a decision"):
        current.insure("ana", 1, 10)
    current.stand(1)
    assert current.net() == {"ana": Decimal(100)}


def test_even_money_not_offered_online() -> None:
    """Online "保險": no even money (even_money=false); a natural may take insurance instead."""
    current = dealt_round("live-online", "AH AS KD 9C")
    with pytest.raises(IllegalActionError, match=r"no even money \(even_money=false\)"):
        current.take_even_money("ana", 1)
    current.insure("ana", 1, 50)
    current.close_insurance()
    assert current.net() == {"ana": Decimal(100)}


def test_a_timed_out_decision_stands_online_3_6() -> None:
    """Online §3.6: a player who does not answer gets no action: the hand stands (the server writes ``stand``)."""
    current = dealt_round("live-online", "TH 9S 9D 8C")
    pending = current.pending
    assert isinstance(pending, op.AwaitDecision)
    record = current.stand(pending.box, pending.hand, pending.player)
    assert record == op.Decision("stand", 1, 0, "ana")
    assert current.ended


def test_legal_actions_is_an_immutable_tuple_of_what_verifies() -> None:
    """docs/api.md: legal_actions() returns an immutable tuple."""
    current = dealt_round("macau-1983", "6H 5D 9S 2C")
    legal = current.legal_actions()
    assert isinstance(legal, tuple)
    assert {a.kind for a in legal} == {"hit", "stand", "double", "surrender"}
    macau_ace = dealt_round("macau-1983", "6H 5D AS 2C")
    assert "surrender" not in {a.kind for a in macau_ace.legal_actions()}


def test_a_transcript_records_a_misdeal_and_online_3_5_burns() -> None:
    """Art. 2.1; online §3.5: ``misdeal_after_cards`` voids the deal after that many cards of the round,
    ``burn_after_misdeal`` burns before the new deal; the bets stand."""
    from croupier.blackjack.replay import replay_blackjack
    from tests.blackjack.support import transcript

    doc = transcript("live-online", "TH 9S 2H 3H 4H KH 7S QD TC", actions=[act("stand")])
    doc["rounds"][0]["misdeal_after_cards"] = 8  # the 6 shoe-start burns, TH, 9S
    doc["rounds"][0]["burn_after_misdeal"] = 3
    result = replay_blackjack(doc)["rounds"][0]
    assert result["burned"] == ["2H", "3H", "4H"]
    assert hand(result)["cards"] == ["KH", "QD"]
    assert result["net"] == {"ana": "100"}
    doc["rounds"][0]["misdeal_after_cards"] = 30
    with pytest.raises(TranscriptError, match=r"round 1, misdeal 1: the deal gives 10 card\(s\) before"):
        replay_blackjack(doc)
