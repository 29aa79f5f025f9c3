"""Corrected readings of docs/rules.md §3 "Macau 1983 details" and "Live online details": Art. 2.3 judged
when betting closes, matching on a shared box (Art. 13), even money until the hole card (Art. 6),
surrender after a split (Art. 12), payout floors (online §2.3, §2.5.3), insurance rounded up to the
table's chip (online §2.5.1) and the dealer's errors at a live table (Art. 2.1, 3.2a).

Each test fails on the engine before these readings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import actions as op
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.replay import replay_blackjack, round_result, to_transcript
from croupier.blackjack.state import Round, Table
from croupier.cards import Card, new_shoe_order, parse_cards
from croupier.errors import IllegalActionError, RulesError, TranscriptError
from croupier.rng import fisher_yates, seeded
from croupier.shoe import Shoe
from tests.blackjack.support import act, burns_for, dealt_round, hand, replay, transcript

MACAU_BURNS = burns_for("macau-1983")


def _round(
    preset: str, cards: str, bets: list[tuple[str, int, int]], seated: dict[int, str] | None = None, **kw: Any
) -> tuple[Table, Round]:
    """A table with a stacked shoe (the shoe-start burns first) and its first round, bets placed."""
    rules = blackjack_rules(preset)
    table = Table(rules, Shoe.stacked(rules.decks, parse_cards(burns_for(preset) + cards.split())), **kw)
    current = table.new_round(seated)
    for player, box, amount in bets:
        current.bet(player, box, amount)
    return table, current


# --------------------------------------------------------------------------------------------------
# Art. 2.3: judged when betting closes, not on arrival order


def test_art_2_3_bet_behind_before_occupant_is_played() -> None:
    """Art. 2.3: a bet behind may arrive before the occupant's own bet; both are played."""
    result = replay(
        "macau-1983",
        "TH 9D 7S 2D TS",
        bets=[("bo", 1, 50), ("ana", 1, 100)],
        seated={"1": "ana"},
        actions=[act("stand", player="ana")],
    )
    assert hand(result)["stakes"] == {"bo": "50", "ana": "100"}
    assert result["net"] == {"bo": "50", "ana": "100"}
    assert "returned" not in result


def test_art_2_3_bet_behind_an_occupant_who_did_not_bet_is_returned() -> None:
    """Art. 2.3: a bet behind a box whose seated occupant did not bet is returned, never played."""
    spec = {
        "bets": [{"player": "bo", "box": 1, "amount": 50}, {"player": "cy", "box": 2, "amount": 100}],
        "seated": {"1": "ana", "2": "cy"},
        "actions": [act("stand", box=2)],
    }
    result = replay_blackjack(transcript("macau-1983", "TH 9D 7S 2D TS", rounds=[spec]))["rounds"][0]
    assert [entry["box"] for entry in result["boxes"]] == [2]  # box 1 is not played
    assert hand(result, 2)["cards"] == ["TH", "9D"]
    (returned,) = result["returned"]
    assert {k: returned[k] for k in ("player", "box", "amount", "outcome")} == {
        "player": "bo",
        "box": 1,
        "amount": "50",
        "outcome": "returned",
    }
    assert "Art. 2.3" in returned["reason"] and "ana did not bet" in returned["reason"]
    assert result["net"] == {"cy": "100", "bo": "0"}


def test_art_2_3_a_seated_players_bet_on_a_box_whose_occupant_did_not_bet_is_returned() -> None:
    """Art. 2.3: a seated player bets on other boxes only where the occupant bets too; else returned."""
    _table, current = _round("macau-1983", "TH 9D 7S 2D TS", [("ana", 2, 10), ("ana", 1, 100)], {1: "ana", 2: "bo"})
    current.deal()
    assert current.returned == [op.BetReturned("ana", 2, Decimal(10), current.returned[0].reason)]
    assert current.returned[0] in current.operations
    assert current.boxes == [1] and current.bets == {1: {"ana": Decimal(100)}}
    current.stand(1)
    assert current.net() == {"ana": Decimal(100)}
    assert current.staked() == {"ana": Decimal(100)}


