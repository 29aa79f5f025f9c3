"""Crash recovery: a real ``croupier serve`` killed with SIGKILL at random moments while bots play.

The harness is ``benchmarks/crash.py`` (which runs 500 cycles); here a few cycles run in the suite. After
every kill and every restart it checks the ledger's sums, that every acknowledged bet, stake and deposit
is stored exactly once with the answer its client got, that no round is settled without its settlements
(nor voided without its refunds), that every round the crash interrupted is voided and its bets
returned, and that each player's balance is what the bets, settlements and deposits say. The last
restart waits for the killed process's table leases to lapse; the others free them first.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import pytest
from benchmarks.crash import InvariantError, check_database, run

CYCLES = int(os.environ.get("CROUPIER_CRASH_CYCLES", "3"))
SEED = int(os.environ.get("CROUPIER_CRASH_SEED", "20261203"))


def test_sigkill_at_random_moments_loses_and_doubles_nothing(tmp_path: Path) -> None:
    outcome = run(CYCLES, seed=SEED, workdir=tmp_path, min_play=0.5, max_play=1.5, lapse_every=CYCLES)
    counts = outcome.counts
    assert outcome.cycles == CYCLES
    assert outcome.lapses == 1  # the last restart took the tables over when the dead process's leases lapsed
    assert counts["bet acknowledged"] > 0, counts  # the bots played: the checks had something to check
    assert counts["bets stored"] >= counts["bet acknowledged"]
    assert counts["transactions settle"] + counts["transactions refund"] > 0, counts

    # the checks are not vacuous: damage a copy of the database the way a lost write would, and they fail
    record = outcome.record
    check_database(tmp_path / "croupier.db", record)
    with contextlib.closing(sqlite3.connect(tmp_path / "croupier.db")) as db:
        round_id = db.execute("SELECT MAX(round_id) FROM settlements").fetchone()[0]
    damages = {
        "DELETE FROM bets WHERE id = (SELECT MIN(id) FROM bets WHERE kind = 'bet')": "bets rows and stored bet",
        "UPDATE wallets SET balance = balance + 100 WHERE id = (SELECT MIN(id) FROM wallets WHERE kind = 'house')": (
            "wallet balances sum to 100"
        ),
        "DELETE FROM idempotency WHERE id = (SELECT MAX(id) FROM idempotency)": "is not in the idempotency table",
        "DELETE FROM ledger_entries WHERE id = (SELECT MAX(id) FROM ledger_entries)": "entries sum to",
    }
    if round_id is not None:
        damages[f"DELETE FROM settlements WHERE round_id = {round_id}"] = f"settled round {round_id} has no settlement"
    for statement, complaint in damages.items():
        with pytest.raises(InvariantError, match=complaint):
            check_database(_damaged(tmp_path, statement), record)


def _damaged(directory: Path, statement: str) -> Path:
    """A copy of the run's database with ``statement`` applied."""
    copy = directory / "damaged.db"
    copy.unlink(missing_ok=True)
    source, target = sqlite3.connect(directory / "croupier.db"), sqlite3.connect(copy)
    try:
        source.backup(target)
        target.execute(statement)
        target.commit()
    finally:
        source.close()
        target.close()
    return copy
