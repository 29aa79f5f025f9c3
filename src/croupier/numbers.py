"""Numbers read from text strictly, before any arithmetic is done on them.

Python's own readers are generous: ``int("١٠")`` and ``Decimal("١٠")`` are 10 (any Unicode decimal
digit counts), ``"²".isdigit()`` is true while ``int("²")`` fails, and ``Decimal("1e999997")`` is a
small object whose ``int()`` is a million-digit integer that takes many seconds to build. Everything
a person or a request writes as a number goes through the two readers here first: ASCII digits only,
a bounded length, and a bounded exponent, so that nothing larger than a few dozen digits ever
reaches the arithmetic.
"""

from __future__ import annotations

import re

MAX_TEXT = 40
"""The longest number text read at all (after surrounding spaces are stripped)."""
MAX_INT_DIGITS = 18
"""An integer has at most this many digits (a 64-bit integer holds every one)."""

DECIMAL_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
"""A decimal number: ASCII digits, an optional point, an optional exponent of at most three digits.
(``[0-9]``, not ``\\d``: in a text pattern ``\\d`` matches every Unicode decimal digit.)"""
INT_TEXT = re.compile(rf"[+-]?[0-9]{{1,{MAX_INT_DIGITS}}}")


def is_decimal_text(text: str) -> bool:
    """Whether ``text`` (stripped) is a decimal number this module reads: see :data:`DECIMAL_TEXT`."""
    text = text.strip()
    return len(text) <= MAX_TEXT and DECIMAL_TEXT.fullmatch(text) is not None


def is_int_text(text: str) -> bool:
    """Whether ``text`` (stripped) is an integer of ASCII digits, at most :data:`MAX_INT_DIGITS` of them."""
    return INT_TEXT.fullmatch(text.strip()) is not None


def read_int(text: str) -> int:
    """``text`` as an integer, or :class:`ValueError`: ASCII digits only (never ``"١٠"`` nor ``"²"``)."""
    if not is_int_text(text):
        raise ValueError(f"{text!r} is not a whole number of ASCII digits")
    return int(text.strip())
