"""The example agents (docs/rl.md): basic strategy from the exact analysis, random play, the scripts."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from croupier.rl.agents import BasicStrategy, chart_key, random_action
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import DOUBLE, FIRST_BET, HIT, NO_BET, OBS_SIZE, SPLIT, STAND
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
    """Basic strategy at seat 1 and random play at seats 2-3 and behind: every action they choose is one the
    mask offers and the engine takes; every episode is one round, settled, with each agent's rewards adding
    up to what the round paid it; and each agent bets and decides."""
    env = BlackjackAEC("macau-1983", seats=3, behind=1, bet_sizes=(1, 5), illegal_action="raise")
    agent = BasicStrategy(env.rules)
    rng = seeded(1)
    acted: dict[str, set[str]] = {name: set() for name in env.possible_agents}
    for episode in range(20):
        env.reset(seed=1 if episode == 0 else None)
        earned = dict.fromkeys(env.possible_agents, 0.0)
        finals: dict[str, dict[str, object]] = {}
        for name in env.agent_iter(max_iter=500):
            obs, reward, terminated, truncated, info = env.last()
            earned[name] += reward
            assert not truncated, "a six-deck shoe does not run out in twenty rounds"
            if terminated:
                finals[name] = info
                env.step(None)
                continue
            mask = info["action_mask"]
            action = agent.act(obs, mask) if name == "seat_1" else random_action(mask, rng)  # the Dict observation
            assert mask[action], (name, action, mask)
            acted[name].add("bet" if action >= FIRST_BET else "no_bet" if action == NO_BET else "decide")
            env.step(action)
        assert env.agents == [] and set(finals) == set(env.possible_agents), "the episode did not end"
        assert env.round.pending is None  # settled (or not dealt: nobody bet)
        net = env.round.net()
        for name, info in finals.items():
            assert Decimal(str(info["net"])) == net.get(name, Decimal(0))
            assert earned[name] == float(net.get(name, Decimal(0))), (name, earned[name], net)
    assert acted["seat_1"] >= {"bet", "decide"}
    assert all("bet" in kinds for kinds in acted.values())


@pytest.mark.parametrize(
    "command",
    [
        ["benchmarks/rl.py", "--seconds", "0.05", "--rounds", "300"],
        ["benchmarks/rl_qlearning.py", "--seconds", "0.5", "--eval-rounds", "200"],
        ["benchmarks/rl_pg.py", "--episodes", "2000", "--eval-rounds", "100"],
        ["benchmarks/rl_ppo.py", "--envs", "64", "--steps", "8", "--iterations", "10", "--eval-rounds", "100"],
    ],
)
def test_the_scripts_run(command: list[str]) -> None:
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "|" in done.stdout
