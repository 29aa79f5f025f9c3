"""Strategy charts: the basic strategy of a rule set as a player or a regulator reads it.

The chart is built from the exact analysis (:func:`croupier.math.blackjack.analyze_blackjack`): for
each two-card hand total (hard, soft) and each pair against each up-card, the option of highest
expectation over the two-card hands of that total, weighted by their probabilities. A double, a
surrender or a split is printed with its fallback, the better of the plays that remain when it is not
allowed (after a hit, after a split, when the hands are at the split limit): ``Dh`` double, else hit;
``Ds`` double, else stand; ``Rh``/``Rs``/``Rp`` surrender, else hit, stand or split; ``Ph``/``Ps``
split, else hit or stand. A cell marked ``*`` has two-card hands that play otherwise (the strategy is
composition-dependent); they are listed under the chart.

This module builds the chart and its HTML (:func:`chart_html`, :func:`chart_body`), with no I/O: the
terminal tables are drawn by :mod:`croupier.terminal.render`, the PNG/SVG/HTML files written by
:mod:`croupier.terminal.chart_files`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from croupier.blackjack.presets import PRESETS
from croupier.math.blackjack import UP_ORDER, VALUE_NAMES, BlackjackAnalysis, HandResult, shoe_text

_LETTER = {"stand": "S", "hit": "H", "double": "D", "split": "P", "surrender": "R"}
_PLAY = {"S": "stand", "H": "hit", "D": "double", "P": "split", "R": "surrender"}
_FALLBACK_FROM = {
    "double": ("hit", "stand"),
    "split": ("hit", "stand"),
    "surrender": ("hit", "stand", "split"),
}

# Cell colours by the first letter: dark text on light fills (WCAG AA for black text on each), and
# each fill also distinguishable in greyscale print by the code written in it.
FILL = {"S": "#f6d55c", "H": "#ffffff", "D": "#7cc47f", "P": "#8ec5f0", "R": "#f2a7a7"}
"""Background colour of a chart cell by its action's letter."""

LEGEND = (
    ("S", "stand"),
    ("H", "hit"),
    ("Dh", "double, else hit"),
    ("Ds", "double, else stand"),
    ("P", "split"),
    ("Ph", "split, else hit"),
    ("Ps", "split, else stand"),
    ("Rh", "surrender, else hit"),
    ("Rs", "surrender, else stand"),
    ("Rp", "surrender, else split"),
)


@dataclass(frozen=True)
class Cell:
    """One hand against one up-card: the printed code (``"Dh"``), the best play and its fallback, the
    EV of the best play per initial unit, and the two-card hands that play otherwise."""

    code: str
    best: str
    fallback: str | None
    ev: float
    exceptions: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    """Hard totals, soft totals or pairs: rows of (hand label, one cell per up-card or None)."""

    title: str
    kind: str
    rows: tuple[tuple[str, tuple[Cell | None, ...]], ...]


@dataclass(frozen=True)
class StrategyChart:
    """A rule set's strategy chart, ready to print or draw."""

    title: str
    details: tuple[str, ...]
    ups: tuple[str, ...]
    sections: tuple[Section, ...]
    exceptions: tuple[str, ...]


def rules_changed(analysis: BlackjackAnalysis) -> dict[str, str]:
    """The parameters of the analysed rules that differ from their preset, as the user writes them."""
    rules = analysis.rules
    base = PRESETS[rules.preset].describe()
    return {name: value for name, value in rules.describe().items() if base.get(name) != value}


def _code(best: str, ev: dict[str, float]) -> tuple[str, str | None]:
    letter = _LETTER[best]
    candidates = [name for name in _FALLBACK_FROM.get(best, ()) if name in ev]
    if not candidates:
        return letter, None
    fallback = max(candidates, key=lambda name: ev[name])
    return letter + _LETTER[fallback].lower(), fallback


def _rows(kind: str) -> list[str]:
    if kind == "hard":
        return [str(total) for total in range(5, 21)]
    if kind == "soft":
        return [f"soft {total}" for total in range(13, 21)]
    return [f"{name},{name}" for name in ("A", *VALUE_NAMES[1:])]


def _hand_exception(hand: HandResult, best: str) -> str:
    suited = "" if hand.suited is None else (" suited" if hand.suited else " unsuited")
    return f"{hand.cards}{suited} against {hand.up}: {hand.best} (not {best})"


