"""Load: bots play blackjack, watchers watch, a storm of sign-ins: against real ``croupier serve`` processes.

Setup (not timed). A fresh database (a SQLite file in a temporary folder, or, given a PostgreSQL URL, a
new database ``croupier_load_…`` made on that server and dropped afterwards) gets the demo (one start of
the server), then, with the server stopped, ``--tables`` live-online blackjack tables for the bots (5-500,
chip 1, like the demo's ``online-1``, with bets behind the boxes allowed) and one player account per bot
(``load-N``, its password ``demo``'s hash copied from ``ana`` and a sign-in token written as the server
stores it, so that the setup computes no argon2 hash). ``--processes`` servers are started on loopback on
that database (with more than one, a local Redis fans the events out: ``--redis``, a fresh channel
prefix). The cashier deposits 2,000.00 to each bot.

Run (timed, ``--seconds`` after ``--warmup``):

- each bot bets on one box of one table (the first 7 of a table each take a box, the next 7 bet behind
  them, Art. 13: at most 14 a table), its WebSocket on one of the processes
  (round robin, whichever runs its table; ``--by-table``: the process that runs its table, as a load
  balancer that routes a table's players by table would send them), opened with ``?batch=1`` as the
  browser tables open theirs (the events that come together arrive as one message; ``--unbatched``: a
  message for each event); on ``betting_open`` it bets 10.00 (REST, to the same process, with an
  Idempotency-Key); on an ``await`` that names it it hits or stands at random (REST);
- ``--bot-processes`` child processes share the bots out (each a part of them, its own event loop), so
  that the clients' process is not what sets the figures;
- ``--watchers`` WebSockets (not signed in) watch the first bot table, spread over the processes, held
  by ``--watcher-processes`` child processes of their own, opened with ``?batch=1`` as the bots' are;
- ``--logins`` sign-ins (``load-N``, password ``demo``, argon2 on the server) are sent evenly within one
  second, half-way through the timed run.

Figures (p50, p95, p99, max):

- bet and decision answers: from the arrival of the event that asks for it to the REST answer (200), as
  the bots saw them, and the server's own time for each (its ``Server-Timing`` header: from the request's
  reaching the application to the answer; the bots' process and the network are not in it);
- event delivery: from the ``at`` stamp the table put on the event (made after the commit of the money
  it reports) to its arrival, at the bots, and at the watchers: the events stamped while every
  watchers' process measured (their arrivals read for ``WATCH_GRACE`` seconds more), and how many of
  them reached every watcher;
- timer lateness: each betting window's ``no_more_bets`` stamp less the ``closes_at`` its
  ``betting_open`` announced, over all windows, and over those that closed from the first sign-in of the
  storm to one second after its last answer;
- rounds settled and voided at the bots' tables, sign-ins answered, and the errors: 5xx answers, sockets
  that ended, a round of the bots voided, a refused sign-in. The run exits 1 when there is an error;
- each server's garbage collections over its life, young and full, read from its ``/api/metrics`` after
  the run (croupier.server.heap: a full one a minute).

    python benchmarks/load.py                                     # SQLite, 200 players over 30 tables, 30 s
    python benchmarks/load.py --database postgresql://postgres@127.0.0.1/postgres --processes 2 \\
        --players 1000 --tables 100
    python benchmarks/load.py --database postgresql://postgres@127.0.0.1/postgres --processes 2 \\
        --players 7 --tables 1 --watchers 10000
    python benchmarks/load.py --players 60 --tables 10 --logins 200

The bots and watchers run on the same machine as the servers and share its cores; each process's CPU use
during the timed run is printed. Bounded: at most ``--seconds`` of play, and the whole run stops after
``--seconds`` + ``--warmup`` + 240 s (+ 1 s per 100 watchers and 10 s more, + 300 s with sign-ins, each of which may
take 300 s) whatever happens (the servers with it).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash import ServerProcess, free_port

WATCH_GRACE = 10.0
"""Seconds the watchers go on reading after the timed run, for the events made before its end."""
WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""RFC 6455 1.3: what the server's Sec-WebSocket-Accept hashes with the client's key."""

BOXES = 7
PER_TABLE = 2 * BOXES
"""Bots a table: one seated at each box, then one behind each (Art. 2.3, 13: the seated one decides)."""
BOT_TABLE = ("blackjack", "live-online", 500, 50_000, 100)  # game, preset, min, max, chip (cents)
PASSWORD = "demo"
REDIS_KEY = secrets.token_hex(32)
METRICS_TOKEN = secrets.token_hex(16)
"""The servers' metrics token: their garbage collections are read from ``/api/metrics`` after the run."""


@dataclass
class Bot:
    name: str
    token: str
    table: int
    box: int
    rng: random.Random
    base: str = ""
    bets: int = 0
    decisions: int = 0
    refused: int = 0


