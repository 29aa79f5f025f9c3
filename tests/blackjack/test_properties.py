"""Hypothesis properties of the blackjack engine (conservation of cards and money, deterministic replay).

Random rule sets (every parameter of ``PARAMS`` with random legal values, over both presets) are
played with random legal decisions (:mod:`croupier.blackjack.autoplay`, seeded through
:func:`croupier.rng.seeded`) over whole shoes: until the shoe's last round, then a new shoe. Every
round is checked against an independent reading of docs/rules.md §1-3:

* cards are conserved: the cards drawn from the shoe are, in order, the round's burns and deals, and
  each lies exactly once in a hand, the dealer's cards or the burns;
* money is conserved: every stake is settled exactly once, by the amount the rules give for the
  final cards, and the players' net and the house's net add up to zero;
* replay is deterministic: the rounds written with ``to_transcript`` replay to the same result;
* random legal play never raises anything but the documented ``CroupierError`` subclasses, every
  action ``legal_actions()`` offers passes its ``verify_`` face, and actions it does not offer are
  refused without changing the round.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier import transcript
from croupier.blackjack import actions as op
from croupier.blackjack import autoplay
from croupier.blackjack.hand import Hand, is_678_suited, is_777, is_natural, total
from croupier.blackjack.presets import FLOORS, PRESETS, blackjack_rules
from croupier.blackjack.replay import render_blackjack, replay_blackjack, round_result, to_transcript
from croupier.blackjack.rules import PARAMS, Rules
from croupier.blackjack.state import AUTOMATIONS, Round, Table
from croupier.cards import Card, new_shoe_order
from croupier.errors import CroupierError, IllegalActionError, RulesError, ShoeError
from croupier.money import ZERO, exact
from croupier.rng import RandomSource, fisher_yates, seeded
from croupier.shoe import Shoe, place_cut_card

# ---------------------------------------------------------------------------------------------------
# random rule sets

VALUES: dict[str, tuple[object, ...]] = {
    "decks": (1, 2, 4, 6, 8),
    "boxes": (1, 2, 3, 5, 7),
    "dealer_hits_soft_17": (True, False, "true", "false"),
    "hole_card": ("none", "peek", "peek_ace"),
    "dealer_blackjack_takes": ("all", "original"),
    "double_on": ("any_two", "9_11", "10_11", "11"),
    "double_after_split": (True, False),
    "double_for_less": (True, False),
    "max_split_hands": (1, 2, 3, 4),
    "split_aces_one_card": (True, False),
    "resplit_aces": (True, False),
    "surrender": ("none", "early_not_ace", "late"),
    "blackjack_pays": ("3:2", "6:5", "1:1", "2:1", "7:5"),
    "insurance_pays": ("2:1", "1:1", None, "none"),
    "even_money": (True, False),
    "bonus_678_suited": ("3:1", "5:2", None),
    "bonus_777": ("3:1", "2:1", None),
    "bet_behind": (True, False),
    "max_boxes_per_player": (1, 2, 3, 7),
    "dealer_draws_when_moot": (True, False),
    "burn_at_shoe_start": ("decks", 0, 1, 6, 10),
    "burn_each_round": (0, 1, 2),
    "burn_before_dealer_second": (0, 1, 2),
    "burn_after_misdeal": (0, 3, 10),
    "cut_card": ("20-30", "52-78", "40-60", "70-90", 150, "none"),
    "min_bet": (None, "1", "2.5"),
    "max_bet": (None, "100", "250"),
}
"""Legal values of every rule parameter, as a transcript or ``--set`` writes them."""


def test_random_rule_sets_cover_every_parameter() -> None:
    assert set(VALUES) == set(PARAMS)
    for name, values in VALUES.items():
        for value in values:
            PARAMS[name].read(value)  # every value listed is legal


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset with random overrides of a random subset of the parameters."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    names = draw(st.sets(st.sampled_from(sorted(VALUES))))
    overrides = {name: draw(st.sampled_from(VALUES[name])) for name in sorted(names)}
    for floor in FLOORS.get(preset, ()):  # live-online's payout floors (online §2.3, §2.5.3) refuse the rest
        if floor.refusal(blackjack_rules(preset, overrides, floors=False)) is not None:
            del overrides[floor.param]
    return blackjack_rules(preset, overrides)


SEEDS = st.integers(min_value=0, max_value=2**32)

# ---------------------------------------------------------------------------------------------------
# playing shoes


@dataclass
class PlayedShoe:
    rules: Rules
    order: list[Card]
    cut: int | None
    rounds: list[Round] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    exhausted: bool = False


Driver = Callable[[Round, RandomSource], None]


def _autoplay(current: Round, rng: RandomSource) -> None:
    autoplay.play_out(current, rng)


def play_shoes(
    rules: Rules,
    rng: RandomSource,
    *,
    shoes: int = 2,
    max_rounds: int = 400,
    boxes: int | None = None,
    driver: Driver = _autoplay,
) -> list[PlayedShoe]:
    """Play ``shoes`` shoes to their last round with random bets and decisions, recording each round."""
    played: list[PlayedShoe] = []
    table: Table | None = None
    for _ in range(shoes):
        order = fisher_yates(new_shoe_order(rules.decks), rng)
        cut = place_cut_card(rules.cut_card, len(order), rng)
        shoe = Shoe.stacked(rules.decks, order, cut)
        if table is None:
            table = Table(rules, shoe)
        else:
            table.new_shoe(shoe)
        record = PlayedShoe(rules, list(order), cut)
        played.append(record)
        while not table.shoe_finished and len(record.rounds) < max_rounds:
            start = shoe.position
            current = table.new_round(autoplay.random_seated(rules, rng))
            autoplay.place_random_bets(current, rng, boxes=boxes)
            current.deal()
            try:
                driver(current, rng)
            except ShoeError:
                # the shoe ran out in the middle of a round (a cut card near the end, many boxes):
                # a real table voids the round (Art. 2.1) and shuffles
                assert isinstance(current.pending, op.AwaitCard)
                assert shoe.remaining == 0
                current.void("the shoe ran out")
                record.exhausted = True
                break
            record.rounds.append(current)
            record.spans.append((start, shoe.position))
        if table.shoe_finished:
            with pytest.raises(IllegalActionError, match="last round"):
                table.new_round()
    return played


# ---------------------------------------------------------------------------------------------------
# what a round must satisfy, read from docs/rules.md independently of the engine


def _cards_of_round(current: Round) -> list[Card]:
    cards = list(current.burned) + list(current.dealer_cards)
    for hands in current.hands.values():
        for hand in hands:
            cards.extend(hand.cards)
    return cards


def check_cards(current: Round, drawn: list[Card]) -> None:
    """docs/rules.md §1: every card drawn is a burn or a dealt card, exactly once, in the order drawn."""
    assert current.ended and not current.dealer_has_hole_card, "the hole card is turned by the end"
    moved = [o.card for o in current.operations if isinstance(o, op.CardBurned | op.CardDealt)]
    assert moved == drawn
    assert Counter(_cards_of_round(current)) == Counter(drawn)
    assert [o.card for o in current.operations if isinstance(o, op.CardBurned)] == current.burned


def _must_hit(cards: list[Card], rules: Rules) -> bool:
    points, soft = total(cards)
    return points < 17 or (points == 17 and soft and rules.dealer_hits_soft_17)


def _settled_before_dealer(hand: Hand, results: dict[str, str]) -> bool:
    return all(results.get(player) in ("bust", "surrender", "bonus", "even_money") for player in hand.stakes)


def check_procedure(current: Round, first_of_shoe: bool) -> None:
    """Deal order, burns, auto-stands, the dealer's draws (Art. 2-3, 10, 11; online §3.4, §4.4)."""
    rules = current.rules
    boxes = current.boxes
    dealer = current.dealer_cards
    up = dealer[0]
    dealt = [o for o in current.operations if isinstance(o, op.CardDealt)]
    # the initial deal (Art. 3.1; online §3.4)
    if rules.hole_card == "none":
        initial = boxes * 2 + [0] + ([0] if rules.metal_box or up.rank == "A" else [])
    else:
        initial = [*boxes, 0, *boxes, 0]
    assert [o.box for o in dealt[: len(initial)]] == initial
    hole = len(initial) - 1 if rules.hole_card != "none" or rules.metal_box or up.rank == "A" else None
    assert [o.face_up for o in dealt] == [index != hole for index in range(len(dealt))]
    # boxes play from box 1 up, each hand to completion (Art. 3.2c; online §2.7)
    decisions = [o for o in current.operations if isinstance(o, op.Decision)]
    assert [(d.box, d.hand) for d in decisions] == sorted((d.box, d.hand) for d in decisions)
    # the insurance offer (Art. 6, 8; online §2.5)
    naturals = any(current.hands[box][0].natural for box in boxes)
    offered = up.rank == "A" and (rules.insurance_pays is not None or (rules.even_money and naturals))
    assert any(isinstance(o, op.InsuranceClosed) for o in current.operations) == offered
    # burns (Art. 2.1, 2.4, 3.1a; online §3.5)
    expected = rules.shoe_start_burns if first_of_shoe else (0 if rules.metal_box else rules.burn_each_round)
    if rules.hole_card != "none":
        expected += rules.burn_before_dealer_second
    elif not rules.metal_box:
        extra = len(dealer) > 2 if up.rank == "A" else len(dealer) >= 2
        expected += rules.burn_before_dealer_second if extra else 0
    assert len(current.burned) == expected
    # hands: nothing after 21 or a bust (online §4.4), one card on a double (Art. 11) or split aces (Art. 10)
    for box in boxes:
        for hand in current.hands[box]:
            for length in range(2, len(hand.cards)):
                assert total(hand.cards[:length])[0] < 21, f"box {box} drew on {hand.cards[:length]}"
            if hand.doubled:
                assert len(hand.cards) == 3
            if hand.outcome == "surrender" and hand.from_split:  # Art. 12: a one-card split hand keeps it
                assert len(hand.cards) in (1, 2)
            elif hand.split_aces and rules.split_aces_one_card:
                assert len(hand.cards) == 2
            assert len(current.hands[box]) <= rules.max_split_hands
    # the dealer (Art. 3.2a; online §3.8, §4.4)
    natural = is_natural(dealer)
    results = {(box, index): hand.results for box in boxes for index, hand in enumerate(current.hands[box])}
    moot = all(
        hand.natural or _settled_before_dealer(hand, results[(box, index)])
        for box in boxes
        for index, hand in enumerate(current.hands[box])
    )
    first_extra = 2 if rules.hole_card != "none" or rules.metal_box or up.rank == "A" else 1
    if current.peeked and natural:
        assert len(dealer) == 2
    elif moot and not rules.dealer_draws_when_moot:
        assert len(dealer) == first_extra, "the dealer stops when every hand is settled (online §4.4)"
    elif natural:
        assert len(dealer) == 2
    else:
        for length in range(2, len(dealer)):
            assert _must_hit(dealer[:length], rules), f"the dealer drew on {dealer[:length]}"
        assert len(dealer) >= 2 and not _must_hit(dealer, rules), f"the dealer stood on {dealer}"
    if rules.metal_box:
        assert current.last_round, "one round per shuffle from the metal box (Art. 2.2)"


