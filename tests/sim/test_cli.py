"""``croupier simulate blackjack|baccarat``: JSON and text output, reproducible by seed, one-line errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from croupier.cli import app


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_blackjack_json_is_reproducible() -> None:
    args = ("blackjack", "--rules", "live-online", "--rounds", "20000", "--seed", "7", "--json")
    code, out, err = run(*args)
    assert code == 0, err
    first = json.loads(out)
    code, out, _ = run(*args[:-1], "--workers", "1", "--json")
    assert code == 0
    again = json.loads(out)
    assert first["net"] == again["net"] and first["ev"] == again["ev"]
    assert first["rounds"] == 20000 and -0.2 < float(first["ev"]) < 0.2


def test_blackjack_text() -> None:
    code, out, err = run("blackjack", "--rules", "macau-1983", "--rounds", "5000", "--boxes", "3")
    assert code == 0, err
    assert "Blackjack simulation, macau-1983: 5,000 rounds, 3 box(es)" in out


def test_baccarat_json_and_text() -> None:
    code, out, err = run("baccarat", "--coups", "20000", "--seed", "3", "--set", "lucky_6=true", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert set(document["bets"]) == {"player", "banker", "tie", "player_pair", "banker_pair", "lucky_6"}
    code, out, err = run("baccarat", "--coups", "20000", "--seed", "3")
    assert code == 0, err
    assert "20,000 coups of macau (shoe), seed 3" in out and "exact" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["blackjack", "--rules", "vegas", "--rounds", "10"], "unknown blackjack preset 'vegas'"),
        (["blackjack", "--shuffle", "riffle", "--rounds", "10"], "--shuffle 'riffle': shoe or continuous"),
        (["blackjack", "--rounds", "0"], "--rounds 0: at least 1"),
        (["blackjack", "--boxes", "9", "--rounds", "10"], "box"),
        (["baccarat", "--set", "decks=2", "--coups", "10"], "decks (Art. 1)"),
        (["baccarat", "--coups", "0"], "--coups 0: at least 1"),
    ],
)
def test_errors_are_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_baccarat_live_edges_in_text() -> None:
    code, out, err = run("baccarat", "--coups", "3000", "--seed", "5", "--live-edges")
    assert code == 0, err
    assert "the exact EV of every bet for the cards left" in out and "coups with EV > 0" in out
