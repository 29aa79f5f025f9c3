# mypy: disable-error-code="no-untyped-call"
# (the steps are untyped numba functions that call one another)
"""The compiled step of :class:`croupier.rl.blackjack_vector.BlackjackVectorEnv`: ``N`` one-box blackjack
tables, one agent decision each, in one call.

Every table is the blackjack simulator's table (:mod:`croupier.sim.kernels`) with one box: its shoe, its
xoshiro256** generator, its cut card and burns, the deal, a hand's new card (:func:`~croupier.sim.kernels.act`,
:func:`~croupier.sim.kernels.after_card`), the dealer and the settlement are the simulator's own steps,
which its twin tests prove identical to the engine's. Where the simulator's round reads a strategy table,
this round stops and waits for the agent: it is a resumable state machine whose place is kept in the
table's row of ``V`` (the phase, the hand to act, the insurance taken), and each call resumes it with
the agent's action and runs it to the next decision or the round's end. The masks are the engine's
refusals (:mod:`croupier.blackjack.refusals`, :mod:`croupier.blackjack.offers`) for one box.

The state record, one row per table
-----------------------------------

``shoes``: int8[N, decks * 52] the cards (the first ``T[i, T_POS]`` drawn, in order); ``rngs``:
uint64[N, 4] the generators; ``T``: int64[N, T_SIZE], ``H``: int64[N, ROWS, MAX_HANDS, F_SIZE] and ``C``:
int64[N, ROWS, MAX_HANDS, MAX_CARDS] the simulator's table, hands and cards (box 0 is the agent's);
``V``: int64[N, V_SIZE] the episode and the round's place (``V_*``); ``masks``: int8[N, ACTIONS] the
legal actions now. ``rp`` is the simulator's rule array followed by the entries ``X_*`` below.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.blackjack.rules import DOUBLE_TOTALS, Rules
from croupier.codes import ACE, DOUBLE, HIT, SPLIT, STAND, SURRENDER, TEN
from croupier.sim.blackjack import rule_parameters
from croupier.sim.borrowed import borrow
from croupier.sim.generator import seed_state
from croupier.sim.kernels import (
    DEALER,
    F_ACE,
    F_DONE,
    F_HARD,
    F_N,
    F_SACES,
    F_SETTLED,
    F_SIZE,
    F_SPLIT,
    F_STAKE,
    MAX_CARDS,
    MAX_HANDS,
    R_ACES_ONE,
    R_B678,
    R_B777,
    R_BJ,
    R_CONTINUOUS,
    R_DAS,
    R_HOLE,
    R_MAX_HANDS,
    R_METAL,
    R_RESPLIT_ACES,
    R_SIZE,
    R_SURRENDER,
    R_UNIT,
    ROWS,
    RST_SIZE,
    S_SIZE,
    T_CUT_OUT,
    T_HANDS,
    T_NET,
    T_POS,
    T_SIZE,
    T_VOID,
    W_SIZE,
    act,
    after_card,
    box_destination,
    deal,
    deal_card,
    dealer_play,
    is_natural,
    new_shoe,
    settle,
    start_round,
    total,
    value,
)

# the batch's rule entries, after the simulator's: indexes into ``rp``
X_DOUBLE = R_SIZE  # bit t set: a first-two-card total of t may double (Art. 11)
X_INSURANCE = R_SIZE + 1  # 1: insurance is offered (insurance_pays not none)
X_INS_HALF = R_SIZE + 2  # the insurance stake, half the bet, in minor units
X_INS_WIN = R_SIZE + 3  # what a won insurance pays, minor units
X_EVEN_MONEY = R_SIZE + 4  # 1: even money is offered to a natural against an ace (Art. 6)
RX_SIZE = R_SIZE + 5

# the episode and the round's place: indexes into a table's row of ``V``
V_STEPS = 0  # steps taken in this episode (refused ones included)
V_RESET = 1  # 1: the episode ended; the next step starts the next round (next-step autoreset)
V_PHASE = 2  # P_* below
V_HAND = 3  # the hand to act (P_DECISION)
V_DECIDED = 4  # 1: the box made a play decision this round
V_ASKED = 5  # 1: the box took a card it asked for (a hit or a double's card: Art. 12)
V_INS = 6  # 0 no insurance, 1 insured, 2 even money taken
V_INS_NET = 7  # the insurance's result, minor units
V_GIVEN = 8  # the rewards given in this episode, minor units
V_FIRST = 9  # 1: the next round is the shoe's first (its start burns)
V_SHOE_DONE = 10  # 1: the next round comes from a new shoe
V_SHOE = 11  # shoes started at this table
V_DSEEN = 12  # the dealer's cards counted as seen
V_SEEN = 13  # + rank: the cards of each rank seen face up since the shuffle
V_SIZE = V_SEEN + 13

# the round's phase
P_INSURANCE = 1  # the insurance (and even-money) offer waits for the agent
P_DECISION = 2  # hand ``V_HAND`` waits for a play decision
P_OVER = 3  # settled, the agent asked nothing yet: the next step acknowledges it
P_SETTLED = 4  # settled after the agent's last decision (the episode ends)

INSURANCE, EVEN_MONEY, NO_INSURANCE = 5, 6, 7  # croupier.rl.encoding's indexes
ACTIONS = 9
OBS_SIZE = 24
MAX_VOIDS_IN_A_ROW = 1000


@njit(cache=True)
def seed_tables(seed, first, rngs):  # type: ignore[no-untyped-def]
    """Table ``j``'s generator is the simulator's stream ``first + j`` of ``seed`` (two 64-bit words)."""
    for j in range(rngs.shape[0]):
        rngs[j, :] = seed_state(seed, first + j)


@njit(cache=True, inline="always")
def see(T, V, i, c):  # type: ignore[no-untyped-def]
    """Card ``c`` is seen face up (not the stand-in card of an empty shoe)."""
    if T[i, T_VOID] == 0:
        V[i, V_SEEN + c % 13] += 1


@njit(cache=True, inline="always")
def see_dealer(T, C, H, V, i):  # type: ignore[no-untyped-def]
    """The dealer's cards not counted yet are seen (the hole card turned, the cards drawn)."""
    for q in range(V[i, V_DSEEN], H[i, DEALER, 0, F_N]):
        see(T, V, i, C[i, DEALER, 0, q])
    V[i, V_DSEEN] = H[i, DEALER, 0, F_N]


