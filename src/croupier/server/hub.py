"""Fan-out of table events to viewers: in one process, or through Redis across several.

A channel is ``table:N`` (what anyone at table N may see) or ``account:N`` (what only account N may
see: its balance). A subscriber holds a bounded queue; a viewer too slow to keep up is dropped (its
socket closes and it reconnects for a fresh snapshot) rather than holding the table up.

With a Redis URL, :meth:`Hub.publish` goes through Redis pub/sub and every process's subscribers
receive every table's events, whichever process runs the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

QUEUE_SIZE = 1000


class Subscription:
    def __init__(self, hub: Hub, channels: tuple[str, ...]) -> None:
        self.hub = hub
        self.channels = channels
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE_SIZE)
        self.dropped = False

    def offer(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)  # tell the reader it fell behind

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            yield message

    def close(self) -> None:
        self.hub._remove(self)


class Hub:
    """In-process pub/sub, or Redis pub/sub when ``redis_url`` is given."""

    def __init__(self, redis_url: str | None = None) -> None:
        self.redis_url = redis_url
        self._subscribers: dict[str, set[Subscription]] = {}
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.redis_url is None:
            return
        import redis.asyncio as redis

        self._redis = redis.from_url(self.redis_url)
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe("croupier:*")
        self._listener = asyncio.create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
        async for item in pubsub.listen():
            if item.get("type") != "pmessage":
                continue
            channel = item["channel"].decode().removeprefix("croupier:")
            self._deliver(channel, json.loads(item["data"]))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._redis is not None:
            await self._redis.aclose()

    def subscribe(self, *channels: str) -> Subscription:
        subscription = Subscription(self, channels)
        for channel in channels:
            self._subscribers.setdefault(channel, set()).add(subscription)
        return subscription

    def _remove(self, subscription: Subscription) -> None:
        for channel in subscription.channels:
            self._subscribers.get(channel, set()).discard(subscription)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        if self._redis is not None:
            await self._redis.publish(f"croupier:{channel}", json.dumps(message))
        else:
            self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for subscription in list(self._subscribers.get(channel, ())):
            subscription.offer(message)
