"""Load: bots play blackjack over WebSockets and REST against a real ``croupier serve`` on loopback.

Setup (not timed). A fresh SQLite database gets the demo (one start of the server), then, with the server
stopped, more live-online tables (rows in ``game_tables``, like the demo's ``online-1``: 5-500, chip 1)
and one player account per bot (``load-N``, with a sign-in token written as the server stores it, so that
the setup does not compute hundreds of argon2 hashes). The server is started again on that database; the
cashier deposits 2,000.00 to each bot through the REST API.

Run (timed, ``--seconds``). Each bot sits at one box of one table (at most 7 per table) and keeps a
WebSocket open on it. On ``betting_open`` it bets 10.00 (REST, with an Idempotency-Key); on an
``await`` event that names it (``kind`` ``decision``; a hit that leaves the hand to act brings another) it
answers through REST: hit or stand at random. Insurance is left to the timer (declined).

Figures:

- rounds per second: ``round_over`` events of the bots' tables during the timed run, over its length;
- decision latency: from the moment a bot's WebSocket delivers the event that asks it to decide to the
  moment the REST answer to its decision (200) arrives: the service's turnaround for one decision, the
  bot's own thinking excluded (it decides in microseconds); p50, p99 and max;
- event delivery: from the ``at`` time the table stamped on that event to its arrival at the
  bot (one clock: the same machine); p50 and p99.

    python benchmarks/load.py                                  # 200 players over 30 tables, 30 s
    python benchmarks/load.py --players 60 --tables 10 --seconds 20
    python benchmarks/load.py --betting-seconds 0.5 --decision-seconds 2   # rounds as fast as bets allow

The bots run in this process, the server in another, on the same machine: they share its cores. The
server process's CPU use during the timed run is printed too.

Bounded: at most 7 bots a table, at most ``--seconds`` of play, and the whole run stops after
``--seconds`` and ``--warmup`` plus 180 s whatever happens (the server stopped with it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import secrets
import signal
import sqlite3
import statistics
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

from croupier.server.names import name_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash import ServerProcess, free_port

BOXES = 7
BOT_TABLE = ("blackjack", "live-online", 500, 50_000, 100)  # game, preset, min, max, chip (cents)


@dataclass
class Bot:
    name: str
    token: str
    table: int
    box: int
    rng: random.Random
    bets: int = 0
    decisions: int = 0
    refused: int = 0


@dataclass
class Figures:
    decision_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    rounds: set[tuple[int, int]] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    measuring: bool = False
    server_cpu: float = 0.0  # the server process's CPU seconds per second of the timed run


def prepare(database: Path, players: int, tables: int, betting: float, decision: float, log: Path) -> list[Bot]:
    """The demo, then the extra tables and the bots' accounts, written with the server stopped."""
    server = ServerProcess(database, free_port(), log, betting, decision)
    try:
        server.start()
    finally:
        server.stop()  # gracefully: it hands its table leases back
    bots: list[Bot] = []
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
        own = [row[0] for row in db.execute("SELECT id FROM game_tables WHERE game = 'blackjack' AND mode = 'rng'")]
        for n in range(max(0, tables - len(own))):
            cursor = db.execute(
                "INSERT INTO game_tables (name, game, preset, overrides, min_bet, max_bet, chip, betting_seconds, "
                "decision_seconds, mode) VALUES (?, ?, ?, '{}', ?, ?, ?, ?, ?, 'rng')",
                (f"load-{n + 1}", *BOT_TABLE, betting, decision),
            )
            own.append(int(cursor.lastrowid or 0))
        db.execute("UPDATE game_tables SET betting_seconds = ?, decision_seconds = ?", (betting, decision))
        (password_hash,) = db.execute("SELECT password_hash FROM accounts WHERE name = 'ana'").fetchone()
        now = datetime.now(UTC).replace(tzinfo=None)  # stored as SQLAlchemy stores it on SQLite: naive UTC text
        table_ids = own[:tables]
        for i in range(players):
            table, box = table_ids[i % len(table_ids)], i // len(table_ids) + 1
            if box > BOXES:
                raise SystemExit(f"--players {players} over {tables} tables: more than {BOXES} a table")
            name = f"load-{i + 1}"
            cursor = db.execute(
                "INSERT INTO accounts (name, name_key, role, password_hash, created_at) VALUES (?, ?, 'player', ?, ?)",
                (name, name_key(name), password_hash, now.isoformat(" ")),
            )
            account = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO wallets (kind, account_id, balance) VALUES ('player', ?, 0)", (account,))
            token = secrets.token_urlsafe(32)
            db.execute(
                "INSERT INTO tokens (digest, account_id, expires_at) VALUES (?, ?, ?)",
                (hashlib.sha256(token.encode()).hexdigest(), account, (now + timedelta(hours=12)).isoformat(" ")),
            )
            bots.append(Bot(name, token, table, box, random.Random(i)))
        db.commit()
    return bots