@njit(cache=True, inline="always")
def net(T, V, i):  # type: ignore[no-untyped-def]
    return T[i, T_NET] + V[i, V_INS_NET]


@njit(cache=True, inline="always")
def settle_insurance(rp, V, i, won):  # type: ignore[no-untyped-def]
    if V[i, V_INS] == 1:
        V[i, V_INS_NET] += rp[X_INS_WIN] if won else -rp[X_INS_HALF]


@njit(cache=True, inline="always")
def end_round(rp, T, V, i):  # type: ignore[no-untyped-def]
    """The round is settled; the round in which the cut card came out is the shoe's last (Art. 2.2)."""
    V[i, V_PHASE] = P_SETTLED
    if T[i, T_CUT_OUT] == 1 or rp[R_METAL] == 1 or rp[R_CONTINUOUS] == 1:
        V[i, V_SHOE_DONE] = 1


@njit(cache=True, inline="always")
def finish_round(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i):  # type: ignore[no-untyped-def]
    """Every hand has played: the insurance under no hole card (settled as the face-down card is
    turned), the dealer, the settlement (procedure._dealer_play, _settle_all)."""
    if rp[R_HOLE] == 0 and H[i, DEALER, 0, F_N] == 2:
        settle_insurance(rp, V, i, is_natural(H[i], DEALER, 0))
    dealer_play(rp, strategy, shoes[i], rngs[i], T[i], rec, H[i], C[i])
    see_dealer(T, C, H, V, i)
    settle(rp, T[i], H[i], rc)
    end_round(rp, T, V, i)


