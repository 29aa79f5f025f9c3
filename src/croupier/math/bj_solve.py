"""The player's recursion of the blackjack analysis (numba): every option of every hand, splits included.

Small kernels over the state record documented in :mod:`croupier.math.bj_kernels` (``comp``, ``sh``,
``opts``, ``dmat``, ``hv``, ``mu``, ``tmp``, ``sp``): the unsplit values of every hand against an up-card
(:func:`_unsplit`), the two-card options (:func:`_two_card_results`), and each split with its resplits
(:func:`_split_pair`: the split hands by Farmer's pair/non-pair patterns, then the walk of the resplits).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.codes import ACE, DOUBLE, HIT, OPTIONS, SEVEN, SPLIT, STAND, SURRENDER, TEN
from croupier.math.bj_kernels import (
    CONT_M,
    CONT_V,
    DBL_M,
    DBL_V,
    DMU,
    DMU2,
    F_ANY,
    HIT_M,
    HIT_V,
    HITS_M,
    HITS_V,
    HMU,
    HMU2,
    HV_COLS,
    K_NON,
    MU2_ANY,
    MU_ANY,
    RHO_ANY,
    RHO_NON,
    SP_ROWS,
    SPL_C,
    SPL_V,
    ST_M,
    ST_V,
    VMU,
    VMU2,
    _bonus_missing,
    _stand_decided,
    _total,
    p_draw,
    p_natural,
    stand_part,
)
from croupier.math.bj_tables import SUIT_MATCH


@njit(cache=True)
def _hand_values(u, r, comp, sh, dmat, pk, lose1, lose2, hv):  # type: ignore[no-untyped-def]
    """Stand, hit, double and best-of-hit-or-stand of hand ``r`` against ``u`` (unsplit), into ``hv[r]``."""
    cards, size, hard, plus = comp[0], comp[1], comp[2], comp[3]
    shoe, infinite, total = sh
    sz = size[r]
    na = cards[r, ACE]
    t = _total(hard[r], na)
    dr = dmat[0 if infinite else r, u]
    st = stand_part(dr, t) - lose1 * dr[5]
    stm = _stand_decided(dr, t) + lose1 * dr[5]
    hv[r, ST_V] = st
    hv[r, ST_M] = stm
    if t == 21:
        hv[r, CONT_V] = st
        hv[r, CONT_M] = stm
        hv[r, HIT_V] = np.nan
        return
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
                z = 1.0 - p_natural(shoe, infinite, total, na + (v == ACE), cards[r, TEN] + (v == TEN), sz + 1, u)
            h -= p * z
            hm += p * z
            dv -= 2.0 * p * z
            dm += 4.0 * p * z
        else:
            h += p * hv[c, CONT_V]
            hm += p * hv[c, CONT_M]
            if sz == 2:
                dc = dmat[0 if infinite else c, u]
                tc = _total(hard[c], cards[c, ACE])
                dv += p * (2.0 * stand_part(dc, tc) - lose2 * dc[5])
                dm += p * (4.0 * _stand_decided(dc, tc) + lose2 * lose2 * dc[5])
    hv[r, HIT_V] = h
    hv[r, HIT_M] = hm
    if h > st:
        hv[r, CONT_V] = h
        hv[r, CONT_M] = hm
    else:
        hv[r, CONT_V] = st
        hv[r, CONT_M] = stm
    if sz == 2:
        hv[r, DBL_V] = dv
        hv[r, DBL_M] = dm
        hv[r, HITS_V] = h
        hv[r, HITS_M] = hm


@njit(cache=True)
def _bonus_hits(u, r, comp, sh, pk, bonus678, bonus777, hv):  # type: ignore[no-untyped-def]
    """A two-card hand's hit with Art. 9's bonus: 7-7 (``HIT_*``, ``HITS_*``), a suited 6-7-8 draw (``HITS_*``)."""
    cards, size, plus = comp[0], comp[1], comp[3]
    shoe, infinite, total = sh
    sz = size[r]
    na = cards[r, ACE]
    if bonus777 > 0 and cards[r, SEVEN] == 2:
        p = p_draw(shoe, infinite, total, cards, r, sz, u, SEVEN)
        if p > 0:
            c = plus[r, SEVEN]
            z = 1.0 - p_natural(shoe, infinite, total, na, cards[r, TEN], sz + 1, u) if pk else 1.0
            hv[r, HIT_V] += p * (bonus777 * z - hv[c, CONT_V])
            hv[r, HIT_M] += p * (bonus777 * bonus777 * z - hv[c, CONT_M])
            hv[r, HITS_V] = hv[r, HIT_V]
            hv[r, HITS_M] = hv[r, HIT_M]
    if bonus678 > 0:
        miss = _bonus_missing(cards, r)
        if miss >= 0:
            p = p_draw(shoe, infinite, total, cards, r, sz, u, miss) * SUIT_MATCH
            if p > 0:
                c = plus[r, miss]
                z = 1.0 - p_natural(shoe, infinite, total, na, cards[r, TEN], sz + 1, u) if pk else 1.0
                hv[r, HITS_V] += p * (bonus678 * z - hv[c, CONT_V])
                hv[r, HITS_M] += p * (bonus678 * bonus678 * z - hv[c, CONT_M])


@njit(cache=True)
def _unsplit(u, comp, sh, dmat, opts, hv):  # type: ignore[no-untyped-def]
    """Every hand's unsplit values against ``u``, largest hands first (``comp``'s ``hands`` order)."""
    peek, takes_all, bonus678, bonus777 = opts[0], opts[3], opts[9], opts[10]
    pk = peek[u]
    lose1 = 0.0 if pk else 1.0
    lose2 = 0.0 if pk else (2.0 if takes_all else 1.0)
    hands = comp[4]
    for i in range(hands.shape[0]):
        r = hands[i]
        _hand_values(u, r, comp, sh, dmat, pk, lose1, lose2, hv)
        if comp[1][r] == 2 and not np.isnan(hv[r, HIT_V]):
            _bonus_hits(u, r, comp, sh, pk, bonus678, bonus777, hv)


@njit(cache=True)
def _two_card_results(u, comp, sh, opts, hv, ev, m2, nat):  # type: ignore[no-untyped-def]
    """Every option but split of each two-card hand against ``u``, and P(dealer natural), into the results."""
    cards, hard, plus = comp[0], comp[2], comp[3]
    shoe, infinite, total = sh
    peek, surrender_ok, double_ok, bj_pays, bonus678 = opts[0], opts[1], opts[2], opts[8], opts[9]
    for x in range(10):
        for y in range(x, 10):
            r = plus[plus[0, x], y]
            if not infinite:
                need_x = 1.0 + (1.0 if x == y else 0.0) + (1.0 if u == x else 0.0)
                need_y = 1.0 + (1.0 if x == y else 0.0) + (1.0 if u == y else 0.0)
                if shoe[x] < need_x or shoe[y] < need_y:
                    continue
            na = cards[r, ACE]
            pb = p_natural(shoe, infinite, total, na, cards[r, TEN], 2, u)
            nat[u, x, y] = pb
            z = 1.0 - pb if peek[u] else 1.0
            t = _total(hard[r], na)
            suited = 2 if (bonus678 > 0 and _bonus_missing(cards, r) >= 0) else 1
            for s in range(suited):
                if t == 21:  # a natural: paid at once unless the dealer also has one (Art. 6, 7a)
                    ev[u, x, y, s, STAND] = bj_pays * (1.0 - pb)
                    m2[u, x, y, s, STAND] = bj_pays * bj_pays * (1.0 - pb)
                    continue
                ev[u, x, y, s, STAND] = hv[r, ST_V]
                m2[u, x, y, s, STAND] = hv[r, ST_M]
                ev[u, x, y, s, HIT] = hv[r, HITS_V] if s == 1 else hv[r, HIT_V]
                m2[u, x, y, s, HIT] = hv[r, HITS_M] if s == 1 else hv[r, HIT_M]
                if double_ok[t]:
                    ev[u, x, y, s, DOUBLE] = hv[r, DBL_V]
                    m2[u, x, y, s, DOUBLE] = hv[r, DBL_M]
                if surrender_ok[u]:
                    ev[u, x, y, s, SURRENDER] = -0.5 * z
                    m2[u, x, y, s, SURRENDER] = 0.25 * z


@njit(cache=True, inline="always")
def _outcome_result(t, d, stake):  # type: ignore[no-untyped-def]
    """A standing total ``t``'s result (``stake`` units) against the dealer's final 17 + ``d``."""
    return 0.0 if 17 + d == t else (stake if t > 17 + d else -stake)


@njit(cache=True)
def _split_stand_moments(g, t, mu):  # type: ignore[no-untyped-def]
    """``mu[:, g]`` for a split hand ``g`` standing on ``t``: its result given each dealer outcome."""
    for d in range(5):
        res = _outcome_result(t, d, 1.0)
        mu[0, g, d] = res
        mu[1, g, d] = res * res
    mu[0, g, 5] = 1.0
    mu[1, g, 5] = 1.0
    mu[0, g, 6] = -1.0
    mu[1, g, 6] = 1.0


@njit(cache=True)
def _split_draws(g, r, a, u, comp, sh, dmat, pk, takes_all, hv, mu, tmp):  # type: ignore[no-untyped-def]
    """Hit (and, for two cards, double) of split hand ``g`` from the shoe less composition ``r``.

    Returns ``(hit, hit_closed, double, double_closed)``; with ``a == 0`` also the moments by dealer
    outcome in ``tmp[HMU]``, ``tmp[HMU2]``, ``tmp[DMU]``, ``tmp[DMU2]``.
    """
    cards, size, hard, plus = comp[0], comp[1], comp[2], comp[3]
    shoe, infinite, total = sh
    gs = size[g]
    h = hclo = dv = dclo = 0.0
    if a == 0:
        tmp[HMU : DMU2 + 1, :] = 0.0
    lose_d = 0.0 if pk else (2.0 if takes_all else 0.0)
    for v in range(10):
        p = p_draw(shoe, infinite, total, cards, r, size[r], u, v)
        if p <= 0.0:
            continue
        c = plus[g, v]
        if hard[g] + v + 1 > 21:
            aces, tens = cards[r, ACE] + (v == ACE), cards[r, TEN] + (v == TEN)
            pn = p_natural(shoe, infinite, total, aces, tens, size[r] + 1, u)
            z = 1.0 - pn if pk else 1.0
            h -= p * z
            dv -= 2.0 * p * z
            hclo += p * pn
            dclo += p * pn
            if a == 0:
                for d in range(7):
                    tmp[HMU, d] -= p
                    tmp[HMU2, d] += p
                    tmp[DMU, d] -= 2.0 * p
                    tmp[DMU2, d] += 4.0 * p
            continue
        h += p * hv[c, SPL_V]
        hclo += p * hv[c, SPL_C]
        if a == 0:
            for d in range(7):
                tmp[HMU, d] += p * mu[0, c, d]
                tmp[HMU2, d] += p * mu[1, c, d]
        if gs == 2:
            dc = dmat[0 if infinite else plus[r, v], u]
            tc = _total(hard[c], cards[c, ACE])
            dv += p * (2.0 * stand_part(dc, tc) - lose_d * dc[5])
            if a == 0:
                for d in range(5):
                    res = _outcome_result(tc, d, 2.0)
                    tmp[DMU, d] += p * res
                    tmp[DMU2, d] += p * res * res
                tmp[DMU, 5] += 2.0 * p
                tmp[DMU2, 5] += 4.0 * p
                tmp[DMU, 6] -= 2.0 * p
                tmp[DMU2, 6] += 4.0 * p
    return h, hclo, dv, dclo


@njit(cache=True)
def _split_two_card(g, r, a, u, st, draws, comp, sh, opts, hv, mu, tmp):  # type: ignore[no-untyped-def]
    """A two-card split hand ``g``: the option the same cards take unsplit, less what a split hand may not
    do (double without DAS), with Art. 9's bonus; into ``hv[g, SPL_*]`` (and ``mu[:, g]`` when ``a == 0``)."""
    cards, size, hard, plus = comp[0], comp[1], comp[2], comp[3]
    shoe, infinite, total = sh
    peek, double_ok, das, bonus678, bonus777 = opts[0], opts[2], opts[4], opts[9], opts[10]
    pk = peek[u]
    h, hclo, dv, dclo = draws
    can_double = das and double_ok[_total(hard[g], cards[g, ACE])]
    miss = _bonus_missing(cards, g) if bonus678 > 0 else -1
    variants = 2 if miss >= 0 else 1
    val = clo = 0.0
    if a == 0:
        tmp[VMU : VMU2 + 1, :] = 0.0
    for s in range(variants):
        weight = 1.0 if variants == 1 else (SUIT_MATCH if s == 1 else 1.0 - SUIT_MATCH)
        hv_s, hc, bmu, bonus_p, bonus_miss = h, hclo, 0.0, 0.0, -1
        if bonus777 > 0 and cards[g, SEVEN] == 2:
            bonus_p = p_draw(shoe, infinite, total, cards, r, size[r], u, SEVEN)
            bonus_miss, bmu = SEVEN, bonus777
        elif s == 1:
            bonus_p = p_draw(shoe, infinite, total, cards, r, size[r], u, miss) * SUIT_MATCH
            bonus_miss, bmu = miss, bonus678
        if bonus_p > 0:
            c = plus[g, bonus_miss]
            pn = p_natural(shoe, infinite, total, cards[r, ACE], cards[r, TEN], size[r] + 1, u)
            z = 1.0 - pn if pk else 1.0
            hv_s += bonus_p * (bmu * z - hv[c, SPL_V])
            hc += bonus_p * (pn - hv[c, SPL_C])
        choice, best = STAND, hv[g, ST_V]
        unsplit_hit = hv[g, HITS_V] if s == 1 else hv[g, HIT_V]
        if unsplit_hit > best:
            choice, best = HIT, unsplit_hit
        if can_double and hv[g, DBL_V] > best:
            choice = DOUBLE
        if choice == STAND:
            val += weight * st
        elif choice == HIT:
            val += weight * hv_s
            clo += weight * hc
        else:
            val += weight * dv
            clo += weight * dclo
        if a == 0:
            for d in range(7):
                if choice == STAND:
                    m1, m2_ = mu[0, g, d], mu[1, g, d]
                elif choice == HIT:
                    m1, m2_ = tmp[HMU, d], tmp[HMU2, d]
                    if bonus_p > 0:
                        c = plus[g, bonus_miss]
                        m1 += bonus_p * (bmu - mu[0, c, d])
                        m2_ += bonus_p * (bmu * bmu - mu[1, c, d])
                else:
                    m1, m2_ = tmp[DMU, d], tmp[DMU2, d]
                tmp[VMU, d] += weight * m1
                tmp[VMU2, d] += weight * m2_
    hv[g, SPL_V] = val
    hv[g, SPL_C] = clo
    if a == 0:
        for d in range(7):
            mu[0, g, d] = tmp[VMU, d]
            mu[1, g, d] = tmp[VMU2, d]


