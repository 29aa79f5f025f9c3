"""Exact money: amounts are :class:`~decimal.Decimal` in table units, ratios are fractions.

No amount ever passes through binary floating point. A payment ``stake × a/b`` is exact because a
ratio's denominator may hold only the factors 2 and 5 (checked when the ratio is parsed), so every
product is a terminating decimal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from croupier.errors import MoneyError, RulesError
from croupier.numbers import MAX_TEXT, is_decimal_text, read_int

ZERO = Decimal(0)
MAX_DIGITS = 15
"""Amounts have at most this many digits before the decimal point…"""
MAX_PLACES = 8
"""…and this many after it; anything else is refused rather than carried."""


def parse_amount(raw: object, *, what: str = "amount") -> Decimal:
    """Read an amount from an int, a :class:`Decimal` or a decimal string; never from a float.

    A string is read strictly (:mod:`croupier.numbers`): ASCII digits, at most 40 characters, an exponent
    of at most three digits; so ``"١٠"`` is refused, and so is ``"1e999997"`` before any arithmetic.

    >>> parse_amount("12.50"), parse_amount(25), parse_amount("1E+2")
    (Decimal('12.50'), Decimal('25'), Decimal('100'))
    >>> parse_amount(0.1, what="bet")
    Traceback (most recent call last):
    croupier.errors.MoneyError: bet must be an exact decimal (a JSON number or a string), got 0.1
    """
    if isinstance(raw, bool | float):
        raise MoneyError(f"{what} must be an exact decimal (a JSON number or a string), got {raw!r}")
    if isinstance(raw, int) and abs(raw) >= 10**MAX_TEXT:
        raise MoneyError(f"{what} is out of range: at most {MAX_DIGITS} digits before the point and {MAX_PLACES} after")
    if isinstance(raw, int | Decimal):
        value = Decimal(raw)
    elif isinstance(raw, str):
        if not is_decimal_text(raw):
            shown = repr(raw) if len(raw) <= MAX_TEXT else f"{raw[:MAX_TEXT]!r}…"
            raise MoneyError(f"{what} {shown} is not a decimal number (ASCII digits, e.g. 25 or 12.50)")
        try:
            value = Decimal(raw.strip())
        except InvalidOperation:
            raise MoneyError(f"{what} {raw!r} is not a decimal number") from None
    else:
        raise MoneyError(f"{what} must be a number, got {raw!r}")
    if not value.is_finite():
        raise MoneyError(f"{what} {raw!r} is not a finite number")
    if value != 0 and (value.adjusted() >= MAX_DIGITS or value.normalize().as_tuple().exponent < -MAX_PLACES):  # type: ignore[operator]
        raise MoneyError(
            f"{what} {raw!r} is out of range: at most {MAX_DIGITS} digits before the point and {MAX_PLACES} after"
        )
    return value.quantize(Decimal(1)) if value.as_tuple().exponent > 0 else value  # type: ignore[operator]


def format_amount(value: Decimal) -> str:
    """Print an amount as its shortest exact decimal: ``142.5``, ``-50``, ``0``.

    >>> format_amount(Decimal("142.50")), format_amount(Decimal("-5E+1")), format_amount(Decimal("0.00"))
    ('142.5', '-50', '0')
    """
    if value == 0:
        return "0"
    text = format(value.normalize(), "f")
    return text


def exact(value: Fraction, *, what: str = "amount") -> Decimal:
    """The decimal equal to ``value``, or a :class:`MoneyError` if it has no finite decimal form.

    >>> exact(Fraction(3, 8))
    Decimal('0.375')
    """
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise MoneyError(f"{what} {value} has no exact decimal form")
    places = max(twos, fives)
    scaled = value.numerator * 10**places // value.denominator
    return Decimal(scaled).scaleb(-places)


@dataclass(frozen=True, slots=True)
class Ratio:
    """A payout ratio ``a:b`` (pays ``a`` for every ``b`` staked)."""

    pays: int
    per: int

    @classmethod
    def parse(cls, raw: object, *, name: str) -> Ratio:
        if isinstance(raw, Ratio):
            return raw
        if not isinstance(raw, str) or raw.count(":") != 1:
            raise RulesError(f"{name}: expected a ratio such as '3:2', got {raw!r}")
        left, right = raw.split(":")
        try:
            pays, per = read_int(left), read_int(right)  # ASCII digits: "١٠:1" is not 10:1
        except ValueError:
            raise RulesError(f"{name}: expected a ratio such as '3:2', got {raw!r}") from None
        if pays < 0 or per <= 0:
            raise RulesError(f"{name}: a ratio needs a non-negative payout and a positive stake, got {raw!r}")
        frac = Fraction(pays, per)
        den = frac.denominator
        for factor in (2, 5):
            while den % factor == 0:
                den //= factor
        if den != 1:
            raise RulesError(
                f"{name}: {raw} would pay amounts with no exact decimal form; use a ratio whose "
                "reduced stake divides a power of ten (3:2, 6:5, 8:1, 0.95 as 19:20)"
            )
        return cls(pays, per)

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.pays, self.per)

    def of(self, stake: Decimal) -> Decimal:
        """The payout on ``stake``: exact, since the ratio's stake divides a power of ten."""
        return exact(Fraction(stake) * self.pays / self.per, what=f"{self} of {stake}")

    def __str__(self) -> str:
        return f"{self.pays}:{self.per}"


def half(amount: Decimal) -> Decimal:
    """Half an amount, exactly: amounts have at most MAX_DIGITS + MAX_PLACES digits, well inside precision."""
    return amount / 2


def scale(amount: Decimal, numerator: Decimal, denominator: Decimal, *, what: str) -> Decimal:
    """``amount × numerator / denominator`` exactly, or a :class:`MoneyError` if not a finite decimal."""
    return exact(Fraction(amount) * Fraction(numerator) / Fraction(denominator), what=what)
