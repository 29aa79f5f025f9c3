"""The twin test: the simulator's rounds, replayed through the engine, give exactly the same
cards (each to the same place), the same decisions in the same order, and the same payments.

Every rule set here is played by the compiled simulator with its cards recorded
(:func:`croupier.sim.record_blackjack`); :func:`tests.sim.twin.replay` then stacks each recorded shoe
(:meth:`croupier.shoe.Shoe.stacked`, with the simulator's cut card), deals the same rounds through
:class:`croupier.blackjack.state.Table` with a one-unit bet per box, makes the recorded decisions
(the engine refuses any it does not allow), and compares every card's destination and every box's
net payment. Voided rounds (a shoe that runs out) must run out at the same card in the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.blackjack.presets import blackjack_rules
from croupier.sim import record_blackjack, strategy_from_chart
from croupier.sim.blackjack import Shuffle
from tests.sim.twin import replay

BOLD_CHART = {
    "hard": {
        "8": "DDDDDDDDDD",
        "9": "DDDDDDDDDD",
        "10": "DDDDDDDDDD",
        "11": "DDDDDDDDDD",
        "12": "HHSSSHHHRR",
        "13": "SSSSSHHHRR",
        "14": "SSSSSHHRRR",
        "15": "SSSSSRRRRR",
        "16": "SSSSSrrrrr",
    },
    "soft": {"13": "DDDDDHHHHH", "14": "DDDDDHHHHH", "17": "ddddddHHHH", "18": "ddddddSHHH"},
    "pair": {name: "PPPPPPPPPP" for name in ("A", "2", "3", "4", "6", "7", "8", "9", "T")},
}
"""A chart that splits every pair (but fives), doubles and surrenders often: it drives every rule of
splits, resplits, doubles after splits, surrender and the one-card split aces many times per shoe."""

CASES: list[tuple[str, dict[str, object], int, Shuffle, bool]] = [
    ("macau-1983", {}, 1, "shoe", False),
    ("macau-1983", {}, 7, "shoe", False),
    ("macau-1983", {}, 3, "shoe", True),
    ("macau-1983", {"decks": 1}, 1, "shoe", False),  # the metal box
    ("macau-1983", {"decks": 1}, 4, "shoe", True),
    ("macau-1983", {"dealer_hits_soft_17": True, "dealer_draws_when_moot": False}, 3, "shoe", True),
    ("macau-1983", {"hole_card": "peek", "dealer_blackjack_takes": "original", "surrender": "late"}, 2, "shoe", True),
    ("macau-1983", {"double_on": "any_two", "double_after_split": True, "resplit_aces": True}, 3, "shoe", True),
    ("macau-1983", {"burn_each_round": 2, "burn_before_dealer_second": 2, "burn_at_shoe_start": 3}, 2, "shoe", True),
    ("macau-1983", {"blackjack_pays": "6:5", "bonus_678_suited": "5:2", "bonus_777": "none"}, 2, "shoe", True),
    ("macau-1983", {}, 2, "continuous", True),
    ("live-online", {}, 1, "shoe", False),
    ("live-online", {}, 7, "shoe", False),
    ("live-online", {}, 7, "shoe", True),
    ("live-online", {"dealer_hits_soft_17": False, "hole_card": "peek", "surrender": "late"}, 3, "shoe", True),
    ("live-online", {"max_split_hands": 4, "resplit_aces": True, "split_aces_one_card": False}, 2, "shoe", True),
    (
        "live-online",
        {"dealer_blackjack_takes": "all", "double_after_split": False, "double_on": "9_11"},
        3,
        "shoe",
        True,
    ),
    (
        "live-online",
        {"hole_card": "none", "dealer_draws_when_moot": True, "burn_before_dealer_second": 1},
        2,
        "shoe",
        True,
    ),
    ("live-online", {"decks": 2, "cut_card": "none"}, 7, "shoe", True),  # shoes run out: voided rounds
    ("live-online", {"decks": 1, "burn_at_shoe_start": 0, "cut_card": 10}, 5, "shoe", True),  # peek, one deck
    ("live-online", {}, 3, "continuous", False),
]


@pytest.mark.parametrize(("preset", "overrides", "boxes", "shuffle", "bold"), CASES)
def test_simulator_is_the_engines_twin(
    preset: str, overrides: dict[str, object], boxes: int, shuffle: Shuffle, bold: bool
) -> None:
    rules = blackjack_rules(preset, overrides)
    strategy = strategy_from_chart(rules, BOLD_CHART, "bold chart") if bold else None
    rounds = 1500
    recorded, result = record_blackjack(
        rules, rounds, seed=f"twin {preset} {sorted(overrides.items())}", boxes=boxes, shuffle=shuffle,
        strategy=strategy, chunk_rounds=600,
    )  # fmt: skip
    assert replay(rules, shuffle, recorded, boxes) == rounds == result.rounds
    assert sum(sum(r.nets) for r in recorded if r.nets is not None) == result.net
    decisions = {kind for r in recorded for _, _, kind in r.decisions}
    if bold:
        assert {"split", "double", "hit", "stand"} <= decisions
        if rules.surrender != "none":
            assert "surrender" in decisions
    if overrides.get("cut_card") == "none":
        assert result.counts["voided_rounds"] > 0


# --------------------------------------------------------------------------------------------------
# random rule sets and random charts

RULE_VALUES: dict[str, tuple[object, ...]] = {
    "decks": (1, 2, 6, 8),
    "dealer_hits_soft_17": (True, False),
    "hole_card": ("none", "peek", "peek_ace"),
    "dealer_blackjack_takes": ("all", "original"),
    "double_on": ("any_two", "9_11", "10_11", "11"),
    "double_after_split": (True, False),
    "max_split_hands": (1, 2, 3, 4),
    "split_aces_one_card": (True, False),
    "resplit_aces": (True, False),
    "surrender": ("none", "early_not_ace", "late"),
    "blackjack_pays": ("3:2", "6:5", "1:1", "7:5"),
    "bonus_678_suited": ("3:1", "5:2", None),
    "bonus_777": ("3:1", "2:1", None),
    "dealer_draws_when_moot": (True, False),
    "burn_at_shoe_start": ("decks", 0, 1, 10),
    "burn_each_round": (0, 1, 2),
    "burn_before_dealer_second": (0, 1, 2),
    "cut_card": ("20-30", "52-78", 40, "none"),
}
"""Values of every rule parameter the simulator plays (the rest concern bets it does not make)."""


@st.composite
def random_chart(draw: st.DrawFn) -> dict[str, dict[str, str]]:
    def row(letters: str) -> str:
        return "".join(draw(st.sampled_from(letters)) for _ in range(10))

    return {
        "hard": {str(total): row("HSDdRr") for total in range(4, 21) if draw(st.booleans())},
        "soft": {str(total): row("HSDdRr") for total in range(12, 21) if draw(st.booleans())},
        "pair": {name: row("PPHSDR") for name in "A23456789T" if draw(st.booleans())},
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["macau-1983", "live-online"]),
    overrides=st.fixed_dictionaries(
        {}, optional={name: st.sampled_from(values) for name, values in RULE_VALUES.items()}
    ),
    boxes=st.integers(1, 7),
    chart=random_chart(),
    shuffle=st.sampled_from(["shoe", "shoe", "continuous"]),
    seed=st.integers(0, 2**32),
)
def test_random_rule_sets_and_charts_are_twins(
    preset: str, overrides: dict[str, object], boxes: int, chart: dict[str, dict[str, str]], shuffle: Shuffle, seed: int
) -> None:
    rules = blackjack_rules(preset, overrides, floors=False)  # the twins agree on any payout
    strategy = strategy_from_chart(rules, chart, "random chart")
    recorded, result = record_blackjack(
        rules, 150, seed=seed, boxes=boxes, shuffle=shuffle, strategy=strategy, chunk_rounds=100
    )
    assert replay(rules, shuffle, recorded, boxes) == 150 == result.rounds
