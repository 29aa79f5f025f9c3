"""Which hand is to act (:func:`hand_to_act`), why a play decision is refused for it (``None``:
allowed), and what a double adds.

The ``verify_`` faces of :class:`~croupier.blackjack.state.Round` raise these reasons, and
:meth:`~croupier.blackjack.state.Round.legal_actions` offers what none of them refuses. Nothing here
depends on the dealer's face-down card.
"""

from __future__ import annotations

from collections.abc import Collection
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.hand import Hand
from croupier.blackjack.rules import DOUBLE_TOTALS
from croupier.errors import IllegalActionError
from croupier.money import ZERO, exact, format_amount, parse_amount

if TYPE_CHECKING:
    from croupier.blackjack.round import Round


def hand_to_act(
    rd: Round,
    play: type[moves.Play],
    box: int,
    hand: int | None,
    player: str | None,
    turn: op.AwaitDecision | None = None,
) -> tuple[Hand, int, str]:
    """The hand to act (``turn``, else the pending decision) as (hand, index, decider) for the play
    decision ``play``, checked against what the caller named: the box, the hand, the player (Art. 3.2c,
    13; online §2.7, §4.4)."""
    kind = play.kind
    what = f"{kind} on box {box}" + (f" hand {hand}" if hand is not None else "")
    if turn is None:
        if rd.voided:
            raise IllegalActionError(f"{what}: the round was voided")
        named = rd.hands.get(box)
        index = hand if hand is not None else 0
        if (
            not isinstance(rd.pending, op.AwaitDecision)
            and play is not moves.Stand
            and named
            and 0 <= index < len(named)
            and named[index].total == 21
            and named[index].outcome not in ("bonus", "bust")
        ):
            raise IllegalActionError(f"{what}: box {box} holds 21 and takes no more cards (online §4.4)")
        if rd.ended:
            raise IllegalActionError(f"{what}: the round is over")
        if isinstance(rd.pending, op.AwaitInsurance):
            raise IllegalActionError(f"{what}: insurance is still offered; close it first")
        if not isinstance(rd.pending, op.AwaitDecision):
            raise IllegalActionError(f"{what}: the round waits for {op.describe_pending(rd.pending)}")
        turn = rd.pending
    index = turn.hand if hand is None else hand
    hands = rd.hands.get(box)
    if hands is None:
        raise IllegalActionError(f"{what}: box {box} has no bet this round")
    if not 0 <= index < len(hands):
        raise IllegalActionError(f"{what}: box {box} has {len(hands)} hand(s)")
    if (box, index) != (turn.box, turn.hand):
        target = hands[index]
        if target.done and target.total == 21 and not target.outcome:
            raise IllegalActionError(f"{what}: box {box} holds 21 and takes no more cards (online §4.4)")
        if target.done:
            reason = f"hand {index} of box {box} is finished" + (
                f" ({target.outcome})" if target.outcome else f" on {target.total}"
            )
            raise IllegalActionError(f"{what}: {reason}; box {turn.box} hand {turn.hand} is to act")
        raise IllegalActionError(
            f"{what}: boxes play from box 1 up, each hand to completion (Art. 3.2c; online §2.7); "
            f"box {turn.box} hand {turn.hand} is to act"
        )
    entitled = turn.player
    if player is not None and player != entitled:
        if player not in rd.bets[box]:
            raise IllegalActionError(f"{what}: {player} has no bet on box {box}")
        raise IllegalActionError(
            f"{what}: box {box}'s decisions belong to {entitled}, the highest bet (Art. 13); {player} may not decide"
        )
    return hands[index], index, entitled


def hit(rd: Round, box: int, target: Hand) -> str | None:
    if target.split_aces and rd.rules.split_aces_one_card:
        return f"hit on box {box}: split aces take one card each (Art. 10; online §2.7)"
    return None


def double(rd: Round, box: int, target: Hand) -> str | None:
    what = f"double on box {box}"
    rules = rd.rules
    if len(target.cards) != 2:
        return f"{what}: a double is on the first two cards (Art. 11); the hand holds {len(target.cards)}"
    if target.split_aces and rules.split_aces_one_card:
        return f"{what}: split aces take one card each (Art. 10)"
    if target.from_split and not rules.double_after_split:
        return f"{what}: {rules.preset} allows no double after a split (Art. 11; double_after_split=false)"
    points = target.total
    if points not in DOUBLE_TOTALS[rules.double_on]:
        allowed = {"11": "11", "10_11": "10 or 11", "9_11": "9, 10 or 11"}.get(rules.double_on, "any")
        return (
            f"{what}: {rules.preset} allows a double only on a first-two-card total of {allowed} "
            f"(Art. 11); box {box} holds {points}"
        )
    return None


