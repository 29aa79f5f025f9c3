"""The par sheet's document: its model (a :class:`Report` of :class:`Section` s holding paragraphs,
:class:`Table` s, plots and HTML fragments) and its two renderings, one self-contained HTML page
(:func:`render_html`, A4 print style) and Markdown (:func:`render_markdown`).

Nothing here knows a game: :mod:`croupier.report` and :mod:`croupier.certify` fill the model, and
``croupier.report`` re-exports every name of this module.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier import __version__

__all__ = ["Report", "Section", "Table", "render_html", "render_markdown"]


@dataclass
class Table:
    """A table of the report: a caption, column heads, rows of cells (text), and a note under it."""

    caption: str
    heads: Sequence[str]
    rows: Sequence[Sequence[str]]
    note: str = ""
    numeric: frozenset[int] = frozenset()


@dataclass
class Section:
    """A titled part of the report: paragraphs, tables, plots (SVG text) and raw HTML fragments."""

    title: str
    parts: list[tuple[str, Any]] = field(default_factory=list)

    def text(self, paragraph: str) -> Section:
        self.parts.append(("p", paragraph))
        return self

    def table(self, table: Table) -> Section:
        self.parts.append(("table", table))
        return self

    def plot(self, svg: str, caption: str) -> Section:
        self.parts.append(("plot", (svg, caption)))
        return self

    def fragment(self, markup: str) -> Section:
        self.parts.append(("html", markup))
        return self


@dataclass
class Report:
    title: str
    summary: list[str]
    sections: list[Section]
    style: str = ""


# --------------------------------------------------------------------------------------------------
# the page


_CSS = """
body{font-family:system-ui,sans-serif;color:#111;background:#fff;margin:1.5rem auto;max-width:60rem;line-height:1.4}
h1{font-size:1.5rem;margin:0 0 .4rem}h2{font-size:1.15rem;margin:1.6rem 0 .4rem;border-bottom:2px solid #333}
p{margin:.3rem 0;font-size:.92rem}
table.data{border-collapse:collapse;font-size:.85rem;margin:.6rem 0}
table.data caption{font-weight:600;text-align:left;padding:.2rem 0}
table.data th,table.data td{border:1px solid #999;padding:.2rem .45rem;text-align:left;vertical-align:top}
table.data thead th{background:#333;color:#fff}table.data td.n{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:.6rem 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.8rem;color:#333}
.summary{background:#f3f3f3;border-left:4px solid #333;padding:.5rem .8rem}
@media print{body{margin:0;max-width:none}@page{size:A4;margin:12mm}h2{break-after:avoid}
table,figure{break-inside:avoid}}
"""


def render_html(report: Report, command: str = "") -> str:
    """The report as one self-contained HTML page."""
    e = html.escape
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(report.title)}</title>",
        f"<style>{_CSS}{report.style}</style></head><body>",
        f"<h1>{e(report.title)}</h1>",
        '<div class="summary">',
        *(f"<p>{e(line)}</p>" for line in report.summary),
        f"<p>Made by croupier {e(__version__)}" + (f": <code>{e(command)}</code>" if command else "") + "</p>",
        "</div>",
    ]
    for section in report.sections:
        out.append(f"<h2>{e(section.title)}</h2>")
        for kind, value in section.parts:
            if kind == "p":
                out.append(f"<p>{e(value)}</p>")
            elif kind == "table":
                out.append(_table_html(value))
            elif kind == "plot":
                svg, caption = value
                out.append(f"<figure>{svg}<figcaption>{e(caption)}</figcaption></figure>")
            else:
                out.append(value)
    out.append("</body></html>\n")
    return "\n".join(out)


def render_markdown(report: Report, command: str = "") -> str:
    """The report as Markdown (GitHub's tables); plots and raw HTML fragments are left out."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    out = [f"# {report.title}", ""]
    out.extend(f"> {line}\n>" for line in report.summary)
    out.append(f"> Made by croupier {__version__}" + (f": `{command}`" if command else ""))
    for section in report.sections:
        out.extend(["", f"## {section.title}"])
        for kind, value in section.parts:
            if kind == "p":
                out.extend(["", value])
            elif kind == "table":
                out.extend(["", f"**{cell(value.caption)}**", ""])
                out.append("| " + " | ".join(cell(head) for head in value.heads) + " |")
                out.append(
                    "|" + "|".join("---:" if i in value.numeric else "---" for i in range(len(value.heads))) + "|"
                )
                out.extend("| " + " | ".join(cell(c) for c in row) + " |" for row in value.rows)
                if value.note:
                    out.extend(["", value.note])
    return "\n".join(out) + "\n"


def _table_html(table: Table) -> str:
    e = html.escape
    parts = [f'<table class="data"><caption>{e(table.caption)}</caption><thead><tr>']
    parts.extend(f'<th scope="col">{e(head)}</th>' for head in table.heads)
    parts.append("</tr></thead><tbody>")
    for row in table.rows:
        cells = (f'<td class="n">{e(c)}</td>' if i in table.numeric else f"<td>{e(c)}</td>" for i, c in enumerate(row))
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</tbody></table>")
    if table.note:
        parts.append(f"<p>{e(table.note)}</p>")
    return "".join(parts)
