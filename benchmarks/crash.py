"""Crash recovery under play: SIGKILL the live table server at random moments and check every invariant.

A real ``croupier serve`` process runs on a SQLite file. Bots (one thread each, plain HTTP) play the demo
tables as ana, ben and chen: they bet with Idempotency-Keys, answer some decisions and leave others to
the decision timer, and ask the cashier for a deposit when they run low. At a moment drawn from a seeded
generator the server is killed with SIGKILL; every request then in flight has an unknown outcome, and
its bot sends it again, with the same key and body, once the server is back. The restarted process takes
the tables over when the dead one's leases lapse (every ``--lapse-every``-th cycle), or at once when the
run frees them, as an operator would once the old process is known dead. After each kill (on the
dead server's database) and after each restart (on the live server, before the bots resume) the run
checks:

- the ledger: all entries sum to zero, all balances sum to zero, every transaction balances, every
  wallet's balance is the sum of its entries, no player's balance is negative (SQL on the file, and
  ``GET /api/ledger`` as the supervisor on the live server);
- every bet, stake and deposit the server acknowledged (200) is stored exactly once: its idempotency
  record holds the very answer the bot got, and the bet's row in ``bets`` is there once; every stored
  money request was acknowledged or is one whose answer was lost in the crash; a request that was
  refused when sent again was never stored;
- rounds: a settled round has one settlement per bettor, staking what the bets took, with its
  ``settle`` transaction; a voided round has its bets returned by ``refund`` transactions and no
  settlement; every bet and payment transaction names an existing round of the right status; no table
  has more than one unfinished round, and after a restart every round the crash interrupted is voided;
- every player's balance equals deposits − withdrawals − bets and stakes + what settlements returned +
  refunds, counted from the ``bets`` and ``settlements`` tables, and ``GET /api/me`` says the same.

    python benchmarks/crash.py                 # 500 cycles
    python benchmarks/crash.py --cycles 20     # a short run
    python benchmarks/crash.py --seed 7 --keep # another schedule; keep the database and the server log

``tests/server/test_crash.py`` runs a few cycles of the same in the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx

PLAYERS = {"ana": (2, "1"), "ben": (2, "3"), "chen": (1, "2")}  # name -> (table, box)
DECIDING_TABLES = (1, 2)  # the live-dealer table 3 waits for a dealer's cards: the bots keep off it
STAFF_PASSWORD = "demo"
LOW_BALANCE = Decimal("150")
NOT_RUN_HERE = ("starting", "closed", "elsewhere")


def release_leases(database: Path) -> None:
    """What an operator does once the process that held the tables is known to be dead: free its leases,
    so that the next process takes the tables at once rather than when the leases lapse."""
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as db:
        db.execute("UPDATE game_tables SET owner = NULL, lease_until = NULL")
        db.commit()


class InvariantError(AssertionError):
    """An invariant does not hold; the message says which and where."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def croupier_command() -> str:
    beside = Path(sys.executable).with_name("croupier")
    return str(beside) if beside.exists() else "croupier"


class ServerProcess:
    """``croupier serve`` as a child process on a SQLite file."""

    def __init__(
        self,
        database: Path,
        port: int,
        log: Path,
        betting: float = 0.3,
        decision: float = 0.3,
        extra: tuple[str, ...] = (),
        url: str | None = None,
    ) -> None:
        self.extra = extra  # more options of croupier serve
        self.url = url or f"sqlite:///{database}"  # the database, when it is not the SQLite file ``database``
        self.database = database
        self.port = port
        self.log = log
        self.betting = betting
        self.decision = decision
        self.process: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self, timeout: float = 90.0, every_table: bool = True) -> float:
        """Start and wait until the lobby answers and (``every_table``) every table has recovered here; returns
        the seconds it took."""
        began = time.monotonic()
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    croupier_command(),
                    "serve",
                    "--port",
                    str(self.port),
                    "--database",
                    self.url,
                    "--betting-seconds",
                    str(self.betting),
                    "--decision-seconds",
                    str(self.decision),
                    *self.extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        with httpx.Client(base_url=self.base, timeout=5) as client:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"croupier serve exited with {self.process.returncode}; see {self.log}")
                if time.monotonic() - began > timeout:
                    raise RuntimeError(f"croupier serve did not answer within {timeout:.0f} s; see {self.log}")
                with contextlib.suppress(httpx.TransportError):
                    lobby = client.get("/api/tables")
                    # every table run here and recovered: not still starting, nor leased to the killed process
                    if lobby.status_code == 200 and (
                        not every_table or all(t["phase"] not in NOT_RUN_HERE for t in lobby.json())
                    ):
                        return time.monotonic() - began
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Sent:
    """A money-moving request whose answer was lost (the server died): sent again after the restart."""

    path: str
    body: dict[str, Any]
    key: str
    kind: str  # bet, act, deposit
    headers: dict[str, str]