def split(rd: Round, box: int, target: Hand) -> str | None:
    what = f"split on box {box}"
    rules = rd.rules
    if len(target.cards) != 2 or not target.pair():
        cards = " ".join(str(card) for card in target.cards)
        return f"{what}: only two first cards of equal value split (Art. 10); the hand holds {cards}"
    count = len(rd.hands[box])
    if count >= rules.max_split_hands:
        return (
            f"{what}: {rules.preset} allows {rules.max_split_hands} hand(s) per box (Art. 10; online §2.7; "
            f"max_split_hands={rules.max_split_hands}); box {box} already has {count}"
        )
    if target.split_aces and not rules.resplit_aces:
        return f"{what}: {rules.preset} does not resplit aces (resplit_aces=false)"
    return None


def surrender(rd: Round, box: int, target: Hand) -> str | None:
    """Art. 12: the box's first decision on its first two cards; under ``early_not_ace`` (the statute's
    surrender) a box that split may still surrender all its hands together, as long as none of them
    has taken a card the player asked for (a hit or a double's card: 額外紙牌). The cards a split deals
    to complete its hands are not additional cards. Never against an ace under ``early_not_ace``."""
    what = f"surrender on box {box}"
    rules = rd.rules
    if rules.surrender == "none":
        return f"{what}: {rules.preset} offers no surrender (surrender=none)"
    if box in rd.asked_cards:
        return (
            f"{what}: a box surrenders before it takes any card it asks for (Art. 12); box {box} has taken a hit "
            "or a double's card"
        )
    split_box = len(rd.hands[box]) > 1 or target.from_split
    if split_box and rules.surrender != "early_not_ace":
        return (
            f"{what}: {rules.preset}'s surrender is the box's first decision; a box that split cannot "
            f"surrender (surrender={rules.surrender}; only the statute's early_not_ace allows it, Art. 12)"
        )
    if not split_box and (len(target.cards) != 2 or box in rd.decided_boxes):
        return f"{what}: surrender is the box's first decision, on its first two cards (Art. 12)"
    up = rd.up_card
    if rules.surrender == "early_not_ace" and up is not None and up.rank == "A":
        return f"{what}: {rules.preset} allows no surrender against an ace (Art. 12); the dealer shows {up}"
    return None


def check_declined(kind: str, box: int, target: Hand, decider: str, declined_by: Collection[str]) -> tuple[str, ...]:
    """Art. 13: the other bettors of a shared box who do not add a matching stake to a double or a
    split; raises naming the rule for the decider or a name with no stake on the hand. Sorted."""
    what = f"{kind} on box {box}"
    if isinstance(declined_by, str):
        raise IllegalActionError(f"{what}: declined_by is a list of player names, not one string")
    names = tuple(sorted(set(declined_by)))
    for name in names:
        if not isinstance(name, str):
            raise IllegalActionError(f"{what}: declined_by names players, got {name!r}")
        if name == decider:
            raise IllegalActionError(
                f"{what}: {decider} makes the decision (Art. 13) and cannot decline to match it; "
                "only the box's other bettors choose whether to add a matching stake"
            )
        if name not in target.stakes:
            raise IllegalActionError(f"{what}: {name} has no stake on this hand of box {box} to match or decline")
    return names


def double_amount(
    rd: Round, box: int, target: Hand, entitled: str, amount: object, declined: Collection[str] = ()
) -> Decimal:
    """The amount the decider adds to a double (the full bet by default); every matching stake of a
    bettor not in ``declined`` must stay an exact decimal (Art. 11, 13; online §2.6)."""
    what = f"double on box {box}"
    rules = rd.rules
    stake = target.stakes[entitled]
    if amount is None:
        return stake
    value = parse_amount(amount, what=f"{what} amount")
    if value == stake:
        return value
    if not rules.double_for_less:
        raise IllegalActionError(
            f"{what}: {rules.preset} doubles for the full bet only (Art. 11; double_for_less=false): "
            f"the bet is {format_amount(stake)}, asked {format_amount(value)}"
        )
    if not ZERO < value <= stake:
        raise IllegalActionError(
            f"{what}: a double adds more than 0 and at most the bet (online §2.6): the bet is "
            f"{format_amount(stake)}, asked {format_amount(value)}"
        )
    for bettor, other in target.stakes.items():
        if bettor not in declined:
            exact(Fraction(other) * Fraction(value) / Fraction(stake), what=f"{what}: {bettor}'s matching stake")
    return value


def least_double(rd: Round, target: Hand, decider_name: str) -> Decimal:
    """The smallest double on offer: the full bet, or with ``double_for_less`` one unit of the bet's
    last decimal place, where every other bettor's matching stake stays an exact decimal (Art. 13)."""
    stake = target.stakes[decider_name]
    if not rd.rules.double_for_less:
        return stake
    for name, other in target.stakes.items():
        if name == decider_name or other == stake:
            continue  # the decider's own stake, or one the same: the ratio is 1
        try:
            exact(Fraction(other) / Fraction(stake))
        except ValueError:
            return stake
    exponent = stake.as_tuple().exponent
    return Decimal(1).scaleb(min(0, exponent if isinstance(exponent, int) else 0))
