"""The par sheet's plots (:mod:`croupier.report`, :mod:`croupier.report_simulation`): matplotlib figures as
inline SVG text, the same text every time they are drawn from the same figures."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any


def svg(figure: Any, salt: str) -> str:
    """The figure as inline SVG text; ``salt`` (unique on the page) makes its element ids the same on every
    run, so that a par sheet made twice from the same rules is the same file."""
    from matplotlib import rc_context

    buffer = io.StringIO()
    with rc_context({"svg.hashsalt": salt}):
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def bar_plot(labels: Sequence[str], values: Sequence[float], xlabel: str) -> str:
    """Horizontal bars, green for a gain and red for a loss, one per label."""
    from matplotlib.figure import Figure

    height = max(2.0, 0.32 * len(labels) + 0.8)
    figure = Figure(figsize=(7.0, height))
    axes = figure.add_subplot()
    positions = list(range(len(labels)))
    colours = ["#2e7d32" if v >= 0 else "#c62828" for v in values]
    axes.barh(positions, values, color=colours)
    axes.set_yticks(positions, labels, fontsize=8)
    axes.invert_yaxis()
    axes.axvline(0, color="#333", lw=0.8)
    axes.set_xlabel(xlabel, fontsize=9)
    axes.tick_params(axis="x", labelsize=8)
    axes.grid(axis="x", color="#ddd", lw=0.6)
    axes.set_axisbelow(True)
    return svg(figure, xlabel)


def column_plot(labels: Sequence[str], values: Sequence[float], ylabel: str) -> str:
    """Columns, green for a gain and red for a loss, one per label."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.0, 2.8))
    axes = figure.add_subplot()
    colours = ["#2e7d32" if v >= 0 else "#c62828" for v in values]
    axes.bar(range(len(labels)), values, color=colours)
    axes.set_xticks(range(len(labels)), labels, fontsize=8)
    axes.axhline(0, color="#333", lw=0.8)
    axes.set_ylabel(ylabel, fontsize=9)
    axes.tick_params(axis="y", labelsize=8)
    axes.grid(axis="y", color="#ddd", lw=0.6)
    axes.set_axisbelow(True)
    return svg(figure, ylabel)


def results_plot(results: Mapping[str, int], xlabel: str) -> str:
    """How often each result came up (``results``: amount as text → count), as shares on a log scale."""
    from matplotlib.figure import Figure

    items = sorted(((Fraction(k), v) for k, v in results.items()), key=lambda item: item[0])
    total = sum(v for _k, v in items) or 1
    figure = Figure(figsize=(7.0, 2.8))
    axes = figure.add_subplot()
    axes.bar([str(k) for k, _v in items], [v / total for _k, v in items], color="#1f5f99")
    axes.set_yscale("log")
    axes.set_xlabel(xlabel, fontsize=9)
    axes.set_ylabel("share of rounds", fontsize=9)
    axes.tick_params(labelsize=8)
    axes.grid(axis="y", color="#ddd", lw=0.6)
    axes.set_axisbelow(True)
    return svg(figure, xlabel)
