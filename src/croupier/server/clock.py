"""Time for the server: the system's clock, or a manual one the tests move by hand.

Every wait the server paces (a table's timers, the leases' renewal, the hub's resends and reconnects, a
signed message's age) reads a :class:`Clock` it was given; a retry's pause goes through a
:data:`Sleeper` it was given. Two waits read the event loop's own time, since they bound a connection,
not the game: the HTTP guard's socket timeouts (guard.py) and the SQLite writers' gate (db.py: its
timeout; the 0.5 s after which a write no one waits on goes next reads the monotonic clock, since a
turn may be handed on where no event loop runs, as a connection is closed).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

Sleeper = Callable[[float], Awaitable[None]]
"""A pause of so many seconds between two tries (``asyncio.sleep`` unless a test gives another)."""


class Clock(Protocol):
    def now(self) -> datetime: ...
    def monotonic(self) -> float: ...
    async def sleep_until(self, deadline: float) -> None: ...


async def wait_until(clock: Clock, awaitable: Awaitable[Any], deadline: float) -> bool:
    """Wait for ``awaitable`` until ``deadline`` by ``clock``: True when it finished first (its error, if it
    failed, is raised); False when the deadline came, and it is cancelled."""
    task = asyncio.ensure_future(awaitable)
    timer = asyncio.ensure_future(clock.sleep_until(deadline))
    try:
        await asyncio.wait({task, timer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
        if not task.done():
            task.cancel()
    if task.done() and not task.cancelled():
        task.result()
        return True
    return False


class SystemClock:
    """Wall time for records, the monotonic clock for timers."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep_until(self, deadline: float) -> None:
        delay = deadline - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)


class ManualClock:
    """A clock that moves only when :meth:`advance` is called: timers fire exactly when a test says."""

    def __init__(self, start: datetime | None = None) -> None:
        self._start = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._elapsed = 0.0
        self._moved = asyncio.Event()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed)

    def monotonic(self) -> float:
        return self._elapsed

    async def sleep_until(self, deadline: float) -> None:
        while self._elapsed < deadline:
            self._moved.clear()
            await self._moved.wait()

    async def advance(self, seconds: float) -> None:
        """Move time on and let every waiting timer and actor run."""
        self._elapsed += seconds
        self._moved.set()
        for _ in range(20):
            await asyncio.sleep(0)