async def fund(base: str, bots: list[Bot]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        answer = await client.post("/api/login", json={"name": "cole", "password": "demo"})
        cole = {"Authorization": f"Bearer {answer.json()['token']}"}
        for bot in bots:
            answer = await client.post(
                "/api/cashier/deposits",
                json={"account": bot.name, "amount": "2000"},
                headers={**cole, "Idempotency-Key": f"load-{bot.name}"},
            )
            if answer.status_code != 200:
                raise SystemExit(f"deposit for {bot.name}: {answer.status_code} {answer.text}")


async def play(bot: Bot, base: str, client: httpx.AsyncClient, figures: Figures, stop: asyncio.Event) -> None:
    headers = {"Authorization": f"Bearer {bot.token}"}
    url = base.replace("http://", "ws://") + f"/ws/tables/{bot.table}?token={bot.token}"
    async with connect(url, max_queue=None, ping_interval=None) as socket:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), 1.0)
            except TimeoutError:
                continue
            arrived = time.monotonic()
            message = json.loads(raw)
            if message.get("type") != "event":
                continue
            event = message["event"]
            kind = event.get("type")
            if kind == "round_over" and figures.measuring:
                figures.rounds.add((message["table"], event["round"]))
            elif kind == "betting_open":
                bot.bets += 1
                answer = await client.post(
                    f"/api/tables/{bot.table}/bets",
                    json={"spot": str(bot.box), "amount": "10"},
                    headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                )
                if answer.status_code >= 500:
                    figures.errors.append(f"bet: {answer.status_code} {answer.text}")
                elif answer.status_code != 200:
                    bot.refused += 1
                    figures.refusals[answer.json().get("error", "")[:60]] += 1
            elif kind == "await" and event.get("kind") == "decision" and event.get("player") == bot.name:
                sent_at = datetime.fromisoformat(message["at"])
                actions = message.get("your_actions") or []
                choice = decide(bot, actions)
                if choice is None:
                    continue
                answer = await client.post(
                    f"/api/tables/{bot.table}/actions",
                    json=choice,
                    headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                )
                done = time.monotonic()
                if answer.status_code == 200:
                    bot.decisions += 1
                    if figures.measuring:
                        figures.decision_ms.append((done - arrived) * 1000)
                        lag = (datetime.now(UTC) - sent_at).total_seconds() - (done - arrived)
                        figures.delivery_ms.append(max(lag, 0.0) * 1000)
                elif answer.status_code >= 500:
                    figures.errors.append(f"action: {answer.status_code} {answer.text}")
                else:
                    bot.refused += 1
                    figures.refusals[answer.json().get("error", "")[:60]] += 1


