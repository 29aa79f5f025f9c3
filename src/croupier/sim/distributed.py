"""Running a simulation's chunks on a Dask distributed cluster (``docs/simulate.md``).

Both simulators cut a run into chunks, each with its own generator stream, and add the chunks'
statistics in chunk order. :func:`run_on_cluster` sends the chunks to a Dask scheduler, a task per
range of consecutive chunks (``simulate_blackjack(..., scheduler=ADDRESS)``,
``simulate_baccarat(..., scheduler=ADDRESS)``): the task is the simulator's ``chunk_statistics``, a
pure function of the plan (rules, options, strategy, seed) and the chunks' numbers and sizes, so it
plays exactly the chunks a local run plays; the rows it returns are put back in chunk order and
assembled by the same code as a local run's. A run on a cluster and a local run of the same seed and
chunking give the same result, bit for bit.

The workers need ``croupier`` (and so numba) importable; each worker process compiles the kernels on
its first chunk, or loads them from numba's cache.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT = 5
"""Seconds to wait for the scheduler before giving up."""
TASK_ITEMS = 1 << 20
"""Rounds or coups a task aims at (see :func:`task_groups`)."""

Rows = tuple[Any, ...]
"""What a task returns: arrays of statistics, one row per chunk it played."""


def _dask() -> Any:
    """The ``distributed`` package, imported when a scheduler is asked for (it is untyped: ``Any``)."""
    return importlib.import_module("distributed")


def connect(scheduler: str | Client, error: type[CroupierError]) -> tuple[Any, bool]:
    """A client of ``scheduler`` (an address such as ``tcp://host:8786``, or a client, used as it is) and
    whether it was opened here (and so is to be closed). A bad or unreachable address is an ``error``
    naming it, raised within :data:`CONNECT_TIMEOUT` seconds."""
    dask = _dask()
    if isinstance(scheduler, dask.Client):
        return scheduler, False
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise error(f"scheduler: expected an address such as tcp://host:8786 or a dask Client, got {scheduler!r}")
    try:
        client = dask.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as exc:  # whatever went wrong, the address is the cause
        reason = str(exc).strip() or type(exc).__name__
        raise error(f"scheduler {scheduler!r}: cannot connect ({reason})") from exc
    return client, True


def cluster_threads(client: Any) -> int:
    """The worker threads of the cluster (the ``workers`` a result reports)."""
    return int(sum(client.nthreads().values())) or 1


def task_groups(sizes: Sequence[int], threads: int) -> list[tuple[int, int]]:
    """The chunks ``(first, end)`` each task plays: consecutive chunks, about :data:`TASK_ITEMS` rounds or
    coups a task (a task costs the scheduler about a millisecond), but at least four tasks per worker
    thread where there are chunks enough. Only the tasks' sizes depend on it, never the result."""
    chunks = len(sizes)
    largest = max(sizes, default=1)
    group = max(1, min(TASK_ITEMS // max(largest, 1), math.ceil(chunks / (4 * threads))))
    return [(first, min(first + group, chunks)) for first in range(0, chunks, group)]


def run_on_cluster(
    scheduler: str | Client,
    task: Callable[[Any, int, npt.NDArray[np.int64]], Rows],
    plan: object,
    sizes: npt.NDArray[np.int64],
    total: int,
    progress: Callable[[int, int], None] | None,
    error: type[CroupierError],
) -> tuple[Rows, int, float]:
    """Run ``task(plan, first, sizes[first:end])`` on the cluster for consecutive groups of chunks
    (:func:`task_groups`); each returns a tuple of arrays with one row per chunk.

    ``progress(done, total)`` is called as tasks complete (``done`` counts their rounds or coups).
    Returns the tasks' arrays stacked in chunk order (one row per chunk of the run), the cluster's worker
    threads and the seconds taken."""
    client, opened = connect(scheduler, error)
    futures: list[Any] = []
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError as exc:
            raise error(f"scheduler {client.scheduler.address}: no worker joined within {CONNECT_TIMEOUT} s") from exc
        threads = cluster_threads(client)
        started = time.perf_counter()
        groups = task_groups([int(x) for x in sizes], threads)
        shared = client.scatter(plan, broadcast=True, hash=False)
        futures = [client.submit(task, shared, first, sizes[first:end], pure=False) for first, end in groups]
        index = {future.key: number for number, future in enumerate(futures)}
        parts: list[Rows | None] = [None] * len(futures)
        done = 0
        for future in _dask().as_completed(futures, loop=client.loop):
            number = index[future.key]
            first, end = groups[number]
            try:
                parts[number] = future.result()
            except CroupierError:
                raise
            except Exception as exc:  # a worker's failure, reported in one line
                raise error(f"chunks {first}-{end - 1} failed on the cluster: {type(exc).__name__}: {exc}") from exc
            done += int(sizes[first:end].sum())
            if progress is not None:
                progress(done, total)
        ordered = [part for part in parts if part is not None]
        rows = tuple(np.concatenate([part[i] for part in ordered]) for i in range(len(ordered[0])))
        return rows, threads, time.perf_counter() - started
    finally:
        if futures:
            client.cancel(futures)
        if opened:
            client.close()
