"""The learning curve of a masked policy-gradient baseline against the exact strategy.

:class:`croupier.rl.pg.MaskedReinforce` (tabular masked softmax policy, REINFORCE with a learned
state-value baseline, NumPy only) learns on ``BlackjackEnv(preset)`` (one box, a flat bet of one
unit, the preset's finite shoe carried over). After 5,000 × 2^k episodes its greedy policy is
measured by :func:`croupier.rl.values.regret` with ``fresh_shoe=True``: ``--eval-rounds`` rounds,
each dealt from a new shoe of the same seeded stream (the same hands for every point of the curve),
and at each first decision the exact expectation given up against the best option of the exact
analysis (no sampling noise in that figure). The exact basic strategy and a uniformly random legal
policy are measured the same way, side by side.

    python benchmarks/rl_pg.py                       # macau-1983, up to 640,000 episodes (minutes)
    python benchmarks/rl_pg.py --episodes 20000 --eval-rounds 500   # a short run (CI)
"""

from __future__ import annotations

import argparse
import time

from croupier.rl.agents import BasicStrategy, random_action
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.pg import MaskedReinforce, train_episodes
from croupier.rl.values import Regret, regret
from croupier.rng import seeded


def row(name: str, found: Regret, seconds: float | None = None) -> str:
    share = found.mistakes / found.decisions if found.decisions else 0.0
    took = "" if seconds is None else f"{seconds:.0f}"
    return f"| {name} | {found.decision_regret:.5f} | {share:.1%} | {took} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="macau-1983")
    parser.add_argument("--episodes", type=int, default=640_000, help="train up to this many episodes")
    parser.add_argument("--eval-rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step", type=float, default=0.1, help="the actor's learning rate")
    args = parser.parse_args()
    env = BlackjackEnv(args.preset)
    env.reset(seed=args.seed)
    agent = MaskedReinforce(int(env.action_space.n), seeded(args.seed), step=args.step)

    def measure(policy: object) -> Regret:
        return regret(policy, args.eval_rounds, preset=args.preset, seed=args.seed + 1000, fresh_shoe=True)  # type: ignore[arg-type]

    print(f"{args.preset}: first-decision regret per round (exact), {args.eval_rounds:,} rounds from fresh shoes")
    print("| policy | regret per round | first decisions off the best | training seconds |")
    print("|---|---:|---:|---:|")
    print(row("exact basic strategy (chart)", measure(BasicStrategy(env.rules).act)))
    pick = seeded(args.seed + 1)
    print(row("uniformly random legal action", measure(lambda obs, mask: random_action(mask, pick))))
    done, episodes, spent = 0, 5000, 0.0
    while done < args.episodes:
        target = min(episodes, args.episodes)
        start = time.perf_counter()
        mean = train_episodes(agent, env, target - done)
        spent += time.perf_counter() - start
        done = target
        print(row(f"masked REINFORCE, {done:,} episodes (training return {mean:+.4f})", measure(agent.greedy), spent))
        episodes *= 2


if __name__ == "__main__":
    main()
