"""Rounds per second of the compiled blackjack simulator, per core and on every core.

For each preset (``macau-1983``, ``live-online``) and table size (1 box, 7 boxes) the simulator plays
rounds from real shoes (cut card, burns, the analysis's strategy) with one thread, then with one thread
per core (numba's threads, chunks of :data:`croupier.sim.blackjack.DEFAULT_CHUNK` rounds). A warm-up
run comes first (numba compiles the kernel once, or loads it from its cache). Timings on a shared
machine are noisy: each figure is the best of ``--repeat`` runs. The aim is 8 million one-box rounds
a second on one core.

    python benchmarks/simulate.py                 # the default run, about a minute
    python benchmarks/simulate.py --rounds 2000000 --repeat 1   # a short run (CI)
    python benchmarks/simulate.py --ev 100000000  # also the EV check: 10^8 continuous-shuffle rounds
                                                  # per rule set against the exact analysis (3 SE)
"""

from __future__ import annotations

import argparse
import os
import time

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.math.blackjack import analyze_blackjack
from croupier.sim.blackjack import cores, simulate_blackjack
from croupier.sim.charts import Strategy, strategy_from_analysis

AIM = 8_000_000
"""One-box rounds a second on one core the project aims at."""

EV_RULE_SETS: tuple[tuple[str, dict[str, object]], ...] = (
    ("macau-1983", {}),
    ("live-online", {}),
    ("macau-1983", {"dealer_hits_soft_17": True, "hole_card": "peek", "surrender": "late"}),
    ("live-online", {"decks": 6, "dealer_hits_soft_17": False, "max_split_hands": 4, "resplit_aces": True}),
    ("live-online", {"decks": 1, "hole_card": "none", "dealer_blackjack_takes": "all"}),
)
"""Rule sets of the EV check: both presets and a few variations."""


def rate(rules: Rules, strategy: Strategy, rounds: int, boxes: int, workers: int, repeat: int) -> float:
    """The best rounds per second of ``repeat`` runs."""
    best = 0.0
    for attempt in range(repeat):
        result = simulate_blackjack(
            rules, rounds, seed=attempt, boxes=boxes, strategy=strategy, workers=workers, shuffle="shoe"
        )
        best = max(best, result.rounds_per_second)
    return best


def speed(rounds: int, repeat: int) -> None:
    everyone = cores()
    print(f"croupier blackjack simulator: real shoes, the exact analysis's strategy, {everyone} core(s)")
    print(f"load average before: {load()} (other work on the machine slows every figure)")
    print(f"{'rules':<12} {'boxes':>5} {'rounds':>12} {'rounds/s, 1 core':>18} {'all cores':>14} {'aim 1 box':>10}")
    for preset in ("macau-1983", "live-online"):
        rules = blackjack_rules(preset)
        strategy = strategy_from_analysis(rules)
        simulate_blackjack(rules, 20_000, boxes=7, strategy=strategy, workers=1)  # warm-up: compile or load
        for boxes in (1, 7):
            n = rounds if boxes == 1 else max(rounds // 4, 1)
            one = rate(rules, strategy, n, boxes, 1, repeat)
            every = rate(rules, strategy, n, boxes, everyone, repeat)
            aim = ("met" if one >= AIM else "missed") if boxes == 1 else ""
            print(f"{preset:<12} {boxes:>5} {n:>12,} {one:>18,.0f} {every:>14,.0f} {aim:>10}")
    print(f"load average after: {load()}")


def load() -> str:
    """The 1-minute load average, where the OS tells it."""
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "unknown"


def ev_check(rounds: int) -> bool:
    print(f"EV check: {rounds:,} continuous-shuffle rounds per rule set, one box, against the exact analysis")
    passed = True
    for preset, overrides in EV_RULE_SETS:
        rules = blackjack_rules(preset, overrides)
        analysis = analyze_blackjack(rules)
        started = time.perf_counter()
        result = simulate_blackjack(
            rules, rounds, seed="ev check", shuffle="continuous", strategy=strategy_from_analysis(rules, analysis)
        )
        z = (result.ev - analysis.ev) / result.se
        ok = abs(z) < 3
        passed = passed and ok
        name = preset + ("" if not overrides else " " + ",".join(f"{k}={v}" for k, v in overrides.items()))
        print(
            f"  {name}\n    exact {analysis.ev:+.6f}  simulated {result.ev:+.6f} ± {result.se:.6f}  "
            f"z {z:+.2f}  {'ok' if ok else 'OFF BY MORE THAN 3 SE'}  ({time.perf_counter() - started:.1f} s)"
        )
    return passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000, help="timed one-box rounds (7 boxes: a quarter)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is printed")
    parser.add_argument("--ev", type=int, default=0, metavar="ROUNDS", help="also run the EV check with ROUNDS")
    args = parser.parse_args()
    speed(args.rounds, args.repeat)
    if args.ev and not ev_check(args.ev):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