def test_art_2_3_a_round_whose_every_bet_is_returned_ends_with_nothing_dealt() -> None:
    """Art. 2.3: where no bet remains the round ends at once; no card leaves the shoe."""
    table, current = _round("macau-1983", "TH 9D 7S 2D TS", [("bo", 1, 50)], {1: "ana"})
    current.deal()
    assert current.ended and current.pending is None and current.cards_drawn == 0
    assert current.net() == {"bo": Decimal(0)} and current.payments == []
    assert table.shoe.position == 0 and not table.shoe_finished
    result = round_result(current)
    assert result["boxes"] == [] and result["net"] == {"bo": "0"}
    assert result["returned"][0]["outcome"] == "returned"
    # the next round is still the shoe's first: its start burns come now
    following = table.new_round()
    following.bet("ana", 1, 100)
    following.deal()
    assert [str(c) for c in following.burned] == MACAU_BURNS


def test_art_2_3_returned_bets_survive_a_transcript_and_a_misdeal() -> None:
    """Returned bets are written as bets (docs/transcript.md: the set as betting closed) and judged again."""
    rules = blackjack_rules("macau-1983")
    cards = parse_cards([*MACAU_BURNS, *"TH 9D 7S 2D TS".split()])
    table = Table(rules, Shoe.stacked(6, cards))
    current = table.new_round({1: "ana", 2: "cy"})
    current.bet("bo", 1, 50)
    current.bet("cy", 2, 100)
    current.deal()
    current.stand(2)
    doc = to_transcript(rules, cards, [current], None)
    assert doc["rounds"][0]["bets"][0] == {"player": "bo", "box": 1, "amount": "50"}
    assert replay_blackjack(doc)["rounds"][0] == round_result(current)


def test_art_2_3_a_voided_rounds_replay_returns_the_same_bets() -> None:
    """Art. 2.1 misdeal: the bets stand for the new deal, and Art. 2.3 returns the same ones again."""
    rules = blackjack_rules("macau-1983")
    cards = parse_cards([*MACAU_BURNS, *"TH 9D 7S  5H 8H 9S 2D TS".split()])
    table = Table(rules, Shoe.stacked(6, cards))
    first = table.new_round({1: "ana", 2: "cy"})
    first.bet("bo", 1, 50)
    first.bet("cy", 2, 100)
    first.deal()
    first.void("misdeal")
    again = table.replay_voided(first)
    again.deal()
    assert [(r.player, r.box) for r in again.returned] == [("bo", 1)]
    assert again.boxes == [2]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    bets=st.lists(
        st.tuples(st.sampled_from(["ana", "bo", "cy", "dee"]), st.integers(1, 4)),
        min_size=1,
        max_size=8,
        unique=True,
    ),
    order=st.randoms(use_true_random=False),
)
def test_art_2_3_permuted_bets_replay_to_the_same_result(seed: int, bets: list[tuple[str, int]], order: Any) -> None:
    """Art. 2.3, docs/transcript.md: the order of a round's bets never makes one legal or illegal, and
    never changes the round. Every box is seated (an unseated box's occupant is its first bettor,
    which the order would change); dee sits nowhere and bets on one box; amounts differ, so the
    highest bet decides whatever the order (Art. 13)."""
    seen_dee = False
    placed: list[tuple[str, int, int]] = []
    for number, (player, box) in enumerate(bets):
        if player == "dee":
            if seen_dee:
                continue
            seen_dee = True
        placed.append((player, box, 10 + number))
    seated = {1: "ana", 2: "bo", 3: "cy", 4: "eve"}  # eve never bets: every bet on box 4 is returned
    rules = blackjack_rules("macau-1983")
    shoe_order = fisher_yates(new_shoe_order(6), seeded(seed))

    def play(bet_list: list[tuple[str, int, int]]) -> dict[str, Any]:
        table = Table(rules, Shoe.stacked(6, shoe_order))
        current = table.new_round(seated)
        for player, box, amount in bet_list:
            current.bet(player, box, amount)
        current.deal()
        while not current.ended:
            if isinstance(current.pending, op.AwaitInsurance):
                current.close_insurance()
            else:
                assert isinstance(current.pending, op.AwaitDecision)
                current.stand(current.pending.box)
        result = round_result(current)
        result["returned"] = sorted(result.get("returned", []), key=lambda r: (r["box"], r["player"]))
        return result

    shuffled = list(placed)
    order.shuffle(shuffled)
    assert play(shuffled) == play(placed)


# --------------------------------------------------------------------------------------------------
# Art. 13: the other bettors of a shared box choose whether to match a double or a split


