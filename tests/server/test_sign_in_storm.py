"""A storm of sign-ins does not hold up the tables: argon2 runs in its worker threads, never on the event
loop that drives every table's timers. Held here by a hasher that waits at a gate: while every worker is
held, the betting window still closes at its deadline by the table's (injected) clock."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from croupier.server import auth
from tests.server.conftest import Server

SIGN_INS = 24
NAMES = ("ana", "ben", "chen")
GATE_LIMIT = 20.0
"""Seconds a held check waits at the gate at most: only so that a failing run ends."""


class GatedHasher:
    """A hasher whose every check waits until the gate opens (or, failing, at most ``GATE_LIMIT``)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.inside = 0
        self.lock = threading.Condition()

    def hash(self, password: str) -> str:
        return "gated:" + password

    def verify(self, hash: str, password: str) -> bool:
        with self.lock:
            self.inside += 1
            self.lock.notify_all()
        self.gate.wait(GATE_LIMIT)
        return password == "demo"

    def held(self, count: int) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: self.inside >= count, GATE_LIMIT)


def test_a_storm_of_sign_ins_leaves_the_table_timers_on_time(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = sqlite_server
    hasher = GatedHasher()
    monkeypatch.setattr(auth, "_HASHER", hasher)
    actor = server.service.actors[2]
    assert actor.phase == "betting" and actor.deadline is not None
    deadline, fired = actor.deadline, actor.timers_fired
    window = float(actor.row.betting_seconds)
    with ThreadPoolExecutor(SIGN_INS) as pool:
        answers = [
            pool.submit(server.client.post, "/api/login", json={"name": NAMES[i % len(NAMES)], "password": "demo"})
            for i in range(SIGN_INS)
        ]
        try:
            # every worker checks a password and waits at the gate; the other sign-ins queue behind them
            assert hasher.held(auth.HASH_THREADS), "the password checks did not run in the worker threads"
            server.advance(window)  # the table's clock reaches the end of its betting window
            assert not hasher.gate.is_set(), "the table's timer waited for the password checks"
            assert actor.timers_fired == fired + 1 and actor.timer_late_max == 0
            # the window closed with no bets at its deadline, and the next one opened then
            assert actor.phase == "betting" and actor.deadline == deadline + window
        finally:
            hasher.gate.set()
        statuses = [answer.result().status_code for answer in answers]
    assert statuses == [200] * SIGN_INS


def test_the_password_workers_yield_the_cores_to_the_tables() -> None:
    import asyncio
    import os

    if not hasattr(os, "setpriority"):
        pytest.skip("no per-thread scheduling priority on this system")
    asyncio.run(auth.verify_off_loop(None, "a password no one has"))  # the pool's threads start as used
    threads = list(auth._POOL._threads)
    assert threads and all(os.getpriority(os.PRIO_PROCESS, t.native_id or 0) == auth.HASH_NICENESS for t in threads)
