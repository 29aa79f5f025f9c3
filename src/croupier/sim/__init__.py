"""Simulation at scale: the compiled blackjack simulator, re-exported here (``docs/simulate.md``), and the
baccarat simulator in :mod:`croupier.sim.baccarat` (``docs/simulate_baccarat.md``)."""

from __future__ import annotations

from croupier.sim.blackjack import (
    RecordedRound,
    SimulationError,
    SimulationResult,
    record_blackjack,
    result_document,
    simulate_blackjack,
)
from croupier.sim.charts import ChartError, Strategy, load_chart, strategy_from_analysis, strategy_from_chart

__all__ = [
    "ChartError",
    "RecordedRound",
    "SimulationError",
    "SimulationResult",
    "Strategy",
    "load_chart",
    "record_blackjack",
    "result_document",
    "simulate_blackjack",
    "strategy_from_analysis",
    "strategy_from_chart",
]
