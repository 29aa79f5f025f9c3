"""The blackjack procedure: what the engine does between the decisions people make.

:func:`run` is the generator behind :class:`~croupier.blackjack.state.Round`. It yields each time the
round must wait (a decision, the insurance offer, a chore left to the caller, a card a live shoe
does not have yet) and otherwise applies the rules in order: burns (Art. 2.1, 2.4; online §3.5), the
deal (Art. 3.1; online §3.4), insurance and the peek (Art. 8; online §2.5, §3.8), the boxes from box 1
up (Art. 3.2c), the dealer (Art. 3.2a; online §4.4) and settlement (Art. 6-9, 12; online §2.6).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.hand import POINTS, Hand, is_678_suited, is_777, is_natural, total
from croupier.cards import Card
from croupier.errors import IllegalActionError
from croupier.money import ZERO, exact, half

if TYPE_CHECKING:
    from croupier.blackjack.state import Round

Script = Generator[op.Pending, object, None]


def _draw_now(rd: Round) -> Card:
    """The top card of the shoe; the cut card marks this round as the shoe's last (Art. 2.2)."""
    shoe = rd.shoe
    was_out = shoe.cut_card_out
    card = shoe.draw()
    if shoe.cut_card_out and not was_out and not rd.last_round:
        rd.last_round = True
        rd._record(op.CutCardOut())
    return card


def _take(rd: Round, chore: str, box: int, index: int) -> Generator[op.Pending, object, Card]:
    """The next card for ``chore``, waiting for the caller (chore not automated) or a live card."""
    if rd._all_automated and rd.shoe.can_draw():
        return _draw_now(rd)
    if chore not in rd.automations:
        yield op.AwaitChore(chore)
    while not rd.shoe.can_draw():
        if chore == "burn":
            purpose = "burn"
        elif box == 0:
            purpose = "dealer" if index == 0 else "dealer hole card"
        else:
            purpose = f"box {box} hand {index}"
        yield op.AwaitCard(purpose)
    return _draw_now(rd)


def _burn(rd: Round) -> Generator[op.Pending, object, None]:
    card = yield from _take(rd, "burn", 0, 0)
    rd.burned.append(card)
    rd._record(op.CardBurned(card))


def _deal_to_box(rd: Round, box: int, index: int) -> Generator[op.Pending, object, None]:
    card = yield from _take(rd, "deal", box, index)
    rd.hands[box][index].add(card)
    rd._record(op.CardDealt(card, box, index))


def _deal_to_dealer(rd: Round, face_up: bool) -> Generator[op.Pending, object, None]:
    card = yield from _take(rd, "deal", 0, 0 if face_up else 1)
    rd._dealer.append(card)
    if not face_up:
        rd._hole_hidden = True
    rd._record(op.CardDealt(card, 0, 0, face_up))


def _chore(rd: Round, chore: str, automation: str) -> Generator[op.Pending, object, None]:
    if automation not in rd.automations:
        yield op.AwaitChore(chore)


def run(rd: Round) -> Script:
    """The round from the close of betting to settlement; yields whenever it must wait."""
    rules = rd.rules
    boxes = rd.boxes
    burns = rules.shoe_start_burns if rd.first_of_shoe else (0 if rules.metal_box else rules.burn_each_round)
    for _ in range(rd.extra_burns + burns):  # Art. 2.1, 2.4; online §3.5
        yield from _burn(rd)
    for box in boxes:
        rd.hands[box] = [Hand([], dict(rd.bets[box]))]
    if rules.hole_card == "none":  # Art. 3.1a: two cards to each box, then the dealer's up-card
        for _ in range(2):
            for box in boxes:
                yield from _deal_to_box(rd, box, 0)
        yield from _deal_to_dealer(rd, face_up=True)
        if rules.metal_box or rd._dealer[0].rank == "A":  # Art. 3.1a ace exception; 3.1b one deck
            yield from _deal_to_dealer(rd, face_up=False)
    else:  # online §3.4: box, dealer up, box, dealer hole
        for box in boxes:
            yield from _deal_to_box(rd, box, 0)
        yield from _deal_to_dealer(rd, face_up=True)
        for box in boxes:
            yield from _deal_to_box(rd, box, 0)
        for _ in range(rules.burn_before_dealer_second):
            yield from _burn(rd)
        yield from _deal_to_dealer(rd, face_up=False)
    for box in boxes:
        hand = rd.hands[box][0]
        if hand.natural:
            hand.done = True
            rd._record(op.HandStood(box, 0, "natural"))
    up = rd._dealer[0]
    offers_insurance = rules.insurance_pays is not None
    offers_even_money = rules.even_money and any(rd.hands[box][0].natural for box in boxes)
    if up.rank == "A" and (offers_insurance or offers_even_money):  # Art. 6, 8; online §2.5
        yield op.AwaitInsurance()
    up_points = POINTS[up.rank]
    peeks = (rules.hole_card == "peek_ace" and up_points == 1) or (rules.hole_card == "peek" and up_points in (1, 10))
    if peeks:  # online §3.8
        natural = is_natural(rd._dealer)
        rd.peeked = True
        rd._record(op.DealerPeeked(natural))
        if natural:
            _turn_hole_card(rd)
            _settle_insurance(rd, won=True)
            yield from _settle_all(rd)
            return
        _settle_insurance(rd, won=False)
    for box in boxes:
        yield from _play_box(rd, box)
    yield from _dealer_play(rd)
    yield from _settle_all(rd)