@njit(cache=True)
def _split_hands(a, u, pair, one_card, comp, sh, dmat, opts, hv, mu, tmp):  # type: ignore[no-untyped-def]
    """Every split hand of ``pair`` (largest first) valued with ``a + 1`` more pair cards out of the shoe:
    ``hv[g, SPL_V]``, ``hv[g, SPL_C]`` (P(closed and a natural)) and, for ``a == 0``, ``mu[:, g]``."""
    cards, size, hard, plus, pair_ptr, pair_hands = comp[0], comp[1], comp[2], comp[3], comp[5], comp[6]
    infinite = sh[1]
    peek, takes_all = opts[0], opts[3]
    pk = peek[u]
    lose_s = 0.0 if pk else (1.0 if takes_all else 0.0)
    for i in range(pair_ptr[pair], pair_ptr[pair + 1]):
        g = pair_hands[i]
        gs = size[g]
        if one_card and gs > 2:
            continue
        r = g
        for _ in range(a + 1):
            r = plus[r, pair]
        t = _total(hard[g], cards[g, ACE])
        dr = dmat[0 if infinite else r, u]
        st = stand_part(dr, t) - lose_s * dr[5]
        if a == 0:
            _split_stand_moments(g, t, mu)
        if t == 21 or one_card or (gs >= 3 and not (hv[g, HIT_V] > hv[g, ST_V])):
            hv[g, SPL_V] = st
            hv[g, SPL_C] = 0.0
            continue
        draws = _split_draws(g, r, a, u, comp, sh, dmat, pk, takes_all, hv, mu, tmp)
        if gs >= 3:
            hv[g, SPL_V] = draws[0]
            hv[g, SPL_C] = draws[1]
            if a == 0:
                for d in range(7):
                    mu[0, g, d] = tmp[HMU, d]
                    mu[1, g, d] = tmp[HMU2, d]
            continue
        _split_two_card(g, r, a, u, st, draws, comp, sh, opts, hv, mu, tmp)


