"""The learning curve of the deep-RL baseline, PPO with action masks, against the exact strategy.

:class:`croupier.rl.ppo.MaskedPPO` (a two-layer tanh network in NumPy, the clipped objective with masks,
GAE, Adam) learns on ``BlackjackVectorEnv(--envs, preset)`` (one box, one unit a round, each table's shoe
carried over), ``--steps`` steps at every table per PPO iteration. After 10 × 2^k iterations its greedy
policy is measured by :func:`croupier.rl.values.regret` with ``fresh_shoe=True``, as benchmarks/rl_pg.py
measures the tabular REINFORCE baseline: ``--eval-rounds`` rounds, each dealt from a new shoe of one
seeded stream (the same hands at every point of the curve), and at each first decision the exact
expectation given up against the best option of the exact analysis. The exact basic strategy and a
uniformly random legal policy are measured the same way, side by side. Training seconds include the
environment's steps and the network's updates, not the measurements.

    python benchmarks/rl_ppo.py                              # macau-1983, 320 iterations (about 1.1 M rounds)
    python benchmarks/rl_ppo.py --iterations 40 --eval-rounds 500    # a short run
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from croupier.rl.agents import BasicStrategy, random_action
from croupier.rl.blackjack_vector import BlackjackVectorEnv
from croupier.rl.ppo import MaskedPPO, Rollouts, train
from croupier.rl.values import Regret, regret
from croupier.rng import seeded

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rl_pg import row  # the same table as the REINFORCE curve's


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="macau-1983")
    parser.add_argument("--envs", type=int, default=256, help="tables in the batch")
    parser.add_argument("--steps", type=int, default=32, help="steps at each table per PPO iteration")
    parser.add_argument("--iterations", type=int, default=320, help="train up to this many PPO iterations")
    parser.add_argument("--eval-rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = BlackjackVectorEnv(args.envs, args.preset)
    agent = MaskedPPO(int(env.single_action_space.n), seed=args.seed)
    run = Rollouts.start(env, args.seed)

    def measure(policy: object) -> Regret:
        return regret(policy, args.eval_rounds, preset=args.preset, seed=args.seed + 1000, fresh_shoe=True)  # type: ignore[arg-type]

    print(f"{args.preset}: first-decision regret per round (exact), {args.eval_rounds:,} rounds from fresh shoes")
    print(f"PPO with masks: {args.envs} tables x {args.steps} steps an iteration, seed {args.seed}")
    print("| policy | regret per round | first decisions off the best | training seconds |")
    print("|---|---:|---:|---:|")
    print(row("exact basic strategy (chart)", measure(BasicStrategy(env.rules).act)))
    pick = seeded(args.seed + 1)
    print(row("uniformly random legal action", measure(lambda obs, mask: random_action(mask, pick))))
    done, target, spent = 0, 10, 0.0
    while done < args.iterations:
        target = min(target, args.iterations)
        rounds, returns = run.rounds, run.returns
        start = time.perf_counter()
        while done < target:
            train(agent, run, args.steps)
            done += 1
        spent += time.perf_counter() - start
        mean = (run.returns - returns) / max(run.rounds - rounds, 1)
        name = f"PPO with masks, {done} iterations, {run.rounds:,} rounds (training return {mean:+.4f})"
        print(row(name, measure(agent.greedy), spent), flush=True)
        target *= 2


if __name__ == "__main__":
    main()
