"""Rich tables of the analyses, the strategy chart, the simulations and the baccarat roads, for the
terminal.

The math and game packages build values (:class:`~croupier.math.blackjack.BlackjackAnalysis`,
:class:`~croupier.math.strategy.StrategyChart`, :class:`~croupier.baccarat.roads.Scoreboard`) and the
simulator its :class:`~croupier.sim.blackjack.SimulationResult`; this module only draws them, to standard
output unless a :class:`rich.console.Console` is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from croupier.baccarat.roads import DERIVED_ROADS, BigRoadEntry, Colour, Scoreboard
from croupier.baccarat.rules import SPOT_LABELS, Spot
from croupier.math import RANKS, decimal_text, full_shoe
from croupier.math.baccarat import BaccaratAnalysis
from croupier.math.baccarat import pays_text as bac_pays
from croupier.math.baccarat import percent_text as bac_percent
from croupier.money import format_amount

if TYPE_CHECKING:  # the blackjack analysis needs numpy: imported where it is rendered, not for baccarat
    from croupier.math.blackjack import BlackjackAnalysis
    from croupier.math.strategy import StrategyChart
    from croupier.sim.blackjack import SimulationResult

# --------------------------------------------------------------------------------------------------
# blackjack


def render_blackjack_analysis(analysis: BlackjackAnalysis, console: Console | None = None) -> None:
    """Print the EV, SD and insurance, then the strategy as charts (hard, soft, pairs × up-card)."""
    from croupier.math.blackjack import percent_text, shoe_text
    from croupier.math.strategy import strategy_chart

    out = console or Console(highlight=False)
    rules = analysis.rules
    but = ", but for the approximations below" if analysis.approximations else ""
    out.print(f"Blackjack ({rules.preset}): exact analysis of one round from {shoe_text(analysis)}{but}")
    edge = percent_text(analysis.house_edge)
    out.print(
        f"Expected value {percent_text(analysis.ev)} of the initial bet (house edge {edge}), "
        f"SD {analysis.sd:.4f} per initial hand; no insurance taken"
    )
    for note in analysis.approximations:
        out.print(f"Approximate {note}")
    ins = analysis.insurance
    if ins.offered and ins.ev_per_unit is not None:
        out.print(
            f"Insurance ({ins.pays}): dealer natural under an ace {percent_text(ins.p_natural, 2)}, "
            f"EV {percent_text(ins.ev_per_unit, 2)} per unit insured"
        )
    if ins.even_money_offered:
        out.print(f"Even money: worth 1; declining is worth {ins.even_money_ev:.4f}")
    render_chart(strategy_chart(analysis), out, header=False)


_STYLE = {"S": "bold black on #f6d55c", "H": "black on white", "D": "bold black on #7cc47f"}
_STYLE |= {"P": "bold black on #8ec5f0", "R": "bold black on #f2a7a7"}


def render_chart(chart: StrategyChart, console: Console | None = None, *, header: bool = True) -> None:
    """Print ``chart`` as three tables (hard, soft, pairs), the legend and the exceptions."""
    from croupier.math.strategy import LEGEND

    out = console or Console(highlight=False)
    if header:
        out.print(f"[bold]{chart.title}[/]")
        for line in chart.details:
            out.print(line)
    for section in chart.sections:
        table = Table(title=section.title, title_justify="left")
        table.add_column("hand")
        for up in chart.ups:
            table.add_column(up, justify="center")
        for label, cells in section.rows:
            row = [label]
            for cell in cells:
                if cell is None:
                    row.append("")
                else:
                    mark = "*" if cell.exceptions else ""
                    row.append(f"[{_STYLE[cell.code[0]]}] {cell.code:<2} [/]{mark}")
            table.add_row(*row)
        out.print(table)
    out.print("  ".join(f"{code} {meaning}" for code, meaning in LEGEND) + "; * some two-card hands play otherwise")
    if chart.exceptions:
        out.print("Hands that play otherwise than their cell:")
        for line in chart.exceptions:
            out.print(f"  {line}")


def render_blackjack_simulation(result: SimulationResult, console: Console | None = None) -> None:
    """Print a result for people (``croupier simulate blackjack`` without ``--json``)."""
    out = console or Console(highlight=False)
    out.print(
        f"Blackjack simulation, {result.rules.preset}: {result.rounds:,} rounds, {result.boxes} box(es), "
        f"{'real shoe' if result.shuffle == 'shoe' else 'continuous shuffle'}, seed {result.seed!r}, "
        f"strategy: {result.strategy}"
    )
    table = Table(show_header=False, box=None)
    table.add_row("EV per initial unit", f"{result.ev:+.6f} ± {result.se:.6f} (1 SE)")
    table.add_row("house edge", f"{100 * result.house_edge:.4f}%")
    table.add_row("SD per box", f"{result.sd:.4f}")
    table.add_row("net", format_amount(result.net))
    for name, value in result.rates().items():
        table.add_row(name.replace("_", " "), f"{value:.6f}")
    table.add_row("shoes, voided rounds", f"{result.counts['shoes']:,}, {result.counts['voided_rounds']:,}")
    table.add_row("speed", f"{result.rounds_per_second:,.0f} rounds/s on {result.workers} thread(s)")
    out.print(table)


# --------------------------------------------------------------------------------------------------
# baccarat


def render_baccarat_simulation(
    document: Mapping[str, Any], exact: Mapping[Spot, Fraction], title: str, console: Console | None = None
) -> None:
    """Print a baccarat simulation's document for people (``croupier simulate baccarat`` without ``--json``):
    each bet's simulated edge beside the exact one (``exact``, by spot) with its z-score, the frequencies,
    and the live edges where the run measured them."""
    out = console or Console(highlight=False)
    table = Table(title=f"{document['coups']:,} coups of {title}: {document['coups_per_second']:,} coups/s")
    for column in ("bet", "house edge", "± SE", "exact", "z", "SD"):
        table.add_column(column, justify="right" if column != "bet" else "left")
    for spot, bet in document["bets"].items():
        edge, se = float(bet["house_edge"]), float(bet["se"])
        truth = float(exact[spot])
        z = (edge - truth) / se if se else 0.0
        table.add_row(spot, f"{100 * edge:.4f}%", f"{100 * se:.4f}%", f"{100 * truth:.4f}%", f"{z:+.2f}", bet["sd"][:6])
    out.print(table)
    frequencies = document["frequencies"]
    shown = ("banker", "player", "tie", "natural")
    out.print("Frequencies: " + ", ".join(f"{name} {float(v):.5f}" for name, v in frequencies.items() if name in shown))
    live = document.get("live_edges")
    if live:
        edges = Table(title=f"Before each coup, the exact EV of every bet for the cards left ({live['view']})")
        for column in ("bet", "coups with EV > 0", "mean EV then", "won per bet then", "± SE"):
            edges.add_column(column, justify="right" if column != "bet" else "left")
        for spot, edge in live["bets"].items():
            edges.add_row(
                spot,
                f"{100 * float(edge['frequency']):.3f}%",
                f"{float(edge['mean_ev_positive']):+.4f}",
                f"{float(edge['gain_positive']):+.4f}",
                f"{float(edge['se_positive']):.4f}",
            )
        out.print(edges)


_WIN_EVENT: Mapping[Spot, str] = {
    "player": "player",
    "banker": "banker",
    "tie": "tie",
    "player_pair": "player_pair",
    "banker_pair": "banker_pair",
}


def render_baccarat_analysis(analysis: BaccaratAnalysis, console: Console | None = None) -> None:
    """Print the analysis as two tables: the outcomes with their counts, and every offered bet."""
    out = console or Console(highlight=False)
    rules = analysis.rules
    counts = analysis.counts
    probabilities = analysis.probabilities
    full = analysis.remaining == full_shoe(rules.decks)
    shoe = f"a full {rules.decks}-deck shoe" if full else "the remaining cards"
    out.print(f"Baccarat ({rules.preset}): exact analysis of one coup from {shoe}, {analysis.cards} cards")
    if not full:
        out.print("Remaining: " + " ".join(f"{rank}={n}" for rank, n in zip(RANKS, analysis.remaining, strict=True)))

    outcomes = Table(title="Outcomes (ordered six-card sequences)", title_justify="left")
    outcomes.add_column("Outcome")
    outcomes.add_column("Count", justify="right")
    outcomes.add_column("Probability", justify="right")
    rows = [
        ("Banker wins", counts.banker, "banker"),
        ("Player wins", counts.player, "player"),
        ("Tie", counts.tie, "tie"),
        ("Player pair", counts.player_pair, "player_pair"),
        ("Banker pair", counts.banker_pair, "banker_pair"),
        ("Banker wins with a two-card 6", counts.banker_six_two_cards, "banker_six_two_cards"),
        ("Banker wins with a three-card 6", counts.banker_six_three_cards, "banker_six_three_cards"),
    ]
    for label, count, key in rows:
        outcomes.add_row(label, f"{count:,}", decimal_text(probabilities[key], 8))
    outcomes.add_row("Total", f"{counts.total:,}", "1")
    out.print(outcomes)

    bets = Table(title="Bets (house edge per coup; a tie pushes player and banker)", title_justify="left")
    bets.add_column("Bet")
    bets.add_column("Pays")
    bets.add_column("Wins", justify="right")
    bets.add_column("House edge", justify="right")
    for spot, edge in analysis.house_edge.items():
        if spot == "lucky_6":
            wins = probabilities["banker_six_two_cards"] + probabilities["banker_six_three_cards"]
        else:
            wins = probabilities[_WIN_EVENT[spot]]
        bets.add_row(SPOT_LABELS[spot], bac_pays(rules, spot), bac_percent(wins), bac_percent(edge))
    out.print(bets)


# --------------------------------------------------------------------------------------------------
# roads


_LETTER_STYLE = {"B": "bold red", "P": "bold blue", "T": "bold green"}
_COLOUR_SYMBOL = {"red": "●", "blue": "○"}
"""Derived-road marks: a filled red disc, a hollow blue ring, told apart even without colour."""
_TITLES = {"big_eye_boy": "Big eye boy", "small_road": "Small road", "cockroach_pig": "Cockroach pig"}


def render_roads(board: Scoreboard, console: Console | None = None) -> None:
    """Draw the five roads and the ask preview (to standard output unless ``console`` is given)."""
    out = console or Console()
    out.print(_grid("Bead plate", [[_letter(letter) for letter in column] for column in board.bead_plate]))
    big_road = [[_big_road_cell(entry) for entry in column] for column in board.big_road]
    title = "Big road" + (f" ({board.held_ties} tie(s) held for the first entry)" if board.held_ties else "")
    out.print(_grid(title, big_road))
    for name, _ in DERIVED_ROADS:
        columns = [[_mark(colour) for colour in column] for column in board.derived[name]]
        out.print(_grid(_TITLES[name], columns))
    ask = Text("Ask (big eye boy, small road, cockroach pig):")
    for letter, label in (("B", "banker"), ("P", "player")):
        ask.append(f"  {label} next ", style=_LETTER_STYLE[letter])
        for name, _ in DERIVED_ROADS:
            colour = board.ask[letter][name]
            ask.append_text(_mark(colour) if colour else Text("-", style="dim"))
    out.print(ask)


def _letter(letter: str) -> Text:
    return Text(letter, style=_LETTER_STYLE[letter])


def _mark(colour: Colour) -> Text:
    return Text(_COLOUR_SYMBOL[colour], style=f"bold {colour}")


def _big_road_cell(entry: BigRoadEntry) -> Text:
    cell = Text(entry.winner, style=_LETTER_STYLE[entry.winner])
    if entry.ties:
        cell.append(str(entry.ties) if entry.ties > 1 else "/", style="bold green")
    if entry.banker_pair:
        cell.append("•", style="red")
    if entry.player_pair:
        cell.append("•", style="blue")
    return cell


def _grid(title: str, columns: list[list[Text]]) -> Group:
    """A road under its title: logical columns left to right, rows top to bottom."""
    rows = max((len(column) for column in columns), default=0)
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in columns or [[]]:
        table.add_column(no_wrap=True)
    if not columns:
        table.add_row(Text("(empty)", style="dim"))
    for row in range(rows):
        table.add_row(*[column[row] if row < len(column) else Text("") for column in columns])
    return Group(Text(title, style="bold"), table)