@njit(cache=True)
def _second_card(a, u, pair, comp, sh, hv, mu, sp):  # type: ignore[no-untyped-def]
    """The split hand pair + x, x drawn from the shoe less ``2 + a`` pair cards and the up-card: its value
    with any x and with a non-pair x, and P(closed | natural) likewise, into row ``a`` of ``sp``;
    with ``a == 0`` the moments of any x in ``sp[MU_ANY]``, ``sp[MU2_ANY]``."""
    cards, size, plus = comp[0], comp[1], comp[3]
    shoe, infinite, total = sh
    base = plus[0, pair]
    rem = plus[base, pair]
    for _ in range(a):
        rem = plus[rem, pair]
    fa = ca = pp = 0.0
    for x in range(10):
        p = p_draw(shoe, infinite, total, cards, rem, size[rem], u, x)
        if p <= 0:
            continue
        g = plus[base, x]
        fa += p * hv[g, SPL_V]
        ca += p * hv[g, SPL_C]
        if x == pair:
            pp = p
        if a == 0:
            for d in range(7):
                sp[MU_ANY, d] += p * mu[0, g, d]
                sp[MU2_ANY, d] += p * mu[1, g, d]
    gpp = plus[base, pair]
    sp[F_ANY, a] = fa
    sp[K_NON, a] = fa - pp * hv[gpp, SPL_V]
    if pp < 1.0:
        sp[K_NON, a] /= 1.0 - pp
    pn_a = p_natural(shoe, infinite, total, cards[rem, ACE], cards[rem, TEN], size[rem], u)
    sp[RHO_ANY, a] = 1.0
    sp[RHO_NON, a] = 1.0
    if pn_a > 0:
        sp[RHO_ANY, a] = ca / pn_a
        sp[RHO_NON, a] = (ca - pp * hv[gpp, SPL_C]) / (1.0 - pp) / pn_a if pp < 1.0 else 1.0


