"""Every payout a rule set makes, and whether a table's chip can pay each one exactly.

docs/rules.md §4, "Money a payout cannot express" (Art. 18): a table's chip and minimum must make every
payout of its rule set a whole number of the currency's smallest unit (0.95:1, Super 6's 1:2, 3:2,
3:1); a table whose settings cannot is refused when it is created, with the reason. The same holds
for blackjack (docs/rules.md §2–3): a 3:2 blackjack, 6:5, the 3:1 bonuses, insurance of half a bet paid
2:1, and a surrender's half.

:func:`payout_ratios` lists a rule set's payouts (for docs and for a server that shows them);
:func:`verify_table_money` refuses a chip (and minimum) that cannot pay one of them, naming the
payout and the amount; :func:`smallest_chip` is the smallest chip that pays them all.

Money never passes through binary floating point: amounts are :class:`~decimal.Decimal`, ratios
:class:`~fractions.Fraction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import lcm
from typing import NamedTuple

from croupier.baccarat.rules import (
    BANKER_COMMISSION,
    LUCKY_6_THREE_CARDS,
    LUCKY_6_TWO_CARDS,
    SUPER_6_PAYS,
)
from croupier.baccarat.rules import Rules as BaccaratRules
from croupier.blackjack.rules import Rules as BlackjackRules
from croupier.errors import RulesError
from croupier.money import exact, format_amount

CENT = Decimal("0.01")
"""The default smallest unit of the currency."""

HALF = Fraction(1, 2)


class Payout(NamedTuple):
    """One payout of a rule set: what it pays for (``name``), its ratio to the stake, and its article."""

    name: str
    ratio: Fraction
    article: str

    @property
    def shown(self) -> str:
        """The ratio as the rules write it: ``8:1``, ``3:2``, ``1:2``, ``0.95:1``."""
        return ratio_text(self.ratio)


def ratio_text(ratio: Fraction) -> str:
    """``a:b`` as a table shows it: ``8:1``, ``3:2``, ``6:5``, ``1:2``, and ``0.95:1`` for a commission."""
    if ratio.denominator == 1:
        return f"{ratio.numerator}:1"
    if ratio.numerator == 1 or ratio > 1:
        return f"{ratio.numerator}:{ratio.denominator}"
    return f"{format_amount(exact(ratio))}:1"


def payout_ratios(rules: BaccaratRules | BlackjackRules) -> list[Payout]:
    """Every payout ``rules`` makes: ``(name, ratio, article)``, the ratio of the winnings to the stake.

    Baccarat (docs/rules.md §4): player 1:1; banker 0.95:1 (5% commission), or with ``none_super6`` 1:1
    and 1:2 on a winning banker 6; the tie (``tie_pays``); the pairs (``pair_pays``); Lucky 6 12:1
    and 20:1 where offered. Blackjack (docs/rules.md §2–3): a win 1:1, a blackjack (``blackjack_pays``),
    even money 1:1 where offered, insurance (``insurance_pays``) where offered, the suited 6-7-8 and
    7-7-7 bonuses where offered, and a surrender's half where surrender is allowed (its ratio is what
    comes back: 1:2 of the bet).
    """
    if isinstance(rules, BaccaratRules):
        return _baccarat_payouts(rules)
    return _blackjack_payouts(rules)


def _baccarat_payouts(rules: BaccaratRules) -> list[Payout]:
    payouts = [Payout("a player win", Fraction(1), "Art. 17.1")]
    if rules.commission == "5pct":
        payouts.append(Payout("a banker win", BANKER_COMMISSION.fraction, "Art. 18"))
    else:
        payouts.append(Payout("a banker win", Fraction(1), "Art. 17.1"))
        payouts.append(Payout("a winning banker 6 (Super 6)", SUPER_6_PAYS.fraction, "Art. 17, 18"))
    payouts.append(Payout("a tie", rules.tie_pays.fraction, "Art. 17.2"))
    payouts.append(Payout("a player pair", rules.pair_pays.fraction, "Art. 13, 17.3"))
    payouts.append(Payout("a banker pair", rules.pair_pays.fraction, "Art. 13, 17.3"))
    if rules.lucky_6:
        payouts.append(Payout("Lucky 6 on a two-card banker 6", LUCKY_6_TWO_CARDS.fraction, "2018 amendment"))
        payouts.append(Payout("Lucky 6 on a three-card banker 6", LUCKY_6_THREE_CARDS.fraction, "2018 amendment"))
    return payouts


def _blackjack_payouts(rules: BlackjackRules) -> list[Payout]:
    payouts = [
        Payout("a win", Fraction(1), "Art. 7; online §2.3"),
        Payout("a blackjack", rules.blackjack_pays.fraction, "Art. 6; online §2.3"),
    ]
    if rules.even_money:
        payouts.append(Payout("even money", Fraction(1), "Art. 6"))
    if rules.insurance_pays is not None:
        payouts.append(Payout("insurance", rules.insurance_pays.fraction, "Art. 8; online §2.5"))
    if rules.bonus_678_suited is not None:
        payouts.append(Payout("a suited 6-7-8", rules.bonus_678_suited.fraction, "Art. 9"))
    if rules.bonus_777 is not None:
        payouts.append(Payout("a 7-7-7", rules.bonus_777.fraction, "Art. 9"))
    if rules.surrender != "none":
        payouts.append(Payout("a surrender", HALF, "Art. 12"))
    return payouts


# --------------------------------------------------------------------------------------------------
# the check


BANKER_PAYOUTS = frozenset({"a banker win", "a winning banker 6 (Super 6)"})
"""The payouts of a banker bet: stepped by the minimum where ``banker_bet_multiple_of_min`` (Art. 18)."""


@dataclass(frozen=True, slots=True)
class _Check:
    """An amount that must be a whole number of units: ``share`` of a bet of one step."""

    payout: str
    """How the reason names the payout: ``a banker win pays 0.95:1 (Art. 18)``."""
    share: Fraction
    says: str
    """What that amount is, with ``{bet}`` and ``{amount}``: ``{bet} would be paid {amount}``."""
    banker: bool = False


def _checks(rules: BaccaratRules | BlackjackRules) -> list[_Check]:
    checks: list[_Check] = []
    for payout in payout_ratios(rules):
        said = f"{payout.name} pays {ratio_text(payout.ratio)} ({payout.article})"
        if payout.name == "insurance":
            said = f"insurance is at most half a bet and pays {ratio_text(payout.ratio)} ({payout.article})"
            checks.append(_Check(said, HALF, "{bet} could be insured for {amount}"))
            checks.append(_Check(said, HALF * payout.ratio, "insurance of half {bet} would be paid {amount}"))
        elif payout.name == "a surrender":
            said = f"a surrender gives back half the bet ({payout.article})"
            checks.append(_Check(said, HALF, "{bet} would get back {amount}"))
        else:
            banker = isinstance(rules, BaccaratRules) and payout.name in BANKER_PAYOUTS
            checks.append(_Check(said, payout.ratio, "{bet} would be paid {amount}", banker))
    return checks


def smallest_chip(rules: BaccaratRules | BlackjackRules, unit: Decimal = CENT) -> Decimal:
    """The smallest chip that pays every payout of ``rules`` in whole ``unit`` s, whatever the minimum.

    A chip ``c`` pays ``share`` of itself exactly when ``c / unit × share`` is a whole number, that is
    when ``c / unit`` is a multiple of ``share``'s denominator; so the chips that work are exactly the
    multiples of ``unit`` times the least common multiple of every share's denominator (0.20 for a
    0.95:1 commission in cents; 0.02 for a 3:2 blackjack).
    """
    _check_unit(unit)
    return unit * lcm(*(check.share.denominator for check in _checks(rules)))


def verify_table_money(
    rules: BaccaratRules | BlackjackRules,
    chip: Decimal,
    min_bet: Decimal | None = None,
    unit: Decimal = CENT,
) -> None:
    """Refuse a table whose chip (and minimum) cannot pay every payout of ``rules`` exactly (Art. 18).

    ``chip``: the table's smallest chip; every bet is a whole number of chips. ``min_bet``: the
    table's minimum (``None``: the rule set's own ``min_bet``); it must itself be a whole number of
    chips. ``unit``: the currency's smallest unit (a cent by default). Raises :class:`RulesError`
    naming the payout, the bet and the amount it cannot pay, and the chip (or minimum) that would.

    Why one chip suffices: every bet is ``k`` chips, and a payout ``a:b`` on it is ``k × (chip × a/b)``,
    so it is a whole number of units for every ``k`` as soon as it is for one chip. The other way
    round, whenever two consecutive numbers of chips ``k`` and ``k + 1`` are both allowed bets, one of
    them is paid a fraction of a unit unless one chip is paid whole (their payouts differ by exactly
    ``chip × a/b``); so the check refuses no table that could pay every bet, unless its limits leave a
    single bet size. Where a banker bet must be a multiple of the minimum (``banker_bet_multiple_of_min``,
    Art. 18, and the minimum is a whole number of chips), banker bets step by the minimum instead, and
    the banker's payouts are checked on it. Insurance is at most half a bet: half of one chip must be a
    whole number of units, and so must its payout; a surrender gives back half the bet, which must be
    whole too. A double for less is not checked: its amount is the bettor's own choice of chips.
    """
    _check_unit(unit)
    if chip <= 0 or chip % unit:
        raise RulesError(
            f"the chip must be a positive whole number of {_money(unit, unit)} (the currency's smallest unit), "
            f"got {_money(chip, unit)}"
        )
    minimum = min_bet if min_bet is not None else rules.min_bet
    if minimum is not None and (minimum <= 0 or minimum % chip):
        raise RulesError(
            f"the minimum bet {_money(minimum, unit)} is not a whole number of chips of {_money(chip, unit)}"
        )
    banker_by_min = isinstance(rules, BaccaratRules) and rules.banker_bet_multiple_of_min and minimum is not None
    for check in _checks(rules):
        by_min = check.banker and banker_by_min
        step = minimum if by_min and minimum is not None else chip
        amount = Fraction(step) * check.share
        if (amount / Fraction(unit)).denominator == 1:
            continue
        if by_min:
            bet = f"a bet of {_money(step, unit)} (the minimum; banker bets are multiples of it, Art. 18)"
            units = lcm(int(chip / unit), check.share.denominator)
            fix = f"use a minimum that is a multiple of {_money(unit * units, unit)}"
        else:
            bet = f"a bet of {_money(step, unit)} (one chip)"
            fix = f"use a chip that is a multiple of {_money(smallest_chip(rules, unit), unit)}"
        says = check.says.format(bet=bet, amount=format_amount(exact(amount)))
        raise RulesError(
            f"{check.payout}; {says}, not a whole number of {_money(unit, unit)} (the currency's smallest unit); {fix}"
        )


def _money(amount: Decimal, unit: Decimal) -> str:
    """An amount as a table writes it: whole, or with the unit's places (``0.20``, not ``0.2``)."""
    if amount == amount.to_integral_value():
        return format_amount(amount)
    shown = amount.quantize(unit) if unit < 1 else amount
    return str(shown) if shown == amount else format_amount(amount)


def _check_unit(unit: Decimal) -> None:
    if unit <= 0:
        raise RulesError(f"the currency's smallest unit must be positive, got {format_amount(unit)}")
