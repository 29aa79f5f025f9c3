# mypy: disable-error-code="no-untyped-call"
# (the round's steps are untyped numba functions that call one another)
"""Compiled kernels of the blackjack simulator (numba): the shoe and one round, step by step.

Everything here works on integers: cards are codes ``suit * 13 + rank`` (the order of
:attr:`croupier.cards.Card.index`: suits S H D C, ranks A 2 … 9 T J Q K), money is counted in minor
units (``unit`` of them make one unit of bet, chosen so that every payment of the rules is a whole
number of them), and the statistics are integer sums. :mod:`croupier.sim.blackjack` builds the
inputs and reads the outputs.

The generator is :mod:`croupier.sim.generator`; shoes are shuffled by Fisher–Yates performed lazily
(each card drawn is uniform among the cards not yet drawn: :func:`draw`).

The round follows :func:`croupier.blackjack.procedure.run` step by step (burns, deal order, hole-card
models, peek, boxes from box 1 up, split hands in order, the dealer, settlement), each step a small
compiled function named after it: :func:`deal`, :func:`play_box` (:func:`choose`, :func:`act`,
:func:`split`, :func:`after_card`), :func:`dealer_play`, :func:`settle`. A rule of the engine changes
only together with this file, and the twin test (``tests/sim``) replays the simulator's rounds through
the engine to prove them identical.

The state record
----------------

A chunk's whole state is a few plain arrays, made once by :func:`run_chunk` and passed explicitly to
each step (no step captures anything); named index constants say what each entry holds.

``rp``: int64[R_SIZE]
    The rule parameters, ``R_*`` (built by :func:`croupier.sim.blackjack.rule_parameters`).
``strategy``: the tuple ``(A0, A1, P1, M, CD, LINKS)`` (:class:`croupier.sim.charts.Strategy`)
    ``A0[u, x, y, s]`` a box's first decision on two cards of values ``x``, ``y`` (``s``: suited
    6-7-8 apart) against up-card ``u``; ``A1`` the same for a split hand; ``P1`` 1 where a split hand
    resplits; ``M[u, total, soft]`` hit or stand by total; ``CD[u, comp]`` hit (1) or stand by the
    hand's exact cards, ``comp`` a composition number; ``LINKS[comp, v]`` the composition one card of
    value ``v`` longer (``LINKS[0]``: the one-card hands), -1 where none is listed.
``shoe``: int8[decks * 52] and ``rng``: uint64[4]
    The cards, drawn (positions below ``T[T_POS]``) then undrawn; the generator's state.
``T``: int64[T_SIZE], the table
    ``T_POS`` cards drawn from this shoe; ``T_CUT`` the cut card's position (-1: none); ``T_CUT_OUT``
    1 once it came out; ``T_VOID`` 1 when this round found the shoe empty; ``T_HANDS + b`` how many
    hands box ``b`` (0-based) holds; ``T_NET + b`` box ``b``'s net this round, minor units.
``H``: int64[ROWS, MAX_HANDS, F_SIZE], the hands
    Row ``b < MAX_BOXES`` holds box ``b``'s hands in play order; row :data:`DEALER` hand 0 is the
    dealer's (its ``F_COMP`` is -1). Fields ``F_*``: cards, hard total (aces as 1), holds an ace,
    stake (units), a split hand, a split-aces hand, doubled, done, settled, a natural, composition.
``C``: int64[ROWS, MAX_HANDS, MAX_CARDS]
    Each hand's cards in the order received.
``rc``: int64[S_SIZE]
    This round's counts (the ``S_*`` layout), added to ``stats`` only when the round is not void.
``stats``: int64[S_SIZE], ``hist``: int64[…]
    The chunk's statistics row and its histogram of each box's net (offset ``rp[R_HIST_OFFSET]``).
``rec``: the tuple ``(cards, dest, decisions, rounds, rst)``
    The record (with ``rp[R_RECORD]``): each card drawn and its destination (``DEST_*``), each
    decision ``(box, hand, option)``, a row per round (``W_*``); ``rst`` the entries written
    (``RST_*``) and an overflow flag.

Every step is inlined into :func:`play_chunk` (``inline="always"``), which takes the record as
borrowed views (:mod:`croupier.sim.borrowed`), so passing the arrays costs nothing at run time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from croupier.codes import ACE, DOUBLE, HIT, SPLIT, STAND, SURRENDER, TEN
from croupier.sim.borrowed import borrow
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

# the table: indexes into the int64 array ``T``
T_POS = 0
T_CUT = 1
T_CUT_OUT = 2
T_VOID = 3
MAX_BOXES = 7
T_HANDS = 4  # + box
T_NET = T_HANDS + MAX_BOXES  # + box
T_SIZE = T_NET + MAX_BOXES

# hand fields: H[row, hand, field]
F_N, F_HARD, F_ACE, F_STAKE, F_SPLIT, F_SACES, F_DBL, F_DONE, F_SETTLED, F_NAT, F_COMP = range(11)
F_SIZE = 11
DEALER = MAX_BOXES  # the dealer's row of H and C
ROWS = MAX_BOXES + 1
MAX_HANDS = 4
MAX_CARDS = 24

# statistics: indexes into a chunk's int64 row
S_ROUNDS = 0
S_NET = 1  # sum of every box's net, minor units
S_NET2 = 2  # sum over rounds of (the round's net over all boxes) squared
S_BOX2 = 3  # sum over boxes and rounds of a box's net squared
# counts: hands; naturals; dealer naturals; busts; dealer busts; doubles; splits; surrenders; bonuses;
# hands won, pushed, lost; voided rounds; shoes; cards drawn
S_HANDS, S_NATURALS, S_DEALER_NATURALS, S_BUSTS, S_DEALER_BUSTS, S_DOUBLES, S_SPLITS, S_SURRENDERS = range(4, 12)
S_BONUS_678, S_BONUS_777, S_WINS, S_PUSHES, S_LOSSES, S_VOIDS, S_SHOES, S_CARDS = range(12, 20)
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
# record: entries written, ``rst``
RST_CARDS, RST_DECISIONS, RST_OVERFLOW, RST_ROUNDS = range(4)
RST_SIZE = 4
MAX_VOIDS_IN_A_ROW = 1000


# --------------------------------------------------------------------------------------------------
# cards and hands


@njit(cache=True, inline="always")
def value(c):  # type: ignore[no-untyped-def]
    """0-9 for A, 2, …, 9 and the ten-value cards."""
    return min(c % 13, TEN)


@njit(cache=True, inline="always")
def total(hard, ace):  # type: ignore[no-untyped-def]
    """A hand's total: an ace counts 11 where that does not bust it."""
    if ace and hard <= 11:
        return hard + 10
    return hard