@njit(cache=True)
def _pair_odds(a, b, np_, n0, p_inf, infinite, shift):  # type: ignore[no-untyped-def]
    """P(the next second card is a pair card) after ``a`` pair and ``b - shift`` non-pair second cards."""
    if infinite:
        return p_inf
    rest = n0 - a - (b - shift)
    return max(np_ - a, 0.0) / rest if rest > 0 else 1.0


@njit(cache=True)
def _resplit_patterns(amax, np_, n0, p_inf, infinite, sp):  # type: ignore[no-untyped-def]
    """Split-hand values (any card, non-pair card) with ``a`` pair and ``b`` non-pair second cards unseen
    elsewhere: ``g_any[a, b]``, ``g_non[a, b]``, from the values with ``b = 0`` in ``sp``."""
    g_any = np.zeros((amax + 1, amax + 1))
    g_non = np.zeros((amax + 1, amax + 1))
    for a in range(amax + 1):
        g_any[a, 0] = sp[F_ANY, a]
        g_non[a, 0] = sp[K_NON, a]
    for b in range(1, amax + 1):
        for a in range(amax + 1 - b):
            q1 = _pair_odds(a, b, np_, n0, p_inf, infinite, 1)
            q2 = _pair_odds(a, b, np_, n0, p_inf, infinite, 0)
            g_any[a, b] = (g_any[a, b - 1] - q1 * g_any[a + 1, b - 1]) / (1.0 - q1) if q1 < 1.0 else 0.0
            g_non[a, b] = (g_non[a, b - 1] - q2 * g_non[a + 1, b - 1]) / (1.0 - q2) if q2 < 1.0 else 0.0
    return g_any, g_non


