"""The par sheet's simulation sections (:mod:`croupier.report`): the analysis confirmed by the compiled
simulator, the hit frequencies, the cut-card effect and, for baccarat, the live edges.

:func:`blackjack_simulation` and :func:`baccarat_simulation` give the ``simulate`` argument of
:func:`croupier.report.blackjack_report` and :func:`croupier.report.baccarat_report`. Simulated figures
carry their standard error; ``z`` is a simulated figure's distance from the exact one in standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from croupier.document import Section, Table
from croupier.plots import results_plot

if TYPE_CHECKING:
    from croupier.math.baccarat import BaccaratAnalysis
    from croupier.math.blackjack import BlackjackAnalysis
    from croupier.sim.baccarat import BaccaratSimulation
    from croupier.sim.blackjack import SimulationResult


def _z(value: float, truth: float, se: float) -> str:
    return f"{(value - truth) / se:+.2f}" if se > 0 else "—"


# --------------------------------------------------------------------------------------------------
# blackjack


def blackjack_simulation(rounds: int, seed: int | str) -> Callable[[Any], list[Section]]:
    """The simulation sections of a blackjack par sheet: ``rounds`` rounds each way, one box."""

    def sections(rules: Any) -> list[Section]:
        from croupier.math.blackjack import analyze_blackjack
        from croupier.sim.blackjack import simulate_blackjack

        exact = analyze_blackjack(rules)
        continuous = simulate_blackjack(rules, rounds, seed, shuffle="continuous")
        shoe = simulate_blackjack(rules, rounds, seed, shuffle="shoe")
        return [
            _blackjack_check(rounds, seed, exact, continuous),
            _blackjack_frequencies(rounds, shoe),
            _blackjack_cut(shoe, continuous),
        ]

    return sections


def _blackjack_check(rounds: int, seed: int | str, exact: BlackjackAnalysis, continuous: SimulationResult) -> Section:
    """The continuously shuffled simulation's EV and SD against the exact analysis's."""
    check = Section("Simulation confirming the analysis")
    check.text(
        f"The compiled simulator (the engine's twin, croupier.sim) played {rounds:,} rounds of one box with the "
        f"analysis's strategy, seed {seed!r}, from a continuously shuffled shoe (each round from a full shoe, "
        "as the analysis assumes). The difference is given in standard errors (z)."
    )
    check.table(
        Table(
            "Expected value per initial unit",
            ["figure", "exact", "simulated", "± SE", "z"],
            [
                [
                    "EV",
                    f"{exact.ev:+.6f}",
                    f"{continuous.ev:+.6f}",
                    f"{continuous.se:.6f}",
                    _z(continuous.ev, exact.ev, continuous.se),
                ],
                ["SD per initial hand", f"{exact.sd:.4f}", f"{continuous.sd:.4f}", "", ""],
            ],
            numeric=frozenset({1, 2, 3, 4}),
        )
    )
    return check


def _blackjack_frequencies(rounds: int, shoe: SimulationResult) -> Section:
    """The real shoe's rates of every event and the distribution of a round's result."""
    frequencies = Section("Hit frequencies")
    frequencies.text(f"From {rounds:,} rounds dealt from the real shoe (cut card and burns as the rules say), one box.")
    rows = [[name.replace("_", " "), f"{float(value):.6f}"] for name, value in shoe.rates().items()]
    frequencies.table(Table("Rates", ["event", "rate"], rows, numeric=frozenset({1})))
    frequencies.plot(
        results_plot({str(k): v for k, v in shoe.results.items()}, "result of a round (units of the initial bet)"),
        "Distribution of a round's result",
    )
    return frequencies


def _blackjack_cut(shoe: SimulationResult, continuous: SimulationResult) -> Section:
    """The real shoe's EV against the continuous shuffle's."""
    cut = Section("The cut-card effect")
    difference = shoe.ev - continuous.ev
    se = math.sqrt(shoe.se**2 + continuous.se**2)
    cut.text(
        "Dealing from a real shoe stops at the cut card, so rounds are not all dealt from full shoes: the "
        "expectation per round differs slightly from the full-shoe analysis (the cut-card effect)."
    )
    cut.table(
        Table(
            "Real shoe against a continuous shuffle",
            ["shuffle", "EV", "± SE"],
            [
                ["real shoe (cut card, burns)", f"{shoe.ev:+.6f}", f"{shoe.se:.6f}"],
                ["continuous", f"{continuous.ev:+.6f}", f"{continuous.se:.6f}"],
                ["difference", f"{difference:+.6f}", f"{se:.6f}"],
            ],
            numeric=frozenset({1, 2}),
        )
    )
    return cut


# --------------------------------------------------------------------------------------------------
# baccarat


def baccarat_simulation(coups: int, seed: int | str, live_coups: int) -> Callable[[Any], list[Section]]:
    """The simulation sections of a baccarat par sheet."""

    def sections(rules: Any) -> list[Section]:
        from croupier.math.baccarat import analyze_baccarat
        from croupier.sim.baccarat import simulate_baccarat

        exact = analyze_baccarat(rules)
        continuous = simulate_baccarat(rules, coups, seed, "continuous")
        shoe = simulate_baccarat(rules, coups, seed, "shoe")
        result = [
            _baccarat_check(coups, seed, exact, continuous),
            _baccarat_frequencies(coups, exact, shoe),
            _baccarat_cut(exact, shoe, continuous),
        ]
        if live_coups > 0:
            live = simulate_baccarat(rules, live_coups, seed, "shoe", live_edges=True)
            result.append(_live_edges(live_coups, live))
        return result

    return sections


def _baccarat_check(coups: int, seed: int | str, exact: BaccaratAnalysis, continuous: BaccaratSimulation) -> Section:
    """The continuously shuffled simulation's EV of every bet against the exact analysis's."""
    check = Section("Simulation confirming the analysis")
    check.text(
        f"The compiled simulator (the engine's twin, croupier.sim.baccarat) played {coups:,} coups with one unit "
        f"on every bet, seed {seed!r}, from a continuously shuffled shoe; z is the difference in standard errors."
    )
    rows = []
    for spot in exact.spots:
        truth = float(exact.expected_value(spot))
        bet = continuous.bets[spot]
        rows.append([spot, f"{truth:+.6f}", f"{bet.ev:+.6f}", f"{bet.se:.6f}", _z(bet.ev, truth, bet.se)])
    check.table(
        Table("EV per unit staked", ["bet", "exact", "simulated", "± SE", "z"], rows, numeric=frozenset({1, 2, 3, 4}))
    )
    return check


def _baccarat_frequencies(coups: int, exact: BaccaratAnalysis, shoe: BaccaratSimulation) -> Section:
    """The real shoe's rate of every event, beside the full shoe's exact probability where there is one."""
    frequencies = Section("Hit frequencies")
    frequencies.text(f"From {coups:,} coups dealt from the real shoe (cut card, burns, demonstration coups).")
    frequencies.table(
        Table(
            "Rates per coup",
            ["event", "exact (full shoe)", "real shoe"],
            [
                [
                    name.replace("_", " "),
                    f"{float(exact.probabilities[name]):.6f}" if name in exact.probabilities else "",
                    f"{value:.6f}",
                ]
                for name, value in shoe.frequencies().items()
            ],
            numeric=frozenset({1, 2}),
        )
    )
    return frequencies


def _baccarat_cut(exact: BaccaratAnalysis, shoe: BaccaratSimulation, continuous: BaccaratSimulation) -> Section:
    """Every bet's EV from the real shoe against the continuous shuffle's."""
    cut = Section("The cut-card effect")
    cut.table(
        Table(
            "EV per unit: real shoe against a continuous shuffle",
            ["bet", "real shoe", "continuous", "difference", "± SE"],
            [
                [
                    spot,
                    f"{shoe.bets[spot].ev:+.6f}",
                    f"{continuous.bets[spot].ev:+.6f}",
                    f"{shoe.bets[spot].ev - continuous.bets[spot].ev:+.6f}",
                    f"{math.sqrt(shoe.bets[spot].se ** 2 + continuous.bets[spot].se ** 2):.6f}",
                ]
                for spot in exact.spots
            ],
            numeric=frozenset({1, 2, 3, 4}),
        )
    )
    return cut


def _live_edges(live_coups: int, live: BaccaratSimulation) -> Section:
    """How often each bet's exact expectation on the cards left was positive, and what betting only then won."""
    assert live.live is not None
    edges = Section("When the remaining shoe favours the player")
    edges.text(
        f"Before each of {live_coups:,} coups of real shoes, the exact expectation of every bet for the cards "
        "left in the shoe: how often it was positive, its mean then, and what betting only then won."
    )
    edges.table(
        Table(
            "Live edges",
            ["bet", "coups with EV > 0", "mean EV then", "won per bet then", "± SE"],
            [
                [
                    spot,
                    f"{edge.frequency:.4%}",
                    f"{edge.mean_ev_positive:+.4f}",
                    f"{edge.gain_positive:+.4f}",
                    f"{edge.se_positive:.4f}",
                ]
                for spot, edge in live.live.items()
            ],
            numeric=frozenset({1, 2, 3, 4}),
        )
    )
    return edges
