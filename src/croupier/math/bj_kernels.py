"""Compiled kernels of the blackjack analysis (numba): dealer probabilities and the player's recursion.

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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.codes import DOUBLE, EIGHT, HIT, OPTIONS, SEVEN, SIX, SPLIT, STAND, SURRENDER

SUIT_MATCH = 0.25  # P(a card of a given rank is of a given suit): suits are exchangeable (see blackjack.py)


BLOCK = 64
"""Compositions evaluated together by :func:`dealer_probs`: inner loops run over them, contiguous in memory."""


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
    kmax = 0
    for v in range(10):
        kmax = max(kmax, max_count[v])
    smax = 0
    for d in range(d_size.shape[0]):
        smax = max(smax, d_size[d])
    fall = np.zeros((10, kmax + 1, BLOCK))
    inv = np.zeros((smax + 1, BLOCK))
    acc = np.zeros((10, 6, BLOCK))
    p = np.zeros(BLOCK)
    left = np.zeros((10, BLOCK))
    remaining = np.ones(BLOCK)
    feasible = np.zeros(BLOCK, dtype=np.bool_)
    for start in range(0, todo.shape[0], BLOCK):
        nb = min(BLOCK, todo.shape[0] - start)
        for b in range(BLOCK):
            remaining[b] = 1.0
            feasible[b] = b < nb
            for v in range(10):
                left[v, b] = 0.0
            if b < nb:
                r = todo[start + b]
                if infinite:
                    for v in range(10):
                        left[v, b] = shoe[v]
                else:
                    n = total
                    for v in range(10):
                        left[v, b] = shoe[v] - cards[r, v]
                        n -= cards[r, v]
                        if left[v, b] < 0:
                            feasible[b] = False
                    remaining[b] = n
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
    if u != 0 and u != 9:
        return 0.0
    if infinite:
        return shoe[9] if u == 0 else shoe[0]
    left = total - n_cards - 1.0
    if left <= 0:
        return 0.0
    c = shoe[9] - n_tens if u == 0 else shoe[0] - n_aces
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


@njit(cache=True)
def solve(  # type: ignore[no-untyped-def]
    cards,
    size,
    hard,
    plus,
    hands,
    pair_ptr,
    pair_hands,
    dmat,
    shoe,
    infinite,
    peek,
    surrender_ok,
    double_ok,
    takes_all,
    das,
    max_hands,
    resplit_aces,
    aces_one_card,
    bj_pays,
    bonus678,
    bonus777,
):
    """Every option's value for every two-card hand and up-card.

    Returns ``(ev, m2, nat)``: ``ev[u, x, y, s, k]`` the value of option ``k`` (stand, hit, double,
    split, surrender) for the hand of values ``x <= y`` against up-card ``u``, ``s = 1`` for a 6-7-8
    pair of one suit (else 0); NaN where the option is not offered. U-scale where ``peek[u]``.
    ``m2`` the matching second moments of the round's result; ``nat[u, x, y]`` P(dealer natural).
    """
    n = cards.shape[0]
    total = 0.0
    for v in range(10):
        total += shoe[v]
    ev = np.full((10, 10, 10, 2, OPTIONS), np.nan)
    m2 = np.full((10, 10, 10, 2, OPTIONS), np.nan)
    nat = np.zeros((10, 10, 10))
    stand_v = np.zeros(n)
    stand_m = np.zeros(n)
    hit_v = np.zeros(n)
    hit_m = np.zeros(n)
    hits_v = np.zeros(n)  # two-card 6-7-8 of one suit: hit with the bonus
    hits_m = np.zeros(n)
    dbl_v = np.zeros(n)
    dbl_m = np.zeros(n)
    cont_v = np.zeros(n)
    cont_m = np.zeros(n)
    # split mode
    sv = np.zeros(n)
    sclo = np.zeros(n)  # P(hand closed (bust or bonus) and dealer natural), takes=original without peek
    mu = np.zeros((n, 7))  # E[X | dealer outcome d] at the split's start shoe (for the SD)
    mu2 = np.zeros((n, 7))
    hmu = np.zeros(7)
    hmu2 = np.zeros(7)
    dmu = np.zeros(7)
    dmu2 = np.zeros(7)
    vmu = np.zeros(7)
    vmu2 = np.zeros(7)
    for u in range(10):
        if shoe[u] <= 0:
            continue
        pk = peek[u]
        lose1 = 0.0 if pk else 1.0
        lose2 = 0.0 if pk else (2.0 if takes_all else 1.0)
        for i in range(hands.shape[0]):
            r = hands[i]
            sz = size[r]
            na = cards[r, 0]
            t = _total(hard[r], na)
            dr = dmat[0 if infinite else r, u]
            pb = dr[5]
            s_part = stand_part(dr, t)
            st = s_part - lose1 * pb
            stm = _stand_decided(dr, t) + lose1 * pb
            stand_v[r] = st
            stand_m[r] = stm
            if t == 21:
                cont_v[r] = st
                cont_m[r] = stm
                hit_v[r] = np.nan
                continue
            h = 0.0
            hm = 0.0
            dv = 0.0
            dm = 0.0
            for v in range(10):
                p = p_draw(shoe, infinite, total, cards, r, sz, u, v)
                if p <= 0.0:
                    continue
                c = plus[r, v]
                if hard[r] + v + 1 > 21:
                    z = 1.0
                    if pk:
                        z = 1.0 - p_natural(shoe, infinite, total, na + (v == 0), cards[r, 9] + (v == 9), sz + 1, u)
                    h -= p * z
                    hm += p * z
                    dv -= 2.0 * p * z
                    dm += 4.0 * p * z
                else:
                    h += p * cont_v[c]
                    hm += p * cont_m[c]
                    if sz == 2:
                        dc = dmat[0 if infinite else c, u]
                        tc = _total(hard[c], cards[c, 0])
                        dv += p * (2.0 * stand_part(dc, tc) - lose2 * dc[5])
                        dm += p * (4.0 * _stand_decided(dc, tc) + lose2 * lose2 * dc[5])
            hit_v[r] = h
            hit_m[r] = hm
            if h > st:
                cont_v[r] = h
                cont_m[r] = hm
            else:
                cont_v[r] = st
                cont_m[r] = stm
            if sz == 2:
                dbl_v[r] = dv
                dbl_m[r] = dm
                hits_v[r] = h
                hits_m[r] = hm
                if bonus777 > 0 and cards[r, SEVEN] == 2:
                    p = p_draw(shoe, infinite, total, cards, r, sz, u, SEVEN)
                    if p > 0:
                        c = plus[r, SEVEN]
                        z = 1.0
                        if pk:
                            z = 1.0 - p_natural(shoe, infinite, total, na, cards[r, 9], sz + 1, u)
                        hit_v[r] += p * (bonus777 * z - cont_v[c])
                        hit_m[r] += p * (bonus777 * bonus777 * z - cont_m[c])
                        hits_v[r] = hit_v[r]
                        hits_m[r] = hit_m[r]
                if bonus678 > 0:
                    miss = _bonus_missing(cards, r)
                    if miss >= 0:
                        p = p_draw(shoe, infinite, total, cards, r, sz, u, miss) * SUIT_MATCH
                        if p > 0:
                            c = plus[r, miss]
                            z = 1.0
                            if pk:
                                z = 1.0 - p_natural(shoe, infinite, total, na, cards[r, 9], sz + 1, u)
                            hits_v[r] += p * (bonus678 * z - cont_v[c])
                            hits_m[r] += p * (bonus678 * bonus678 * z - cont_m[c])
        # two-card results without splits
        for x in range(10):
            for y in range(x, 10):
                r = plus[plus[0, x], y]
                if not infinite:
                    need_x = 1.0 + (1.0 if x == y else 0.0) + (1.0 if u == x else 0.0)
                    need_y = 1.0 + (1.0 if x == y else 0.0) + (1.0 if u == y else 0.0)
                    if shoe[x] < need_x or shoe[y] < need_y:
                        continue
                na = cards[r, 0]
                pb = p_natural(shoe, infinite, total, na, cards[r, 9], 2, u)
                nat[u, x, y] = pb
                z = 1.0 - pb if peek[u] else 1.0
                t = _total(hard[r], na)
                suited = 2 if (bonus678 > 0 and _bonus_missing(cards, r) >= 0) else 1
                for s in range(suited):
                    if t == 21:  # a natural: paid at once unless the dealer also has one (Art. 6, 7a)
                        ev[u, x, y, s, STAND] = bj_pays * (1.0 - pb)
                        m2[u, x, y, s, STAND] = bj_pays * bj_pays * (1.0 - pb)
                        continue
                    ev[u, x, y, s, STAND] = stand_v[r]
                    m2[u, x, y, s, STAND] = stand_m[r]
                    ev[u, x, y, s, HIT] = hits_v[r] if s == 1 else hit_v[r]
                    m2[u, x, y, s, HIT] = hits_m[r] if s == 1 else hit_m[r]
                    if double_ok[t]:
                        ev[u, x, y, s, DOUBLE] = dbl_v[r]
                        m2[u, x, y, s, DOUBLE] = dbl_m[r]
                    if surrender_ok[u]:
                        ev[u, x, y, s, SURRENDER] = -0.5 * z
                        m2[u, x, y, s, SURRENDER] = 0.25 * z
        # splits
        if max_hands < 2:
            continue
        for pair in range(10):
            if not infinite and shoe[pair] < 2.0 + (1.0 if u == pair else 0.0):
                continue
            m = max_hands if (pair != 0 or resplit_aces) else 2
            one_card = pair == 0 and aces_one_card
            amax = 2 * m - 4
            f_any = np.zeros(amax + 1)
            k_non = np.zeros(amax + 1)
            rho_any = np.ones(amax + 1)
            rho_non = np.ones(amax + 1)
            p0 = plus[plus[0, pair], pair]
            pb0 = p_natural(shoe, infinite, total, cards[p0, 0], cards[p0, 9], 2, u)
            z0 = 1.0 - pb0 if pk else 1.0
            mu_any = np.zeros(7)
            mu2_any = np.zeros(7)
            for a in range(amax + 1):
                j = a + 1
                # the split hands' values with j more pair cards out of the shoe
                for i in range(pair_ptr[pair], pair_ptr[pair + 1]):
                    g = pair_hands[i]
                    gs = size[g]
                    if one_card and gs > 2:
                        continue
                    r = g
                    for _ in range(j):
                        r = plus[r, pair]
                    na = cards[g, 0]
                    t = _total(hard[g], na)
                    dr = dmat[0 if infinite else r, u]
                    pbr = dr[5]
                    lose_s = 0.0 if pk else (1.0 if takes_all else 0.0)
                    st = stand_part(dr, t) - lose_s * pbr
                    if a == 0:
                        for d in range(7):
                            mu[g, d] = 0.0
                            mu2[g, d] = 0.0
                        for d in range(5):
                            res = 0.0 if 17 + d == t else (1.0 if t > 17 + d else -1.0)
                            mu[g, d] = res
                            mu2[g, d] = res * res
                        mu[g, 5] = 1.0
                        mu2[g, 5] = 1.0
                        mu[g, 6] = -1.0
                        mu2[g, 6] = 1.0
                    if t == 21 or one_card or (gs >= 3 and not (hit_v[g] > stand_v[g])):
                        sv[g] = st
                        sclo[g] = 0.0
                        continue
                    # hit, and for two cards the double, as split hands
                    h = 0.0
                    hclo = 0.0
                    dv = 0.0
                    dclo = 0.0
                    if a == 0:
                        hmu[:] = 0.0
                        hmu2[:] = 0.0
                        dmu[:] = 0.0
                        dmu2[:] = 0.0
                    for v in range(10):
                        p = p_draw(shoe, infinite, total, cards, r, size[r], u, v)
                        if p <= 0.0:
                            continue
                        c = plus[g, v]
                        if hard[g] + v + 1 > 21:
                            pn = p_natural(
                                shoe, infinite, total, cards[r, 0] + (v == 0), cards[r, 9] + (v == 9), size[r] + 1, u
                            )
                            z = 1.0 - pn if pk else 1.0
                            h -= p * z
                            dv -= 2.0 * p * z
                            hclo += p * pn
                            dclo += p * pn
                            if a == 0:
                                for d in range(7):
                                    hmu[d] -= p
                                    hmu2[d] += p
                                    dmu[d] -= 2.0 * p
                                    dmu2[d] += 4.0 * p
                        else:
                            h += p * sv[c]
                            hclo += p * sclo[c]
                            if a == 0:
                                for d in range(7):
                                    hmu[d] += p * mu[c, d]
                                    hmu2[d] += p * mu2[c, d]
                            if gs == 2:
                                rc = plus[r, v]
                                dc = dmat[0 if infinite else rc, u]
                                tc = _total(hard[c], cards[c, 0])
                                lose_d = 0.0 if pk else (2.0 if takes_all else 0.0)
                                dv += p * (2.0 * stand_part(dc, tc) - lose_d * dc[5])
                                if a == 0:
                                    for d in range(5):
                                        res = 0.0 if 17 + d == tc else (2.0 if tc > 17 + d else -2.0)
                                        dmu[d] += p * res
                                        dmu2[d] += p * res * res
                                    dmu[5] += 2.0 * p
                                    dmu2[5] += 4.0 * p
                                    dmu[6] -= 2.0 * p
                                    dmu2[6] += 4.0 * p
                    if gs >= 3:
                        sv[g] = h
                        sclo[g] = hclo
                        if a == 0:
                            for d in range(7):
                                mu[g, d] = hmu[d]
                                mu2[g, d] = hmu2[d]
                        continue
                    # two cards: the option the same cards would take unsplit, less what a split hand may not do
                    can_double = das and double_ok[t]
                    miss = _bonus_missing(cards, g) if bonus678 > 0 else -1
                    variants = 2 if miss >= 0 else 1
                    val = 0.0
                    clo = 0.0
                    if a == 0:
                        vmu[:] = 0.0
                        vmu2[:] = 0.0
                    for s in range(variants):
                        weight = 1.0 if variants == 1 else (SUIT_MATCH if s == 1 else 1.0 - SUIT_MATCH)
                        hv = h
                        hc = hclo
                        bmu = 0.0
                        bmu2 = 0.0
                        bonus_p = 0.0
                        bonus_miss = -1
                        if bonus777 > 0 and cards[g, SEVEN] == 2:
                            bonus_p = p_draw(shoe, infinite, total, cards, r, size[r], u, SEVEN)
                            bonus_miss = SEVEN
                            bmu = bonus777
                        elif s == 1:
                            bonus_p = p_draw(shoe, infinite, total, cards, r, size[r], u, miss) * SUIT_MATCH
                            bonus_miss = miss
                            bmu = bonus678
                        if bonus_p > 0:
                            c = plus[g, bonus_miss]
                            pn = p_natural(shoe, infinite, total, cards[r, 0], cards[r, 9], size[r] + 1, u)
                            z = 1.0 - pn if pk else 1.0
                            hv += bonus_p * (bmu * z - sv[c])
                            hc += bonus_p * (pn - sclo[c])
                            bmu2 = bmu * bmu
                        unsplit_hit = hits_v[g] if s == 1 else hit_v[g]
                        choice = STAND
                        best = stand_v[g]
                        if unsplit_hit > best:
                            choice = HIT
                            best = unsplit_hit
                        if can_double and dbl_v[g] > best:
                            choice = DOUBLE
                        if choice == STAND:
                            val += weight * st
                            if a == 0:
                                for d in range(7):
                                    vmu[d] += weight * mu[g, d]
                                    vmu2[d] += weight * mu2[g, d]
                        elif choice == HIT:
                            val += weight * hv
                            clo += weight * hc
                            if a == 0:
                                for d in range(7):
                                    add = 0.0
                                    add2 = 0.0
                                    if bonus_p > 0:
                                        c = plus[g, bonus_miss]
                                        add = bonus_p * (bmu - mu[c, d])
                                        add2 = bonus_p * (bmu2 - mu2[c, d])
                                    vmu[d] += weight * (hmu[d] + add)
                                    vmu2[d] += weight * (hmu2[d] + add2)
                        else:
                            val += weight * dv
                            clo += weight * dclo
                            if a == 0:
                                for d in range(7):
                                    vmu[d] += weight * dmu[d]
                                    vmu2[d] += weight * dmu2[d]
                    sv[g] = val
                    sclo[g] = clo
                    if a == 0:
                        for d in range(7):
                            mu[g, d] = vmu[d]
                            mu2[g, d] = vmu2[d]
                # the split hand P + x, with x drawn from the shoe less (2 + a) pair cards and the up-card
                base = plus[0, pair]
                rem = p0
                for _ in range(a):
                    rem = plus[rem, pair]
                fa = 0.0
                ca = 0.0
                pp = 0.0
                for x in range(10):
                    p = p_draw(shoe, infinite, total, cards, rem, size[rem], u, x)
                    if p <= 0:
                        continue
                    g = plus[base, x]
                    fa += p * sv[g]
                    ca += p * sclo[g]
                    if x == pair:
                        pp = p
                    if a == 0:
                        for d in range(7):
                            mu_any[d] += p * mu[g, d]
                            mu2_any[d] += p * mu2[g, d]
                gpp = plus[base, pair]
                f_any[a] = fa
                k_non[a] = fa - pp * sv[gpp]
                if pp < 1.0:
                    k_non[a] /= 1.0 - pp
                pn_a = p_natural(shoe, infinite, total, cards[rem, 0], cards[rem, 9], size[rem], u)
                if pn_a > 0:
                    rho_any[a] = ca / pn_a
                    rho_non[a] = (ca - pp * sclo[gpp]) / (1.0 - pp) / pn_a if pp < 1.0 else 1.0
            # resplits: patterns of pair (a) and non-pair (b) cards drawn as the hands' second cards
            np_ = 0.0
            n0 = 0.0
            if infinite:
                p_inf = shoe[pair]
            else:
                p_inf = 0.0
                np_ = shoe[pair] - 2.0 - (1.0 if u == pair else 0.0)
                n0 = total - 3.0
            g_any = np.zeros((amax + 1, amax + 1))
            g_non = np.zeros((amax + 1, amax + 1))
            for a in range(amax + 1):
                g_any[a, 0] = f_any[a]
                g_non[a, 0] = k_non[a]
            for b in range(1, amax + 1):
                for a in range(amax + 1 - b):
                    if infinite:
                        q1 = p_inf
                        q2 = p_inf
                    else:
                        q1 = max(np_ - a, 0.0) / (n0 - a - (b - 1)) if n0 - a - (b - 1) > 0 else 1.0
                        q2 = max(np_ - a, 0.0) / (n0 - a - b) if n0 - a - b > 0 else 1.0
                    g_any[a, b] = (g_any[a, b - 1] - q1 * g_any[a + 1, b - 1]) / (1.0 - q1) if q1 < 1.0 else 0.0
                    g_non[a, b] = (g_non[a, b - 1] - q2 * g_non[a + 1, b - 1]) / (1.0 - q2) if q2 < 1.0 else 0.0
            top = m - 2
            value = np.zeros((top + 1, top + 3))
            hands1 = np.zeros((top + 1, top + 3))  # E[number of hands still to come]
            hands2 = np.zeros((top + 1, top + 3))  # E[(hands so far + to come)^2] is built from these
            closed = np.zeros((top + 1, top + 3))
            for a in range(top, -1, -1):
                for b in range(a + 2, -1, -1):
                    if a == top:
                        left_h = 2 + a - b
                        if b <= a:
                            value[a, b] = left_h * g_any[a, b]
                        closed[a, b] = rho_any[a] ** left_h
                        hands1[a, b] = 2.0 + a
                        hands2[a, b] = (2.0 + a) ** 2
                        continue
                    if b == a + 2:
                        closed[a, b] = 1.0
                        hands1[a, b] = 2.0 + a
                        hands2[a, b] = (2.0 + a) ** 2
                        continue
                    q = p_inf if infinite else (max(np_ - a, 0.0) / (n0 - a - b) if n0 - a - b > 0 else 0.0)
                    value[a, b] = q * value[a + 1, b] + (1.0 - q) * (g_non[a, b] + value[a, b + 1])
                    closed[a, b] = q * closed[a + 1, b] + (1.0 - q) * rho_non[a] * closed[a, b + 1]
                    hands1[a, b] = q * hands1[a + 1, b] + (1.0 - q) * hands1[a, b + 1]
                    hands2[a, b] = q * hands2[a + 1, b] + (1.0 - q) * hands2[a, b + 1]
            split_value = value[0, 0]
            if not pk and not takes_all:  # one original bet to a natural found after play, if any hand is open
                split_value -= pb0 * (1.0 - closed[0, 0])
            # second moment: hands independent given the dealer's outcome (an approximation; see blackjack.py)
            dp = dmat[0 if infinite else p0, u]
            pi = np.zeros(7)
            for d in range(5):
                pi[d] = dp[d]
            pi[6] = 0.0 if pk else dp[5]
            pi[5] = 1.0 - dp[5] - (dp[0] + dp[1] + dp[2] + dp[3] + dp[4])
            eh = hands1[0, 0]
            eh2 = hands2[0, 0]
            sq = 0.0
            cross = 0.0
            for d in range(7):
                sq += pi[d] * mu2_any[d]
                cross += pi[d] * mu_any[d] * mu_any[d]
            if pk and z0 > 0:
                sq /= z0
                cross /= z0
            second = eh * sq + (eh2 - eh) * cross
            if pk:
                second *= z0
            for s in range(2):
                if s == 1 and not (bonus678 > 0 and _bonus_missing(cards, p0) >= 0):
                    continue
                ev[u, pair, pair, s, SPLIT] = split_value
                m2[u, pair, pair, s, SPLIT] = second
    return ev, m2, nat
