"""Every baccarat scenario of tests/scenarios (and any beside the project) replays to its expected result
(the fields it gives)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scenario_support import assert_subset, scenario_files

from .helpers import replay_doc

SCENARIO_FILES = scenario_files("bac-")


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario_replays_to_expected(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    result = replay_doc(scenario["transcript"])
    assert_subset(scenario["expected"], result, path.stem)


def test_there_are_baccarat_scenarios() -> None:
    assert len(SCENARIO_FILES) >= 4
