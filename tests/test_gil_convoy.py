"""benchmarks/gil_convoy.py: it runs, and times each transaction with the other thread idle and busy."""

from __future__ import annotations

import re
import sys

import pytest
from benchmarks import gil_convoy


def test_the_convoy_benchmark_times_each_transaction_idle_and_busy(capsys: pytest.CaptureFixture[str]) -> None:
    interval = sys.getswitchinterval()
    try:
        gil_convoy.main(["--rounds", "3", "--intervals", "0.001"])
    finally:
        sys.setswitchinterval(interval)  # (the benchmark sets the process's own)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6  # three transactions, the other thread idle then busy
    for state in ("idle", "busy"):
        named = [line for line in lines if f"other thread {state}:" in line]
        assert {re.sub(r"\s+p50.*", "", line.split(": ", 1)[1]) for line in named} == {
            "35 rows, executemany",
            "35 rows, one INSERT",
            "10 INSERTs",
        }
    assert all(re.search(r"p50 +\d+\.\d{3} ms, p90 +\d+\.\d{3} ms$", line) for line in lines)