@njit(cache=True, inline="always")
def is_natural(H, row, k):  # type: ignore[no-untyped-def]
    """Two cards, an ace and a ten-value card."""
    return H[row, k, F_N] == 2 and H[row, k, F_ACE] == 1 and H[row, k, F_HARD] == 11


# --------------------------------------------------------------------------------------------------
# the shoe and the record


@njit(cache=True, inline="always")
def new_shoe(rp, shoe, rng, T):  # type: ignore[no-untyped-def]
    """Start a new shoe: every card back (the array always holds the full shoe, and each draw is
    uniform among the undrawn cards whatever their order), the cut card placed."""
    T[T_POS] = 0
    T[T_CUT_OUT] = 0
    mode = rp[R_CUT_MODE]
    if mode == 0:
        T[T_CUT] = -1
    elif mode == 1:
        T[T_CUT] = rp[R_CUT_A]
    else:
        low = rp[R_CUT_A]
        from_end = low + below(rng, rp[R_CUT_B] - low + 1)
        T[T_CUT] = max(0, shoe.shape[0] - from_end)


@njit(cache=True, inline="always")
def draw(rp, shoe, rng, T, rec, dest):  # type: ignore[no-untyped-def]
    """The next card of the lazily shuffled shoe; the cut card comes out with the card at position
    ``T[T_CUT]``. An empty shoe voids the round (``T[T_VOID]``): a ten stands in so that play still
    ends, and neither it nor any later decision is recorded."""
    pos = T[T_POS]
    n = shoe.shape[0]
    if pos >= n:
        T[T_VOID] = 1
        return np.int64(TEN)
    j = pos + below(rng, n - pos)
    c = shoe[j]
    shoe[j] = shoe[pos]
    shoe[pos] = c
    if pos == T[T_CUT]:
        T[T_CUT_OUT] = 1
    T[T_POS] = pos + 1
    if rp[R_RECORD]:
        record_card(rec, c, dest)
    return np.int64(c)


