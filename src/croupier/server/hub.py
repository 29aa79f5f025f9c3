"""Fan-out of table events to viewers, and commands between processes.

A channel is ``table:N`` (what anyone at table N may see) or ``account:N`` (what only account N may
see: its balance). A subscriber holds a bounded queue; a viewer too slow to keep up is dropped (its
socket closes and it reconnects for a fresh snapshot) rather than holding the table up.

With a Redis URL, :meth:`Hub.publish` also goes through Redis pub/sub, so every process's viewers
receive every table's events whichever process runs the table; and :meth:`Hub.request` carries a
command (a bet, a decision, a snapshot) to the process that runs the table and brings its answer
back. Channels are prefixed (``croupier:`` by default) so that several deployments can share one Redis.

**Redis is not trusted.** Every message a process puts on Redis is signed: HMAC-SHA256, with the key
the processes share (``--redis-key``, ``CROUPIER_REDIS_KEY``), over the full channel name and the
message, which carries the sending process, the time it was sent and a random nonce. A message whose
signature does not verify, that is more than :data:`MAX_AGE` seconds old (or from the future), or
(a command) whose nonce was seen already, is ignored and logged: whoever can publish on the Redis
cannot act for any player without the key.

**Redis may go away.** No table waits for it: an event is handed to this process's own viewers at
once, and to Redis by a sender task of its own (an event it cannot send is dropped, and counted). The
listener reconnects with a growing pause. Once Redis is back, the viewers who may have missed events
are told to resync: a process that could not send an event publishes ``resync``, and every process
then (and after its own listener reconnected) closes its viewers' sockets with code 4408, so each
reconnects for a fresh snapshot. A command to another process is sent again until it is answered or
its time is up; the process that runs the table answers a command sent twice once (by its id).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import uuid
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Generic, TypeVar

from croupier.errors import CroupierError
from croupier.server.clock import Clock, SystemClock, wait_until

log = logging.getLogger("croupier.server")
K = TypeVar("K")

QUEUE_SIZE = 1000
DELIVER_TURN = 64
"""Subscribers handed an event in one turn of the event loop. An event with more (a table's thousands of
watchers) is handed on over several turns, so that every other callback ready meanwhile (a bet's request,
its database's answers, a table's timer) runs between them rather than after all of them; the events
keep their order for every subscriber (one queue of deliveries for the process)."""
OUTBOX_SIZE = 10_000
"""Events waiting for Redis; more are dropped (and the viewers told to resync once Redis is back)."""
SEND_BATCH = 500
"""Events sent to Redis in one round trip (a pipeline), in the order they were published."""
MAX_AGE = 30.0
"""A signed message older than this many seconds (or as much from the future) is ignored: the processes'
clocks must agree to within it."""
RESEND = 2.0
"""A command not answered within this many seconds is sent again (same id: it is obeyed once)."""
FIRST_PAUSE = 0.05
LONGEST_PAUSE = 2.0
"""The listener's pause before reconnecting to Redis, doubled after each failure up to the longest."""
MIN_KEY_LENGTH = 16
ANSWERS_KEPT = 2000
"""Commands whose answers a process remembers (by id) to answer a command sent again."""

REDIS_CONNECTIONS = 100
"""Connections a process opens to Redis at most (its listener's among them): a call that finds them all in
use waits for one, up to :data:`REDIS_WAIT_S`."""
REDIS_WAIT_S = 5.0
"""How long a call to Redis waits for a free connection of the process's pool before it fails."""

SLOW = "too slow: reconnect for a fresh snapshot"
RESYNC = "the server lost touch with its other processes for a moment: reconnect for a fresh snapshot"

Handler = Callable[[int, dict[str, Any]], Awaitable[dict[str, Any] | None]]


class HubError(CroupierError):
    """The hub cannot be set up as asked (a Redis without a key, a bad channel prefix)."""


