# mypy: disable-error-code="no-untyped-call"
# (the coup's steps are untyped closures that numba compiles; see run_chunk)
"""Compiled kernels of the baccarat simulator (numba): the generator, the shoe, the coup and the live count.

Everything here works on integers: cards are codes ``suit * 13 + rank`` (the order of
:attr:`croupier.cards.Card.index`: suits S H D C, ranks A 2 … 9 T J Q K), money is counted in minor
units (``rp[R_UNIT]`` of them make one unit of bet, chosen so that every payment of the rules is a
whole number of them), and the statistics are integer sums; only the live edges' expected values are
float64 (:data:`F_EV_POS`, :data:`F_EV_ALL`, :data:`F_EV_MAX`). :mod:`croupier.sim.baccarat` builds the
inputs and reads the outputs.

The generator is xoshiro256** (Blackman and Vigna), one stream per chunk of coups, its state seeded
by SplitMix64 from the run's two seed words and the chunk number. A bounded integer in ``[0, n)`` is
Lemire's multiply-shift of the generator's upper 32 bits with a rejection step, so it has no bias.
Shoes are shuffled by Fisher–Yates performed lazily: each card drawn is chosen uniformly among the
cards not yet drawn (swap position ``pos`` with ``pos + below(n - pos)``), which deals exactly the
card sequence of a full Fisher–Yates shuffle without shuffling the cards nobody draws.

The coup follows :class:`croupier.baccarat.state.BaccaratTable` step by step: the shoe-start burn
(Art. 2.1), the demonstration coups (Art. 2.2), the burn before each coup from the second on (Art. 8),
the deal and the tableau (Art. 7, 9: read from :mod:`croupier.baccarat.tableau` as the arrays ``nat``,
``pdraw``, ``bstood`` and ``bthird``), the settlement (Art. 12, 17, 18; 2018 amendment) and the end of
the shoe at the cut card (Art. 3.1). The twin test (``tests/sim/test_baccarat_sim.py``) replays the
simulator's coups through the engine to prove them identical.

:func:`count_coups` is the exact count of :func:`croupier.math.baccarat.count_coups` in int64 (every
count of a shoe of up to 12 decks is below ``624**6 < 2**63``), so the live edges are exact counts
turned into float64 expected values only at the end.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from croupier.sim.generator import below, seed_state

# spots, in the order of croupier.baccarat.rules.SPOTS
PLAYER, BANKER, TIE, PLAYER_PAIR, BANKER_PAIR, LUCKY_6 = range(6)
SPOTS = 6

# rule parameters: indexes into the int64 array ``rp``
R_DECKS = 0
R_CONTINUOUS = 1  # 1: every coup from a full, freshly shuffled shoe; no burn, no cut card, no demo coup
R_CUT_MODE = 2  # 0 no cut card, 1 a fixed position, 2 a range of cards from the end
R_CUT_A = 3
R_CUT_B = 4
R_BURN_MODE = 5  # 0 none, 1 first_card_value, 2 a fixed count (R_BURN_N; ``decks`` is a count too)
R_BURN_N = 6
R_DEMO = 7  # demonstration coups at the start of each shoe (Art. 2.2)
R_AT_LAST = 8  # 1: at_cut_card = last; 0: one_more (Art. 3.1)
R_BURN_EACH = 9  # burn before each coup from the second on (Art. 8)
R_UNIT = 10  # minor units in one unit of bet
R_PAY_BANKER = 11  # a winning banker bet's gain in minor units (0.95 with commission, 1 under Super 6)
R_PAY_BANKER_SIX = 12  # a winning banker 6's gain (0.5 under Super 6; else as R_PAY_BANKER)
R_PAY_TIE = 13
R_PAY_PAIR = 14
R_PAY_L6_TWO = 15
R_PAY_L6_THREE = 16
R_LUCKY = 17  # 1 where the rules offer Lucky 6
R_RECORD = 18
R_LIVE = 19  # 0 no live edges; 1 from the cards left in the shoe; 2 from every card not seen face up
R_SIZE = 20

# card destinations in the record
D_FIRST = 0  # the first card, turned face up (Art. 2.1)
D_START_BURN = 1  # a shoe-start burn (Art. 2.1)
D_COUP_BURN = 2  # the burn before a coup (Art. 8)
D_PLAYER = 3
D_BANKER = 4

# statistics: indexes into a chunk's int64 row
S_COUPS = 0  # coups with bets
S_DEMO = 1
S_SHOES = 2
S_CARDS = 3
S_BANKER = 4
S_PLAYER = 5
S_TIE = 6
S_PLAYER_PAIR = 7
S_BANKER_PAIR = 8
S_NATURAL = 9  # either side
S_PLAYER_NATURAL = 10
S_BANKER_NATURAL = 11
S_BANKER_SIX_TWO = 12  # banker wins on a two-card 6
S_BANKER_SIX_THREE = 13
S_PLAYER_THIRD = 14
S_BANKER_THIRD = 15
S_LIVE_COUPS = 16  # coups whose remaining shoe was analysed
S_ERROR = 17  # 1: a shoe ran out of cards (the rules' cut card forbids it; a guard); 2: EMPTY_SHOES shoes
# in a row ended before any coup with bets (a cut card so near the top that the demonstration coups end them)
S_GAIN = 18  # + spot: the sum of the one-unit stake's gains, minor units
S_GAIN2 = S_GAIN + SPOTS  # + spot: the sum of their squares
S_POS = S_GAIN2 + SPOTS  # + spot: coups whose remaining shoe gave the spot a positive expectation
S_POS_GAIN = S_POS + SPOTS  # + spot: the gains of those coups
S_POS_GAIN2 = S_POS_GAIN + SPOTS
S_SIZE = S_POS_GAIN2 + SPOTS

# float statistics
F_EV_POS = 0  # + spot: the sum of the expected values that were positive
F_EV_ALL = SPOTS  # + spot: the sum of every coup's expected value
F_EV_MAX = 2 * SPOTS  # + spot: the largest expected value seen
F_SIZE = 3 * SPOTS

# record: a row per coup (demonstration coups included)
W_SHOE = 0
W_COUP = 1
W_DEMO = 2
W_LAST = 3
W_CARD_START = 4
W_CARD_END = 5
W_CUT = 6  # the shoe's cut-card position, -1: none
W_WINNER = 7  # 0 banker, 1 player, 2 tie
W_GAIN = 8  # + spot: the one-unit stake's gain, minor units
W_SIZE = W_GAIN + SPOTS
RST_CARDS, RST_ROWS, RST_OVERFLOW = 0, 1, 2
EMPTY_SHOES = 1000

# counts of count_coups
C_TOTAL, C_BANKER, C_PLAYER, C_TIE, C_SIX_TWO, C_SIX_THREE, C_PAIRS = range(7)
C_SIZE = 7
K_STAND, K_BANKER_DRAWS, K_PLAYER_DRAWS = 0, 1, 2


# --------------------------------------------------------------------------------------------------
# the exact count of a coup from a shoe composition (croupier.math.baccarat.count_coups in int64)


@njit(cache=True)
def count_coups(ranks, nat, pdraw, bstood, bthird, out):  # type: ignore[no-untyped-def]
    """Count the outcomes of the ordered six-card sequences of a shoe holding ``ranks`` (13 counts).

    ``out`` receives ``C_TOTAL`` … ``C_PAIRS``, each exactly as :func:`croupier.math.baccarat.count_coups`
    gives it (``C_PAIRS`` is the player pairs; the banker pairs are as many). The shoe holds at least
    six cards.
    """
    c = np.zeros(10, dtype=np.int64)
    cards = np.int64(0)
    pairs = np.int64(0)
    for r in range(13):
        n = np.int64(ranks[r])
        c[min(r + 1, 10) % 10] += n
        cards += n
        pairs += n * (n - 1)
    left = cards - 4
    tail1 = left - 1
    banker = np.int64(0)
    player = np.int64(0)
    tie = np.int64(0)
    six_two = np.int64(0)
    six_three = np.int64(0)
    standing = np.zeros((10, 10), dtype=np.int64)
    reach = np.zeros(11, dtype=np.int64)
    for p1 in range(10):
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
                pt = (p1 + p2) % 10
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
                            if nat[pt] or nat[bt]:
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
                                wins = np.int64(0)
                                for final in range(pt + 1, 10):
                                    wins += c[(final - bt) % 10]
                                ties = c[(pt - bt) % 10]
                                w *= tail1
                                banker += w * wins
                                tie += w * ties
                                player += w * (left - wins - ties)
                                six_three += w * c[(6 - bt) % 10] * (pt < 6)
                            else:
                                running = np.int64(0)
                                reach[0] = 0
                                for final in range(10):
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
                                        taken = (bt + x) % 10
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
                                banker += w * lb
                                tie += w * lt
                                player += w * lp
                                six_two += w * l2
                                six_three += w * l3
                        c[b2] += 1
                        c[b1] += 1
            c[p2] += 1
            c[p1] += 1
    tail2 = left * tail1
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
    total = np.int64(1)
    for i in range(6):
        total *= cards - i
    falling4 = np.int64(1)
    for i in range(4):
        falling4 *= cards - 2 - i
    out[C_TOTAL] = total
    out[C_BANKER] = banker
    out[C_PLAYER] = player
    out[C_TIE] = tie
    out[C_SIX_TWO] = six_two
    out[C_SIX_THREE] = six_three
    out[C_PAIRS] = pairs * falling4


@njit(cache=True)
def expected_values(rp, counts, num, ev):  # type: ignore[no-untyped-def]
    """Each spot's expectation from the counts of :func:`count_coups`: ``num`` the exact numerator in
    minor units over ``counts[C_TOTAL]`` coups (its sign is exact), ``ev`` the value per unit (float64)."""
    unit = rp[R_UNIT]
    total = counts[C_TOTAL]
    banker = counts[C_BANKER]
    player = counts[C_PLAYER]
    tie = counts[C_TIE]
    sixes = counts[C_SIX_TWO] + counts[C_SIX_THREE]
    pairs = counts[C_PAIRS]
    num[PLAYER] = unit * (player - banker)
    num[BANKER] = rp[R_PAY_BANKER] * (banker - sixes) + rp[R_PAY_BANKER_SIX] * sixes - unit * player
    num[TIE] = rp[R_PAY_TIE] * tie - unit * (total - tie)
    num[PLAYER_PAIR] = rp[R_PAY_PAIR] * pairs - unit * (total - pairs)
    num[BANKER_PAIR] = num[PLAYER_PAIR]
    num[LUCKY_6] = (
        rp[R_PAY_L6_TWO] * counts[C_SIX_TWO] + rp[R_PAY_L6_THREE] * counts[C_SIX_THREE] - unit * (total - sixes)
    )
    scale = 1.0 / (float(unit) * float(total))
    for s in range(SPOTS):
        ev[s] = float(num[s]) * scale


# --------------------------------------------------------------------------------------------------
# chunks of coups


@njit(cache=True, nogil=True)  # nogil: a Dask worker's threads play chunks side by side
def run_chunk(  # type: ignore[no-untyped-def]
    rp, nat, pdraw, bstood, bthird, coups, rng, stats, fstats, rec_cards, rec_dest, rec_rows, rec_ev, rst
):
    """``coups`` coups with bets, from fresh shoes drawn with the generator state ``rng``.

    ``stats`` (``S_*``) and ``fstats`` (``F_*``) are filled in. With ``rp[R_RECORD]`` every card drawn
    and its destination (``D_*``) goes to ``rec_cards``/``rec_dest``, every coup (demonstration coups
    included) to a row of ``rec_rows`` (``W_*``) and, with live edges, its expected values to ``rec_ev``;
    ``rst``: cards recorded, rows recorded, overflow flag.
    """
    decks = rp[R_DECKS]
    n = decks * 52
    shoe = np.empty(n, dtype=np.int8)
    for i in range(n):
        shoe[i] = i % 52
    counts = np.zeros(13, dtype=np.int64)  # cards left in the shoe, by rank
    hidden = np.zeros(13, dtype=np.int64)  # cards burned face down this shoe, by rank
    view = np.zeros(13, dtype=np.int64)
    ccount = np.zeros(C_SIZE, dtype=np.int64)
    num = np.zeros(SPOTS, dtype=np.int64)
    ev = np.zeros(SPOTS, dtype=np.float64)
    g = np.zeros(SPOTS, dtype=np.int64)
    # st: position, cut-card position (-1 none), coup during which the cut card came out (-1: not yet),
    # the coup under way
    st = np.zeros(4, dtype=np.int64)
    continuous = rp[R_CONTINUOUS] != 0
    record = rp[R_RECORD] != 0
    live = rp[R_LIVE]
    unit = rp[R_UNIT]
    lucky = rp[R_LUCKY] != 0
    spots = SPOTS if lucky else SPOTS - 1
    for s in range(F_EV_MAX, F_EV_MAX + SPOTS):
        fstats[s] = -np.inf

    def draw(dest):  # type: ignore[no-untyped-def]
        """The next card of the lazily shuffled shoe; the cut card comes out with the card at ``st[1]``."""
        pos = st[0]
        if pos >= n:
            stats[S_ERROR] = 1
            return np.int64(-1)
        j = pos + below(rng, n - pos)
        c = shoe[j]
        shoe[j] = shoe[pos]
        shoe[pos] = c
        if pos == st[1] and st[2] < 0:
            st[2] = max(st[3], 1)  # shoe-start burns belong to the first coup
        st[0] = pos + 1
        counts[c % 13] -= 1
        if record:
            i = rst[RST_CARDS]
            if i < rec_cards.shape[0]:
                rec_cards[i] = c
                rec_dest[i] = dest
                rst[RST_CARDS] = i + 1
            else:
                rst[RST_OVERFLOW] = 1
        return np.int64(c)

    def value(c):  # type: ignore[no-untyped-def]
        r = c % 13
        return r + 1 if r < 9 else 0

    done = 0
    shoe_number = 0
    empty = 0  # shoes in a row without a coup with bets
    while done < coups and stats[S_ERROR] == 0:
        # a new shoe: every card back (the array always holds the whole shoe, in some order)
        st[0] = 0
        st[2] = -1
        st[3] = 0
        for r in range(13):
            counts[r] = 4 * decks
            hidden[r] = 0
        mode = 0 if continuous else rp[R_CUT_MODE]
        if mode == 0:
            st[1] = -1
        elif mode == 1:
            st[1] = rp[R_CUT_A]
        else:
            low = rp[R_CUT_A]
            from_end = low + below(rng, rp[R_CUT_B] - low + 1)
            st[1] = max(0, n - from_end)
        stats[S_SHOES] += 1
        card_start = rst[RST_CARDS]
        if not continuous:
            burns = rp[R_BURN_N]
            if rp[R_BURN_MODE] == 1:  # Art. 2.1: the first card turned, then as many as its value
                first = draw(D_FIRST)
                burns = value(first) if value(first) > 0 else 10
            elif rp[R_BURN_MODE] == 0:
                burns = 0
            for _ in range(burns):
                c = draw(D_START_BURN)
                hidden[c % 13] += 1
        coup = 0
        betting = 0
        while done < coups and stats[S_ERROR] == 0:
            coup += 1
            st[3] = coup
            demo = (not continuous) and coup <= rp[R_DEMO]
            if live and not demo:
                for r in range(13):
                    view[r] = counts[r] + (hidden[r] if live == 2 else 0)
                count_coups(view, nat, pdraw, bstood, bthird, ccount)
                expected_values(rp, ccount, num, ev)
                stats[S_LIVE_COUPS] += 1
            if not continuous and coup >= 2:
                for _ in range(rp[R_BURN_EACH]):  # Art. 8: from the second coup on
                    c = draw(D_COUP_BURN)
                    hidden[c % 13] += 1
            if n - st[0] < 6:
                stats[S_ERROR] = 1
                break
            # Art. 7: player, banker, player, banker
            p1 = draw(D_PLAYER)
            b1 = draw(D_BANKER)
            p2 = draw(D_PLAYER)
            b2 = draw(D_BANKER)
            pt = (value(p1) + value(p2)) % 10
            bt = (value(b1) + value(b2)) % 10
            player_cards = 2
            banker_cards = 2
            if not (nat[pt] or nat[bt]):  # Art. 9: a natural, both stand
                if pdraw[pt]:  # Art. 9.1-9.2
                    p3 = draw(D_PLAYER)
                    player_cards = 3
                    x = value(p3)
                    pt = (pt + x) % 10
                    if bthird[bt, x]:  # Art. 9.3-9.4
                        bt = (bt + value(draw(D_BANKER))) % 10
                        banker_cards = 3
                elif bstood[bt]:  # Art. 9.3(6)
                    bt = (bt + value(draw(D_BANKER))) % 10
                    banker_cards = 3
            winner = 0 if bt > pt else (1 if pt > bt else 2)
            player_pair = (p1 % 13) == (p2 % 13)
            banker_pair = (b1 % 13) == (b2 % 13)
            if demo:
                stats[S_DEMO] += 1
                for s in range(SPOTS):
                    g[s] = 0
            else:
                done += 1
                betting += 1
                stats[S_COUPS] += 1
                if winner == 0:
                    stats[S_BANKER] += 1
                    if bt == 6:
                        stats[S_BANKER_SIX_TWO if banker_cards == 2 else S_BANKER_SIX_THREE] += 1
                elif winner == 1:
                    stats[S_PLAYER] += 1
                else:
                    stats[S_TIE] += 1
                pnat = 1 if player_cards == 2 and nat[pt] else 0
                bnat = 1 if banker_cards == 2 and nat[bt] else 0
                stats[S_PLAYER_NATURAL] += pnat
                stats[S_BANKER_NATURAL] += bnat
                stats[S_NATURAL] += max(pnat, bnat)
                stats[S_PLAYER_PAIR] += 1 if player_pair else 0
                stats[S_BANKER_PAIR] += 1 if banker_pair else 0
                stats[S_PLAYER_THIRD] += player_cards - 2
                stats[S_BANKER_THIRD] += banker_cards - 2
                # Art. 12, 17, 18; a tie returns the player and banker stakes
                if winner == 2:
                    g[PLAYER] = 0
                    g[BANKER] = 0
                    g[TIE] = rp[R_PAY_TIE]
                elif winner == 1:
                    g[PLAYER] = unit
                    g[BANKER] = -unit
                    g[TIE] = -unit
                else:
                    g[PLAYER] = -unit
                    g[BANKER] = rp[R_PAY_BANKER_SIX] if bt == 6 else rp[R_PAY_BANKER]
                    g[TIE] = -unit
                g[PLAYER_PAIR] = rp[R_PAY_PAIR] if player_pair else -unit
                g[BANKER_PAIR] = rp[R_PAY_PAIR] if banker_pair else -unit
                if winner == 0 and bt == 6:  # 2018 amendment: a banker 6 that ties loses
                    g[LUCKY_6] = rp[R_PAY_L6_TWO] if banker_cards == 2 else rp[R_PAY_L6_THREE]
                else:
                    g[LUCKY_6] = -unit if lucky else 0
                for s in range(spots):
                    stats[S_GAIN + s] += g[s]
                    stats[S_GAIN2 + s] += g[s] * g[s]
                    if live:
                        fstats[F_EV_ALL + s] += ev[s]
                        if ev[s] > fstats[F_EV_MAX + s]:
                            fstats[F_EV_MAX + s] = ev[s]
                        if num[s] > 0:
                            stats[S_POS + s] += 1
                            stats[S_POS_GAIN + s] += g[s]
                            stats[S_POS_GAIN2 + s] += g[s] * g[s]
                            fstats[F_EV_POS + s] += ev[s]
            # Art. 3.1: the coup of the cut card is the last, or one more follows; Art. 7.2: every coup
            if continuous:
                last = True
            elif st[2] < 0:
                last = False
            else:
                last = coup >= st[2] + (0 if rp[R_AT_LAST] else 1)
            if record:
                w = rst[RST_ROWS]
                if w < rec_rows.shape[0]:
                    rec_rows[w, W_SHOE] = shoe_number
                    rec_rows[w, W_COUP] = coup
                    rec_rows[w, W_DEMO] = demo
                    rec_rows[w, W_LAST] = last
                    rec_rows[w, W_CARD_START] = card_start
                    rec_rows[w, W_CARD_END] = rst[RST_CARDS]
                    rec_rows[w, W_CUT] = st[1]
                    rec_rows[w, W_WINNER] = winner
                    for s in range(SPOTS):
                        rec_rows[w, W_GAIN + s] = g[s]
                        rec_ev[w, s] = ev[s] if live and not demo else np.nan
                    rst[RST_ROWS] = w + 1
                else:
                    rst[RST_OVERFLOW] = 1
                card_start = rst[RST_CARDS]
            if last:
                empty = empty + 1 if betting == 0 else 0
                if empty >= EMPTY_SHOES:
                    stats[S_ERROR] = 2
                break
        stats[S_CARDS] += st[0]
        shoe_number += 1


@njit(cache=True, parallel=True)
def run_chunks(rp, nat, pdraw, bstood, bthird, sizes, first, seed, stats, fstats):  # type: ignore[no-untyped-def]
    """Chunks ``first`` … ``first + len(sizes) - 1`` of a run, in parallel: chunk ``first + i`` plays
    ``sizes[i]`` coups from its own stream and writes only ``stats[i]`` and ``fstats[i]``."""
    for i in prange(sizes.shape[0]):
        rng = seed_state(seed, first + i)
        rec_cards = np.zeros(1, dtype=np.int8)
        rec_dest = np.zeros(1, dtype=np.int8)
        rec_rows = np.zeros((1, W_SIZE), dtype=np.int64)
        rec_ev = np.zeros((1, SPOTS), dtype=np.float64)
        rst = np.zeros(3, dtype=np.int64)
        run_chunk(
            rp, nat, pdraw, bstood, bthird, sizes[i], rng, stats[i], fstats[i], rec_cards, rec_dest, rec_rows, rec_ev,
            rst,
        )  # fmt: skip