@njit(cache=True, inline="always")
def burn(rp, shoe, rng, T, rec, count):  # type: ignore[no-untyped-def]
    for _ in range(count):
        draw(rp, shoe, rng, T, rec, DEST_BURN)


@njit(cache=True, inline="always")
def record_card(rec, c, dest):  # type: ignore[no-untyped-def]
    cards, dests, _, _, rst = rec
    i = rst[RST_CARDS]
    if i < cards.shape[0]:
        cards[i] = c
        dests[i] = dest
        rst[RST_CARDS] = i + 1
    else:
        rst[RST_OVERFLOW] = 1  # the record is incomplete


@njit(cache=True, inline="always")
def record_decision(rec, b, k, a):  # type: ignore[no-untyped-def]
    _, _, decisions, _, rst = rec
    i = rst[RST_DECISIONS]
    if i < decisions.shape[0]:
        decisions[i, 0] = b + 1
        decisions[i, 1] = k
        decisions[i, 2] = a
        rst[RST_DECISIONS] = i + 1
    else:
        rst[RST_OVERFLOW] = 1


@njit(cache=True, inline="always")
def record_round(rp, T, rec, card_start, dec_start, first, last, shoe_id):  # type: ignore[no-untyped-def]
    """A row of ``W_*`` for the round just played (a voided one too: its nets are 0)."""
    _, _, _, rows, rst = rec
    w = rst[RST_ROUNDS]
    if w >= rows.shape[0]:
        rst[RST_OVERFLOW] = 1
        return
    void = T[T_VOID] != 0
    rows[w, W_CARD_START] = card_start
    rows[w, W_CARD_END] = rst[RST_CARDS]
    rows[w, W_DEC_START] = dec_start
    rows[w, W_DEC_END] = rst[RST_DECISIONS]
    rows[w, W_FIRST] = 1 if first else 0
    rows[w, W_LAST] = 1 if last else 0
    rows[w, W_VOID] = 1 if void else 0
    rows[w, W_CUT] = T[T_CUT]
    rows[w, W_SHOE] = shoe_id
    for b in range(MAX_BOXES):
        rows[w, W_NET + b] = T[T_NET + b] if (b < rp[R_BOXES] and not void) else 0
    rst[RST_ROUNDS] = w + 1


@njit(cache=True, inline="always")
def add_card(H, C, LINKS, row, k, c):  # type: ignore[no-untyped-def]
    """Card ``c`` to hand ``k`` of ``row``: its cards, totals and composition."""
    n = H[row, k, F_N]
    C[row, k, n] = c
    H[row, k, F_N] = n + 1
    v = value(c)
    H[row, k, F_HARD] += v + 1
    if v == ACE:
        H[row, k, F_ACE] = 1
    comp = H[row, k, F_COMP]
    if comp >= 0:
        H[row, k, F_COMP] = LINKS[comp, v]


