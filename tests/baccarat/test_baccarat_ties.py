"""Ties under ``tie_bets = increase_only`` (docs/rules.md §4, Art. 12, 18): a tied player or banker bet stays on
its spot for the next coup; its bettor may add to it, never take it back or reduce it."""

from __future__ import annotations

from decimal import Decimal

from croupier.baccarat.records import BetCarried, BetPlaced, BetReturned, CoupSettled, CoupStarted
from croupier.baccarat.state import SHOE_ENDED_AFTER_TIE, Phase
from croupier.cards import parse_cards
from croupier.shoe import Shoe

from .helpers import baccarat_doc, gains, replay_doc, rules, table_for

TIE = ["7S", "7D", "KS", "QD"]  # player 7, banker 7: both stand, a tie
BANKER = ["6S", "7D", "KS", "QD"]  # player 6, banker 7: the banker wins
PLAYER = ["7S", "6D", "KS", "QD"]  # player 7, banker 6: the player wins
INCREASE_ONLY = rules(tie_bets="increase_only")


def test_a_tie_under_increase_only_does_not_stop_the_next_coup_art_18() -> None:
    """Regression: the tied bets were returned and the next coup then refused to start ("may not be cancelled
    or reduced") unless they were placed again, leaving a server's stake stuck. Now they stay on their spots
    and the next coup starts without any new bet."""
    table = table_for([*TIE, *BANKER], INCREASE_ONLY)
    table.place_bet("ana", "banker", Decimal(100))
    table.place_bet("bo", "player", Decimal(50))
    table.start_coup()
    tie = table.results[-1]
    assert tie.cards.winner == "tie"
    assert table.carried_bets == {("ana", "banker"): Decimal(100), ("bo", "player"): Decimal(50)}
    assert table.stakes == table.carried_bets
    table.verify_start_coup()
    table.start_coup()  # the old code raised BetError here
    assert gains(table.results[-1]) == {"ana": "95", "bo": "-50"}


def test_the_tie_coup_settles_them_as_standing_without_paying_or_returning_art_18() -> None:
    table = table_for([*TIE, *BANKER], INCREASE_ONLY)
    table.place_bet("ana", "banker", Decimal(100))
    table.place_bet("ana", "tie", Decimal(10))
    table.place_bet("bo", "player", Decimal(50))
    table.start_coup()
    tie = table.results[-1]
    assert [(s.player, s.spot, s.outcome, s.gain, s.returned, s.carried) for s in tie.settlements] == [
        ("ana", "banker", "stand", 0, 0, 100),
        ("ana", "tie", "win", 80, 90, 0),  # Art. 17.2: the tie bet itself is settled
        ("bo", "player", "stand", 0, 0, 50),
    ]
    assert gains(tie) == {"ana": "80", "bo": "0"}
    assert tie.staked == {"ana": 110, "bo": 50}
    assert tie.returned == {"ana": 90, "bo": 0}
    assert tie.carried == {"ana": 100, "bo": 50}
    settled = next(i for i, op in enumerate(table.operations) if isinstance(op, CoupSettled))
    assert table.operations[settled + 1 :] == (
        BetCarried("ana", "banker", Decimal(100)),
        BetCarried("bo", "player", Decimal(50)),
    )
    assert table.standing_bets == {}  # nothing to place again: they are carried
    table.start_coup()
    after = table.results[-1]
    assert [(s.player, s.spot, s.stake, s.outcome) for s in after.settlements] == [
        ("ana", "banker", 100, "win"),
        ("bo", "player", 50, "lose"),
    ]
    # each stake is won or lost once: over both coups ana wins 80 + 95, bo loses 50
    assert gains(after) == {"ana": "95", "bo": "-50"}
    assert table.carried_bets == {} and table.stakes == {}


def test_a_carried_bet_may_be_increased_and_other_spots_bet_art_18() -> None:
    """Art. 18: the bettor may add to the bet on the same spot (bets on one spot add up), and bet elsewhere."""
    table = table_for([*TIE, *BANKER], INCREASE_ONLY)
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    table.place_bet("ana", "banker", Decimal(60))
    table.place_bet("ana", "player", Decimal(20))
    assert table.stakes == {("ana", "banker"): Decimal(160), ("ana", "player"): Decimal(20)}
    assert table.carried_bets == {("ana", "banker"): Decimal(100)}
    table.start_coup()
    assert gains(table.results[-1]) == {"ana": "132"}  # 160 × 0.95 − 20
    kinds = [type(op) for op in table.operations[-12:]]
    assert kinds.count(BetPlaced) == 2 and CoupStarted in kinds


