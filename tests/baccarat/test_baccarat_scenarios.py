"""Every baccarat example of ../shared/scenarios replays to its expected result (the fields it gives)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import SCENARIOS, replay_doc

SCENARIO_FILES = sorted(SCENARIOS.glob("bac-*.json")) if SCENARIOS.is_dir() else []


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


@pytest.mark.skipif(not SCENARIO_FILES, reason="../shared/scenarios is not beside the project")
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario_replays_to_expected(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    result = replay_doc(scenario["transcript"])
    assert_subset(scenario["expected"], result, path.stem)


@pytest.mark.skipif(not SCENARIO_FILES, reason="../shared/scenarios is not beside the project")
def test_there_are_baccarat_scenarios() -> None:
    assert len(SCENARIO_FILES) >= 4
