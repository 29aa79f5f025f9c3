"""The par sheet: the document a regulator asks for, for one rule set.

``croupier report --rules PRESET [--set NAME=VALUE …] --out report.html`` writes one self-contained
HTML page (inline SVG plots drawn with matplotlib, no script, no outside asset, A4 print style):

- the rules, every parameter with its value, the preset's value where it differs, and its article;
- the exact house edge of every bet (blackjack: the exact combinatorial analysis; baccarat: exact
  counts), with the standard deviation;
- the effect of each rule parameter against the rule set, one changed at a time (exact);
- blackjack: the strategy chart the edge assumes, and the EV by dealer up-card;
- a simulation confirming the analysis (continuous shuffle: the simulated EV against the exact one,
  in standard errors), the hit frequencies, and the cut-card effect (the same rules dealt from a real
  shoe with its cut card and burns, against the continuous shuffle).

Analysis figures are exact (baccarat) or exact recursions summed in float64 (blackjack, about 1e-13);
simulated figures carry their standard error.

This module fills the document; its model and its HTML and Markdown renderings are
:mod:`croupier.document` (re-exported here).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.document import Report as Report
from croupier.document import Section as Section
from croupier.document import Table as Table
from croupier.document import render_html as render_html
from croupier.document import render_markdown as render_markdown
from croupier.errors import CroupierError
from croupier.files import check_out, write_whole
from croupier.plots import bar_plot, column_plot
from croupier.ruleset import Param, parse_assignments

if TYPE_CHECKING:
    from croupier.baccarat.rules import Spot

PRESET_GAMES = {"macau-1983": "blackjack", "live-online": "blackjack", "macau": "baccarat"}
"""Every preset of docs/rules.md and its game."""


class ReportError(CroupierError):
    """A par sheet cannot be made as asked."""


# --------------------------------------------------------------------------------------------------
# text helpers


def pct(value: float | Fraction, places: int = 4) -> str:
    """A fraction of a unit as a percentage: ``-0.0097013`` → ``-0.9701%``."""
    number = float(value) * 100
    text = f"{number:.{places}f}"
    if text.lstrip("-").strip("0.") == "":
        text = f"{0:.{places}f}"
    return text + "%"


def signed_pct(value: float, places: int = 4) -> str:
    text = pct(value, places)
    return text if text.startswith("-") or text.strip("0.%") == "" else "+" + text


def _rules_parts(
    params: Mapping[str, Param], current: Mapping[str, str], base: Mapping[str, str], preset: str
) -> tuple[str, Section]:
    """The summary's line on the rules, and the section that lists every parameter with its article and,
    where this rule set differs, the preset's value."""
    changed = {name: value for name, value in current.items() if base.get(name) != value}
    line = (
        f"Rules: the preset {preset}"
        + (" with " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "")
        + "."
    )
    rows = [
        [
            name,
            current[name],
            "" if base.get(name) == current[name] else base.get(name, ""),
            param.article,
            param.allowed,
        ]
        for name, param in params.items()
    ]
    section = Section("The rules")
    section.text(
        "Every parameter of the rule set, as docs/rules.md names it, with the article of the seed document it "
        "comes from. A value in the third column is the preset's, where this rule set differs."
    )
    section.table(Table("Rule parameters", ["parameter", "value", "preset", "article", "allowed"], rows))
    return line, section


# --------------------------------------------------------------------------------------------------
# blackjack

_NO_EFFECT = {
    "boxes": "other boxes see cards this box does not: no change to one box's expectation",
    "bet_behind": "who bets on a box does not change its cards",
    "max_boxes_per_player": "as above",
    "dealer_draws_when_moot": "the dealer draws only when no open hand can be changed by it",
    "burn_at_shoe_start": "unseen cards change no expectation; the cut-card simulation shows the rest",
    "burn_each_round": "as above",
    "burn_before_dealer_second": "as above",
    "burn_after_misdeal": "as above",
    "cut_card": "no effect on a round's expectation from a full shoe; see the cut-card effect below",
    "double_for_less": "a full double is always at least as good as a smaller one",
    "insurance_pays": "insurance is a separate bet (shown above), never taken by the strategy",
    "even_money": "as above; even money is worth exactly 1",
    "min_bet": "limits change the stake, not the expectation per unit",
    "max_bet": "as above",
}


