"""The single-agent blackjack environment: checkers, masks against the engine, replay.

* Gymnasium's own checker passes for both presets, with and without bet decisions, made by id.
* Masks never offer an illegal action: every masked-legal action passes the engine's ``verify_``
  face and succeeds when taken; every masked-illegal one is refused by the engine and leaves the
  state as it was (random rule sets, Hypothesis).
* Episodes replay exactly from their seed; the shoe carries over between episodes; the counter's
  view in the observation is what lies face up on the table.
* The shoe's transcript replays through ``croupier replay`` to the same rounds and the same net as
  the rewards.
"""

from __future__ import annotations

import itertools
import json
import warnings
from decimal import Decimal
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import croupier.rl  # noqa: F401  (registers the ids)
from croupier import transcript
from croupier.blackjack.replay import replay_blackjack, round_result
from croupier.blackjack.rules import Rules
from croupier.errors import IllegalActionError
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import FIRST_BET, NO_BET, OBS_FIELDS, OBS_SIZE, default_bet
from croupier.rng import seeded
from tests.blackjack.test_properties import rule_sets
from tests.rl.support import check_counter_view, pick, refused


@pytest.mark.parametrize("preset", ["macau-1983", "live-online"])
@pytest.mark.parametrize("bets", [None, (1, 2, 5)])
def test_gymnasium_checker_passes(preset: str, bets: tuple[int, ...] | None) -> None:
    env = gymnasium.make(f"croupier/Blackjack-{preset}-v0", bet_sizes=bets)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checker warning either
        check_env(env.unwrapped)
    assert env.observation_space.shape == (OBS_SIZE,) == (len(OBS_FIELDS),)


def test_registered_ids_take_rule_overrides() -> None:
    env = gymnasium.make("croupier/Blackjack-macau-1983-v0", rules_overrides={"decks": 2, "surrender": "none"})
    base: Any = env.unwrapped
    assert base.rules.decks == 2 and base.rules.surrender == "none"
    obs, _ = env.reset(seed=1)
    assert obs[OBS_FIELDS.index("remaining")] <= 104


def test_a_round_in_the_middle_of_the_shoe_needs_no_reset_of_the_shoe() -> None:
    env = BlackjackEnv("live-online")
    obs, info = env.reset(seed=11)
    remaining = [int(obs[-1])]
    shoes = {info["shoe"]}
    rng = seeded(1)
    for _ in range(400):
        obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated or truncated:
            obs, info = env.reset()
            shoes.add(info["shoe"])
            remaining.append(int(obs[-1]))
    assert len(shoes) >= 2, "the cut card brings a new shoe"
    # within a shoe the shoe only empties; a new shoe starts full (less the burns and this round's cards)
    assert any(later < earlier for earlier, later in itertools.pairwise(remaining))
    assert any(later > earlier for earlier, later in itertools.pairwise(remaining))


def _play(env: BlackjackEnv, seed: int, episodes: int, choose_seed: int) -> list[Any]:
    """Random legal play from ``seed``; everything the agent saw, in order."""
    rng = seeded(choose_seed)
    seen: list[Any] = []
    obs, info = env.reset(seed=seed)
    seen.append((obs.tolist(), info["action_mask"].tolist()))
    done = 0
    while done < episodes:
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        seen.append((obs.tolist(), reward, terminated, truncated, info["action_mask"].tolist(), info.get("net")))
        if terminated or truncated:
            done += 1
            obs, info = env.reset()
            seen.append((obs.tolist(), info["action_mask"].tolist()))
    return seen


def test_episodes_replay_exactly_from_their_seed() -> None:
    overrides = {"decks": 2, "cut_card": 70}
    first = _play(BlackjackEnv("macau-1983", overrides, bet_sizes=(1, 5)), 42, 60, 7)
    again = _play(BlackjackEnv("macau-1983", overrides, bet_sizes=(1, 5)), 42, 60, 7)
    assert first == again
    other = _play(BlackjackEnv("macau-1983", overrides, bet_sizes=(1, 5)), 43, 60, 7)
    assert other != first


