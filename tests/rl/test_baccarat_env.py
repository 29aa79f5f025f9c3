"""The baccarat betting environment: the checker, masks against the engine, seeds, replay."""

from __future__ import annotations

import warnings
from decimal import Decimal
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import croupier.rl  # noqa: F401  (registers the ids)
from croupier.baccarat.replay import replay_baccarat
from croupier.errors import RulesError
from croupier.rl.baccarat import OBS_FIELDS, BaccaratEnv
from croupier.rng import seeded
from tests.rl.support import pick, refused


@pytest.mark.parametrize("overrides", [{}, {"shuffler": "automatic"}, {"lucky_6": "true", "burn_each_coup": 1}])
def test_gymnasium_checker_passes(overrides: dict[str, object]) -> None:
    env = gymnasium.make("croupier/Baccarat-macau-v0", rules_overrides=overrides, bet_sizes=(1, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def _shoe(env: BaccaratEnv, seed: int, choose: int) -> tuple[list[Any], Decimal]:
    rng = seeded(choose)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs.tolist()]
    net = Decimal(0)
    while True:
        mask = info["action_mask"]
        for action in range(mask.shape[0]):
            if mask[action]:
                env.verify_action(action)
            else:
                assert refused(env.verify_action, action)
        obs, reward, terminated, truncated, info = env.step(pick(mask, rng))
        assert not truncated and "illegal_action" not in info
        net += Decimal(info["net"])
        assert float(Decimal(info["net"])) == reward
        trace.append((obs.tolist(), reward))
        if terminated:
            return trace, net


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"min_bet": 5, "max_side_imbalance": 20, "tie_bets": "increase_only"},
        {"commission": "none_super6", "lucky_6": "true", "at_cut_card": "last", "burn": 3},
        {"shuffler": "automatic"},
    ],
)
def test_a_shoe_replays_from_its_seed_and_its_transcript(overrides: dict[str, object]) -> None:
    sizes = (5, 10, 25) if "min_bet" in overrides else (1, 2, 5)
    env = BaccaratEnv("macau", overrides, bet_sizes=sizes)
    trace, net = _shoe(env, 21, 3)
    assert trace == _shoe(BaccaratEnv("macau", overrides, bet_sizes=sizes), 21, 3)[0]
    result = replay_baccarat(env.transcript())
    assert Decimal(result["net"].get("agent", "0")) == net
    assert len(result["rounds"]) == len(trace) - 1
    assert [r["winner"] for r in result["rounds"]] == [r.winner for r in (c.cards for c in env.table.results)]


def test_the_counter_sees_every_card_but_the_burns() -> None:
    env = BaccaratEnv()
    obs, info = env.reset(seed=2)
    rng = seeded(2)
    seen = OBS_FIELDS.index("seen_A")
    while True:
        table = env.table
        dealt = sum(len(r.cards.player) + len(r.cards.banker) for r in table.results)
        first = 1  # the card turned face up at the shoe's start (Art. 2.1)
        assert int(np.sum(obs[seen : seen + 13])) == dealt + first
        obs, _, terminated, _, info = env.step(pick(info["action_mask"], rng))
        if terminated:
            break


def test_spots_and_sizes_are_checked() -> None:
    with pytest.raises(RulesError, match="lucky_6"):
        BaccaratEnv(spots=("player", "lucky_6"))
    env = BaccaratEnv(spots=("banker",), bet_sizes=(1, "2.5"))
    assert env.action_space.n == 3