class Delivery:
    """One published message as every subscriber of this process receives it: the same object for all,
    so that its JSON frame is made once (:meth:`frame`), however many sockets send it."""

    __slots__ = ("_frame", "message")

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self._frame: str | None = None

    def frame(self, private: str) -> str:
        """``{"type": "event", ...}`` as JSON text, without the key ``private`` (what no viewer is sent);
        made the first time it is asked for."""
        if self._frame is None:
            body = {"type": "event", **{k: v for k, v in self.message.items() if k != private}}
            self._frame = json.dumps(body, separators=(",", ":"))
        return self._frame

    def frame_for(self, private: str, name: str) -> str:
        """:meth:`frame` with ``"your_actions"`` last: ``name``'s own entry of the message's ``private`` map
        (every player's legal actions), or its ``""`` entry (what anyone else may do). The shared frame is
        not made again for each player's socket, only the player's own list is added to it."""
        actions = self.message[private]
        mine = actions.get(name, actions.get("", []))
        return f'{self.frame(private)[:-1]},"your_actions":{json.dumps(mine, separators=(",", ":"))}}}'


class Subscription:
    def __init__(self, hub: Hub, channels: tuple[str, ...]) -> None:
        self.hub = hub
        self.channels = channels
        self.queue: asyncio.Queue[Delivery | None] = asyncio.Queue(QUEUE_SIZE)
        self.dropped = False
        self.reason = SLOW

    def offer(self, delivery: Delivery) -> None:
        try:
            self.queue.put_nowait(delivery)
        except asyncio.QueueFull:
            self.end(SLOW)

    def end(self, reason: str) -> None:
        """End the subscription: its reader stops, and tells its viewer ``reason`` (reconnect)."""
        if self.dropped:
            return
        self.dropped = True
        self.reason = reason
        with contextlib.suppress(asyncio.QueueEmpty):
            self.queue.get_nowait()
        self.queue.put_nowait(None)  # tell the reader it must resync

    async def batches(self, most: int) -> AsyncIterator[list[Delivery]]:
        """The deliveries in order, as many as are waiting (up to ``most``) each time: the events that came
        together (a deal's cards) in one list."""
        queue = self.queue
        while True:
            delivery = await queue.get()
            if delivery is None:
                return
            batch = [delivery]
            while len(batch) < most and not queue.empty():
                delivery = queue.get_nowait()
                if delivery is None:
                    yield batch
                    return
                batch.append(delivery)
            yield batch

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Recent(Generic[K]):
    """Keys seen in the last ``span`` seconds at least (twice that at most), in two sets: the older one is
    dropped whole when the newer is ``span`` old. Each key costs the same however many come: a map pruned
    by a scan of every key once it held more than a bound would scan again at every key while more than the
    bound came within ``span``."""

    def __init__(self, span: float) -> None:
        self.span = span
        self.newer: set[K] = set()
        self.older: set[K] = set()
        self.since: float | None = None

    def seen(self, key: K, now: float) -> bool:
        """Whether ``key`` was seen within the span; it is remembered from now on either way."""
        if self.since is None:
            self.since = now
        elif now - self.since >= self.span:
            self.older, self.newer, self.since = self.newer, set(), now
        if key in self.newer or key in self.older:
            return True
        self.newer.add(key)
        return False

    def __contains__(self, key: object) -> bool:
        return key in self.newer or key in self.older

    def __len__(self) -> int:
        return len(self.newer) + len(self.older)


