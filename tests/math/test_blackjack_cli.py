"""``croupier analyze blackjack``: the anchors through the command line, decks beyond a
table's 8 and ``inf``, a remaining composition, and the one-line error contract."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from croupier.blackjack.presets import blackjack_rules
from croupier.cli import app
from croupier.math.blackjack import analyze_blackjack

US = [  # the anchor games on the live-online preset: hole card, peek, a natural takes the original bet
    "--set",
    "hole_card=peek",
    "--set",
    "dealer_blackjack_takes=original",
    "--set",
    "double_on=any_two",
    "--set",
    "surrender=none",
    "--set",
    "dealer_hits_soft_17=false",
    "--set",
    "resplit_aces=false",
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["analyze", "blackjack", *args])
    return result.exit_code, result.stdout, result.stderr


def ev_percent(out: str) -> float:
    return 100 * float(json.loads(out)["ev"])


def test_anchor_six_decks_through_the_command() -> None:
    code, out, err = run("--rules", "live-online", *US, "--set", "decks=6", "--set", "max_split_hands=4", "--json")
    assert code == 0, err
    assert ev_percent(out) == pytest.approx(-0.4029, abs=0.002)
    document = json.loads(out)
    assert document["rules"]["decks"] == "6"
    assert float(document["house_edge"]) == -float(document["ev"])
    assert float(document["sd"]) > 1


@pytest.mark.parametrize("how", [["--decks", "inf"], ["--set", "decks=inf"]])
def test_anchor_infinite_deck_through_the_command(how: list[str]) -> None:
    args = [*US, "--set", "double_after_split=false", "--set", "max_split_hands=2", *how, "--json"]
    code, out, err = run("--rules", "live-online", *args)
    assert code == 0, err
    assert ev_percent(out) == pytest.approx(-0.6902, abs=0.002)
    assert json.loads(out)["shoe"] == {"decks": "inf", "cards": None}


def test_decks_beyond_a_table_approach_the_infinite_shoe() -> None:
    """10000 decks (the largest the analysis takes; a table deals from at most 8) is the infinite shoe
    to about 1e-4 of a percent; the rules keep the preset's 8 decks, the shoe is the one analysed."""
    code, out, err = run("--rules", "live-online", "--decks", "10000", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["shoe"]["decks"] == 10000
    infinite = analyze_blackjack(blackjack_rules("live-online"), decks=math.inf)
    assert float(document["ev"]) == pytest.approx(infinite.ev, abs=2e-5)


def test_presets_and_the_strategy_document() -> None:
    code, out, err = run("--json")  # macau-1983 by default
    assert code == 0, err
    document = json.loads(out)
    assert document["rules"]["preset"] == "macau-1983"
    assert ev_percent(out) == pytest.approx(-0.97013, abs=1e-4)  # docs/math.md
    entries = document["strategy"]
    # every hand and up-card with the EV of every option it has
    assert {e["up"] for e in entries} == set("A23456789T")
    sixteen = next(e for e in entries if e["cards"] == "T,6" and e["up"] == "T")
    assert sixteen["best"] in sixteen["ev"]
    assert {"stand", "hit", "surrender"} <= set(sixteen["ev"])  # Macau: early surrender, not against an ace
    assert "double" not in sixteen["ev"]  # macau-1983 doubles on 11 only
    against_ace = next(e for e in entries if e["cards"] == "T,6" and e["up"] == "A")
    assert "surrender" not in against_ace["ev"]


def test_remaining_composition() -> None:
    """A full shoe given as counts is the same analysis as the decks it holds."""
    code, out, err = run("--rules", "live-online", "--set", "decks=2", "--remaining", ",".join(["8"] * 13), "--json")
    assert code == 0, err
    whole = analyze_blackjack(blackjack_rules("live-online", {"decks": 2}))
    assert float(json.loads(out)["ev"]) == pytest.approx(whole.ev, abs=1e-9)
    assert json.loads(out)["shoe"]["cards"]["T"] == 32


def test_terminal_charts() -> None:
    code, out, err = run("--rules", "live-online")
    assert code == 0, err
    assert err == ""
    for text in ("exact analysis of one round from 8 decks", "Hard totals", "Soft totals", "Pairs", "house edge"):
        assert text in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "nope=1"], "unknown blackjack rule parameter 'nope'"),
        (["--rules", "vegas"], "unknown blackjack preset 'vegas'"),
        (["--set", "surrender=sometimes"], "surrender"),
        (["--decks", "0"], "decks: 0 is outside 1-10000"),
        (["--decks", "10001"], "decks: 10001 is outside 1-10000"),
        (["--set", "decks=six"], "decks: expected a whole number 1-10000 or 'inf'"),
        (["--decks", "6", "--set", "decks=6"], "decks: give it once"),
        (["--decks", "inf", "--remaining", ",".join(["4"] * 13)], "remaining: a composition is the cards left"),
        (["--remaining", ",".join(["4"] * 12)], "remaining: expected 13 comma-separated counts"),
        (["--remaining", ",".join(["4"] * 12 + ["-1"])], "remaining: rank K has -1 cards"),
        (["--set", "decks=1", "--remaining", ",".join(["5"] + ["4"] * 12)], "remaining: rank A has 5 cards"),
        (["--remaining", ",".join(["1"] * 13)], "composition: 13 cards left"),
        (["--set", "novalue"], "--set expects NAME=VALUE"),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.endswith("\n") and err.count("\n") == 1
