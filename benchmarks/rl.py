"""Environment steps per second: croupier's blackjack environments against Gymnasium's Blackjack-v1.

Each environment is made with ``gymnasium.make`` (the same default wrappers for all: the passive
checker and the order enforcer) and played by the same random agent: each action drawn uniformly
among the legal ones of ``info["action_mask"]`` (Blackjack-v1 has no mask: both of its actions are
legal) with a seeded NumPy generator; ``reset`` follows every episode and is timed with it. A step
is one ``env.step`` call. Blackjack-v1 deals from an infinite deck and offers hit and stand only;
ours play the full rules from a finite shoe (burns, cut card, a new shoe when it comes out), and
every observation carries the counter's view. The aim: at least a quarter of the toy's speed.

Honest returns: the exact basic strategy (:class:`croupier.rl.agents.BasicStrategy`) plays
``--rounds`` episodes of each preset under ``gymnasium.wrappers.RecordEpisodeStatistics``; its
mean episode return is set against the exact analysis' EV (``croupier analyze``) in standard errors.

    python benchmarks/rl.py                            # speed about 20 s, returns 10^6 rounds a preset
    python benchmarks/rl.py --seconds 0.5 --rounds 500 # a short run (CI)
    python benchmarks/rl.py --profile                  # also the top functions of our step path (cProfile)
    python benchmarks/rl.py --skip speed returns       # the batch section alone

Batch: N tables stepped in one call. croupier's :class:`~croupier.rl.baccarat_vector.BaccaratVectorEnv`
(one compiled call deals a coup at every table) and :class:`~croupier.rl.blackjack_vector.BlackjackVectorEnv`
(one compiled call takes a decision at every table) against Gymnasium's ``SyncVectorEnv`` of Blackjack-v1
and of croupier's single baccarat environment, and envpool's ``Blackjack-v1`` where envpool is
installed. Every vector is driven the same way: each step the agent draws, for every table, a uniform
legal action from the mask (one vectorised NumPy draw), and the draw is timed with the step.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import pstats
import time
from typing import Any

import gymnasium
import numpy as np

import croupier.rl  # noqa: F401  (registers the ids)
from croupier.rl.agents import BasicStrategy

AIM = 0.25
"""The share of Blackjack-v1's steps per second the project aims at."""

TOY = "Blackjack-v1"
OURS = ("croupier/Blackjack-macau-1983-v0", "croupier/Blackjack-live-online-v0")


def run(env: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Steps and episodes per second of random legal play for about ``seconds``."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    both = np.ones(2, dtype=np.int8)
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            mask = info.get("action_mask", both)
            legal = np.flatnonzero(mask)
            _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                episodes += 1
                _, info = env.reset()
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return steps / elapsed, episodes / elapsed


def honest_returns(env_id: str, rounds: int, seed: int = 2026) -> tuple[float, float, float, float]:
    """The exact basic strategy's mean episode return under RecordEpisodeStatistics over ``rounds``
    episodes, its standard error, the analysis' EV, and the seconds it took."""
    env = gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.make(env_id), buffer_length=rounds)
    agent = BasicStrategy(env.unwrapped.rules)  # type: ignore[attr-defined]
    start = time.perf_counter()
    obs, info = env.reset(seed=seed)
    while len(env.return_queue) < rounds:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info["action_mask"]))
        if terminated or truncated:
            obs, info = env.reset()
    returns = np.array(env.return_queue, dtype=np.float64)
    se = float(returns.std(ddof=1)) / math.sqrt(len(returns))
    return float(returns.mean()), se, agent.analysis.ev, time.perf_counter() - start