@njit(cache=True, inline="always")
def deal_card(rp, strategy, shoe, rng, T, rec, H, C, row, k, dest):  # type: ignore[no-untyped-def]
    """Draw a card for hand ``k`` of ``row`` (a box, or the dealer with ``dest`` face up or down) and
    add it; return the card."""
    c = draw(rp, shoe, rng, T, rec, dest)
    add_card(H, C, strategy[5], row, k, c)
    return c


@njit(cache=True, inline="always")
def box_destination(b, k):  # type: ignore[no-untyped-def]
    """The record's destination code of hand ``k`` of box ``b`` (0-based)."""
    return DEST_BOX + 4 * b + k


@njit(cache=True, inline="always")
def bonus_payment(rp, C, rc, b, k):  # type: ignore[no-untyped-def]
    """A three-card hand's bonus payment per unit of stake, minor units (suited 6-7-8, 7-7-7), -1: none."""
    c0 = C[b, k, 0]
    c1 = C[b, k, 1]
    c2 = C[b, k, 2]
    r0 = c0 % 13
    r1 = c1 % 13
    r2 = c2 % 13
    lo = min(r0, min(r1, r2))
    hi = max(r0, max(r1, r2))
    if lo == 5 and hi == 7 and r0 + r1 + r2 == 18 and c0 // 13 == c1 // 13 and c1 // 13 == c2 // 13:
        pay = rp[R_B678]
        if pay >= 0:
            rc[S_BONUS_678] += 1
        return pay
    if r0 == 6 and r1 == 6 and r2 == 6:
        pay = rp[R_B777]
        if pay >= 0:
            rc[S_BONUS_777] += 1
        return pay
    return np.int64(-1)


@njit(cache=True, inline="always")
def after_card(rp, T, H, C, rc, b, k):  # type: ignore[no-untyped-def]
    """Bust, bonus, 21, or split aces' one card (procedure._after_card)."""
    n = H[b, k, F_N]
    t = total(H[b, k, F_HARD], H[b, k, F_ACE])
    if t > 21:
        T[T_NET + b] -= H[b, k, F_STAKE] * rp[R_UNIT]
        H[b, k, F_SETTLED] = 1
        H[b, k, F_DONE] = 1
        rc[S_BUSTS] += 1
        rc[S_LOSSES] += 1
        return
    if n == 3 and H[b, k, F_DBL] == 0:
        pay = bonus_payment(rp, C, rc, b, k)
        if pay >= 0:
            T[T_NET + b] += pay * H[b, k, F_STAKE]
            H[b, k, F_SETTLED] = 1
            H[b, k, F_DONE] = 1
            rc[S_WINS] += 1
            return
    if t == 21:
        H[b, k, F_DONE] = 1
        return
    if H[b, k, F_SACES] and rp[R_ACES_ONE] and n == 2:
        pair = value(C[b, k, 0]) == value(C[b, k, 1])
        if not (rp[R_RESPLIT_ACES] and pair and T[T_HANDS + b] < rp[R_MAX_HANDS]):
            H[b, k, F_DONE] = 1


@njit(cache=True, inline="always")
def choose(rp, strategy, T, H, C, b, k, u, decided):  # type: ignore[no-untyped-def]
    """The strategy's decision for hand ``k`` of box ``b`` against up-card value ``u``; ``decided``:
    the box made a decision before (its first two-card decision is ``A0``'s)."""
    A0, A1, P1, M, CD, _ = strategy
    n = H[b, k, F_N]
    hard = H[b, k, F_HARD]
    ace = H[b, k, F_ACE]
    if n > 2:
        comp = H[b, k, F_COMP]
        if 0 <= comp < CD.shape[1]:
            return HIT if CD[u, comp] else STAND
        return M[u, total(hard, ace), 1 if (ace and hard <= 11) else 0]
    c0 = C[b, k, 0]
    c1 = C[b, k, 1]
    x = value(c0)
    y = value(c1)
    s = 0
    if rp[R_SUITED] and x != y and 5 <= x <= 7 and 5 <= y <= 7 and c0 // 13 == c1 // 13:
        s = 1
    if H[b, k, F_SPLIT] == 0 and not decided:
        return A0[u, x, y, s]
    # a split hand: resplit where the strategy splits this pair and the rules still allow it
    if x == y and P1[u, x, y, s] and T[T_HANDS + b] < rp[R_MAX_HANDS] and (x != ACE or rp[R_RESPLIT_ACES]):
        return SPLIT
    if H[b, k, F_SACES] and rp[R_ACES_ONE]:
        return STAND  # a split ace that may resplit but does not: hit and double are refused (Art. 10)
    return A1[u, x, y, s]


