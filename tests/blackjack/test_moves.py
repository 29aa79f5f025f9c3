"""The typed action API of the blackjack round: ``legal_actions()``, ``verify(action)``, ``apply(action)``.

Over random rounds of both presets (random bets, random legal play through the API itself), at every
step: each player action ``legal_actions()`` offers verifies, and verifying changes nothing; each
action of the pending decision it does not offer is refused by ``verify`` and by ``apply`` with the
same message, the round unchanged; the action taken is recorded as itself.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.baccarat.moves import LeaveSeat, PlaceBet, Sit
from croupier.blackjack import actions as op
from croupier.blackjack import autoplay, moves
from croupier.blackjack.presets import PRESETS, blackjack_rules
from croupier.blackjack.state import Round, Table
from croupier.errors import IllegalActionError
from croupier.rng import seeded


def snapshot(current: Round) -> object:
    """Everything an action may change."""
    hands = {box: [(tuple(h.cards), dict(h.stakes), h.done) for h in hs] for box, hs in current.hands.items()}
    return (
        tuple(current.operations),
        current.pending,
        hands,
        dict(current.insurance),
        frozenset(current.even_money),
        tuple(current.payments),
    )


def candidates(current: Round) -> list[moves.Action]:
    """Every action kind aimed at what the round waits for: the box to act, or each bettor's box."""
    pending = current.pending
    found: list[moves.Action] = [moves.CloseInsurance()]
    if isinstance(pending, op.AwaitDecision):
        box, hand, player = pending.box, pending.hand, pending.player
        found += [moves.play(kind, box, hand) for kind in ("hit", "stand", "double", "split", "surrender")]
    else:
        first = current.first_turn() if isinstance(pending, op.AwaitInsurance) else None
        if first is not None:
            found += [moves.play(kind, first.box) for kind in ("hit", "stand", "double", "split", "surrender")]
    for box in current.boxes:
        for player, stake in current.bets[box].items():
            found += [moves.Insure(player, box, stake / 2), moves.TakeEvenMoney(player, box)]
    return found


def offered(current: Round, action: moves.Action) -> bool:
    """Whether ``legal_actions()`` lists an entry of ``action``'s kind for its box and player."""
    for legal in current.legal_actions():
        if legal.kind != action.kind:
            continue
        if isinstance(action, moves.CloseInsurance):
            return True
        player = getattr(action, "player", None)
        if legal.box == action.box and (player is None or legal.player == player):
            return True
    return False


def check_step(current: Round) -> None:
    before = snapshot(current)
    for legal in current.legal_actions():
        if not legal.is_player_action:
            continue
        action = legal.action()
        assert action.kind == legal.kind
        current.verify(action)  # never raises for what is offered
        assert current.can(action)
        assert snapshot(current) == before
    for action in candidates(current):
        if offered(current, action):
            continue
        with pytest.raises(IllegalActionError) as refused:
            current.verify(action)
        assert snapshot(current) == before
        with pytest.raises(IllegalActionError) as applied:
            current.apply(action)
        assert str(applied.value) == str(refused.value)
        assert snapshot(current) == before


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_legal_actions_verify_and_apply_agree(preset: str, seed: int) -> None:
    rules = blackjack_rules(preset)
    rng = seeded(seed)
    table = Table.shuffled(rules, rng)
    for _ in range(4):
        if table.shoe_finished:
            break
        current = table.new_round()
        autoplay.place_random_bets(current, rng)
        current.deal()
        while not (current.ended or current.voided):
            check_step(current)
            legal = [a for a in current.legal_actions() if a.is_player_action]
            if not legal:
                autoplay.step(current, rng)
                continue
            chosen = autoplay.pick(rng, legal)
            action = chosen.action(autoplay.choose_amount(rng, chosen))
            count = len(current.operations)
            record = current.apply(action)
            if isinstance(action, moves.Play):
                assert isinstance(record, op.Decision)
                assert (record.kind, record.box) == (action.kind, action.box)
                assert current.operations[count] == record


def first_decision() -> Round:
    """A macau-1983 round waiting for its first play decision (the first seed whose deal gives one)."""
    for seed in range(100):
        current = Table.shuffled(blackjack_rules("macau-1983"), seeded(seed)).new_round()
        current.bet("ana", 1, 100)
        current.deal()
        if isinstance(current.pending, op.AwaitInsurance):
            current.close_insurance()
        if isinstance(current.pending, op.AwaitDecision):
            return current
    raise AssertionError("no seed of 100 deals a decision")