@dataclass
class Figures:
    bet_ms: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    bet_server_ms: list[float] = field(default_factory=list)  # the server's own time (Server-Timing)
    decision_server_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    settled: set[tuple[int, int]] = field(default_factory=set)
    voided: set[tuple[int, int]] = field(default_factory=set)
    closes: dict[int, datetime] = field(default_factory=dict)  # table -> its betting window's closes_at
    late_ms: dict[tuple[int, str], tuple[datetime, float]] = field(default_factory=dict)
    login_ms: list[float] = field(default_factory=list)
    storm: tuple[datetime, datetime] | None = None
    errors: list[str] = field(default_factory=list)
    resent: list[str] = field(default_factory=list)  # requests sent again after their connection failed
    refusals: Counter[str] = field(default_factory=Counter)
    measuring: bool = False
    cpu: list[float] = field(default_factory=list)  # each server process's CPU seconds per second


# --------------------------------------------------------------------------------------------------
# setup


def make_database(url: str) -> tuple[str, str | None]:
    """A fresh PostgreSQL database on the server of ``url``: its URL and name."""
    import asyncpg

    name = f"croupier_load_{uuid.uuid4().hex[:10]}"

    async def create() -> None:
        connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    asyncio.run(create())
    return url.rsplit("/", 1)[0] + f"/{name}", name


def drop_database(url: str, name: str) -> None:
    import asyncpg

    async def drop() -> None:
        connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()

    asyncio.run(drop())