@njit(cache=True, inline="always")
def split(strategy, T, H, C, b, k):  # type: ignore[no-untyped-def]
    """Hand ``k`` of box ``b`` splits: its second card starts a new hand right after it."""
    LINKS = strategy[5]
    count = T[T_HANDS + b]
    for j in range(count - 1, k, -1):
        for f in range(F_SIZE):
            H[b, j + 1, f] = H[b, j, f]
        for q in range(H[b, j, F_N]):
            C[b, j + 1, q] = C[b, j, q]
    T[T_HANDS + b] = count + 1
    moved = C[b, k, 1]
    v0 = value(C[b, k, 0])
    aces = 1 if v0 == ACE else 0
    for f in range(F_SIZE):
        H[b, k + 1, f] = 0
    H[b, k + 1, F_STAKE] = 1
    H[b, k + 1, F_SPLIT] = 1
    H[b, k + 1, F_SACES] = aces
    add_card(H, C, LINKS, b, k + 1, moved)
    H[b, k, F_N] = 1
    H[b, k, F_HARD] = v0 + 1
    H[b, k, F_ACE] = aces
    H[b, k, F_SPLIT] = 1
    H[b, k, F_SACES] = aces
    H[b, k, F_COMP] = LINKS[0, v0]


@njit(cache=True, inline="always")
def act(rp, strategy, shoe, rng, T, rec, H, C, rc, b, k, a):  # type: ignore[no-untyped-def]
    """Hand ``k`` of box ``b`` takes option ``a``."""
    if a == STAND:
        H[b, k, F_DONE] = 1
        return
    if a == SURRENDER:  # Art. 12
        T[T_NET + b] -= rp[R_UNIT] // 2
        H[b, k, F_SETTLED] = 1
        H[b, k, F_DONE] = 1
        rc[S_SURRENDERS] += 1
        rc[S_LOSSES] += 1
        return
    if a == DOUBLE:
        H[b, k, F_STAKE] *= 2
        H[b, k, F_DBL] = 1
        rc[S_DOUBLES] += 1
    elif a == SPLIT:
        rc[S_SPLITS] += 1
        split(strategy, T, H, C, b, k)
    deal_card(rp, strategy, shoe, rng, T, rec, H, C, b, k, box_destination(b, k))  # hit, double, split
    after_card(rp, T, H, C, rc, b, k)
    if a == DOUBLE:
        H[b, k, F_DONE] = 1


@njit(cache=True, inline="always")
def play_box(rp, strategy, shoe, rng, T, rec, H, C, rc, b, u):  # type: ignore[no-untyped-def]
    """Box ``b``'s hands, each to completion in order (Art. 3.2c; online §2.7)."""
    decided = False
    k = 0
    while k < T[T_HANDS + b]:
        if H[b, k, F_N] == 1:  # a split hand takes its second card when its turn comes
            deal_card(rp, strategy, shoe, rng, T, rec, H, C, b, k, box_destination(b, k))
            after_card(rp, T, H, C, rc, b, k)
        while H[b, k, F_DONE] == 0:
            a = choose(rp, strategy, T, H, C, b, k, u, decided)
            decided = True
            if rp[R_RECORD] and T[T_VOID] == 0:
                record_decision(rec, b, k, a)
            act(rp, strategy, shoe, rng, T, rec, H, C, rc, b, k, a)
        k += 1


