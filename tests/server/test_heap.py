"""``croupier serve``'s garbage collection (croupier.server.heap): the collector's full collections, each of
which stops the event loop and every table with it, come from the server's own timer (the collector's
rule only as a far backstop), a cycle of references is still freed by them, and every collection is
counted without a lock (docs/performance.md, "Python's full collections")."""

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
from croupier.server import heap as heap_module
from croupier.server.heap import BACKSTOP, PAUSE_BUCKETS, Heap, Pauses
from croupier.server.service import Settings

generational = pytest.mark.skipif(not heap_module.GENERATIONAL, reason="Python 3.14's collector is incremental")


@pytest.fixture(autouse=True)
def _collector_given_back() -> Iterator[None]:
    thresholds, callbacks = gc.get_threshold(), list(gc.callbacks)
    yield
    gc.unfreeze()  # what a heap froze of the test process: given back
    gc.set_threshold(*thresholds)
    gc.callbacks[:] = callbacks
    heap_module._active = None


class Node:
    other: Any = None


def old_cycle(freed: asyncio.Event) -> None:
    """Two objects that refer to each other, kept past two young collections (so only a full collection
    looks at them again), then let go: garbage only the cyclic collector frees."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    weakref.finalize(a, freed.set)
    gc.collect(1)  # they outlive the young generations: now in the oldest


@generational
def test_a_cycle_left_in_the_oldest_generation_is_freed_by_the_servers_full_collection() -> None:
    asyncio.run(a_cycle_freed())


async def a_cycle_freed() -> None:
    pauses = Pauses()
    before = gc.get_threshold()
    heap = Heap(0.05, pauses)
    heap.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], BACKSTOP)  # the collector's rule only far away
        assert gc.get_freeze_count() > 0  # what there was at the start: out of every collection
        freed = asyncio.Event()
        old_cycle(freed)
        for _ in range(3 * before[2]):
            gc.collect(1)  # young collections, however many, leave it where it is
        assert not freed.is_set()
        await asyncio.wait_for(freed.wait(), 10)  # the heap's timer: its full collection freed it
        assert heap.full_collections >= 1
        assert sum(pauses.buckets[1]) >= 3 * before[2] and sum(pauses.buckets[2]) >= 1
        assert pauses.freed[2] >= 2 and pauses.sums[2] >= 0
    finally:
        await heap.stop()
    assert gc.get_threshold() == before  # the collector's own rule back
    counted = sum(pauses.buckets[0])
    gc.collect(0)
    assert sum(pauses.buckets[0]) == counted  # no longer counted


@generational
def test_one_heap_holds_the_collector_at_a_time_and_stops_safely() -> None:
    asyncio.run(one_at_a_time())


async def one_at_a_time() -> None:
    before = gc.get_threshold()
    idle = Heap(1.0, Pauses())
    await idle.stop()  # never started: nothing changes
    assert gc.get_threshold() == before
    first, second = Heap(1.0, Pauses()), Heap(1.0, Pauses())
    first.start()
    with pytest.raises(RuntimeError, match="already held"):
        second.start()
    await second.stop()  # the refused one gives back nothing of the first's
    assert gc.get_threshold()[2] == BACKSTOP
    await first.stop()
    await first.stop()
    assert gc.get_threshold() == before
    second.start()  # free again
    await second.stop()
    assert gc.get_threshold() == before


@generational
def test_a_failing_full_collection_is_logged_and_the_timer_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    async def failing() -> int:
        heap = Heap(0.01, Pauses())
        calls: list[int] = []

        def collect() -> int:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("a finaliser failed")
            return 0

        monkeypatch.setattr(heap, "collect", collect)
        heap.start()
        try:
            for _ in range(500):
                await asyncio.sleep(0.01)
                if len(calls) >= 2:
                    break
        finally:
            await heap.stop()
        return len(calls)

    assert asyncio.run(failing()) >= 2


def test_pauses_are_counted_in_prometheus_cumulative_buckets() -> None:
    pauses = Pauses()
    pauses.observe(2, 0.0004, 5)
    pauses.observe(2, 0.12, 0)
    pauses.observe(2, 7.0, 1)
    counts = dict(pauses.cumulative(2))
    assert counts[str(PAUSE_BUCKETS[0])] == 1 and counts["0.1"] == 1 and counts["0.25"] == 2 and counts["+Inf"] == 3
    assert pauses.freed[2] == 6 and pauses.sums[2] == pytest.approx(7.1204)
    assert dict(pauses.cumulative(0))["+Inf"] == 0


@pytest.mark.parametrize("every", [0.0, -1.0, float("nan")])
def test_a_heap_needs_a_positive_time_between_full_collections(every: float) -> None:
    with pytest.raises(ValueError, match="full collections"):
        Heap(every, Pauses())


@generational
def test_a_serving_application_counts_its_collections_in_its_metrics(tmp_path: Any) -> None:
    """The heap is the application's while it serves: its pauses in ``croupier_gc_pause_seconds``, the
    collector's thresholds given back when it stops."""
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
        assert gc.get_threshold()[2] == BACKSTOP
        gc.collect(0)
        text = client.get("/api/metrics", headers={"Authorization": "Bearer " + "m" * 16}).text
        line = next(
            line for line in text.splitlines() if line.startswith('croupier_gc_pause_seconds_count{generation="0"}')
        )
        assert float(line.split()[-1]) >= 1
        assert 'croupier_gc_freed_objects_total{generation="2"}' in text
    assert gc.get_threshold() == before
    with TestClient(
        server_app.create_app(
            Settings(
                database=f"sqlite+aiosqlite:///{tmp_path}/h.db", demo=False, run_tables=False, metrics_token="m" * 16
            )
        )
    ) as client:
        text = client.get("/api/metrics", headers={"Authorization": "Bearer " + "m" * 16}).text
        assert "croupier_gc_pause_seconds" not in text  # not a server's heap: nothing counted, nothing shown


@pytest.mark.parametrize("value", ["0", "0.5", "3601", "nan"])
def test_serve_refuses_a_time_between_full_collections_out_of_its_range(value: str, tmp_path: Any) -> None:
    outcome = CliRunner().invoke(
        cli.app, ["serve", "--database", f"sqlite:///{tmp_path}/c.db", "--full-collection-seconds", value]
    )
    assert outcome.exit_code != 0
    assert "--full-collection-seconds: from 1 to 3600" in outcome.output