def test_art_13_a_bettor_who_declines_a_double_keeps_the_bet_undoubled() -> None:
    result = replay(
        "macau-1983",
        "6H 5D 9S TC 2D 8S",
        bets=[("ana", 1, 100), ("bo", 1, 50)],
        actions=[act("double", declined_by=["bo"])],
    )
    assert hand(result)["cards"] == ["6H", "5D", "TC"]  # still exactly one card
    assert hand(result)["stakes"] == {"ana": "200", "bo": "50"}
    assert result["net"] == {"ana": "200", "bo": "50"}


def test_art_13_a_bettor_who_declines_a_split_stays_on_the_first_hand_only() -> None:
    _table, current = _round("macau-1983", "8H 8D 9S TC TD 2D 8S", [("ana", 1, 100), ("bo", 1, 50)])
    current.deal()
    decision = current.split(1, declined_by=["bo"])
    assert decision.declined_by == ("bo",)
    assert [h.stakes for h in current.hands[1]] == [{"ana": Decimal(100), "bo": Decimal(50)}, {"ana": Decimal(100)}]
    assert current.staked() == {"ana": Decimal(200), "bo": Decimal(50)}
    assert current.at_risk("bo") == Decimal(50)
    current.stand(1)
    current.stand(1)
    assert current.net() == {"ana": Decimal(200), "bo": Decimal(50)}


def test_art_13_declined_split_under_dealer_blackjack_takes_original() -> None:
    """online §2.6 (original): each bettor's unbusted hands together lose that bettor's bet once."""
    bets: list[Any] = [("ana", 1, 100), ("bo", 1, 50)]
    actions = [act("split", declined_by=["bo"]), act("stand"), act("stand")]
    cards = "8H 8D TS 9C 9D 2D AS"
    original = replay("macau-1983", cards, bets=bets, actions=actions, overrides={"dealer_blackjack_takes": "original"})
    assert original["net"] == {"ana": "-100", "bo": "-50"}
    everything = replay("macau-1983", cards, bets=bets, actions=actions)
    assert everything["net"] == {"ana": "-200", "bo": "-50"}


def test_art_13_the_decider_cannot_decline_and_a_name_needs_a_stake() -> None:
    _table, current = _round("macau-1983", "6H 5D 9S TC 2D 8S", [("ana", 1, 100), ("bo", 1, 50)])
    current.deal()
    with pytest.raises(IllegalActionError, match=r"ana makes the decision \(Art\. 13\)"):
        current.double(1, declined_by=["ana"])
    with pytest.raises(IllegalActionError, match=r"cy has no stake"):
        current.verify_double(1, declined_by=["cy"])
    assert not current.can_double(1, declined_by=["ana"])
    with pytest.raises(TranscriptError, match=r"round 1, action 1 \(double, box 1\): .*Art\. 13"):
        replay("macau-1983", "6H 5D 9S TC 2D 8S", bets=[("ana", 1, 100)], actions=[act("double", declined_by=["ana"])])


def test_art_13_declined_by_is_written_to_the_transcript() -> None:
    rules = blackjack_rules("macau-1983")
    cards = parse_cards([*MACAU_BURNS, *"6H 5D 9S TC 2D 8S".split()])
    table = Table(rules, Shoe.stacked(6, cards))
    current = table.new_round()
    current.bet("ana", 1, 100)
    current.bet("bo", 1, 50)
    current.deal()
    current.double(1, declined_by=["bo"])
    doc = to_transcript(rules, cards, [current], None)
    assert doc["rounds"][0]["actions"][0]["declined_by"] == ["bo"]
    assert replay_blackjack(doc)["rounds"][0] == round_result(current)


# --------------------------------------------------------------------------------------------------
# Art. 6: even money until the dealer's face-down card is turned (Macau 1983)


def test_art_6_even_money_while_other_boxes_play_macau() -> None:
    """Art. 6: a natural against an ace may take even money at any moment before the face-down card
    is turned, after the insurance offer has closed, while the other boxes play."""
    result = replay(
        "macau-1983",
        "AH 9C KD 2C AS 9D 5C",
        bets=[("ana", 1, 100), ("bo", 2, 100)],
        actions=[act("hit", box=2), act("even_money", box=1, player="ana"), act("stand", box=2)],
    )
    assert hand(result, 1)["outcome"] == "even_money"
    assert result["even_money"] == [{"player": "ana", "box": 1}]
    assert result["net"] == {"ana": "100", "bo": "-100"}