# --------------------------------------------------------------------------------------------------
# one round, as procedure.run plays it


@njit(cache=True, inline="always")
def start_round(rp, T, H):  # type: ignore[no-untyped-def]
    """One hand of one unit on each box, the dealer's hand empty, the round not void."""
    T[T_VOID] = 0
    for b in range(rp[R_BOXES]):
        T[T_HANDS + b] = 1
        T[T_NET + b] = 0
        for f in range(F_SIZE):
            H[b, 0, f] = 0
        H[b, 0, F_STAKE] = 1
    for f in range(F_SIZE):
        H[DEALER, 0, f] = 0
    H[DEALER, 0, F_COMP] = -1


@njit(cache=True, inline="always")
def deal(rp, strategy, shoe, rng, T, rec, H, C, rc, first):  # type: ignore[no-untyped-def]
    """The round's burns and first cards; the boxes' naturals are marked."""
    boxes = rp[R_BOXES]
    burn(rp, shoe, rng, T, rec, rp[R_START_BURNS] if first else (0 if rp[R_METAL] else rp[R_BURN_EACH]))
    if rp[R_HOLE] == 0:  # Art. 3.1a: two cards to each box, then the dealer's up-card
        for _ in range(2):
            for b in range(boxes):
                deal_card(rp, strategy, shoe, rng, T, rec, H, C, b, 0, box_destination(b, 0))
        c = deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_UP)
        if rp[R_METAL] or value(c) == ACE:  # Art. 3.1a ace exception; 3.1b one deck
            deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_DOWN)
    else:  # online §3.4: box, dealer up, box, dealer hole
        for b in range(boxes):
            deal_card(rp, strategy, shoe, rng, T, rec, H, C, b, 0, box_destination(b, 0))
        deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_UP)
        for b in range(boxes):
            deal_card(rp, strategy, shoe, rng, T, rec, H, C, b, 0, box_destination(b, 0))
        burn(rp, shoe, rng, T, rec, rp[R_BURN_SECOND])
        deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_DOWN)
    for b in range(boxes):
        if is_natural(H, b, 0):
            H[b, 0, F_NAT] = 1
            H[b, 0, F_DONE] = 1
            rc[S_NATURALS] += 1


@njit(cache=True, inline="always")
def all_settled(rp, T, H):  # type: ignore[no-untyped-def]
    """Every hand is settled already or a natural: the dealer's hand cannot change a result."""
    for b in range(rp[R_BOXES]):
        for k in range(T[T_HANDS + b]):
            if H[b, k, F_SETTLED] == 0 and H[b, k, F_NAT] == 0:
                return False
    return True


@njit(cache=True, inline="always")
def dealer_play(rp, strategy, shoe, rng, T, rec, H, C):  # type: ignore[no-untyped-def]
    """The dealer's second card where it comes after play, then the dealer's drawing
    (procedure._dealer_play)."""
    stop_early = all_settled(rp, T, H) and not rp[R_DRAWS_MOOT]
    burn_before_extra = 0
    if H[DEALER, 0, F_N] == 1:  # no hole card: the second card comes after play (Art. 3.1a)
        if stop_early:
            return
        burn(rp, shoe, rng, T, rec, rp[R_BURN_SECOND])
        deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_UP)
    elif rp[R_HOLE] == 0 and not rp[R_METAL]:  # Art. 3.1a: the burn moves to the first extra card
        burn_before_extra = rp[R_BURN_SECOND]
    if stop_early or is_natural(H, DEALER, 0):
        return
    while True:
        hard = H[DEALER, 0, F_HARD]
        soft = H[DEALER, 0, F_ACE] == 1 and hard <= 11
        t = total(hard, H[DEALER, 0, F_ACE])
        if not (t < 17 or (t == 17 and soft and rp[R_H17])):
            return
        burn(rp, shoe, rng, T, rec, burn_before_extra)
        burn_before_extra = 0
        deal_card(rp, strategy, shoe, rng, T, rec, H, C, DEALER, 0, DEST_DEALER_UP)


