"""The exact count of a baccarat coup from a shoe composition, compiled (numba) in int64.

:func:`count_coups` is :func:`croupier.math.baccarat.count_coups` (every count of a shoe of up to 12
decks is below ``624**6 < 2**63``): the live edges of the simulator (:mod:`croupier.sim.baccarat_kernels`)
count the coup before each deal with it. It is split into :func:`banker_hands` (the banker's two cards
against one player total), :func:`player_draws` and :func:`banker_draws` (the third cards, Art. 9) and
:func:`standing_outcomes` (the hands where both stand).

Cards are counted by baccarat value in ``c`` (``c[v]``, v 0-9); ``reach`` and ``standing`` are work
arrays. The small steps are inlined into :func:`count_coups` (``inline="always"``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.sim.borrowed import borrow

# counts of count_coups
C_TOTAL, C_BANKER, C_PLAYER, C_TIE, C_SIX_TWO, C_SIX_THREE, C_PAIRS = range(7)
C_SIZE = 7
# who draws on two-card points
K_STAND, K_BANKER_DRAWS, K_PLAYER_DRAWS = 0, 1, 2


@njit(cache=True, inline="always")
def composition(ranks, c):  # type: ignore[no-untyped-def]
    """``c[v]``: the cards of baccarat value ``v``; returns the cards and the ordered pairs of one rank."""
    cards = np.int64(0)
    pairs = np.int64(0)
    for r in range(13):
        n = np.int64(ranks[r])
        c[min(r + 1, 10) % 10] += n
        cards += n
        pairs += n * (n - 1)
    return cards, pairs


@njit(cache=True, inline="always")
def banker_draws(c, pt, bt, left):  # type: ignore[no-untyped-def]
    """The player stood on ``pt``, the banker draws to ``bt``: the banker's third cards that win, tie,
    lose, and win on a three-card 6."""
    wins = np.int64(0)
    for final in range(pt + 1, 10):
        wins += c[(final - bt) % 10]
    ties = c[(pt - bt) % 10]
    return wins, ties, left - wins - ties, c[(6 - bt) % 10] * (pt < 6)


@njit(cache=True, inline="always")
def player_draws(c, reach, bthird, pt, bt, left, tail1):  # type: ignore[no-untyped-def]
    """The player draws to ``pt``: over the player's third card and the banker's (Art. 9.3-9.4), the
    ways the banker wins, ties, loses, wins on a two-card 6 and on a three-card 6."""
    running = np.int64(0)
    reach[0] = 0
    for final in range(10):  # reach[f]: the banker's third cards that leave it below f
        running += c[(final - bt) % 10]
        reach[final + 1] = running
    six_value = (6 - bt) % 10
    lb = np.int64(0)
    lt = np.int64(0)
    lp = np.int64(0)
    l2 = np.int64(0)
    l3 = np.int64(0)
    for x in range(10):
        k = c[x]
        if k == 0:
            continue
        final_p = (pt + x) % 10
        if bthird[bt, x]:
            below_p = reach[final_p]
            upto = reach[final_p + 1]
            wins = left - upto
            ties = upto - below_p
            losses = below_p
            taken = (bt + x) % 10  # the player's third card is no longer in the shoe
            if taken > final_p:
                wins -= 1
            elif taken == final_p:
                ties -= 1
            else:
                losses -= 1
            lb += k * wins
            lt += k * ties
            lp += k * losses
            if final_p < 6:
                l3 += k * (c[six_value] - (x == six_value))
        elif bt > final_p:
            lb += k * tail1
            if bt == 6:
                l2 += k * tail1
        elif bt == final_p:
            lt += k * tail1
        else:
            lp += k * tail1
    return lb, lt, lp, l2, l3


@njit(cache=True, inline="always")
def banker_hands(c, tableau, pt, wp, left, standing, reach):  # type: ignore[no-untyped-def]
    """Every banker two-card hand against the player's two cards (``pt``, ``wp`` ways): the ways the
    banker wins, the player wins, they tie, the banker wins on a two-card and a three-card 6; the
    hands where both stand go to ``standing[pt, bt]`` (:func:`standing_outcomes`)."""
    nat, pdraw, bstood, bthird = tableau
    tail1 = left - 1
    banker = np.int64(0)
    player = np.int64(0)
    tie = np.int64(0)
    six_two = np.int64(0)
    six_three = np.int64(0)
    for b1 in range(10):
        if c[b1] == 0:
            continue
        for b2 in range(b1, 10):
            w = c[b1]
            c[b1] -= 1
            w *= c[b2]
            c[b2] -= 1
            if w:
                if b1 != b2:
                    w *= 2
                w *= wp
                bt = (b1 + b2) % 10
                if nat[pt] or nat[bt]:  # Art. 9: who draws on the two-card points
                    kind = K_STAND
                elif pdraw[pt]:
                    kind = K_PLAYER_DRAWS
                elif bstood[bt]:
                    kind = K_BANKER_DRAWS
                else:
                    kind = K_STAND
                if kind == K_STAND:
                    standing[pt, bt] += w
                elif kind == K_BANKER_DRAWS:
                    wins, ties, losses, sixes = banker_draws(c, pt, bt, left)
                    w *= tail1
                    banker += w * wins
                    tie += w * ties
                    player += w * losses
                    six_three += w * sixes
                else:
                    lb, lt, lp, l2, l3 = player_draws(c, reach, bthird, pt, bt, left, tail1)
                    banker += w * lb
                    tie += w * lt
                    player += w * lp
                    six_two += w * l2
                    six_three += w * l3
            c[b2] += 1
            c[b1] += 1
    return banker, player, tie, six_two, six_three


@njit(cache=True, inline="always")
def standing_outcomes(standing, tail2):  # type: ignore[no-untyped-def]
    """The hands where both stand, each with ``tail2`` ways for the two cards nobody draws: the ways
    the banker wins, the player wins, they tie, the banker wins on a two-card 6."""
    banker = np.int64(0)
    player = np.int64(0)
    tie = np.int64(0)
    six_two = np.int64(0)
    for pt in range(10):
        for bt in range(10):
            weight = standing[pt, bt] * tail2
            if weight == 0:
                continue
            if bt > pt:
                banker += weight
                if bt == 6:
                    six_two += weight
            elif bt == pt:
                tie += weight
            else:
                player += weight
    return banker, player, tie, six_two


@njit(cache=True)
def count_coups(ranks, nat, pdraw, bstood, bthird, out):  # type: ignore[no-untyped-def]
    """Count the outcomes of the ordered six-card sequences of a shoe holding ``ranks`` (13 counts).

    ``out`` receives ``C_TOTAL`` … ``C_PAIRS``, each exactly as :func:`croupier.math.baccarat.count_coups`
    gives it (``C_PAIRS`` is the player pairs; the banker pairs are as many). The shoe holds at least
    six cards.
    """
    c = np.zeros(10, dtype=np.int64)
    standing = np.zeros((10, 10), dtype=np.int64)
    reach = np.zeros(11, dtype=np.int64)
    count_into(ranks, nat, pdraw, bstood, bthird, out, c, standing, reach)


@njit(cache=True)
def count_into(ranks, nat, pdraw, bstood, bthird, out, c, standing, reach):  # type: ignore[no-untyped-def]
    """:func:`count_coups` with its work arrays (zeros), all borrowed (:mod:`croupier.sim.borrowed`: the
    caller holds them until this returns): the steps are inlined and count no references."""
    tableau = (borrow(nat), borrow(pdraw), borrow(bstood), borrow(bthird))
    ranks, out, c, standing, reach = borrow(ranks), borrow(out), borrow(c), borrow(standing), borrow(reach)
    cards, pairs = composition(ranks, c)
    left = cards - 4
    banker, player, tie, six_two, six_three = np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    for p1 in range(10):  # the player's two cards, then the banker's
        if c[p1] == 0:
            continue
        for p2 in range(p1, 10):
            wp = c[p1]
            c[p1] -= 1
            wp *= c[p2]
            c[p2] -= 1
            if wp:
                if p1 != p2:
                    wp *= 2
                b, p, t, s2, s3 = banker_hands(c, tableau, (p1 + p2) % 10, wp, left, standing, reach)
                banker += b
                player += p
                tie += t
                six_two += s2
                six_three += s3
            c[p2] += 1
            c[p1] += 1
    b, p, t, s2 = standing_outcomes(standing, left * (left - 1))
    total = np.int64(1)
    for i in range(6):
        total *= cards - i
    falling4 = np.int64(1)
    for i in range(4):
        falling4 *= cards - 2 - i
    out[C_TOTAL] = total
    out[C_BANKER] = banker + b
    out[C_PLAYER] = player + p
    out[C_TIE] = tie + t
    out[C_SIX_TWO] = six_two + s2
    out[C_SIX_THREE] = six_three
    out[C_PAIRS] = pairs * falling4
