"""A SQLite transaction in a thread while the event loop's thread is busy: what Python's lock costs it.

Python's ``sqlite3`` lets the interpreter's lock go around every step of SQLite (each statement, each row of
an ``executemany``, the commit) and takes it back after. A thread that gives the lock up so must wait for
it until the thread holding it lets it go: at once if that thread is idle (waiting in ``epoll``), else up
to the switch interval (``sys.getswitchinterval()``, 5 ms by default) for each step. This is the case of a
SQLite driver's thread (aiosqlite's) while the server's event loop is busy with requests. The script times
three transactions in a thread other than the main one: 35 rows by ``executemany``, the same 35 rows by one
multi-row ``INSERT``, and 10 inserts one statement each; first with no other thread running, then with a
thread running Python without pause beside it; for each switch interval named (``--intervals``).

    python benchmarks/gil_convoy.py [--rounds 40] [--intervals 0.005,0.0005,0.0001]

The database is a temporary file with ``synchronous=OFF``, so that the disk does not take part.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROWS = [(i, "x" * 20) for i in range(35)]


def transactions(conn: sqlite3.Connection) -> dict[str, Callable[[], None]]:
    many = "INSERT INTO t (a, b) VALUES " + ", ".join(["(?, ?)"] * len(ROWS))
    flat = [value for row in ROWS for value in row]

    def executemany() -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO t (a, b) VALUES (?, ?)", ROWS)
        conn.execute("COMMIT")

    def multi_row() -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(many, flat)
        conn.execute("COMMIT")

    def one_by_one() -> None:
        conn.execute("BEGIN IMMEDIATE")
        for row in ROWS[:10]:
            conn.execute("INSERT INTO t (a, b) VALUES (?, ?)", row)
        conn.execute("COMMIT")

    return {"35 rows, executemany": executemany, "35 rows, one INSERT": multi_row, "10 INSERTs": one_by_one}


def timed(conn: sqlite3.Connection, rounds: int) -> dict[str, list[float]]:
    """Each transaction ``rounds`` times in a thread of its own; its times in milliseconds."""
    times: dict[str, list[float]] = {}

    def work() -> None:
        for name, transaction in transactions(conn).items():
            spent = []
            for _ in range(rounds):
                began = time.perf_counter()
                transaction()
                spent.append((time.perf_counter() - began) * 1000)
            times[name] = spent

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return times


def spin(stop: threading.Event) -> None:
    """Python run without pause (as a busy event loop's thread) until ``stop``."""
    count = 0
    while not stop.is_set():
        count += 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="each transaction this many times (default 40)")
    parser.add_argument("--intervals", default="0.005,0.0005,0.0001", help="switch intervals in seconds")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        conn = sqlite3.connect(Path(folder) / "convoy.db", isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)")
        for interval in (float(text) for text in args.intervals.split(",")):
            sys.setswitchinterval(interval)
            for busy in (False, True):
                stop = threading.Event()
                spinner = threading.Thread(target=spin, args=(stop,)) if busy else None
                if spinner is not None:
                    spinner.start()
                    time.sleep(0.05)  # (the spinner holds the lock before the timing starts)
                try:
                    times = timed(conn, args.rounds)
                finally:
                    stop.set()
                    if spinner is not None:
                        spinner.join()
                state = "busy" if busy else "idle"
                for name, spent in times.items():
                    p90 = statistics.quantiles(spent, n=10)[-1]
                    print(
                        f"switch interval {interval * 1000:5.2f} ms, other thread {state}: {name:22} "
                        f"p50 {statistics.median(spent):7.3f} ms, p90 {p90:7.3f} ms"
                    )
        conn.close()


if __name__ == "__main__":
    main()
