"""Time the exact analyses: whole ``croupier`` processes, and the computation inside a warm process.

Run: ``.venv/bin/python benchmarks/analysis.py [--runs N] [--first]``.

Whole processes (what a user waits for): ``croupier --help``, ``croupier analyze baccarat`` and
``croupier analyze blackjack`` from 1, 2, 6 and 8 decks and a 26-card remaining shoe, each run ``N``
times, interleaved (one of each, then again), after one untimed run of each; printed as the median with
the fastest and the slowest. Blackjack is timed twice: with the ahead-of-time build of ``croupier
warm`` (as after ``make``) and with numba's JIT kernels from its cache (``CROUPIER_AOT=0``).
``--first`` also runs ``croupier warm`` and times the first ``analyze blackjack`` after it and the next.

In a warm process: the analyses alone, after one call to warm up. Floats here are timings.

Goals (as fast as the best C++ and numba tools, from the first run): blackjack whole process <= 0.7 s for any rules,
1-8 decks; baccarat <= 150 ms; ``--help`` <= 150 ms; the first run after ``make`` within 1.5x the second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

Benchmark = Callable[[], object]
CROUPIER = shutil.which("croupier") or str(Path(sys.executable).parent / "croupier")

PROCESSES: dict[str, tuple[list[str], dict[str, str]]] = {
    "croupier --help": (["--help"], {}),
    "analyze baccarat": (["analyze", "baccarat"], {}),
    **{
        f"analyze blackjack --decks {d}{' (JIT)' if jit else ''}": (
            ["analyze", "blackjack", "--decks", str(d)],
            {"CROUPIER_AOT": "0"} if jit else {},
        )
        for jit in (False, True)
        for d in (1, 2, 6, 8)
    },
    "analyze blackjack --remaining (26 cards)": (["analyze", "blackjack", "--remaining", ",".join(["2"] * 13)], {}),
}


def run_process(args: list[str], env: dict[str, str]) -> float:
    """Wall time in seconds of one ``croupier`` process (its output discarded)."""
    start = time.perf_counter()
    subprocess.run([CROUPIER, *args], env={**os.environ, **env}, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def processes(runs: int) -> None:
    for args, env in PROCESSES.values():
        run_process(args, env)
    times: dict[str, list[float]] = {name: [] for name in PROCESSES}
    for _ in range(runs):
        for name, (args, env) in PROCESSES.items():
            times[name].append(run_process(args, env))
    for name, values in times.items():
        print(f"whole process, {name}: {_spread(values)}")


def first_runs() -> None:
    subprocess.run([CROUPIER, "warm"], stdout=subprocess.DEVNULL, check=True)
    args = ["analyze", "blackjack", "--decks", "8"]
    first = run_process(args, {})
    second = run_process(args, {})
    print(f"after croupier warm: first analyze blackjack {first * 1000:.0f} ms, second {second * 1000:.0f} ms")


def baccarat_full_shoe() -> object:
    """A full 8-deck Macau analysis: every count, probability and house edge."""
    from croupier.baccarat.presets import baccarat_rules
    from croupier.math.baccarat import analyze_baccarat

    analysis = analyze_baccarat(baccarat_rules("macau", {"lucky_6": "true"}))
    return analysis.house_edge


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


BENCHMARKS: dict[str, Benchmark] = {
    "baccarat, full 8-deck analysis": baccarat_full_shoe,
    "blackjack, full 8-deck analysis (live-online)": blackjack_full_shoe,
    "blackjack, full 8-deck analysis (S17, DAS, split to 4)": blackjack_full_shoe_split_to_four,
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


def _spread(times: list[float]) -> str:
    return (
        f"median {statistics.median(times) * 1000:.0f} ms over {len(times)} runs "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (default 7)")
    parser.add_argument("--first", action="store_true", help="also time the first run after croupier warm")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores shared)")
    if args.first:
        first_runs()
    processes(args.runs)
    for name, run in BENCHMARKS.items():
        print(f"in a warm process, {name}: {_spread(measure(run, args.runs))}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
