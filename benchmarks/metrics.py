"""What the server's metrics cost an answer: ``Metrics.answered`` (one histogram observation, by route
template, method and status), as the HTTP guard makes it at the start of every answer.

    python benchmarks/metrics.py [--calls 100000] [--repeats 5]

Prints the best and the median of ``--repeats`` timings, in microseconds a call, for a route whose
labels are already made (every answer after the first of its route, method and status).
"""

from __future__ import annotations

import argparse
import statistics
import time
from types import SimpleNamespace
from typing import Any

from croupier.server.metrics import Metrics


def timed(calls: int, answer: Any) -> float:
    began = time.perf_counter()
    for n in range(calls):
        answer(n)
    return (time.perf_counter() - began) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    service: Any = SimpleNamespace(actors={}, hub=SimpleNamespace(counts={}), engine=None)
    metrics = Metrics(service)
    bets = {"route": SimpleNamespace(path="/api/tables/{table_id}/bets"), "method": "POST"}
    kept = [timed(args.calls, lambda _n: metrics.answered(bets, 200, 0.012)) for _ in range(args.repeats)]
    print(f"Metrics.answered: best {min(kept):.2f} µs, median {statistics.median(kept):.2f} µs a call")


if __name__ == "__main__":
    main()