@dataclass
class Record:
    """What the bots know: every acknowledged money request by (account name, key), the keys whose outcome
    is unknown, and the keys refused when sent again."""

    acked: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    unknown: dict[tuple[str, str], Sent] = field(default_factory=dict)
    refused_on_retry: set[tuple[str, str]] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Bot(threading.Thread):
    def __init__(
        self, name: str, base: str, record: Record, go: threading.Event, stop: threading.Event, seed: int
    ) -> None:
        super().__init__(name=f"bot-{name}", daemon=True)
        self.player = name
        self.table, self.box = PLAYERS[name]
        self.base = base
        self.record = record
        self.go = go
        self.halt = stop
        self.parked = threading.Event()
        self.ready = threading.Event()  # signed in
        self.random = random.Random(seed)
        self.headers: dict[str, str] = {}
        self.cashier: dict[str, str] = {}
        self.last_round_bet: tuple[Any, Any] | None = None
        self.balance = Decimal("1000")
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, timeout=10) as client:
                while not self.halt.is_set():
                    if not self.go.is_set():
                        self.parked.set()
                        self.go.wait(0.2)
                        continue
                    self.parked.clear()
                    try:
                        self.step(client)
                    except httpx.TransportError:
                        self.go.wait(0.05)  # the server is gone: the main thread will clear ``go``
        except BaseException as error:  # pragma: no cover - reported by the main thread
            self.error = error
        finally:
            self.parked.set()

    # one poll of the table
    def step(self, client: httpx.Client) -> None:
        if not self.headers:
            self.headers = self.sign_in(client, self.player)
            self.cashier = self.sign_in(client, "cole")
            self.ready.set()
        self.resend(client)
        if self.balance < LOW_BALANCE:
            self.money(client, "/api/cashier/deposits", {"account": self.player, "amount": "500"}, "deposit", True)
        view = client.get(f"/api/tables/{self.table}", headers=self.headers)
        if view.status_code != 200:
            raise InvariantError(f"GET /api/tables/{self.table} answered {view.status_code}: {view.text}")
        snapshot = view.json()
        round_ = snapshot.get("round") or {}
        if snapshot["phase"] == "betting":
            mine = any(self.player in box.get("bets", {}) for box in round_.get("boxes", []))
            number = (snapshot["shoe"]["id"], round_.get("number"))
            if not mine and number != self.last_round_bet and self.random.random() < 0.85:
                amount = str(self.random.choice((10, 10, 20, 25, 50)))
                self.last_round_bet = number
                self.money(client, f"/api/tables/{self.table}/bets", {"spot": self.box, "amount": amount}, "bet")
        elif snapshot["phase"] == "playing":
            actions = snapshot.get("your_actions") or []
            pending = snapshot.get("pending", {})
            waiting_for_me = pending.get("player") == self.player or pending.get("kind") == "insurance"
            if actions and waiting_for_me and self.random.random() < 0.8:  # else the timer answers
                action = self.random.choice(actions)
                body = {k: v for k, v in action.items() if k in ("type", "box", "hand")}
                if action["type"] in ("double", "insurance"):
                    body["amount"] = action.get("max_amount") or action.get("min_amount")
                self.money(client, f"/api/tables/{self.table}/actions", body, "act")
        time.sleep(self.random.uniform(0.02, 0.08))

    def sign_in(self, client: httpx.Client, name: str) -> dict[str, str]:
        answer = client.post("/api/login", json={"name": name, "password": STAFF_PASSWORD})
        if answer.status_code != 200:
            raise InvariantError(f"{name} cannot sign in: {answer.status_code} {answer.text}")
        return {"Authorization": f"Bearer {answer.json()['token']}"}

    def money(self, client: httpx.Client, path: str, body: dict[str, Any], kind: str, cashier: bool = False) -> None:
        key = uuid.uuid4().hex
        headers = self.cashier if cashier else self.headers
        sent = Sent(path, body, key, kind, headers)
        owner = "cole" if cashier else self.player
        with self.record.lock:
            self.record.unknown[(owner, key)] = sent  # until an answer arrives
            self.record.counts[f"{kind} sent"] += 1
        self.answer(owner, sent, client.post(path, json=body, headers={**headers, "Idempotency-Key": key}))

    def answer(self, owner: str, sent: Sent, response: httpx.Response, retry: bool = False) -> None:
        if response.status_code >= 500:
            raise InvariantError(f"{sent.path} answered {response.status_code}: {response.text}")
        with self.record.lock:
            self.record.unknown.pop((owner, sent.key), None)
            if response.status_code == 200:
                document = response.json()
                self.record.acked[(owner, sent.key)] = document
                self.record.counts[f"{sent.kind} acknowledged"] += 1
                if retry:
                    self.record.counts[f"{sent.kind} acknowledged when sent again"] += 1
                if "balance" in document:  # a bet's answer, or the cashier's deposit for this bot's player
                    self.balance = Decimal(document["balance"])
            elif retry:
                self.record.refused_on_retry.add((owner, sent.key))
                self.record.counts[f"{sent.kind} refused when sent again"] += 1
            else:
                self.record.counts[f"{sent.kind} refused"] += 1

    def resend(self, client: httpx.Client) -> None:
        with self.record.lock:
            mine = [
                (owner, sent)
                for (owner, _key), sent in self.record.unknown.items()
                if owner == self.player or (owner == "cole" and sent.body.get("account") == self.player)
            ]
        for owner, sent in mine:
            response = client.post(sent.path, json=sent.body, headers={**sent.headers, "Idempotency-Key": sent.key})
            self.answer(owner, sent, response, retry=True)


