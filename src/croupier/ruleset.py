"""Rules as data: named parameters, each with a parser, its allowed values and its article.

A game's rule set is a frozen dataclass; a preset is one instance; overrides replace parameters by
name (``--set NAME=VALUE`` on the command line gives strings, a transcript's ``overrides`` gives
JSON values; both are read by the same parsers). A bad name or value raises
:class:`~croupier.errors.RulesError` naming the parameter and its allowed values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from croupier.errors import CroupierError, RulesError
from croupier.money import Ratio, parse_amount
from croupier.numbers import read_int

R = TypeVar("R")


@dataclass(frozen=True)
class Param:
    """One rule parameter: its name, how to read a value, the values allowed and the article."""

    name: str
    parse: Callable[[object], Any]
    allowed: str
    article: str = ""

    def read(self, raw: object) -> Any:
        try:
            return self.parse(raw)
        except (CroupierError, ValueError, TypeError):
            where = f" ({self.article})" if self.article else ""
            raise RulesError(f"{self.name}{where}: {raw_text(raw)} is not allowed; allowed: {self.allowed}") from None


def raw_text(raw: object) -> str:
    if raw is None:
        return "none"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    return repr(raw) if isinstance(raw, str) else str(raw)


def boolean(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    raise ValueError(raw)


def integer(low: int, high: int) -> Callable[[object], int]:
    def parse(raw: object) -> int:
        if isinstance(raw, bool):
            raise ValueError(raw)
        if isinstance(raw, str):
            raw = read_int(raw)  # ASCII digits only: "٦" is not 6
        if isinstance(raw, int) and low <= raw <= high:
            return raw
        raise ValueError(raw)

    return parse


def choice(*values: str) -> Callable[[object], str]:
    def parse(raw: object) -> str:
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = str(raw)
        if isinstance(raw, str) and raw.strip() in values:
            return raw.strip()
        raise ValueError(raw)

    return parse


def ratio(*, optional: bool) -> Callable[[object], Ratio | None]:
    def parse(raw: object) -> Ratio | None:
        if optional and (raw is None or raw == "none"):
            return None
        return Ratio.parse(raw, name="ratio")

    return parse


def amount_or_none(raw: object) -> Decimal | None:
    if raw is None or raw == "none":
        return None
    value = parse_amount(raw)
    if value <= 0:
        raise ValueError(raw)
    return value


def apply_overrides(base: R, params: Mapping[str, Param], overrides: Mapping[str, object], *, game: str) -> R:
    """``base`` with each named parameter replaced; unknown names and bad values raise."""
    changes: dict[str, Any] = {}
    for name, raw in overrides.items():
        param = params.get(name)
        if param is None:
            known = ", ".join(sorted(params))
            raise RulesError(f"unknown {game} rule parameter {name!r}; the parameters are: {known}")
        changes[name] = param.read(raw)
    return dataclasses.replace(base, **changes)  # type: ignore[type-var]


def parse_assignments(items: list[str]) -> dict[str, str]:
    """Read ``NAME=VALUE`` strings from the command line."""
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"--set expects NAME=VALUE, got {item!r}")
        result[name.strip()] = value.strip()
    return result


def describe(value: object) -> str:
    """A parameter value in the form the user writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(value)
