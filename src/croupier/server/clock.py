"""Time for the table actors: the system's clock, or a manual one the tests move by hand."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...
    def monotonic(self) -> float: ...
    async def sleep_until(self, deadline: float) -> None: ...


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
