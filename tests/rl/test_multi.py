"""The multi-seat PettingZoo blackjack environment: the API test, Art. 13, masks, replay."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from croupier.blackjack import actions as op
from croupier.blackjack.replay import replay_blackjack, round_result
from croupier.errors import RulesError
from croupier.rl.encoding import FIRST_BET, NO_BET, PHASE_DECISION, PHASE_WAIT
from croupier.rl.multi import BlackjackAEC, blackjack_aec
from croupier.rng import seeded
from tests.rl.support import check_counter_view, pick, refused


@pytest.mark.parametrize(
    ("preset", "overrides", "seats", "behind"),
    [
        ("macau-1983", {}, 4, 3),
        ("live-online", {}, 7, 0),
        ("macau-1983", {"decks": 1}, 3, 1),
    ],
)
def test_pettingzoo_api_test_passes(preset: str, overrides: dict[str, object], seats: int, behind: int) -> None:
    env = blackjack_aec(preset, overrides, seats=seats, behind=behind, bet_sizes=(1, 2, 5))
    api_test(env, num_cycles=300)


def test_seven_agents_at_most_and_no_bets_behind_where_the_rules_refuse_them() -> None:
    with pytest.raises(RulesError, match="at most 7"):
        BlackjackAEC("macau-1983", seats=7, behind=1)
    with pytest.raises(RulesError, match="bet_behind=false"):
        BlackjackAEC("live-online", seats=2, behind=1)
    with pytest.raises(RulesError, match="boxes 1-3"):
        BlackjackAEC("macau-1983", {"boxes": 3}, seats=4)


def _bet(env: BlackjackAEC, box: int, size: int) -> None:
    env.step(FIRST_BET + (box - 1) * len(env.bet_sizes) + size)


def test_the_highest_bet_decides_for_the_box() -> None:
    """Art. 13: a bettor behind with the higher bet makes the box's decisions; on equal bets the seat does."""
    for seed in range(40):
        env = BlackjackAEC("macau-1983", seats=1, behind=1, bet_sizes=(1, 5))
        env.reset(seed=seed)
        _bet(env, 1, 0)  # seat_1: 1 on box 1
        _bet(env, 1, 1)  # behind_1: 5 behind box 1
        current = env.round
        if isinstance(current.pending, op.AwaitDecision):
            break
    else:
        pytest.fail("no round with a decision")
    assert current.decider(1) == "behind_1" == env.agent_selection
    obs, *_, info = env.last()
    assert obs["observation"][0] == PHASE_DECISION
    assert obs["action_mask"].tolist() == info["action_mask"].tolist() and obs["action_mask"].any()
    waiting = env.observe("seat_1")
    assert waiting["observation"][0] == PHASE_WAIT and not waiting["action_mask"].any()
    assert refused(env.verify_action, "seat_1", 0)
    env.step(0)  # behind_1 stands for the box; both bettors' stakes ride on it
    assert [d.player for d in current.operations if isinstance(d, op.Decision)] == ["behind_1"]

    env = BlackjackAEC("macau-1983", seats=1, behind=1, bet_sizes=(1, 5))
    for seed in range(40):
        env.reset(seed=seed)
        _bet(env, 1, 1)
        _bet(env, 1, 1)
        if isinstance(env.round.pending, op.AwaitDecision):
            break
    assert env.round.decider(1) == "seat_1" == env.agent_selection


def test_nobody_bets_nobody_plays() -> None:
    env = BlackjackAEC("live-online", seats=2)
    env.reset(seed=1)
    env.step(NO_BET)
    env.step(NO_BET)
    assert all(env.terminations.values()) and env.rewards == {"seat_1": 0.0, "seat_2": 0.0}
    assert env.round.cards_drawn == 0


def _play(env: BlackjackAEC, seed: int, episodes: int, *, check: bool = True) -> list[Any]:
    rng = seeded(seed)
    trace: list[Any] = []
    returns: dict[str, float] = {}
    env.reset(seed=seed)
    done = 0
    while done < episodes:
        for agent in env.agent_iter():
            observed, reward, terminated, truncated, info = env.last()
            obs = observed["observation"]
            returns[agent] = returns.get(agent, 0.0) + reward
            trace.append((agent, obs.tolist(), reward, terminated, truncated))
            if terminated or truncated:
                env.step(None)
                continue
            mask = info["action_mask"]
            assert observed["action_mask"].tolist() == mask.tolist(), "the mask in the observation is the info's"
            if check:
                for action in range(mask.shape[0]):
                    if mask[action]:
                        env.verify_action(agent, action)
                    else:
                        assert refused(env.verify_action, agent, action), f"{agent}: action {action} is masked"
                current = env.round
                rounds = [*env.session.rounds, current] if not current.ended else env.session.rounds
                check_counter_view(obs, list(rounds), current.shoe.remaining)
                illegal = np.flatnonzero(mask == 0)
                if rng.randbelow(4) == 0:  # refused: nothing changes, the same agent is still to act
                    operations = len(current.operations)
                    env.step(int(illegal[rng.randbelow(len(illegal))]))
                    assert "illegal_action" in env.infos[agent] and env.agent_selection == agent
                    assert len(current.operations) == operations
                    assert env.observe(agent)["observation"].tolist() == obs.tolist()
                    assert env.rewards[agent] == -env.illegal_penalty
                    del env.infos[agent]["illegal_action"]
            env.step(pick(mask, rng))
            assert "illegal_action" not in env.infos.get(agent, {})
        if env.round.ended:
            net = env.round.net()
            for agent, amount in net.items():
                assert Decimal(str(returns.get(agent, 0.0))) == amount
        returns = {}
        done += 1
        env.reset()
    return trace


@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["macau-1983", "live-online"]), seats=st.integers(1, 7))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_masks_offer_only_what_the_engine_allows(seed: int, preset: str, seats: int) -> None:
    behind = 7 - seats if preset == "macau-1983" else 0
    _play(BlackjackAEC(preset, seats=seats, behind=behind, bet_sizes=(1, 2, 5)), seed, 15)


def test_episodes_replay_exactly_from_their_seed() -> None:
    first = _play(BlackjackAEC("macau-1983", {"decks": 2}, seats=3, behind=2, bet_sizes=(1, 5)), 5, 30, check=False)
    again = _play(BlackjackAEC("macau-1983", {"decks": 2}, seats=3, behind=2, bet_sizes=(1, 5)), 5, 30, check=False)
    assert first == again


def test_exported_transcripts_replay_to_the_same_result() -> None:
    env = BlackjackAEC("macau-1983", seats=3, behind=3, bet_sizes=(1, 2, 5))
    rng = seeded(12)
    env.reset(seed=12)
    checked = 0
    while checked < 15:
        for _agent in env.agent_iter():
            _obs, _reward, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else pick(info["action_mask"], rng))
        if env.round.ended:
            doc = json.loads(json.dumps(env.transcript()))
            result = replay_blackjack(doc)
            assert result["rounds"][-1] == round_result(env.round)
            checked += 1
        env.reset()
    assert np.all([isinstance(r, dict) for r in result["rounds"]])
