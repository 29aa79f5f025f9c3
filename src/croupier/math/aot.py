"""The blackjack analysis' kernels compiled ahead of time, so that an analysis needs no numba in its process.

``croupier warm`` (run by the Makefile's install step; :mod:`croupier.warm` writes the build) compiles
:func:`croupier.math.bj_kernels.dealer_probs` and :func:`croupier.math.bj_solve.solve_flat` with
numba's ahead-of-time compiler (``numba.pycc``, for this machine's CPU, so that the results are bit
for bit those of the JIT kernels) into an extension module, and stores the rule-independent tables
(:mod:`croupier.math.bj_tables`) beside it. A ``croupier analyze blackjack`` process then imports
neither numba nor the JIT kernels, nor builds the tables in Python (docs/math.md, "Speed").

The build is stamped with a digest of the kernels', tables' and builder's sources and of the Python and
numpy versions: a stale build (the code changed since) is never used; the JIT kernels are used instead.
Everything lives in ``__pycache__/aot`` beside this module (ignored by git, like numba's own cache).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from croupier.math.bj_tables import Compositions, DealerTable, compositions, dealer_table

MODULE = "_croupier_bj_aot"
HERE = Path(__file__).resolve().parent
DIRECTORY = HERE / "__pycache__" / "aot"
SOURCES = ("bj_kernels.py", "bj_solve.py", "bj_tables.py", "aot.py", "../warm.py")

DEALER_SIGNATURE = (
    "f8[:,:,:](i8[:,:], b1[:], f8[:], b1, i8[:,:], i8[:,:], i8[:], i8[:], i8[:], i8[:], i8[:], i8[:], i8[:])"
)
SOLVE_SIGNATURE = (
    "Tuple((f8[:,:,:,:,:], f8[:,:,:,:,:], f8[:,:,:]))(i8[:,:], i8[:], i8[:], i8[:,:], i8[:], i8[:], i8[:], "
    "f8[:,:,:], f8[:], b1, f8, b1[:], b1[:], b1[:], b1, b1, i8, b1, b1, f8, f8, f8)"
)


def digest() -> str:
    """What a build depends on: the kernels' and tables' sources, Python's and numpy's versions."""
    h = hashlib.sha256()
    for name in SOURCES:
        h.update((HERE / name).read_bytes())
    h.update(np.__version__.encode())
    h.update(sys.version.encode())
    return h.hexdigest()[:20]


def stamp() -> Path:
    """The file that holds the digest of the sources a build was made from."""
    return DIRECTORY / "stamp"


@cache
def compiled() -> ModuleType | None:
    """The ahead-of-time module if a build for the current sources is present (and ``CROUPIER_AOT`` is not
    ``0``, which benchmarks/analysis.py sets to time the JIT kernels), else None."""
    if os.environ.get("CROUPIER_AOT") == "0":
        return None
    try:
        if stamp().read_text() != digest():
            return None
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        spec = importlib.util.spec_from_file_location(MODULE, DIRECTORY / f"{MODULE}{suffix}")
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, ImportError):
        return None
    return module


def kernels() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(dealer_probs, solve)`` with flat arguments: the ahead-of-time ones, or else the JIT ones."""
    module = compiled()
    if module is not None:
        return module.dealer_probs, module.solve
    from croupier.math import bj_kernels, bj_solve

    return bj_kernels.dealer_probs, bj_solve.solve_flat


def tables(extra: tuple[int, ...], two_card_aces: bool, hits_soft_17: bool) -> tuple[Compositions, DealerTable]:
    """:func:`~croupier.math.bj_tables.compositions` and :func:`~croupier.math.bj_tables.dealer_table`,
    read from the build when it holds them for the current sources, else computed."""
    comp_file, dealer_file = table_files(extra, two_card_aces, hits_soft_17)
    if compiled() is not None and comp_file.exists() and dealer_file.exists():
        with np.load(comp_file) as c, np.load(dealer_file) as d:
            comp = Compositions(**{k: c[k] for k in COMP_ARRAYS}, extra=extra)
            dealer = DealerTable(**{k: d[k] for k in DEALER_ARRAYS}, max_size=int(d["size"].max()))
        return comp, dealer
    return compositions(extra, two_card_aces), dealer_table(hits_soft_17)


COMP_ARRAYS = ("cards", "size", "hard", "plus", "hands", "pair_ptr", "pair_hands", "dealer")
DEALER_ARRAYS = ("values", "counts", "nnz", "size", "outcome", "ptr", "up", "mult", "max_count")


def table_files(extra: tuple[int, ...], two_card_aces: bool, hits_soft_17: bool) -> tuple[Path, Path]:
    key = "-".join(str(e) for e in extra)
    return DIRECTORY / f"comp-{key}-{int(two_card_aces)}.npz", DIRECTORY / f"dealer-{int(hits_soft_17)}.npz"


def table_shapes() -> list[tuple[tuple[int, ...], bool]]:
    """Every (``extra``, ``two_card_aces``) a rule set can ask for (``max_split_hands`` 1-4, aces rules)."""
    shapes = set()
    for hands in range(1, 5):
        for resplit in (False, True):
            for one_card in (False, True):
                aces = hands if resplit else min(hands, 2)
                extra = tuple(max(1, 2 * (aces if v == 0 else hands) - 3) for v in range(10))
                shapes.add((extra, one_card and not resplit))
    return sorted(shapes)
