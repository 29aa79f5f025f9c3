"""Tabular Q-learning on the blackjack environment, compared with the exact basic strategy.

The agent learns on :class:`~croupier.rl.blackjack.BlackjackEnv` (one box, a flat bet of one unit,
the preset's finite shoe) for ``--seconds`` seconds of wall time. Its state is the hand as the chart
reads it, without the count: phase, total, soft, pair value, two cards or more, split hand or not,
how many hands of the box are still to play after it (their outcome is part of what a split hand's
actions lead to), the dealer's up-card. Actions are chosen ε-greedily among the legal ones of
``info["action_mask"]`` (ε falls linearly from 1 to 0.05 over the first half of the run, then
stays); there is no discount (a round is short) and the step size is ``α = 1 / n(s, a)`` (at least
``1e-3``). The update is double Q-learning (van Hasselt 2010) by default: two tables, one drawn at
random is moved toward ``r + Q_other(s', argmax_a' Q_this(s', a'))`` over the next state's legal
actions, and the agent acts on their sum; ``--plain`` uses one table and ``r + max_a' Q(s', a')``,
whose maximum over noisy values overrates the rarely seen states after a split.

Then the learned greedy policy is set against the chart of the exact analysis
(:func:`croupier.math.strategy.strategy_chart` of :func:`croupier.math.blackjack.analyze_blackjack`)
at the first decision of every hard total, soft total and pair against every up-card, and both
policies play ``--eval-rounds`` rounds from the same seed. Randomness comes from
:func:`croupier.rng.seeded` only. The printed Markdown is the one in docs/rl.md.

    python benchmarks/rl_qlearning.py                                  # macau-1983, three minutes
    python benchmarks/rl_qlearning.py --plain                          # plain Q-learning
    python benchmarks/rl_qlearning.py --seconds 10 --eval-rounds 2000  # a short run (CI)
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from croupier.rl.agents import VALUE_NAMES, BasicStrategy
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import ACTION_NAMES, PHASE_DECISION, Mask, Obs
from croupier.rng import RandomSource, seeded

State = tuple[int, ...]
Policy = Callable[[Obs, Mask], int]


def state_of(obs: Obs) -> State:
    """Phase, total, soft, pair value, two cards, split hand, hands of the box still to play after it, up-card."""
    to_come = int(obs[6]) - int(obs[5]) - 1 if obs[6] else 0
    return (int(obs[0]), int(obs[1]), int(obs[2]), int(obs[3]), int(obs[4] == 2), int(obs[7]), to_come, int(obs[8]))


class QLearner:
    """Tabular Q-learning; with ``double``, double Q-learning (two tables, each valued by the other)."""

    def __init__(self, actions: int, *, double: bool, rng: RandomSource) -> None:
        self.actions = actions
        self.double = double
        self.rng = rng
        self.tables: list[dict[State, np.ndarray]] = [{}, {}] if double else [{}]
        self.counts: list[dict[State, np.ndarray]] = [{}, {}] if double else [{}]
        self.masks: dict[State, np.ndarray] = {}

    def _row(self, table: int, state: State) -> np.ndarray:
        row = self.tables[table].get(state)
        if row is None:
            row = self.tables[table][state] = np.zeros(self.actions)
            self.counts[table][state] = np.zeros(self.actions)
        return row

    def visit(self, state: State, mask: Mask) -> None:
        if state not in self.masks:
            self.masks[state] = mask.copy()
            for table in range(len(self.tables)):
                self._row(table, state)

    def greedy(self, state: State, mask: Mask) -> int:
        self.visit(state, mask)
        values = sum(self.tables[t][state] for t in range(len(self.tables)))
        legal = np.flatnonzero(mask)
        return int(legal[np.argmax(values[legal])])

    def learn(self, state: State, action: int, reward: float, after: State | None, mask: Mask | None) -> None:
        """One update from ``state``, ``action`` to ``after`` (None: the round is over) with ``reward``."""
        table = self.rng.randbelow(2) if self.double else 0
        target = reward
        if after is not None and mask is not None:
            self.visit(after, mask)
            legal = np.flatnonzero(mask)
            if self.double:
                chosen = legal[np.argmax(self.tables[table][after][legal])]
                target += float(self.tables[1 - table][after][chosen])
            else:
                target += float(np.max(self.tables[0][after][legal]))
        row = self.tables[table][state]
        count = self.counts[table][state]
        count[action] += 1
        row[action] += max(1.0 / count[action], 1e-3) * (target - row[action])

    def policy(self, obs: Obs, mask: Mask) -> int:
        return self.greedy(state_of(obs), mask)


def train(env: BlackjackEnv, seconds: float, seed: int, *, double: bool) -> tuple[QLearner, int, int]:
    rng = seeded(seed)
    learner = QLearner(int(env.action_space.n), double=double, rng=rng)
    obs, info = env.reset(seed=seed)
    start = time.perf_counter()
    steps = rounds = 0
    epsilon = 1.0
    while True:
        if steps % 1000 == 0:
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
            epsilon = max(0.05, 1.0 - elapsed / (seconds / 2))
        state = state_of(obs)
        mask = info["action_mask"]
        if rng.randbelow(1000) < epsilon * 1000:
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randbelow(len(legal))])
        else:
            action = learner.greedy(state, mask)
        learner.visit(state, mask)
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            learner.learn(state, action, reward, None, None)
            rounds += 1
            obs, info = env.reset()
        else:
            learner.learn(state, action, reward, state_of(obs), info["action_mask"])
    return learner, steps, rounds


def evaluate(env: BlackjackEnv, policy: Policy, rounds: int, seed: int) -> tuple[float, float]:
    """Mean net per round and its standard error over ``rounds`` rounds (one episode each)."""
    obs, info = env.reset(seed=seed)
    results: list[float] = []
    net = 0.0
    while len(results) < rounds:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        net += reward
        if terminated or truncated:
            results.append(net)
            net = 0.0
            obs, info = env.reset()
    values = np.array(results)
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values)))


def agreement(learner: QLearner, basic: BasicStrategy) -> tuple[str, float, float, list[str]]:
    """The Markdown agreement table, the probability-weighted agreement, the EV it costs, the misses."""
    chart_cells = {(c.kind, c.label, c.up): c for c in basic.analysis.chart}
    ups = basic.chart.ups
    lines = [
        "| hands | " + " | ".join(ups) + " | all |",
        "|---|" + "---:|" * (len(ups) + 1),
    ]
    weight_all = weight_agree = cost = 0.0
    misses: list[str] = []
    for section in basic.chart.sections:
        agree = dict.fromkeys(ups, 0)
        total = dict.fromkeys(ups, 0)
        for label, row in section.rows:
            for up, cell in zip(ups, row, strict=True):
                if cell is None:
                    continue
                state = _state(section.kind, label, up)
                cc = chart_cells[(section.kind, label, up)]
                total[up] += 1
                weight_all += cc.probability
                if state not in learner.masks:
                    misses.append(f"{label} v {up}: not visited")
                    continue
                learned = ACTION_NAMES[learner.greedy(state, learner.masks[state])]
                if learned == cell.best:
                    agree[up] += 1
                    weight_agree += cc.probability
                else:
                    loss = cc.ev[cell.best] - cc.ev.get(learned, float("nan"))
                    cost += cc.probability * loss
                    misses.append(f"{label} v {up}: learned {learned}, chart {cell.best} (EV {loss:.4f} lower)")
        cells = " | ".join(f"{agree[up]}/{total[up]}" for up in ups)
        lines.append(f"| {section.title.lower()} | {cells} | {sum(agree.values())}/{sum(total.values())} |")
    return "\n".join(lines), weight_agree / weight_all, cost, misses


def _state(kind: str, label: str, up: str) -> State:
    u = VALUE_NAMES.index(up)
    if kind == "pair":
        value = VALUE_NAMES.index(label.split(",")[0])
        total = 12 if value == 1 else 2 * value
        return (PHASE_DECISION, total, int(value == 1), value, 1, 0, 0, u)
    if kind == "soft":
        return (PHASE_DECISION, int(label.split()[1]), 1, 0, 1, 0, 0, u)
    return (PHASE_DECISION, int(label), 0, 0, 1, 0, 0, u)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="macau-1983")
    parser.add_argument("--seconds", type=float, default=180.0, help="training time (default 180)")
    parser.add_argument("--eval-rounds", type=int, default=100_000, help="rounds per policy in the evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="plain Q-learning (default: double Q-learning)")
    args = parser.parse_args()
    env = BlackjackEnv(args.preset)
    basic = BasicStrategy(env.rules)
    learner, steps, rounds = train(env, args.seconds, args.seed, double=not args.plain)
    method = "Q-learning" if args.plain else "Double Q-learning"
    print(f"## {method} on {args.preset}: {args.seconds:.0f} s, {steps:,} steps, {rounds:,} rounds trained\n")
    table, weighted, cost, misses = agreement(learner, basic)
    print("First decisions where the learned greedy action is the chart's best action (cells agreeing / cells):\n")
    print(table)
    print(f"\nWeighted by how often each hand is dealt: {100 * weighted:.1f}% of first decisions agree; the")
    print(f"disagreements cost {cost:.4f} units per round by the exact analysis' EVs.\n")
    chart_ev, chart_se = evaluate(BlackjackEnv(args.preset), basic.act, args.eval_rounds, 99)
    learned_ev, learned_se = evaluate(BlackjackEnv(args.preset), learner.policy, args.eval_rounds, 99)
    print(f"| policy ({args.eval_rounds:,} rounds from one seed) | net per round | ± s.e. |")
    print("|---|---:|---:|")
    print(f"| exact basic strategy (analysis EV {basic.analysis.ev:+.4f}) | {chart_ev:+.4f} | {chart_se:.4f} |")
    print(f"| learned greedy policy | {learned_ev:+.4f} | {learned_se:.4f} |")
    print("\nDisagreements:")
    for miss in misses:
        print(f"- {miss}")


if __name__ == "__main__":
    main()
