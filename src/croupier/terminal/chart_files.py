"""Strategy charts written to files: PNG or SVG drawn with matplotlib (no screen needed), or HTML.

The chart itself and its HTML are built, without I/O, by :mod:`croupier.math.strategy`; this module
checks the target and writes the file whole or not at all.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from croupier.errors import CroupierError
from croupier.files import check_out, write_whole
from croupier.math.strategy import FILL, LEGEND, StrategyChart, chart_html

FORMATS = ("png", "svg", "html")
"""The picture formats :func:`write_chart` writes, by the file name's suffix."""


class ChartError(CroupierError):
    """A strategy chart cannot be written where or as asked."""


def check_target(path: str | os.PathLike[str]) -> Path:
    """``path`` as a file a chart can be written to (a known suffix, in a folder that exists), or
    :class:`ChartError` naming what is wrong; checked before any work is done."""
    target = Path(path)
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ChartError(f"--out {target}: a chart is written as {', '.join('.' + f for f in FORMATS)}")
    return check_out(target, ChartError)


def write_chart(chart: StrategyChart, path: str | os.PathLike[str]) -> Path:
    """Write ``chart`` to ``path`` as PNG, SVG or HTML (by its suffix), whole or not at all."""
    target = check_target(path)
    suffix = target.suffix.lower().lstrip(".")
    write_whole(target, chart_html(chart).encode() if suffix == "html" else _picture(chart, suffix), ChartError)
    return target


def _picture(chart: StrategyChart, fmt: str) -> bytes:
    """The chart drawn on one A4 page with matplotlib (Agg: no screen), as PNG or SVG bytes."""
    import io

    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    figure = Figure(figsize=(8.27, 11.69), dpi=150)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    columns = len(chart.ups) + 1
    rows_total = sum(len(section.rows) + 2 for section in chart.sections)
    notes = _notes(chart)
    details = [line for text in chart.details for line in _wrap(text, 110)]
    height_units = rows_total + len(details) + 3 + len(notes) + math.ceil(len(chart.exceptions) / 2)
    cell_w, cell_h = 1.0, 1.0
    label_w = 2.2
    width_units = label_w + (columns - 1) * cell_w
    axes.set_xlim(-1.0, width_units + 1.0)
    axes.set_ylim(height_units + 1.0, -1.0)
    axes.set_axis_off()
    size = 8.5
    y = 0.0
    axes.text(0, y, chart.title, fontsize=14, fontweight="bold", va="top")
    y += 1.3
    for line in details:
        axes.text(0, y, line, fontsize=7, va="top")
        y += 0.8
    y += 0.3
    for section in chart.sections:
        axes.text(0, y + 0.5, section.title, fontsize=size + 1, fontweight="bold", va="center")
        y += 1.0
        axes.add_patch(Rectangle((0, y), width_units, cell_h, facecolor="#333333", edgecolor="#555555"))
        axes.text(0.1, y + 0.5, "hand", color="white", fontsize=size, va="center")
        for i, up in enumerate(chart.ups):
            x = label_w + i * cell_w
            axes.text(x + cell_w / 2, y + 0.5, up, color="white", fontsize=size, ha="center", va="center")
        y += cell_h
        for label, cells in section.rows:
            axes.add_patch(Rectangle((0, y), label_w, cell_h, facecolor="#eeeeee", edgecolor="#555555", lw=0.5))
            axes.text(0.1, y + 0.5, label, fontsize=size, va="center")
            for i, cell in enumerate(cells):
                x = label_w + i * cell_w
                fill = "#ffffff" if cell is None else FILL[cell.code[0]]
                axes.add_patch(Rectangle((x, y), cell_w, cell_h, facecolor=fill, edgecolor="#555555", lw=0.5))
                if cell is not None:
                    text = cell.code + ("*" if cell.exceptions else "")
                    axes.text(x + cell_w / 2, y + 0.5, text, fontsize=size, ha="center", va="center")
            y += cell_h
    y += 0.4
    for line in notes:
        axes.text(0, y, line, fontsize=6, va="top")
        y += 0.75
    half = math.ceil(len(chart.exceptions) / 2)
    for index, line in enumerate(chart.exceptions):
        column, row = divmod(index, half)
        axes.text(column * width_units / 2, y + row * 0.75, line, fontsize=6, va="top")
    buffer = io.BytesIO()
    metadata = {"Creator": "croupier"} if fmt == "png" else {"Creator": "croupier", "Date": None}
    from matplotlib import rc_context

    with rc_context({"svg.hashsalt": "croupier-chart"}):  # the same ids on every run: the same file
        figure.savefig(buffer, format=fmt, metadata=metadata)
    return buffer.getvalue()


def _notes(chart: StrategyChart) -> list[str]:
    legend = "; ".join(f"{code} {meaning}" for code, meaning in LEGEND) + "; * see below"
    lines = _wrap(legend, 130)
    if chart.exceptions:
        lines.append("Two-card hands that play otherwise than their cell:")
    return lines


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)