def _bonus_ratio(hand: Hand, rules: Rules) -> Fraction | None:
    if len(hand.cards) != 3 or hand.doubled:
        return None
    if is_678_suited(hand.cards) and rules.bonus_678_suited is not None:
        return rules.bonus_678_suited.fraction
    if is_777(hand.cards) and rules.bonus_777 is not None:
        return rules.bonus_777.fraction
    return None


def check_money(current: Round) -> None:
    """Every stake settled exactly once, as the rules pay it for the final cards (Art. 6-9, 12; online §2)."""
    rules = current.rules
    dealer = current.dealer_cards
    dealer_natural = is_natural(dealer)
    dealer_points = total(dealer)[0]
    hand_payments: Counter[tuple[int, int, str]] = Counter()
    insurance_payments: Counter[tuple[str, int]] = Counter()
    for payment in current.payments:
        if payment.hand is None:
            insurance_payments[(payment.player, payment.box)] += 1
        else:
            hand_payments[(payment.box, payment.hand, payment.player)] += 1
    expected_keys = Counter(
        (box, index, player)
        for box in current.boxes
        for index, hand in enumerate(current.hands[box])
        for player in hand.stakes
    )
    assert hand_payments == expected_keys, "each hand's bettors are paid exactly once"
    outcomes = {"win", "lose", "push", "blackjack", "surrender", "bonus", "even_money", "bust"}  # docs/transcript.md
    assert all(hand.outcome in outcomes for hands in current.hands.values() for hand in hands)
    assert insurance_payments == Counter(list(current.insurance)), "each insurance is settled exactly once"
    # Art. 12: a surrender gives up every hand of the box, after a split too
    surrendered = {o.box for o in current.operations if isinstance(o, op.Decision) and o.kind == "surrender"}
    paid = {(p.box, p.hand, p.player): p for p in current.payments if p.hand is not None}
    for box in current.boxes:
        bets = current.bets[box]
        for hand in current.hands[box]:  # a split stakes the bet again; a double adds one fraction for all (Art. 13)
            assert set(hand.stakes) == set(bets)
            added = {Fraction(hand.stakes[player] - bets[player]) / Fraction(bets[player]) for player in bets}
            assert added == {0} if not hand.doubled else len(added) == 1 and 0 < added.pop() <= 1
        owed = dict(bets)  # dealer_blackjack_takes = original: the box loses its bet once
        for index, hand in enumerate(current.hands[box]):
            for player, stake in hand.stakes.items():
                payment = paid[(box, index, player)]
                assert payment.stake == stake
                bet = current.bets[box][player]
                assert bet <= stake <= 2 * bet, "a double adds at most the bet (Art. 11)"
                bonus = _bonus_ratio(hand, rules)
                if (player, box) in current.even_money:
                    assert index == 0 and hand.natural and dealer[0].rank == "A"
                    want = ("even_money", stake)
                elif box in surrendered:
                    want = ("surrender", -exact(Fraction(stake) / 2))
                elif hand.busted:
                    want = ("bust", -stake)
                elif bonus is not None:
                    want = ("bonus", exact(Fraction(stake) * bonus))
                elif dealer_natural and hand.natural:
                    want = ("push", ZERO)
                elif dealer_natural:
                    loss = stake if rules.dealer_blackjack_takes == "all" else min(owed[player], stake)
                    owed[player] -= loss
                    want = ("lose", -loss)
                elif hand.natural:
                    want = ("blackjack", rules.blackjack_pays.of(stake))
                elif dealer_points > 21 or hand.total > dealer_points:
                    want = ("win", stake)
                elif hand.total == dealer_points:
                    want = ("push", ZERO)
                else:
                    want = ("lose", -stake)
                assert (payment.kind, payment.amount) == want, f"box {box} hand {index} {player}: {hand}"
    for (player, box), amount in current.insurance.items():
        assert dealer[0].rank == "A", "insurance only against an ace (Art. 8)"
        assert ZERO < amount <= exact(Fraction(current.bets[box][player]) / 2), "at most half the bet (Art. 8)"
        (payment,) = [p for p in current.payments if p.hand is None and (p.player, p.box) == (player, box)]
        assert payment.stake == amount
        if dealer_natural:
            assert rules.insurance_pays is not None
            assert (payment.kind, payment.amount) == ("insurance_won", rules.insurance_pays.of(amount))
        else:
            assert (payment.kind, payment.amount) == ("insurance_lost", -amount)
    # net: per bettor the sum of their payments; the house takes what the players lose
    staked = current.staked()
    net = current.net()
    bettors = {player for bets in current.bets.values() for player in bets}
    assert set(net) == bettors
    for player in bettors:
        assert net[player] == sum((p.amount for p in current.payments if p.player == player), ZERO)
        assert net[player] >= -staked[player], "nobody loses more than they staked"
    house = -sum((p.amount for p in current.payments), ZERO)
    assert sum(net.values(), ZERO) + house == 0
    for payment in current.payments:
        assert isinstance(payment.amount, Decimal) and isinstance(payment.stake, Decimal)


