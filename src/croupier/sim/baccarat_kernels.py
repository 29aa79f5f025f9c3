# mypy: disable-error-code="no-untyped-call"
# (the coup's steps are untyped numba functions that call one another)
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
turned into float64 expected values only at the end. It lives in :mod:`croupier.sim.baccarat_count`.

The state record
----------------

A chunk's state is a few plain arrays, made once by :func:`run_chunk` and passed explicitly to each
step (no step captures anything), with named indexes:

``rp``: int64[R_SIZE] the rule parameters (``R_*``); ``tableau``: the tuple ``(nat, pdraw, bstood,
bthird)``, Art. 9 as lookup arrays; ``shoe``: int8[decks * 52] and ``rng``: uint64[4], the cards and
the generator's state.

``T``: int64[T_SIZE], the table
    ``T_POS`` cards drawn from this shoe; ``T_CUT`` the cut card's position (-1: none);
    ``T_CUT_COUP`` the coup during which it came out (-1: not yet); ``T_COUP`` the coup under way
    (0 while the shoe-start cards are drawn); ``T_SHOE`` the shoe's number in the chunk; ``T_DONE``
    coups with bets played in the chunk; ``T_EMPTY`` shoes in a row without a coup with bets.
``K``: int64[K_SIZE, 13], cards by rank
    ``K_LEFT`` left in the shoe; ``K_HIDDEN`` burned face down this shoe; ``K_VIEW`` the
    composition the live edges count (left, plus hidden in the ``unseen`` view).
``X``: int64[X_SIZE], the coup dealt
    ``X_PT``, ``X_BT`` the final points; ``X_PCARDS``, ``X_BCARDS`` the cards of each hand;
    ``X_PPAIR``, ``X_BPAIR`` 1 for a pair; ``X_WINNER`` 0 banker, 1 player, 2 tie.
``g``: int64[SPOTS]
    The coup's gain on a one-unit stake on each spot, minor units (0 for a demonstration coup).
``live``: the tuple ``(counts, num, ev)``
    The live count before the deal (``C_*``), each spot's exact numerator and its value per unit.
``stats``: int64[S_SIZE], ``fstats``: float64[F_SIZE]
    The chunk's statistics rows.
``rec``: the tuple ``(cards, dest, rows, ev, rst)``
    The record (with ``rp[R_RECORD]``): each card and its destination (``D_*``), a row per coup
    (``W_*``) and its expected values; ``rst`` the entries written (``RST_*``) and an overflow flag.

Every step is inlined into :func:`play_chunk` (``inline="always"``), which takes the record as
borrowed views (:mod:`croupier.sim.borrowed`), so passing the arrays costs nothing at run time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from croupier.sim.baccarat_count import (
    C_BANKER,
    C_PAIRS,
    C_PLAYER,
    C_SIX_THREE,
    C_SIX_TWO,
    C_SIZE,
    C_TIE,
    C_TOTAL,
    count_coups,
)
from croupier.sim.borrowed import borrow
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
RST_SIZE = 3
EMPTY_SHOES = 1000

# the table: indexes into the int64 array ``T``
T_POS, T_CUT, T_CUT_COUP, T_COUP, T_SHOE, T_DONE, T_EMPTY = range(7)
T_SIZE = 7
# cards by rank: rows of ``K``
K_LEFT, K_HIDDEN, K_VIEW = range(3)
K_SIZE = 3
# the coup dealt: indexes into ``X``
X_PT, X_BT, X_PCARDS, X_BCARDS, X_PPAIR, X_BPAIR, X_WINNER = range(7)
X_SIZE = 7


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
# the shoe and the record


@njit(cache=True, inline="always")
def value(c):  # type: ignore[no-untyped-def]
    """A card's baccarat value: 1-9 for A-9, 0 for the ten-value cards."""
    r = c % 13
    return r + 1 if r < 9 else 0