def test_art_6_legal_actions_offer_even_money_during_decisions_macau() -> None:
    current = dealt_round("macau-1983", "AH 9C KD 2C AS 9D 5C", bets=[("ana", 1, 100), ("bo", 2, 100)])
    current.close_insurance()
    assert isinstance(current.pending, op.AwaitDecision) and current.pending.box == 2
    legal = current.legal_actions()
    assert op.LegalAction("even_money", 1, 0, "ana") in legal
    assert legal[0].kind == "hit"  # the decider's actions come first
    current.take_even_money("ana", 1)
    assert op.LegalAction("even_money", 1, 0, "ana") not in current.legal_actions()
    current.stand(2)
    with pytest.raises(IllegalActionError, match="round is over"):
        current.take_even_money("ana", 1)


def test_art_6_even_money_keeps_the_insurance_timing_online() -> None:
    """online: with a hole card dealt in the initial deal, even money (where on) closes with insurance."""
    current = dealt_round(
        "live-online", "AH 9C AS KD 2C 9D", bets=[("ana", 1, 100), ("bo", 2, 100)], overrides={"even_money": True}
    )
    assert current.can_take_even_money("ana", 1)
    current.close_insurance()
    assert isinstance(current.pending, op.AwaitDecision)
    with pytest.raises(IllegalActionError, match="only with the insurance offer"):
        current.take_even_money("ana", 1)
    assert all(a.kind != "even_money" for a in current.legal_actions())


# --------------------------------------------------------------------------------------------------
# Art. 12: surrender after a split


def test_art_12_a_box_that_split_surrenders_every_hand_together() -> None:
    """Art. 12: both bets or neither; half the total stakes; a one-card split hand keeps its card."""
    result = replay("macau-1983", "8H 8D TS 3C 2D 9C", actions=[act("split"), act("surrender")])
    hands = result["boxes"][0]["hands"]
    assert [h["outcome"] for h in hands] == ["surrender", "surrender"]
    assert [h["cards"] for h in hands] == [["8H", "3C"], ["8D"]]
    assert result["net"] == {"ana": "-100"}


def test_art_12_surrender_after_a_split_hand_stood() -> None:
    """Art. 12: standing takes no card; the second hand's split card is not a card asked for."""
    result = replay("macau-1983", "8H 8D TS 3C 9C 2D 9S", actions=[act("split"), act("stand"), act("surrender")])
    assert [h["outcome"] for h in result["boxes"][0]["hands"]] == ["surrender", "surrender"]
    assert result["net"] == {"ana": "-100"}


def test_art_12_no_surrender_after_a_card_asked_for() -> None:
    current = dealt_round("macau-1983", "8H 8D TS 3C 2D 9C 9D")
    current.split(1)
    current.hit(1)
    with pytest.raises(IllegalActionError, match=r"before it takes any card it asks for \(Art\. 12\)"):
        current.surrender(1)
    assert all(a.kind != "surrender" for a in current.legal_actions())


def test_art_12_surrender_after_a_split_with_a_declined_bettor() -> None:
    result = replay(
        "macau-1983",
        "8H 8D TS 3C 2D 9C",
        bets=[("ana", 1, 100), ("bo", 1, 50)],
        actions=[act("split", declined_by=["bo"]), act("surrender")],
    )
    assert result["net"] == {"ana": "-100", "bo": "-25"}


# --------------------------------------------------------------------------------------------------
# online §2.3, §2.5.3: payout floors


def test_online_2_3_live_online_refuses_a_blackjack_below_3_to_2() -> None:
    with pytest.raises(RulesError, match=r"live-online pays a blackjack at least 3:2 \(online §2\.3\); "):
        blackjack_rules("live-online", {"blackjack_pays": "6:5"})
    with pytest.raises(TranscriptError, match=r"blackjack_pays=1:1 is below it"):
        doc = transcript("live-online", "TH 9S 9D 8C", actions=[act("stand")])
        replay_blackjack({**doc, "overrides": {"blackjack_pays": "1:1"}})
    assert str(blackjack_rules("live-online", {"blackjack_pays": "2:1"}).blackjack_pays) == "2:1"  # more is fine
    assert str(blackjack_rules("macau-1983", {"blackjack_pays": "6:5"}).blackjack_pays) == "6:5"


def test_online_2_5_3_live_online_pays_insurance_exactly_2_to_1() -> None:
    for value, words in (("3:1", "is not it"), ("1:1", "is below it"), ("none", "is below it")):
        clause = rf"insurance exactly 2:1 \(online §2\.5\.3\); insurance_pays={value} {words}"
        with pytest.raises(RulesError, match=clause):
            blackjack_rules("live-online", {"insurance_pays": value})
    assert blackjack_rules("macau-1983", {"insurance_pays": "none"}).insurance_pays is None
    assert blackjack_rules("live-online", {"blackjack_pays": "6:5"}, floors=False).preset == "live-online"


