"""Rounds per second of the automated blackjack engine under random legal play.

For each preset (``macau-1983``, ``live-online``) and each table size (1 box, 7 boxes) the engine
plays rounds from seeded shoes (:func:`croupier.rng.seeded`), every decision drawn uniformly from
``legal_actions()`` by :mod:`croupier.blackjack.autoplay`; a finished shoe is replaced by a freshly
shuffled one, and the shuffle counts. A short warm-up precedes each timed run. Everything runs in
one process on one core (pinned where the OS allows). The aim is 20,000 one-box rounds a second.

    python benchmarks/engine.py               # the default run, under 30 s
    python benchmarks/engine.py --rounds 2000 # a short run (CI)
    python benchmarks/engine.py --profile     # also the top functions by own time (cProfile)
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time
from collections.abc import Callable
from decimal import Decimal

from croupier.blackjack import actions as op
from croupier.blackjack import autoplay
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Table
from croupier.errors import ShoeError
from croupier.rng import RandomSource, seeded
from croupier.shoe import Shoe, place_cut_card

AIM = 20_000
"""One-box rounds a second the project aims at."""


def _new_shoe(rules: Rules, rng: RandomSource) -> Shoe:
    return Shoe.shuffled(rules.decks, place_cut_card(rules.cut_card, rules.decks * 52, rng), rng)


def player(rules: Rules, boxes: int, seed: int) -> Callable[[int], int]:
    """Random legal play: a bet on each of ``boxes`` boxes, then every decision drawn uniformly from
    ``legal_actions()`` (insurance, even money, doubles for less included) by ``autoplay``."""
    rng = seeded(seed)
    table = Table(rules, _new_shoe(rules, rng))
    stake = Decimal(10)

    def play(n: int) -> int:
        played = 0
        while played < n:
            if table.shoe_finished:
                table.new_shoe(_new_shoe(rules, rng))
            current = table.new_round()
            for box in range(1, boxes + 1):
                current.bet(f"p{box}", box, stake)
            current.deal()
            try:
                autoplay.play_out(current, rng)
            except ShoeError:  # the shoe ran dry mid-round: void it (Art. 2.1) and shuffle
                current.void("the shoe ran out of cards")
                table.new_shoe(_new_shoe(rules, rng))
                continue
            played += 1
        return played

    return play


def fixed_player(rules: Rules, boxes: int, seed: int) -> Callable[[int], int]:
    """The engine alone: fixed bets, no insurance, hit below 17, no randomness but the shuffles."""
    rng = seeded(seed)
    table = Table(rules, _new_shoe(rules, rng))
    stake = Decimal(10)

    def play(n: int) -> int:
        played = 0
        while played < n:
            if table.shoe_finished:
                table.new_shoe(_new_shoe(rules, rng))
            current = table.new_round()
            for box in range(1, boxes + 1):
                current.bet(f"p{box}", box, stake)
            current.deal()
            while not current.ended:
                pending = current.pending
                if isinstance(pending, op.AwaitInsurance):
                    current.close_insurance()
                elif isinstance(pending, op.AwaitDecision):
                    if current.hands[pending.box][pending.hand].total < 17 and current.can_hit(pending.box):
                        current.hit(pending.box)
                    else:
                        current.stand(pending.box)
                else:  # the shoe ran out mid-round: void it (Art. 2.1) and shuffle
                    current.void("the shoe ran out of cards")
                    table.new_shoe(_new_shoe(rules, rng))
                    break
            else:
                played += 1
        return played

    return play


def measure(play: Callable[[int], int], rounds: int) -> float:
    """Rounds per second over ``rounds`` timed rounds, after a warm-up of a tenth as many."""
    play(max(rounds // 10, 50))
    start = time.perf_counter()
    play(rounds)
    return rounds / (time.perf_counter() - start)


def profile(preset: str, boxes: int, rounds: int, seed: int, top: int) -> str:
    play = player(blackjack_rules(preset), boxes, seed)
    play(max(rounds // 10, 50))
    profiler = cProfile.Profile()
    profiler.enable()
    play(rounds)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity here)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30_000, help="timed one-box rounds per preset (default 30000)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the shoes and the decisions")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions for each run")
    parser.add_argument("--top", type=int, default=25, help="functions to list with --profile")
    args = parser.parse_args()
    print(f"croupier engine benchmark: random legal play, seed {args.seed}, {pin_to_one_core()}")
    print(f"{'preset':<12} {'boxes':>5} {'rounds':>8} {'rounds/s':>10} {'boxes/s':>10} {'engine alone':>13}")
    for preset in ("macau-1983", "live-online"):
        rules = blackjack_rules(preset)
        for boxes in (1, 7):
            rounds = args.rounds if boxes == 1 else max(args.rounds // 4, 1)  # 7 boxes: about 4x the work
            rate = measure(player(rules, boxes, args.seed), rounds)
            alone = measure(fixed_player(rules, boxes, args.seed), rounds)
            print(f"{preset:<12} {boxes:>5} {rounds:>8} {rate:>10,.0f} {rate * boxes:>10,.0f} {alone:>13,.0f}")
            if args.profile:
                print(profile(preset, boxes, rounds, args.seed, args.top))
    print(
        "rounds/s: a fixed bet per box, every decision drawn at random from legal_actions()\n"
        "engine alone: fixed bets, hit below 17, no insurance"
    )
    print(f"aim: {AIM:,} one-box rounds/s on one core")


if __name__ == "__main__":
    main()