async def add_rows(url: str, players: int, tables: int, betting: float, decision: float) -> list[Bot]:
    """The bots' tables and accounts, written with every server stopped."""
    from sqlalchemy import select, update

    from croupier.server.db import make_engine, sessions
    from croupier.server.models import Account, GameTable, Token, Wallet
    from croupier.server.names import name_key

    engine = make_engine(url)
    try:
        async with sessions(engine)() as session, session.begin():
            own: list[int] = []
            game, preset, low, high, chip = BOT_TABLE
            for n in range(tables):
                row = GameTable(
                    name=f"load-{n + 1}",
                    game=game,
                    preset=preset,
                    overrides={"bet_behind": "true"},
                    min_bet=low,
                    max_bet=high,
                    chip=chip,
                    betting_seconds=betting,
                    decision_seconds=decision,
                    mode="rng",
                )
                session.add(row)
                await session.flush()
                own.append(row.id)
            await session.execute(update(GameTable).values(betting_seconds=betting, decision_seconds=decision))
            password_hash = await session.scalar(select(Account.password_hash).where(Account.name == "ana"))
            assert password_hash is not None
            now = datetime.now(UTC)
            table_ids = own[:tables]
            bots: list[Bot] = []
            for i in range(players):
                table, box = table_ids[i % len(table_ids)], (i // len(table_ids)) % BOXES + 1
                name = f"load-{i + 1}"
                account = Account(
                    name=name, name_key=name_key(name), role="player", password_hash=password_hash, created_at=now
                )
                session.add(account)
                await session.flush()
                session.add(Wallet(kind="player", account_id=account.id, balance=0))
                token = secrets.token_urlsafe(32)
                digest = hashlib.sha256(token.encode()).hexdigest()
                session.add(Token(digest=digest, account_id=account.id, expires_at=now + timedelta(hours=12)))
                bots.append(Bot(name, token, table, box, random.Random(i)))
    finally:
        await engine.dispose()
    return bots


async def fund(base: str, bots: list[Bot]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        answer = await client.post("/api/login", json={"name": "cole", "password": PASSWORD})
        cole = {"Authorization": f"Bearer {answer.json()['token']}"}
        gate = asyncio.Semaphore(16)

        async def deposit(bot: Bot) -> None:
            async with gate:
                answer = await client.post(
                    "/api/cashier/deposits",
                    json={"account": bot.name, "amount": "2000"},
                    headers={**cole, "Idempotency-Key": f"load-{bot.name}"},
                )
            if answer.status_code != 200:
                raise SystemExit(f"deposit for {bot.name}: {answer.status_code} {answer.text}")

        await asyncio.gather(*(deposit(bot) for bot in bots))


def spread(servers: list[ServerProcess], tables: int, limit: float) -> dict[str, int]:
    """Wait until each process runs at most its share of the tables and every table runs somewhere; the
    tables each process runs."""
    share = math.ceil(tables / len(servers))
    deadline = time.monotonic() + limit
    counts: dict[str, int] = {}
    while time.monotonic() < deadline:
        counts = {}
        for server in servers:
            with contextlib.suppress(httpx.HTTPError):
                lobby = httpx.get(server.base + "/api/tables", timeout=10).json()
                counts[server.base] = sum(t["phase"] not in ("elsewhere", "starting", "closed") for t in lobby)
        if len(counts) == len(servers) and sum(counts.values()) >= tables and max(counts.values()) <= share:
            return counts
        time.sleep(0.5)
    return counts


# --------------------------------------------------------------------------------------------------
# the bots


@dataclass
class Answer:
    """A request's answer, the parts the figures read."""

    status_code: int
    headers: dict[str, str]  # names in lower case
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


KEEP_ALIVE_S = 2.0
"""A bot's connection idle this long is closed and a new one opened for its next request, before the
server's own keep-alive timeout (5 s) may close it under the request."""


class Line:
    """A bot's own kept-alive HTTP/1.1 connection to its server, one request at a time (a bot waits for each
    answer before it sends the next). httpx's client, one for a bots' process, took about two thirds of
    that process's CPU under the 1,000-player load (its pool looks over every connection at each request),
    and the bots' processes share the servers' two cores: this is what a bot needs of HTTP, and no more.
    An answer is read by its ``Content-Length`` (the server's JSON answers carry one)."""

    def __init__(self, base: str) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port or 80)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def post(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> Answer:
        """The answer; ``ConnectionError`` (or ``OSError``) when the connection failed before it came."""
        if self.writer is not None and time.monotonic() - self.used > KEEP_ALIVE_S:
            self.close()
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        content = json.dumps(body).encode()
        head = [f"POST {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Content-Type: application/json"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        head.append(f"Content-Length: {len(content)}")
        try:
            self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + content)
            status = (await self.reader.readuntil(b"\r\n")).split(b" ", 2)
            fields: dict[str, str] = {}
            while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
                name, _, value = line.decode("latin-1").partition(":")
                fields[name.strip().lower()] = value.strip()
            if "content-length" not in fields:
                raise ConnectionError(f"an answer without a Content-Length ({fields})")
            text = (await self.reader.readexactly(int(fields["content-length"]))).decode()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            self.close()
            raise ConnectionError(f"the connection ended before the answer ({error})") from error
        except OSError:
            self.close()
            raise
        if fields.get("connection", "").lower() == "close":
            self.close()
        self.used = time.monotonic()
        return Answer(int(status[1]), fields, text)


async def send(line: Line, bot: Bot, path: str, body: dict[str, Any], figures: Figures) -> Answer:
    """A money-moving request of ``bot``'s, to its own process, with a key of its own. A connection that
    failed under it before any answer came is tried once more with the same key (``figures.resent``): a
    kept-alive connection the server closes after its idle time (5 s) may be the one the client reuses at
    that moment, and the key makes sending again safe, as a browser does. One that fails again is an
    answer 599 (an error of the run), and the bot plays on."""
    headers = {"Authorization": f"Bearer {bot.token}", "Idempotency-Key": uuid.uuid4().hex}
    for attempt in (1, 2):
        try:
            return await asyncio.wait_for(line.post(path, body, headers), 60)
        except (OSError, TimeoutError) as error:  # (ConnectionError is an OSError)
            line.close()
            if attempt == 2:
                return Answer(599, {}, f"{type(error).__name__}: {error}")
            figures.resent.append(f"{path.rsplit('/', 1)[1]}: {type(error).__name__}")
    raise AssertionError("unreachable")


def server_ms(answer: Answer) -> float | None:
    """The server's own time for ``answer``: its ``Server-Timing: app;dur=…`` (milliseconds)."""
    timing = answer.headers.get("server-timing", "")
    return float(timing.split("dur=", 1)[1].split(";", 1)[0]) if "dur=" in timing else None


def account(bot: Bot, figures: Figures, what: str, answer: Answer) -> bool:
    if answer.status_code >= 500:
        figures.errors.append(f"{what}: {answer.status_code} {answer.text[:200]}")
    elif answer.status_code != 200:
        bot.refused += 1
        figures.refusals[answer.json().get("error", "")[:70]] += 1
    return answer.status_code == 200


def timers(message: dict[str, Any], figures: Figures) -> None:
    """A betting window's lateness: its ``no_more_bets`` stamp less the ``closes_at`` it was opened with."""
    event, table = message["event"], message["table"]
    if event["type"] == "betting_open":
        figures.closes[table] = datetime.fromisoformat(event["closes_at"])
    elif event["type"] == "no_more_bets" and table in figures.closes and figures.measuring:
        closes = figures.closes.pop(table)
        late = (datetime.fromisoformat(message["at"]) - closes).total_seconds() * 1000
        figures.late_ms[(table, closes.isoformat())] = (closes, late)


async def play(bot: Bot, figures: Figures, stop: asyncio.Event, batch: bool) -> None:
    line = Line(bot.base)
    try:
        await _play(bot, line, figures, stop, batch)
    finally:
        line.close()


async def _play(bot: Bot, line: Line, figures: Figures, stop: asyncio.Event, batch: bool) -> None:
    url = (
        bot.base.replace("http://", "ws://")
        + f"/ws/tables/{bot.table}?token={bot.token}"
        + ("&batch=1" if batch else "")
    )
    async with connect(url, max_queue=None, ping_interval=None, open_timeout=60) as socket:

        async def close_at_stop() -> None:  # (a timeout on every read costs the bots' CPU a timer each)
            await stop.wait()
            await socket.close()

        closing = asyncio.create_task(close_at_stop())
        try:
            await _read(bot, line, figures, socket)
            if not stop.is_set():
                raise ConnectionError(f"{bot.name}: the server closed the socket ({socket.close_code})")
        finally:
            closing.cancel()


async def _read(bot: Bot, line: Line, figures: Figures, socket: Any) -> None:
    """The bot's events until its socket is closed (at the end of the run), each answered as it asks."""
    async for raw in socket:
        arrived = time.monotonic()
        message = json.loads(raw)
        for each in message["events"] if message.get("type") == "events" else [message]:
            await _answer(bot, line, figures, each, arrived)
            arrived = time.monotonic()  # the next event of the message is taken now


async def _answer(bot: Bot, line: Line, figures: Figures, message: dict[str, Any], arrived: float) -> None:
    """One event the bot got, answered as it asks (``arrived``: when the bot took it, at its message's
    coming for the first event of a message, after the answers to the events before it for the others, as
    when each came as a message of its own)."""
    if message.get("type") != "event":
        return
    event = message["event"]
    kind = event.get("type")
    if "at" in message and figures.measuring:
        lag = (datetime.now(UTC) - datetime.fromisoformat(message["at"])).total_seconds()
        figures.delivery_ms.append(max(lag, 0.0) * 1000)
    if kind in ("betting_open", "no_more_bets"):
        timers(message, figures)
    if kind == "round_over" and figures.measuring:
        (figures.voided if event.get("voided") else figures.settled).add((message["table"], event["round"]))
    elif kind == "betting_open":
        bot.bets += 1
        answer = await send(line, bot, f"/api/tables/{bot.table}/bets", {"spot": str(bot.box), "amount": "10"}, figures)
        if account(bot, figures, "bet", answer) and figures.measuring:
            figures.bet_ms.append((time.monotonic() - arrived) * 1000)
            figures.bet_server_ms.extend(ms for ms in (server_ms(answer),) if ms is not None)
    elif kind == "await" and event.get("kind") == "decision" and event.get("player") == bot.name:
        choice = decide(bot, message.get("your_actions") or [])
        if choice is None:
            figures.errors.append(f"{bot.name}: asked to decide with no actions (your_actions missing)")
            return
        answer = await send(line, bot, f"/api/tables/{bot.table}/actions", choice, figures)
        if account(bot, figures, "action", answer):
            bot.decisions += 1
            if figures.measuring:
                figures.decision_ms.append((time.monotonic() - arrived) * 1000)
                figures.decision_server_ms.extend(ms for ms in (server_ms(answer),) if ms is not None)


def decide(bot: Bot, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    kinds = {a["type"]: a for a in actions}
    if "stand" not in kinds:
        return None
    choice = kinds["hit"] if "hit" in kinds and bot.rng.random() < 0.4 else kinds["stand"]
    return {k: v for k, v in choice.items() if k in ("type", "box", "hand")}


async def storm(bases: list[str], names: list[str], figures: Figures) -> None:
    """``len(names)`` sign-ins sent evenly within one second, over the processes."""
    async with httpx.AsyncClient(timeout=300, limits=httpx.Limits(max_connections=len(names) + 10)) as client:

        async def login(i: int, name: str) -> None:
            await asyncio.sleep(i / len(names))
            began = time.monotonic()
            try:
                answer = await client.post(
                    bases[i % len(bases)] + "/api/login", json={"name": name, "password": PASSWORD}
                )
            except httpx.HTTPError as error:
                figures.errors.append(f"sign-in: {type(error).__name__}")
                return
            if answer.status_code != 200:
                figures.errors.append(f"sign-in: {answer.status_code} {answer.text[:200]}")
                return
            figures.login_ms.append((time.monotonic() - began) * 1000)

        began = datetime.now(UTC)
        await asyncio.gather(*(login(i, name) for i, name in enumerate(names)))
        figures.storm = (began, datetime.now(UTC))


# --------------------------------------------------------------------------------------------------
# the watchers (child processes)


def watch(bases: list[str], table: int, count: int, start: int, seconds: float, batch: bool, out: Any) -> None:
    """``count`` sockets on ``table`` for ``seconds`` after the last one opened (``batch``: opened with
    ``?batch=1``, the events that come together in one message); sends back their figures."""
    asyncio.run(_watch(bases, table, count, start, seconds, batch, out))


class Watcher(asyncio.Protocol):
    """One watcher's socket, as little CPU as a client can spend on it, so that the watchers' processes
    are not what sets the delivery figures: the WebSocket's frames are read in ``data_received`` (no task
    woken per message), and while measuring each text message's arrival time is kept under its bytes (the
    same bytes at every anonymous watcher), parsed once per distinct message after the run."""

    def __init__(self, host: str, path: str, arrivals: dict[bytes, list[float]], measuring: asyncio.Event) -> None:
        self.host, self.path = host, path
        self.arrivals, self.measuring = arrivals, measuring
        self.buffer = bytearray()
        self.upgraded = False
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.ended: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.fragments: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self.key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed before the handshake: {exc}"))
        if not self.ended.done():
            self.ended.set_result(f"the server closed the socket ({exc})")

    def _end(self, reason: str | None) -> None:
        if not self.ended.done():
            self.ended.set_result(reason)
        if self.transport is not None:
            self.transport.close()

    def _send(self, opcode: int, payload: bytes) -> None:
        """A client's frame (masked, RFC 6455 5.3); only pongs and the close are sent, all short."""
        assert self.transport is not None and len(payload) < 126
        mask = secrets.token_bytes(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._send(8, (1000).to_bytes(2, "big"))
            self._end(None)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        if not self.upgraded:
            head, found, _rest = bytes(self.buffer).partition(b"\r\n\r\n")
            if not found:
                return
            accept = base64.b64encode(hashlib.sha1((self.key + WEBSOCKET_GUID).encode()).digest())
            if not head.startswith(b"HTTP/1.1 101") or accept not in head:
                self.opened.set_exception(ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace")))
                self._end("refused")
                return
            del self.buffer[: len(head) + 4]
            self.upgraded = True
            self.opened.set_result(None)
        buffer = self.buffer
        while len(buffer) >= 2:
            first, length = buffer[0], buffer[1] & 0x7F
            at = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, at = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, at = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < at + length:
                return
            payload = bytes(buffer[at : at + length])
            del buffer[: at + length]
            opcode = first & 0x0F
            if opcode == 9:  # the server's ping: answered, or the server closes the socket
                self._send(10, payload)
            elif opcode == 8:
                self._end(f"the server closed the socket: {payload[:2].hex()} {payload[2:].decode(errors='replace')}")
            elif opcode in (0, 1):
                self.fragments.append(payload)
                if first & 0x80:
                    message = b"".join(self.fragments)
                    self.fragments.clear()
                    if self.measuring.is_set():
                        self.arrivals.setdefault(message, []).append(now)


async def _watch(bases: list[str], table: int, count: int, start: int, seconds: float, batch: bool, out: Any) -> None:
    arrivals: dict[bytes, list[float]] = {}
    errors: list[str] = []
    sockets: list[Watcher] = []
    measuring = asyncio.Event()
    gate = asyncio.Semaphore(100)
    loop = asyncio.get_running_loop()

    path = f"/ws/tables/{table}" + ("?batch=1" if batch else "")

    async def one(i: int) -> None:
        host = bases[(start + i) % len(bases)].removeprefix("http://")
        name, _, port = host.partition(":")
        try:
            async with gate:
                _transport, watcher = await asyncio.wait_for(
                    loop.create_connection(lambda: Watcher(host, path, arrivals, measuring), name, int(port)),
                    120,
                )
                await asyncio.wait_for(watcher.opened, 120)
            sockets.append(watcher)
            reason = await watcher.ended
            if reason is not None:  # a socket that ended is an error of the run
                errors.append(f"watcher: {reason}"[:200])
        except Exception as error:
            errors.append(f"watcher: {type(error).__name__}: {error}"[:200])

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    began = time.monotonic()
    while len(sockets) + len(errors) < count and time.monotonic() - began < 600:
        await asyncio.sleep(0.2)
    opened = len(sockets)
    out.send({"ready": opened})
    measuring.set()
    cpu, window = time.process_time(), [time.time()]
    await asyncio.sleep(seconds)
    cpu = (time.process_time() - cpu) / seconds
    window.append(time.time())
    await asyncio.sleep(WATCH_GRACE)  # the events made up to the end still reach the watchers
    measuring.clear()
    for watcher in sockets:
        watcher.close()
    _done, late = await asyncio.wait(tasks, timeout=10)
    for task in late:  # a socket still opening now (or closing no more): not waited for
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    events = []
    for raw, times in arrivals.items():
        data = json.loads(raw)
        for message in data["events"] if data.get("type") == "events" else [data]:
            if message.get("type") == "event" and "at" in message:
                sent = datetime.fromisoformat(message["at"]).timestamp()
                lags = [max(arrived - sent, 0.0) * 1000 for arrived in times]
                events.append([message.get("seq", 0), message["at"], sent, lags])
    out.send({"events": events, "window": window, "opened": opened, "errors": errors, "cpu": cpu})


# --------------------------------------------------------------------------------------------------
# the run


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def drive(bots: list[Bot], bases: list[str], args: argparse.Namespace, pids: list[int]) -> tuple[Figures, float]:
    figures = Figures()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play(bot, figures, stop, not args.unbatched)) for bot in bots]
    await asyncio.sleep(args.warmup)
    figures.measuring = True
    began, cpu = time.monotonic(), [cpu_seconds(pid) for pid in pids]
    if args.logins:
        await asyncio.sleep(args.seconds / 2)
        names = [bots[i % len(bots)].name for i in range(args.logins)]
        await storm(bases, names, figures)
    await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - began)))
    figures.measuring = False
    elapsed = time.monotonic() - began
    figures.cpu = [(cpu_seconds(pid) - c) / elapsed for pid, c in zip(pids, cpu, strict=True)]
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            figures.errors.append(f"bot: {type(result).__name__}: {result}")
    return figures, elapsed