def _blackjack_variations(rules: Any) -> list[tuple[str, object]]:
    """The one-at-a-time changes the report measures: (parameter, value)."""
    from croupier.blackjack.rules import DOUBLE_TOTALS

    current = rules.describe()
    options: list[tuple[str, list[object]]] = [
        ("decks", [1, 2, 4, 6, 8]),
        ("dealer_hits_soft_17", [True, False]),
        ("hole_card", ["none", "peek", "peek_ace"]),
        ("dealer_blackjack_takes", ["all", "original"]),
        ("double_on", list(DOUBLE_TOTALS)),
        ("double_after_split", [True, False]),
        ("max_split_hands", [1, 2, 3, 4]),
        ("split_aces_one_card", [True, False]),
        ("resplit_aces", [True, False]),
        ("surrender", ["none", "early_not_ace", "late"]),
        ("blackjack_pays", ["3:2", "6:5", "1:1"]),
        ("bonus_678_suited", ["none", "2:1", "3:1"]),
        ("bonus_777", ["none", "2:1", "3:1"]),
    ]
    from croupier.ruleset import describe

    changes = []
    for name, values in options:
        for value in values:
            if describe(value) != current[name]:
                changes.append((name, value))
    return changes


def blackjack_report(
    preset: str,
    assignments: Sequence[str],
    *,
    simulate: Callable[[Any], list[Section]] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """The par sheet of a blackjack rule set; ``simulate(rules)`` adds the simulation sections."""
    from croupier.blackjack.presets import PRESETS, blackjack_rules
    from croupier.blackjack.rules import PARAMS
    from croupier.math.blackjack import analyze_blackjack, shoe_text
    from croupier.math.strategy import CHART_CSS

    note = progress or (lambda _text: None)
    rules = blackjack_rules(preset, parse_assignments(list(assignments)))
    note("exact analysis")
    analysis = analyze_blackjack(rules)
    rules_line, rules_section = _rules_parts(PARAMS, rules.describe(), PRESETS[preset].describe(), preset)
    summary = [
        f"Exact expected value {pct(analysis.ev)} of the initial bet per round: a house edge of "
        f"{pct(analysis.house_edge)}, with the strategy below; standard deviation {analysis.sd:.4f} units per "
        f"initial hand; {shoe_text(analysis)}.",
        rules_line,
    ]
    sections: list[Section] = [
        rules_section,
        _blackjack_exact(analysis),
        _blackjack_effects(preset, assignments, analysis, note),
        _blackjack_strategy(analysis),
    ]
    if simulate is not None:
        sections.extend(simulate(rules))
    return Report(f"Par sheet: blackjack, {preset}", summary, sections, style=CHART_CSS)


def _blackjack_exact(analysis: Any) -> Section:
    """The exact figures of the main bet and insurance, and the EV by the dealer's up-card."""
    exact = Section("Exact house edge")
    exact.text(
        "Combinatorial analysis of one round of one box from a full shoe: every decision is the option of "
        "highest expectation for the up-card and the exact cards held (composition-dependent), split hands "
        "play as the same cards unsplit; insurance and even money are never taken by the strategy."
    )
    ins = analysis.insurance
    rows = [
        ["expected value per round (units of initial bet)", f"{analysis.ev:.10f}", pct(analysis.ev)],
        ["house edge", f"{analysis.house_edge:.10f}", pct(analysis.house_edge)],
        ["standard deviation per initial hand", f"{analysis.sd:.10f}", ""],
    ]
    if ins.offered and ins.ev_per_unit is not None:
        rows.append(["insurance: EV per unit insured", f"{ins.ev_per_unit:.10f}", pct(ins.ev_per_unit)])
        rows.append(["P(dealer natural | ace up)", f"{ins.p_natural:.10f}", pct(ins.p_natural)])
    if ins.even_money_offered:
        rows.append(["a natural declining even money (taking it is worth 1)", f"{ins.even_money_ev:.10f}", ""])
    exact.table(Table("The main bet", ["figure", "value", "%"], rows, numeric=frozenset({1, 2})))
    ups = list(analysis.ev_by_up)
    up_weights = _up_probabilities(analysis)
    conditional = [analysis.ev_by_up[u] / up_weights[u] if up_weights[u] else 0.0 for u in ups]
    exact.table(
        Table(
            "Expected value by the dealer's up-card",
            ["up-card", "P(up-card)", "EV given the up-card", "share of the game's EV"],
            [
                [u, f"{up_weights[u]:.6f}", pct(c), pct(analysis.ev_by_up[u])]
                for u, c in zip(ups, conditional, strict=True)
            ],
            numeric=frozenset({1, 2, 3}),
        )
    )
    exact.plot(column_plot(ups, [100 * c for c in conditional], "EV given the up-card (%)"), "EV by up-card")
    return exact


def _blackjack_effects(preset: str, assignments: Sequence[str], analysis: Any, note: Callable[[str], None]) -> Section:
    """Each parameter changed alone against the rule set: the exact EV then, and the change."""
    from croupier.blackjack.presets import blackjack_rules
    from croupier.blackjack.rules import PARAMS
    from croupier.math.blackjack import analyze_blackjack
    from croupier.ruleset import describe

    current = analysis.rules.describe()
    effects = Section("Effect of each rule")
    effects.text(
        "Each parameter changed alone against this rule set; the effect is the change of the exact expected "
        "value, in percentage points of the initial bet (positive: better for the player)."
    )
    effect_rows = []
    labels, deltas = [], []
    for name, value in _blackjack_variations(analysis.rules):
        note(f"rule effect {name}={value}")
        try:
            varied = blackjack_rules(preset, {**parse_assignments(list(assignments)), name: value})
        except CroupierError:
            continue
        result = analyze_blackjack(varied)
        delta = result.ev - analysis.ev
        changed_to = describe(varied.describe()[name])
        effect_rows.append([name, current[name], changed_to, pct(result.ev), signed_pct(delta), PARAMS[name].article])
        labels.append(f"{name}={changed_to}")
        deltas.append(100 * delta)
    effects.table(
        Table(
            "Rule effects (exact)",
            ["parameter", "this rule set", "changed to", "EV then", "effect", "article"],
            effect_rows,
            numeric=frozenset({3, 4}),
        )
    )
    effects.plot(bar_plot(labels, deltas, "effect on the player's EV (percentage points)"), "Rule effects")
    effects.table(
        Table(
            "Parameters that do not move one box's expectation",
            ["parameter", "why"],
            [[name, why] for name, why in _NO_EFFECT.items() if name in current],
        )
    )
    return effects


def _blackjack_strategy(analysis: Any) -> Section:
    """The strategy chart the edge assumes, with its notes."""
    from croupier.math.strategy import chart_body, strategy_chart

    chart = strategy_chart(analysis)
    strategy = Section("The strategy the edge assumes")
    for line in chart.details:
        strategy.text(line)
    strategy.fragment(chart_body(chart))
    return strategy


def _up_probabilities(analysis: Any) -> dict[str, float]:
    names = list(analysis.ev_by_up)
    if analysis.counts is None:
        return {n: (4 / 13 if n == "T" else 1 / 13) for n in names}
    total = sum(analysis.counts)
    return {
        n: c / total for n, c in zip(("A", "2", "3", "4", "5", "6", "7", "8", "9", "T"), analysis.counts, strict=True)
    }


# --------------------------------------------------------------------------------------------------
# baccarat


def bet_outcomes(analysis: Any, spot: str) -> list[tuple[Fraction, Fraction]]:
    """(probability, gain per unit) of every result of a bet on ``spot`` (a push gains 0)."""
    from croupier.baccarat.rules import BANKER_COMMISSION, LUCKY_6_THREE_CARDS, LUCKY_6_TWO_CARDS, SUPER_6_PAYS

    rules = analysis.rules
    p = analysis.probabilities
    six = p["banker_six_two_cards"] + p["banker_six_three_cards"]
    if spot == "player":
        return [(p["player"], Fraction(1)), (p["banker"], Fraction(-1)), (p["tie"], Fraction(0))]
    if spot == "banker":
        lose = (p["player"], Fraction(-1))
        if rules.commission == "5pct":
            return [(p["banker"], BANKER_COMMISSION.fraction), lose, (p["tie"], Fraction(0))]
        return [(p["banker"] - six, Fraction(1)), (six, SUPER_6_PAYS.fraction), lose, (p["tie"], Fraction(0))]
    if spot == "tie":
        return [(p["tie"], rules.tie_pays.fraction), (1 - p["tie"], Fraction(-1))]
    if spot in ("player_pair", "banker_pair"):
        return [(p[spot], rules.pair_pays.fraction), (1 - p[spot], Fraction(-1))]
    return [
        (p["banker_six_two_cards"], LUCKY_6_TWO_CARDS.fraction),
        (p["banker_six_three_cards"], LUCKY_6_THREE_CARDS.fraction),
        (1 - six, Fraction(-1)),
    ]


def bet_moments(analysis: Any, spot: str) -> tuple[Fraction, float]:
    """The exact EV per unit of a bet on ``spot`` and its standard deviation."""
    outcomes = bet_outcomes(analysis, spot)
    mean = sum((q * g for q, g in outcomes), Fraction(0))
    second = sum((q * g * g for q, g in outcomes), Fraction(0))
    return mean, math.sqrt(float(second - mean * mean))


_BACCARAT_VARIATIONS: tuple[tuple[str, Sequence[object]], ...] = (
    ("decks", (6, 8, 10, 12)),
    ("commission", ("5pct", "none_super6")),
    ("tie_pays", ("8:1", "9:1")),
    ("pair_pays", ("11:1", "12:1")),
    ("lucky_6", (True, False)),
)


def baccarat_report(
    preset: str,
    assignments: Sequence[str],
    *,
    simulate: Callable[[Any], list[Section]] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """The par sheet of a baccarat rule set; ``simulate(rules)`` adds the simulation sections."""
    from croupier.baccarat.presets import PRESETS, baccarat_rules
    from croupier.baccarat.rules import PARAMS
    from croupier.math.baccarat import analyze_baccarat

    note = progress or (lambda _text: None)
    overrides = parse_assignments(list(assignments))
    rules = baccarat_rules(preset, overrides)
    note("exact analysis")
    analysis = analyze_baccarat(rules)
    rules_line, rules_section = _rules_parts(PARAMS, rules.describe(), PRESETS[preset].describe(), preset)
    spots = list(analysis.spots)
    moments = {spot: bet_moments(analysis, spot) for spot in spots}
    summary = [
        "House edge per unit staked, ties counted as pushes: "
        + "; ".join(f"{spot} {pct(-moments[spot][0])}" for spot in spots)
        + f". A full shoe of {rules.decks} decks.",
        rules_line,
    ]
    sections: list[Section] = [
        rules_section,
        _baccarat_exact(analysis, moments),
        _baccarat_effects(preset, overrides, rules.describe(), moments, note),
    ]
    if simulate is not None:
        sections.extend(simulate(rules))
    return Report(f"Par sheet: baccarat, {preset}", summary, sections)


def _baccarat_exact(analysis: Any, moments: Mapping[Spot, tuple[Fraction, float]]) -> Section:
    """The exact counts of every outcome, and every bet's pay, house edge and standard deviation."""
    from croupier.math import decimal_text
    from croupier.math.baccarat import pays_text

    spots = list(analysis.spots)
    exact = Section("Exact house edge")
    exact.text(
        "Exact counts of the ordered six-card sequences of a full shoe (the convention of the published "
        "tables); probabilities and edges are exact fractions, printed rounded."
    )
    counts = analysis.counts
    exact.table(
        Table(
            "Outcomes",
            ["outcome", "sequences", "probability"],
            [
                [name, f"{getattr(counts, name):,}", decimal_text(analysis.probabilities[name])]
                for name in (
                    "banker",
                    "player",
                    "tie",
                    "player_pair",
                    "banker_pair",
                    "banker_six_two_cards",
                    "banker_six_three_cards",
                )
            ]
            + [["total", f"{counts.total:,}", "1"]],
            numeric=frozenset({1, 2}),
        )
    )
    exact.table(
        Table(
            "Bets",
            ["bet", "pays", "house edge", "standard deviation"],
            [
                [spot, pays_text(analysis.rules, spot), pct(-moments[spot][0]), f"{moments[spot][1]:.4f}"]
                for spot in spots
            ],
            numeric=frozenset({2, 3}),
        )
    )
    exact.plot(
        bar_plot(spots, [100 * float(moments[s][0]) for s in spots], "player's EV per unit staked (%)"), "EV per bet"
    )
    return exact


def _baccarat_effects(
    preset: str,
    overrides: Mapping[str, str],
    current: Mapping[str, str],
    moments: Mapping[Spot, tuple[Fraction, float]],
    note: Callable[[str], None],
) -> Section:
    """Each parameter changed alone: every bet's exact house edge then, and the change."""
    from croupier.baccarat.presets import baccarat_rules
    from croupier.baccarat.rules import PARAMS
    from croupier.math.baccarat import analyze_baccarat
    from croupier.ruleset import describe

    effects = Section("Effect of each rule")
    effects.text("Each parameter changed alone; the change of each bet's exact house edge, in percentage points.")
    rows = []
    for name, values in _BACCARAT_VARIATIONS:
        for value in values:
            if describe(value) == current[name]:
                continue
            note(f"rule effect {name}={value}")
            varied = analyze_baccarat(baccarat_rules(preset, {**overrides, name: value}))
            for spot in varied.spots:
                before = -moments[spot][0] if spot in moments else None
                after = -bet_moments(varied, spot)[0]
                rows.append(
                    [
                        f"{name}={describe(value)}",
                        spot,
                        "not offered" if before is None else pct(before),
                        pct(after),
                        "new bet" if before is None else signed_pct(float(after - before)),
                        PARAMS[name].article,
                    ]
                )
    effects.table(
        Table(
            "Rule effects (exact)",
            ["change", "bet", "house edge now", "then", "change", "article"],
            rows,
            numeric=frozenset({2, 3, 4}),
        )
    )
    return effects


def check_target(path: str | os.PathLike[str]) -> Path:
    """``path`` as a place an HTML report can be written, or :class:`ReportError` before any work."""
    target = Path(path)
    if target.suffix.lower() not in (".html", ".htm"):
        raise ReportError(f"--out {target}: the report is an HTML page; name it .html")
    return check_out(target, ReportError)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed into place)."""
    write_whole(path, text.encode("utf-8"), ReportError)


def game_of(preset: str) -> str:
    game = PRESET_GAMES.get(preset)
    if game is None:
        raise ReportError(f"unknown preset {preset!r}; the presets are: {', '.join(PRESET_GAMES)}")
    return game
