"""Compiled kernels of the blackjack analysis (numba): the dealer's probabilities and the recursion's helpers.

All quantities here are probabilities and expectations in IEEE float64 (not money): a sum of at most a
few hundred thousand products of numbers in [0, 1], accurate to about 1e-13. Card values are indexed
0–9 for A, 2, …, 9, T. ``shoe`` holds the cards of each value before the deal (finite shoe) or the
probability of each value (``infinite``: drawing never changes them).

Scale of values ("U-scale"). With an up-card the dealer peeks under (``peek[u]``) the round goes on
only without a dealer natural, so every value at a decision is kept *joint with no natural*: a stand
scores the dealer's non-natural outcomes only, a bust scores ``-stake × P(no natural)``. Maximising
these joint values at a decision maximises the conditional ones (the factor is common to all options
there), and a card's draw probability stays unconditional: that is the exact conditioning on the
hole card not making a natural (``P(s | no BJ) E[X | s, no BJ] = P(s) E[X 1{no BJ} | s]``). Where the
dealer does not peek, values are plain expectations and a natural found after play is an outcome of
the dealer's hand, settled by ``takes_all`` (docs/rules.md §3 ``dealer_blackjack_takes``).

The state record. The recursion (:func:`croupier.math.bj_solve.solve`) passes its inputs as three tuples and its working
state as a few arrays, each laid out as follows (``n`` compositions, ``u`` an up-card, ``d`` one of the
dealer's 7 outcomes: final 17, 18, 19, 20, 21, bust, natural):

- ``comp = (cards, size, hard, plus, hands, pair_ptr, pair_hands)``, :class:`~croupier.math.bj_tables.Compositions`:
  ``cards[r, v]`` copies of value ``v`` in composition ``r``; ``size[r]``, ``hard[r]`` its cards and
  hard total; ``plus[r, v]`` the composition with one more ``v``; ``hands`` the player's hands, largest
  first; ``pair_hands[pair_ptr[p]:pair_ptr[p + 1]]`` the split hands of pair ``p``, largest first.
- ``sh = (shoe, infinite, total)``: the counts (or probabilities) of each value, and their sum.
- ``opts = (peek, surrender_ok, double_ok, takes_all, das, max_hands, resplit_aces, aces_one_card,
  bj_pays, bonus678, bonus777)``: ``peek[u]``, ``surrender_ok[u]`` by up-card, ``double_ok[t]`` by
  total (0–21); the rest scalars (a bonus ratio 0 when not offered).
- ``dmat[r, u, o]``: :func:`dealer_probs` (row 0 alone for an infinite shoe).
- ``hv[r, c]``, the values of hand ``r`` against the current up-card, columns :data:`ST_V`,
  :data:`ST_M` (stand: value, second moment), :data:`HIT_V`, :data:`HIT_M` (hit, then play on; NaN at
  21), :data:`HITS_V`, :data:`HITS_M` (the same for a suited 6-7-8 draw), :data:`DBL_V`, :data:`DBL_M`
  (double), :data:`CONT_V`, :data:`CONT_M` (the better of hit and stand: a hand after a hit),
  :data:`SPL_V` (as a split hand, at the current pair-card removal) and :data:`SPL_C` (P(that split
  hand is closed, busted or paid a bonus, and the dealer has a natural)).
- ``mu[0, g, d]``, ``mu[1, g, d]``: E[X], E[X^2] of split hand ``g`` given dealer outcome ``d``, at
  the split's start shoe (for the SD); ``tmp[row, d]`` the same for the options in progress, rows
  :data:`HMU`, :data:`HMU2` (hit), :data:`DMU`, :data:`DMU2` (double), :data:`VMU`, :data:`VMU2`
  (the option chosen).
- ``sp[row, a]`` per split, ``a`` more pair cards out: :data:`F_ANY` (a split hand's value, any second
  card), :data:`K_NON` (a non-pair second card), :data:`RHO_ANY`, :data:`RHO_NON` (P(closed |
  natural)); ``sp[MU_ANY, d]``, ``sp[MU2_ANY, d]`` the moments of a split hand by dealer outcome.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.codes import ACE, EIGHT, SEVEN, SIX, TEN

BLOCK = 64
"""Compositions evaluated together by :func:`dealer_probs`: inner loops run over them, contiguous in memory."""


# columns of ``hv`` (module docstring)
ST_V, ST_M, HIT_V, HIT_M, HITS_V, HITS_M, DBL_V, DBL_M, CONT_V, CONT_M, SPL_V, SPL_C = range(12)
HV_COLS = 12
# rows of ``tmp``
HMU, HMU2, DMU, DMU2, VMU, VMU2 = range(6)
# rows of ``sp``
F_ANY, K_NON, RHO_ANY, RHO_NON, MU_ANY, MU2_ANY = range(6)
SP_ROWS = 6


@njit(cache=True)
def _block_left(todo, start, nb, cards, shoe, infinite, total, left, remaining, feasible):  # type: ignore[no-untyped-def]
    """The cards left of each value (``left[v, b]``) and in all (``remaining[b]``) for the block's compositions."""
    for b in range(BLOCK):
        remaining[b] = 1.0
        feasible[b] = b < nb
        for v in range(10):
            left[v, b] = 0.0
        if b >= nb:
            continue
        r = todo[start + b]
        if infinite:
            for v in range(10):
                left[v, b] = shoe[v]
            continue
        n = total
        for v in range(10):
            left[v, b] = shoe[v] - cards[r, v]
            n -= cards[r, v]
            if left[v, b] < 0:
                feasible[b] = False
        remaining[b] = n


