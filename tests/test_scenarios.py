"""Every scenario of tests/scenarios (and any beside the project), replayed end to end through
``croupier replay --json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from tests.scenario_support import EXTRA, SCENARIOS, assert_subset, scenario_files

ALL = scenario_files("")


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_scenario_replays_to_its_expected_result(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    outcome = CliRunner().invoke(app, ["replay", "-", "--json"], input=json.dumps(scenario["transcript"]))
    assert outcome.exit_code == 0, outcome.output
    assert_subset(scenario["expected"], json.loads(outcome.stdout), path.stem)


def test_the_scenarios_are_there() -> None:
    own = [p for p in ALL if p.parent == SCENARIOS]
    assert len([p for p in own if p.name.startswith("bj-")]) >= 6
    assert len([p for p in own if p.name.startswith("bac-")]) >= 4


def test_a_scenario_beside_the_project_with_an_own_name_is_the_same_document() -> None:
    if not EXTRA.is_dir():
        pytest.skip(f"no scenarios beside the project at {EXTRA}")
    for path in EXTRA.glob("*.json"):
        own = SCENARIOS / path.name
        if own.exists():
            assert json.loads(own.read_text(encoding="utf-8")) == json.loads(path.read_text(encoding="utf-8")), (
                path.name
            )


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_scenario_replays_alike_with_its_bets_in_another_order(path: Path) -> None:
    """docs/transcript.md: the order of a round's bets never makes a bet legal or illegal (Art. 2.3 is judged
    on the whole set). Each scenario's bets reversed, with each box's occupant named as the original
    order made it (its first bettor), replay to the same expected result."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    transcript = scenario["transcript"]
    for spec in transcript.get("rounds", []):
        bets = spec.get("bets") or []
        if transcript.get("game") == "blackjack":
            seated = {str(k): v for k, v in (spec.get("seated") or {}).items()}
            for bet in bets:
                seated.setdefault(str(bet["box"]), bet["player"])
            spec["seated"] = seated
        spec["bets"] = list(reversed(bets))
    outcome = CliRunner().invoke(app, ["replay", "-", "--json"], input=json.dumps(transcript))
    assert outcome.exit_code == 0, outcome.output
    assert_subset(scenario["expected"], json.loads(outcome.stdout), path.stem)