@njit(cache=True, inline="always")
def settle(rp, T, H, rc):  # type: ignore[no-untyped-def]
    """Each hand not yet settled against the dealer's (procedure._settle_all)."""
    dealer_natural = is_natural(H, DEALER, 0)
    dealer_points = total(H[DEALER, 0, F_HARD], H[DEALER, 0, F_ACE])
    if dealer_natural:
        rc[S_DEALER_NATURALS] += 1
    elif dealer_points > 21:
        rc[S_DEALER_BUSTS] += 1
    unit = rp[R_UNIT]
    for b in range(rp[R_BOXES]):
        owed = 1
        for k in range(T[T_HANDS + b]):
            rc[S_HANDS] += 1
            if H[b, k, F_SETTLED]:
                continue
            stake = H[b, k, F_STAKE]
            natural = H[b, k, F_NAT] == 1
            if dealer_natural:
                if natural:
                    rc[S_PUSHES] += 1
                    continue
                if rp[R_TAKES_ALL]:
                    loss = stake
                else:  # the box's unbusted hands together lose the original bet once
                    loss = min(owed, stake)
                    owed -= loss
                T[T_NET + b] -= loss * unit
                rc[S_LOSSES if loss > 0 else S_PUSHES] += 1
                continue
            t = total(H[b, k, F_HARD], H[b, k, F_ACE])
            if natural:
                T[T_NET + b] += rp[R_BJ] * stake
                rc[S_WINS] += 1
            elif dealer_points > 21 or t > dealer_points:
                T[T_NET + b] += stake * unit
                rc[S_WINS] += 1
            elif t == dealer_points:
                rc[S_PUSHES] += 1
            else:
                T[T_NET + b] -= stake * unit
                rc[S_LOSSES] += 1


@njit(cache=True, inline="always")
def play_round(rp, strategy, shoe, rng, T, rec, H, C, rc, first):  # type: ignore[no-untyped-def]
    """One round, as procedure.run plays it: the deal, the peek, the boxes from box 1 up, the dealer,
    the settlement. ``T[T_VOID]`` tells whether the shoe ran out."""
    start_round(rp, T, H)
    deal(rp, strategy, shoe, rng, T, rec, H, C, rc, first)
    u = value(C[DEALER, 0, 0])
    hole = rp[R_HOLE]
    peeks = (hole == 2 and u == ACE) or (hole == 1 and u in (ACE, TEN))
    if not (peeks and is_natural(H, DEALER, 0)):
        for b in range(rp[R_BOXES]):
            play_box(rp, strategy, shoe, rng, T, rec, H, C, rc, b, u)
        dealer_play(rp, strategy, shoe, rng, T, rec, H, C)
    settle(rp, T, H, rc)


@njit(cache=True, inline="always")
def add_round(rp, T, rc, stats, hist):  # type: ignore[no-untyped-def]
    """A settled round's results into the chunk's statistics and histogram."""
    total_net = 0
    offset = rp[R_HIST_OFFSET]
    for b in range(rp[R_BOXES]):
        x = T[T_NET + b]
        total_net += x
        stats[S_BOX2] += x * x
        j = x + offset
        if 0 <= j < hist.shape[0]:
            hist[j] += 1
    stats[S_NET] += total_net
    stats[S_NET2] += total_net * total_net
    for i in range(S_HANDS, S_VOIDS):
        stats[i] += rc[i]


# --------------------------------------------------------------------------------------------------
# rounds, chunk by chunk


