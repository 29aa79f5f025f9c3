"""Strategy charts: the chart against a published basic strategy, fallbacks, Macau's
composition-dependent exceptions, the picture files and ``croupier strategy``."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.blackjack.presets import blackjack_rules
from croupier.cli import app
from croupier.math.blackjack import analyze_blackjack
from croupier.math.strategy import StrategyChart, chart_html, strategy_chart
from croupier.terminal.chart_files import ChartError, write_chart

US_SIX_DECKS = {  # 6 decks, S17, double any two, DAS, split to 4, no resplit of aces, no surrender, peek
    "decks": 6,
    "hole_card": "peek",
    "dealer_blackjack_takes": "original",
    "dealer_hits_soft_17": False,
    "double_on": "any_two",
    "double_after_split": True,
    "max_split_hands": 4,
    "resplit_aces": False,
    "surrender": "none",
    "bonus_678_suited": "none",
    "bonus_777": "none",
}

# The Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy" (dealer stands on soft 17, double after
# split allowed, no surrender), https://wizardofodds.com/games/blackjack/strategy/4-decks/ — columns
# 2, 3, 4, 5, 6, 7, 8, 9, T, A.
WIZARD_S17_DAS = {
    "hard": {
        "8": "H H H H H H H H H H",
        "9": "H Dh Dh Dh Dh H H H H H",
        "10": "Dh Dh Dh Dh Dh Dh Dh Dh H H",
        "11": "Dh Dh Dh Dh Dh Dh Dh Dh Dh H",
        "12": "H H S S S H H H H H",
        "13": "S S S S S H H H H H",
        "14": "S S S S S H H H H H",
        "15": "S S S S S H H H H H",
        "16": "S S S S S H H H H H",
        "17": "S S S S S S S S S S",
    },
    "soft": {
        "soft 13": "H H H Dh Dh H H H H H",
        "soft 14": "H H H Dh Dh H H H H H",
        "soft 15": "H H Dh Dh Dh H H H H H",
        "soft 16": "H H Dh Dh Dh H H H H H",
        "soft 17": "H Dh Dh Dh Dh H H H H H",
        "soft 18": "S Ds Ds Ds Ds S S H H H",
        "soft 19": "S S S S S S S S S S",
        "soft 20": "S S S S S S S S S S",
    },
    "pair": {
        "A,A": "Ph Ph Ph Ph Ph Ph Ph Ph Ph Ph",
        "2,2": "Ph Ph Ph Ph Ph Ph H H H H",
        "3,3": "Ph Ph Ph Ph Ph Ph H H H H",
        "4,4": "H H H Ph Ph H H H H H",
        "5,5": "Dh Dh Dh Dh Dh Dh Dh Dh H H",
        "6,6": "Ph Ph Ps Ps Ps H H H H H",  # against 3: split, else hit (12 against 3 hits)
        "7,7": "Ps Ps Ps Ps Ps Ph H H H H",
        "8,8": "Ps Ps Ps Ps Ps Ph Ph Ph Ph Ph",
        "9,9": "Ps Ps Ps Ps Ps S Ps Ps S S",
        "T,T": "S S S S S S S S S S",
    },
}


def codes(chart: StrategyChart, kind: str, label: str) -> str:
    section = next(s for s in chart.sections if s.kind == kind)
    cells = next(cells for row, cells in section.rows if row == label)
    return " ".join("" if cell is None else cell.code for cell in cells)


@pytest.fixture(scope="module")
def us_chart() -> StrategyChart:
    return strategy_chart(analyze_blackjack(blackjack_rules("live-online", US_SIX_DECKS)))


@pytest.fixture(scope="module")
def macau_chart() -> StrategyChart:
    return strategy_chart(analyze_blackjack(blackjack_rules("macau-1983")))


@pytest.mark.parametrize(("kind", "label"), [(kind, label) for kind, rows in WIZARD_S17_DAS.items() for label in rows])
def test_the_published_basic_strategy(us_chart: StrategyChart, kind: str, label: str) -> None:
    """Every row of the published 4–8 deck chart, with its fallbacks (Dh, Ds, Ph, Ps)."""
    assert codes(us_chart, kind, label) == WIZARD_S17_DAS[kind][label]


def test_the_chart_heads_and_rows(us_chart: StrategyChart) -> None:
    assert us_chart.ups == ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
    assert [s.title for s in us_chart.sections] == ["Hard totals", "Soft totals", "Pairs"]
    assert "decks=6" in us_chart.details[1] and "dealer_hits_soft_17=false" in us_chart.details[1]
    assert us_chart.details[0].startswith("Shoe: 6 decks. Expected value -0.40")


def test_macau_surrender_fallbacks_and_no_double_but_on_11(macau_chart: StrategyChart) -> None:
    """Macau (Art. 11: double on 11 only; Art. 12: early surrender, not against an ace; no hole card)."""
    assert codes(macau_chart, "hard", "16").split()[8] == "Rh"  # 16 against a ten: surrender, else hit
    assert codes(macau_chart, "hard", "16").split()[9] == "H"  # never surrender against an ace
    assert "D" not in codes(macau_chart, "hard", "10")  # 10 may not be doubled
    assert "D" not in codes(macau_chart, "soft", "soft 17")
    assert codes(macau_chart, "pair", "A,A").split()[9] == "H"  # with no hole card, aces are not split against an ace


def test_macau_bonus_makes_exceptions(macau_chart: StrategyChart) -> None:
    """Art. 9 (suited 6-7-8 pays 3:1): a suited 7,6 hits against a 2 where 13 stands; the cell is
    marked and the hand listed."""
    section = next(s for s in macau_chart.sections if s.kind == "hard")
    cell = dict(section.rows)["13"][0]
    assert cell is not None and cell.code == "S" and cell.exceptions
    assert "7,6 suited against 2: hit (not stand)" in macau_chart.exceptions


def test_terminal_rendering(macau_chart: StrategyChart) -> None:
    from croupier.terminal.render import render_chart

    console = Console(record=True, width=240)
    render_chart(macau_chart, console)
    text = console.export_text()
    for words in ("Blackjack strategy: macau-1983", "Hard totals", "soft 18", "8,8", "Rh surrender"):
        assert words in text


@pytest.mark.parametrize(
    ("suffix", "start"), [("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml"), ("html", b"<!doctype")]
)
def test_files(macau_chart: StrategyChart, tmp_path: Path, suffix: str, start: bytes) -> None:
    target = write_chart(macau_chart, tmp_path / f"chart.{suffix}")
    data = target.read_bytes()
    assert data.startswith(start)
    assert [p.name for p in tmp_path.iterdir()] == [f"chart.{suffix}"]  # no temporary file left
    if suffix != "png":
        text = data.decode()
        assert "Hard totals" in text or "Hard&#160;totals" in text
    else:
        assert len(data) > 50_000  # a page of pixels, not an empty image


def test_html_page_is_self_contained(macau_chart: StrategyChart) -> None:
    page = chart_html(macau_chart)
    assert "http" not in page and "<script" not in page
    assert page.count('<table class="chart">') == 3
    assert 'title="16 against T: surrender' in page


@pytest.mark.parametrize(
    ("name", "message"),
    [("chart.pdf", "a chart is written as .png, .svg, .html"), ("missing/chart.png", "does not exist")],
)
def test_bad_targets(macau_chart: StrategyChart, tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(ChartError, match=message):
        write_chart(macau_chart, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_no_target(macau_chart: StrategyChart, tmp_path: Path) -> None:
    (tmp_path / "chart.svg").mkdir()
    with pytest.raises(ChartError, match="is a folder"):
        write_chart(macau_chart, tmp_path / "chart.svg")


# --------------------------------------------------------------------------------------------------
# the command


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["strategy", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_terminal_and_file(tmp_path: Path) -> None:
    target = tmp_path / "live.html"
    code, out, err = run("--rules", "live-online", "--out", str(target))
    assert code == 0, err
    assert "Blackjack strategy: live-online" in out and "Pairs" in out
    assert out.rstrip().endswith(f"Chart written to {target}")
    assert "live-online" in target.read_text()


def test_cli_overrides_change_the_chart() -> None:
    code, out, err = run("--rules", "live-online", "--set", "surrender=late")
    assert code == 0, err
    assert "Rh" in out and "surrender=late" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "chart.gif"], "--out chart.gif: a chart is written as .png, .svg, .html"),
        (["--out", "no/such/folder/chart.png"], "the folder no/such/folder does not exist"),
        (["--set", "double_on=12"], "double_on"),
        (["--rules", "atlantic"], "unknown blackjack preset 'atlantic'"),
        (["--decks", "0"], "decks: 0 is outside"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1