@njit(cache=True)
def _block_falling(left, remaining, infinite, max_count, smax, fall, inv):  # type: ignore[no-untyped-def]
    """Falling products of the counts left (``fall[v, k, b]``) and inverse falling products of the total (``inv``)."""
    for v in range(10):
        for b in range(BLOCK):
            fall[v, 0, b] = 1.0
        for k in range(1, max_count[v] + 1):
            for b in range(BLOCK):
                x = left[v, b] if infinite else left[v, b] - (k - 1)
                fall[v, k, b] = fall[v, k - 1, b] * (x if x > 0 else 0.0)
    for b in range(BLOCK):
        inv[0, b] = 1.0
    for k in range(1, smax + 1):
        for b in range(BLOCK):
            f = 1.0 if infinite else remaining[b] - (k - 1)
            inv[k, b] = inv[k - 1, b] / f if f > 0 else 0.0


@njit(cache=True)
def _block_sum(table, fall, inv, p, acc):  # type: ignore[no-untyped-def]
    """``acc[u, o, b]``: P(up-card ``u`` and outcome ``o``) summed over the dealer's multisets (``table``)."""
    d_values, d_counts, d_nnz, d_size, d_outcome, d_ptr, d_up, d_mult = table
    acc[:, :, :] = 0.0
    for d in range(d_size.shape[0]):
        s = d_size[d]
        for b in range(BLOCK):
            p[b] = inv[s, b]
        for j in range(d_nnz[d]):
            fv = d_values[d, j]
            fk = d_counts[d, j]
            for b in range(BLOCK):
                p[b] *= fall[fv, fk, b]
        o = d_outcome[d]
        for t in range(d_ptr[d], d_ptr[d + 1]):
            u = d_up[t]
            m = float(d_mult[t])
            for b in range(BLOCK):
                acc[u, o, b] += p[b] * m