@njit(cache=True, inline="always")
def advance(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i):  # type: ignore[no-untyped-def]
    """Play on from hand ``V_HAND`` to the box's next decision, or through the dealer to the end."""
    k = V[i, V_HAND]
    while k < T[i, T_HANDS]:
        if H[i, 0, k, F_N] == 1 and H[i, 0, k, F_DONE] == 0:  # a split hand's second card, in its turn
            c = deal_card(rp, strategy, shoes[i], rngs[i], T[i], rec, H[i], C[i], 0, k, box_destination(0, k))
            see(T, V, i, c)
            after_card(rp, T[i], H[i], C[i], rc, 0, k)
        if H[i, 0, k, F_DONE] == 0 and T[i, T_VOID] == 0:
            V[i, V_HAND] = k
            V[i, V_PHASE] = P_DECISION
            return
        k += 1
    finish_round(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)


@njit(cache=True, inline="always")
def after_offer(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i):  # type: ignore[no-untyped-def]
    """The insurance offer is closed (or was never made): the peek (online §3.8), then the play."""
    u = value(C[i, DEALER, 0, 0])
    hole = rp[R_HOLE]
    if (hole == 2 and u == ACE) or (hole == 1 and u in (ACE, TEN)):
        if is_natural(H[i], DEALER, 0):
            see_dealer(T, C, H, V, i)
            settle_insurance(rp, V, i, True)
            settle(rp, T[i], H[i], rc)
            end_round(rp, T, V, i)
            return
        settle_insurance(rp, V, i, False)
    V[i, V_HAND] = 0
    advance(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)


@njit(cache=True, inline="always")
def start_round_at(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i):  # type: ignore[no-untyped-def]
    """The table's next round, bet one unit, dealt and run to the agent's first question; a round the
    shoe runs out in is void (Art. 2.1) and dealt again from a new shoe."""
    for _ in range(MAX_VOIDS_IN_A_ROW):
        if V[i, V_SHOE_DONE]:
            new_shoe(rp, shoes[i], rngs[i], T[i])
            V[i, V_SHOE_DONE] = 0
            V[i, V_FIRST] = 1
            V[i, V_SHOE] += 1
            V[i, V_SEEN : V_SEEN + 13] = 0
        start_round(rp, T[i], H[i])
        V[i, V_HAND] = 0
        V[i, V_DECIDED] = 0
        V[i, V_ASKED] = 0
        V[i, V_INS] = 0
        V[i, V_INS_NET] = 0
        deal(rp, strategy, shoes[i], rngs[i], T[i], rec, H[i], C[i], rc, V[i, V_FIRST] == 1)
        V[i, V_FIRST] = 0
        see(T, V, i, C[i, 0, 0, 0])
        see(T, V, i, C[i, 0, 0, 1])
        see(T, V, i, C[i, DEALER, 0, 0])
        V[i, V_DSEEN] = 1
        natural = is_natural(H[i], 0, 0)
        if value(C[i, DEALER, 0, 0]) == ACE and (rp[X_INSURANCE] or (rp[X_EVEN_MONEY] and natural)):
            V[i, V_PHASE] = P_INSURANCE  # Art. 6, 8; online §2.5
        else:
            after_offer(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)
        if T[i, T_VOID] == 0:
            if V[i, V_PHASE] == P_SETTLED:
                V[i, V_PHASE] = P_OVER  # settled before the agent was asked anything
            return
        V[i, V_SHOE_DONE] = 1
    raise ValueError("the shoe runs out in every round: too few cards for these rules")


@njit(cache=True, inline="always")
def start_episode(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, masks, i):  # type: ignore[no-untyped-def]
    V[i, V_STEPS] = 0
    V[i, V_RESET] = 0
    V[i, V_GIVEN] = 0
    start_round_at(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)
    write_mask(rp, T, H, C, V, masks, i)


# --------------------------------------------------------------------------------------------------
# the masks: the engine's refusals (croupier.blackjack.refusals, offers) for one box


@njit(cache=True, inline="always")
def may_surrender(rp, T, H, C, V, i, k):  # type: ignore[no-untyped-def]
    """Art. 12: the box's first decision on its first two cards; under ``early_not_ace`` a box that
    split surrenders all its hands together while it has asked no card; never against an ace there."""
    mode = rp[R_SURRENDER]
    if mode == 0 or V[i, V_ASKED]:
        return False
    split_box = T[i, T_HANDS] > 1 or H[i, 0, k, F_SPLIT] == 1
    if split_box and mode != 1:
        return False
    if not split_box and (H[i, 0, k, F_N] != 2 or V[i, V_DECIDED]):
        return False
    return not (mode == 1 and value(C[i, DEALER, 0, 0]) == ACE)