def test_a_reset_with_the_seed_starts_the_same_shoe_again() -> None:
    env = BlackjackEnv("live-online")
    obs, _ = env.reset(seed=5)
    env.step(0)
    env.reset()
    again, _ = env.reset(seed=5)
    assert obs.tolist() == again.tolist()


def _check_masks(env: BlackjackEnv, info: dict[str, Any]) -> None:
    """Every masked-legal action passes the engine's verify_ face; every other one is refused by it."""
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    for action in range(env.action_space.n):
        if mask[action]:
            env.verify_action(action)
        else:
            assert refused(env.verify_action, action), f"action {action} is masked but the engine allows it"


def _drive(env: BlackjackEnv, seed: int, episodes: int) -> tuple[list[Any], Decimal]:
    """Random play checking every mask; an illegal action now and then must change nothing."""
    rng = seeded(seed)
    obs, info = env.reset(seed=seed)
    total = Decimal(0)
    rounds = []
    done = 0
    while done < episodes:
        _check_masks(env, info)
        mask = info["action_mask"]
        illegal = np.flatnonzero(mask == 0)
        if len(illegal) and rng.randbelow(4) == 0:
            before = obs.tolist()
            action = int(illegal[rng.randbelow(len(illegal))])
            obs, reward, terminated, truncated, info = env.step(action)
            assert "illegal_action" in info and reward == -env.illegal_penalty and not (terminated or truncated)
            assert obs.tolist() == before and info["action_mask"].tolist() == mask.tolist()
            continue
        obs, reward, terminated, truncated, info = env.step(pick(mask, rng))
        total += Decimal(str(reward))
        assert "illegal_action" not in info, info
        if terminated or truncated:
            assert not info["action_mask"].any()
            done += 1
            if terminated:
                rounds.append(env.round)
                assert Decimal(info["net"]) == env.round.net()["agent"]
            obs, info = env.reset()
    return rounds, total


def _bet_sizes(rules: Rules) -> tuple[Decimal, ...]:
    unit = default_bet(rules)
    sizes = [unit, unit * 2, unit * 5]
    if rules.max_bet is not None:
        sizes = [size for size in sizes if size <= rules.max_bet]
    return tuple(sizes)


@given(rules=rule_sets(), seed=st.integers(0, 2**32), with_bets=st.booleans())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_masks_offer_only_what_the_engine_allows(rules: Rules, seed: int, with_bets: bool) -> None:
    env = BlackjackEnv(rules.preset, rules.describe(), bet_sizes=_bet_sizes(rules) if with_bets else None)
    assert env.rules == rules
    rounds, _ = _drive(env, seed, 40)
    assert all(played.ended for played in rounds)


def test_every_masked_legal_action_succeeds_when_taken() -> None:
    """At each decision of a few episodes, each legal action taken from a copy replayed from the seed."""
    overrides = {"double_on": "any_two", "surrender": "late"}
    rng = seeded(3)
    prefix: list[int] = []
    env = BlackjackEnv("macau-1983", overrides, bet_sizes=(1, 2))
    _obs, info = env.reset(seed=9)
    for _ in range(12):
        for action in np.flatnonzero(info["action_mask"]):
            copy = BlackjackEnv("macau-1983", overrides, bet_sizes=(1, 2))
            _, copy_info = copy.reset(seed=9)
            for earlier in prefix:
                *_, ended, cut, copy_info = copy.step(earlier)
                if ended or cut:
                    _, copy_info = copy.reset()
            assert copy_info["action_mask"].tolist() == info["action_mask"].tolist()
            *_, copy_info = copy.step(int(action))
            assert "illegal_action" not in copy_info
        action = pick(info["action_mask"], rng)
        prefix.append(action)
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()


def test_illegal_actions_can_raise_the_engines_error() -> None:
    env = BlackjackEnv("macau-1983", illegal_action="raise")
    _, info = env.reset(seed=2)
    assert not info["action_mask"][NO_BET]
    with pytest.raises(IllegalActionError, match="must bet"):
        env.step(NO_BET)
    env = BlackjackEnv("live-online", bet_sizes=(1,), illegal_action="raise")
    env.reset(seed=2)
    with pytest.raises(IllegalActionError, match="waits for bets"):
        env.step(1)  # a hit before the deal