@njit(cache=True, nogil=True)  # nogil: a Dask worker's threads play chunks side by side
def run_chunk(  # type: ignore[no-untyped-def]
    rp, A0, A1, P1, M, CD, LINKS, decks, rounds, rng, stats, hist, rec_cards, rec_dest, rec_dec, rec_rounds, rst
):
    """``rounds`` settled rounds from fresh shoes drawn with the generator state ``rng``.

    ``stats`` and ``hist`` (each box's net per round, minor units, offset ``rp[R_HIST_OFFSET]``) are
    filled in; with ``rp[R_RECORD]`` every card drawn (and its destination), every decision and every
    round (voided ones included) is written to the ``rec_`` arrays. ``rst``: ``RST_*``, the cards,
    decisions and rounds recorded and the overflow flag."""
    n = decks * 52
    shoe = np.empty(n, dtype=np.int8)
    for i in range(n):
        shoe[i] = i % 52
    T = np.zeros(T_SIZE, dtype=np.int64)
    H = np.zeros((ROWS, MAX_HANDS, F_SIZE), dtype=np.int64)
    C = np.zeros((ROWS, MAX_HANDS, MAX_CARDS), dtype=np.int64)
    rc = np.zeros(S_SIZE, dtype=np.int64)
    play_chunk(
        rp, A0, A1, P1, M, CD, LINKS, rounds, rng, stats, hist, rec_cards, rec_dest, rec_dec, rec_rounds, rst, shoe,
        T, H, C, rc,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def play_chunk(  # type: ignore[no-untyped-def]
    rp, A0, A1, P1, M, CD, LINKS, rounds, rng, stats, hist, rec_cards, rec_dest, rec_dec, rec_rounds, rst, shoe,
    T, H, C, rc,
):  # fmt: skip
    """The rounds of :func:`run_chunk`, over its state record (the arrays it made), borrowed
    (:func:`croupier.sim.borrowed.borrow`: run_chunk holds them until this returns)."""
    rp, rng, stats, hist, rst, shoe, T, H, C, rc = (
        borrow(rp), borrow(rng), borrow(stats), borrow(hist), borrow(rst), borrow(shoe), borrow(T), borrow(H),
        borrow(C), borrow(rc),
    )  # fmt: skip
    strategy = (borrow(A0), borrow(A1), borrow(P1), borrow(M), borrow(CD), borrow(LINKS))
    rec = (borrow(rec_cards), borrow(rec_dest), borrow(rec_dec), borrow(rec_rounds), rst)
    shuffle_now = True
    first = True
    shoe_id = -1
    played = 0
    voids_in_a_row = 0
    while played < rounds:
        if shuffle_now:
            new_shoe(rp, shoe, rng, T)
            stats[S_SHOES] += 1
            shoe_id += 1
            first = True
        rc[:] = 0
        card_start = rst[RST_CARDS]
        dec_start = rst[RST_DECISIONS]
        position = T[T_POS]
        play_round(rp, strategy, shoe, rng, T, rec, H, C, rc, first)
        stats[S_CARDS] += T[T_POS] - position
        void = T[T_VOID] != 0
        last = void or T[T_CUT_OUT] == 1 or rp[R_METAL] == 1 or rp[R_CONTINUOUS] == 1
        if rp[R_RECORD]:
            record_round(rp, T, rec, card_start, dec_start, first, last, shoe_id)
        first = False
        shuffle_now = last
        if void:  # the shoe ran out: the round is void and dealt again from a new shoe
            stats[S_VOIDS] += 1
            voids_in_a_row += 1
            if voids_in_a_row > MAX_VOIDS_IN_A_ROW:
                raise ValueError("the shoe runs out in every round: too few cards for these rules")
            continue
        voids_in_a_row = 0
        played += 1
        add_round(rp, T, rc, stats, hist)
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
        rst = np.zeros(RST_SIZE, dtype=np.int64)
        run_chunk(rp, A0, A1, P1, M, CD, LINKS, decks, sizes[i], rng, stats[i], hist[i], empty8, dest, dec, rows, rst)