def check_shoe(played: PlayedShoe) -> None:
    for number, (current, (start, end)) in enumerate(zip(played.rounds, played.spans, strict=True)):
        drawn = played.order[start:end]
        check_cards(current, drawn)
        check_procedure(current, first_of_shoe=number == 0)
        check_money(current)
        cut = played.cut
        cut_in_round = cut is not None and start <= cut < end
        assert current.last_round == (cut_in_round or current.rules.metal_box)
        assert not any(r.last_round for r in played.rounds[:number]), "no round after the shoe's last round"


# ---------------------------------------------------------------------------------------------------
# the properties


def examples(count: int) -> settings:
    """Hypothesis settings for a property run of ``count`` rule sets (no deadline: shoes take time)."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@examples(300)
@given(rules=rule_sets(), seed=SEEDS)
def test_random_play_conserves_cards_and_money(rules: Rules, seed: int) -> None:
    """Cards and money are conserved, and each round follows the rules' procedure, over whole shoes."""
    for played in play_shoes(rules, seeded(seed)):
        check_shoe(played)


@examples(150)
@given(rules=rule_sets(), seed=SEEDS)
def test_played_rounds_replay_to_the_same_result(rules: Rules, seed: int) -> None:
    """A shoe's rounds written with ``to_transcript`` replay, through JSON, to the identical result."""
    for played in play_shoes(rules, seeded(seed)):
        if not played.rounds:
            continue
        doc = to_transcript(rules, played.order, played.rounds, played.cut)
        reread = transcript.load(json.dumps(doc))
        result = replay_blackjack(reread)
        assert result["rounds"] == [round_result(current) for current in played.rounds]
        assert render_blackjack(result).count("\n") >= len(played.rounds)  # the readable account renders
        assert transcript.replay(reread) == result  # and once more: the same every time