def strategy_chart(analysis: BlackjackAnalysis) -> StrategyChart:
    """The chart of ``analysis``: hard totals, soft totals and pairs against every up-card (2–9, T, A)."""
    ups = tuple(VALUE_NAMES[u] for u in UP_ORDER)
    by_cell: dict[tuple[str, str, str], list[HandResult]] = {}
    for hand in analysis.hands:
        by_cell.setdefault((hand.kind, hand.label, hand.up), []).append(hand)
    chart_cells = {(cell.kind, cell.label, cell.up): cell for cell in analysis.chart}
    sections: list[Section] = []
    exceptions: list[str] = []
    for title, kind in (("Hard totals", "hard"), ("Soft totals", "soft"), ("Pairs", "pair")):
        rows: list[tuple[str, tuple[Cell | None, ...]]] = []
        for label in _rows(kind):
            cells: list[Cell | None] = []
            for up in ups:
                found = chart_cells.get((kind, label, up))
                if found is None:
                    cells.append(None)
                    continue
                ev = dict(found.ev)
                code, fallback = _code(found.best, ev)
                others = tuple(
                    _hand_exception(hand, found.best)
                    for hand in by_cell.get((kind, label, up), [])
                    if hand.best != found.best
                )
                exceptions.extend(others)
                cells.append(Cell(code, found.best, fallback, ev[found.best], others))
            if any(cell is not None for cell in cells):
                rows.append((label, tuple(cells)))
        sections.append(Section(title, kind, tuple(rows)))
    rules = analysis.rules
    changed = rules_changed(analysis)
    details = [
        f"Shoe: {shoe_text(analysis)}. "
        f"Expected value {100 * analysis.ev:.4f}% of the initial bet (house edge {100 * analysis.house_edge:.4f}%).",
        "Rules: the preset"
        + (" with " + ", ".join(f"{name}={value}" for name, value in changed.items()) if changed else "")
        + ".",
        "Composition-dependent strategy from the exact analysis; split hands play as the same cards unsplit.",
    ]
    return StrategyChart(
        title=f"Blackjack strategy: {rules.preset}",
        details=tuple(details),
        ups=ups,
        sections=tuple(sections),
        exceptions=tuple(exceptions),
    )


CHART_CSS = "\n".join(
    (
        ".charts{display:flex;flex-wrap:wrap;gap:1.2rem;margin-top:.8rem}",
        "table.chart{border-collapse:collapse;font-size:.85rem}",
        "table.chart caption{font-weight:600;text-align:left;padding:.2rem 0}",
        "table.chart th,table.chart td{border:1px solid #555;padding:.15rem .35rem;text-align:center;min-width:1.8rem}",
        "table.chart th[scope=row]{text-align:left;background:#eee}table.chart thead th{background:#333;color:#fff}",
        *(f"table.chart td.{letter}{{background:{colour}}}" for letter, colour in FILL.items()),
        "table.chart td sup{font-size:.7em}ul.exceptions{font-size:.8rem;columns:2}",
    )
)
"""The style of :func:`chart_body`, for a page that embeds the chart."""


def chart_body(chart: StrategyChart) -> str:
    """The three chart tables, the legend and the exceptions as an HTML fragment (style: :data:`CHART_CSS`)."""
    e = html.escape
    parts = ['<div class="charts">']
    for section in chart.sections:
        parts.append(f'<table class="chart"><caption>{e(section.title)}</caption><thead><tr><th>hand</th>')
        parts.extend(f'<th scope="col">{e(up)}</th>' for up in chart.ups)
        parts.append("</tr></thead><tbody>")
        for label, cells in section.rows:
            parts.append(f'<tr><th scope="row">{e(label)}</th>')
            for up, cell in zip(chart.ups, cells, strict=True):
                if cell is None:
                    parts.append("<td></td>")
                    continue
                tip = f"{label} against {up}: {_PLAY[cell.code[0]]}, EV {cell.ev:+.4f}"
                mark = "<sup>*</sup>" if cell.exceptions else ""
                parts.append(f'<td class="{cell.code[0]}" title="{e(tip)}">{e(cell.code)}{mark}</td>')
            parts.append("</tr>")
        parts.append("</tbody></table>")
    parts.append("</div>")
    parts.append("<p>" + e("; ".join(f"{code}: {meaning}" for code, meaning in LEGEND)) + "; * see below.</p>")
    if chart.exceptions:
        parts.append('<p>Two-card hands that play otherwise than their cell:</p><ul class="exceptions">')
        parts.extend(f"<li>{e(line)}</li>" for line in chart.exceptions)
        parts.append("</ul>")
    return "\n".join(parts)


def chart_html(chart: StrategyChart) -> str:
    """A self-contained HTML page of ``chart`` (no script, no outside asset), laid out to print on A4."""
    e = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(chart.title)}</title>",
        "<style>",
        "body{font-family:system-ui,sans-serif;color:#111;background:#fff;margin:1.5rem}",
        "h1{font-size:1.3rem;margin:0 0 .3rem}p{margin:.15rem 0;font-size:.85rem}",
        CHART_CSS,
        "@media print{body{margin:0}@page{size:A4;margin:12mm}}",
        "</style></head><body>",
        f"<h1>{e(chart.title)}</h1>",
        *(f"<p>{e(line)}</p>" for line in chart.details),
        chart_body(chart),
        "</body></html>\n",
    ]
    return "\n".join(parts)
