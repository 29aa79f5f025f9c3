"""The load benchmark's reading of each server's garbage collections (``benchmarks/load.py``): the counts
a server's metrics give (croupier.server.heap), said as counts, total pauses and the longest's bound."""

from __future__ import annotations

from collections.abc import Iterator

from benchmarks.load import collections_text
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from croupier.server.heap import Pauses
from croupier.server.metrics import _collections


class _Heap(Collector):
    def __init__(self, pauses: Pauses) -> None:
        self.pauses = pauses

    def collect(self) -> Iterator[Metric]:
        yield from _collections(self.pauses)


def metrics_text(pauses: Pauses) -> str:
    registry = CollectorRegistry()
    registry.register(_Heap(pauses))
    return generate_latest(registry).decode()


def test_the_benchmark_reads_each_kind_of_collection_its_total_and_its_longest() -> None:
    pauses = Pauses()
    for _ in range(40):
        pauses.observe(0, 0.0003, 0)
    pauses.observe(1, 0.004, 12)
    pauses.observe(2, 0.08, 300)
    pauses.observe(2, 0.14, 10)
    text = collections_text(metrics_text(pauses))
    assert text == (
        "young (0) 40, 12 ms in all, each under 0.5 ms; young (1) 1, 4 ms in all, each under 5 ms; "
        "full 2, 220 ms in all, each under 250 ms"
    )


def test_a_pause_over_every_bound_and_no_collection_are_said_so() -> None:
    pauses = Pauses()
    pauses.observe(2, 2.5, 0)
    assert collections_text(metrics_text(pauses)) == "young (0) 0; young (1) 0; full 1, 2500 ms in all, over 1 s"
    assert collections_text("# nothing here\n") == "none counted"