@njit(cache=True, inline="always")
def write_mask(rp, T, H, C, V, masks, i):  # type: ignore[no-untyped-def]
    """Table ``i``'s legal actions now."""
    masks[i, :] = 0
    phase = V[i, V_PHASE]
    if phase == P_OVER:
        masks[i, STAND] = 1  # acknowledge the round the deal settled
    elif phase == P_INSURANCE:
        masks[i, INSURANCE] = rp[X_INSURANCE]
        masks[i, EVEN_MONEY] = 1 if (rp[X_EVEN_MONEY] == 1 and is_natural(H[i], 0, 0)) else 0
        masks[i, NO_INSURANCE] = 1
    elif phase == P_DECISION:
        k = V[i, V_HAND]
        n = H[i, 0, k, F_N]
        one_card_aces = H[i, 0, k, F_SACES] == 1 and rp[R_ACES_ONE] == 1
        masks[i, STAND] = 1
        masks[i, HIT] = 0 if one_card_aces else 1
        t = total(H[i, 0, k, F_HARD], H[i, 0, k, F_ACE])
        if n == 2 and not one_card_aces and not (H[i, 0, k, F_SPLIT] and not rp[R_DAS]):
            masks[i, DOUBLE] = (rp[X_DOUBLE] >> t) & 1
        pair = n == 2 and value(C[i, 0, k, 0]) == value(C[i, 0, k, 1])
        if pair and T[i, T_HANDS] < rp[R_MAX_HANDS] and not (H[i, 0, k, F_SACES] and not rp[R_RESPLIT_ACES]):
            masks[i, SPLIT] = 1
        masks[i, SURRENDER] = 1 if may_surrender(rp, T, H, C, V, i, k) else 0


# --------------------------------------------------------------------------------------------------
# the agent's actions


@njit(cache=True, inline="always")
def surrender_box(rp, T, H, V, i):  # type: ignore[no-untyped-def]
    """Art. 12: every open hand of the box gives up half its stake; the box's play ends."""
    for k in range(T[i, T_HANDS]):
        if H[i, 0, k, F_SETTLED] == 0:
            T[i, T_NET] -= H[i, 0, k, F_STAKE] * rp[R_UNIT] // 2
            H[i, 0, k, F_SETTLED] = 1
        H[i, 0, k, F_DONE] = 1


@njit(cache=True, inline="always")
def perform(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i, a):  # type: ignore[no-untyped-def]
    """Resume table ``i``'s round with the legal action ``a`` and run it to the next question."""
    phase = V[i, V_PHASE]
    if phase == P_INSURANCE:
        if a == INSURANCE:
            V[i, V_INS] = 1
        elif a == EVEN_MONEY:  # 1:1 at once (Art. 6)
            V[i, V_INS] = 2
            T[i, T_NET] += H[i, 0, 0, F_STAKE] * rp[R_UNIT]
            H[i, 0, 0, F_SETTLED] = 1
        after_offer(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)
        return
    k = V[i, V_HAND]
    if a == SURRENDER:
        surrender_box(rp, T, H, V, i)
    else:
        act(rp, strategy, shoes[i], rngs[i], T[i], rec, H[i], C[i], rc, 0, k, a)
        if a != STAND:
            see(T, V, i, C[i, 0, k, H[i, 0, k, F_N] - 1])
    V[i, V_DECIDED] = 1
    if a in (HIT, DOUBLE):
        V[i, V_ASKED] = 1
    advance(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i)