def test_a_carried_bet_stays_within_the_table_limits_art_14_18() -> None:
    """An addition is a bet like any other: the whole stake keeps the maximum and the banker multiple."""
    table = table_for([*TIE, *BANKER], rules(tie_bets="increase_only", min_bet=100, max_bet=300))
    table.place_bet("ana", "banker", Decimal(200))
    table.start_coup()
    assert not table.can_place_bet("ana", "banker", Decimal(50))  # 250: not a multiple of 100 (Art. 18)
    assert not table.can_place_bet("ana", "banker", Decimal(200))  # 400: over the maximum (Art. 14, 18)
    assert table.can_place_bet("ana", "banker", Decimal(100))


def test_a_second_tie_carries_the_increased_bet_again_art_18() -> None:
    table = table_for([*TIE, *TIE, *PLAYER], INCREASE_ONLY)
    table.place_bet("ana", "player", Decimal(10))
    table.start_coup()
    table.place_bet("ana", "player", Decimal(5))
    table.start_coup()
    assert table.carried_bets == {("ana", "player"): Decimal(15)}
    table.start_coup()
    assert [gains(r) for r in table.results] == [{"ana": "0"}, {"ana": "0"}, {"ana": "15"}]


def test_tie_bets_push_returns_them_and_carries_nothing_art_12() -> None:
    """Art. 12 (``push``): the tied bets are returned; the bettor may bet them again, change or keep them."""
    table = table_for([*TIE, *BANKER])
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    tie = table.results[-1]
    assert [(s.outcome, s.returned) for s in tie.settlements] == [("push", Decimal(100))]
    assert tie.carried == {} and table.carried_bets == {} and table.stakes == {}
    assert table.standing_bets == {("ana", "banker"): Decimal(100)}
    assert not any(isinstance(op, BetCarried | BetReturned) for op in table.operations)


def test_a_tie_in_the_shoes_last_coup_returns_the_bets_art_3_1_18() -> None:
    """docs/rules.md is silent on a bet standing when the shoe ends: it is returned, with the reason recorded."""
    table = table_for(TIE, rules(tie_bets="increase_only", at_cut_card="last"), cut_card=3)
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    tie = table.results[-1]
    assert tie.last_coup and table.phase is Phase.AWAITING_SHOE
    assert [(s.outcome, s.returned) for s in tie.settlements] == [("push", Decimal(100))]
    assert table.operations[-1] == BetReturned("ana", "banker", Decimal(100), SHOE_ENDED_AFTER_TIE)
    assert SHOE_ENDED_AFTER_TIE == "the shoe ended with the bet standing after a tie (Art. 18)"
    assert table.carried_bets == {} and table.stakes == {}


def test_an_automatic_shuffler_carries_the_bet_to_the_next_shuffle_art_2_3_18() -> None:
    """Art. 2.3, 7.2: every coup is its own shuffle, but the table plays on, so the bet stays."""
    rule_set = rules(tie_bets="increase_only", shuffler="automatic")
    table = table_for(TIE, rule_set)
    table.place_bet("ana", "banker", Decimal(100))
    table.start_coup()
    assert table.results[-1].settlements[0].outcome == "stand"
    assert table.phase is Phase.AWAITING_SHOE and table.carried_bets == {("ana", "banker"): Decimal(100)}
    table.load_shoe(Shoe.stacked(8, parse_cards(BANKER), None))
    table.start_coup()
    assert gains(table.results[-1]) == {"ana": "95"}


def test_a_transcript_round_after_a_tie_carries_the_bet_and_adds_to_it_art_18() -> None:
    shoe = ["AH", "2H", *TIE, *BANKER]
    doc = baccarat_doc(
        shoe,
        [
            {"bets": [{"player": "ana", "on": "banker", "amount": 100}]},
            {"bets": [{"player": "ana", "on": "banker", "amount": 20}]},
        ],
        overrides={"tie_bets": "increase_only"},
    )
    result = replay_doc(doc)
    first, second = result["rounds"]
    assert first["bets"] == [{"player": "ana", "on": "banker", "stake": "100", "outcome": "stand", "net": "0"}]
    assert first["carried"] == [{"player": "ana", "on": "banker", "amount": "100"}]
    assert second["bets"] == [{"player": "ana", "on": "banker", "stake": "120", "outcome": "win", "net": "114"}]
    assert result["net"] == {"ana": "114"}
    no_new_bet = replay_doc({**doc, "rounds": [doc["rounds"][0], {"bets": []}]})
    assert no_new_bet["rounds"][1]["net"] == {"ana": "95"}
