"""Coups per second of the automated baccarat engine.

Seeded shuffles (``croupier.rng.seeded``), the macau rules, and random bets from three players on
every spot; every chore automated (shoe start, burns, deal, tableau, settlement) and every operation
recorded. A new table per shoe, as a simulation would run it.

    python benchmarks/baccarat.py [--coups N] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from decimal import Decimal

from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.state import ALL_AUTOMATIONS, Automation, BaccaratTable, Phase, shuffled_shoes
from croupier.rng import seeded

PLAYERS = ("ana", "bo", "cy")
AMOUNTS = tuple(Decimal(amount) for amount in (10, 20, 50, 100, 500))


def run(coups: int, seed: str) -> tuple[int, int, float]:
    """Play at least ``coups`` coups; return the coups played, the shoes used and the seconds taken."""
    rules = baccarat_rules("macau")
    new_shoe = shuffled_shoes(rules, seeded(seed))
    bets = seeded(seed + ":bets")
    spots = rules.spots
    automations = ALL_AUTOMATIONS - {Automation.SHUFFLING}
    played = shoes = 0
    start = time.perf_counter()
    while played < coups:
        table = BaccaratTable(rules, new_shoe(), automations=automations)
        shoes += 1
        while table.phase is Phase.BETTING and played < coups:
            for player in PLAYERS:
                if bets.randbelow(4):  # three bets in four
                    spot = spots[bets.randbelow(len(spots))]
                    table.place_bet(player, spot, AMOUNTS[bets.randbelow(len(AMOUNTS))])
            table.start_coup()
            played += 1
    return played, shoes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=100_000, help="coups to play (default 100000)")
    parser.add_argument("--seed", default="benchmark", help="seed of the shuffles and the bets")
    args = parser.parse_args()
    played, shoes, seconds = run(args.coups, args.seed)
    print(f"baccarat: {played} coups from {shoes} shoes in {seconds:.2f} s: {played / seconds:,.0f} coups/s")


if __name__ == "__main__":
    main()