@njit(cache=True, inline="always")
def observe(shoes, T, H, C, V, obs, i):  # type: ignore[no-untyped-def]
    """Table ``i``'s observation (croupier.rl.encoding.OBS_FIELDS): the hand to act, else the box's last."""
    phase = V[i, V_PHASE]
    obs[i, 0] = 2 if phase == P_DECISION else (1 if phase == P_INSURANCE else 3)
    hands = T[i, T_HANDS]
    k = V[i, V_HAND] if phase == P_DECISION else hands - 1
    n = H[i, 0, k, F_N]
    hard = H[i, 0, k, F_HARD]
    ace = H[i, 0, k, F_ACE]
    obs[i, 1] = total(hard, ace)
    obs[i, 2] = 1 if (ace and hard <= 11) else 0
    obs[i, 3] = value(C[i, 0, k, 0]) + 1 if (n == 2 and value(C[i, 0, k, 0]) == value(C[i, 0, k, 1])) else 0
    obs[i, 4] = n
    obs[i, 5] = k
    obs[i, 6] = hands
    obs[i, 7] = H[i, 0, k, F_SPLIT]
    obs[i, 8] = value(C[i, DEALER, 0, 0]) + 1
    obs[i, 9] = 1
    for r in range(13):
        obs[i, 10 + r] = V[i, V_SEEN + r]
    obs[i, 23] = shoes.shape[1] - T[i, T_POS]


# --------------------------------------------------------------------------------------------------
# the batch


@njit(cache=True, inline="always")
def _empty_record():  # type: ignore[no-untyped-def]
    return (
        np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 3), np.int64), np.zeros((0, W_SIZE), np.int64),
        np.zeros(RST_SIZE, np.int64),
    )  # fmt: skip


@njit(cache=True, inline="always")
def _strategy(links):  # type: ignore[no-untyped-def]
    """The simulator's strategy tuple where only its composition links are read (all -1: none kept)."""
    return (links, links, links, links, links, links)


@njit(cache=True)
def reset_tables(rp, links, shoes, rngs, T, H, C, V, masks, obs):  # type: ignore[no-untyped-def]
    """Every table starts a new shoe and its first episode."""
    strategy = _strategy(links)
    rec = _empty_record()
    rc = np.zeros(S_SIZE, np.int64)
    for i in range(shoes.shape[0]):
        V[i, :] = 0
        V[i, V_SHOE_DONE] = 1
        start_episode(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, masks, i)
        observe(shoes, T, H, C, V, obs, i)


@njit(cache=True)
def step_tables(  # type: ignore[no-untyped-def]
    rp, links, shoes, rngs, T, H, C, V, masks, actions, max_steps, gain, refused, terminated, truncated, obs
):
    """One step of every table: a table whose episode ended starts its next round (the action unused);
    otherwise an action outside the mask is refused (nothing changes) or the round is resumed with it.
    ``gain``: the step's net in minor units (``rp[R_UNIT]`` to a table unit); an episode is one round,
    truncated at ``max_steps`` steps (0: no limit), where a round in play is void and what it paid is
    taken back."""
    rec = _empty_record()
    rc = np.zeros(S_SIZE, np.int64)
    step_borrowed(
        rp, links, shoes, rngs, T, H, C, V, masks, actions, max_steps, gain, refused, terminated, truncated, obs,
        rec, rc,
    )  # fmt: skip


@njit(cache=True)
def step_borrowed(  # type: ignore[no-untyped-def]
    rp, links, shoes, rngs, T, H, C, V, masks, actions, max_steps, gain, refused, terminated, truncated, obs, rec, rc
):
    """The loop of :func:`step_tables` over its arrays borrowed (:func:`croupier.sim.borrowed.borrow`)."""
    rp, shoes, rngs, T, H, C, V, masks = (
        borrow(rp), borrow(shoes), borrow(rngs), borrow(T), borrow(H), borrow(C), borrow(V), borrow(masks),
    )  # fmt: skip
    actions, gain, refused, obs = borrow(actions), borrow(gain), borrow(refused), borrow(obs)
    terminated, truncated, rc = borrow(terminated), borrow(truncated), borrow(rc)
    lk = borrow(links)
    strategy = (lk, lk, lk, lk, lk, lk)
    rec = (borrow(rec[0]), borrow(rec[1]), borrow(rec[2]), borrow(rec[3]), borrow(rec[4]))
    for i in range(shoes.shape[0]):
        gain[i] = 0
        refused[i] = False
        terminated[i] = False
        truncated[i] = False
        if V[i, V_RESET]:
            start_episode(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, masks, i)
            observe(shoes, T, H, C, V, obs, i)
            continue
        step_table(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, masks, actions[i], max_steps, gain, refused,
                   terminated, truncated, i)  # fmt: skip
        if terminated[i] or truncated[i]:
            V[i, V_RESET] = 1
            masks[i, :] = 1  # the next step's action is not used
        else:
            write_mask(rp, T, H, C, V, masks, i)
        observe(shoes, T, H, C, V, obs, i)


