# mypy: disable-error-code="no-untyped-call"
# (the steps are untyped numba functions that call one another)
"""The compiled step of :class:`croupier.rl.baccarat_vector.BaccaratVectorEnv`: ``N`` baccarat tables,
one coup each, in one call.

Every table is the baccarat simulator's table (:mod:`croupier.sim.baccarat_kernels`): its shoe, its
xoshiro256** generator, its cut card and burns, the deal, the tableau and the settlement are the
simulator's own steps, which the twin tests prove identical to the engine's; this module adds only
what an environment needs around them: a bet chosen by the agent instead of a unit on every spot,
the observation, the step limit and the reset of a table whose shoe has ended.

The state record, one row per table
-----------------------------------

``shoes``: int8[N, decks * 52] each table's cards (the first ``T[i, T_POS]`` of a row are the cards
drawn from that shoe, in order); ``rngs``: uint64[N, 4] each table's generator; ``T``:
int64[N, T_SIZE] and ``K``: int64[N, K_SIZE, 13] the simulator's table and card counts, a row each;
``V``: int64[N, V_SIZE] the episode (``V_*`` below).

The actions are indexes into three arrays made once from the rules and the bet sizes: ``spot_of``
(the kernel's spot, -1 for "no bet"), ``size_of`` (the stake in table units) and ``legal`` (1 where
the engine takes that bet on a fresh coup: the table limits, the banker multiple and the side cap do
not change from coup to coup for one bettor).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.sim.baccarat_count import C_SIZE
from croupier.sim.baccarat_kernels import (
    F_SIZE,
    K_HIDDEN,
    K_LEFT,
    K_SIZE,
    R_CONTINUOUS,
    R_DECKS,
    RST_SIZE,
    S_ERROR,
    S_SIZE,
    SPOTS,
    T_COUP,
    T_POS,
    T_SIZE,
    W_SIZE,
    X_BT,
    X_PT,
    X_SIZE,
    X_WINNER,
    is_last,
    new_shoe,
    play_coup,
    start_burns,
)
from croupier.sim.borrowed import borrow
from croupier.sim.generator import seed_state

# the episode: indexes into a table's row of ``V``
V_STEPS = 0  # steps taken in this episode (refused ones included)
V_RESET = 1  # 1: the episode ended; the next step starts a new shoe (Gymnasium's next-step autoreset)
V_WINNER = 2  # the last coup's winner: 0 none yet, 1 player, 2 banker, 3 tie (the engine's environment's codes)
V_PT = 3
V_BT = 4
V_SIZE = 5

# what a step did: values of ``outcome``
O_COUP = 0  # a coup was dealt
O_REFUSED = 1  # the action is not offered: nothing dealt
O_RESET = 2  # the step started a new shoe (the action was not used)
O_SHORT = 3  # the shoe had too few cards for a coup (the rules' cut card forbids it: a guard)

OBS_SIZE = 18  # coup, remaining, seen A..K, winner, player total, banker total
_KERNEL_WINNER = np.array([2, 1, 3], dtype=np.int64)  # the simulator's 0 banker, 1 player, 2 tie


@njit(cache=True)
def seed_tables(seed, first, rngs):  # type: ignore[no-untyped-def]
    """Table ``j``'s generator is the simulator's stream ``first + j`` of ``seed`` (two 64-bit words)."""
    for j in range(rngs.shape[0]):
        rngs[j, :] = seed_state(seed, first + j)


@njit(cache=True, inline="always")
def observe(rp, shoes, T, K, V, obs, i):  # type: ignore[no-untyped-def]
    """Table ``i``'s observation: the coup, the cards left, each rank seen face up since the shuffle (the
    first card turned included, burns not), and the last coup's winner and totals."""
    obs[i, 0] = T[i, T_COUP]
    obs[i, 1] = shoes.shape[1] - T[i, T_POS]
    per_rank = 4 * rp[R_DECKS]
    for r in range(13):
        obs[i, 2 + r] = per_rank - K[i, K_LEFT, r] - K[i, K_HIDDEN, r]
    obs[i, 15] = V[i, V_WINNER]
    obs[i, 16] = V[i, V_PT]
    obs[i, 17] = V[i, V_BT]


@njit(cache=True, inline="always")
def start_table(rp, shoes, rngs, T, K, V, scratch, i):  # type: ignore[no-untyped-def]
    """A new shoe at table ``i``: its cut card and its start burns (Art. 2.1); a new episode."""
    stats, rec = scratch
    new_shoe(rp, shoes[i], rngs[i], T[i], K[i])
    if not rp[R_CONTINUOUS]:
        start_burns(rp, shoes[i], rngs[i], T[i], K[i], stats, rec)
    V[i, :] = 0


@njit(cache=True)
def reset_tables(rp, shoes, rngs, T, K, V, obs):  # type: ignore[no-untyped-def]
    """Every table starts a new shoe."""
    scratch = (np.zeros(S_SIZE, np.int64), _empty_record())
    for i in range(shoes.shape[0]):
        start_table(rp, shoes, rngs, T, K, V, scratch, i)
        observe(rp, shoes, T, K, V, obs, i)