@njit(cache=True)
def _split_tree(top, np_, n0, p_inf, infinite, g_any, g_non, sp):  # type: ignore[no-untyped-def]
    """Walk the resplits: the split's value, P(every hand closed | natural), E[hands], E[hands^2].

    State ``(a, b)``: ``a`` resplits made, ``b`` hands given a non-pair second card; ``top`` resplits at most.
    """
    value = np.zeros((top + 1, top + 3))
    hands1 = np.zeros((top + 1, top + 3))
    hands2 = np.zeros((top + 1, top + 3))
    closed = np.zeros((top + 1, top + 3))
    for a in range(top, -1, -1):
        for b in range(a + 2, -1, -1):
            if a == top or b == a + 2:
                left_h = 2 + a - b
                if a == top and b <= a:
                    value[a, b] = left_h * g_any[a, b]
                closed[a, b] = sp[RHO_ANY, a] ** left_h if a == top else 1.0
                hands1[a, b] = 2.0 + a
                hands2[a, b] = (2.0 + a) ** 2
                continue
            q = p_inf if infinite else (max(np_ - a, 0.0) / (n0 - a - b) if n0 - a - b > 0 else 0.0)
            value[a, b] = q * value[a + 1, b] + (1.0 - q) * (g_non[a, b] + value[a, b + 1])
            closed[a, b] = q * closed[a + 1, b] + (1.0 - q) * sp[RHO_NON, a] * closed[a, b + 1]
            hands1[a, b] = q * hands1[a + 1, b] + (1.0 - q) * hands1[a, b + 1]
            hands2[a, b] = q * hands2[a + 1, b] + (1.0 - q) * hands2[a, b + 1]
    return value[0, 0], closed[0, 0], hands1[0, 0], hands2[0, 0]


