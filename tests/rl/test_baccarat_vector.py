"""The batch baccarat environment is the engine's twin: every shoe its compiled tables dealt, replayed
through BaccaratTable over the same cards with the same bets, gives the same cards to the same places,
the same nets, the same observations and the same end of shoe; refused actions, the step limit and
next-step autoreset behave as documented (docs/rl.md, "A batch of tables")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.state import BaccaratTable, CardDealt, FirstCardTurned, Phase
from croupier.cards import RANKS
from croupier.errors import RulesError
from croupier.rl.baccarat_vector import BaccaratVectorEnv
from croupier.shoe import Shoe

WINNER = {"player": 1, "banker": 2, "tie": 3}


@dataclass
class Episode:
    steps: list[tuple[int, float, int, np.ndarray, bool, bool, bool, np.ndarray]] = field(default_factory=list)
    """(action, reward, net in minor units, observation after, terminated, truncated, refused, the mask
    the step was chosen from)"""
    shoe: tuple[list[Any], int, int | None] | None = None


def play(env: BaccaratVectorEnv, steps: int, seed: int, illegal_every: int = 0) -> list[Episode]:
    """Random legal actions (an out-of-range one every ``illegal_every`` steps); every finished episode."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    current = [Episode() for _ in range(env.num_envs)]
    finished: list[Episode] = []
    resetting = np.zeros(env.num_envs, dtype=bool)
    for n in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        if illegal_every and n % illegal_every == 0:  # a bet the mask refuses, or else no such action
            refused = np.flatnonzero(~masks[n % env.num_envs])
            actions[n % env.num_envs] = refused[n % len(refused)] if len(refused) else env.single_action_space.n
        obs, rewards, terminated, truncated, infos = env.step(actions)
        for i in range(env.num_envs):
            if resetting[i]:  # the step that started the new shoe: reward 0, nothing else happened
                assert rewards[i] == 0 and not terminated[i] and not truncated[i]
                assert obs[i][0] == 0 and obs[i][15] == 0
                continue
            current[i].steps.append(
                (int(actions[i]), float(rewards[i]), int(infos["net_minor"][i]), obs[i].copy(),
                 bool(terminated[i]), bool(truncated[i]), bool(infos["refused"][i]), masks[i].copy())
            )  # fmt: skip
            if terminated[i] or truncated[i]:
                current[i].shoe = env.shoe_cards(i)
                finished.append(current[i])
                current[i] = Episode()
        resetting = terminated | truncated
    return finished


def replay(env: BaccaratVectorEnv, episode: Episode) -> int:
    """The episode through the engine over its shoe; the coups compared."""
    assert episode.shoe is not None
    cards, _, cut = episode.shoe
    rules = env.rules
    table = BaccaratTable(rules, Shoe.stacked(rules.decks, cards, cut))
    seen = np.zeros(len(RANKS), dtype=np.int64)
    mark = 0
    last = (0, 0, 0)
    coups = 0
    for action, reward, net_minor, obs, terminated, truncated, refused, mask in episode.steps:
        for a in range(1, env.single_action_space.n):  # the mask is what the engine takes now
            spot, size = env.bet(a)
            assert bool(mask[a]) == table.can(PlaceBet("agent", spot, size)), (a, spot, size)
        if refused:
            assert reward == -env.illegal_penalty and net_minor == 0
        else:
            if action:
                spot, size = env.bet(action)
                table.apply(PlaceBet("agent", spot, size))
            table.start_coup()
            result = table.last_result
            assert result is not None
            net = result.net.get("agent", Decimal(0))
            assert Decimal(net_minor) / env.unit == net and reward == float(net)
            assert result.last_coup == terminated
            last = (WINNER[result.cards.winner], result.cards.player_total, result.cards.banker_total)
            coups += 1
        for operation in table.operations_since(mark):
            if isinstance(operation, CardDealt | FirstCardTurned):
                seen[RANKS.index(operation.card.rank)] += 1
        mark = table.operation_count
        assert table.shoe is not None
        expected = [table.coup, table.shoe.remaining, *seen, *last]
        assert obs.tolist() == expected
        assert not (terminated and truncated)
    final = episode.steps[-1]
    assert (table.phase is Phase.AWAITING_SHOE) == final[4]  # the shoe's end where the batch ended it
    return coups


