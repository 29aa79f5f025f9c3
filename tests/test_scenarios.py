"""Every example of ../shared/scenarios, replayed end to end through ``croupier replay --json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from tests.scenario_support import assert_subset, scenario_files

ALL = scenario_files("")


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_scenario_replays_to_its_expected_result(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    outcome = CliRunner().invoke(app, ["replay", "-", "--json"], input=json.dumps(scenario["transcript"]))
    assert outcome.exit_code == 0, outcome.output
    assert_subset(scenario["expected"], json.loads(outcome.stdout), path.stem)


def test_the_blackjack_scenarios_are_there() -> None:
    if ALL:
        assert len([p for p in ALL if p.name.startswith("bj-")]) >= 6


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_scenario_replays_alike_with_its_bets_in_another_order(path: Path) -> None:
    """TRANSCRIPT.md: the order of a round's bets never makes a bet legal or illegal (Art. 2.3 is judged
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
