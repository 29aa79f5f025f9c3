"""The NumPy PPO baseline (croupier.rl.ppo): its gradients are those of its loss (checked against finite
differences), an illegal action is never drawn, an autoreset step is left out of the loss, and a short
run on a batch of macau-1983 tables learns (its exact first-decision regret falls far below its start)."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.rl.blackjack_vector import BlackjackVectorEnv
from croupier.rl.ppo import FEATURES, MaskedPPO, Rollouts, features, masked_log_probs, train
from croupier.rl.values import regret

ACTIONS = int(BlackjackVectorEnv(1).single_action_space.n)


def small_batch(agent: MaskedPPO, n: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    env = BlackjackVectorEnv(n, "macau-1983")
    obs, info = env.reset(seed=seed)
    masks = info["action_mask"].astype(np.bool_)
    actions, old_logp, _values = agent.act(obs, masks)
    old_logp = old_logp + rng.normal(0, 0.3, n)  # ratios away from 1: some clipped, some not
    return features(obs), masks, actions, old_logp, rng.normal(size=n), rng.normal(size=n)


def test_the_gradients_are_those_of_the_loss() -> None:
    agent = MaskedPPO(ACTIONS, seed=3, hidden=8, max_norm=float("inf"), entropy_weight=0.05)
    batch = small_batch(agent, 64, seed=5)
    grads = agent.gradients(*batch)
    step = 1e-6
    for name, param in agent.net.params.items():
        for index in list(np.ndindex(param.shape))[:6]:
            kept = param[index]
            param[index] = kept + step
            up = agent.loss(*batch)
            param[index] = kept - step
            down = agent.loss(*batch)
            param[index] = kept
            assert grads[name][index] == pytest.approx((up - down) / (2 * step), rel=1e-4, abs=1e-7), (name, index)


def test_an_illegal_action_has_no_probability_and_is_never_drawn() -> None:
    agent = MaskedPPO(ACTIONS, seed=1)
    env = BlackjackVectorEnv(512, "macau-1983")
    obs, info = env.reset(seed=2)
    masks = info["action_mask"].astype(np.bool_)
    for _ in range(20):
        actions, logp, _values = agent.act(obs, masks)
        assert masks[np.arange(len(actions)), actions].all()
        assert np.isfinite(logp).all()
        obs, _r, _t, _u, info = env.step(actions)
        masks = info["action_mask"].astype(np.bool_)
    logits = np.zeros((1, 6))
    assert np.isneginf(masked_log_probs(logits, np.array([[True, False, True, False, False, False]]))[0, 1])


def test_the_features_are_one_hot_rows() -> None:
    env = BlackjackVectorEnv(32, "macau-1983")
    obs, _info = env.reset(seed=4)
    rows = features(obs)
    assert rows.shape == (32, FEATURES) and set(np.unique(rows)) <= {0.0, 1.0}
    assert (rows.sum(axis=1) == 8).all()  # one in each of the eight groups


def test_a_short_run_learns_against_the_exact_strategy() -> None:
    env = BlackjackVectorEnv(256, "macau-1983")
    agent = MaskedPPO(ACTIONS, seed=1)
    start = regret(agent.greedy, 300, seed=11, fresh_shoe=True).decision_regret
    run = Rollouts.start(env, 1)
    for _ in range(60):
        train(agent, run, 32)
    learned = regret(agent.greedy, 300, seed=11, fresh_shoe=True).decision_regret
    assert run.rounds > 200_000
    assert learned < start / 3, (start, learned)
