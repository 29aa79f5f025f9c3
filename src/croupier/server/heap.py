"""How ``croupier serve`` keeps Python's cyclic garbage collector from stopping its tables.

The collector stops the event loop, and with it every table's timers and answers, while it walks the
objects it tracks. A young collection walks only what was made since the last one (a fraction of a
millisecond); a full one walks everything the process holds: with 1,000 players' sockets and requests
open, some 170,000 objects, 80–160 ms a time on the 2-core machine of docs/performance.md. Left to its
own rule (a full collection whenever the objects that outlived two young ones grow by a quarter of
those that outlived the last full one), it made one every 3–4 s under that load, each holding up every
request in flight.

:class:`Heap` therefore:

- at the end of the start, frees what is garbage already and freezes the rest out of the collector for
  good (``gc.freeze``: the modules, the application, the tables; over 150,000 objects). An object made
  before then is still freed when its last reference goes, but not when it is caught in a cycle of
  references; most of what the start made lives as long as the process;
- leaves the young collections as they are (they free most cycles, which die young), and makes the full
  collections its own: none by the collector's rule, one every ``every`` seconds (``Settings.
  full_collection_seconds``, 60 by default), so that a cycle of references that outlived the young
  collections is freed at most that long after it became garbage: a bounded wait, not a leak;
- times every collection, young or full, in ``croupier_gc_pause_seconds{generation}``
  (croupier.server.metrics), so that an operator sees the pauses their load makes;
- gives the collector its rule and thresholds back when the application stops (a test process starts
  many applications).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("croupier.server")

NEVER = 2**30
"""The third threshold while the heap is the server's: the collector's own rule never makes a full
collection (the count it compares with this grows by one at each second-generation collection)."""


class Heap:
    """The collector's policy while an application serves (see the module's docstring). ``observe`` is
    given each collection's generation and its pause in seconds."""

    def __init__(self, every: float, observe: Callable[[int, float], None]) -> None:
        if not every > 0:
            raise ValueError(f"full collections: every {every} s is not a positive number of seconds")
        self.every = every
        self.observe = observe
        self._thresholds: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None
        self._began = 0.0
        self.full_collections = 0
        """The full collections this heap has made (each one freed what had waited since the last)."""

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.observe(int(info["generation"]), time.perf_counter() - self._began)

    def start(self) -> None:
        """Free the start's garbage, freeze the rest, take over the full collections (in the running loop)."""
        gc.collect()
        gc.freeze()
        young, older, _full = gc.get_threshold()
        self._thresholds = (young, older, _full)
        gc.set_threshold(young, older, NEVER)
        gc.callbacks.append(self._timed)
        self._task = asyncio.create_task(self._collect_every())

    async def _collect_every(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.collect()

    def collect(self) -> int:
        """One full collection now: the number of objects it found unreachable."""
        found = gc.collect()
        self.full_collections += 1
        return found

    async def stop(self) -> None:
        """The collector's own rule and thresholds back, the start's objects left frozen (they are the
        process's until it ends)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._timed)
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
