"""The types a request body's fields are read with: strict, so that a request means one thing only.

* An amount is decimal text read by :func:`croupier.money.parse_amount` while the body is validated:
  ASCII digits, at most 15 before the point and 8 after, an exponent of at most three digits. So
  ``"١٠"`` (Arabic-Indic digits), ``"１０"`` (full-width) and ``"1e999997"`` (a million-digit number
  once made an integer) are refused with a 422 naming the field, before any arithmetic is done.
* A box, seat or hand is a JSON integer: ``"1"``, ``1.0`` and ``true`` are refused (pydantic's strict
  mode), where the lax default took each of them for box 1.
* A yes/no is a JSON ``true`` or ``false``, never ``"yes"``, ``1`` or ``"true"``.
* Seconds are a JSON number (an integer or not), never text nor ``true``.

The actor reads amounts with the same reader again (:func:`croupier.server.betting.positive_amount`), since a
command may reach it from another process.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from croupier.errors import MoneyError
from croupier.money import parse_amount

AMOUNT_TEXT = 20
"""The longest amount text a request may send."""


def _amount_text(text: str) -> str:
    try:
        parse_amount(text, what="amount")
    except MoneyError as error:
        raise ValueError(str(error)) from None
    return text


Amount = Annotated[
    str,
    Field(min_length=1, max_length=AMOUNT_TEXT, description="Decimal text of ASCII digits, e.g. 25 or 12.50"),
    AfterValidator(_amount_text),
]
"""An amount as decimal text, checked strictly (see the module's docstring); kept as the text sent."""

StrictInt = Annotated[int, Field(strict=True)]
"""A JSON integer: never a string, a float or a boolean."""

StrictBool = Annotated[bool, Field(strict=True)]
"""A JSON true or false: never a string or a number."""

Seconds = Annotated[float, Field(strict=True, ge=1, le=3600)]
"""A number of seconds, a JSON number from 1 to 3600 (an integer or not): never a string nor a boolean."""