def print_returns(rounds: int) -> None:
    print(f"\nHonest returns: exact basic strategy, {rounds:,} episodes, RecordEpisodeStatistics, seed 2026")
    print("| environment | mean episode return | ± s.e. | analysis EV | (mean − EV) / s.e. | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for env_id in OURS:
        mean, se, ev, seconds = honest_returns(env_id, rounds)
        print(f"| `{env_id}` | {mean:.5f} | {se:.5f} | {ev:.5f} | {(mean - ev) / se:+.2f} | {seconds:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per environment (default 3)")
    parser.add_argument("--profile", action="store_true", help="profile our step path (cProfile)")
    parser.add_argument("--rounds", type=int, default=1_000_000, help="episodes of the returns check (default 10^6)")
    parser.add_argument("--skip", nargs="*", default=(), choices=("speed", "returns", "batch"), help="sections to skip")
    args = parser.parse_args()
    if "speed" not in args.skip:
        print_speed(args.seconds)
    if "returns" not in args.skip:
        print_returns(args.rounds)
    if "batch" not in args.skip:
        print_batch(args.seconds)
    if args.profile:
        env = gymnasium.make(OURS[0]).unwrapped
        profiler = cProfile.Profile()
        profiler.enable()
        run(env, args.seconds)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(18)
        print(out.getvalue())


def print_speed(seconds: float) -> None:
    rows: list[tuple[str, str, float, float]] = []
    for env_id in (TOY, *OURS):
        for wrapped in (True, False):
            env = gymnasium.make(env_id)
            target = env if wrapped else env.unwrapped
            run(target, min(0.3, seconds))  # warm-up
            steps, episodes = run(target, seconds)
            rows.append((env_id, "`make`" if wrapped else "unwrapped", steps, episodes))
    toy = {how: steps for env_id, how, steps, _ in rows if env_id == TOY}
    print("| environment | made by | steps/s | episodes/s | steps/s ÷ Blackjack-v1's |")
    print("|---|---|---:|---:|---:|")
    for env_id, how, steps, episodes in rows:
        ratio = steps / toy[how]
        print(f"| `{env_id}` | {how} | {steps:,.0f} | {episodes:,.0f} | {ratio:.2f} |")
    worst = min(steps / toy[how] for env_id, how, steps, _ in rows if env_id != TOY)
    verdict = "meets" if worst >= AIM else "misses"
    print(f"\nLowest ratio {worst:.2f}: {verdict} the aim of {AIM:.2f} of Blackjack-v1's steps per second.")


def run_vector(envs: Any, seconds: float, masks: Any, seed: int = 0) -> float:
    """Steps per second (a step of one table counts one) of random legal play over ``envs`` for about
    ``seconds``; ``masks()`` gives the (num_envs, actions) legal actions now."""
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    n = envs.num_envs
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            legal = masks()
            actions = np.argmax(rng.random(legal.shape) * legal, axis=1)
            envs.step(actions)
            calls += 1
    return calls * n / (time.perf_counter() - start)


def print_batch(seconds: float) -> None:
    from croupier.rl.baccarat_vector import BaccaratVectorEnv

    rows: list[tuple[str, int, float]] = []
    for n in (256, 4096):
        batch = BaccaratVectorEnv(n)
        run_vector(batch, min(0.3, seconds), batch.action_masks)  # warm-up
        rows.append(
            ("croupier `BaccaratVectorEnv` (one compiled call)", n, run_vector(batch, seconds, batch.action_masks))
        )
    from croupier.rl.blackjack_vector import BlackjackVectorEnv

    for preset in ("macau-1983", "live-online"):
        for n in (256, 4096):
            tables = BlackjackVectorEnv(n, preset)
            run_vector(tables, min(0.3, seconds), tables.action_masks)  # warm-up
            name = f"croupier `BlackjackVectorEnv` {preset} (one compiled call)"
            rows.append((name, n, run_vector(tables, seconds, tables.action_masks)))
    for n in (16, 256):
        toy = gymnasium.make_vec(TOY, num_envs=n, vectorization_mode="sync")
        ones = np.ones((n, 2), dtype=np.int8)
        rows.append((f"Gymnasium `SyncVectorEnv` of `{TOY}`", n, run_vector(toy, seconds, lambda o=ones: o)))
    single = gymnasium.make_vec("croupier/Baccarat-macau-v0", num_envs=16, vectorization_mode="sync")
    mask_of = single.unwrapped.call  # type: ignore[attr-defined]
    rows.append(("Gymnasium `SyncVectorEnv` of `croupier/Baccarat-macau-v0`", 16,
                 run_vector(single, seconds, lambda: np.stack(mask_of("action_masks")))))  # fmt: skip
    try:
        import envpool  # type: ignore[import-not-found]
    except ImportError:
        print("\n(envpool is not installed here: its row is left out)")
    else:
        for n in (256, 4096):
            for threads in (1, 0):  # one thread (one core, as ours), and envpool's default
                pool = envpool.make_gymnasium("Blackjack-v1", num_envs=n, batch_size=n, num_threads=threads)
                ones = np.ones((n, 2), dtype=np.int8)
                how = "1 thread" if threads else "its default threads"
                rows.append((f"envpool `Blackjack-v1`, {how}", n, run_vector(pool, seconds, lambda o=ones: o)))
    print("\nBatch: random legal play, one table's step counts one, the agent's draw included")
    print("| environment | tables | steps/s |")
    print("|---|---:|---:|")
    for name, n, steps in rows:
        print(f"| {name} | {n:,} | {steps:,.0f} |")


if __name__ == "__main__":
    main()
