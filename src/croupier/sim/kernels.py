# mypy: disable-error-code="no-untyped-call"
# (the round's steps are untyped closures that numba compiles; see run_chunk)
"""Compiled kernels of the blackjack simulator (numba): the generator, the shoe and one round.

Everything here works on integers: cards are codes ``suit * 13 + rank`` (the order of
:attr:`croupier.cards.Card.index`: suits S H D C, ranks A 2 … 9 T J Q K), money is counted in minor
units (``unit`` of them make one unit of bet, chosen so that every payment of the rules is a whole
number of them), and the statistics are integer sums. :mod:`croupier.sim.blackjack` builds the
inputs and reads the outputs.

The generator is xoshiro256** (Blackman and Vigna), one stream per chunk of rounds, its state seeded
by SplitMix64 from ``(seed, chunk)``. A bounded integer in ``[0, n)`` is Lemire's multiply-shift of
the generator's upper 32 bits with a rejection step, so it has no bias. Shoes are shuffled by
Fisher–Yates performed lazily: each card drawn is chosen uniformly among the cards not yet drawn
(swap position ``pos`` with ``pos + below(n - pos)``), which deals exactly the card sequence of a
full Durstenfeld shuffle without shuffling the cards nobody draws.

The round follows :func:`croupier.blackjack.procedure.run` step by step (burns, deal order, hole-card
models, peek, boxes from box 1 up, split hands in order, the dealer, settlement); a rule of the
engine changes only together with this file, and the twin test (``tests/sim``) replays the
simulator's rounds through the engine to prove them identical.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from croupier.codes import DOUBLE, HIT, SPLIT, STAND
from croupier.math import bj_kernels as bj
from croupier.sim.generator import below, seed_state

# rule parameters: indexes into the int64 array ``rp``
R_BOXES = 0
R_H17 = 1
R_HOLE = 2  # 0 none, 1 peek, 2 peek_ace
R_TAKES_ALL = 3
R_DAS = 4
R_MAX_HANDS = 5
R_ACES_ONE = 6
R_RESPLIT_ACES = 7
R_SURRENDER = 8  # 0 none, 1 early_not_ace, 2 late
R_BJ = 9  # a natural's payment in minor units
R_B678 = 10  # bonus payments in minor units, -1: no such bonus
R_B777 = 11
R_DRAWS_MOOT = 12
R_START_BURNS = 13
R_BURN_EACH = 14
R_BURN_SECOND = 15
R_METAL = 16
R_CUT_MODE = 17  # 0 no cut card, 1 a fixed position, 2 a range of cards from the end
R_CUT_A = 18
R_CUT_B = 19
R_UNIT = 20  # minor units in one unit of bet
R_CONTINUOUS = 21
R_RECORD = 22
R_HIST_OFFSET = 23
R_SUITED = 24  # 1 when the 6-7-8 suited bonus is paid (the strategy tells suited two-card hands apart)
R_SIZE = 25

# hand fields: H[box, slot, field]
F_N, F_HARD, F_ACE, F_STAKE, F_SPLIT, F_SACES, F_DBL, F_DONE, F_SETTLED, F_NAT, F_COMP = range(11)
F_SIZE = 11
MAX_BOXES = 7
MAX_HANDS = 4
MAX_CARDS = 24

# statistics: indexes into a chunk's int64 row
S_ROUNDS = 0
S_NET = 1  # sum of every box's net, minor units
S_NET2 = 2  # sum over rounds of (the round's net over all boxes) squared
S_BOX2 = 3  # sum over boxes and rounds of a box's net squared
S_HANDS = 4
S_NATURALS = 5
S_DEALER_NATURALS = 6
S_BUSTS = 7
S_DEALER_BUSTS = 8
S_DOUBLES = 9
S_SPLITS = 10
S_SURRENDERS = 11
S_BONUS_678 = 12
S_BONUS_777 = 13
S_WINS = 14
S_PUSHES = 15
S_LOSSES = 16
S_VOIDS = 17
S_SHOES = 18
S_CARDS = 19
S_SIZE = 20

# record: destinations of the cards drawn
DEST_BURN = 0
DEST_DEALER_UP = 1
DEST_DEALER_DOWN = 2
DEST_BOX = 10  # + 4 * (box - 1) + hand index
# record: a row per round (voided rounds included)
W_CARD_START, W_CARD_END, W_DEC_START, W_DEC_END, W_FIRST, W_LAST, W_VOID, W_CUT, W_SHOE = range(9)
W_NET = 9  # + box - 1: each box's net in minor units
W_SIZE = W_NET + MAX_BOXES

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


# --------------------------------------------------------------------------------------------------
# card values and totals


@njit(cache=True)
def _value(c):  # type: ignore[no-untyped-def]
    """0-9 for A, 2, …, 9 and the ten-value cards."""
    return min(c % 13, 9)


@njit(cache=True)
def _total(hard, ace):  # type: ignore[no-untyped-def]
    if ace and hard <= 11:
        return hard + 10
    return hard


# --------------------------------------------------------------------------------------------------
# rounds, chunk by chunk


@njit(cache=True, nogil=True)  # nogil: a Dask worker's threads play chunks side by side
def run_chunk(  # type: ignore[no-untyped-def]
    rp, A0, A1, P1, M, CD, LINKS, decks, rounds, rng, stats, hist, rec_cards, rec_dest, rec_dec, rec_rounds, rst
):
    """``rounds`` settled rounds from fresh shoes drawn with the generator state ``rng``.

    ``stats`` and ``hist`` (each box's net per round, minor units, offset ``rp[R_HIST_OFFSET]``) are
    filled in; with ``rp[R_RECORD]`` every card drawn (and its destination), every decision and every
    round (voided ones included) is written to the ``rec_`` arrays. ``rst``: cards recorded, decisions
    recorded, overflow flag, rounds recorded."""
    n = decks * 52
    shoe = np.empty(n, dtype=np.int8)
    for i in range(n):
        shoe[i] = i % 52
    sst = np.zeros(4, dtype=np.int64)
    H = np.zeros((MAX_BOXES, MAX_HANDS, F_SIZE), dtype=np.int64)
    HC = np.zeros((MAX_BOXES, MAX_HANDS, MAX_CARDS), dtype=np.int64)
    DC = np.zeros(MAX_CARDS, dtype=np.int64)
    dst = np.zeros(3, dtype=np.int64)
    nh = np.zeros(MAX_BOXES, dtype=np.int64)
    net = np.zeros(MAX_BOXES, dtype=np.int64)
    rc = np.zeros(S_SIZE, dtype=np.int64)

    # The round's steps are closures over the chunk's arrays: numba inlines them, so the hot path
    # passes no array from function to function (each such call costs reference counting).
    def new_shoe():  # type: ignore[no-untyped-def]
        """Start a new shoe: every card back (the array always holds the full shoe, and each draw is
        uniform among the undrawn cards whatever their order), the cut card placed."""
        sst[0] = 0
        sst[2] = 0
        mode = rp[R_CUT_MODE]
        if mode == 0:
            sst[1] = -1
        elif mode == 1:
            sst[1] = rp[R_CUT_A]
        else:
            low = rp[R_CUT_A]
            from_end = low + below(rng, rp[R_CUT_B] - low + 1)
            sst[1] = max(0, shoe.shape[0] - from_end)

    def draw(dest):  # type: ignore[no-untyped-def]
        """The next card of the lazily shuffled shoe; the cut card comes out with the card at position
        ``sst[1]``. An empty shoe voids the round (``sst[3]``): a ten stands in so that play still ends,
        and neither it nor any later decision is recorded."""
        pos = sst[0]
        n = shoe.shape[0]
        if pos >= n:
            sst[3] = 1
            return 9
        j = pos + below(rng, n - pos)
        c = shoe[j]
        shoe[j] = shoe[pos]
        shoe[pos] = c
        if pos == sst[1]:
            sst[2] = 1
        sst[0] = pos + 1
        if rp[R_RECORD]:
            i = rst[0]
            if i < rec_cards.shape[0]:
                rec_cards[i] = c
                rec_dest[i] = dest
                rst[0] = i + 1
            else:
                rst[2] = 1  # overflow: the record is incomplete
        return np.int64(c)

    def add(b, k, c):  # type: ignore[no-untyped-def]
        n = H[b, k, F_N]
        HC[b, k, n] = c
        H[b, k, F_N] = n + 1
        v = _value(c)
        H[b, k, F_HARD] += v + 1
        if v == 0:
            H[b, k, F_ACE] = 1
        comp = H[b, k, F_COMP]
        if comp >= 0:
            H[b, k, F_COMP] = LINKS[comp, v]

    def after_card(b, k):  # type: ignore[no-untyped-def]
        """Bust, bonus, 21, or split aces' one card (procedure._after_card)."""
        unit = rp[R_UNIT]
        n = H[b, k, F_N]
        t = _total(H[b, k, F_HARD], H[b, k, F_ACE])
        if t > 21:
            net[b] -= H[b, k, F_STAKE] * unit
            H[b, k, F_SETTLED] = 1
            H[b, k, F_DONE] = 1
            rc[S_BUSTS] += 1
            rc[S_LOSSES] += 1
            return
        if n == 3 and H[b, k, F_DBL] == 0:
            c0 = HC[b, k, 0]
            c1 = HC[b, k, 1]
            c2 = HC[b, k, 2]
            r0 = c0 % 13
            r1 = c1 % 13
            r2 = c2 % 13
            pay = -1
            lo = min(r0, min(r1, r2))
            hi = max(r0, max(r1, r2))
            if lo == 5 and hi == 7 and r0 + r1 + r2 == 18 and c0 // 13 == c1 // 13 and c1 // 13 == c2 // 13:
                pay = rp[R_B678]
                if pay >= 0:
                    rc[S_BONUS_678] += 1
            elif r0 == 6 and r1 == 6 and r2 == 6:
                pay = rp[R_B777]
                if pay >= 0:
                    rc[S_BONUS_777] += 1
            if pay >= 0:
                net[b] += pay * H[b, k, F_STAKE]
                H[b, k, F_SETTLED] = 1
                H[b, k, F_DONE] = 1
                rc[S_WINS] += 1
                return
        if t == 21:
            H[b, k, F_DONE] = 1
            return
        if H[b, k, F_SACES] and rp[R_ACES_ONE] and n == 2:
            pair = _value(HC[b, k, 0]) == _value(HC[b, k, 1])
            if not (rp[R_RESPLIT_ACES] and pair and nh[b] < rp[R_MAX_HANDS]):
                H[b, k, F_DONE] = 1

    def choose(b, k, u, decided):  # type: ignore[no-untyped-def]
        """The strategy's decision for hand ``k`` of box ``b`` against up-card value ``u``."""
        n = H[b, k, F_N]
        hard = H[b, k, F_HARD]
        ace = H[b, k, F_ACE]
        if n > 2:
            comp = H[b, k, F_COMP]
            if 0 <= comp < CD.shape[1]:
                return HIT if CD[u, comp] else STAND
            return M[u, _total(hard, ace), 1 if (ace and hard <= 11) else 0]
        c0 = HC[b, k, 0]
        c1 = HC[b, k, 1]
        x = _value(c0)
        y = _value(c1)
        s = 0
        if rp[R_SUITED] and x != y and 5 <= x <= 7 and 5 <= y <= 7 and c0 // 13 == c1 // 13:
            s = 1
        if H[b, k, F_SPLIT] == 0 and not decided:
            return A0[u, x, y, s]
        # a split hand: resplit where the strategy splits this pair and the rules still allow it
        if x == y and P1[u, x, y, s] and nh[b] < rp[R_MAX_HANDS] and (x != 0 or rp[R_RESPLIT_ACES]):
            return SPLIT
        if H[b, k, F_SACES] and rp[R_ACES_ONE]:
            return STAND  # a split ace that may resplit but does not: hit and double are refused (Art. 10)
        return A1[u, x, y, s]

    def dealer_add(c):  # type: ignore[no-untyped-def]
        DC[dst[0]] = c
        dst[0] += 1
        v = _value(c)
        dst[1] += v + 1
        if v == 0:
            dst[2] = 1

    boxes = rp[R_BOXES]
    offset = rp[R_HIST_OFFSET]
    record = rp[R_RECORD]
    shuffle_now = True
    first = True
    shoe_id = -1
    played = 0
    voids_in_a_row = 0
    while played < rounds:
        if shuffle_now:
            new_shoe()
            stats[S_SHOES] += 1
            shoe_id += 1
            first = True
            shuffle_now = False
        for i in range(S_SIZE):
            rc[i] = 0
        card_start = rst[0]
        dec_start = rst[1]
        position = sst[0]
        sst[3] = 0
        # one round, as procedure.run plays it
        boxes = rp[R_BOXES]
        unit = rp[R_UNIT]
        hole = rp[R_HOLE]
        for b in range(boxes):
            nh[b] = 1
            net[b] = 0
            for f in range(F_SIZE):
                H[b, 0, f] = 0
            H[b, 0, F_STAKE] = 1
        dst[0] = 0
        dst[1] = 0
        dst[2] = 0
        burns = rp[R_START_BURNS] if first else (0 if rp[R_METAL] else rp[R_BURN_EACH])
        for _ in range(burns):
            draw(DEST_BURN)
        if hole == 0:  # Art. 3.1a: two cards to each box, then the dealer's up-card
            for _ in range(2):
                for b in range(boxes):
                    c = draw(DEST_BOX + 4 * b)
                    add(b, 0, c)
            c = draw(DEST_DEALER_UP)
            dealer_add(c)
            if rp[R_METAL] or _value(c) == 0:  # Art. 3.1a ace exception; 3.1b one deck
                c = draw(DEST_DEALER_DOWN)
                dealer_add(c)
        else:  # online §3.4: box, dealer up, box, dealer hole
            for b in range(boxes):
                c = draw(DEST_BOX + 4 * b)
                add(b, 0, c)
            c = draw(DEST_DEALER_UP)
            dealer_add(c)
            for b in range(boxes):
                c = draw(DEST_BOX + 4 * b)
                add(b, 0, c)
            for _ in range(rp[R_BURN_SECOND]):
                draw(DEST_BURN)
            c = draw(DEST_DEALER_DOWN)
            dealer_add(c)
        for b in range(boxes):
            if H[b, 0, F_HARD] == 11 and H[b, 0, F_ACE]:
                H[b, 0, F_NAT] = 1
                H[b, 0, F_DONE] = 1
                rc[S_NATURALS] += 1
        u = _value(DC[0])
        peeks = (hole == 2 and u == 0) or (hole == 1 and (u == 0 or u == 9))
        if not (peeks and (dst[0] == 2 and dst[2] == 1 and dst[1] == 11)):
            # the boxes, from box 1 up, each hand to completion (Art. 3.2c; online §2.7)
            for b in range(boxes):
                decided = False
                k = 0
                while k < nh[b]:
                    if H[b, k, F_N] == 1:  # a split hand takes its second card when its turn comes
                        c = draw(DEST_BOX + 4 * b + k)
                        add(b, k, c)
                        after_card(b, k)
                    while H[b, k, F_DONE] == 0:
                        a = choose(b, k, u, decided)
                        decided = True
                        if record and sst[3] == 0:
                            i = rst[1]
                            if i < rec_dec.shape[0]:
                                rec_dec[i, 0] = b + 1
                                rec_dec[i, 1] = k
                                rec_dec[i, 2] = a
                                rst[1] = i + 1
                            else:
                                rst[2] = 1
                        if a == STAND:
                            H[b, k, F_DONE] = 1
                        elif a == HIT:
                            c = draw(DEST_BOX + 4 * b + k)
                            add(b, k, c)
                            after_card(b, k)
                        elif a == DOUBLE:
                            H[b, k, F_STAKE] *= 2
                            H[b, k, F_DBL] = 1
                            rc[S_DOUBLES] += 1
                            c = draw(DEST_BOX + 4 * b + k)
                            add(b, k, c)
                            after_card(b, k)
                            H[b, k, F_DONE] = 1
                        elif a == SPLIT:
                            rc[S_SPLITS] += 1
                            count = nh[b]
                            for j in range(count - 1, k, -1):  # the new hand goes right after this one
                                for f in range(F_SIZE):
                                    H[b, j + 1, f] = H[b, j, f]
                                for q in range(H[b, j, F_N]):
                                    HC[b, j + 1, q] = HC[b, j, q]
                            nh[b] = count + 1
                            moved = HC[b, k, 1]
                            aces = 1 if _value(HC[b, k, 0]) == 0 else 0
                            for f in range(F_SIZE):
                                H[b, k + 1, f] = 0
                            H[b, k + 1, F_STAKE] = 1
                            H[b, k + 1, F_SPLIT] = 1
                            H[b, k + 1, F_SACES] = aces
                            add(b, k + 1, moved)
                            v0 = _value(HC[b, k, 0])
                            H[b, k, F_N] = 1
                            H[b, k, F_HARD] = v0 + 1
                            H[b, k, F_ACE] = aces
                            H[b, k, F_SPLIT] = 1
                            H[b, k, F_SACES] = aces
                            H[b, k, F_COMP] = LINKS[0, v0]
                            c = draw(DEST_BOX + 4 * b + k)
                            add(b, k, c)
                            after_card(b, k)
                        else:  # surrender, Art. 12
                            net[b] -= unit // 2
                            H[b, k, F_SETTLED] = 1
                            H[b, k, F_DONE] = 1
                            rc[S_SURRENDERS] += 1
                            rc[S_LOSSES] += 1
                    k += 1
            # the dealer (procedure._dealer_play)
            moot = True
            for b in range(boxes):
                for k in range(nh[b]):
                    if H[b, k, F_SETTLED] == 0 and H[b, k, F_NAT] == 0:
                        moot = False
            stop_early = moot and not rp[R_DRAWS_MOOT]
            burn_before_extra = 0
            drew = True
            if dst[0] == 1:  # no hole card: the second card comes after play (Art. 3.1a)
                if stop_early:
                    drew = False
                else:
                    for _ in range(rp[R_BURN_SECOND]):
                        draw(DEST_BURN)
                    c = draw(DEST_DEALER_UP)
                    dealer_add(c)
            elif hole == 0 and not rp[R_METAL]:  # Art. 3.1a: the burn moves to the first extra card
                burn_before_extra = rp[R_BURN_SECOND]
            if drew and not (stop_early or (dst[0] == 2 and dst[2] == 1 and dst[1] == 11)):
                while True:
                    t = _total(dst[1], dst[2])
                    soft = dst[2] == 1 and dst[1] <= 11
                    if not (t < 17 or (t == 17 and soft and rp[R_H17])):
                        break
                    for _ in range(burn_before_extra):
                        draw(DEST_BURN)
                    burn_before_extra = 0
                    c = draw(DEST_DEALER_UP)
                    dealer_add(c)
        # settlement (procedure._settle_all)
        dealer_natural = dst[0] == 2 and dst[2] == 1 and dst[1] == 11
        dealer_points = _total(dst[1], dst[2])
        if dealer_natural:
            rc[S_DEALER_NATURALS] += 1
        elif dealer_points > 21:
            rc[S_DEALER_BUSTS] += 1
        takes_all = rp[R_TAKES_ALL]
        for b in range(boxes):
            owed = 1
            for k in range(nh[b]):
                rc[S_HANDS] += 1
                if H[b, k, F_SETTLED]:
                    continue
                stake = H[b, k, F_STAKE]
                natural = H[b, k, F_NAT] == 1
                if dealer_natural:
                    if natural:
                        rc[S_PUSHES] += 1
                        continue
                    if takes_all:
                        loss = stake
                    else:  # the box's unbusted hands together lose the original bet once
                        loss = min(owed, stake)
                        owed -= loss
                    net[b] -= loss * unit
                    if loss > 0:
                        rc[S_LOSSES] += 1
                    else:
                        rc[S_PUSHES] += 1
                    continue
                t = _total(H[b, k, F_HARD], H[b, k, F_ACE])
                if natural:
                    net[b] += rp[R_BJ] * stake
                    rc[S_WINS] += 1
                elif dealer_points > 21 or t > dealer_points:
                    net[b] += stake * unit
                    rc[S_WINS] += 1
                elif t == dealer_points:
                    rc[S_PUSHES] += 1
                else:
                    net[b] -= stake * unit
                    rc[S_LOSSES] += 1
        result = -1 if sst[3] else 0
        stats[S_CARDS] += sst[0] - position
        last = result < 0 or sst[2] == 1 or rp[R_METAL] == 1 or rp[R_CONTINUOUS] == 1
        if record:
            w = rst[3]
            if w < rec_rounds.shape[0]:
                rec_rounds[w, W_CARD_START] = card_start
                rec_rounds[w, W_CARD_END] = rst[0]
                rec_rounds[w, W_DEC_START] = dec_start
                rec_rounds[w, W_DEC_END] = rst[1]
                rec_rounds[w, W_FIRST] = 1 if first else 0
                rec_rounds[w, W_LAST] = 1 if last else 0
                rec_rounds[w, W_VOID] = 1 if result < 0 else 0
                rec_rounds[w, W_CUT] = sst[1]
                rec_rounds[w, W_SHOE] = shoe_id
                for b in range(MAX_BOXES):
                    rec_rounds[w, W_NET + b] = net[b] if (b < boxes and result == 0) else 0
                rst[3] = w + 1
            else:
                rst[2] = 1
        first = False
        shuffle_now = last
        if result < 0:  # the shoe ran out: the round is void and dealt again from a new shoe
            stats[S_VOIDS] += 1
            voids_in_a_row += 1
            if voids_in_a_row > 1000:
                raise ValueError("the shoe runs out in every round: too few cards for these rules")
            continue
        voids_in_a_row = 0
        played += 1
        total = 0
        for b in range(boxes):
            x = net[b]
            total += x
            stats[S_BOX2] += x * x
            j = x + offset
            if 0 <= j < hist.shape[0]:
                hist[j] += 1
        stats[S_NET] += total
        stats[S_NET2] += total * total
        for i in range(S_HANDS, S_VOIDS):
            stats[i] += rc[i]
    stats[S_ROUNDS] += played


@njit(cache=True, parallel=True)
def run_chunks(rp, A0, A1, P1, M, CD, LINKS, decks, sizes, first_chunk, seed, stats, hist):  # type: ignore[no-untyped-def]
    """Chunks ``first_chunk + i`` of ``sizes[i]`` rounds each, one per thread at a time (no record).

    Each chunk has its own generator stream and writes only its own rows, so the result does not
    depend on the number of threads."""
    empty8 = np.zeros(1, dtype=np.int8)
    for i in prange(sizes.shape[0]):
        rng = seed_state(seed, first_chunk + i)
        dest = np.zeros(1, dtype=np.int64)
        dec = np.zeros((1, 3), dtype=np.int64)
        rows = np.zeros((1, W_SIZE), dtype=np.int64)
        rst = np.zeros(4, dtype=np.int64)
        run_chunk(rp, A0, A1, P1, M, CD, LINKS, decks, sizes[i], rng, stats[i], hist[i], empty8, dest, dec, rows, rst)


# --------------------------------------------------------------------------------------------------
# the strategy by composition


@njit(cache=True)
def hit_by_composition(cards, size, hard, plus, hands, dmat, shoe, infinite, peek):  # type: ignore[no-untyped-def]
    """``out[u, r]``: 1 where the hand of composition ``r`` hits against up-card ``u``, else 0.

    The recursion of :func:`croupier.math.bj_kernels.solve` for hit or stand (its ``cont_v``), with its
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