CASES: list[tuple[str, Mapping[str, object], dict[str, Any]]] = [
    ("macau", {}, {"bet_sizes": (1, 5)}),
    ("macau", {"commission": "none_super6", "lucky_6": True, "burn": "decks", "burn_each_coup": 1,
               "at_cut_card": "last", "cut_card": "14-40"}, {}),
    ("macau", {"decks": 6, "tie_pays": "9:1", "min_bet": 10, "max_bet": 100, "burn": 3}, {"bet_sizes": (5, 10, 200)}),
    ("macau", {"shuffler": "automatic"}, {"spots": ("banker", "tie")}),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "overrides", "options"), CASES)
def test_every_shoe_of_the_batch_replays_through_the_engine(
    preset: str, overrides: Mapping[str, object], options: dict[str, Any]
) -> None:
    env = BaccaratVectorEnv(3, preset, overrides, max_steps=None, **options)
    episodes = play(env, 260, seed=7, illegal_every=17)
    assert episodes, "no shoe ended"
    coups = sum(replay(env, episode) for episode in episodes)
    assert coups >= 100


def test_refused_actions_deal_nothing_and_cost_the_penalty() -> None:
    env = BaccaratVectorEnv(2, "macau", {"min_bet": 10}, bet_sizes=(5, 10), illegal_penalty=2.5)
    obs, info = env.reset(seed=3)
    assert info["action_mask"][0].tolist() == [True, False, True, False, True, False, True, False, True, False, True]
    after, rewards, _, _, infos = env.step(np.array([1, 0]))  # 5 on player: under the minimum (Art. 14, 18)
    assert rewards[0] == -2.5 and infos["refused"].tolist() == [True, False]
    assert after[0].tolist() == obs[0].tolist() and after[1][0] == 1


def test_the_step_limit_truncates_and_the_next_step_starts_a_new_shoe() -> None:
    env = BaccaratVectorEnv(2, max_steps=3)
    env.reset(seed=11)
    for _ in range(2):
        _, _, terminated, truncated, _ = env.step(np.zeros(2, dtype=np.int64))
        assert not truncated.any()
    obs, rewards, terminated, truncated, _ = env.step(np.zeros(2, dtype=np.int64))
    assert truncated.all() and not terminated.any() and obs[:, 0].tolist() == [3, 3]
    obs, rewards, terminated, truncated, _ = env.step(np.zeros(2, dtype=np.int64))
    assert obs[:, 0].tolist() == [0, 0] and rewards.tolist() == [0.0, 0.0]


def test_a_step_before_the_first_reset_is_refused() -> None:
    with pytest.raises(gym.error.ResetNeeded, match="reset the environment first"):
        BaccaratVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_a_seed_gives_the_same_shoes_and_tables_differ() -> None:
    first, second = BaccaratVectorEnv(2), BaccaratVectorEnv(2)
    a, _ = first.reset(seed=5)
    b, _ = second.reset(seed=5)
    assert a.tolist() == b.tolist()
    assert first.shoe_cards(0) == second.shoe_cards(0) and first.shoe_cards(0) != first.shoe_cards(1)


def test_rule_sets_whose_mask_changes_are_refused_with_the_reason() -> None:
    with pytest.raises(RulesError, match=r"tie_bets = increase_only.*Art. 18"):
        BaccaratVectorEnv(2, "macau", {"tie_bets": "increase_only"})
    with pytest.raises(RulesError, match="whole table units"):
        BaccaratVectorEnv(2, bet_sizes=("2.5",))


def test_gymnasium_makes_the_batch_by_its_vector_entry_point() -> None:
    import croupier.rl  # noqa: F401 (registers the ids)

    envs = gym.make_vec("croupier/Baccarat-macau-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, BaccaratVectorEnv) and envs.num_envs == 4
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (4, 18) and envs.observation_space.contains(obs)
    wrapped = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    wrapped.reset(seed=2)
    lengths: list[int] = []
    for _ in range(300):
        _, _, _, _, infos = wrapped.step(np.zeros(4, dtype=np.int64))
        if "episode" in infos:
            lengths += infos["episode"]["l"][infos["_episode"]].tolist()
    assert len(lengths) >= 4 and min(lengths) >= 30  # a whole shoe each: tens of coups