@njit(cache=True, inline="always")
def new_shoe(rp, shoe, rng, T, K):  # type: ignore[no-untyped-def]
    """Every card back (the array always holds the whole shoe, in some order), the cut card placed."""
    T[T_POS] = 0
    T[T_CUT_COUP] = -1
    T[T_COUP] = 0
    for r in range(13):
        K[K_LEFT, r] = 4 * rp[R_DECKS]
        K[K_HIDDEN, r] = 0
    mode = 0 if rp[R_CONTINUOUS] else rp[R_CUT_MODE]
    if mode == 0:
        T[T_CUT] = -1
    elif mode == 1:
        T[T_CUT] = rp[R_CUT_A]
    else:
        low = rp[R_CUT_A]
        from_end = low + below(rng, rp[R_CUT_B] - low + 1)
        T[T_CUT] = max(0, shoe.shape[0] - from_end)


@njit(cache=True, inline="always")
def draw(rp, shoe, rng, T, K, stats, rec, dest):  # type: ignore[no-untyped-def]
    """The next card of the lazily shuffled shoe; the cut card comes out with the card at ``T[T_CUT]``."""
    pos = T[T_POS]
    n = shoe.shape[0]
    if pos >= n:
        stats[S_ERROR] = 1
        return np.int64(-1)
    j = pos + below(rng, n - pos)
    c = shoe[j]
    shoe[j] = shoe[pos]
    shoe[pos] = c
    if pos == T[T_CUT] and T[T_CUT_COUP] < 0:
        T[T_CUT_COUP] = max(T[T_COUP], 1)  # shoe-start burns belong to the first coup
    T[T_POS] = pos + 1
    K[K_LEFT, c % 13] -= 1
    if rp[R_RECORD]:
        record_card(rec, c, dest)
    return np.int64(c)


@njit(cache=True, inline="always")
def burn(rp, shoe, rng, T, K, stats, rec, count, dest):  # type: ignore[no-untyped-def]
    """``count`` cards burned face down."""
    for _ in range(count):
        c = draw(rp, shoe, rng, T, K, stats, rec, dest)
        K[K_HIDDEN, c % 13] += 1


@njit(cache=True, inline="always")
def start_burns(rp, shoe, rng, T, K, stats, rec):  # type: ignore[no-untyped-def]
    """The shoe-start burn (Art. 2.1): the first card turned, then as many as its value, or a count."""
    burns = rp[R_BURN_N]
    if rp[R_BURN_MODE] == 1:
        first = value(draw(rp, shoe, rng, T, K, stats, rec, D_FIRST))
        burns = first if first > 0 else 10
    elif rp[R_BURN_MODE] == 0:
        burns = 0
    burn(rp, shoe, rng, T, K, stats, rec, burns, D_START_BURN)


@njit(cache=True, inline="always")
def record_card(rec, c, dest):  # type: ignore[no-untyped-def]
    cards, dests, _, _, rst = rec
    i = rst[RST_CARDS]
    if i < cards.shape[0]:
        cards[i] = c
        dests[i] = dest
        rst[RST_CARDS] = i + 1
    else:
        rst[RST_OVERFLOW] = 1


@njit(cache=True, inline="always")
def record_coup(rp, T, X, g, live, rec, demo, last, card_start):  # type: ignore[no-untyped-def]
    """A row of ``W_*`` for the coup just dealt, and its expected values (NaN: none)."""
    _, _, rows, evs, rst = rec
    ev = live[2]
    w = rst[RST_ROWS]
    if w >= rows.shape[0]:
        rst[RST_OVERFLOW] = 1
        return
    rows[w, W_SHOE] = T[T_SHOE]
    rows[w, W_COUP] = T[T_COUP]
    rows[w, W_DEMO] = demo
    rows[w, W_LAST] = last
    rows[w, W_CARD_START] = card_start
    rows[w, W_CARD_END] = rst[RST_CARDS]
    rows[w, W_CUT] = T[T_CUT]
    rows[w, W_WINNER] = X[X_WINNER]
    for s in range(SPOTS):
        rows[w, W_GAIN + s] = g[s]
        evs[w, s] = ev[s] if rp[R_LIVE] and not demo else np.nan
    rst[RST_ROWS] = w + 1