class RemoteError(Exception):
    """The process that runs a table refused a command, or did not answer."""

    def __init__(
        self, message: str, status: int, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = params


def check_prefix(prefix: str) -> str:
    if not (1 <= len(prefix) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-.") for c in prefix)):
        raise HubError(f"--redis-prefix {prefix!r}: 1-64 characters of A-Z, a-z, 0-9, '_', '-', '.'")
    return prefix


def check_key(key: str | None) -> bytes:
    if not key:
        raise HubError(
            "--redis needs --redis-key (or CROUPIER_REDIS_KEY): the key every process signs its commands with "
            "(make one with: python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    if len(key) < MIN_KEY_LENGTH:
        raise HubError(f"--redis-key: {len(key)} characters; the key is at least {MIN_KEY_LENGTH}")
    return key.encode()


class Hub:
    """In-process pub/sub, or Redis pub/sub (and commands between processes) when ``redis_url`` is given."""

    def __init__(
        self, redis_url: str | None = None, prefix: str = "croupier", key: str | None = None, clock: Clock | None = None
    ) -> None:
        self.clock: Clock = clock or SystemClock()
        """The time a signed message carries and is checked against, and the pace of resends and reconnects."""
        self.redis_url = redis_url
        self.prefix = check_prefix(prefix)
        self.key = check_key(key) if redis_url is not None else b""
        self.process = uuid.uuid4().hex
        self.handler: Handler | None = None
        self._subscribers: dict[str, set[Subscription]] = {}
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(OUTBOX_SIZE)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._answers: OrderedDict[str, asyncio.Future[dict[str, Any] | None]] = OrderedDict()
        self._nonces: Recent[str] = Recent(2 * MAX_AGE)  # a message is accepted up to MAX_AGE early or late
        self._gone: Recent[int] = Recent(2 * MAX_AGE)  # messages let go unopened, by a digest of their bytes
        self._tasks: set[asyncio.Task[None]] = set()
        self._missed = False  # an event could not be sent: the viewers resync once Redis is back
        self._handing: deque[_Handing] = deque()  # events being handed on, a turn at a time
        self._listed: dict[str, list[Subscription]] = {}  # a channel's subscribers, listed once
        self.counts = {"unsent": 0, "refused": 0, "resyncs": 0, "reconnects": 0, "unwatched": 0}
        self.listening = False
        """Whether the listener is subscribed to the deployment's channels now (False while it reconnects)."""

    @property
    def distributed(self) -> bool:
        return self._redis is not None

    async def start(self) -> None:
        if self.redis_url is None:
            return
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # one immediate reconnect (a pooled connection Redis closed); beyond it, the hub's own loops try again.
        # A pool that makes a call wait for a connection when all of its are in use: redis-py's default pool
        # fails the call at once ("Too many connections", seen under 10,000 watchers opening, each socket on
        # a process that does not own the table asking the owner for a snapshot). A call failed so may be a
        # watcher's snapshot, or an event's send, which sends every viewer of every process for a fresh one.
        pool = redis.BlockingConnectionPool.from_url(
            self.redis_url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_S,
            socket_connect_timeout=2,
            socket_timeout=5,
            retry=Retry(NoBackoff(), 1),
        )
        self._redis = redis.Redis.from_pool(pool)
        ready = asyncio.get_running_loop().create_future()
        self._listener = asyncio.create_task(self._listen(ready))
        self._sender = asyncio.create_task(self._send_events())
        # Redis away at the start: the listener goes on trying
        await wait_until(self.clock, asyncio.shield(ready), self.clock.monotonic() + 5)

    # signing --------------------------------------------------------------------------------------

    def _wire(self, channel: str, message: dict[str, Any]) -> str:
        """``message`` for the Redis channel ``channel`` (the full name), signed."""
        body = json.dumps(
            {
                "from": self.process,
                "at": self.clock.now().timestamp(),
                "nonce": secrets.token_hex(12),
                "message": message,
            },
            separators=(",", ":"),
        )
        return json.dumps({"body": body, "sig": self._sign(channel, body)}, separators=(",", ":"))

    def _sign(self, channel: str, body: str) -> str:
        return hmac.new(self.key, f"{channel}\n{body}".encode(), hashlib.sha256).hexdigest()

    def _open(self, channel: str, data: bytes | str) -> tuple[str, dict[str, Any]] | None:
        """The sender and the message of a signed wire message, or None (logged) when it does not verify,
        is stale, or (a command) replays one seen already."""
        try:
            outer = json.loads(data)
            body, sig = outer["body"], outer["sig"]
            if not (isinstance(body, str) and isinstance(sig, str)):
                raise TypeError("body and sig are text")
        except (ValueError, TypeError, KeyError):
            return self._refuse(channel, "not a signed message")
        if not hmac.compare_digest(self._sign(channel, body), sig):
            return self._refuse(channel, "a bad signature")
        inner = json.loads(body)
        at, nonce, sender, message = inner.get("at"), inner.get("nonce"), inner.get("from"), inner.get("message")
        now = self.clock.now().timestamp()
        if not isinstance(at, int | float) or abs(now - at) > MAX_AGE:
            return self._refuse(channel, f"a stale message (sent {now - float(at or 0):.0f} s ago)")
        if not (isinstance(nonce, str) and isinstance(sender, str) and isinstance(message, dict)):
            return self._refuse(channel, "a malformed message")
        if self._replayed(nonce, now):
            return self._refuse(channel, "a replayed message")
        return sender, message

    def _replayed(self, nonce: str, now: float) -> bool:
        return self._nonces.seen(nonce, now)

    def _let_go(self, data: bytes | str) -> None:
        """Remember a message let go unopened (its nonce unread) by a digest of its bytes, for as long as a
        signed message is accepted: the same bytes sent again once someone here watches the channel are a
        replay, refused as one whose nonce was seen."""
        self._gone.seen(hash(data), self.clock.now().timestamp())

    def _let_go_before(self, data: bytes | str) -> bool:
        return hash(data) in self._gone

    def _refuse(self, channel: str, why: str) -> tuple[str, dict[str, Any]] | None:
        self.counts["refused"] += 1
        log.warning("Redis channel %s: ignored %s (not signed with this deployment's key, or replayed)", channel, why)
        return None

    # listening ------------------------------------------------------------------------------------

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        pause = FIRST_PAUSE
        first = True
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.psubscribe(f"{self.prefix}:*")
                self.listening = True
                if not ready.done():
                    ready.set_result(None)
                if not first:  # back after an outage: what was missed is not known; every viewer resyncs
                    self.counts["reconnects"] += 1
                    log.warning("Redis: listening again; every viewer of this process resyncs")
                    self._resync_all()
                first = False
                pause = FIRST_PAUSE
                async for item in pubsub.listen():
                    if item.get("type") == "pmessage":
                        self._received(item["channel"], item["data"])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away (or answered nonsense): listen again, after a pause
                log.warning("Redis: the listener lost its connection (%s); again in %.2f s", error, pause)
                first = False
            finally:
                self.listening = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await self._pause(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    async def _pause(self, seconds: float) -> None:
        await self.clock.sleep_until(self.clock.monotonic() + seconds)

    def _received(self, raw_channel: bytes | str, data: bytes | str) -> None:
        """A message from Redis. Every process hears every channel of the deployment: an event for a channel
        no one here watches (a table whose players' sockets are all on its own process, another process's
        reply) is let go before it is verified and parsed, work that it would not have been handed to anyone
        after (under the 1,000-player load, 3 % of a process's CPU)."""
        full = raw_channel.decode() if isinstance(raw_channel, bytes) else raw_channel
        channel = full.removeprefix(f"{self.prefix}:")
        if channel.startswith("reply:") and channel != f"reply:{self.process}":
            return
        if not (channel.startswith(("cmd:", "reply:")) or channel == "resync" or self._subscribers.get(channel)):
            self.counts["unwatched"] += 1
            self._let_go(data)
            return
        if self._let_go_before(data):  # the same bytes again: its nonce was never read, but it is a replay
            self._refuse(full, "a replayed message")
            return
        opened = self._open(full, data)
        if opened is None:
            return
        sender, message = opened
        if channel.startswith("cmd:"):
            try:
                table_id = int(channel[4:])
            except ValueError:
                return
            task = asyncio.create_task(self._serve(table_id, message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif channel == f"reply:{self.process}":
            future = self._waiting.pop(str(message.get("id", "")), None)
            if future is not None and not future.done():
                future.set_result(message)
        elif channel == "resync":
            if sender != self.process:
                self._resync_all()
        elif sender != self.process:  # this process's own events went to its viewers when published
            self._deliver(channel, message)

    def _resync_all(self) -> None:
        self.counts["resyncs"] += 1
        for subscriptions in list(self._subscribers.values()):
            for subscription in list(subscriptions):
                subscription.end(RESYNC)

    # commands -------------------------------------------------------------------------------------

    async def _serve(self, table_id: int, message: dict[str, Any]) -> None:
        if self.handler is None:
            return
        request_id = str(message.get("id", ""))
        answer_future = self._answers.get(request_id)
        if answer_future is None:  # a command sent again is obeyed once: its first answer is sent again
            answer_future = asyncio.get_running_loop().create_future()
            self._answers[request_id] = answer_future
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
            try:
                answer_future.set_result(await self.handler(table_id, message))
            except BaseException as error:
                self._answers.pop(request_id, None)
                answer_future.cancel()
                if isinstance(error, Exception):
                    log.exception("table %s: a command from another process failed", table_id)
                    return
                raise
        answer = await asyncio.shield(answer_future)
        if answer is None:  # not this process's table: its owner answers
            self._answers.pop(request_id, None)
            return
        reply = {"id": request_id, **answer}
        await self._send_until(f"{self.prefix}:reply:{message.get('reply')}", reply, self.clock.monotonic() + MAX_AGE)

    async def _send_until(self, channel: str, message: dict[str, Any], deadline: float) -> bool:
        """Publish ``message`` (signed), trying again with a growing pause until ``deadline``."""
        pause = FIRST_PAUSE
        while True:
            try:
                await self._redis.publish(channel, self._wire(channel, message))
                return True
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.clock.monotonic() + pause > deadline:
                    log.warning("Redis: could not send on %s (%s); giving up", channel, error)
                    return False
                await self._pause(pause)
                pause = min(pause * 2, LONGEST_PAUSE)

    async def request(self, table_id: int, message: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Send ``message`` to the process that runs table ``table_id`` and return its answer."""
        if self._redis is None:
            raise RemoteError(f"table {table_id} is not run by this process", 503)
        request_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        channel = f"{self.prefix}:cmd:{table_id}"
        deadline = self.clock.monotonic() + timeout
        command = {"id": request_id, "reply": self.process, **message}
        try:
            while not future.done():
                left = deadline - self.clock.monotonic()
                if left <= 0:
                    break
                # sent again (the same id) while unanswered: a command or its answer lost to a Redis outage
                if await self._send_until(channel, command, deadline):
                    resend = min(self.clock.monotonic() + RESEND, deadline)
                    await wait_until(self.clock, asyncio.shield(future), resend)
            if not future.done():
                raise RemoteError(f"table {table_id}: no process answers for it now; try again", 503)
            answer = future.result()
        finally:
            self._waiting.pop(request_id, None)
        if "error" in answer:
            raise RemoteError(
                str(answer["error"]), int(answer.get("status", 409)), answer.get("code"), answer.get("params")
            )
        return dict(answer.get("answer", {}))

    async def ping(self) -> None:
        """A round trip to Redis (raises when it does not answer); nothing without Redis."""
        if self._redis is not None:
            await self._redis.ping()

    # the processes that are up --------------------------------------------------------------------

    async def processes_up(self, ttl: float) -> int | None:
        """Say that this process is up for ``ttl`` seconds (a key in Redis that expires), and count the
        processes of the deployment that said so and have not expired; None without Redis, or when it does
        not answer (each process then takes whatever tables are free, as a lone process does)."""
        if self._redis is None:
            return None
        try:
            await self._redis.set(f"{self.prefix}:up:{self.process}", b"1", px=max(1, int(ttl * 1000)))
            count = 0
            async for _key in self._redis.scan_iter(match=f"{self.prefix}:up:*", count=1000):
                count += 1
            return max(count, 1)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("Redis: could not count the processes that are up (%s)", error)
            return None

    async def gone(self) -> None:
        """This process stops: the others count it out at once."""
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.delete(f"{self.prefix}:up:{self.process}")

    # events ---------------------------------------------------------------------------------------

    async def _send_events(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < SEND_BATCH and not self._outbox.empty():  # what waits goes in one round trip
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self._redis.pipeline(transaction=False)
                for channel, message in batch:
                    full = f"{self.prefix}:{channel}"
                    pipe.publish(full, self._wire(full, message))
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self._missed:
                    log.warning("Redis: an event could not be sent (%s); other processes' viewers will resync", error)
                self._missed = True
                self.counts["unsent"] += len(batch)
                continue
            if self._missed:  # Redis is back: the viewers of every process resync (they missed events)
                resync = f"{self.prefix}:resync"
                with contextlib.suppress(Exception):
                    await self._redis.publish(resync, self._wire(resync, {"resync": True}))
                    self._missed = False
                    log.warning("Redis: sending again; the viewers of every process resync")

    async def stop(self) -> None:
        for task in (self._listener, self._sender, *self._tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._redis is not None:
            await self._redis.aclose()

    def subscribe(self, *channels: str) -> Subscription:
        subscription = Subscription(self, channels)
        for channel in channels:
            self._subscribers.setdefault(channel, set()).add(subscription)
            self._listed.pop(channel, None)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop handing ``subscription`` this process's messages (:meth:`Subscription.close`)."""
        for channel in subscription.channels:
            self._subscribers.get(channel, set()).discard(subscription)
            self._listed.pop(channel, None)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Hand ``message`` to this process's viewers of ``channel`` now, and to the other processes' through
        Redis (never waiting for it: a table does not stop for Redis)."""
        self._deliver(channel, message)
        if self._redis is None:
            return
        try:
            self._outbox.put_nowait((channel, message))
        except asyncio.QueueFull:
            self._missed = True
            self.counts["unsent"] += 1

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        """Hand ``message`` to this process's subscribers of ``channel``: at once when they are few and no
        event is still being handed on, else after the events before it, about :data:`DELIVER_TURN` of them
        a turn of the event loop (the subscribers as they are now: one who subscribes later gets the
        snapshot that follows this event)."""
        subscriptions = self._subscribers.get(channel)
        if not subscriptions:
            return
        delivery = Delivery(message)
        if not self._handing and len(subscriptions) <= DELIVER_TURN:
            for subscription in list(subscriptions):
                subscription.offer(delivery)
            return
        listed = self._listed.get(channel)
        if listed is None:  # the same list for the channel's events until someone (un)subscribes
            listed = self._listed[channel] = list(subscriptions)
        self._handing.append(_Handing(delivery, listed))
        if len(self._handing) == 1:
            asyncio.get_running_loop().call_soon(self._hand_on)

    def _hand_on(self) -> None:
        """One turn's share of the events being handed on, the rest at the next turn. Events that came
        together for the same subscribers (a table's deal) are handed on together: each subscriber's task
        is woken once for all of them, and sends them in their order."""
        try:
            left = DELIVER_TURN
            while self._handing and left > 0:
                head = self._handing[0]
                run = []
                for one in self._handing:
                    if one.subscribers is not head.subscribers or one.handed != head.handed:
                        break
                    run.append(one)
                start = head.handed
                end = min(start + max(1, left // len(run)), len(head.subscribers))
                for subscription in head.subscribers[start:end]:
                    for one in run:
                        subscription.offer(one.delivery)
                left -= (end - start) * len(run)
                for one in run:
                    one.handed = end
                if end == len(head.subscribers):
                    for _ in run:
                        self._handing.popleft()
        finally:  # the next turn's share, whatever became of this one's
            if self._handing:
                asyncio.get_running_loop().call_soon(self._hand_on)


class _Handing:
    """An event being handed on (:meth:`Hub._deliver`): to whom, and to how many of them so far."""

    __slots__ = ("delivery", "handed", "subscribers")

    def __init__(self, delivery: Delivery, subscribers: list[Subscription]) -> None:
        self.delivery = delivery
        self.subscribers = subscribers
        self.handed = 0
