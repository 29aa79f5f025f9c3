"""The example agents (docs/rl.md): basic strategy from the exact analysis, random play, the scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from croupier.rl.agents import BasicStrategy, chart_key, random_action
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import DOUBLE, HIT, OBS_SIZE, SPLIT, STAND
from croupier.rl.multi import BlackjackAEC
from croupier.rng import seeded

ROOT = Path(__file__).resolve().parents[2]


def _obs(total: int, soft: int, pair: int, cards: int, up: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    obs[:9] = [2, total, soft, pair, cards, 0, 1, 0, up]
    return obs


def test_chart_keys_read_the_hand_as_the_chart_does() -> None:
    assert chart_key(_obs(16, 0, 8, 2, 10)) == ("pair", "8,8", "T")
    assert chart_key(_obs(12, 1, 1, 2, 1)) == ("pair", "A,A", "A")
    assert chart_key(_obs(18, 1, 0, 3, 6)) == ("soft", "soft 18", "6")
    assert chart_key(_obs(16, 0, 8, 3, 7)) == ("hard", "16", "7")


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("macau-1983", {}), ("live-online", {}), ("live-online", {"surrender": "late", "max_split_hands": 4})],
)
def test_basic_strategy_plays_only_legal_actions(preset: str, overrides: dict[str, object]) -> None:
    env = BlackjackEnv(preset, overrides, bet_sizes=(1, 2))
    agent = BasicStrategy(env.rules)
    obs, info = env.reset(seed=3)
    for _ in range(1500):
        action = agent.act(obs, info["action_mask"])
        assert info["action_mask"][action]
        obs, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()


def test_basic_strategy_follows_the_chart() -> None:
    agent = BasicStrategy(BlackjackEnv("live-online").rules)
    everything = np.ones(9, dtype=np.int8)
    assert agent.act(_obs(11, 0, 0, 2, 6), everything) == DOUBLE
    assert agent.act(_obs(11, 0, 0, 3, 6), np.array([1, 1, 0, 0, 0, 0, 0, 0, 0], dtype=np.int8)) == HIT
    assert agent.act(_obs(16, 0, 8, 2, 6), everything) == SPLIT
    assert agent.act(_obs(20, 0, 10, 2, 6), everything) == STAND
    assert agent.act(_obs(16, 0, 8, 2, 10), np.array([1, 1, 0, 0, 0, 0, 0, 0, 0], dtype=np.int8)) == HIT


def test_agents_play_the_multi_seat_table() -> None:
    env = BlackjackAEC("macau-1983", seats=3, behind=1, bet_sizes=(1, 5))
    agent = BasicStrategy(env.rules)
    rng = seeded(1)
    for episode in range(20):
        env.reset(seed=1 if episode == 0 else None)
        for name in env.agent_iter():
            obs, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            elif name == "seat_1":
                env.step(agent.act(obs, info["action_mask"]))
            else:
                env.step(random_action(info["action_mask"], rng))


@pytest.mark.parametrize(
    "command",
    [
        ["benchmarks/rl.py", "--seconds", "0.05"],
        ["benchmarks/rl_qlearning.py", "--seconds", "0.5", "--eval-rounds", "200"],
    ],
)
def test_the_scripts_run(command: list[str]) -> None:
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "|" in done.stdout