@njit(cache=True, inline="always")
def _empty_record():  # type: ignore[no-untyped-def]
    return (
        np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, W_SIZE), np.int64),
        np.zeros((0, SPOTS), np.float64), np.zeros(RST_SIZE, np.int64),
    )  # fmt: skip


@njit(cache=True)
def step_tables(  # type: ignore[no-untyped-def]
    rp, nat, pdraw, bstood, bthird, shoes, rngs, T, K, V, actions, spot_of, size_of, legal, max_steps,
    gain, outcome, terminated, truncated, obs,
):  # fmt: skip
    """One step of every table: a table whose episode ended starts a new shoe (its action unused);
    otherwise the action is refused (not offered) or its bet is placed and the next coup is dealt and
    settled. ``gain`` is the bet's net in minor units (``rp[R_UNIT]`` to a table unit); ``outcome`` says
    what the step did (``O_*``); an episode ends with the shoe's last coup (Art. 3.1; every coup under
    an automatic shuffler) and is truncated at ``max_steps`` steps (0: no limit)."""
    scratch = (np.zeros(S_SIZE, np.int64), np.zeros(F_SIZE, np.float64), np.zeros(X_SIZE, np.int64))
    g_owned = np.zeros(SPOTS, np.int64)
    live_owned = (np.zeros(C_SIZE, np.int64), np.zeros(SPOTS, np.int64), np.zeros(SPOTS, np.float64))
    owned_rec = _empty_record()
    step_borrowed(
        rp, nat, pdraw, bstood, bthird, shoes, rngs, T, K, V, actions, spot_of, size_of, legal, max_steps,
        gain, outcome, terminated, truncated, obs, scratch, g_owned, live_owned, owned_rec,
    )  # fmt: skip


@njit(cache=True)
def step_borrowed(  # type: ignore[no-untyped-def]
    rp, nat, pdraw, bstood, bthird, shoes, rngs, T, K, V, actions, spot_of, size_of, legal, max_steps,
    gain, outcome, terminated, truncated, obs, scratch, g, live, rec,
):  # fmt: skip
    """The loop of :func:`step_tables` over its arrays borrowed (:func:`croupier.sim.borrowed.borrow`:
    step_tables holds them until this returns), so the rows and the steps count no references."""
    rp, shoes, rngs, T, K, V, obs, g = (
        borrow(rp), borrow(shoes), borrow(rngs), borrow(T), borrow(K), borrow(V), borrow(obs), borrow(g),
    )  # fmt: skip
    actions, spot_of, size_of, legal = borrow(actions), borrow(spot_of), borrow(size_of), borrow(legal)
    gain, outcome, terminated, truncated = borrow(gain), borrow(outcome), borrow(terminated), borrow(truncated)
    stats, fstats, X = borrow(scratch[0]), borrow(scratch[1]), borrow(scratch[2])
    tableau = (borrow(nat), borrow(pdraw), borrow(bstood), borrow(bthird))
    live = (borrow(live[0]), borrow(live[1]), borrow(live[2]))
    rec = (borrow(rec[0]), borrow(rec[1]), borrow(rec[2]), borrow(rec[3]), borrow(rec[4]))
    for i in range(shoes.shape[0]):
        gain[i] = 0
        terminated[i] = False
        truncated[i] = False
        if V[i, V_RESET]:
            start_table(rp, shoes, rngs, T, K, V, (stats, rec), i)
            outcome[i] = O_RESET
            observe(rp, shoes, T, K, V, obs, i)
            continue
        a = actions[i]
        V[i, V_STEPS] += 1
        if a < 0 or a >= legal.shape[0] or not legal[a]:
            outcome[i] = O_REFUSED
        else:
            stats[S_ERROR] = 0
            dealt, _ = play_coup(rp, tableau, shoes[i], rngs[i], T[i], K[i], X, g, live, stats, fstats, rec)
            if not dealt:
                outcome[i] = O_SHORT
                terminated[i] = True
            else:
                outcome[i] = O_COUP
                if spot_of[a] >= 0:
                    gain[i] = g[spot_of[a]] * size_of[a]
                V[i, V_WINNER] = _KERNEL_WINNER[X[X_WINNER]]
                V[i, V_PT] = X[X_PT]
                V[i, V_BT] = X[X_BT]
                terminated[i] = is_last(rp, T[i])
        if not terminated[i] and max_steps > 0 and V[i, V_STEPS] >= max_steps:
            truncated[i] = True
        if terminated[i] or truncated[i]:
            V[i, V_RESET] = 1
        observe(rp, shoes, T, K, V, obs, i)


def state_arrays(decks: int, tables: int) -> tuple[np.ndarray, ...]:
    """The state record of ``tables`` tables of ``decks`` decks, every shoe in card order."""
    shoes = np.empty((tables, decks * 52), dtype=np.int8)
    shoes[:, :] = np.arange(decks * 52, dtype=np.int64) % 52
    rngs = np.zeros((tables, 4), dtype=np.uint64)
    T = np.zeros((tables, T_SIZE), dtype=np.int64)
    K = np.zeros((tables, K_SIZE, 13), dtype=np.int64)
    V = np.zeros((tables, V_SIZE), dtype=np.int64)
    return shoes, rngs, T, K, V
