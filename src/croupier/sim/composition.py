# mypy: disable-error-code="no-untyped-call"
# (the analysis' dealer helpers are untyped numba functions)
"""Compiled kernel of the simulator's strategy by composition: which hands of three cards or more hit.

:func:`hit_by_composition` runs the analysis' recursion for hit or stand over the compositions that
:mod:`croupier.sim.charts` lists, with the public dealer helpers of :mod:`croupier.math.bj_kernels`
(``stand_part``, ``p_draw``, ``p_natural``); the round (:mod:`croupier.sim.kernels`) reads the result
as its ``CD`` table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.math import bj_kernels as bj


@njit(cache=True)
def hit_by_composition(cards, size, hard, plus, hands, dmat, shoe, infinite, peek):  # type: ignore[no-untyped-def]
    """``out[u, r]``: 1 where the hand of composition ``r`` hits against up-card ``u``, else 0.

    The recursion of :func:`croupier.math.bj_solve.solve` for hit or stand (its ``cont_v``), with its
    conventions: values joint with no dealer natural where the dealer peeks, a hand of 21 stands,
    hands taken most cards first so that a hand's value uses those one card longer.
    """
    n = cards.shape[0]
    total = 0.0
    for v in range(10):
        total += shoe[v]
    out = np.zeros((10, n), dtype=np.int8)
    cont = np.zeros(n)
    for u in range(10):
        if shoe[u] <= 0:
            continue
        pk = peek[u]
        lose = 0.0 if pk else 1.0
        for i in range(hands.shape[0]):
            r = hands[i]
            sz = size[r]
            na = cards[r, 0]
            t = hard[r] + 10 if (na > 0 and hard[r] + 10 <= 21) else hard[r]
            dr = dmat[0 if infinite else r, u]
            st = bj.stand_part(dr, t) - lose * dr[5]
            if t == 21:
                cont[r] = st
                continue
            h = 0.0
            for v in range(10):
                p = bj.p_draw(shoe, infinite, total, cards, r, sz, u, v)
                if p <= 0.0:
                    continue
                if hard[r] + v + 1 > 21:
                    z = 1.0
                    if pk:
                        z = 1.0 - bj.p_natural(shoe, infinite, total, na + (v == 0), cards[r, 9] + (v == 9), sz + 1, u)
                    h -= p * z
                else:
                    h += p * cont[plus[r, v]]
            if h > st:
                cont[r] = h
                out[u, r] = 1
            else:
                cont[r] = st
    return out
