"""Agents for the blackjack environments: random legal play, and the basic strategy of the exact analysis.

Both read only the observation and the action mask (:mod:`croupier.rl.encoding`), so they play the
single-agent and the multi-seat environment alike.

* :func:`random_action`: a legal action drawn uniformly, from a :class:`~croupier.rng.RandomSource`
  (use :func:`croupier.rng.seeded` for a reproducible run).
* :class:`BasicStrategy`: the strategy chart of :func:`croupier.math.strategy.strategy_chart` for
  the environment's rules (from :func:`croupier.math.blackjack.analyze_blackjack`, a full shoe):
  the best play of each hand total, pair and up-card, with the chart's fallback where the best play
  is not offered (a double after a hit, a split at the split limit); never insurance, even money
  when the analysis says it is worth more than declining it; the smallest bet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from croupier.blackjack.rules import Rules
from croupier.codes import OPTION_CODES
from croupier.math.blackjack import analyze_blackjack
from croupier.math.strategy import Cell, strategy_chart
from croupier.rl.encoding import (
    ACKNOWLEDGE,
    EVEN_MONEY,
    FIRST_BET,
    HIT,
    INSURANCE,
    NO_INSURANCE,
    PHASE_BET,
    PHASE_DECISION,
    PHASE_INSURANCE,
    PHASE_OVER,
    STAND,
    Mask,
    Obs,
)
from croupier.rng import RandomSource

VALUE_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Card values as the observation writes them (1 ace … 10 ten-value), by the chart's names."""


def random_action(mask: Mask, rng: RandomSource) -> int:
    """A legal action, uniformly (``mask`` from ``info["action_mask"]``)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randbelow(len(legal))]) if len(legal) > 1 else int(legal[0])


def chart_key(obs: Obs) -> tuple[str, str, str]:
    """The strategy chart's cell for the hand in ``obs``: (kind, row label, up-card)."""
    total, soft, pair, cards, up = int(obs[1]), int(obs[2]), int(obs[3]), int(obs[4]), int(obs[8])
    name = VALUE_NAMES[up]
    if cards == 2 and pair:
        return "pair", f"{VALUE_NAMES[pair]},{VALUE_NAMES[pair]}", name
    if soft:
        return "soft", f"soft {total}", name
    return "hard", str(total), name


class BasicStrategy:
    """The basic strategy of ``rules`` from the exact analysis; :meth:`act` picks an action."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.analysis = analyze_blackjack(rules)
        self.chart = strategy_chart(self.analysis)
        cells: dict[tuple[str, str, str], Cell] = {}
        for section in self.chart.sections:
            for label, row in section.rows:
                for up, cell in zip(self.chart.ups, row, strict=True):
                    if cell is not None:
                        cells[(section.kind, label, up)] = cell
        self.cells: Mapping[tuple[str, str, str], Cell] = cells
        insurance = self.analysis.insurance
        self.takes_even_money = insurance.even_money_offered and insurance.even_money_ev < 1.0
        self.takes_insurance = insurance.ev_per_unit is not None and insurance.ev_per_unit > 0

    def play(self, obs: Obs) -> tuple[str, str | None] | None:
        """The chart's best play for the hand in ``obs`` and its fallback (None: no cell)."""
        cell = self.cells.get(chart_key(obs))
        return None if cell is None else (cell.best, cell.fallback)

    def act(self, obs: Obs | Mapping[str, Any], mask: Mask) -> int:
        """The strategy's action for ``obs`` (the vector, or the ``Dict`` observation that holds it)."""
        if isinstance(obs, Mapping):
            obs = obs["observation"]
        assert isinstance(obs, np.ndarray)
        phase = int(obs[0])
        if phase == PHASE_BET:
            return int(np.flatnonzero(mask[FIRST_BET:])[0]) + FIRST_BET
        if phase == PHASE_INSURANCE:
            if mask[EVEN_MONEY] and self.takes_even_money:
                return EVEN_MONEY
            if mask[INSURANCE] and self.takes_insurance:
                return INSURANCE
            return NO_INSURANCE
        if mask[ACKNOWLEDGE] and phase == PHASE_OVER:  # a round the deal settled: its one step
            return ACKNOWLEDGE
        if phase != PHASE_DECISION:
            raise ValueError(f"the agent is not asked anything now (phase {phase})")
        key = chart_key(obs)
        for candidate in self._candidates(key, int(obs[1])):
            index = OPTION_CODES[candidate]
            if mask[index]:
                return index
        return STAND if not mask[HIT] else HIT

    def _candidates(self, key: tuple[str, str, str], total: int) -> list[str]:
        kind, _label, up = key
        plays: list[str] = []
        cell = self.cells.get(key)
        if cell is not None:
            plays += [cell.best] + ([cell.fallback] if cell.fallback else [])
        if kind == "pair":  # the split is refused (the split limit): play the total
            soft = key[1] == "A,A"
            other = self.cells.get(("soft" if soft else "hard", f"soft {total}" if soft else str(total), up))
            if other is not None:
                plays += [other.best] + ([other.fallback] if other.fallback else [])
        plays.append("hit" if total < 17 else "stand")
        return plays
