"""The server's blackjack driver reads a request into the engine's typed action in one place
(``BlackjackRound._typed``), then verifies (``stakes_for``) and applies (``act``) it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.state import Table
from croupier.errors import IllegalActionError
from croupier.rng import seeded
from croupier.server.games import WIRE_ACTIONS, ActionError, BlackjackRound


def decision_round() -> BlackjackRound:
    """A macau-1983 round of ana's on box 1 waiting for her first play decision."""
    for seed in range(100):
        table = Table.shuffled(blackjack_rules("macau-1983"), seeded(seed))
        driven = BlackjackRound(table, table.new_round())
        driven.bet("ana", "1", Decimal(100))
        driven.close_betting()
        if isinstance(driven.round.pending, op.AwaitInsurance):
            driven.round.close_insurance()
        if isinstance(driven.round.pending, op.AwaitDecision):
            return driven
    raise AssertionError("no seed of 100 deals a decision")


def test_every_wire_action_reads_as_its_typed_action() -> None:
    driven = decision_round()
    for kind in WIRE_ACTIONS:
        typed = driven._typed("ana", {"type": kind, "box": 1, "amount": "10"}, frozenset())
        assert typed is not None and typed.kind == kind
    assert driven._typed("ana", {"type": "no_insurance", "box": 1}, frozenset()) is None


@pytest.mark.parametrize("kind", ["fold", "close_insurance", None])
def test_an_unknown_wire_action_is_refused_naming_the_actions(kind: object) -> None:
    driven = decision_round()
    with pytest.raises(ActionError, match=r"unknown action .*; the actions are hit, stand, double, split, surrender"):
        driven.stakes_for("ana", {"type": kind, "box": 1})
    with pytest.raises(ActionError, match="unknown action"):
        driven.act("ana", {"type": kind, "box": 1})


def test_stakes_for_verifies_and_act_applies_the_same_action() -> None:
    driven = decision_round()
    before = len(driven.round.operations)
    assert driven.stakes_for("ana", {"type": "stand", "box": 1}) == {}
    assert len(driven.round.operations) == before  # verifying changes nothing
    with pytest.raises(IllegalActionError) as refused:
        driven.stakes_for("bo", {"type": "hit", "box": 1})
    with pytest.raises(IllegalActionError) as engine:
        driven.round.verify(moves.Hit(1, None, "bo"))
    assert str(refused.value) == str(engine.value)
    driven.act("ana", {"type": "stand", "box": 1})
    stood = [o for o in driven.round.operations if isinstance(o, op.Decision)]
    assert [(d.kind, d.box, d.player) for d in stood] == [("stand", 1, "ana")]
