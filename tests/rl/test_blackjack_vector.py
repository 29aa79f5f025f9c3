"""The batch blackjack environment is the engine's twin: every round its compiled tables played, replayed
through the single environment (the engine's Table and Round.apply) over the same shoes with the same
actions, gives the same observations, masks, nets and episode ends; the step limit, next-step
autoreset and seeding behave as documented (docs/rl.md, "A batch of blackjack tables in one compiled
call")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from croupier.blackjack.state import Table
from croupier.cards import Card
from croupier.errors import RulesError
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.blackjack_vector import BlackjackVectorEnv
from croupier.rl.session import TableSession
from croupier.shoe import Shoe

ShoeCards = tuple[list[Card], int, int | None]


@dataclass
class Episode:
    shoe: int
    start: tuple[list[int], list[int]]
    """the observation and mask the episode starts from"""
    steps: list[tuple[int, float, int, list[int], list[int], bool, bool, bool]] = field(default_factory=list)
    """(action, reward, net in minor units, observation after, mask after, terminated, truncated, refused)"""


class StackedSession(TableSession):
    """The single environment's session over the batch's shoes, in order, instead of seeded shuffles."""

    def __init__(self, rules: Any, shoes: list[ShoeCards]) -> None:
        super().__init__(rules)
        self.queue = list(shoes)

    def new_shoe(self) -> None:
        cards, _, cut = self.queue.pop(0)
        shoe = Shoe.stacked(self.rules.decks, cards, cut)
        if self._table is None:
            self._table = Table(self.rules, shoe)
        else:
            current = self._table.round
            if current is not None and not (current.ended or current.voided):
                current.void("a new shoe")
            self._table.new_shoe(shoe)
        self.shoe_number += 1
        self.rounds = []
        self.seen[:] = 0
        self._spent = False


def play(env: BlackjackVectorEnv, steps: int, seed: int, illegal_every: int = 0):  # type: ignore[no-untyped-def]
    """Random legal actions (an illegal one every ``illegal_every`` steps): each table's finished
    episodes and the latest picture of each shoe they were dealt from."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    n = env.num_envs
    current = [Episode(1, (obs[i].tolist(), info["action_mask"][i].astype(int).tolist())) for i in range(n)]
    finished: list[list[Episode]] = [[] for _ in range(n)]
    shoes: dict[tuple[int, int], ShoeCards] = {}
    resetting = np.zeros(n, dtype=bool)
    for step in range(steps):
        masks = env.action_masks()
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        if illegal_every and step % illegal_every == 0:
            i = step % n
            illegal = np.flatnonzero(~masks[i])
            actions[i] = illegal[step % len(illegal)] if len(illegal) else env.single_action_space.n
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert env.observation_space.contains(obs)
        numbers = env.shoe_numbers
        for i in range(n):
            mask = infos["action_mask"][i].astype(int).tolist()
            if resetting[i]:  # the step that dealt the next round: reward 0, the action unused
                assert rewards[i] == 0 and not terminated[i] and not truncated[i]
                current[i] = Episode(int(numbers[i]), (obs[i].tolist(), mask))
                continue
            current[i].steps.append(
                (int(actions[i]), float(rewards[i]), int(infos["net_minor"][i]), obs[i].tolist(), mask,
                 bool(terminated[i]), bool(truncated[i]), bool(infos["refused"][i]))
            )  # fmt: skip
            if terminated[i] or truncated[i]:
                finished[i].append(current[i])
                shoes[(i, int(numbers[i]))] = env.shoe_cards(i)
        resetting = terminated | truncated
    return finished, shoes


def replay(
    env: BlackjackVectorEnv, table: int, episodes: list[Episode], shoes: dict[tuple[int, int], ShoeCards]
) -> int:
    """One table's episodes through the single environment over the same shoes; every step compared."""
    last = episodes[-1].shoe
    single = BlackjackEnv(env.rules.preset, env.overrides, illegal_penalty=env.illegal_penalty, max_steps=env.max_steps)
    single.session = StackedSession(single.rules, [shoes[(table, s)] for s in range(1, last + 1)])
    decisions = 0
    for number, episode in enumerate(episodes):
        obs, info = single.reset(seed=0) if number == 0 else single.reset()
        assert single.session.shoe_number == episode.shoe
        assert (obs.tolist(), info["action_mask"].tolist()) == episode.start
        total = 0
        for action, reward, net_minor, after, mask, terminated, truncated, refused in episode.steps:
            obs, single_reward, single_terminated, single_truncated, info = single.step(action)
            assert ("illegal_action" in info) == refused
            assert obs.tolist() == after
            assert (single_terminated, single_truncated) == (terminated, truncated)
            assert single_reward == pytest.approx(reward, abs=1e-12)
            if not (terminated or truncated):
                assert info["action_mask"].tolist() == mask
            total += net_minor
            decisions += not refused
        if terminated:
            assert Decimal(info["net"]) * env.unit == total
            assert Decimal(total) / env.unit == single.round.net().get("agent", Decimal(0))
        elif "step_limit" in info and single.round.voided:
            assert total == 0  # a round cut short in play is void: what it paid is taken back
    return decisions