@njit(cache=True)
def dealer_probs(  # type: ignore[no-untyped-def]
    cards, need, shoe, infinite, d_values, d_counts, d_nnz, d_size, d_outcome, d_ptr, d_up, d_mult, max_count
):
    """P(dealer final 17, 18, 19, 20, 21, natural | up-card, shoe less composition r) for every needed r.

    Each dealer multiset's probability is a product of falling factorials of the remaining counts over
    a falling factorial of the remaining total; its orderings starting with each up-card are summed and
    divided by the probability of that up-card. Compositions are taken :data:`BLOCK` at a time, the
    block innermost, so that every product and sum runs over contiguous memory (vectorised). An
    infinite shoe has one row: powers of the fixed probabilities.
    """
    rows = 1 if infinite else cards.shape[0]
    out = np.zeros((rows, 10, 6))
    todo = np.zeros(1, dtype=np.int64) if infinite else np.nonzero(need)[0]
    total = 0.0
    for v in range(10):
        total += shoe[v]
    table = (d_values, d_counts, d_nnz, d_size, d_outcome, d_ptr, d_up, d_mult)
    fall = np.zeros((10, max(max_count) + 1, BLOCK))
    inv = np.zeros((max(d_size) + 1, BLOCK))
    acc = np.zeros((10, 6, BLOCK))
    p = np.zeros(BLOCK)
    left = np.zeros((10, BLOCK))
    remaining = np.ones(BLOCK)
    feasible = np.zeros(BLOCK, dtype=np.bool_)
    for start in range(0, todo.shape[0], BLOCK):
        nb = min(BLOCK, todo.shape[0] - start)
        _block_left(todo, start, nb, cards, shoe, infinite, total, left, remaining, feasible)
        _block_falling(left, remaining, infinite, max_count, max(d_size), fall, inv)
        _block_sum(table, fall, inv, p, acc)
        for b in range(nb):
            if not feasible[b] or remaining[b] <= 0:
                continue  # a composition the shoe cannot hold: never reached
            r = todo[start + b]
            for u in range(10):
                pu = left[u, b] if infinite else left[u, b] / remaining[b]
                if pu > 0 and left[u, b] > 0:
                    for o in range(6):
                        out[r, u, o] = acc[u, o, b] / pu
    return out


@njit(cache=True, inline="always")
def _total(hard, aces):  # type: ignore[no-untyped-def]
    if aces > 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@njit(cache=True, inline="always")
def stand_part(dr, t):  # type: ignore[no-untyped-def]
    """Expected result of a standing total ``t`` (stake 1) over the dealer's non-natural outcomes."""
    made = dr[0] + dr[1] + dr[2] + dr[3] + dr[4]
    bust = 1.0 - dr[5] - made
    if t < 17:
        return bust - made
    s = bust
    for k in range(5):
        if 17 + k < t:
            s += dr[k]
        elif 17 + k > t:
            s -= dr[k]
    return s


@njit(cache=True, inline="always")
def _stand_decided(dr, t):  # type: ignore[no-untyped-def]
    """P(a standing total ``t`` wins or loses) over the dealer's non-natural outcomes (no push)."""
    q = 1.0 - dr[5]
    if t >= 17:
        q -= dr[t - 17]
    return q


@njit(cache=True, inline="always")
def p_natural(shoe, infinite, total, n_aces, n_tens, n_cards, u):  # type: ignore[no-untyped-def]
    """P(the hole card makes a natural with up-card ``u``) once ``n_cards`` (with these aces and tens) are out."""
    if u != ACE and u != TEN:
        return 0.0
    if infinite:
        return shoe[TEN] if u == ACE else shoe[ACE]
    left = total - n_cards - 1.0
    if left <= 0:
        return 0.0
    c = shoe[TEN] - n_tens if u == ACE else shoe[ACE] - n_aces
    return max(c, 0.0) / left


@njit(cache=True, inline="always")
def p_draw(shoe, infinite, total, cards, r, n_cards, u, v):  # type: ignore[no-untyped-def]
    """P(next card has value ``v``) with composition ``r`` (``n_cards`` cards) and the up-card ``u`` out."""
    if infinite:
        return shoe[v]
    left = total - n_cards - 1.0
    if left <= 0:
        return 0.0
    c = shoe[v] - cards[r, v] - (1.0 if u == v else 0.0)
    return c / left if c > 0 else 0.0


@njit(cache=True)
def _bonus_missing(cards, r):  # type: ignore[no-untyped-def]
    """For a two-card 6-7, 6-8 or 7-8: the value that makes 6-7-8; else -1."""
    a = cards[r, SIX]
    b = cards[r, SEVEN]
    c = cards[r, EIGHT]
    if a + b + c != 2 or a > 1 or b > 1 or c > 1:
        return -1
    if a == 0:
        return SIX
    if b == 0:
        return SEVEN
    return EIGHT
