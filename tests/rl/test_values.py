"""Exact baselines: ``info["action_values"]`` from the analysis for the unseen cards, and ``regret``.

* The value of standing on a hard 12-16 is checked against an independent exact computation (the
  dealer's final-total distribution of :func:`croupier.math.blackjack.dealer_outcomes` for the
  same cards).
* Values are given at the first decision only, for legal actions only.
* ``regret``: the optimal EV of single-deck rounds (a new shoe each round) is the analysis' EV; the
  exact basic strategy gives up little at its first decisions, standing on everything much more.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from croupier.blackjack.hand import POINTS
from croupier.cards import RANKS
from croupier.math.blackjack import analyze_blackjack, dealer_outcomes
from croupier.rl.agents import BasicStrategy
from croupier.rl.blackjack import BlackjackEnv
from croupier.rl.encoding import HIT, PHASE_DECISION, STAND
from croupier.rl.values import regret
from croupier.rng import seeded
from tests.rl.support import pick

VALUE = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


def test_standing_on_a_stiff_is_worth_what_the_dealer_distribution_says() -> None:
    """macau-1983 (no hole card; a dealer natural takes the original bet): standing on hard 12-16 wins
    when the dealer busts and loses otherwise, so its EV is 2 P(bust) - 1, for the shoe less the hand."""
    env = BlackjackEnv("macau-1983", action_values=True)
    rules = env.rules
    checked = 0
    obs, info = env.reset(seed=11)
    for _ in range(1200):
        values = info["action_values"]
        hand = env.round.hands[1][0] if 1 in env.round.hands else None
        if obs[0] == PHASE_DECISION and hand is not None and len(hand.cards) == 2 and not hand.soft:
            assert np.isfinite(values[STAND]) and np.isfinite(values[HIT])
            if 12 <= hand.total <= 16:
                counts = [4 * rules.decks] * 13
                for card in hand.cards:
                    counts[RANKS.index(card.rank)] -= 1
                up = env.round.up_card
                assert up is not None
                dealer = dealer_outcomes(rules.dealer_hits_soft_17, composition=counts)
                bust = dealer[VALUE[POINTS[up.rank] - 1]]["bust"]
                assert values[STAND] == pytest.approx(2 * bust - 1, abs=1e-9)
                checked += 1
        masked = ~info["action_mask"].astype(bool)
        assert np.isnan(values[masked]).all(), "no value for an action the mask refuses"
        obs, _reward, terminated, truncated, info = env.step(STAND if info["action_mask"][STAND] else 0)
        assert np.isnan(info["action_values"]).all(), "after standing, no first decision is left"
        if terminated or truncated:
            obs, info = env.reset(options={"new_shoe": True})  # every round from a full shoe
    assert checked > 30


def test_values_only_at_the_first_decision() -> None:
    env = BlackjackEnv("live-online", {"decks": 2}, action_values=True)
    rng = seeded(5)
    obs, info = env.reset(seed=5)
    first = later = 0
    for _ in range(120):  # the shoe carries over: each round is a new composition, one analysis each
        hands = env.round.hands.get(1, [])
        is_first = obs[0] == PHASE_DECISION and len(hands) == 1 and len(hands[0].cards) == 2
        finite = np.isfinite(info["action_values"])
        assert finite.any() == is_first
        assert (finite == info["action_mask"].astype(bool)).all() or not is_first
        first += is_first
        later += obs[0] == PHASE_DECISION and not is_first
        obs, _reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        if terminated or truncated:
            obs, info = env.reset()
            assert math.isfinite(info["round_ev"])
    assert first > 20 and later > 5, (first, later)


def test_regret_against_the_exact_analysis() -> None:
    overrides = {"decks": 1}  # one round per shuffle: every round is dealt from a full deck
    basic = BasicStrategy(BlackjackEnv("macau-1983", overrides).rules)
    found = regret(basic.act, 400, rules_overrides=overrides, seed=3)
    assert found.rounds == 400 and found.decisions > 350
    assert found.optimal_ev == pytest.approx(analyze_blackjack(basic.rules).ev, abs=1e-12)
    assert 0 <= found.decision_regret < 0.005 and found.mistakes < found.decisions / 10

    def stand(obs: np.ndarray, mask: np.ndarray) -> int:
        return STAND if mask[STAND] else int(np.flatnonzero(mask)[0])

    standing = regret(stand, 400, rules_overrides=overrides, seed=3)
    assert standing.decision_regret > 0.1 > 10 * found.decision_regret
    assert standing.mistakes > standing.decisions / 4
    assert abs(standing.regret - standing.decision_regret) < 3 * standing.return_se
