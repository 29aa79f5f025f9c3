"""Where the shared scenarios are, and how an expected result is compared (the fields it gives)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / "shared" / "scenarios"


def scenario_files(prefix: str) -> list[Path]:
    """The shared scenarios whose names start with ``prefix``; under CI=true their absence fails."""
    if SCENARIOS.is_dir():
        return sorted(SCENARIOS.glob(f"{prefix}*.json"))
    if os.environ.get("CI") == "true":
        pytest.fail(f"{SCENARIOS} is missing: CI runs with ../shared beside the project")
    return []


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