@njit(cache=True, inline="always")
def step_table(  # type: ignore[no-untyped-def]
    rp, strategy, shoes, rngs, T, rec, H, C, rc, V, masks, a, max_steps, gain, refused, terminated, truncated, i
):
    """One step of table ``i`` in its episode: the action, its net, the step limit."""
    V[i, V_STEPS] += 1
    phase = V[i, V_PHASE]
    if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
        refused[i] = True
    elif phase == P_OVER:  # the acknowledgement delivers the net of the round the deal settled
        gain[i] = net(T, V, i)
        V[i, V_PHASE] = P_SETTLED
        terminated[i] = True
    else:
        before = net(T, V, i)
        perform(rp, strategy, shoes, rngs, T, rec, H, C, rc, V, i, a)
        if T[i, T_VOID]:  # the shoe ran out: the round is void (Art. 2.1), what it paid is taken back
            gain[i] = -V[i, V_GIVEN]
            V[i, V_PHASE] = P_SETTLED
            V[i, V_SHOE_DONE] = 1
            truncated[i] = True
        else:
            gain[i] = net(T, V, i) - before
            terminated[i] = V[i, V_PHASE] == P_SETTLED
    V[i, V_GIVEN] += gain[i]
    if not (terminated[i] or truncated[i]) and max_steps > 0 and V[i, V_STEPS] >= max_steps:
        truncated[i] = True
        if V[i, V_PHASE] == P_OVER:
            gain[i] += net(T, V, i)
        else:  # a round in play is void (Art. 2.1); the next round comes from a new shoe
            gain[i] -= V[i, V_GIVEN]
            V[i, V_SHOE_DONE] = 1
        V[i, V_PHASE] = P_SETTLED


def state_arrays(decks: int, tables: int) -> tuple[np.ndarray, ...]:
    """The state record of ``tables`` tables of ``decks`` decks, every shoe in card order."""
    shoes = np.empty((tables, decks * 52), dtype=np.int8)
    shoes[:, :] = np.arange(decks * 52, dtype=np.int64) % 52
    rngs = np.zeros((tables, 4), dtype=np.uint64)
    T = np.zeros((tables, T_SIZE), dtype=np.int64)
    H = np.zeros((tables, ROWS, MAX_HANDS, F_SIZE), dtype=np.int64)
    C = np.zeros((tables, ROWS, MAX_HANDS, MAX_CARDS), dtype=np.int64)
    V = np.zeros((tables, V_SIZE), dtype=np.int64)
    masks = np.zeros((tables, ACTIONS), dtype=np.int8)
    return shoes, rngs, T, H, C, V, masks


def batch_parameters(rules: Rules) -> npt.NDArray[np.int64]:
    """The simulator's rule array for one box (:func:`croupier.sim.blackjack.rule_parameters`), its money
    unit made fine enough for the insurance's half stake and payment, and the batch's ``X_*`` entries."""
    rp = rule_parameters(rules, 1, "shoe")
    unit = int(rp[R_UNIT])
    ratio = rules.insurance_pays
    scale = 1
    if ratio is not None:  # half a unit at pays:per must be whole minor units
        scale = (ratio.fraction * unit / 2).denominator
    if scale != 1:
        for index in (R_UNIT, R_BJ, R_B678, R_B777):
            if rp[index] >= 0:
                rp[index] *= scale
    unit = int(rp[R_UNIT])
    extra = np.zeros(RX_SIZE - R_SIZE, dtype=np.int64)
    extra[X_DOUBLE - R_SIZE] = sum(1 << t for t in DOUBLE_TOTALS[rules.double_on])
    extra[X_INSURANCE - R_SIZE] = ratio is not None
    extra[X_INS_HALF - R_SIZE] = unit // 2
    extra[X_INS_WIN - R_SIZE] = 0 if ratio is None else int(ratio.fraction * unit / 2)
    extra[X_EVEN_MONEY - R_SIZE] = rules.even_money
    return np.concatenate([rp, extra])
