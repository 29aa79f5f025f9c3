"""A table actor stops when it is told to, whenever that is (found while fuzzing the service).

``TableActor.stop()`` cancels the actor's task and waits for it. When a timer has just run out, the actor
cancels its pending ``queue.get()``; it once awaited that get under
``contextlib.suppress(asyncio.CancelledError)``, so a cancellation of the actor's own task that landed
at that ``await`` was swallowed, the actor played on, and ``stop()`` waited for ever: a server's
shutdown hung, and a process that lost a table's lease stopped renewing the others (its lease loop
waited in ``stop()``) while the table played on. Here the cancellation lands at every turn of the
event loop after the timer.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import SimpleNamespace

import pytest

from croupier.server.actor import TableActor
from croupier.server.clock import ManualClock


async def cancelled_after(steps: int) -> bool:
    """Run the actor's wait for a command with a timer, let the timer run out, cancel the task ``steps``
    event-loop turns later; True when the task then ends."""
    clock = ManualClock()
    actor = SimpleNamespace(
        queue=asyncio.Queue(), backlog=deque(), idle=asyncio.Event(), clock=clock, timers_fired=0, timer_late_max=0.0
    )

    async def serve() -> None:
        while True:
            await TableActor._next_command(actor, clock.monotonic() + 1)  # type: ignore[arg-type]

    task = asyncio.create_task(serve())
    for _ in range(3):
        await asyncio.sleep(0)
    clock._elapsed += 1  # the timer runs out ...
    clock._moved.set()
    for _ in range(steps):
        await asyncio.sleep(0)
    task.cancel()  # ... and the table is told to stop
    try:
        await asyncio.wait_for(asyncio.shield(task), 1)
    except asyncio.CancelledError:
        return True
    except TimeoutError:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return False
    return True


def test_an_actor_stops_whenever_it_is_cancelled() -> None:
    async def every_moment() -> dict[int, bool]:
        return {steps: await cancelled_after(steps) for steps in range(10)}

    stopped = asyncio.run(every_moment())
    assert all(stopped.values()), f"event-loop turns after the timer at which the actor did not stop: {stopped}"
