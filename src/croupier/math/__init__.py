"""Exact game mathematics: the odds and house edge of every bet.

The baccarat analysis is exact in :class:`int` and :class:`~fractions.Fraction`. The blackjack
analysis is an exact recursion whose probabilities are summed in float64 (relative error about
1e-13; its module says why and how it is rounded); money is never a float anywhere. This package
holds what the analyses share: the remaining cards of a shoe as 13 counts by rank (A, 2, …, 9, T, J,
Q, K, the order of :data:`croupier.cards.RANKS`), the checks on such a composition, and the decimal
text of an exact fraction. The games are in :mod:`croupier.math.baccarat` (and the blackjack analysis
beside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from croupier.cards import RANKS
from croupier.errors import CroupierError, MoneyError
from croupier.money import exact

__all__ = [
    "RANKS",
    "SIGNIFICANT_DIGITS",
    "CompositionError",
    "check_composition",
    "decimal_text",
    "full_shoe",
    "parse_remaining",
]

SIGNIFICANT_DIGITS = 12
"""A fraction with no finite decimal form is printed rounded (half-even) to this many significant digits."""


class CompositionError(CroupierError):
    """The remaining cards given for an analysis are not a shoe the rules can deal from."""


def full_shoe(decks: int) -> tuple[int, ...]:
    """The counts by rank of ``decks`` new 52-card decks: four of each rank per deck (docs/rules.md §1)."""
    return (4 * decks,) * len(RANKS)


def parse_remaining(text: str) -> tuple[int, ...]:
    """Read ``--remaining``: 13 comma-separated whole numbers, the cards left of A, 2, …, 9, T, J, Q, K."""
    items = [item.strip() for item in text.split(",")]
    if len(items) != len(RANKS):
        raise CompositionError(
            f"remaining: expected {len(RANKS)} comma-separated counts, one for each rank "
            f"{','.join(RANKS)}; got {len(items)} in {text!r}"
        )
    counts = []
    for rank, item in zip(RANKS, items, strict=True):
        digits = item[1:] if item[:1] in "+-" else item
        if not digits.isdecimal() or not digits.isascii():
            raise CompositionError(f"remaining: the count for rank {rank} must be a whole number, got {item!r}")
        counts.append(int(item))
    return tuple(counts)


def check_composition(counts: Sequence[int], *, decks: int | None, min_cards: int) -> tuple[int, ...]:
    """``counts`` as a tuple, once it is shown to be cards a shoe can hold and deal a round from.

    Every count is a non-negative integer, one per rank; with ``decks`` given, no rank has more cards
    than ``decks`` decks hold (four a deck: a shoe cannot hold a fifth ace per deck); and at least
    ``min_cards`` cards remain. Anything else raises :class:`CompositionError`, naming the rank.
    """
    values = tuple(counts)
    if len(values) != len(RANKS):
        raise CompositionError(
            f"remaining: expected {len(RANKS)} counts, one for each rank {','.join(RANKS)}; got {len(values)}"
        )
    for rank, count in zip(RANKS, values, strict=True):
        if isinstance(count, bool) or not isinstance(count, int):
            raise CompositionError(f"remaining: the count for rank {rank} must be a whole number, got {count!r}")
        if count < 0:
            raise CompositionError(f"remaining: rank {rank} has {count} cards; a count cannot be negative")
        if decks is not None and count > 4 * decks:
            raise CompositionError(
                f"remaining: rank {rank} has {count} cards, more than the {4 * decks} that {decks} "
                f"deck{'s' if decks != 1 else ''} hold (docs/rules.md §1, Art. 1)"
            )
    total = sum(values)
    if total < min_cards:
        cards = f"{total} card{'s' if total != 1 else ''}"
        raise CompositionError(f"remaining: {cards} left; a round may need {min_cards}, so none can be dealt")
    return values


def decimal_text(value: Fraction, digits: int = SIGNIFICANT_DIGITS) -> str:
    """``value`` as decimal text: exact where it terminates, else rounded half-even to ``digits`` significant digits.

    A fraction terminates when its reduced denominator has no prime factor but 2 and 5; then every
    digit is printed (``Fraction(1, 8)`` → ``"0.125"``). Otherwise the text is the correctly rounded
    value (``Fraction(1, 3)`` → ``"0.333333333333"``). Never in exponent form.
    """
    if value == 0:
        return "0"
    try:
        return _plain(exact(value))
    except MoneyError:
        pass
    with localcontext() as context:
        context.prec = digits
        context.rounding = ROUND_HALF_EVEN
        rounded = Decimal(value.numerator) / Decimal(value.denominator)
    return _plain(rounded)


def _plain(number: Decimal) -> str:
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text
