"""``croupier play baccarat``: scripted sessions against a seeded shoe."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from decimal import Decimal

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import MoneyError, RulesError
from croupier.money import format_amount
from croupier.terminal.baccarat_play import play


def scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """An ``ask`` that gives ``answers`` in turn (then ends input), and the prompts it was shown."""
    prompts: list[str] = []
    feed: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask, prompts


def session(answers: list[str], *overrides: str, bankroll: str = "1000", seed: str = "7") -> tuple[str, list[str]]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    ask, prompts = scripted(answers)
    play("macau", list(overrides), bankroll, seed, console=console, ask=ask, pause=0)
    return out.getvalue(), prompts


def test_demo_coup_then_a_bet_then_quit() -> None:
    text, prompts = session(["d", "100", "", "", "", "", "q"])
    assert "First card turned" in text
    assert "That was a demonstration coup: no bets." in text
    assert prompts[:2] == ["  Player: ", "  Player: "]
    assert prompts[2:6] == ["  Banker: ", "  Tie: ", "  Player pair: ", "  Banker pair: "]
    for title in ("Bead plate", "Big road", "Big eye boy", "Small road", "Cockroach pig", "Ask"):
        assert title in text
    assert "  Player 100: " in text
    assert "You leave the table with" in text


def test_every_offered_spot_is_prompted_lucky_6() -> None:
    _, prompts = session(["", "", "", "", "", "", "q"], "lucky_6=true")
    assert prompts[:6] == ["  Player: ", "  Banker: ", "  Tie: ", "  Player pair: ", "  Banker pair: ", "  Lucky 6: "]


def test_bad_amounts_are_refused_and_asked_again() -> None:
    text, prompts = session(["ten", "5000", "15", "", "", "", "", "q"], "min_bet=10", bankroll="1000")
    assert "amount 'ten' is not a decimal number" in text
    assert "you have 1000 left to bet" in text
    assert prompts[:3] == ["  Player: "] * 3
    assert "  Player 15: " in text  # a player bet need only reach the minimum (Art. 18)


def test_banker_multiple_of_minimum_is_refused_in_play_art_18() -> None:
    text, _ = session(["", "15", "20", "", "", "", "q"], "min_bet=10")
    assert "macau banker bets must be a multiple of the minimum 10 (Art. 18)" in text
    assert "  Banker 20: " in text


def test_balance_follows_the_results_through_a_whole_shoe() -> None:
    """A hundred coups of 10 on banker: the shoe ends and a new one starts; the balance adds up."""
    answers = []
    for _ in range(100):
        answers += ["", "10", "", "", ""]
    text, _ = session(answers, bankroll="5000")
    assert "That was the last coup of the shoe." in text
    assert text.count("A new shoe is shuffled and loaded.") == 2
    gains = [line.split()[-1] for line in text.splitlines() if line.startswith("  Banker 10: ")]
    assert len(gains) == 100
    total = sum((Decimal(gain) for gain in gains), Decimal(0))
    final = text.strip().splitlines()[-1]
    signed = format_amount(total) if total <= 0 else "+" + format_amount(total)
    assert final == f"You leave the table with {format_amount(5000 + total)} ({signed} over the session)."


def test_bad_rules_and_bankroll() -> None:
    with pytest.raises(RulesError, match="unknown baccarat rule parameter"):
        session([], "nope=1")
    with pytest.raises(MoneyError, match="bankroll must be positive"):
        session([], bankroll="0")


def test_cli_play_baccarat_quits() -> None:
    result = CliRunner().invoke(app, ["play", "baccarat", "--seed", "3"], input="q\n")
    assert result.exit_code == 0
    assert "Baccarat, macau rules" in result.stdout and "You leave the table with 1000" in result.stdout
    bad = CliRunner().invoke(app, ["play", "baccarat", "--set", "decks=3"], input="q\n")
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr == "decks (Art. 1): '3' is not allowed; allowed: 6-12\n"


def test_increase_only_keeps_the_bet_that_stood_on_a_tie_art_18() -> None:
    """Under increase_only the player's banker bet that stood on a tie is placed again by itself."""
    answers = []
    for _ in range(40):
        answers += ["", "10", "", "", ""]
    text, _ = session(answers, "tie_bets=increase_only", bankroll="5000")
    assert "stands after the tie: it may be increased, not reduced (Art. 18)." in text


def test_automatic_shuffler_roads_run_across_coups_art_2_3() -> None:
    answers = []
    for _ in range(5):
        answers += ["", "10", "", "", ""]
    text, _ = session(answers, "shuffler=automatic")
    assert "A new shoe" not in text and "First card turned" not in text
    lines = text.splitlines()
    last_plate = max(i for i, line in enumerate(lines) if line == "Bead plate")
    rows = lines[last_plate + 1 : lines.index("Big road", last_plate)]
    assert sum(len(row.split()) for row in rows) == 5  # the bead plate keeps every coup of the session
