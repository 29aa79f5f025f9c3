"""A small masked policy-gradient baseline in NumPy: REINFORCE with a learned state-value baseline.

The policy is tabular: a softmax over the **legal** actions (illegal ones have probability 0, the
mask's convention in MaskablePPO) of one row of preferences per state, the hand as the strategy
chart reads it (:func:`chart_state`: phase, total, soft, pair value, two cards or more, split hand,
hands of the box still to play after it, up-card; no count). After each episode (one round) every
decision's preferences move along ``(G_t - b(s_t)) ∇ log π(a_t | s_t)``, where ``G_t`` is the
round's reward from that step on (no discount: a round is short) and ``b(s)`` a running mean of
``G`` in ``s``. The deep-RL baseline (a network, PPO's clipped objective, on the batch of tables) is
:mod:`croupier.rl.ppo`. Randomness comes from :func:`croupier.rng.seeded`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import Mask, Obs
from croupier.rng import RandomSource

State = tuple[int, ...]


def chart_state(obs: Obs) -> State:
    """Phase, total, soft, pair value, two cards, split hand, hands of the box still to play after it, up-card."""
    to_come = int(obs[6]) - int(obs[5]) - 1 if obs[6] else 0
    return (int(obs[0]), int(obs[1]), int(obs[2]), int(obs[3]), int(obs[4] == 2), int(obs[7]), to_come, int(obs[8]))


@dataclass
class MaskedReinforce:
    """Tabular masked softmax policy with a state-value baseline; ``step`` is the actor's learning rate."""

    actions: int
    rng: RandomSource
    step: float = 0.05
    baseline_step: float = 0.01
    preferences: dict[State, npt.NDArray[np.float64]] = field(default_factory=dict)
    baseline: dict[State, float] = field(default_factory=dict)

    def probabilities(self, state: State, mask: Mask) -> npt.NDArray[np.float64]:
        row = self.preferences.get(state)
        if row is None:
            row = self.preferences[state] = np.zeros(self.actions)
        legal = mask.astype(np.bool_)
        logits = np.where(legal, row, -np.inf)
        top = logits[legal].max()
        weights = np.where(legal, np.exp(logits - top), 0.0)
        return np.asarray(weights / weights.sum(), dtype=np.float64)

    def sample(self, obs: Obs, mask: Mask) -> int:
        """An action drawn from the policy (legal by construction)."""
        p = self.probabilities(chart_state(obs), mask)
        u = self.rng.randbelow(1 << 30) / float(1 << 30)
        action = int(np.searchsorted(np.cumsum(p), u, side="right"))
        legal = np.flatnonzero(mask)
        return action if action < self.actions and mask[action] else int(legal[-1])

    def greedy(self, obs: Obs, mask: Mask) -> int:
        """The most preferred legal action."""
        return int(np.argmax(self.probabilities(chart_state(obs), mask)))

    def learn(self, episode: list[tuple[State, Mask, int, float]]) -> None:
        """One REINFORCE update from an episode of (state, mask, action, reward) steps."""
        to_go = 0.0
        for state, mask, action, reward in reversed(episode):
            to_go += reward
            base = self.baseline.get(state, 0.0)
            advantage = to_go - base
            self.baseline[state] = base + self.baseline_step * advantage
            p = self.probabilities(state, mask)
            grad = -p
            grad[action] += 1.0
            self.preferences[state] += self.step * advantage * grad


def train_episodes(agent: MaskedReinforce, env: BlackjackEnv, n: int) -> float:
    """Play and learn ``n`` episodes of ``env`` (its vector observation); return their mean return."""
    total = 0.0
    for _ in range(n):
        obs, info = env.reset()
        episode: list[tuple[State, Mask, int, float]] = []
        while True:
            assert isinstance(obs, np.ndarray), "the baseline reads the vector observation (mask_in_obs=False)"
            mask = info["action_mask"]
            action = agent.sample(obs, mask)
            state = chart_state(obs)
            obs, reward, terminated, truncated, info = env.step(action)
            episode.append((state, mask, action, reward))
            if terminated or truncated:
                break
        agent.learn(episode)
        total += math.fsum(r for *_, r in episode)
    return total / n if n else 0.0