LISTS = ("bet_ms", "decision_ms", "bet_server_ms", "decision_server_ms", "delivery_ms", "login_ms", "errors")
"""The figures a bots' process sends back as lists (merged by concatenation)."""


def play_part(bots: list[Bot], bases: list[str], args: argparse.Namespace, pids: list[int], out: Any) -> None:
    """A child process's share of the bots (``--bot-processes``): their figures and counts, sent back."""
    figures, elapsed = asyncio.run(drive(bots, bases, args, pids))
    out.send((figures, elapsed, [(bot.bets, bot.decisions, bot.refused) for bot in bots]))


def owners(bases: list[str]) -> dict[int, str]:
    """Each table's process, as the processes' lobbies say now (a table another process runs is
    ``elsewhere`` in a lobby)."""
    found: dict[int, str] = {}
    for base in bases:
        for table in httpx.get(base + "/api/tables", timeout=30).json():
            if table["phase"] not in ("elsewhere", "starting", "closed"):
                found[int(table["id"])] = base
    return found


def drive_all(
    bots: list[Bot], bases: list[str], args: argparse.Namespace, pids: list[int], routes: dict[int, str]
) -> tuple[Figures, float]:
    """The bots, in this process or shared out to ``--bot-processes`` child processes (a Python process
    drives a few hundred sockets before its own event loop, not the server, sets the figures); the
    figures merged. The sign-in storm is sent by the first. ``routes``: the process of each table whose
    players go to the process that runs it; the others' go round robin."""
    for i, bot in enumerate(bots):
        bot.base = routes.get(bot.table, bases[i % len(bases)])  # its socket and its requests, at one process
    count = min(args.bot_processes, len(bots))
    if count <= 1:
        return asyncio.run(drive(bots, bases, args, pids))
    context = multiprocessing.get_context("spawn")
    parts = [bots[i::count] for i in range(count)]
    children = []
    for n, part in enumerate(parts):
        receive, send = context.Pipe(duplex=False)
        options = argparse.Namespace(**{**vars(args), "logins": args.logins if n == 0 else 0})
        child = context.Process(target=play_part, args=(part, bases, options, pids, send))
        child.start()
        children.append((child, receive))
    merged, elapsed = Figures(), 0.0
    for n, ((child, receive), part) in enumerate(zip(children, parts, strict=True)):
        if not receive.poll(args.warmup + args.seconds + 400):
            merged.errors.append("a bots' process sent no figures")
            continue
        figures, took, counts = receive.recv()
        child.join(10)
        for bot, (bets, decisions, refused) in zip(part, counts, strict=True):
            bot.bets, bot.decisions, bot.refused = bets, decisions, refused
        for name in (
            "bet_ms",
            "decision_ms",
            "bet_server_ms",
            "decision_server_ms",
            "delivery_ms",
            "login_ms",
            "errors",
            "resent",
        ):
            getattr(merged, name).extend(getattr(figures, name))
        merged.settled |= figures.settled
        merged.voided |= figures.voided
        merged.late_ms.update(figures.late_ms)
        merged.refusals.update(figures.refusals)
        if n == 0:
            merged.storm, merged.cpu, elapsed = figures.storm, figures.cpu, took
    return merged, elapsed


