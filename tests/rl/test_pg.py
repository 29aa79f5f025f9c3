"""The masked policy-gradient baseline: legal actions only, and it learns toward the exact strategy."""

from __future__ import annotations

import numpy as np

from croupier.rl.agents import random_action
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.pg import MaskedReinforce, chart_state, train_episodes
from croupier.rl.values import regret
from croupier.rng import seeded


def test_the_policy_puts_no_weight_on_illegal_actions() -> None:
    agent = MaskedReinforce(9, seeded(1))
    env = BlackjackEnv("live-online", illegal_action="raise")
    obs, info = env.reset(seed=1)
    for _ in range(500):
        assert isinstance(obs, np.ndarray)
        mask = info["action_mask"]
        p = agent.probabilities(chart_state(obs), mask)
        assert abs(p.sum() - 1) < 1e-12 and not p[mask == 0].any()
        obs, _reward, terminated, truncated, info = env.step(agent.sample(obs, mask))  # raises if illegal
        if terminated or truncated:
            obs, info = env.reset()


def test_it_learns_toward_the_exact_strategy() -> None:
    """After 10,000 rounds the greedy policy gives up less than half what random play gives up at the
    first decisions, by the exact analysis, on the same 300 hands."""
    env = BlackjackEnv("macau-1983")
    env.reset(seed=4)
    agent = MaskedReinforce(int(env.action_space.n), seeded(4), step=0.1)
    pick = seeded(5)
    untrained = regret(agent.greedy, 300, seed=7, fresh_shoe=True).decision_regret
    random = regret(lambda obs, mask: random_action(mask, pick), 300, seed=7, fresh_shoe=True).decision_regret
    train_episodes(agent, env, 10_000)
    learned = regret(agent.greedy, 300, seed=7, fresh_shoe=True).decision_regret
    assert learned < random / 2 and learned < untrained / 2, (learned, random, untrained)