def _verify_offered(current: Round, action: op.LegalAction) -> None:
    """Every action ``legal_actions()`` offers passes its verify face, at both ends of its amounts."""
    kind, box, hand, player = action.kind, action.box, action.hand, action.player
    if kind == "insurance":
        assert player is not None and action.max_amount is not None
        current.verify_insurance(player, box, action.max_amount)
        current.verify_insurance(player, box, action.min_amount or Decimal("0.01"))
    elif kind == "even_money":
        assert player is not None
        current.verify_even_money(player, box)
    elif kind == "close_insurance":
        current.verify_close_insurance()
    elif kind == "double":
        assert action.max_amount is not None and action.min_amount is not None
        assert current.verify_double(box, hand, player) == action.max_amount
        current.verify_double(box, hand, player, action.max_amount)
        current.verify_double(box, hand, player, action.min_amount)
        assert action.min_amount <= action.max_amount
        if not current.rules.double_for_less:
            assert action.min_amount == action.max_amount
    elif kind in ("hit", "stand", "split", "surrender"):
        getattr(current, f"verify_{kind}")(box, hand, player)
        assert getattr(current, f"can_{kind}")(box, hand, player)
    else:
        assert kind in ("burn", "deal", "dealer_hit", "dealer_stand", "settle"), kind


