"""Coups per second of the compiled baccarat simulator, on one core and on every core.

The ``macau`` rules (8 decks, cut card 12-16 from the end, the first card turned and burned by its
value, three demonstration coups, one more coup after the cut card) with Lucky 6 offered, one unit on
every spot; a real shoe, a continuous shuffler, and a real shoe with the live edges (the exact
expectation of every spot counted before each deal). The first call compiles (or loads the cached
kernels) and is not timed.

    python benchmarks/simulate_baccarat.py [--coups N] [--live-coups N] [--seed S]
"""

from __future__ import annotations

import argparse

from croupier.baccarat.presets import baccarat_rules
from croupier.sim.baccarat import cores, simulate_baccarat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--coups", type=int, default=20_000_000, help="coups per measurement (default 2e7)")
    parser.add_argument("--live-coups", type=int, default=200_000, help="coups per live-edge measurement")
    parser.add_argument("--seed", default="bench")
    options = parser.parse_args()
    rules = baccarat_rules("macau", {"lucky_6": True})
    simulate_baccarat(rules, 1000, seed="warm-up", workers=1)  # compile or load the cached kernels
    simulate_baccarat(rules, 1000, seed="warm-up", workers=1, live_edges=True)
    all_cores = cores()
    print(f"baccarat simulator, rules macau + lucky_6, {all_cores} core(s) available to numba")
    print(f"{'mode':<26}{'workers':>8}{'coups':>14}{'seconds':>10}{'coups/s':>16}{'coups/s/core':>16}")
    cases = [
        ("real shoe", options.coups, {"shuffle": "shoe"}),
        ("continuous shuffler", options.coups, {"shuffle": "continuous"}),
        ("real shoe, live edges", options.live_coups, {"shuffle": "shoe", "live_edges": True}),
    ]
    for name, coups, extra in cases:
        for workers in sorted({1, all_cores}):
            result = simulate_baccarat(rules, coups, seed=options.seed, workers=workers, **extra)  # type: ignore[arg-type]
            rate = result.coups_per_second
            print(f"{name:<26}{workers:>8}{coups:>14,}{result.seconds:>10.2f}{rate:>16,.0f}{rate / workers:>16,.0f}")


if __name__ == "__main__":
    main()
