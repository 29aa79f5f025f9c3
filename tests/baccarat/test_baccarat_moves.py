"""The typed player actions of a baccarat table (croupier.baccarat.moves): the same shape as blackjack's
(verify, can, apply, legal_actions), used by the server, the replay, the terminal and the RL environment."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.baccarat.moves import LeaveSeat, LegalMove, PlaceBet, Sit, parse
from croupier.baccarat.records import BetPlaced, PlayerSeated
from croupier.baccarat.state import BaccaratTable, Phase
from croupier.blackjack.moves import CloseInsurance, Hit, Stand
from croupier.errors import CroupierError, IllegalActionError
from tests.baccarat.helpers import rules, table_for

STAND_STAND = ["6S", "7D", "KS", "QD"]
LIMITS = {"min_bet": "10", "max_bet": "500", "max_side_imbalance": "300"}


def betting_table(**overrides: object) -> BaccaratTable:
    table = table_for(STAND_STAND, rules(**overrides))
    assert table.phase is Phase.BETTING
    return table


def test_apply_records_what_the_named_method_records() -> None:
    table = betting_table()
    assert table.apply(PlaceBet("ana", "banker", "20")) == BetPlaced("ana", "banker", Decimal(20), None)
    assert table.apply(Sit("ben", 3)) == PlayerSeated("ben", 3)
    assert table.stakes == {("ana", "banker"): Decimal(20)}


def test_a_refused_action_names_the_rule_and_changes_nothing() -> None:
    table = betting_table(**LIMITS)
    before = (table.operation_count, table.stakes)
    with pytest.raises(CroupierError, match=r"minimum bet is 10 \(Art\. 18\)"):
        table.verify(PlaceBet("ana", "player", "5"))
    with pytest.raises(CroupierError, match=r"maximum bet is 500 \(Art\. 14, 18\)"):
        table.apply(PlaceBet("ana", "player", "501"))
    with pytest.raises(CroupierError, match="exact decimal"):
        table.apply(PlaceBet("ana", "player", 0.1))  # type: ignore[arg-type]
    assert not table.can(LeaveSeat("ana"))  # not seated
    assert (table.operation_count, table.stakes) == before


def test_legal_actions_between_coups_and_none_while_dealing() -> None:
    table = betting_table(**LIMITS)
    moves = table.legal_actions("ana")
    assert [m.spot for m in moves if m.kind == "bet"] == list(table.rules.spots)
    assert [m.seat for m in moves if m.kind == "sit"] == list(range(1, table.seats + 1))
    table.apply(Sit("ana", 2))
    assert [m.kind for m in table.legal_actions("ana") if m.kind != "bet"] == ["leave_seat"]
    assert [m.seat for m in table.legal_actions("ben") if m.kind == "sit"] == [1, 3, 4, 5, 6, 7]
    table.apply(PlaceBet("ana", "player", "10"))
    table.automations = frozenset()  # the dealer deals card by card: the coup stays open
    table.start_coup()
    assert table.phase is Phase.DEALING and table.legal_actions("ana") == ()


def test_the_side_imbalance_cap_bounds_the_bets_on_either_side() -> None:
    table = betting_table(**LIMITS)
    table.apply(PlaceBet("ana", "banker", "200"))
    bounds = {m.spot: (m.min_amount, m.max_amount) for m in table.legal_actions("ben") if m.kind == "bet"}
    assert bounds["banker"] == (Decimal(10), Decimal(100))  # 300 - 200 ahead
    assert bounds["player"] == (Decimal(10), Decimal(500))  # 300 + 200 behind, but the maximum bet is 500
    assert bounds["tie"] == (Decimal(10), Decimal(500))


@settings(max_examples=60, deadline=None)
@given(
    placed=st.lists(
        st.tuples(st.sampled_from(["ana", "ben"]), st.sampled_from(["player", "banker", "tie"]), st.integers(1, 60)),
        max_size=6,
    )
)
def test_each_legal_bet_is_taken_at_its_bounds_and_refused_beyond(placed: list[tuple[str, str, int]]) -> None:
    """Whatever stands on the table, a legal entry's least and most amounts are accepted and one cent more
    than the most is refused; a spot left out of the list takes no bet of the least amount."""
    table = betting_table(min_bet="10", max_bet="500", max_side_imbalance="300", banker_bet_multiple_of_min="false")
    for player, spot, tens in placed:
        bet = PlaceBet(player, spot, Decimal(tens * 10))
        if table.can(bet):
            table.apply(bet)
    legal = {m.spot: m for m in table.legal_actions("ana") if m.kind == "bet"}
    for spot, move in legal.items():
        assert move.max_amount is not None  # the maximum bet bounds every spot
        least = move.min_amount or Decimal("0.01")  # None: the stake already meets the minimum
        assert table.can(move.action(least)), (spot, move)
        assert table.can(move.action(move.max_amount)), (spot, move)
        assert not table.can(move.action(move.max_amount + Decimal("0.01"))), (spot, move)
    for spot in set(table.rules.spots) - set(legal):
        assert not table.can(PlaceBet("ana", spot, Decimal(10))), spot


def test_parse_reads_the_wire_and_refuses_what_is_not_an_action() -> None:
    assert parse("bet", player="ana", spot="tie", amount="5", seat=2) == PlaceBet("ana", "tie", "5", 2)
    assert parse("leave_seat", player="ana") == LeaveSeat("ana")
    with pytest.raises(IllegalActionError, match="unknown action 'hit'"):
        parse("hit", player="ana")
    with pytest.raises(IllegalActionError, match="a seat is a whole number"):
        parse("sit", player="ana", seat="2")
    with pytest.raises(IllegalActionError, match="amount"):
        parse("bet", player="ana", spot="tie", amount=1.5)
    assert LegalMove("sit", "ana", seat=4).action() == Sit("ana", 4)


FOREIGN: list[object] = ["bet", "sit", None, 3, Hit(1), Stand(1), CloseInsurance()]
"""What is not a baccarat action: action names as text, nothing, a number, blackjack's actions."""


@pytest.mark.parametrize("foreign", FOREIGN, ids=repr)
def test_what_is_not_a_baccarat_action_is_refused_by_verify_can_and_apply(foreign: object) -> None:
    table = betting_table()
    before = (table.operation_count, table.stakes, table.phase)
    held = rf"not a baccarat action: {re.escape(repr(foreign))} \({type(foreign).__name__}\)"
    with pytest.raises(IllegalActionError, match=held):
        table.verify(foreign)  # type: ignore[arg-type]
    assert table.can(foreign) is False  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=held):
        table.apply(foreign)  # type: ignore[arg-type]
    assert (table.operation_count, table.stakes, table.phase) == before
    assert table.can(PlaceBet("ana", "banker", "20"))  # the table still takes its own actions
