"""Exact baselines for the blackjack environment: the value of each option for the cards left, and regret.

:class:`ExactValues` asks the exact analysis (:func:`croupier.math.blackjack.analyze_blackjack`) for
the round the agent faces, from the cards it has not seen: the full shoe less every card seen face
up since the shuffle before this round (burns and the hole card are unseen, so they stay in). The
analysis then deals the agent's two cards and the up-card from that shoe and gives, for that hand
against that up-card, the expectation of each option (stand, hit, double, split, surrender),
each followed by the composition-dependent best play, per unit of initial bet; where the dealer
peeks, conditional on no dealer natural (the agent is only asked after the peek). The round's own
value before the deal is the analysis' EV (insurance never taken).

These are exact at the agent's **first decision of a round** (two cards, before any split): there
every option is open and the analysis values exactly this hand. Later decisions (after a hit or a
split) and the insurance offer get no value (NaN): the public analysis values two-card hands only.

:func:`regret` plays a policy and reports its exact first-decision regret (the expectation given up
at each first decision against the best option, no sampling noise) and its total regret against
the optimal strategy (the exact EV of each round played, less the policy's returns, with a
standard error).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import numpy.typing as npt

from croupier.blackjack.hand import POINTS
from croupier.blackjack.rules import Rules
from croupier.cards import RANKS, Card
from croupier.codes import OPTION_CODES
from croupier.math import CompositionError
from croupier.math.blackjack import VALUE_NAMES, BlackjackAnalysis, analyze_blackjack, cards_text
from croupier.rl.encoding import Mask, Obs

Values = npt.NDArray[np.float64]
Policy = Callable[[Obs, Mask], int]
_ByHand = dict[tuple[str, str, bool | None], Mapping[str, float]]
_Entry = tuple[BlackjackAnalysis, _ByHand] | None


class ExactValues:
    """The exact analysis of ``rules`` for each composition of unseen cards (the latest ``cache`` kept)."""

    def __init__(self, rules: Rules, cache: int = 32) -> None:
        self.rules = rules
        self.full: tuple[int, ...] = (4 * rules.decks,) * len(RANKS)
        self._cache: OrderedDict[
            tuple[int, ...], tuple[BlackjackAnalysis, dict[tuple[str, str, bool | None], Mapping[str, float]]] | None
        ] = OrderedDict()
        self._size = cache

    def unseen(self, seen: Sequence[int] | npt.NDArray[np.int64]) -> tuple[int, ...]:
        """The full shoe less the cards ``seen`` (13 counts by rank, as the observation's ``seen_*``)."""
        return tuple(int(full - count) for full, count in zip(self.full, seen, strict=True))

    def analysis(self, unseen: tuple[int, ...]) -> BlackjackAnalysis | None:
        """The exact analysis of a round dealt from ``unseen``; None when the cards are too few for one."""
        entry = self._entry(unseen)
        return None if entry is None else entry[0]

    def options(self, unseen: tuple[int, ...], up: Card, first: Card, second: Card) -> Mapping[str, float] | None:
        """The EV per unit of each option of the hand ``first, second`` against ``up``, dealt from ``unseen``."""
        entry = self._entry(unseen)
        if entry is None:
            return None
        by_hand = entry[1]
        x, y = POINTS[first.rank] - 1, POINTS[second.rank] - 1
        key = VALUE_NAMES[POINTS[up.rank] - 1], cards_text(x, y)
        found = by_hand.get((*key, None))
        return found if found is not None else by_hand.get((*key, first.suit == second.suit))

    def action_values(
        self, unseen: tuple[int, ...], up: Card, first: Card, second: Card, bet: Decimal, n: int
    ) -> Values:
        """An array of ``n`` action values (table units: EV per unit × ``bet``), NaN where none is known."""
        values = np.full(n, np.nan)
        options = self.options(unseen, up, first, second)
        if options is not None:
            for name, ev in options.items():
                values[OPTION_CODES[name]] = ev * float(bet)
        return values

    def _entry(self, unseen: tuple[int, ...]) -> _Entry:
        cache = self._cache
        if unseen in cache:
            cache.move_to_end(unseen)
            return cache[unseen]
        try:
            analysis = analyze_blackjack(self.rules, composition=unseen)
        except CompositionError:
            entry = None
        else:
            entry = analysis, {(hand.up, hand.cards, hand.suited): hand.ev for hand in analysis.hands}
        cache[unseen] = entry
        if len(cache) > self._size:
            cache.popitem(last=False)
        return entry


@dataclass(frozen=True)
class Regret:
    """What :func:`regret` measured, in table units per round."""

    rounds: int
    mean_return: float
    return_se: float
    optimal_ev: float
    """The mean of the exact EV of each round played, under the optimal (composition-dependent) strategy."""
    regret: float
    """``optimal_ev - mean_return``: the total regret per round (its standard error is ``return_se``)."""
    decision_regret: float
    """The exact expectation given up at the first decisions, per round (no sampling noise)."""
    decisions: int
    mistakes: int
    """First decisions where the policy chose an option worth less than the best (by more than 1e-9)."""


def regret(
    policy: Policy,
    rounds: int,
    *,
    preset: str = "macau-1983",
    rules_overrides: Mapping[str, object] | None = None,
    seed: int = 0,
    fresh_shoe: bool = False,
) -> Regret:
    """Play ``policy`` (``(observation, mask) -> action``) for ``rounds`` rounds of ``preset`` from ``seed``
    and measure its regret against the exact analysis (module docstring). Each round with a new
    composition costs one exact analysis (about 0.1 s for six decks); with ``fresh_shoe`` every
    round is dealt from a newly shuffled shoe, so one analysis (of the full shoe) serves them all."""
    from croupier.rl.blackjack import BlackjackEnv  # the environment imports this module

    if rounds < 2:
        raise ValueError(f"regret needs at least 2 rounds, got {rounds}")
    env = BlackjackEnv(preset, rules_overrides, action_values=True, illegal_action="raise", max_steps=None)
    obs, info = env.reset(seed=seed)
    returns: list[float] = []
    optimal: list[float] = []
    given_up = 0.0
    decisions = mistakes = 0
    net = 0.0
    optimal.append(info["round_ev"])
    while len(returns) < rounds:
        mask = info["action_mask"]
        assert isinstance(obs, np.ndarray)
        action = policy(obs, mask)
        values = info["action_values"]
        if not np.isnan(values[action]):
            best = float(np.nanmax(np.where(mask.astype(bool), values, np.nan)))
            gap = best - float(values[action])
            decisions += 1
            given_up += gap
            mistakes += gap > 1e-9
        obs, reward, terminated, truncated, info = env.step(action)
        net += reward
        if terminated or truncated:
            returns.append(net)
            net = 0.0
            obs, info = env.reset(options={"new_shoe": True} if fresh_shoe else None)
            if len(returns) < rounds:
                optimal.append(info["round_ev"])
    results = np.array(returns)
    mean = float(results.mean())
    se = float(results.std(ddof=1)) / math.sqrt(rounds)
    best_ev = float(np.nanmean(optimal))
    return Regret(rounds, mean, se, best_ev, best_ev - mean, given_up / rounds, decisions, mistakes)
