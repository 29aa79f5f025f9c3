"""Masks every learner can use, a price on illegal actions, a step limit.

* ``mask_in_obs``: a ``Dict`` observation ``{"observation", "action_mask"}`` that Gymnasium's checker
  accepts and whose mask is the info's; ``action_masks()`` (sb3-contrib's convention), also through
  ``gymnasium.make``'s wrappers.
* An illegal action costs ``illegal_penalty`` (one unit by default) or raises, by choice.
* ``max_steps`` truncates an episode an agent stalls: the round in play is void (its stakes returned).
* Baccarat takes ``render_mode`` and the same options.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import croupier.rl  # noqa: F401  (registers the ids)
from croupier.errors import IllegalActionError
from croupier.rl.baccarat import BaccaratEnv
from croupier.rl.blackjack import BlackjackEnv
from croupier.rng import seeded
from tests.rl.support import pick


@pytest.mark.parametrize("bets", [None, (1, 5)])
def test_the_dict_observation_holds_the_mask(bets: tuple[int, ...] | None) -> None:
    env = gymnasium.make("croupier/Blackjack-live-online-v0", bet_sizes=bets, mask_in_obs=True).unwrapped
    assert isinstance(env, BlackjackEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    rng = seeded(1)
    obs, info = env.reset(seed=1)
    for _ in range(600):
        assert env.observation_space.contains(obs)
        assert set(obs) == {"observation", "action_mask"}
        assert obs["action_mask"].tolist() == info["action_mask"].tolist() == env.action_masks().astype(int).tolist()
        assert env.action_masks().dtype == np.bool_
        obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated or truncated:
            assert not obs["action_mask"].any()
            obs, info = env.reset()


def test_action_masks_reach_through_gymnasium_make() -> None:
    env = gymnasium.make("croupier/Blackjack-macau-1983-v0")
    _obs, info = env.reset(seed=3)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.tolist() == info["action_mask"].astype(bool).tolist()


def _illegal(env: BlackjackEnv | BaccaratEnv) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_an_illegal_action_costs_a_unit_by_default_or_raises() -> None:
    env = BlackjackEnv("macau-1983")
    env.reset(seed=5)
    _obs, reward, terminated, truncated, info = env.step(_illegal(env))
    assert reward == -1.0 and not (terminated or truncated) and "illegal_action" in info
    env = BlackjackEnv("macau-1983", illegal_penalty=0.25)
    env.reset(seed=5)
    assert env.step(_illegal(env))[1] == -0.25
    env = BlackjackEnv("macau-1983", illegal_action="raise")
    env.reset(seed=5)
    with pytest.raises(IllegalActionError):
        env.step(_illegal(env))


def test_stalling_is_truncated_and_costs_the_penalties() -> None:
    """An agent that only plays refused actions is cut short at the step limit (100 by default): the
    round in play is void, its stakes returned, and the episode's return is the penalties alone."""
    env = BlackjackEnv("live-online", bet_sizes=(1,))
    env.reset(seed=7)
    env.step(9)  # the bet: a round in play
    while env.round.ended:  # settled by the deal: take the next one
        env.reset()
        env.step(9)
    total, steps = 0.0, 1
    for _ in range(1000):
        _obs, reward, terminated, truncated, info = env.step(_illegal(env))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and steps == 100 and info["step_limit"] == 100
    assert total == -99.0 and env.round.voided and not info["action_mask"].any()
    _obs, info = env.reset()
    assert info["round"] == 1, "the void round drew cards: the next round comes from a new shoe"


def test_a_round_cut_short_gives_back_what_it_paid() -> None:
    """Legal play, then stalling: a step that paid something (a split hand's bust, a lost insurance) is
    taken back by the truncating step, for the round is void; the episode's return is 0."""
    env = BlackjackEnv("macau-1983", {"double_on": "any_two"}, max_steps=4, illegal_penalty=0.0)
    rng = seeded(2)
    _obs, info = env.reset(seed=2)
    cut = paid_then_cut = 0
    for _ in range(6000):
        given, paid, steps = 0.0, False, 0
        terminated = truncated = False
        while not (terminated or truncated):
            legal = steps < 2 or rng.randbelow(2) == 0
            action = pick(info["action_mask"], rng) if legal else _illegal(env)
            _obs, reward, terminated, truncated, info = env.step(action)
            given += reward
            paid = paid or (reward != 0 and not (terminated or truncated))
            steps += 1
        if "step_limit" in info:
            cut += 1
            paid_then_cut += paid
            assert given == 0.0 and env.round.voided
        _obs, info = env.reset()
    assert cut > 60 and paid_then_cut >= 4, (cut, paid_then_cut)


def test_baccarat_takes_render_mode_masks_and_a_step_limit() -> None:
    env = gymnasium.make("croupier/Baccarat-macau-v0", render_mode="ansi", mask_in_obs=True, max_steps=30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=4)
    assert obs["action_mask"].tolist() == info["action_mask"].tolist()
    assert "no coup" in str(env.render())
    obs, reward, *_ = env.step(1)
    assert str(env.render()).startswith("coup 1:")
    base = env.unwrapped
    assert isinstance(base, BaccaratEnv)
    assert base.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
    obs, reward, terminated, truncated, info = base.step(99)  # no such action
    assert reward == -1.0 and "illegal_action" in info
    steps = 2
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(0)
        steps += 1
    assert truncated and steps == 30 and info["step_limit"] == 30