@njit(cache=True)
def _split_second_moment(dp, pk, z0, eh, eh2, sp):  # type: ignore[no-untyped-def]
    """E[split result^2]: the hands independent given the dealer's outcome (an approximation; see blackjack.py)."""
    pi = np.zeros(7)
    for d in range(5):
        pi[d] = dp[d]
    pi[6] = 0.0 if pk else dp[5]
    pi[5] = 1.0 - dp[5] - (dp[0] + dp[1] + dp[2] + dp[3] + dp[4])
    sq = 0.0
    cross = 0.0
    for d in range(7):
        sq += pi[d] * sp[MU2_ANY, d]
        cross += pi[d] * sp[MU_ANY, d] * sp[MU_ANY, d]
    if pk and z0 > 0:
        sq /= z0
        cross /= z0
    second = eh * sq + (eh2 - eh) * cross
    return second * z0 if pk else second


@njit(cache=True)
def _split_pair(u, pair, comp, sh, dmat, opts, hv, mu, tmp, ev, m2):  # type: ignore[no-untyped-def]
    """The EV and second moment of splitting ``pair`` against ``u``, resplits included, into the results."""
    cards, plus = comp[0], comp[3]
    shoe, infinite, total = sh
    peek, takes_all, max_hands, resplit_aces, aces_one_card, bonus678 = (
        opts[0], opts[3], opts[5], opts[6], opts[7], opts[9]
    )  # fmt: skip
    pk = peek[u]
    m = max_hands if (pair != 0 or resplit_aces) else 2
    amax = 2 * m - 4
    sp = np.zeros((SP_ROWS, max(amax + 1, 7)))
    p0 = plus[plus[0, pair], pair]
    pb0 = p_natural(shoe, infinite, total, cards[p0, ACE], cards[p0, TEN], 2, u)
    z0 = 1.0 - pb0 if pk else 1.0
    for a in range(amax + 1):
        _split_hands(a, u, pair, pair == 0 and aces_one_card, comp, sh, dmat, opts, hv, mu, tmp)
        _second_card(a, u, pair, comp, sh, hv, mu, sp)
    p_inf = shoe[pair] if infinite else 0.0
    np_ = 0.0 if infinite else shoe[pair] - 2.0 - (1.0 if u == pair else 0.0)
    n0 = 0.0 if infinite else total - 3.0
    g_any, g_non = _resplit_patterns(amax, np_, n0, p_inf, infinite, sp)
    value, closed, eh, eh2 = _split_tree(m - 2, np_, n0, p_inf, infinite, g_any, g_non, sp)
    if not pk and not takes_all:  # one original bet to a natural found after play, if any hand is open
        value -= pb0 * (1.0 - closed)
    second = _split_second_moment(dmat[0 if infinite else p0, u], pk, z0, eh, eh2, sp)
    for s in range(2):
        if s == 1 and not (bonus678 > 0 and _bonus_missing(cards, p0) >= 0):
            continue
        ev[u, pair, pair, s, SPLIT] = value
        m2[u, pair, pair, s, SPLIT] = second


