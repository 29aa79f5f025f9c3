"""``croupier serve``'s garbage collection (croupier.server.heap): the collector's full collections, each of
which stops the event loop and every table with it, come only from the server's own timer, and a cycle
of references is still freed by them (docs/performance.md, "Python's full collections")."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from croupier import cli
from croupier.server import app as server_app
from croupier.server.heap import NEVER, Heap
from croupier.server.service import Settings


@pytest.fixture(autouse=True)
def _collector_given_back() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # what a heap froze of the test process: given back
    gc.set_threshold(*thresholds)


class Node:
    other: Any = None


def old_cycle(freed: asyncio.Event) -> None:
    """Two objects that refer to each other, kept past two young collections (so only a full collection
    looks at them again), then let go: garbage only the cyclic collector frees."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    weakref.finalize(a, freed.set)
    gc.collect(1)  # they outlive the young generations: now in the oldest


def test_a_cycle_left_in_the_oldest_generation_is_freed_by_the_servers_full_collection() -> None:
    asyncio.run(a_cycle_freed())


async def a_cycle_freed() -> None:
    pauses: list[tuple[int, float]] = []
    before = gc.get_threshold()
    heap = Heap(0.05, lambda generation, seconds: pauses.append((generation, seconds)))
    heap.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], NEVER)  # no full collection by the collector's rule
        assert gc.get_freeze_count() > 0  # what there was at the start: out of every collection
        freed = asyncio.Event()
        old_cycle(freed)
        for _ in range(3 * before[1]):
            gc.collect(1)  # the young collections, as many as would have made the collector's own full one
        assert not freed.is_set()
        await asyncio.wait_for(freed.wait(), 10)  # the heap's timer: its full collection freed it
        assert heap.full_collections >= 1
        assert {generation for generation, _ in pauses} >= {1, 2}
        assert all(seconds >= 0 for _, seconds in pauses)
    finally:
        await heap.stop()
    assert gc.get_threshold() == before  # the collector's own rule back
    count = len(pauses)
    gc.collect()
    assert len(pauses) == count  # no longer timed


def test_stopping_a_heap_twice_or_never_started_changes_nothing() -> None:
    asyncio.run(stopped_twice())


async def stopped_twice() -> None:
    before = gc.get_threshold()
    idle = Heap(1.0, lambda _generation, _seconds: None)
    await idle.stop()
    assert gc.get_threshold() == before
    heap = Heap(1.0, lambda _generation, _seconds: None)
    heap.start()
    await heap.stop()
    await heap.stop()
    assert gc.get_threshold() == before


@pytest.mark.parametrize("every", [0.0, -1.0, float("nan")])
def test_a_heap_needs_a_positive_time_between_full_collections(every: float) -> None:
    with pytest.raises(ValueError, match="full collections"):
        Heap(every, lambda _generation, _seconds: None)


def test_a_serving_application_times_its_collections_in_its_metrics(tmp_path: Any) -> None:
    """The heap is the application's while it serves: its pauses in ``croupier_gc_pause_seconds``, the
    collector's own rule given back when it stops."""
    before = gc.get_threshold()
    settings = Settings(
        database=f"sqlite+aiosqlite:///{tmp_path}/h.db",
        demo=False,
        run_tables=False,
        settle_heap=True,
        full_collection_seconds=3600,
        metrics_token="m" * 16,
    )
    with TestClient(server_app.create_app(settings)) as client:
        assert gc.get_threshold()[2] == NEVER
        gc.collect(0)
        text = client.get("/api/metrics", headers={"Authorization": "Bearer " + "m" * 16}).text
        assert 'croupier_gc_pause_seconds_count{generation="0"}' in text
    assert gc.get_threshold() == before


@pytest.mark.parametrize("value", ["0", "0.5", "3601", "nan"])
def test_serve_refuses_a_time_between_full_collections_out_of_its_range(value: str, tmp_path: Any) -> None:
    outcome = CliRunner().invoke(
        cli.app, ["serve", "--database", f"sqlite:///{tmp_path}/c.db", "--full-collection-seconds", value]
    )
    assert outcome.exit_code != 0
    assert "--full-collection-seconds: from 1 to 3600" in outcome.output