def _refused(current: Round, attempt: Callable[[], object]) -> None:
    """``attempt`` raises IllegalActionError and leaves the round as it was."""
    before = (len(current.operations), current.pending, len(current.payments), dict(current.insurance))
    with pytest.raises(CroupierError):
        attempt()
    after = (len(current.operations), current.pending, len(current.payments), dict(current.insurance))
    assert after == before


PLAY_KINDS = ("hit", "stand", "double", "split", "surrender")


def _probe_refusals(current: Round, legal: tuple[op.LegalAction, ...]) -> None:
    """Actions that ``legal_actions()`` does not offer are refused (the ``can_`` face says no)."""
    pending = current.pending
    offered = {a.kind for a in legal}
    if isinstance(pending, op.AwaitDecision):
        box, index, player = pending.box, pending.hand, pending.player
        for kind in PLAY_KINDS:
            if kind not in offered:
                assert not getattr(current, f"can_{kind}")(box, index, player)
                _refused(current, partial(getattr(current, kind), box, index, player))
        _refused(current, lambda: current.hit(box + 1 if box < 7 else box - 1))
        _refused(current, lambda: current.stand(box, index + 1))
        for other in current.bets[box]:  # Art. 13: only the highest bet decides
            if other != player:
                assert not current.can_stand(box, index, other)
                _refused(current, partial(current.stand, box, index, other))
        for bettor in current.bets[box]:
            _refused(current, partial(current.insure, bettor, box, Decimal("0.01")))
        _refused(current, current.close_insurance)
        _refused(current, current.settle)
        if "double" in offered:  # Art. 11; online §2.6: more than 0, at most the bet
            stake = current.hands[box][index].stakes[player]
            _refused(current, partial(current.double, box, index, player, stake + Decimal("0.01")))
            _refused(current, partial(current.double, box, index, player, 0))
            if not current.rules.double_for_less:
                _refused(current, partial(current.double, box, index, player, stake / 2))
    elif isinstance(pending, op.AwaitInsurance):
        for box in current.boxes:
            for bettor, stake in current.bets[box].items():
                above = exact(Fraction(stake) / 2) + Decimal("0.01")
                _refused(current, partial(current.insure, bettor, box, above))
                if not current.hands[box][0].natural:
                    _refused(current, partial(current.take_even_money, bettor, box))
        for box in current.boxes:  # a decision waits for the offer to close (close_insurance)
            assert not current.can_hit(box) and not current.can_stand(box)
            _refused(current, partial(current.stand, box))
            _refused(current, partial(current.surrender, box))
        _refused(current, current.dealer_hit)
    elif isinstance(pending, op.AwaitChore):
        _refused(current, lambda: current.hit(1))
        if pending.chore != "burn":
            _refused(current, current.burn_card)