@njit(cache=True)
def solve(comp, dmat, sh, opts):  # type: ignore[no-untyped-def]
    """Every option's value for every two-card hand and up-card.

    ``comp``, ``sh`` and ``opts`` are the tuples of the module docstring; ``dmat`` is :func:`dealer_probs`'s.
    Returns ``(ev, m2, nat)``: ``ev[u, x, y, s, k]`` the value of option ``k`` (stand, hit, double,
    split, surrender) for the hand of values ``x <= y`` against up-card ``u``, ``s = 1`` for a 6-7-8
    pair of one suit (else 0); NaN where the option is not offered. U-scale where ``peek[u]``.
    ``m2`` the matching second moments of the round's result; ``nat[u, x, y]`` P(dealer natural).
    """
    shoe, infinite = sh[0], sh[1]
    n = comp[0].shape[0]
    ev = np.full((10, 10, 10, 2, OPTIONS), np.nan)
    m2 = np.full((10, 10, 10, 2, OPTIONS), np.nan)
    nat = np.zeros((10, 10, 10))
    hv = np.zeros((n, HV_COLS))
    mu = np.zeros((2, n, 7))
    tmp = np.zeros((6, 7))
    for u in range(10):
        if shoe[u] <= 0:
            continue
        _unsplit(u, comp, sh, dmat, opts, hv)
        _two_card_results(u, comp, sh, opts, hv, ev, m2, nat)
        if opts[5] < 2:
            continue
        for pair in range(10):
            if not infinite and shoe[pair] < 2.0 + (1.0 if u == pair else 0.0):
                continue
            _split_pair(u, pair, comp, sh, dmat, opts, hv, mu, tmp, ev, m2)
    return ev, m2, nat


@njit(cache=True)
def solve_flat(  # type: ignore[no-untyped-def]
    cards, size, hard, plus, hands, pair_ptr, pair_hands, dmat, shoe, infinite, total, peek, surrender_ok,
    double_ok, takes_all, das, max_hands, resplit_aces, aces_one_card, bj_pays, bonus678, bonus777,
):  # fmt: skip
    """:func:`solve` with the records' fields as plain arguments (the ahead-of-time build's signature,
    :mod:`croupier.math.aot`)."""
    comp = (cards, size, hard, plus, hands, pair_ptr, pair_hands)
    opts = (peek, surrender_ok, double_ok, takes_all, das, max_hands, resplit_aces, aces_one_card)
    return solve(comp, dmat, (shoe, infinite, total), (*opts, bj_pays, bonus678, bonus777))