# --------------------------------------------------------------------------------------------------
# one coup, as BaccaratTable deals it


@njit(cache=True, inline="always")
def live_edges(rp, tableau, K, live, stats):  # type: ignore[no-untyped-def]
    """Each spot's exact expectation for the cards counted (``R_LIVE``: those left, or those unseen)."""
    counts, num, ev = live
    nat, pdraw, bstood, bthird = tableau
    for r in range(13):
        K[K_VIEW, r] = K[K_LEFT, r] + (K[K_HIDDEN, r] if rp[R_LIVE] == 2 else 0)
    count_coups(K[K_VIEW], nat, pdraw, bstood, bthird, counts)
    expected_values(rp, counts, num, ev)
    stats[S_LIVE_COUPS] += 1


@njit(cache=True, inline="always")
def deal_coup(rp, tableau, shoe, rng, T, K, stats, rec, X):  # type: ignore[no-untyped-def]
    """Art. 7: player, banker, player, banker; Art. 9: the third cards. The result goes to ``X``."""
    nat, pdraw, bstood, bthird = tableau
    p1 = draw(rp, shoe, rng, T, K, stats, rec, D_PLAYER)
    b1 = draw(rp, shoe, rng, T, K, stats, rec, D_BANKER)
    p2 = draw(rp, shoe, rng, T, K, stats, rec, D_PLAYER)
    b2 = draw(rp, shoe, rng, T, K, stats, rec, D_BANKER)
    pt = (value(p1) + value(p2)) % 10
    bt = (value(b1) + value(b2)) % 10
    player_cards = 2
    banker_cards = 2
    if not (nat[pt] or nat[bt]):  # Art. 9: a natural, both stand
        if pdraw[pt]:  # Art. 9.1-9.2
            x = value(draw(rp, shoe, rng, T, K, stats, rec, D_PLAYER))
            player_cards = 3
            pt = (pt + x) % 10
            if bthird[bt, x]:  # Art. 9.3-9.4
                bt = (bt + value(draw(rp, shoe, rng, T, K, stats, rec, D_BANKER))) % 10
                banker_cards = 3
        elif bstood[bt]:  # Art. 9.3(6)
            bt = (bt + value(draw(rp, shoe, rng, T, K, stats, rec, D_BANKER))) % 10
            banker_cards = 3
    X[X_PT] = pt
    X[X_BT] = bt
    X[X_PCARDS] = player_cards
    X[X_BCARDS] = banker_cards
    X[X_PPAIR] = (p1 % 13) == (p2 % 13)
    X[X_BPAIR] = (b1 % 13) == (b2 % 13)
    X[X_WINNER] = 0 if bt > pt else (1 if pt > bt else 2)


@njit(cache=True, inline="always")
def count_outcome(tableau, X, stats):  # type: ignore[no-untyped-def]
    """A coup with bets into the statistics: winner, banker 6s, naturals, pairs, third cards."""
    nat = tableau[0]
    pt = X[X_PT]
    bt = X[X_BT]
    stats[S_COUPS] += 1
    if X[X_WINNER] == 0:
        stats[S_BANKER] += 1
        if bt == 6:
            stats[S_BANKER_SIX_TWO if X[X_BCARDS] == 2 else S_BANKER_SIX_THREE] += 1
    elif X[X_WINNER] == 1:
        stats[S_PLAYER] += 1
    else:
        stats[S_TIE] += 1
    pnat = 1 if X[X_PCARDS] == 2 and nat[pt] else 0
    bnat = 1 if X[X_BCARDS] == 2 and nat[bt] else 0
    stats[S_PLAYER_NATURAL] += pnat
    stats[S_BANKER_NATURAL] += bnat
    stats[S_NATURAL] += max(pnat, bnat)
    stats[S_PLAYER_PAIR] += X[X_PPAIR]
    stats[S_BANKER_PAIR] += X[X_BPAIR]
    stats[S_PLAYER_THIRD] += X[X_PCARDS] - 2
    stats[S_BANKER_THIRD] += X[X_BCARDS] - 2


