"""``croupier warm``: compile the blackjack analysis ahead of time and store its tables (:mod:`croupier.math.aot`).

The analysis package does no I/O; this module writes the build where :mod:`croupier.math.aot` reads it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from croupier.math import aot, bj_kernels, bj_solve
from croupier.math.bj_tables import compositions, dealer_table


def build() -> Path:
    """Compile the kernels ahead of time into ``aot.DIRECTORY``, store the tables, stamp the build; returns
    the module's path. Also compiles (or loads) the JIT dealer kernel the simulators' charts use."""
    directory = aot.DIRECTORY
    directory.mkdir(parents=True, exist_ok=True)
    aot.stamp().unlink(missing_ok=True)
    pycc: Any = importlib.import_module("numba.pycc")  # untyped
    cc = pycc.CC(aot.MODULE)
    cc.output_dir = str(directory)
    cc.target_cpu = "host"  # the JIT's target: the same instructions, the same results to the last bit
    cc.verbose = False
    cc.export("dealer_probs", aot.DEALER_SIGNATURE)(bj_kernels.dealer_probs.py_func)
    cc.export("solve", aot.SOLVE_SIGNATURE)(bj_solve.solve_flat.py_func)
    cc.compile()
    for extra, two_card_aces in aot.table_shapes():
        comp = compositions(extra, two_card_aces)
        for soft in (False, True):
            comp_file, dealer_file = aot.table_files(extra, two_card_aces, soft)
            np.savez(comp_file, **{k: getattr(comp, k) for k in aot.COMP_ARRAYS})
            table = dealer_table(soft)
            np.savez(dealer_file, **{k: getattr(table, k) for k in aot.DEALER_ARRAYS})
    aot.stamp().write_text(aot.digest())
    aot.compiled.cache_clear()
    table = dealer_table(False)
    arrays = (table.values, table.counts, table.nnz, table.size, table.outcome, table.ptr, table.up, table.mult)
    empty = np.zeros((1, 10), dtype=np.int64)
    shoe = np.array([4.0] * 9 + [16.0])
    bj_kernels.dealer_probs(empty, np.ones(1, dtype=np.bool_), shoe, False, *arrays, table.max_count)
    return directory / f"{aot.MODULE}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def warm_simulators() -> float:
    """Compile the simulators' numba kernels into numba's cache by playing a few rounds of each (blackjack
    one box and seven, the recorder, baccarat with and without the live edges, the batch environments'
    baccarat and blackjack tables), so that the first
    ``croupier simulate`` runs at the speed of the second; returns the seconds it took."""
    import time

    from croupier.baccarat.presets import baccarat_rules
    from croupier.blackjack.presets import blackjack_rules
    from croupier.sim.baccarat import simulate_baccarat
    from croupier.sim.blackjack import record_blackjack, simulate_blackjack

    started = time.perf_counter()
    # the longest compile (the blackjack batch: its round is one inlined function) in a process of its
    # own, on another core, while this one compiles the rest
    batch = subprocess.Popen(
        [sys.executable, "-c", "from croupier.warm import warm_blackjack_batch; warm_blackjack_batch()"],
        stdout=subprocess.DEVNULL,
    )
    try:
        for preset in ("macau-1983", "live-online"):
            rules = blackjack_rules(preset)
            simulate_blackjack(rules, 200, boxes=1)
            simulate_blackjack(rules, 200, boxes=7, shuffle="continuous")
            record_blackjack(rules, 2)
        coup_rules = baccarat_rules("macau")
        simulate_baccarat(coup_rules, 200)
        simulate_baccarat(coup_rules, 200, shuffle="continuous")
        simulate_baccarat(coup_rules, 200, live_edges=True)
        _warm_baccarat_batch(coup_rules)
    finally:
        code = batch.wait()
    if code:
        raise RuntimeError(f"the blackjack batch kernels did not compile (their process ended with {code})")
    return time.perf_counter() - started


def warm_blackjack_batch() -> None:
    """Compile the blackjack batch environment's kernels (what :func:`warm_simulators` runs in a process of
    its own)."""
    from croupier.blackjack.presets import blackjack_rules

    _warm_blackjack_batch(blackjack_rules("macau-1983"))


def _warm_baccarat_batch(rules: Any) -> None:
    """A few steps of the batch environment's kernels (croupier.sim.baccarat_batch) on two tables."""
    from croupier.sim import baccarat_batch as vk
    from croupier.sim.baccarat import rule_parameters, seed_words, tableau_arrays

    rp = rule_parameters(rules, "shoe")
    shoes, rngs, T, K, V = vk.state_arrays(rules.decks, 2)
    obs = np.zeros((2, vk.OBS_SIZE), dtype=np.int64)
    vk.seed_tables(seed_words(0), 0, rngs)
    vk.reset_tables(rp, shoes, rngs, T, K, V, obs)
    one = np.ones(2, dtype=np.int64)
    flags = np.zeros(2, dtype=np.bool_), np.zeros(2, dtype=np.bool_)
    args = (np.array([-1, 0]), one, np.array([1, 1], dtype=np.int8), 0, np.zeros(2, np.int64), np.zeros(2, np.int64))
    step: Any = vk.step_tables  # a numba dispatcher, untyped
    step(rp, *tableau_arrays(), shoes, rngs, T, K, V, one, *args, *flags, obs)


def _warm_blackjack_batch(rules: Any) -> None:
    """A few steps of the batch environment's kernels (croupier.sim.blackjack_batch) on two tables."""
    from croupier.sim import blackjack_batch as bb
    from croupier.sim.blackjack import seed_words

    rp = bb.batch_parameters(rules)
    links = np.full((1, 10), -1, dtype=np.int64)
    shoes, rngs, T, H, C, V, masks = bb.state_arrays(rules.decks, 2)
    obs = np.zeros((2, bb.OBS_SIZE), dtype=np.int64)
    bb.seed_tables(seed_words(0), 0, rngs)
    bb.reset_tables(rp, links, shoes, rngs, T, H, C, V, masks, obs)
    gain = np.zeros(2, dtype=np.int64)
    flags = np.zeros(2, dtype=np.bool_), np.zeros(2, dtype=np.bool_), np.zeros(2, dtype=np.bool_)
    step: Any = bb.step_tables  # a numba dispatcher, untyped
    step(rp, links, shoes, rngs, T, H, C, V, masks, np.zeros(2, dtype=np.int64), 0, gain, *flags, obs)
