"""Time the exact analyses on a full 8-deck shoe, after warm-up.

Run: ``.venv/bin/python benchmarks/analysis.py [--runs N]``. Each analysis runs once to warm up (imports,
caches), then ``N`` times; the median wall time is printed, with the fastest and slowest. Floats
here are timings; baccarat is exact in fractions, blackjack sums its probabilities in float64.

Aims: baccarat under 50 ms; blackjack under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

Benchmark = Callable[[], object]


def baccarat_full_shoe() -> object:
    """A full 8-deck Macau analysis: every count, probability and house edge."""
    from croupier.baccarat.presets import baccarat_rules
    from croupier.math.baccarat import analyze_baccarat

    analysis = analyze_baccarat(baccarat_rules("macau", {"lucky_6": "true"}))
    return analysis.house_edge


# --- blackjack ------------------------------------------------------------------------------------
# The blackjack analysis computes probabilities in float64 (croupier.math.blackjack); the first call
# also compiles (or loads from numba's cache) its kernels and builds its tables: that is the warm-up.


def blackjack_full_shoe() -> object:
    """A full 8-deck analysis of the live-online preset: every option of every hand, EV, SD, insurance."""
    from croupier.blackjack.presets import blackjack_rules
    from croupier.math.blackjack import analyze_blackjack

    return analyze_blackjack(blackjack_rules("live-online")).ev


def blackjack_full_shoe_split_to_four() -> object:
    """8 decks, S17, DOA, DAS, split to four hands (resplits are the costliest part of the analysis)."""
    from croupier.blackjack.presets import blackjack_rules
    from croupier.math.blackjack import analyze_blackjack

    rules = blackjack_rules(
        "live-online",
        {"dealer_hits_soft_17": "false", "hole_card": "peek", "max_split_hands": 4, "double_after_split": "true"},
    )
    return analyze_blackjack(rules).ev


BENCHMARKS: dict[str, tuple[Benchmark, str]] = {
    "baccarat, full 8-deck analysis": (baccarat_full_shoe, "aim < 50 ms"),
    "blackjack, full 8-deck analysis (live-online)": (blackjack_full_shoe, "aim < 1 s"),
    "blackjack, full 8-deck analysis (S17, DAS, split to 4)": (blackjack_full_shoe_split_to_four, "aim < 1 s"),
}


def measure(run: Benchmark, runs: int) -> list[float]:
    """Wall times in seconds of ``runs`` calls of ``run``, after one call to warm up."""
    run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="timed runs after the warm-up (default 15)")
    args = parser.parse_args()
    for name, (run, aim) in BENCHMARKS.items():
        times = measure(run, args.runs)
        print(
            f"{name}: median {statistics.median(times) * 1000:.1f} ms over {len(times)} runs after warm-up "
            f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}; {aim})"
        )


if __name__ == "__main__":
    main()