@njit(cache=True, inline="always")
def settle(rp, X, g):  # type: ignore[no-untyped-def]
    """Each spot's gain on one unit (Art. 12, 17, 18; a tie returns the player and banker stakes)."""
    unit = rp[R_UNIT]
    winner = X[X_WINNER]
    bt = X[X_BT]
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
    g[PLAYER_PAIR] = rp[R_PAY_PAIR] if X[X_PPAIR] else -unit
    g[BANKER_PAIR] = rp[R_PAY_PAIR] if X[X_BPAIR] else -unit
    if winner == 0 and bt == 6:  # 2018 amendment: a banker 6 that ties loses
        g[LUCKY_6] = rp[R_PAY_L6_TWO] if X[X_BCARDS] == 2 else rp[R_PAY_L6_THREE]
    else:
        g[LUCKY_6] = -unit if rp[R_LUCKY] else 0


@njit(cache=True, inline="always")
def add_gains(rp, g, live, stats, fstats):  # type: ignore[no-untyped-def]
    """The gains into the statistics; with live edges, by whether the spot's expectation was positive."""
    _, num, ev = live
    for s in range(SPOTS if rp[R_LUCKY] else SPOTS - 1):
        stats[S_GAIN + s] += g[s]
        stats[S_GAIN2 + s] += g[s] * g[s]
        if rp[R_LIVE]:
            fstats[F_EV_ALL + s] += ev[s]
            if ev[s] > fstats[F_EV_MAX + s]:
                fstats[F_EV_MAX + s] = ev[s]
            if num[s] > 0:
                stats[S_POS + s] += 1
                stats[S_POS_GAIN + s] += g[s]
                stats[S_POS_GAIN2 + s] += g[s] * g[s]
                fstats[F_EV_POS + s] += ev[s]


@njit(cache=True, inline="always")
def is_last(rp, T):  # type: ignore[no-untyped-def]
    """Art. 3.1: the coup of the cut card is the last, or one more follows; Art. 7.2: every coup."""
    if rp[R_CONTINUOUS]:
        return True
    if T[T_CUT_COUP] < 0:
        return False
    return T[T_COUP] >= T[T_CUT_COUP] + (0 if rp[R_AT_LAST] else 1)


# --------------------------------------------------------------------------------------------------
# chunks of coups


@njit(cache=True, inline="always")
def play_coup(rp, tableau, shoe, rng, T, K, X, g, live, stats, fstats, rec):  # type: ignore[no-untyped-def]
    """The next coup of the shoe (a demonstration coup or one with bets); False where the shoe has too
    few cards left for it (an error)."""
    T[T_COUP] += 1
    continuous = rp[R_CONTINUOUS] != 0
    demo = (not continuous) and T[T_COUP] <= rp[R_DEMO]
    if rp[R_LIVE] and not demo:
        live_edges(rp, tableau, K, live, stats)
    if not continuous and T[T_COUP] >= 2:  # Art. 8: from the second coup on
        burn(rp, shoe, rng, T, K, stats, rec, rp[R_BURN_EACH], D_COUP_BURN)
    if shoe.shape[0] - T[T_POS] < 6:
        stats[S_ERROR] = 1
        return False, demo
    deal_coup(rp, tableau, shoe, rng, T, K, stats, rec, X)
    if demo:
        stats[S_DEMO] += 1
        g[:] = 0
    else:
        T[T_DONE] += 1
        count_outcome(tableau, X, stats)
        settle(rp, X, g)
        add_gains(rp, g, live, stats, fstats)
    return True, demo


