"""Bad input: each a one-line error naming round, bet and rule (docs/transcript.md, "Errors").

Each case is checked twice: the Python error of :func:`replay_baccarat`, and ``croupier replay``
(exit status 2, one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import TranscriptError

from .helpers import baccarat_doc, replay_doc

STAND = ["AH", "2H", "6S", "7D", "KS", "QD"]  # ace turned, one burn, then a coup where both stand
MANY = ["AH", "2H"] + ["6S", "7D", "KS", "QD"] * 6


def _bet(player: str, on: str, amount: Any) -> dict[str, Any]:
    return {"player": player, "on": on, "amount": amount}


CASES: dict[str, tuple[dict[str, Any], str]] = {
    "unknown spot (Art. 13)": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "jackpot", 10)]}]),
        "round 1, bet 1 (ana, jackpot 10): unknown spot 'jackpot'; the spots are player, banker, tie, "
        "player_pair, banker_pair (Art. 13)",
    ),
    "below the minimum (Art. 18)": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "player", 5)]}], overrides={"min_bet": 10}),
        "round 1, bet 1 (ana, player 5): macau's minimum bet is 10 (Art. 18)",
    ),
    "banker not a multiple of the minimum (Art. 18)": (
        baccarat_doc(
            MANY,
            [{"bets": [_bet("bo", "player", 10)]}, {"bets": [_bet("ana", "banker", 15)]}],
            overrides={"min_bet": 10},
        ),
        "round 2, bet 1 (ana, banker 15): macau banker bets must be a multiple of the minimum 10 (Art. 18)",
    ),
    "over the imbalance cap (Art. 14)": (
        baccarat_doc(
            STAND,
            [{"bets": [_bet("ana", "banker", 300), _bet("bo", "player", 100), _bet("cy", "banker", 200)]}],
            overrides={"max_side_imbalance": 300},
        ),
        "round 1, bet 3 (cy, banker 200): macau caps the difference between banker and player stakes at 300 "
        "(Art. 14); this bet would make it 400 (banker 500, player 100)",
    ),
    "a fourth demo coup (Art. 2.2)": (
        baccarat_doc(MANY, [{"demo": True}] * 4),
        "round 4: macau allows at most 3 demonstration coup(s) at the start of a shoe (Art. 2.2; demo_coups = 3)",
    ),
    "a bet on a demo coup (Art. 2.2)": (
        baccarat_doc(STAND, [{"demo": True, "bets": [_bet("ana", "banker", 100)]}]),
        "round 1, bet 1 (ana, banker 100): a demonstration coup takes no bets (Art. 2.2)",
    ),
    "a demo coup after a coup with bets (Art. 2.2)": (
        baccarat_doc(MANY, [{"bets": [_bet("ana", "banker", 100)]}, {"demo": True}]),
        "round 2: demonstration coups are dealt only at the start of a shoe, before the first coup with bets "
        "(Art. 2.2)",
    ),
    "lucky 6 not offered (2018 amendment)": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "lucky_6", 10)]}]),
        "round 1, bet 1 (ana, lucky_6 10): macau does not offer lucky_6 (lucky_6 = false; 2018 amendment)",
    ),
    "over the maximum (Art. 14, 18)": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "tie", 600)]}], overrides={"max_bet": 500}),
        "round 1, bet 1 (ana, tie 600): macau's maximum bet is 500 (Art. 14, 18)",
    ),
    "a negative amount": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "banker", -5)]}]),
        "round 1, bet 1 (ana, banker -5): a bet must be a positive amount, got -5",
    ),
    "an amount that is not a number": (
        baccarat_doc(STAND, [{"bets": [_bet("ana", "banker", "ten")]}]),
        "round 1, bet 1 (ana, banker ten): amount 'ten' is not a decimal number (ASCII digits, e.g. 25 or 12.50)",
    ),
    "a bet carried from a tie increased off the minimum's multiple (Art. 18)": (
        baccarat_doc(
            ["AH", "2H", "7S", "7D", "KS", "QD", "6S", "7D", "KS", "QD"],
            [{"bets": [_bet("ana", "banker", 100)]}, {"bets": [_bet("ana", "banker", 50)]}],
            overrides={"tie_bets": "increase_only", "min_bet": 100},
        ),
        "round 2, bet 1 (ana, banker 50): macau banker bets must be a multiple of the minimum 100 (Art. 18); "
        "this bet makes ana's banker stake 150",
    ),
    "the shoe too short": (
        baccarat_doc(MANY[:12], [{"bets": []}] * 3),
        "round 3: the shoe has no card left: 12 card(s) drawn of 12 given",
    ),
    "a shoe-start burn beyond the shoe": (
        baccarat_doc(["KH", "2C"], [{"bets": []}]),
        "round 1: the shoe has no card left: 2 card(s) drawn of 2 given",
    ),
    "a round after the shoe's last round (Art. 3.1)": (
        baccarat_doc(MANY, [{}] * 4, cut_card=3),
        "round 3: the shoe is over: the cut card came out in coup 1 and macau plays one more coup after it "
        "(Art. 3.1; at_cut_card = one_more); a new shoe is needed",
    ),
    "an unknown preset": (
        {**baccarat_doc(STAND, []), "rules": "vegas"},
        "transcript: unknown baccarat preset 'vegas'; the presets are: macau",
    ),
    "an unknown parameter": (
        baccarat_doc(STAND, [], overrides={"comission": "none_super6"}),
        "transcript: unknown baccarat rule parameter 'comission'; the parameters are: at_cut_card, "
        "banker_bet_multiple_of_min, burn, burn_each_coup, commission, cut_card, decks, demo_coups, lucky_6, "
        "max_bet, max_side_imbalance, min_bet, pair_pays, shuffler, squeeze, tie_bets, tie_pays",
    ),
    "a bad parameter value": (
        baccarat_doc(STAND, [], overrides={"at_cut_card": "two_more"}),
        "transcript: at_cut_card (Art. 3.1): 'two_more' is not allowed; allowed: one_more, last",
    ),
    "a bad card": (
        baccarat_doc(["AH", "1X"], []),
        "transcript: shoe: card 2: unknown card '1X': a card is a rank A 2-9 T J Q K then a suit S H D C",
    ),
    "too many copies of a card": (
        baccarat_doc(["AS"] * 7, [], overrides={"decks": 6}),
        "transcript: shoe: the shoe holds more copies of AS than 6 deck(s) contain (6)",
    ),
    "an unknown round key": (
        baccarat_doc(STAND, [{"bets": [], "actions": []}]),
        "round 1: unknown key 'actions'; a baccarat round holds bets, demo, seated, misdeal_after_cards",
    ),
}


@pytest.mark.parametrize(("doc", "message"), list(CASES.values()), ids=list(CASES))
def test_replay_error_is_one_line(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(TranscriptError) as caught:
        replay_doc(doc)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("doc", "message"), list(CASES.values()), ids=list(CASES))
def test_cli_replay_error_exit_2_one_stderr_line_no_stdout(doc: dict[str, Any], message: str) -> None:
    result = CliRunner().invoke(app, ["replay", "--json", "-"], input=json.dumps(doc))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message + "\n"


def test_cli_replay_error_through_the_installed_command(tmp_path: Path) -> None:
    """The real entry point, in its own process."""
    doc, message = CASES["banker not a multiple of the minimum (Art. 18)"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    script = Path(sys.executable).with_name("croupier")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from croupier.cli import main; main()"]
    completed = subprocess.run([*command, "replay", str(path)], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == message + "\n"


def test_cli_replay_not_json() -> None:
    result = CliRunner().invoke(app, ["replay", "-"], input="{nope")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("transcript: not valid JSON") and result.stderr.count("\n") == 1
