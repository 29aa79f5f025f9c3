"""The par sheet: ``croupier report`` for every preset of docs/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.baccarat.presets import baccarat_rules
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import PARAMS as BLACKJACK_PARAMS
from croupier.cli import app
from croupier.math.baccarat import analyze_baccarat
from croupier.math.blackjack import analyze_blackjack
from croupier.report import (
    PRESET_GAMES,
    Report,
    baccarat_report,
    bet_moments,
    blackjack_report,
    pct,
    render_html,
    signed_pct,
)


@pytest.fixture(scope="module")
def live() -> Report:
    return blackjack_report("live-online", [])


def cells(page: str) -> list[str]:
    return re.findall(r"<td[^>]*>([^<]*)</td>", page)


def test_blackjack_rules_table_names_every_parameter_and_article(live: Report) -> None:
    page = render_html(live)
    for name, param in BLACKJACK_PARAMS.items():
        assert f"<td>{name}</td>" in page
        if param.article:
            assert param.article.replace("§", "&#167;") in page or param.article in page


def test_blackjack_exact_figures_are_the_analysis(live: Report) -> None:
    analysis = analyze_blackjack(blackjack_rules("live-online"))
    page = render_html(live)
    assert pct(analysis.house_edge) in live.summary[0]
    assert f"{analysis.ev:.10f}" in cells(page)
    assert "Expected value by the dealer&#x27;s up-card" in page or "Expected value by the dealer's up-card" in page


def test_blackjack_rule_effects_one_at_a_time(live: Report) -> None:
    """Each effect is the analysis of the rule set with that one parameter changed."""
    base = analyze_blackjack(blackjack_rules("live-online")).ev
    late = analyze_blackjack(blackjack_rules("live-online", {"surrender": "late"})).ev
    page = render_html(live)
    row = re.search(r"<tr><td>surrender</td><td>none</td><td>late</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>", page)
    assert row is not None
    assert row.group(1) == pct(late) and row.group(2) == signed_pct(late - base)
    assert signed_pct(late - base).startswith("+")  # late surrender helps the player
    h17 = re.search(
        r"<tr><td>dealer_hits_soft_17</td><td>true</td><td>false</td><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>", page
    )
    assert h17 is not None and h17.group(1).startswith("+")  # live-online hits soft 17; standing helps


def test_blackjack_strategy_and_plots_are_inline(live: Report) -> None:
    page = render_html(live)
    assert page.count('<table class="chart">') == 3
    assert page.count("<svg") >= 2
    assert not re.search(r"""(src|href)=["']https?:""", page)  # nothing fetched from outside
    assert "<script" not in page


def test_baccarat_report_every_bet() -> None:
    report = baccarat_report("macau", ["lucky_6=true"])
    page = render_html(report)
    analysis = analyze_baccarat(baccarat_rules("macau", {"lucky_6": True}))
    for spot in analysis.spots:
        ev, _sd = bet_moments(analysis, spot)
        assert f"{spot} {pct(-ev)}" in report.summary[0]
    assert "2,292,252,566,437,888" in page  # the 8-deck banker count of the exact analysis
    assert "commission=none_super6" in page


def test_baccarat_standard_deviations_published() -> None:
    """The Wizard of Odds, baccarat (https://wizardofodds.com/games/baccarat/basics/): standard deviation
    per unit, 8 decks: banker 0.93, player 0.95, tie (8:1) 2.64."""
    analysis = analyze_baccarat(baccarat_rules("macau"))
    assert bet_moments(analysis, "banker")[1] == pytest.approx(0.93, abs=0.005)
    assert bet_moments(analysis, "player")[1] == pytest.approx(0.95, abs=0.005)
    assert bet_moments(analysis, "tie")[1] == pytest.approx(2.64, abs=0.005)


def test_every_preset_is_known() -> None:
    from croupier.baccarat.presets import PRESETS as BACCARAT
    from croupier.blackjack.presets import PRESETS as BLACKJACK

    assert set(PRESET_GAMES) == set(BLACKJACK) | set(BACCARAT)


# --------------------------------------------------------------------------------------------------
# the command


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["report", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_writes_the_page(tmp_path: Path) -> None:
    target = tmp_path / "macau.html"
    code, out, err = run("--rules", "macau", "--rounds", "0", "--out", str(target))
    assert code == 0, err
    assert out == f"Par sheet written to {target}\n"
    page = target.read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "croupier report --rules macau --rounds=0 --seed=par-sheet --out macau.html" in page
    assert [p.name for p in tmp_path.iterdir()] == ["macau.html"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "vegas", "--out", "x.html"], "unknown preset 'vegas'"),
        (["--rules", "macau", "--out", "x.pdf"], "the report is an HTML page"),
        (["--rules", "macau", "--out", "nowhere/x.html"], "nowhere does not exist"),
        (["--rules", "macau-1983", "--set", "decks=9", "--out", "x.html"], "decks (Art. 1; online §1.6)"),
        (["--rules", "macau", "--set", "commission=4pct", "--out", "x.html"], "commission (Art. 17, 18)"),
    ],
)
def test_cli_errors(tmp_path: Path, args: list[str], message: str) -> None:
    args = [str(tmp_path / a) if a.endswith((".html", ".pdf")) else a for a in args]
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_blackjack_simulation_sections_confirm_the_analysis() -> None:
    from croupier.report_simulation import blackjack_simulation

    report = blackjack_report("live-online", [], simulate=blackjack_simulation(400_000, "report-test"))
    titles = [section.title for section in report.sections]
    assert titles[-3:] == ["Simulation confirming the analysis", "Hit frequencies", "The cut-card effect"]
    page = render_html(report)
    z = re.search(
        r"<tr><td>EV</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>", page
    )
    assert z is not None and abs(float(z.group(1))) < 4
    assert "naturals per box" in page and page.count("<svg") >= 3


def test_baccarat_simulation_sections_with_live_edges() -> None:
    from croupier.report_simulation import baccarat_simulation

    report = baccarat_report("macau", [], simulate=baccarat_simulation(300_000, "report-test", 2_000))
    titles = [section.title for section in report.sections]
    assert "When the remaining shoe favours the player" in titles
    page = render_html(report)
    for spot in ("player", "banker", "tie"):
        row = re.search(
            rf"<tr><td>{spot}</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>", page
        )
        assert row is not None and abs(float(row.group(1))) < 4


def test_cli_report_with_a_short_simulation(tmp_path: Path) -> None:
    target = tmp_path / "live.html"
    code, _out, err = run("--rules", "live-online", "--rounds", "100000", "--out", str(target))
    assert code == 0, err
    page = target.read_text()
    assert "Simulation confirming the analysis" in page and "--rounds=100000" in page
    assert oct(target.stat().st_mode & 0o777) == "0o644"