def spread_text(values: list[float]) -> str:
    if not values:
        return "none measured"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]

    return f"p50 {at(0.5):.1f}, p95 {at(0.95):.1f}, p99 {at(0.99):.1f}, max {ordered[-1]:.1f} ms ({len(ordered)})"


def report(args: argparse.Namespace, figures: Figures, elapsed: float, bots: list[Bot], kind: str) -> None:
    tables = len({bot.table for bot in bots})
    print(
        f"{len(bots)} bots over {tables} tables, {args.watchers} watchers, {args.logins} sign-ins; "
        f"{elapsed:.1f} s timed after {args.warmup:.0f} s of warm-up (betting window {args.betting_seconds} s, "
        f"decision timer {args.decision_seconds} s); {args.processes} process(es), {kind}, loopback"
    )
    print(f"bet answers:        {spread_text(figures.bet_ms)}  (bots: from the event to the answer)")
    print(f"  in the server:    {spread_text(figures.bet_server_ms)}  (its Server-Timing)")
    print(f"decision answers:   {spread_text(figures.decision_ms)}")
    print(f"  in the server:    {spread_text(figures.decision_server_ms)}")
    print(f"event delivery:     {spread_text(figures.delivery_ms)}  (bots: from the event's 'at' to its arrival)")
    late = [late for _closes, late in figures.late_ms.values()]
    print(f"timer lateness:     {spread_text(late)}  (every betting window of the timed run)")
    if figures.storm is not None:
        began, ended = figures.storm
        during = [late for closes, late in figures.late_ms.values() if began <= closes <= ended + timedelta(seconds=1)]
        print(f"  during the storm: {spread_text(during)}  ({(ended - began).total_seconds():.2f} s of sign-ins)")
        print(f"sign-in answers:    {spread_text(figures.login_ms)}")
    print(
        f"rounds settled: {len(figures.settled)} ({len(figures.settled) / elapsed:.2f}/s), voided: "
        f"{len(figures.voided)}; bets {sum(b.bets for b in bots)}, decisions {sum(b.decisions for b in bots)}, "
        f"refused (4xx) {sum(b.refused for b in bots)}"
    )
    print("server CPU (s per s): " + ", ".join(f"{c:.2f}" for c in figures.cpu))
    for reason, count in figures.refusals.most_common(3):
        print(f"  refused {count} times: {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", help="sqlite (a temporary file) or a postgresql:// URL")
    parser.add_argument("--processes", type=int, default=1, help="croupier serve processes (default 1)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="with --processes > 1")
    parser.add_argument("--players", type=int, default=200, help="bots (default 200)")
    parser.add_argument("--tables", type=int, default=30, help="blackjack tables they sit at (default 30)")
    parser.add_argument("--watchers", type=int, default=0, help="sockets watching the first bot table")
    parser.add_argument(
        "--unbatched",
        action="store_true",
        help="bots and watchers without ?batch=1: a message for each event, not each burst",
    )
    parser.add_argument("--watcher-processes", type=int, default=0, help="child processes for them (0: 1 a 2,500)")
    parser.add_argument(
        "--by-table",
        action="store_true",
        help="each bot at the process that runs its table (as a load balancer that routes by table), not round robin",
    )
    parser.add_argument("--bot-processes", type=int, default=1, help="child processes for the bots (default 1)")
    parser.add_argument("--logins", type=int, default=0, help="sign-ins sent within 1 s half-way through")
    parser.add_argument("--seconds", type=float, default=30.0, help="timed play (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="untimed play first (default 5)")
    parser.add_argument("--betting-seconds", type=float, default=5.0, help="betting window (default 5)")
    parser.add_argument("--decision-seconds", type=float, default=10.0, help="decision timer (default 10)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server logs")
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.players <= PER_TABLE * args.tables:
        parser.error(f"--players: 1 to {PER_TABLE} per table; --tables: 1 to 500")
    if not 0 < args.seconds <= 600 or not 1 <= args.processes <= 16 or not 0 <= args.watchers <= 20_000:
        parser.error("--seconds: more than 0, at most 600; --processes: 1-16; --watchers: at most 20,000")
    if args.database != "sqlite" and not args.database.startswith("postgresql"):
        parser.error("--database: sqlite, or a postgresql://USER@HOST/DB URL")
    watching = args.watchers / 100 + (WATCH_GRACE if args.watchers else 0)
    bound = int(args.seconds + args.warmup + 240 + watching + (300 if args.logins else 0))

    def expired(_signal: int, _frame: Any) -> None:
        raise SystemExit(f"load: stopped after {bound} s, the bound of this run")  # the servers are stopped below

    signal.signal(signal.SIGALRM, expired)
    signal.alarm(bound)  # the bound, whatever happens
    directory = Path(tempfile.mkdtemp(prefix="croupier-load-"))
    sqlite = args.database == "sqlite"
    url, made = (f"sqlite:///{directory / 'croupier.db'}", None) if sqlite else make_database(args.database)
    servers: list[ServerProcess] = []
    try:
        run(args, url, "SQLite" if sqlite else "PostgreSQL", directory, servers)
    finally:
        for server in servers:
            server.stop()
        if made is not None and not args.keep:
            drop_database(args.database, made)
        leave(directory, url, keep=args.keep)


def leave(directory: Path, url: str, *, keep: bool) -> None:
    """The run's folder (a SQLite run's database, every run's server logs) removed, or kept and named."""
    if keep:
        print(f"database {url} and server logs kept in {directory}")
    else:
        shutil.rmtree(directory, ignore_errors=True)


LOOP_STEPS = 2_000_000


def machine_now() -> str:
    """The machine's speed and load as the run begins (nothing of the run started yet): the time of one step
    of a plain Python loop, best of three, and the load average. The machine is a shared virtual one whose
    speed changes within a day (the same loop took from 34 to 150 ns a step here on 2026-12-07), so that the figures
    of two runs compare only where these are alike."""

    def loop() -> float:
        began = time.perf_counter()
        total = 0
        for step in range(LOOP_STEPS):
            total += step
        return time.perf_counter() - began

    best = min(loop() for _ in range(3))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"machine at the start: {best / LOOP_STEPS * 1e9:.0f} ns a Python loop step (best of 3); load {load}"


STACK = ("sqlalchemy", "asyncpg", "aiosqlite", "fastapi", "starlette", "uvicorn", "websockets", "redis", "pydantic")
"""The libraries a server's figures depend on most: a fresh install takes their newest releases."""


def stack_now() -> str:
    """Python's version and the installed versions of :data:`STACK`, for the run's record: the same command
    on the same machine has given other figures after the dependencies were installed afresh."""
    from importlib import metadata

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "none"

    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"stack: Python {python}, " + ", ".join(f"{name} {version(name)}" for name in STACK)


def run(args: argparse.Namespace, url: str, kind: str, directory: Path, servers: list[ServerProcess]) -> None:
    print(machine_now())
    print(stack_now())
    seconds = (float(args.betting_seconds), float(args.decision_seconds))
    first = ServerProcess(directory / "croupier.db", free_port(), directory / "setup.log", *seconds, url=url)
    servers.append(first)
    first.start()
    first.stop()  # gracefully: it hands its table leases back
    servers.clear()
    bots = asyncio.run(add_rows(url, args.players, args.tables, args.betting_seconds, args.decision_seconds))
    os.environ["CROUPIER_METRICS_TOKEN"] = METRICS_TOKEN
    extra: tuple[str, ...] = ()
    if args.processes > 1:
        os.environ["CROUPIER_REDIS_KEY"] = REDIS_KEY
        extra = ("--redis", args.redis, "--redis-prefix", f"load-{uuid.uuid4().hex[:8]}")
    for n in range(args.processes):
        log = directory / f"server-{n + 1}.log"
        server = ServerProcess(directory / "croupier.db", free_port(), log, *seconds, extra=extra, url=url)
        servers.append(server)
        server.start(timeout=180, every_table=n == 0)
    bases = [server.base for server in servers]
    with httpx.Client() as probe:
        all_tables = len(probe.get(bases[0] + "/api/tables", timeout=30).json())
    counts = spread(servers, all_tables, 60 + 3 * args.betting_seconds)
    print(f"tables run by each process: {list(counts.values())} of {all_tables}")
    asyncio.run(fund(bases[0], bots))
    watchers = start_watchers(args, bases, bots[0].table)
    for _child, receive in watchers:  # every watcher's socket is open (or failed) before the timed run
        if receive.poll(600):
            receive.recv()
    pids = [server.process.pid for server in servers if server.process is not None]
    routes = owners(bases) if args.by_table and len(bases) > 1 else {}
    figures, elapsed = drive_all(bots, bases, args, pids, routes)
    collect_watchers(watchers, figures)
    report(args, figures, elapsed, bots, kind)
    print_collections(bases)
    for error in figures.errors[:8]:
        print(f"  error: {error}")
    if figures.resent:
        again = dict(Counter(figures.resent))
        print(f"sent again after a failed connection (same key): {len(figures.resent)}, {again}")
    print(f"errors: {len(figures.errors)}")
    if figures.errors:
        raise SystemExit(1)


def collections_text(metrics: str) -> str:
    """A server's garbage collections over its life, from its ``/api/metrics`` text
    (``croupier_gc_pause_seconds``, croupier.server.heap): how many of each kind and their longest pause
    (the upper bound of the highest bucket that has one)."""
    from prometheus_client.parser import text_string_to_metric_families

    counts: dict[str, float] = {}
    sums: dict[str, float] = {}
    longest: dict[str, str] = {}
    for family in text_string_to_metric_families(metrics):
        if family.name != "croupier_gc_pause_seconds":
            continue
        below: dict[str, float] = {}
        for sample in family.samples:
            generation = sample.labels.get("generation", "?")
            if sample.name.endswith("_count"):
                counts[generation] = sample.value
            elif sample.name.endswith("_sum"):
                sums[generation] = sample.value
            elif sample.name.endswith("_bucket"):
                bound = sample.labels["le"]
                if sample.value > below.get(generation, 0.0):
                    longest[generation] = bound
                below[generation] = sample.value
    if not counts:
        return "none counted"
    parts = []
    for generation, name in (("0", "young (0)"), ("1", "young (1)"), ("2", "full")):
        n = int(counts.get(generation, 0))
        if n:
            bound = longest.get(generation, "?")
            most = "over 1 s" if bound == "+Inf" else f"each under {float(bound) * 1000:g} ms"
            parts.append(f"{name} {n}, {sums.get(generation, 0.0) * 1000:.0f} ms in all, {most}")
        else:
            parts.append(f"{name} 0")
    return "; ".join(parts)


def print_collections(bases: list[str]) -> None:
    """Each server's garbage collections since it started (its metrics), after the run."""
    with httpx.Client() as client:
        for n, base in enumerate(bases, 1):
            try:
                answer = client.get(
                    base + "/api/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=30
                )
                text = collections_text(answer.text) if answer.status_code == 200 else f"HTTP {answer.status_code}"
            except httpx.HTTPError as error:
                text = f"not read ({error})"
            print(f"server {n} garbage collections: {text}")


def start_watchers(args: argparse.Namespace, bases: list[str], table: int) -> list[tuple[Any, Any]]:
    if not args.watchers:
        return []
    count = args.watcher_processes or max(1, math.ceil(args.watchers / 2500))
    context = multiprocessing.get_context("spawn")
    started = []
    per, start = -(-args.watchers // count), 0
    for _ in range(count):
        n = min(per, args.watchers - start)
        receive, send = context.Pipe(duplex=False)
        child = context.Process(
            target=watch, args=(bases, table, n, start, args.warmup + args.seconds, not args.unbatched, send)
        )
        child.start()
        started.append((child, receive))
        start += n
    return started


def collect_watchers(watchers: list[tuple[Any, Any]], figures: Figures) -> None:
    if not watchers:
        return
    lags: list[float] = []
    opened, reached, errors, cpu, windows, events = 0, Counter[tuple[int, str]](), [], [], [], []
    for child, receive in watchers:
        if receive.poll(120 + WATCH_GRACE):
            result = receive.recv()
            opened += result["opened"]
            errors += result["errors"]
            cpu.append(result["cpu"])
            windows.append(result["window"])
            events += result["events"]
        else:
            errors.append("a watchers' process sent no figures")
        child.join(10)
    if windows:  # the events stamped while every watchers' process measured
        began, ended = max(w[0] for w in windows), min(w[1] for w in windows)
        for seq, at, sent, seen in events:
            if began <= sent <= ended:
                lags += seen
                reached[(seq, at)] += len(seen)
    figures.errors += errors
    print(f"watchers: {opened} sockets open; event delivery {spread_text(lags)}")
    everyone = sum(n == opened for n in reached.values())
    print(f"  {len(reached)} events of the table while measuring; {everyone} reached every watcher")
    if opened and everyone < len(reached):
        print(f"  watchers reached by the others: {sorted(Counter(reached.values()).items())[:10]}")
    print("watchers' processes' CPU (s per s): " + ", ".join(f"{c:.2f}" for c in cpu))


if __name__ == "__main__":
    main()
