"""Fan-out of table events to viewers, and commands between processes.

A channel is ``table:N`` (what anyone at table N may see) or ``account:N`` (what only account N may
see: its balance). A subscriber holds a bounded queue; a viewer too slow to keep up is dropped (its
socket closes and it reconnects for a fresh snapshot) rather than holding the table up.

With a Redis URL, :meth:`Hub.publish` goes through Redis pub/sub, so every process's viewers receive
every table's events whichever process runs the table; and :meth:`Hub.request` carries a command (a
bet, a decision, a snapshot) to the process that runs the table and brings its answer back. Channels
are prefixed (``croupier:`` by default) so that several deployments can share one Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

QUEUE_SIZE = 1000
Handler = Callable[[int, dict[str, Any]], Awaitable[dict[str, Any] | None]]


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


class RemoteError(Exception):
    """The process that runs a table refused a command, or did not answer."""

    def __init__(
        self, message: str, status: int, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = params


class Hub:
    """In-process pub/sub, or Redis pub/sub (and commands between processes) when ``redis_url`` is given."""

    def __init__(self, redis_url: str | None = None, prefix: str = "croupier") -> None:
        self.redis_url = redis_url
        self.prefix = prefix
        self.process = uuid.uuid4().hex
        self.handler: Handler | None = None
        self._subscribers: dict[str, set[Subscription]] = {}
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def distributed(self) -> bool:
        return self._redis is not None

    async def start(self) -> None:
        if self.redis_url is None:
            return
        import redis.asyncio as redis

        self._redis = redis.from_url(self.redis_url)
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe(f"{self.prefix}:*")
        self._listener = asyncio.create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
        async for item in pubsub.listen():
            if item.get("type") != "pmessage":
                continue
            channel = item["channel"].decode().removeprefix(f"{self.prefix}:")
            message = json.loads(item["data"])
            if channel.startswith("cmd:"):
                task = asyncio.create_task(self._serve(int(channel[4:]), message))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            elif channel == f"reply:{self.process}":
                future = self._waiting.pop(message.get("id", ""), None)
                if future is not None and not future.done():
                    future.set_result(message)
            else:
                self._deliver(channel, message)

    async def _serve(self, table_id: int, message: dict[str, Any]) -> None:
        if self.handler is None:
            return
        answer = await self.handler(table_id, message)
        if answer is None:  # not this process's table: its owner answers
            return
        await self._redis.publish(
            f"{self.prefix}:reply:{message['reply']}", json.dumps({"id": message["id"], **answer})
        )

    async def request(self, table_id: int, message: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Send ``message`` to the process that runs table ``table_id`` and return its answer."""
        if self._redis is None:
            raise RemoteError(f"table {table_id} is not run by this process", 503)
        request_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        await self._redis.publish(
            f"{self.prefix}:cmd:{table_id}", json.dumps({"id": request_id, "reply": self.process, **message})
        )
        try:
            answer = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise RemoteError(f"table {table_id}: no process answers for it now; try again", 503) from None
        finally:
            self._waiting.pop(request_id, None)
        if "error" in answer:
            raise RemoteError(
                str(answer["error"]), int(answer.get("status", 409)), answer.get("code"), answer.get("params")
            )
        return dict(answer.get("answer", {}))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        for task in list(self._tasks):
            task.cancel()
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
            await self._redis.publish(f"{self.prefix}:{channel}", json.dumps(message))
        else:
            self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for subscription in list(self._subscribers.get(channel, ())):
            subscription.offer(message)
