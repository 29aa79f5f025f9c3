"""Honest returns: no reward outside a step, so standard tools see every round's net.

A round the deal settles (a natural without an ace up, a dealer natural found by the peek) is a
one-step episode: ``reset`` shows it settled with one legal action (acknowledge), whose step pays
the round's net. The mean episode return of the exact basic strategy under Gymnasium's
``RecordEpisodeStatistics`` then agrees with the exact analysis (``croupier analyze``).
"""

from __future__ import annotations

import math
from decimal import Decimal

import gymnasium
import numpy as np
import pytest

import croupier.rl  # noqa: F401  (registers the ids)
from croupier.blackjack.replay import replay_blackjack
from croupier.rl.agents import BasicStrategy
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import ACKNOWLEDGE, PHASE_OVER
from croupier.rng import seeded
from tests.rl.support import pick


def test_a_round_the_deal_settles_is_a_one_step_episode() -> None:
    """Live-online peeks: dealer naturals and player naturals without an ace up end at the deal."""
    env = BlackjackEnv("live-online")
    rng = seeded(4)
    obs, info = env.reset(seed=4)
    settled = paid = 0
    for _ in range(3000):
        if obs[0] == PHASE_OVER:
            assert info["action_mask"].tolist() == [1] + [0] * (env.action_space.n - 1)
            assert env.round.ended
            net = env.round.net()["agent"]
            refused = env.step(1)  # anything else is refused, and pays nothing
            assert "illegal_action" in refused[4] and not refused[2]
            obs, reward, terminated, truncated, info = env.step(ACKNOWLEDGE)
            assert terminated and not truncated and Decimal(str(reward)) == net
            paid += net != 0
            assert Decimal(info["net"]) == net and not info["action_mask"].any()
            settled += 1
            obs, info = env.reset()
            continue
        obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated or truncated:
            obs, info = env.reset()
    assert settled > 50 and paid > 25, "naturals and dealer naturals are about 5% of rounds"


def test_every_round_of_a_shoe_is_an_episode() -> None:
    """The episodes of a shoe are its rounds, one each, and their returns add up to the replayed net."""
    env = BlackjackEnv("live-online", {"decks": 2, "cut_card": 80})
    rng = seeded(8)
    _obs, info = env.reset(seed=8)
    start = info["shoe"]
    episodes, total, returns = 0, Decimal(0), []
    while True:
        _obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        total += Decimal(str(reward))
        if terminated or truncated:
            episodes += 1
            returns.append(env.round.net()["agent"])
            doc = env.transcript()
            _obs, info = env.reset()
            if info["shoe"] != start:
                break
    replayed = replay_blackjack(doc)
    assert episodes == len(doc["rounds"])
    assert Decimal(replayed["net"]["agent"]) == total == sum(returns)


@pytest.mark.parametrize("preset", ["macau-1983", "live-online"])
def test_record_episode_statistics_sees_the_exact_edge(preset: str) -> None:
    """The exact basic strategy's mean episode return, as RecordEpisodeStatistics records it, is the
    analysis' EV within two standard errors (25,000 rounds from one seed; benchmarks/rl.py runs 10^6)."""
    rounds = 25_000
    env = gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.make(f"croupier/Blackjack-{preset}-v0"), rounds)
    agent = BasicStrategy(env.unwrapped.rules)  # type: ignore[attr-defined]
    obs, info = env.reset(seed=2026)
    while len(env.return_queue) < rounds:
        obs, _reward, terminated, truncated, info = env.step(agent.act(obs, info["action_mask"]))
        if terminated or truncated:
            obs, info = env.reset()
    returns = np.array(env.return_queue, dtype=np.float64)
    mean, se = float(returns.mean()), float(returns.std(ddof=1)) / math.sqrt(rounds)
    assert abs(mean - agent.analysis.ev) < 2 * se, (mean, se, agent.analysis.ev)