# --------------------------------------------------------------------------------------------------
# online §2.5.1: insurance up to the next chip


def test_online_2_5_1_insurance_cap_rounds_up_to_the_tables_chip() -> None:
    _table, current = _round("macau-1983", "TH 9D AS 7C", [("ana", 1, 25)], insurance_chip=Decimal(1))
    current.deal()
    (offer,) = [a for a in current.legal_actions() if a.kind == "insurance"]
    assert offer.max_amount == Decimal(13)
    with pytest.raises(IllegalActionError, match=r"at most 13, rounded up to the table's chip of 1"):
        current.insure("ana", 1, "13.5")
    current.insure("ana", 1, 13)
    exact_half = dealt_round("macau-1983", "TH 9D AS 7C", bets=[("ana", 1, 25)])
    (offer,) = [a for a in exact_half.legal_actions() if a.kind == "insurance"]
    assert offer.max_amount == Decimal("12.5")  # transcripts keep the exact half
    assert not exact_half.can_insure("ana", 1, 13)


def test_online_2_5_1_insurance_chip_per_round_and_refused_when_not_positive() -> None:
    rules = blackjack_rules("macau-1983")
    table = Table(rules, Shoe.stacked(6, parse_cards([*MACAU_BURNS, *"TH 9D AS 7C".split()])))
    current = table.new_round(insurance_chip=Decimal(5))
    assert current.insurance_chip == Decimal(5)
    with pytest.raises(IllegalActionError, match=r"online §2\.5\.1"):
        Round(rules, Shoe.stacked(6, []), first_of_shoe=True, insurance_chip=Decimal(0))


# --------------------------------------------------------------------------------------------------
# Art. 2.1, 3.2a: the dealer's errors at a live table


def _live_round() -> Round:
    current = Table(blackjack_rules("live-online"), Shoe.live(8)).new_round()
    current.bet("ana", 1, 100)
    current.deal()
    for text in "2C 3C 4C 5C 6C 7C TH 9S 6D 8C".split():
        current.supply_card(Card.parse(text))
    return current


def test_art_2_1_a_card_drawn_by_mistake_is_void_at_any_moment() -> None:
    current = _live_round()
    assert isinstance(current.pending, op.AwaitDecision)
    drawn = current.cards_drawn
    record = current.void_card(Card.parse("AS"), "drawn by mistake (Art. 3.2a)")
    assert record == op.CardVoided(Card.parse("AS"), "drawn by mistake (Art. 3.2a)")
    assert current.cards_drawn == drawn + 1
    assert isinstance(current.pending, op.AwaitDecision)
    assert [str(c) for c in current.hands[1][0].cards] == ["TH", "6D"]
    current.stand(1)
    assert current.net() == {"ana": Decimal(-100)}  # 16 against the dealer's 17
    with pytest.raises(IllegalActionError, match="round is over"):
        current.void_card(Card.parse("AD"), "late")
    assert op.CardVoided(Card.parse("KS")).reason == op.FACE_UP


def test_art_2_1_void_card_needs_a_live_shoe_and_a_dealt_round() -> None:
    stacked = dealt_round("macau-1983", "TH 9D 7S 2D TS")
    with pytest.raises(IllegalActionError, match=r"only from a live shoe \(Art\. 2\.1\)"):
        stacked.void_card(Card.parse("AS"), "drawn by mistake")
    betting = Table(blackjack_rules("live-online"), Shoe.live(8)).new_round()
    with pytest.raises(IllegalActionError, match="betting is still open"):
        betting.void_card(Card.parse("AS"), "drawn by mistake")


def test_art_2_1_a_card_at_the_wrong_box_is_moved_to_its_box() -> None:
    current = dealt_round("macau-1983", "TH 9C 9D 7C 7S 2D TS", bets=[("ana", 1, 100), ("bo", 2, 100)])
    record = current.move_card(Card.parse("9D"), 1, from_box=2)
    assert record == op.CardMoved(Card.parse("9D"), 1, 0, 2)
    assert record in current.operations
    with pytest.raises(IllegalActionError, match=r"belonged to \(Art\. 2\.1\).*not dealt to box 2"):
        current.move_card(Card.parse("9D"), 2)
    assert current.move_card(Card.parse("7S"), 0).to_box == 0  # the dealer's up-card
