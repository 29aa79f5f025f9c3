"""How ``croupier serve`` keeps Python's cyclic garbage collector from stopping its tables.

The collector stops the thread that runs it, here the event loop and with it every table's timers and
answers, while it walks the objects it tracks. A young collection walks only what was made since the
last one (a fraction of a millisecond); a full one walks everything the process holds: with 1,000
players' sockets and requests open, some 170,000 objects, 80–175 ms a time on the 2-core machine of
docs/performance.md. Left to its own rule (a full collection once ten second-generation collections
have run and the objects that outlived them have grown by a quarter of those that outlived the last
full one), it made one every 3–4 s under that load, each holding up every request in flight.

:class:`Heap` therefore, from the end of the start until the application stops:

- frees what is garbage already and freezes the rest out of the collector for good (``gc.freeze``: the
  modules, the application, the tables; over 150,000 objects). An object made before then is still freed
  when its last reference goes, but not when it is caught in a cycle of references; most of what the
  start made lives as long as the process;
- leaves the young collections as they are (they free most cycles, which die young), and makes the full
  collections its own: one every ``every`` seconds (``Settings.full_collection_seconds``, 60 by default;
  each process's first after a random part of one more, so that processes started together do not pause
  together), so that a cycle of references that outlived the young collections is freed at most that
  long after it became garbage. The collector's own rule is left only as a backstop (:data:`BACKSTOP`),
  which the timer's collections keep it from reaching;
- counts every collection, young or full, its pause and what it freed (:class:`Pauses`, read by
  croupier.server.metrics at each scrape: ``croupier_gc_pause_seconds{generation}``);
- gives the collector its thresholds back when the application stops (a test process starts many).

Python 3.14's collector is incremental and reads its thresholds otherwise: there the heap only freezes
the start's objects and counts the collections.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import sys
import time
from typing import Any

log = logging.getLogger("croupier.server")

BACKSTOP = 1000
"""The third threshold while the heap is the server's: the collector's own rule makes a full collection
only after this many second-generation collections since the last full one (about five minutes under
the 1,000-player load, where the timer's full collection comes every minute): a bound on the garbage
held should the timer fall behind, never reached while it keeps time."""
GENERATIONAL = sys.version_info < (3, 14)
"""The collector's thresholds mean what :class:`Heap` sets them for (before 3.14's incremental one)."""
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Pauses:
    """Every collection's pause and what it freed, by generation, counted with plain integers and floats:
    the collector calls :meth:`observe` from whatever thread it runs in, at any allocation, so nothing
    here takes a lock (a lock held by the code that allocated would never be given back)."""

    def __init__(self) -> None:
        self.buckets = [[0] * (len(PAUSE_BUCKETS) + 1) for _ in range(3)]  # the last: above every bound
        self.sums = [0.0, 0.0, 0.0]
        self.freed = [0, 0, 0]

    def observe(self, generation: int, seconds: float, freed: int) -> None:
        place = next((i for i, bound in enumerate(PAUSE_BUCKETS) if seconds <= bound), len(PAUSE_BUCKETS))
        self.buckets[generation][place] += 1
        self.sums[generation] += seconds
        self.freed[generation] += freed

    def cumulative(self, generation: int) -> list[tuple[str, int]]:
        """The generation's buckets as Prometheus counts them: each the collections at or under its bound."""
        counts, total = [], 0
        for bound, count in zip([*map(str, PAUSE_BUCKETS), "+Inf"], self.buckets[generation], strict=True):
            total += count
            counts.append((bound, total))
        return counts


_active: Heap | None = None
"""The heap that holds the collector now: one at a time in a process."""


class Heap:
    """The collector's policy while an application serves (see the module's docstring)."""

    def __init__(self, every: float, pauses: Pauses) -> None:
        if not every > 0:
            raise ValueError(f"full collections: every {every} s is not a positive number of seconds")
        self.every = every
        self.pauses = pauses
        self._thresholds: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None
        self._began = 0.0
        self.full_collections = 0
        """The full collections this heap's timer has made."""

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.observe(int(info["generation"]), time.perf_counter() - self._began, int(info["collected"]))

    def start(self) -> None:
        """Free the start's garbage, freeze the rest, take over the full collections (in the running loop).
        Refused while another application's heap holds the collector."""
        global _active
        if _active is not None:
            raise RuntimeError("the garbage collector is already held by another application's heap")
        _active = self
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._timed)
        if GENERATIONAL:
            self._thresholds = young, older, _full = gc.get_threshold()
            gc.set_threshold(young, older, BACKSTOP)
            self._task = asyncio.create_task(self._collect_every())

    async def _collect_every(self) -> None:
        await asyncio.sleep(self.every * secrets.randbelow(1000) / 1000)  # not in step with other processes
        while True:
            await asyncio.sleep(self.every)
            try:
                self.collect()
            except Exception:  # a finaliser's fault: logged, and the next collection comes on time
                log.exception("a full garbage collection failed")

    def collect(self) -> int:
        """One full collection now: the number of objects it found unreachable."""
        found = gc.collect()
        self.full_collections += 1
        return found

    async def stop(self) -> None:
        """The collector's thresholds back and its timing ended (the start's objects stay frozen: they are
        the process's until it ends). Safe to call more than once, or without :meth:`start`."""
        global _active
        try:
            if self._task is not None:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        finally:
            self._task = None
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self._timed)
            if self._thresholds is not None:
                gc.set_threshold(*self._thresholds)
                self._thresholds = None
            if _active is self:
                _active = None