def _art13_decider(current: Round, box: int) -> str:
    """Art. 13, read afresh: the highest bet decides; on a tie the seated player, else the first to bet."""
    bets = current.bets[box]
    occupant = current.seated.get(box, next(iter(bets)))
    highest = max(bets.values())
    leaders = [player for player, amount in bets.items() if amount == highest]
    return occupant if occupant in leaders else leaders[0]


def _expected_offer(current: Round) -> set[tuple[str, int, str | None]]:
    """What docs/rules.md §2-3 allow now, read independently of ``legal_actions()``: (kind, box, player)."""
    rules = current.rules
    pending = current.pending
    if isinstance(pending, op.AwaitInsurance):
        offer: set[tuple[str, int, str | None]] = {("close_insurance", 0, None)}
        for box in current.boxes:
            natural = current.hands[box][0].natural
            for player in current.bets[box]:
                chosen = (player, box) in current.insurance or (player, box) in current.even_money
                if rules.insurance_pays is not None and not chosen:
                    offer.add(("insurance", box, player))
                if rules.even_money and natural and not chosen:
                    offer.add(("even_money", box, player))
        return offer
    assert isinstance(pending, op.AwaitDecision)
    box, index = pending.box, pending.hand
    player = _art13_decider(current, box)
    assert pending.player == player, "Art. 13: the highest bet decides"
    hands = current.hands[box]
    hand = hands[index]
    assert not hand.done and hand.total < 21 and len(hand.cards) >= 2
    one_card = hand.split_aces and rules.split_aces_one_card  # Art. 10
    two = len(hand.cards) == 2
    kinds = {"stand"} if one_card else {"stand", "hit"}
    doubles_on = {"any_two": range(2, 22), "9_11": (9, 10, 11), "10_11": (10, 11), "11": (11,)}[rules.double_on]
    may_double = rules.double_after_split or not hand.from_split
    if two and not one_card and may_double and hand.total in doubles_on:  # Art. 11; online §2.6
        kinds.add("double")
    resplit_refused = hand.split_aces and not rules.resplit_aces
    if two and hand.pair() and len(hands) < rules.max_split_hands and not resplit_refused:  # Art. 10; §2.7
        kinds.add("split")
    kinds_decided = {o.kind for o in current.operations if isinstance(o, op.Decision) and o.box == box}
    against_ace = rules.surrender == "early_not_ace" and current.dealer_cards[0].rank == "A"
    if rules.surrender != "none" and not against_ace:  # Art. 12
        if len(hands) == 1 and two and not kinds_decided:
            kinds.add("surrender")
        # the statute's surrender after a split: every hand together, before any card asked for
        if len(hands) > 1 and rules.surrender == "early_not_ace" and not kinds_decided & {"hit", "double"}:
            kinds.add("surrender")
    offer = {(kind, box, player) for kind in kinds}
    up = current.dealer_cards[0]
    if rules.hole_card == "none" and rules.even_money and up.rank == "A" and current.dealer_has_hole_card:
        for other in current.boxes:  # Art. 6: even money until the face-down card is turned (Macau 1983)
            for bettor in current.bets[other]:
                chosen = (bettor, other) in current.insurance or (bettor, other) in current.even_money
                if current.hands[other][0].natural and not chosen:
                    offer.add(("even_money", other, bettor))
    return offer