def decide(bot: Bot, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    kinds = {a["type"]: a for a in actions}
    if "stand" not in kinds:
        return None
    choice = kinds["hit"] if "hit" in kinds and bot.rng.random() < 0.4 else kinds["stand"]
    return {k: v for k, v in choice.items() if k in ("type", "box", "hand")}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def drive(bots: list[Bot], base: str, seconds: float, warmup: float, pid: int) -> tuple[Figures, float]:
    figures = Figures()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=len(bots) + 10, max_keepalive_connections=len(bots) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        tasks = [asyncio.create_task(play(bot, base, client, figures, stop)) for bot in bots]
        await asyncio.sleep(warmup)
        figures.measuring = True
        began, cpu = time.monotonic(), cpu_seconds(pid)
        await asyncio.sleep(seconds)
        figures.measuring = False
        elapsed = time.monotonic() - began
        figures.server_cpu = (cpu_seconds(pid) - cpu) / elapsed
        stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            figures.errors.append(f"bot: {type(result).__name__}: {result}")
    return figures, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200, help="bots (default 200)")
    parser.add_argument("--tables", type=int, default=30, help="blackjack tables they sit at (default 30)")
    parser.add_argument("--seconds", type=float, default=30.0, help="timed play (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="untimed play first (default 5)")
    parser.add_argument("--betting-seconds", type=float, default=5.0, help="betting window (default 5)")
    parser.add_argument("--decision-seconds", type=float, default=10.0, help="decision timer (default 10)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server log")
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.players <= BOXES * args.tables:
        parser.error(f"--players: 1 to {BOXES} per table; --tables: 1 to 500")
    if not 0 < args.seconds <= 600:
        parser.error("--seconds: more than 0, at most 600")
    bound = int(args.seconds + args.warmup + 180)

    def expired(_signal: int, _frame: Any) -> None:
        raise SystemExit(f"load: stopped after {bound} s, the bound of this run")  # the server is stopped below

    signal.signal(signal.SIGALRM, expired)
    signal.alarm(bound)  # the bound, whatever happens

    directory = Path(tempfile.mkdtemp(prefix="croupier-load-"))
    database, log = directory / "croupier.db", directory / "server.log"
    bots = prepare(database, args.players, args.tables, args.betting_seconds, args.decision_seconds, log)
    server = ServerProcess(database, free_port(), log, args.betting_seconds, args.decision_seconds)
    try:
        server.start()
        asyncio.run(fund(server.base, bots))
        assert server.process is not None
        figures, elapsed = asyncio.run(drive(bots, server.base, args.seconds, args.warmup, server.process.pid))
    finally:
        server.stop()
    tables = len({bot.table for bot in bots})
    print(
        f"{args.players} bots over {tables} tables, {elapsed:.1f} s timed after {args.warmup:.0f} s of warm-up "
        f"(betting window {args.betting_seconds} s, decision timer {args.decision_seconds} s), one server process, "
        "SQLite, loopback"
    )
    print(f"rounds per second:  {len(figures.rounds) / elapsed:.2f}  ({len(figures.rounds)} rounds)")
    d = figures.decision_ms
    print(
        f"decision latency:   p50 {percentile(d, 0.5):.1f} ms, p99 {percentile(d, 0.99):.1f} ms, "
        f"max {max(d, default=float('nan')):.1f} ms, mean {statistics.fmean(d) if d else float('nan'):.1f} ms "
        f"({len(d)} decisions; from the arrival of the event asking for it to the REST answer)"
    )
    e = figures.delivery_ms
    print(
        f"event delivery:     p50 {percentile(e, 0.5):.1f} ms, p99 {percentile(e, 0.99):.1f} ms "
        "(from the event's 'at' stamp to its arrival over the WebSocket)"
    )
    print(
        f"bets placed: {sum(b.bets for b in bots)}, decisions: {sum(b.decisions for b in bots)}, "
        f"refused (4xx): {sum(b.refused for b in bots)}, faults: {len(figures.errors)}"
    )
    print(f"server process CPU: {figures.server_cpu:.2f} s per second (1.00 = one core busy)")
    for reason, count in figures.refusals.most_common(3):
        print(f"  refused {count} times: {reason}")
    for error in figures.errors[:5]:
        print(f"  fault: {error}")
    if args.keep:
        print(f"database and server log kept in {directory}")
    else:
        for name in ("croupier.db", "croupier.db-wal", "croupier.db-shm", "server.log"):
            with contextlib.suppress(FileNotFoundError):
                (directory / name).unlink()
        with contextlib.suppress(OSError):
            directory.rmdir()
    if figures.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
