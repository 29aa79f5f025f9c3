"""Coups per second of the compiled baccarat simulator, on one core and on every core.

The ``macau`` rules (8 decks, cut card 12-16 from the end, the first card turned and burned by its
value, three demonstration coups, one more coup after the cut card) with Lucky 6 offered, one unit on
every spot; a real shoe, a continuous shuffler, and a real shoe with the live edges (the exact
expectation of every spot counted before each deal). The first call compiles (or loads the cached
kernels) and is not timed. Each figure is the median of ``--repeat`` runs (each with its own seed),
with their range: the machine is shared and its figures swing.

    python benchmarks/simulate_baccarat.py [--coups N] [--live-coups N] [--seed S] [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics

from croupier.baccarat.presets import baccarat_rules
from croupier.sim.baccarat import cores, simulate_baccarat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--coups", type=int, default=20_000_000, help="coups per measurement (default 2e7)")
    parser.add_argument("--live-coups", type=int, default=200_000, help="coups per live-edge measurement")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure: the median and the range")
    options = parser.parse_args()
    rules = baccarat_rules("macau", {"lucky_6": True})
    simulate_baccarat(rules, 1000, seed="warm-up", workers=1)  # compile or load the cached kernels
    simulate_baccarat(rules, 1000, seed="warm-up", workers=1, live_edges=True)
    all_cores = cores()
    print(f"baccarat simulator, rules macau + lucky_6, {all_cores} core(s) available to numba")
    print(f"coups/s: the median of {options.repeat} runs (min-max)")
    print(f"{'mode':<24}{'workers':>8}{'coups':>12}  {'coups/s':<36}{'coups/s/core':>14}")
    cases = [
        ("real shoe", options.coups, {"shuffle": "shoe"}),
        ("continuous shuffler", options.coups, {"shuffle": "continuous"}),
        ("real shoe, live edges", options.live_coups, {"shuffle": "shoe", "live_edges": True}),
    ]
    for name, coups, extra in cases:
        for workers in sorted({1, all_cores}):
            rates = [
                simulate_baccarat(rules, coups, seed=f"{options.seed}-{run}", workers=workers, **extra).coups_per_second  # type: ignore[arg-type]
                for run in range(options.repeat)
            ]
            median = statistics.median(rates)
            spread = f"{median:,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"
            print(f"{name:<24}{workers:>8}{coups:>12,}  {spread:<36}{median / workers:>14,.0f}")


if __name__ == "__main__":
    main()
