"""Where the shared scenarios are, and how an expected result is compared (the fields it gives)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
"""The project's own scenarios (docs/transcript.md): every test runs in a plain clone."""
EXTRA = Path(__file__).resolve().parents[2] / "shared" / "scenarios"
"""More scenarios in the same format, where a checkout has them beside the project: each is replayed
too, and one that has the name of a scenario of the project's must be the same document."""


def scenario_files(prefix: str) -> list[Path]:
    """The scenarios whose names start with ``prefix``: the project's, then any extra ones."""
    own = sorted(SCENARIOS.glob(f"{prefix}*.json"))
    names = {p.name for p in own}
    extra = sorted(p for p in EXTRA.glob(f"{prefix}*.json") if p.name not in names) if EXTRA.is_dir() else []
    return own + extra


def assert_subset(expected: Any, actual: Any, where: str = "") -> None:
    """Every field of ``expected`` is in ``actual`` with the same value (lists position by position)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            assert_subset(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for index, (exp, act) in enumerate(zip(expected, actual, strict=True)):
            assert_subset(exp, act, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