def _play_box(rd: Round, box: int) -> Script:
    hands = rd.hands[box]
    decider = rd.decider(box)  # Art. 13: fixed for the round once betting closes
    index = 0
    while index < len(hands):
        hand = hands[index]
        # online §2.7: a split hand takes its second card when its turn comes (unless the box surrendered)
        if len(hand.cards) == 1 and not hand.done:
            yield from _deal_to_box(rd, box, index)
            _after_card(rd, box, index)
        while not hand.done:
            decided = yield op.AwaitDecision(box, index, decider)
            yield from _apply(rd, decided, box, index)
        index += 1


@dataclass(frozen=True, slots=True)
class Decided:
    """What :meth:`Round.apply <croupier.blackjack.state.Round.apply>` sends the procedure at a decision:
    the typed play and its record (the double's amount and the decliners as the engine read them)."""

    action: moves.Play
    record: op.Decision


Step = Callable[["Round", op.Decision, int, int], Script]


def _apply(rd: Round, decided: object, box: int, index: int) -> Script:
    """Carry out the play decision ``decided`` on ``box``'s hand ``index``: the step of its action type."""
    if not isinstance(decided, Decided):
        raise IllegalActionError(f"box {box} waits for a play decision; the procedure was sent {decided!r}")
    step = STEPS.get(type(decided.action))
    if step is None:
        raise IllegalActionError(f"no procedure step for {decided.action!r}; the play decisions are {_PLAY_NAMES}")
    yield from step(rd, decided.record, box, index)


def _stand(rd: Round, decision: op.Decision, box: int, index: int) -> Script:
    rd.hands[box][index].done = True
    yield from ()


def _hit(rd: Round, decision: op.Decision, box: int, index: int) -> Script:
    yield from _deal_to_box(rd, box, index)
    _after_card(rd, box, index)


def _double(rd: Round, decision: op.Decision, box: int, index: int) -> Script:
    hand = rd.hands[box][index]
    assert decision.amount is not None
    decider_stake = hand.stakes[decision.player]
    for player, stake in hand.stakes.items():
        if player in decision.declined_by:  # Art. 13: keeps the bet as it was, undoubled
            continue
        added = exact(Fraction(stake) * Fraction(decision.amount) / Fraction(decider_stake))
        hand.stakes[player] = stake + added
    hand.doubled = True
    yield from _deal_to_box(rd, box, index)
    _after_card(rd, box, index)
    if not hand.done:
        hand.done = True
        rd._record(op.HandStood(box, index, "double"))


def _split(rd: Round, decision: op.Decision, box: int, index: int) -> Script:
    hands = rd.hands[box]
    hand = hands[index]
    aces = hand.cards[0].rank == "A"
    moved = hand.split_off()
    matched = {player: rd.bets[box][player] for player in hand.stakes if player not in decision.declined_by}
    new = Hand([moved], matched, True, aces)  # Art. 13: a bettor who declines stays on the first hand only
    hand.from_split = True
    hand.split_aces = aces
    hands.insert(index + 1, new)
    yield from _deal_to_box(rd, box, index)  # Art. 12 note: the first split hand's card at once
    _after_card(rd, box, index)


def _surrender(rd: Round, decision: op.Decision, box: int, index: int) -> Script:
    """Art. 12: after a split every hand of the box together; the box's play ends."""
    for number, each in enumerate(rd.hands[box]):
        for player in each.open_bettors:
            stake = each.stakes[player]
            rd._pay(player, box, number, "surrender", stake, -half(stake))
        each.outcome = "surrender"
        each.done = True
    yield from ()


STEPS: Mapping[type[moves.Play], Step] = {
    moves.Stand: _stand,
    moves.Hit: _hit,
    moves.Double: _double,
    moves.Split: _split,
    moves.Surrender: _surrender,
}
"""The procedure's step for each play decision's type."""

_PLAY_NAMES = ", ".join(cls.__name__ for cls in moves.PLAYS)