CASES: list[tuple[str, Mapping[str, object]]] = [
    ("macau-1983", {}),
    ("live-online", {}),
    ("macau-1983", {"surrender": "late", "double_on": "any_two", "double_after_split": True, "resplit_aces": True,
                    "dealer_draws_when_moot": False, "decks": 1, "cut_card": 20}),
    ("live-online", {"hole_card": "peek", "surrender": "late", "dealer_blackjack_takes": "all", "decks": 2,
                     "even_money": True, "max_split_hands": 4, "split_aces_one_card": False}),
    ("live-online", {"hole_card": "none", "surrender": "early_not_ace", "even_money": True, "burn_each_round": 2,
                     "burn_before_dealer_second": 1, "bonus_777": "2:1", "decks": 1}),
    ("macau-1983", {"insurance_pays": "none", "decks": 1, "cut_card": "none"}),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "overrides"), CASES)
def test_every_round_of_the_batch_replays_through_the_engine(preset: str, overrides: Mapping[str, object]) -> None:
    env = BlackjackVectorEnv(3, preset, overrides, max_steps=12)
    finished, shoes = play(env, 400, seed=7, illegal_every=13)
    decisions = 0
    for table, episodes in enumerate(finished):
        assert len(episodes) > 50
        decisions += replay(env, table, episodes, shoes)
    assert decisions >= 600
    assert any(len(e.steps) == 1 and e.start[0][0] == 3 for t in finished for e in t)  # settled by the deal
    assert any(e.start[0][0] == 1 for t in finished for e in t)  # an insurance offer
    assert len({s for (_, s) in shoes}) >= 2  # shoes ended and new ones began


def test_the_step_limit_truncates_and_the_next_step_deals_a_new_round() -> None:
    env = BlackjackVectorEnv(2, max_steps=2, illegal_penalty=2.0)
    env.reset(seed=11)
    refuse = np.full(2, 9)  # no such action: refused
    _, rewards, terminated, truncated, infos = env.step(refuse)
    assert rewards.tolist() == [-2.0, -2.0] and not (terminated.any() or truncated.any())
    obs, rewards, terminated, truncated, infos = env.step(refuse)
    assert truncated.all() and not terminated.any() and obs[:, 0].tolist() == [3, 3]
    assert infos["action_mask"].all()  # the next step's action is not used
    before = env.shoe_numbers
    obs, rewards, terminated, truncated, _ = env.step(refuse)
    assert rewards.tolist() == [0.0, 0.0] and not (terminated.any() or truncated.any())
    assert (env.shoe_numbers == before + 1).all()  # the void round's shoe is not dealt on
    assert all(obs[i, 23] < 312 for i in range(2)) and obs[:, 4].min() >= 2


def test_a_step_before_the_first_reset_is_refused() -> None:
    with pytest.raises(gym.error.ResetNeeded, match="reset the environment first"):
        BlackjackVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_a_seed_gives_the_same_shoes_and_tables_differ() -> None:
    first, second = BlackjackVectorEnv(2), BlackjackVectorEnv(2)
    a, _ = first.reset(seed=5)
    b, _ = second.reset(seed=5)
    assert a.tolist() == b.tolist()
    assert first.shoe_cards(0) == second.shoe_cards(0) and first.shoe_cards(0) != first.shoe_cards(1)
    actions = np.zeros(2, dtype=np.int64)
    for _ in range(20):
        assert first.step(actions)[0].tolist() == second.step(actions)[0].tolist()


def test_gymnasium_makes_the_batch_by_its_vector_entry_point() -> None:
    import croupier.rl  # noqa: F401 (registers the ids)

    envs = gym.make_vec("croupier/Blackjack-live-online-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, BlackjackVectorEnv) and envs.num_envs == 4
    assert envs.unwrapped.rules.preset == "live-online"
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (4, 24) and envs.observation_space.contains(obs)


def test_rule_sets_the_batch_cannot_play_are_refused_naming_the_rule() -> None:
    with pytest.raises(RulesError, match="min_bet"):
        BlackjackVectorEnv(2, "macau-1983", {"min_bet": 5})
    with pytest.raises(RulesError, match="cut_card = none"):
        BlackjackVectorEnv(2, "live-online", {"cut_card": "none"})
