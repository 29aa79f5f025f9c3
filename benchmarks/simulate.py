"""Rounds per second of the compiled blackjack simulator, per core and on every core.

For each preset (``macau-1983``, ``live-online``) and table size (1 box, 7 boxes) the simulator plays
rounds from real shoes (cut card, burns, the analysis's strategy) with one thread, then with one thread
per core (numba's threads, chunks of :data:`croupier.sim.blackjack.DEFAULT_CHUNK` rounds). A warm-up
run comes first (numba compiles the kernel once, or loads it from its cache). Timings on a shared
machine are noisy: each figure is the median of ``--repeat`` runs, with their range. The aim is 9
million one-box rounds a second on one core.

What a seven-box round costs beside a one-box round is bounded by what it deals: the benchmark also
prints the cards and decisions of an average round of each (from :func:`record_blackjack`, the same
compiled round) and the time per card, so that the ratio of the two rounds can be read against the
ratio of their work.

    python benchmarks/simulate.py                 # the default run, about a minute
    python benchmarks/simulate.py --rounds 2000000 --repeat 1   # a short run (CI)
    python benchmarks/simulate.py --ev 100000000  # also the EV check: 10^8 continuous-shuffle rounds
                                                  # per rule set against the exact analysis (3 SE)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import dataclass

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.math.blackjack import analyze_blackjack
from croupier.sim.blackjack import DEFAULT_CHUNK, cores, record_blackjack, simulate_blackjack
from croupier.sim.charts import Strategy, strategy_from_analysis

AIM = 9_000_000
"""One-box rounds a second on one core the project aims at."""

EV_RULE_SETS: tuple[tuple[str, dict[str, object]], ...] = (
    ("macau-1983", {}),
    ("live-online", {}),
    ("macau-1983", {"dealer_hits_soft_17": True, "hole_card": "peek", "surrender": "late"}),
    ("live-online", {"decks": 6, "dealer_hits_soft_17": False, "max_split_hands": 4, "resplit_aces": True}),
    ("live-online", {"decks": 1, "hole_card": "none", "dealer_blackjack_takes": "all"}),
)
"""Rule sets of the EV check: both presets and a few variations."""

WORK_ROUNDS = 20_000
"""Recorded rounds from which the cards and decisions of an average round are counted."""


@dataclass(frozen=True)
class Rate:
    """Rounds a second over several runs: the median and the range."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def text(self) -> str:
        return f"{self.median / 1e6:.2f} M ({min(self.runs) / 1e6:.2f}-{max(self.runs) / 1e6:.2f})"


def rate(rules: Rules, strategy: Strategy, rounds: int, boxes: int, workers: int, repeat: int) -> Rate:
    """Rounds per second of ``repeat`` runs."""
    runs = []
    for attempt in range(repeat):
        result = simulate_blackjack(
            rules, rounds, seed=attempt, boxes=boxes, strategy=strategy, workers=workers, shuffle="shoe"
        )
        runs.append(result.rounds_per_second)
    return Rate(tuple(runs))


def whole_chunks(rounds: int, workers: int) -> int:
    """``rounds`` rounded up to a whole number of chunks for each worker: a run of fewer chunks than its
    threads can take at once (750,000 rounds are three chunks) would time the chunking, not the cores. On a
    machine of many cores this makes the 7-box runs longer (each run plays at least one chunk a core)."""
    step = DEFAULT_CHUNK * workers
    return max(-(-rounds // step) * step, step)


def work(rules: Rules, strategy: Strategy, boxes: int) -> tuple[float, float]:
    """The cards drawn (burns included) and the decisions made for an average settled round: a round voided
    when the shoe ran out is dealt again, and its cards count against the round that settles, as its time
    does in the rounds a second."""
    recorded, _ = record_blackjack(rules, WORK_ROUNDS, seed="work", boxes=boxes, strategy=strategy)
    settled = sum(1 for r in recorded if not r.voided)
    cards = sum(len(r.cards) for r in recorded) / settled
    decisions = sum(len(r.decisions) for r in recorded) / settled
    return cards, decisions


def speed(rounds: int, repeat: int) -> None:
    everyone = cores()
    print(f"croupier blackjack simulator: real shoes, the exact analysis's strategy, {everyone} core(s)")
    print(f"rounds/s: the median of {repeat} runs (min-max); load average before: {load()}")
    header = (
        f"{'rules':<12} {'boxes':>5} {'rounds':>10} {'1 core':>22} {'all cores':>22} {'cards':>6} "
        f"{'decisions':>9} {'ns/card':>8} {'aim':>6}"
    )
    print(header)
    for preset in ("macau-1983", "live-online"):
        rules = blackjack_rules(preset)
        strategy = strategy_from_analysis(rules)
        simulate_blackjack(rules, 20_000, boxes=7, strategy=strategy, workers=1)  # warm-up: compile or load
        medians = {}
        for boxes in (1, 7):
            n = rounds if boxes == 1 else whole_chunks(rounds // 4, everyone)
            one = rate(rules, strategy, n, boxes, 1, repeat)
            every = rate(rules, strategy, n, boxes, everyone, repeat)
            cards, decisions = work(rules, strategy, boxes)
            medians[boxes] = (one.median, cards)
            aim = ("met" if one.median >= AIM else "missed") if boxes == 1 else ""
            per_card = 1e9 / (one.median * cards)
            print(
                f"{preset:<12} {boxes:>5} {n:>10,} {one.text():>22} {every.text():>22} {cards:>6.2f} "
                f"{decisions:>9.2f} {per_card:>8.2f} {aim:>6}"
            )
        (one_box, one_cards), (seven, seven_cards) = medians[1], medians[7]
        print(
            f"{'':<12} a 7-box round costs {one_box / seven:.2f} one-box rounds on 1 core; "
            f"it deals {seven_cards / one_cards:.2f} times the cards"
        )
    print("ns/card: a round's time on 1 core over the cards it deals (decisions and settlement included)")
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
    parser.add_argument(
        "--rounds",
        type=int,
        default=20_000_000,
        help="timed one-box rounds (7 boxes: a quarter, in whole chunks for each core)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the median and the range are printed")
    parser.add_argument("--ev", type=int, default=0, metavar="ROUNDS", help="also run the EV check with ROUNDS")
    args = parser.parse_args()
    speed(args.rounds, args.repeat)
    if args.ev and not ev_check(args.ev):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