def _checked_play(current: Round, rng: RandomSource) -> None:
    """Random legal play that probes ``legal_actions()`` at every step."""
    while not current.ended:
        legal = current.legal_actions()
        assert isinstance(legal, tuple) and legal
        assert all(isinstance(action, op.LegalAction) for action in legal)
        if isinstance(current.pending, op.AwaitCard):
            raise ShoeError("the shoe ran out")
        if isinstance(current.pending, op.AwaitInsurance | op.AwaitDecision):
            assert {(a.kind, a.box, a.player) for a in legal} == _expected_offer(current)
        for action in legal:
            _verify_offered(current, action)
        _probe_refusals(current, legal)
        action = autoplay.pick(rng, legal)
        autoplay.perform(current, action, autoplay.choose_amount(rng, action))  # never raises
    assert current.legal_actions() == ()


@examples(250)
@given(rules=rule_sets(), seed=SEEDS)
def test_legal_actions_pass_verify_and_others_are_refused(rules: Rules, seed: int) -> None:
    """``legal_actions()`` is a tuple; what it offers verifies and performs; the rest is refused."""
    for played in play_shoes(rules, seeded(seed), shoes=1, max_rounds=25, driver=_checked_play):
        check_shoe(played)


@examples(80)
@given(
    rules=rule_sets(),
    seed=SEEDS,
    automations=st.frozensets(st.sampled_from(sorted(AUTOMATIONS))),
    live=st.booleans(),
)
def test_chores_performed_from_outside_give_the_same_rounds(
    rules: Rules, seed: int, automations: frozenset[str], live: bool
) -> None:
    """docs/api.md (`automations`): a round whose chores the caller performs (any subset of the automations), or whose
    cards a live dealer's reader supplies one at a time, plays exactly as the automated one."""
    (auto,) = play_shoes(rules, seeded(seed), shoes=1, max_rounds=15)
    rng = seeded(seed)  # the same seed: the driver draws nothing for a chore or a card
    order = fisher_yates(new_shoe_order(rules.decks), rng)
    cut = place_cut_card(rules.cut_card, len(order), rng)
    assert order == auto.order
    shoe = Shoe.live(rules.decks) if live else Shoe.stacked(rules.decks, order, cut)
    table = Table(rules, shoe, automations=automations)
    feed = iter(order)

    def supply(current: Round) -> Card:
        if cut is not None and shoe.size == cut:  # the card about to be read lies below the cut card
            current.mark_cut_card()
        return next(feed)

    for original in auto.rounds:
        current = table.new_round(autoplay.random_seated(rules, rng))
        autoplay.place_random_bets(current, rng)
        current.deal()
        autoplay.play_out(current, rng, supply=supply if live else None)
        assert round_result(current) == round_result(original)
        assert current.payments == original.payments
        assert [o for o in current.operations if not isinstance(o, op.CutCardOut)] == [
            o for o in original.operations if not isinstance(o, op.CutCardOut)
        ]
    assert table.shoe_finished == (bool(auto.rounds) and auto.rounds[-1].last_round)