@pytest.mark.parametrize("preset", ["macau-1983", "live-online"])
def test_the_counter_sees_what_lies_face_up(preset: str) -> None:
    env = BlackjackEnv(preset, {"decks": 1} if preset == "live-online" else {"decks": 2})
    rng = seeded(4)
    obs, info = env.reset(seed=4)
    shoes = {info["shoe"]}
    for _ in range(300):
        rounds = [*env.session.rounds, env.round] if not env.round.ended else list(env.session.rounds)
        check_counter_view(obs, rounds, env.round.shoe.remaining)
        obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated or truncated:
            check_counter_view(obs, list(env.session.rounds), env.round.shoe.remaining)
            obs, info = env.reset()
            shoes.add(info["shoe"])  # a new shoe: the count starts again (checked against its rounds only)
    assert len(shoes) > 1


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("macau-1983", {}),
        ("live-online", {}),
        ("macau-1983", {"decks": 1}),  # one round per shuffle (Art. 2.2)
        ("live-online", {"decks": 2, "double_for_less": "false", "surrender": "late", "cut_card": 90}),
    ],
)
def test_exported_transcripts_replay_to_the_same_result(preset: str, overrides: dict[str, object]) -> None:
    env = BlackjackEnv(preset, overrides, bet_sizes=(1, "2.5", 10) if preset == "live-online" else (1, 5))
    rng = seeded(8)
    _obs, info = env.reset(seed=8)
    checked = 0
    while checked < 40:
        _obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated:
            doc = json.loads(json.dumps(env.transcript()))  # through JSON, as a file would be
            result = replay_blackjack(transcript.load(json.dumps(doc)))
            assert result["rounds"][-1] == round_result(env.round)
            assert len(result["rounds"]) == len(env.session.rounds)
            checked += 1
        if terminated or truncated:
            _obs, info = env.reset()


def test_rewards_add_up_to_the_net_of_the_shoe() -> None:
    env = BlackjackEnv("macau-1983", {"decks": 3, "cut_card": 100})
    rng = seeded(6)
    _obs, info = env.reset(seed=6)
    returns = Decimal(0)
    start = info["shoe"]
    while True:
        _obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        returns += Decimal(str(reward))
        if terminated or truncated:
            doc = env.transcript()
            _obs, info = env.reset()
            if info["shoe"] != start:
                break
    replayed = replay_blackjack(doc)
    assert Decimal(replayed["net"]["agent"]) == returns


def test_bets_are_the_first_decision() -> None:
    env = BlackjackEnv("live-online", bet_sizes=(5, 10, 25))
    obs, info = env.reset(seed=1)
    assert obs[0] == 0 and info["action_mask"].tolist() == [0] * 9 + [1, 1, 1]
    env.step(FIRST_BET + 2)
    assert env.round.bets[1] == {"agent": Decimal(25)}


def test_a_shoe_that_runs_out_voids_the_round() -> None:
    """No cut card and many rounds: the round that finds no card is void (Art. 2.1), truncated, net 0."""
    env = BlackjackEnv("live-online", {"decks": 1, "cut_card": "none"})
    rng = seeded(2)
    obs, info = env.reset(seed=2)
    given = 0.0
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        given += reward
        if truncated:
            assert env.round.voided and given == 0.0
            obs, info = env.reset()
            assert obs[-1] > 40, "a new shoe"
            return
        if terminated:
            given = 0.0
            obs, info = env.reset()
    pytest.fail("the shoe never ran out")


def test_the_ansi_render_shows_the_table() -> None:
    env = BlackjackEnv("macau-1983", render_mode="ansi")
    _obs, info = env.reset(seed=3)
    text = env.render()
    assert text is not None and text.startswith("dealer ") and "box 1.0" in text
    while True:
        *_, terminated, truncated, info = env.step(0 if info["action_mask"][0] else 7)
        if terminated or truncated:
            break
    final = env.render()
    assert final is not None and "net agent" in final