def test_apply_records_the_decision_and_the_old_methods_say_the_same() -> None:
    current = first_decision()
    assert isinstance(current.pending, op.AwaitDecision)
    box, hand = current.pending.box, current.pending.hand
    record = current.apply(moves.Stand(box, hand))
    assert record == op.Decision("stand", box, hand, "ana")
    assert record in current.operations
    with pytest.raises(IllegalActionError) as typed:
        current.verify(moves.Hit(box, hand))
    with pytest.raises(IllegalActionError) as old:
        current.verify_hit(box, hand)
    assert str(typed.value) == str(old.value)


def test_parse_is_the_one_place_text_becomes_an_action() -> None:
    assert moves.parse("double", box=2, hand=1, player="ana", amount="5", declined_by=["bo"]) == moves.Double(
        2, 1, "ana", "5", ("bo",)
    )
    assert moves.parse("insurance", box=1, player="ana", amount=Decimal(5)) == moves.Insure("ana", 1, Decimal(5))
    assert moves.parse("close_insurance") == moves.CloseInsurance()
    with pytest.raises(IllegalActionError, match=r"unknown action 'fold'; the actions are hit, stand"):
        moves.parse("fold", box=1)
    with pytest.raises(IllegalActionError, match="even_money on box 1: name the player"):
        moves.parse("even_money", box=1)
    with pytest.raises(IllegalActionError, match="insurance is not a play decision"):
        moves.play("insurance", 1)
    legal = op.LegalAction("burn", 0)
    with pytest.raises(ValueError, match="burn is not a player action"):
        legal.action()
    offer = op.LegalAction("insurance", 1, None, "ana", Decimal(1), Decimal(50))
    assert offer.action() == moves.Insure("ana", 1, Decimal(50))
    assert offer.action(Decimal(20)) == moves.Insure("ana", 1, Decimal(20))
    assert offer.type is moves.Insure and legal.type is None
    assert op.LegalAction("stand", 1, 0, "ana").type is moves.Stand


def test_a_declined_by_string_is_refused_naming_article_13() -> None:
    assert moves.names("bo") == "bo"  # kept whole for the engine to refuse, not split into letters
    assert moves.names(["bo", "al"]) == ("bo", "al")


FOREIGN: list[object] = ["hit", "stand", None, 1, PlaceBet("ana", "banker", "20"), Sit("ana", 1), LeaveSeat("ana")]
"""What is not a blackjack action: action names as text, nothing, a number, baccarat's actions."""


@pytest.mark.parametrize("foreign", FOREIGN, ids=repr)
def test_what_is_not_a_blackjack_action_is_refused_by_verify_can_and_apply(foreign: object) -> None:
    current = first_decision()
    before = snapshot(current)
    held = rf"not a blackjack action: {re.escape(repr(foreign))} \({type(foreign).__name__}\)"
    with pytest.raises(IllegalActionError, match=held):
        current.verify(foreign)  # type: ignore[arg-type]
    assert current.can(foreign) is False  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=held):
        current.apply(foreign)  # type: ignore[arg-type]
    assert snapshot(current) == before
    with pytest.raises(IllegalActionError, match="the actions are Hit, Stand, Double, Split, Surrender, Insure"):
        moves.require(foreign)
    assert current.can(moves.Stand(1))  # the round still takes its own actions


BADLY_TYPED: list[object] = [
    moves.Hit(1, hand="0"),
    moves.Stand("1"),
    moves.Double(True),
    moves.Insure("ana", 1.5, "5"),
]  # type: ignore[arg-type]
"""Blackjack actions whose box or hand is not a number (a text, a flag, a float)."""


@pytest.mark.parametrize("action", BADLY_TYPED, ids=repr)
def test_an_action_naming_its_box_or_hand_by_something_else_than_a_number_is_refused(action: object) -> None:
    current = first_decision()
    before = snapshot(current)
    with pytest.raises(IllegalActionError, match=r"(box is int|hand is int or None), not "):
        current.verify(action)  # type: ignore[arg-type]
    assert current.can(action) is False  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        current.apply(action)  # type: ignore[arg-type]
    assert snapshot(current) == before


def test_the_procedure_steps_on_the_play_type_and_refuses_what_it_has_no_step_for() -> None:
    from croupier.blackjack import procedure

    assert set(procedure.STEPS) == set(moves.PLAYS)
    current = first_decision()
    assert isinstance(current.pending, op.AwaitDecision)
    box, hand = current.pending.box, current.pending.hand
    with pytest.raises(IllegalActionError, match=f"box {box} waits for a play decision"):
        current._resume(op.Decision("fold", box, hand, "ana"))  # a bare record with an unknown kind: not a surrender
    assert all(h.outcome != "surrender" for h in current.hands[box])
    current = first_decision()
    insure = moves.Insure("ana", box, Decimal(5))
    with pytest.raises(IllegalActionError, match="no procedure step for Insure"):
        current._resume(procedure.Decided(insure, op.Decision("insurance", box, hand, "ana")))  # type: ignore[arg-type]