def _after_card(rd: Round, box: int, index: int) -> None:
    """Bust, bonus, 21, or split aces' one card: what a new card settles (Art. 9, 10; §4.4)."""
    rules = rd.rules
    hand = rd.hands[box][index]
    points = hand.total
    if points > 21:
        for player, stake in hand.stakes.items():
            rd._pay(player, box, index, "bust", stake, -stake)
        hand.outcome = "bust"
        hand.done = True
        return
    if len(hand.cards) == 3 and not hand.doubled:
        ratio = None
        if is_678_suited(hand.cards):
            ratio = rules.bonus_678_suited
        elif is_777(hand.cards):
            ratio = rules.bonus_777
        if ratio is not None:  # Art. 9: paid at once and settled
            for player, stake in hand.stakes.items():
                rd._pay(player, box, index, "bonus", stake, ratio.of(stake))
            hand.outcome = "bonus"
            hand.done = True
            return
    if points == 21:
        hand.done = True
        rd._record(op.HandStood(box, index, "21"))
        return
    if hand.split_aces and rules.split_aces_one_card and len(hand.cards) == 2:
        can_resplit = rules.resplit_aces and hand.pair() and len(rd.hands[box]) < rules.max_split_hands
        if not can_resplit:
            hand.done = True
            rd._record(op.HandStood(box, index, "split aces"))


def _moot(rd: Round) -> bool:
    """Every hand is settled or a natural (online §4.4)."""
    return all(not hand.open_bettors or hand.natural for hands in rd.hands.values() for hand in hands)


def _turn_hole_card(rd: Round) -> None:
    if rd._hole_hidden:
        rd._hole_hidden = False
        rd._record(op.HoleCardTurned(rd._dealer[1]))


def _dealer_must_hit(rd: Round) -> bool:
    points, soft = total(rd._dealer)
    return points < 17 or (points == 17 and soft and rd.rules.dealer_hits_soft_17)


def _dealer_play(rd: Round) -> Script:
    rules = rd.rules
    stop_early = _moot(rd) and not rules.dealer_draws_when_moot
    burn_before_extra = 0
    if len(rd._dealer) == 1:  # Macau, no ace up: the second card comes after play (Art. 3.1a)
        if stop_early:
            rd._record(op.DealerStood(rd.dealer_total))
            return
        for _ in range(rules.burn_before_dealer_second):  # Art. 2.4
            yield from _burn(rd)
        yield from _deal_to_dealer(rd, face_up=True)
    else:
        _turn_hole_card(rd)
        if rules.hole_card == "none":
            _settle_insurance(rd, won=is_natural(rd._dealer))
            if not rules.metal_box:  # Art. 3.1a: the burn moves to the first extra card
                burn_before_extra = rules.burn_before_dealer_second
    if not (stop_early or is_natural(rd._dealer)):
        while _dealer_must_hit(rd):
            yield from _chore(rd, "dealer_hit", "dealer_play")
            for _ in range(burn_before_extra):
                yield from _burn(rd)
            burn_before_extra = 0
            yield from _deal_to_dealer(rd, face_up=True)
        yield from _chore(rd, "dealer_stand", "dealer_play")
    rd._record(op.DealerStood(rd.dealer_total))


def _settle_insurance(rd: Round, *, won: bool) -> None:
    ratio = rd.rules.insurance_pays
    for (player, box), amount in rd.insurance.items():
        if won and ratio is not None:
            rd._pay(player, box, None, "insurance_won", amount, ratio.of(amount))
        else:
            rd._pay(player, box, None, "insurance_lost", amount, -amount)


def _settle_all(rd: Round) -> Script:
    yield from _chore(rd, "settle", "settle")
    rules = rd.rules
    dealer_natural = is_natural(rd._dealer)
    dealer_points = total(rd._dealer)[0]
    for box in rd.boxes:
        hands = rd.hands[box]
        if dealer_natural:
            # Art. 7a: natural against natural pushes; otherwise Art. 8 / online §2.6
            owed = {player: rd.bets[box][player] for player in rd.bets[box]}
            for index, hand in enumerate(hands):
                for player in hand.open_bettors:
                    stake = hand.stakes[player]
                    if hand.natural:
                        rd._pay(player, box, index, "push", stake, ZERO)
                        continue
                    if rules.dealer_blackjack_takes == "all":
                        loss = stake
                    else:  # the box's unbusted hands together lose the original bet once
                        loss = min(owed[player], stake)
                        owed[player] -= loss
                    rd._pay(player, box, index, "lose", stake, -loss)
                if hand.outcome is None:
                    hand.outcome = "push" if hand.natural else "lose"
            continue
        for index, hand in enumerate(hands):
            result = None
            for player in hand.open_bettors:
                stake = hand.stakes[player]
                if hand.natural:  # Art. 6: a natural beats any other 21
                    result = "blackjack"
                    rd._pay(player, box, index, result, stake, rules.blackjack_pays.of(stake))
                elif dealer_points > 21 or hand.total > dealer_points:
                    result = "win"
                    rd._pay(player, box, index, result, stake, stake)
                elif hand.total == dealer_points:  # Art. 7b
                    result = "push"
                    rd._pay(player, box, index, result, stake, ZERO)
                else:
                    result = "lose"
                    rd._pay(player, box, index, result, stake, -stake)
            if hand.outcome is None:
                hand.outcome = result
    rd._end()
