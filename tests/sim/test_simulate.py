"""The simulator against the exact analysis, its reproducibility, its strategy tables and its report."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from rich.console import Console

from croupier.blackjack.presets import blackjack_rules
from croupier.codes import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from croupier.math.blackjack import analyze_blackjack
from croupier.sim import (
    ChartError,
    SimulationError,
    load_chart,
    record_blackjack,
    result_document,
    simulate_blackjack,
    strategy_from_analysis,
    strategy_from_chart,
)
from croupier.sim.blackjack import money_unit, seed_words
from croupier.sim.generator import below, seed_state
from croupier.terminal.render import render_blackjack_simulation


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("macau-1983", {}),
        ("live-online", {}),
        ("live-online", {"hole_card": "peek", "surrender": "late", "dealer_hits_soft_17": False}),
    ],
)
def test_continuous_shuffle_agrees_with_the_exact_analysis(preset: str, overrides: dict[str, object]) -> None:
    """10^6 rounds within 3 standard errors of the exact EV (the 10^8-round check is benchmarks/simulate.py)."""
    rules = blackjack_rules(preset, overrides)
    analysis = analyze_blackjack(rules)
    result = simulate_blackjack(
        rules, 1_000_000, seed="ev check", shuffle="continuous", strategy=strategy_from_analysis(rules, analysis)
    )
    assert abs(result.ev - analysis.ev) < 3 * result.se
    assert abs(result.sd - analysis.sd) < 0.01
    assert result.counts["voided_rounds"] == 0


def test_same_seed_and_chunking_give_the_same_result_on_any_number_of_cores() -> None:
    rules = blackjack_rules("live-online")
    one = simulate_blackjack(rules, 20_000, seed=9, boxes=3, workers=1, chunk_rounds=7_000)
    every = simulate_blackjack(rules, 20_000, seed=9, boxes=3, chunk_rounds=7_000)
    _, recorded = record_blackjack(rules, 20_000, seed=9, boxes=3, chunk_rounds=7_000)
    for other in (every, recorded):
        assert (other.net, other.counts, other.results, other.sd) == (one.net, one.counts, one.results, one.sd)
    assert simulate_blackjack(rules, 20_000, seed=10, boxes=3, chunk_rounds=7_000).net != one.net


def test_results_add_up() -> None:
    rules = blackjack_rules("macau-1983")
    result = simulate_blackjack(rules, 20_000, seed="sum", boxes=2)
    assert sum(result.results.values()) == 20_000 * 2
    assert sum(amount * count for amount, count in result.results.items()) == result.net
    assert result.counts["wins"] + result.counts["pushes"] + result.counts["losses"] == result.counts["hands"]
    assert result.counts["surrenders"] > 0 and result.counts["bonus_777"] + result.counts["bonus_678"] > 0
    document = result_document(result)
    json.dumps(document)
    assert Decimal(document["net"]) == result.net
    assert document["rounds"] == 20_000 and document["rules"] == "macau-1983"
    console = Console(file=io.StringIO(), width=120)
    render_blackjack_simulation(result, console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "macau-1983" in text and "house edge" in text and f"{result.ev:+.6f}" in text


def test_money_unit_makes_every_payment_whole() -> None:
    assert money_unit(blackjack_rules("macau-1983")) == 2
    assert money_unit(blackjack_rules("live-online", {"blackjack_pays": "6:5"}, floors=False)) == 10
    assert money_unit(blackjack_rules("macau-1983", {"bonus_777": "5:4"})) == 4


def test_strategy_from_the_analysis_is_its_best_two_card_play() -> None:
    rules = blackjack_rules("live-online")
    analysis = analyze_blackjack(rules)
    strategy = strategy_from_analysis(rules, analysis)
    codes = {"stand": STAND, "hit": HIT, "double": DOUBLE, "split": SPLIT, "surrender": SURRENDER}
    names = "A23456789T"
    for hand in analysis.hands:
        x, y = (names.index(c) for c in hand.cards.split(","))
        assert strategy.first[names.index(hand.up), x, y, 0] == codes[hand.best]
    ten = names.index("T")
    assert strategy.more[ten, 16, 0] == HIT and strategy.more[ten, 17, 0] == STAND
    assert strategy.more[ten, 18, 1] == HIT  # soft 18 against a ten hits (H17, 8 decks)


def test_chart_files(tmp_path: Path) -> None:
    rules = blackjack_rules("macau-1983")
    path = tmp_path / "chart.json"
    path.write_text(json.dumps({"hard": {"11": "DDDDDDDDDD", "16": "SSSSSRRRRR"}, "pair": {"8": "PPPPPPPPPP"}}))
    strategy = strategy_from_chart(rules, load_chart(path))
    six, ace, eight, ten = 5, 0, 7, 9
    assert strategy.first[six, 4, 5, 0] == DOUBLE  # 5,6 = 11
    assert strategy.first[six, 3, 5, 0] == HIT  # 4,6 = 10: no row, hit; Macau doubles on 11 only anyway
    assert strategy.first[ten, 9, 5, 0] == SURRENDER  # T,6 = 16 against a ten (Art. 12)
    assert strategy.first[ace, 9, 5, 0] == HIT  # no surrender against an ace (Art. 12): R means else hit
    assert strategy.first[ten, eight, eight, 0] == SPLIT
    assert strategy.more[ten, 16, 0] == HIT  # a third card: R becomes hit
    with pytest.raises(ChartError, match="ten letters"):
        strategy_from_chart(rules, {"hard": {"12": "HHH"}})
    with pytest.raises(ChartError, match="pair rows only"):
        strategy_from_chart(rules, {"hard": {"12": "PPPPPPPPPP"}})
    path.write_text("{")
    with pytest.raises(ChartError):
        load_chart(path)


def test_bad_input_is_refused() -> None:
    rules = blackjack_rules("live-online")
    with pytest.raises(SimulationError, match="boxes"):
        simulate_blackjack(rules, 10, boxes=8)
    with pytest.raises(SimulationError, match="rounds"):
        simulate_blackjack(rules, 0)
    with pytest.raises(SimulationError, match="shuffle"):
        simulate_blackjack(rules, 10, shuffle="cards")  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="seed"):
        seed_words(1.5)  # type: ignore[arg-type]


def test_three_card_hands_play_as_the_analysis_by_their_cards() -> None:
    """The hit-or-stand table by composition agrees with the analysis's best two-card plays, and a hand
    follows its links card by card."""
    rules = blackjack_rules("live-online")
    analysis = analyze_blackjack(rules)
    strategy = strategy_from_analysis(rules, analysis)
    names = "A23456789T"
    checked = 0
    for hand in analysis.hands:
        if hand.best not in ("stand", "hit") or hand.kind == "blackjack":
            continue
        x, y = (names.index(c) for c in hand.cards.split(","))
        r = int(strategy.links[strategy.links[0, x], y])
        assert strategy.by_cards[names.index(hand.up), r] == (1 if hand.ev["hit"] > hand.ev["stand"] else 0)
        checked += 1
    assert checked > 200
    ten, six, four = 9, 5, 3
    sixteen = int(strategy.links[strategy.links[strategy.links[0, four], four], 7])  # 4,4,8
    assert strategy.by_cards.shape[1] > sixteen >= 0 and strategy.by_cards[ten, sixteen] in (0, 1)
    assert strategy.by_cards[six, int(strategy.links[strategy.links[0, ten], 1])] == 0  # T,2 stands on a six


def test_progress_is_reported_chunk_by_chunk() -> None:
    seen: list[tuple[int, int]] = []
    simulate_blackjack(
        blackjack_rules("live-online"), 10_000, chunk_rounds=1_000, progress=lambda d, n: seen.append((d, n))
    )
    assert seen[-1] == (10_000, 10_000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_generator_is_uniform_and_seeded() -> None:
    state = seed_state(seed_words("uniform"), 0)
    counts = [0] * 7
    for _ in range(7_000):
        counts[below(state, 7)] += 1
    assert all(850 < c < 1150 for c in counts)  # about 11 standard deviations either way
    again = seed_state(seed_words("uniform"), 0)
    other = seed_state(seed_words("uniform"), 1)
    same = seed_state(seed_words("uniform"), 0)
    draws = [below(again, 1 << 31) for _ in range(4)]
    assert draws == [below(same, 1 << 31) for _ in range(4)]
    assert draws != [below(other, 1 << 31) for _ in range(4)]
