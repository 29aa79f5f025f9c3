"""Replay the simulator's recorded rounds through the engine (the twin test's driver)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal

from croupier.blackjack import actions as op
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Table
from croupier.cards import Card
from croupier.money import ZERO
from croupier.shoe import Shoe
from croupier.sim.blackjack import RecordedRound, Shuffle


def engine_rules(rules: Rules, shuffle: Shuffle) -> Rules:
    """The engine's rule set for the simulator's ``shuffle``: a continuous shuffler's rounds are the first
    rounds of fresh shoes without the shuffle's burns or a cut card."""
    if shuffle == "shoe":
        return rules
    overrides = {name: value for name, value in rules.describe().items() if name != "preset"}
    overrides.update({"burn_at_shoe_start": "0", "cut_card": "none"})
    return blackjack_rules(rules.preset, overrides, floors=False)


def shoes(recorded: Sequence[RecordedRound]) -> Iterator[list[RecordedRound]]:
    """The recorded rounds grouped by shoe, in order."""
    group: list[RecordedRound] = []
    for rnd in recorded:
        if group and (rnd.chunk, rnd.shoe) != (group[0].chunk, group[0].shoe):
            yield group
            group = []
        group.append(rnd)
    if group:
        yield group


def _destination(operation: op.Operation) -> tuple[str, object] | None:
    if isinstance(operation, op.CardBurned):
        return str(operation.card), "burn"
    if isinstance(operation, op.CardDealt):
        if operation.box == 0:
            return str(operation.card), "dealer" if operation.face_up else "dealer down"
        return str(operation.card), (operation.box, operation.hand)
    return None


def replay(rules: Rules, shuffle: Shuffle, recorded: Sequence[RecordedRound], boxes: int) -> int:
    """Replay every recorded round through the engine and assert it deals the same cards to the same
    places, asks the same decisions in the same order, and pays each box the same; returns the rounds
    compared."""
    table_rules = engine_rules(rules, shuffle)
    compared = 0
    for group in shoes(recorded):
        cards = [Card.parse(text) for rnd in group for text, _ in rnd.cards]
        table = Table(table_rules, Shoe.stacked(table_rules.decks, cards, group[0].cut_card))
        for number, rnd in enumerate(group):
            assert rnd.first_of_shoe == (number == 0)
            current = table.new_round()
            for box in range(1, boxes + 1):
                current.bet(f"p{box}", box, 1)
            current.deal()
            decisions = list(rnd.decisions)
            while not current.ended:
                pending = current.pending
                if isinstance(pending, op.AwaitInsurance):
                    current.close_insurance()
                elif isinstance(pending, op.AwaitDecision):
                    assert decisions, f"the engine asks {pending} after the simulator's last decision"
                    box, hand, kind = decisions.pop(0)
                    assert (pending.box, pending.hand) == (box, hand), (pending, box, hand)
                    getattr(current, kind)(box, hand)
                elif isinstance(pending, op.AwaitCard):
                    break  # the stacked shoe is empty: the simulator voided this round too
                else:
                    raise AssertionError(f"unexpected pending {pending}")
            assert not decisions, f"decisions left over: {decisions}"
            drawn = [d for d in map(_destination, current.operations) if d is not None]
            assert drawn == list(rnd.cards), (drawn, rnd.cards)
            if rnd.voided:
                assert not current.ended and isinstance(current.pending, op.AwaitCard)
                current.void("the shoe ran out of cards")
                assert number == len(group) - 1
                continue
            assert current.ended
            assert current.last_round == rnd.last_of_shoe or shuffle == "continuous"
            net = current.net()
            paid = tuple(net.get(f"p{box}", ZERO) for box in range(1, boxes + 1))
            assert rnd.nets is not None
            assert paid == tuple(Decimal(x) for x in rnd.nets), (paid, rnd.nets)
            compared += 1
        if shuffle == "shoe":
            assert table.shoe_finished == (group[-1].last_of_shoe and not group[-1].voided)
        else:
            assert len(group) == 1
    return compared