# --------------------------------------------------------------------------------------------------
# the invariants, read from the database file


def _rows(db: sqlite3.Connection, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    return list(db.execute(sql, args).fetchall())


def check_database(path: Path, record: Record) -> dict[str, int]:
    """Check every invariant on the database file in one read transaction; return what was counted."""
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        db.execute("BEGIN")  # one snapshot of the whole database
        with record.lock:
            acked = dict(record.acked)
            unknown = set(record.unknown)
            refused = set(record.refused_on_retry)
        return _check(db, acked, unknown, refused)
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.execute("COMMIT")
        db.close()


def _check(
    db: sqlite3.Connection,
    acked: dict[tuple[str, str], dict[str, Any]],
    unknown: set[tuple[str, str]],
    refused: set[tuple[str, str]],
) -> dict[str, int]:
    problems: list[str] = []

    def expect(ok: bool, message: str) -> None:
        if not ok:
            problems.append(message)

    # the ledger
    (entries_sum,) = db.execute("SELECT COALESCE(SUM(amount), 0) FROM ledger_entries").fetchone()
    (balances_sum,) = db.execute("SELECT COALESCE(SUM(balance), 0) FROM wallets").fetchone()
    expect(entries_sum == 0, f"ledger entries sum to {entries_sum}, not 0")
    expect(balances_sum == 0, f"wallet balances sum to {balances_sum}, not 0")
    unbalanced = _rows(db, "SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount) <> 0")
    expect(not unbalanced, f"transactions that do not balance: {unbalanced[:5]}")
    mismatched = _rows(
        db,
        "SELECT w.id, w.balance, COALESCE(SUM(e.amount), 0) FROM wallets w "
        "LEFT JOIN ledger_entries e ON e.wallet_id = w.id GROUP BY w.id, w.balance "
        "HAVING w.balance <> COALESCE(SUM(e.amount), 0)",
    )
    expect(not mismatched, f"wallets whose balance is not the sum of their entries: {mismatched[:5]}")
    negative = _rows(db, "SELECT id, balance FROM wallets WHERE kind = 'player' AND balance < 0")
    expect(not negative, f"player wallets below zero: {negative}")

    names = dict(_rows(db, "SELECT name, id FROM accounts"))
    ids = {v: k for k, v in names.items()}
    wallet_of = dict(_rows(db, "SELECT account_id, id FROM wallets WHERE account_id IS NOT NULL"))

    # idempotency: every acknowledged request stored once, with its answer; nothing stored that was not sent
    stored: dict[tuple[str, str], dict[str, Any]] = {}
    for account_id, key, response in _rows(db, "SELECT account_id, key, response FROM idempotency"):
        owner = ids[account_id]
        expect((owner, key) not in stored, f"idempotency key {key!r} of {owner} stored twice")
        stored[(owner, key)] = json.loads(response)
    for ident, answer in acked.items():
        if not ({"spot", "staked", "deposit", "withdrawal"} & set(answer)):
            continue  # a decision that moves no money (hit, stand, ...) keeps no idempotency record
        expect(ident in stored, f"acknowledged request {ident} is not in the idempotency table")
        if ident in stored:
            expect(stored[ident] == answer, f"{ident}: stored answer {stored[ident]} is not the one sent {answer}")
    for ident in stored:
        expect(ident in acked or ident in unknown, f"stored request {ident} was never acknowledged")
    for ident in refused:
        expect(ident not in stored, f"request {ident} was refused when sent again, yet it is stored")

    # bets: the bets table and the stored bet answers are the same multiset
    bet_rows = _rows(
        db,
        "SELECT b.id, b.round_id, b.account_id, b.kind, b.spot, b.amount, b.balance_after, b.transaction_id, "
        "t.kind, t.round_id FROM bets b LEFT JOIN ledger_transactions t ON t.id = b.transaction_id",
    )
    from_table = Counter(
        (round_id, ids[account], spot, amount, after)
        for _id, round_id, account, kind, spot, amount, after, *_ in bet_rows
        if kind == "bet"
    )
    from_answers = Counter(
        (a["round"], owner, a["spot"], _cents(a["amount"]), _cents(a["balance"]))
        for (owner, _key), a in stored.items()
        if "spot" in a and "round" in a
    )
    expect(
        from_table == from_answers,
        f"bets rows and stored bet answers differ: {(from_table - from_answers) + (from_answers - from_table)}",
    )
    stakes_table = Counter(ids[account] for _id, _r, account, kind, *_ in bet_rows if kind != "bet")
    stakes_answers: Counter[str] = Counter()
    for answer in stored.values():
        for player in answer.get("staked", {}):
            stakes_answers[player] += 1
    expect(stakes_table == stakes_answers, f"stake rows {stakes_table} and stored stake answers {stakes_answers}")
    for bet_id, round_id, _a, kind, _s, amount, _b, tx, tx_kind, tx_round in bet_rows:
        wanted = "bet" if kind == "bet" else "stake"
        expect(tx_kind == wanted and tx_round == round_id, f"bet {bet_id}: its transaction {tx} is {tx_kind}")
        (debit,) = db.execute(
            "SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e JOIN wallets w ON w.id = e.wallet_id "
            "WHERE e.transaction_id = ? AND w.kind = 'player'",
            (tx,),
        ).fetchone()
        expect(debit == -amount, f"bet {bet_id} of {amount} took {-debit} from the player's wallet")

    # rounds
    rounds = {r[0]: r for r in _rows(db, "SELECT id, table_id, status FROM rounds")}
    staked: dict[tuple[int, int], int] = {}
    for _id, round_id, account, _k, _s, amount, *_ in bet_rows:
        staked[(round_id, account)] = staked.get((round_id, account), 0) + amount
    settlements = {
        (r, a): (s, ret, tx)
        for r, a, s, ret, tx in _rows(
            db, "SELECT round_id, account_id, staked, returned, transaction_id FROM settlements"
        )
    }
    refunds: dict[tuple[int, int], int] = {}
    for round_id, wallet, amount in _rows(
        db,
        "SELECT t.round_id, e.wallet_id, e.amount FROM ledger_transactions t JOIN ledger_entries e "
        "ON e.transaction_id = t.id JOIN wallets w ON w.id = e.wallet_id WHERE t.kind = 'refund' AND w.kind = 'player'",
    ):
        refunds[(round_id, wallet)] = refunds.get((round_id, wallet), 0) + amount
    open_per_table: Counter[int] = Counter()
    counts: Counter[str] = Counter()
    for round_id, table_id, status in rounds.values():
        counts[f"rounds {status}"] += 1
        bettors = {a for (r, a) in staked if r == round_id}
        if status == "settled":
            for account in bettors:
                settled = settlements.get((round_id, account))
                expect(settled is not None, f"settled round {round_id} has no settlement for {ids[account]}")
                if settled is not None:
                    expect(settled[0] == staked[(round_id, account)], f"round {round_id}: settlement staked differs")
                    (tx_kind, tx_round) = db.execute(
                        "SELECT kind, round_id FROM ledger_transactions WHERE id = ?", (settled[2],)
                    ).fetchone() or (None, None)
                    expect(tx_kind == "settle" and tx_round == round_id, f"round {round_id}: settlement transaction")
            expect(not any(r == round_id for (r, _w) in refunds), f"settled round {round_id} also has refunds")
        elif status == "voided":
            for account in bettors:
                returned = refunds.get((round_id, wallet_of[account]), 0)
                expect(
                    returned == staked[(round_id, account)],
                    f"voided round {round_id} returned {returned} of {staked[(round_id, account)]} to {ids[account]}",
                )
            expect(not any(r == round_id for (r, _a) in settlements), f"voided round {round_id} has settlements")
        else:
            open_per_table[table_id] += 1
            expect(not any(r == round_id for (r, _a) in settlements), f"unfinished round {round_id} has settlements")
    for table_id, count in open_per_table.items():
        expect(count <= 1, f"table {table_id} has {count} unfinished rounds")
    for (round_id, account), _value in settlements.items():
        expect(rounds.get(round_id, (0, 0, ""))[2] == "settled", f"settlement of round {round_id} that is not settled")
        expect((round_id, account) in staked, f"settlement in round {round_id} for {ids[account]} who had no bet")
    for tx_id, kind, round_id in _rows(db, "SELECT id, kind, round_id FROM ledger_transactions"):
        counts[f"transactions {kind}"] += 1
        if kind in ("bet", "stake", "settle", "refund"):
            status = rounds.get(round_id, (0, 0, None))[2]
            expect(status is not None, f"{kind} transaction {tx_id} names no round ({round_id})")
            if kind == "settle":
                expect(status == "settled", f"settle transaction {tx_id} of round {round_id} that is {status}")
            if kind == "refund":
                expect(status == "voided", f"refund transaction {tx_id} of round {round_id} that is {status}")
        else:
            expect(kind in ("deposit", "withdrawal"), f"transaction {tx_id} of unknown kind {kind!r}")

    # each player's balance from the bets and settlements tables
    for account, wallet in wallet_of.items():
        (balance,) = db.execute("SELECT balance FROM wallets WHERE id = ?", (wallet,)).fetchone()
        (cash,) = db.execute(
            "SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t "
            "ON t.id = e.transaction_id WHERE e.wallet_id = ? AND t.kind IN ('deposit', 'withdrawal')",
            (wallet,),
        ).fetchone()
        taken = sum(v for (r, a), v in staked.items() if a == account)
        returned = sum(v[1] for (r, a), v in settlements.items() if a == account)
        refunded = sum(v for (r, w), v in refunds.items() if w == wallet)
        expected = cash - taken + returned + refunded
        expect(balance == expected, f"{ids[account]}'s balance {balance} is not {expected} (cash - bets + returns)")

    if problems:
        raise InvariantError("; ".join(problems[:10]) + (f" (and {len(problems) - 10} more)" if problems[10:] else ""))
    counts["bets stored"] = sum(from_table.values())
    counts["stakes stored"] = sum(stakes_table.values())
    counts["acknowledged requests"] = len(acked)
    return dict(counts)


def _cents(text: str) -> int:
    return int(Decimal(text) * 100)


def unfinished_rounds(path: Path) -> set[int]:
    db = sqlite3.connect(path, timeout=30)
    try:
        return {r for (r,) in db.execute("SELECT id FROM rounds WHERE status IN ('betting', 'playing')")}
    finally:
        db.close()


def check_live(server: ServerProcess, path: Path, interrupted: set[int], tokens: dict[str, str]) -> None:
    """On the restarted server, before the bots resume: the ledger endpoint, each player's balance, and
    every round the crash interrupted voided. ``tokens`` keeps the sign-ins (tokens outlive a restart)."""
    with httpx.Client(base_url=server.base, timeout=10) as client:

        def headers(name: str) -> dict[str, str]:
            if name not in tokens:
                answer = client.post("/api/login", json={"name": name, "password": STAFF_PASSWORD})
                tokens[name] = answer.json()["token"]
            return {"Authorization": f"Bearer {tokens[name]}"}

        ledger = client.get("/api/ledger", headers=headers("sam"))
        expected = {"entries_sum": 0, "balances_sum": 0, "unbalanced_transactions": 0, "wallets_match_entries": True}
        if ledger.status_code != 200 or ledger.json() != expected:
            raise InvariantError(f"GET /api/ledger: {ledger.status_code} {ledger.text}")
        db = sqlite3.connect(path, timeout=30)
        try:
            for name in PLAYERS:
                me = client.get("/api/me", headers=headers(name)).json()
                (balance,) = db.execute(
                    "SELECT w.balance FROM wallets w JOIN accounts a ON a.id = w.account_id WHERE a.name = ?", (name,)
                ).fetchone()
                if _cents(me["balance"]) != balance:
                    raise InvariantError(f"GET /api/me says {name} has {me['balance']}; the wallet holds {balance}")
            for round_id in interrupted:
                (status,) = db.execute("SELECT status FROM rounds WHERE id = ?", (round_id,)).fetchone()
                if status != "voided":
                    raise InvariantError(f"round {round_id}, interrupted by the crash, is {status} after the restart")
        finally:
            db.close()


# --------------------------------------------------------------------------------------------------
# the run


@dataclass
class Outcome:
    cycles: int
    seconds: float
    counts: Counter[str]
    start_seconds: list[float]
    interrupted_rounds: int
    record: Record
    lapses: int


def run(
    cycles: int,
    seed: int = 1,
    workdir: Path | None = None,
    min_play: float = 0.4,
    max_play: float = 2.5,
    progress: Any = None,
    lapse_every: int = 0,
) -> Outcome:
    """``cycles`` times: play, SIGKILL at a seeded random moment, check, restart, check. The restarted process
    takes the tables over when the dead one's leases lapse on every ``lapse_every``-th cycle (never when 0),
    and at once, the leases freed, on the others."""
    own = workdir is None
    directory = Path(tempfile.mkdtemp(prefix="croupier-crash-")) if workdir is None else workdir
    database = directory / "croupier.db"
    server = ServerProcess(database, free_port(), directory / "server.log")
    schedule = random.Random(seed)
    record = Record()
    go, stop = threading.Event(), threading.Event()
    bots = [Bot(name, server.base, record, go, stop, seed * 100 + i) for i, name in enumerate(PLAYERS)]
    counts: Counter[str] = Counter()
    stored: dict[str, int] = {}
    tokens: dict[str, str] = {}
    starts: list[float] = []
    interrupted_total = 0
    lapses = 0
    began = time.monotonic()
    try:
        starts.append(server.start())
        check_live(server, database, set(), tokens)
        check_database(database, record)
        go.set()
        for bot in bots:
            bot.start()
        for bot in bots:
            if not bot.ready.wait(60):
                raise RuntimeError(f"{bot.name} could not sign in: {bot.error}")
        for cycle in range(1, cycles + 1):
            go.set()
            time.sleep(schedule.uniform(min_play, max_play))
            go.clear()
            server.kill()
            for bot in bots:
                if not bot.parked.wait(30):
                    raise RuntimeError(f"{bot.name} did not stop")
                if bot.error is not None:
                    raise bot.error
            stored = check_database(database, record)
            interrupted = unfinished_rounds(database)
            interrupted_total += len(interrupted)
            if lapse_every and cycle % lapse_every == 0:
                lapses += 1
            else:
                release_leases(database)
            starts.append(server.start())
            check_live(server, database, interrupted, tokens)
            check_database(database, record)
            if progress is not None:
                progress(cycle, record, interrupted)
        go.set()  # the bots resend what the last crash left unanswered
        deadline = time.monotonic() + 10
        while record.unknown and time.monotonic() < deadline:
            time.sleep(0.1)
        go.clear()
        for bot in bots:
            bot.parked.wait(30)
        stored = check_database(database, record)
        check_live(server, database, set(), tokens)
    finally:
        stop.set()
        go.set()
        for bot in bots:
            if bot.is_alive():
                bot.join(15)
        server.stop()
        log_text = server.log.read_text(errors="replace") if server.log.exists() else ""
        if own and not os.environ.get("CROUPIER_KEEP_CRASH"):
            for name in ("croupier.db", "croupier.db-wal", "croupier.db-shm", "server.log"):
                with contextlib.suppress(FileNotFoundError):
                    (directory / name).unlink()
            with contextlib.suppress(OSError):
                directory.rmdir()
    for bot in bots:
        if bot.error is not None:
            raise bot.error
    if log_text and ("Traceback" in log_text or "ERROR" in log_text):
        raise InvariantError(f"the server logged a fault:\n{log_text[-3000:]}")
    counts.update(record.counts)
    counts.update(stored)
    return Outcome(cycles, time.monotonic() - began, counts, starts, interrupted_total, record, lapses)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=500, help="kill-and-restart cycles (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill schedule and of the bots")
    parser.add_argument("--min-play", type=float, default=0.4, help="shortest play before a kill, seconds")
    parser.add_argument("--max-play", type=float, default=2.5, help="longest play before a kill, seconds")
    parser.add_argument(
        "--lapse-every",
        type=int,
        default=10,
        help="every Nth restart waits for the killed process's table leases to lapse (about 10 s); "
        "the others free them first (default 10; 0: never wait)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database and the server log")
    args = parser.parse_args()
    if args.cycles < 1:
        parser.error("--cycles: at least 1")
    workdir = Path(tempfile.mkdtemp(prefix="croupier-crash-")) if args.keep else None

    def progress(cycle: int, record: Record, interrupted: set[int]) -> None:
        with record.lock:
            acked = len(record.acked)
        sys.stdout.write(
            f"cycle {cycle}/{args.cycles}: invariants hold; {acked} requests acknowledged so far, "
            f"{len(interrupted)} round(s) interrupted and voided\n"
        )
        sys.stdout.flush()

    outcome = run(args.cycles, args.seed, workdir, args.min_play, args.max_play, progress, args.lapse_every)
    c = outcome.counts
    print(f"\n{outcome.cycles} SIGKILL cycles in {outcome.seconds:.0f} s (seed {args.seed}); every invariant held.")
    print(
        f"server starts: median {sorted(outcome.start_seconds)[len(outcome.start_seconds) // 2]:.2f} s "
        f"(the first makes the database)"
    )
    print("checked after every kill (SQL on the database file) and after every restart (REST and SQL):")
    print("  ledger entries and balances sum to zero, every transaction balances, wallets = their entries")
    print("  every acknowledged bet, stake and deposit stored exactly once, with the answer the client got")
    print("  settled rounds have their settlements and settle transactions; voided rounds their refunds")
    print("  each player's balance = deposits - bets and stakes + returns + refunds; GET /api/me agrees")
    print(f"  rounds interrupted by a kill and voided on restart: {outcome.interrupted_rounds}")
    print(f"  restarts that took the tables over when the dead process's leases lapsed: {outcome.lapses}")
    print("requests (sent, acknowledged, refused; 'again' = sent again after a crash with the same key):")
    for key in sorted(k for k in c if k.endswith(("sent", "acknowledged", "again", "refused"))):
        print(f"  {key}: {c[key]}")
    print("in the database at the end:")
    for key in sorted(k for k in c if k.startswith(("rounds ", "transactions ", "bets ", "stakes "))):
        print(f"  {key}: {c[key]}")
    if workdir is not None:
        print(f"database and server log kept in {workdir}")


if __name__ == "__main__":
    main()