JUNK: tuple[object, ...] = (0, 9, -1, "", "maybe", "3:0", "1:3", "abc", 2.5, [], {}, "peek_ten", True, "99")


@examples(150)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    junk=st.dictionaries(st.sampled_from(sorted(VALUES)), st.sampled_from(JUNK), max_size=3),
    seed=SEEDS,
)
def test_random_play_raises_only_documented_errors(preset: str, junk: dict[str, object], seed: int) -> None:
    """Odd rule values are refused with RulesError; odd rule sets that are accepted play whole shoes
    (thousands of rounds over the run) raising nothing but CroupierError."""
    try:
        rules = blackjack_rules(preset, junk)
    except RulesError as error:
        assert "allowed" in str(error) or "ratio" in str(error) or "min_bet" in str(error)
        return
    try:
        for played in play_shoes(rules, seeded(seed), shoes=1):
            check_shoe(played)
    except CroupierError:
        pass


# ---------------------------------------------------------------------------------------------------
# longer runs


@pytest.mark.slow
@examples(400)
@given(rules=rule_sets(), seed=SEEDS)
def test_long_random_play(rules: Rules, seed: int) -> None:
    for played in play_shoes(rules, seeded(seed), shoes=3):
        check_shoe(played)
        if played.rounds:
            doc = to_transcript(rules, played.order, played.rounds, played.cut)
            assert replay_blackjack(doc)["rounds"] == [round_result(r) for r in played.rounds]


@pytest.mark.slow
@examples(100)
@given(rules=rule_sets(), seed=SEEDS)
def test_long_checked_play(rules: Rules, seed: int) -> None:
    for played in play_shoes(rules, seeded(seed), shoes=1, driver=_checked_play):
        check_shoe(played)


# ---------------------------------------------------------------------------------------------------
# found by hand


def test_a_shoe_with_a_voided_round_replays_to_the_same_results_or_is_refused() -> None:
    rules = blackjack_rules("live-online")
    burns = ["2C", "3C", "4C", "5C", "6C", "7C"]
    order = [Card.parse(text) for text in [*burns, *"TH 7S 9D TS 8H 9S 8D 7C TD 6S 9C TC 5D 2H 3H 4H".split()]]
    table = Table(rules, Shoe.stacked(rules.decks, order))
    first = table.new_round()
    first.bet("ana", 1, 100)
    first.deal()
    first.stand(1)  # 19 against 17
    voided = table.new_round()
    voided.bet("ana", 1, 100)
    voided.deal()  # 8H 8D against 9S, hole 7C
    voided.void("misdeal (Art. 2.1)")
    again = table.replay_voided(voided)
    again.deal()  # TD 9C against 6S, hole TC; the dealer draws 5D: 21
    again.stand(1)
    rounds = [first, voided, again]
    try:
        doc = to_transcript(rules, order, rounds, None)
    except CroupierError:
        return  # refusing to write what cannot be replayed is fine too
    played = [round_result(current) for current in rounds if not current.voided]
    assert replay_blackjack(transcript.load(json.dumps(doc)))["rounds"] == played