@njit(cache=True, inline="always")
def play_shoe(rp, tableau, shoe, rng, T, K, X, g, live, stats, fstats, rec, coups):  # type: ignore[no-untyped-def]
    """A new shoe, its start burns, and its coups until its last or the chunk's ``coups``."""
    rst = rec[4]
    new_shoe(rp, shoe, rng, T, K)
    stats[S_SHOES] += 1
    card_start = rst[RST_CARDS]
    if not rp[R_CONTINUOUS]:
        start_burns(rp, shoe, rng, T, K, stats, rec)
    betting = 0
    while T[T_DONE] < coups and stats[S_ERROR] == 0:
        dealt, demo = play_coup(rp, tableau, shoe, rng, T, K, X, g, live, stats, fstats, rec)
        if not dealt:
            break
        betting += 0 if demo else 1
        last = is_last(rp, T)
        if rp[R_RECORD]:
            record_coup(rp, T, X, g, live, rec, demo, last, card_start)
            card_start = rst[RST_CARDS]
        if last:
            T[T_EMPTY] = T[T_EMPTY] + 1 if betting == 0 else 0
            if T[T_EMPTY] >= EMPTY_SHOES:
                stats[S_ERROR] = 2
            break
    stats[S_CARDS] += T[T_POS]
    T[T_SHOE] += 1


@njit(cache=True, nogil=True)  # nogil: a Dask worker's threads play chunks side by side
def run_chunk(  # type: ignore[no-untyped-def]
    rp, nat, pdraw, bstood, bthird, coups, rng, stats, fstats, rec_cards, rec_dest, rec_rows, rec_ev, rst
):
    """``coups`` coups with bets, from fresh shoes drawn with the generator state ``rng``.

    ``stats`` (``S_*``) and ``fstats`` (``F_*``) are filled in. With ``rp[R_RECORD]`` every card drawn
    and its destination (``D_*``) goes to ``rec_cards``/``rec_dest``, every coup (demonstration coups
    included) to a row of ``rec_rows`` (``W_*``) and, with live edges, its expected values to ``rec_ev``;
    ``rst``: cards recorded, rows recorded, overflow flag (``RST_*``).
    """
    shoe = np.empty(rp[R_DECKS] * 52, dtype=np.int8)
    for i in range(shoe.shape[0]):
        shoe[i] = i % 52
    T = np.zeros(T_SIZE, dtype=np.int64)
    K = np.zeros((K_SIZE, 13), dtype=np.int64)
    X = np.zeros(X_SIZE, dtype=np.int64)
    g = np.zeros(SPOTS, dtype=np.int64)
    counts = np.zeros(C_SIZE, dtype=np.int64)
    num = np.zeros(SPOTS, dtype=np.int64)
    ev = np.zeros(SPOTS, dtype=np.float64)
    play_chunk(
        rp, nat, pdraw, bstood, bthird, coups, rng, stats, fstats, rec_cards, rec_dest, rec_rows, rec_ev, rst, shoe,
        T, K, X, g, counts, num, ev,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def play_chunk(  # type: ignore[no-untyped-def]
    rp, nat, pdraw, bstood, bthird, coups, rng, stats, fstats, rec_cards, rec_dest, rec_rows, rec_ev, rst, shoe,
    T, K, X, g, counts, num, ev,
):  # fmt: skip
    """The shoes of :func:`run_chunk`, over its state record (the arrays it made), borrowed
    (:func:`croupier.sim.borrowed.borrow`: run_chunk holds them until this returns)."""
    rp, rng, stats, fstats, shoe, T, K, X, g = (
        borrow(rp), borrow(rng), borrow(stats), borrow(fstats), borrow(shoe), borrow(T), borrow(K), borrow(X),
        borrow(g),
    )  # fmt: skip
    tableau = (borrow(nat), borrow(pdraw), borrow(bstood), borrow(bthird))
    live = (borrow(counts), borrow(num), borrow(ev))
    rec = (borrow(rec_cards), borrow(rec_dest), borrow(rec_rows), borrow(rec_ev), borrow(rst))
    for s in range(F_EV_MAX, F_EV_MAX + SPOTS):
        fstats[s] = -np.inf
    while T[T_DONE] < coups and stats[S_ERROR] == 0:
        play_shoe(rp, tableau, shoe, rng, T, K, X, g, live, stats, fstats, rec, coups)


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
        rst = np.zeros(RST_SIZE, dtype=np.int64)
        run_chunk(
            rp, nat, pdraw, bstood, bthird, sizes[i], rng, stats[i], fstats[i], rec_cards, rec_dest, rec_rows, rec_ev,
            rst,
        )  # fmt: skip
