"""The baccarat simulator: the engine's twin, its statistics against the exact analysis, the live count."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import Rules
from croupier.baccarat.state import BaccaratTable, CardBurned, CardDealt, FirstCardTurned, Operation, Phase
from croupier.cards import RANKS, Card
from croupier.math.baccarat import analyze_baccarat, count_coups
from croupier.rng import seeded
from croupier.shoe import Shoe
from croupier.sim.baccarat import (
    BaccaratSimulationError,
    RecordedCoup,
    Shuffle,
    compiled_counts,
    cores,
    live_expected_values,
    record_baccarat,
    result_document,
    simulate_baccarat,
)


def rules(**overrides: object) -> Rules:
    return baccarat_rules("macau", overrides)


# --------------------------------------------------------------------------------------------------
# the twin: replay the simulator's coups through the engine


def engine_rules(rule_set: Rules, shuffle: Shuffle) -> Rules:
    """A continuous shuffler deals as the engine's automatic shuffler does (Art. 2.3, 7.2)."""
    return rule_set if shuffle == "shoe" else dataclasses.replace(rule_set, shuffler="automatic")


def shoes(recorded: Sequence[RecordedCoup]) -> Iterator[list[RecordedCoup]]:
    group: list[RecordedCoup] = []
    for coup in recorded:
        if group and (coup.chunk, coup.shoe) != (group[0].chunk, group[0].shoe):
            yield group
            group = []
        group.append(coup)
    if group:
        yield group


def _drawn(operation: Operation) -> tuple[str, str] | None:
    if isinstance(operation, FirstCardTurned):
        return str(operation.card), "first card"
    if isinstance(operation, CardBurned):
        return str(operation.card), "shoe-start burn" if operation.when == "shoe start" else "burn"
    if isinstance(operation, CardDealt):
        return str(operation.card), operation.side
    return None


def replay(rule_set: Rules, shuffle: Shuffle, recorded: Sequence[RecordedCoup]) -> int:
    """Replay every recorded coup through the engine over a stacked shoe and assert the same cards to the
    same places, the same winner, the same end of shoe and the same payment of every stake; returns the
    coups with bets compared."""
    table_rules = engine_rules(rule_set, shuffle)
    stake = table_rules.min_bet or Decimal(1)
    compared = 0
    for group in shoes(recorded):
        cards = [Card.parse(text) for coup in group for text, _ in coup.cards]
        table = BaccaratTable(table_rules, Shoe.stacked(table_rules.decks, cards, group[0].cut_card))
        mark = 0
        for coup in group:
            if coup.demo:
                table.start_coup(demo=True)
            else:
                for spot in table_rules.spots:
                    table.place_bet("sim", spot, stake)
                table.start_coup()
            operations = table.operations_since(mark)
            mark = table.operation_count
            drawn = tuple(d for d in map(_drawn, operations) if d is not None)
            assert drawn == coup.cards, (coup.chunk, coup.shoe, coup.coup)
            result = table.results[-1]
            assert (result.coup, result.demo, result.last_coup) == (coup.coup, coup.demo, coup.last_of_shoe)
            assert result.cards.winner == coup.winner
            paid = {s.spot: s.gain for s in result.settlements}
            assert paid == {spot: gain * stake for spot, gain in coup.gains.items()}, (coup.chunk, coup.shoe)
            assert set(paid) == (set() if coup.demo else set(table_rules.spots))
            compared += not coup.demo
        assert (table.phase is Phase.AWAITING_SHOE) == group[-1].last_of_shoe
    return compared


TWIN_CASES: list[tuple[str, Shuffle, dict[str, object], set[str]]] = [
    ("macau", "shoe", {}, {"player", "banker"}),
    ("decks burn, last coup at the cut card, a burn each coup", "shoe",
     {"burn": "decks", "at_cut_card": "last", "burn_each_coup": 1, "demo_coups": 1, "cut_card": "14-40"},
     {"player", "banker", "burn"}),
    ("super 6, lucky 6, tie 9:1, 6 decks, fixed burn and cut card", "shoe",
     {"commission": "none_super6", "lucky_6": True, "tie_pays": "9:1", "decks": 6, "burn": 3, "demo_coups": 0,
      "cut_card": 250, "min_bet": 10}, {"player", "banker"}),
    ("a cut card among the first cards", "shoe", {"cut_card": 5, "demo_coups": 0}, {"shoe-start burn"}),
    ("a cut card in the demonstration coups", "shoe", {"cut_card": 16, "demo_coups": 2, "burn_each_coup": 1},
     {"player", "banker", "burn", "demo"}),
    ("automatic shuffler", "shoe", {"shuffler": "automatic", "lucky_6": True}, set()),
    ("continuous", "continuous", {"lucky_6": True, "commission": "none_super6"}, set()),
]  # fmt: skip
"""Each case's name, shuffle, overrides, and where its cut cards must come out at least once (``demo``: in a
demonstration coup)."""


def cut_card_destinations(recorded: Sequence[RecordedCoup]) -> set[str]:
    """Where the cut card came out in the recorded shoes: the destination of the card at its position."""
    found: set[str] = set()
    for group in shoes(recorded):
        cut = group[0].cut_card
        position = 0
        for coup in group:
            if cut is not None and position <= cut < position + len(coup.cards):
                found.add(coup.cards[cut - position][1])
                if coup.demo:
                    found.add("demo")
            position += len(coup.cards)
    return found


@pytest.mark.parametrize(("name", "shuffle", "overrides", "cut_out"), TWIN_CASES, ids=[c[0] for c in TWIN_CASES])
def test_the_simulator_is_the_engines_twin(
    name: str, shuffle: Shuffle, overrides: dict[str, object], cut_out: set[str]
) -> None:
    rule_set = rules(**overrides)
    recorded, result = record_baccarat(rule_set, 4000, seed=name, shuffle=shuffle, chunk_coups=1500)
    assert sum(not coup.demo for coup in recorded) == result.coups == 4000
    assert replay(rule_set, shuffle, recorded) == 4000
    assert cut_out <= cut_card_destinations(recorded)
    for spot, bet in result.bets.items():
        assert bet.net == sum((coup.gains[spot] for coup in recorded if not coup.demo), Decimal(0))
    assert result.counts["demo_coups"] == sum(coup.demo for coup in recorded)


def test_recording_plays_the_same_coups_as_the_parallel_run() -> None:
    rule_set = rules(lucky_6=True)
    _, recorded = record_baccarat(rule_set, 3000, seed=7, chunk_coups=700)
    parallel = simulate_baccarat(rule_set, 3000, seed=7, chunk_coups=700)
    assert recorded.bets == parallel.bets and recorded.counts == parallel.counts


def test_the_cut_card_goes_where_the_engine_puts_it_art_2_1() -> None:
    recorded, _ = record_baccarat(rules(), 3000, seed="cut", chunk_coups=1000)
    positions = {coup.cut_card for coup in recorded}
    assert positions <= set(range(416 - 16, 416 - 12 + 1)) and len(positions) > 1


# --------------------------------------------------------------------------------------------------
# reproducibility and statistics


def test_same_seed_and_chunking_same_result_on_any_number_of_cores() -> None:
    rule_set = rules()
    one = simulate_baccarat(rule_set, 40_000, seed="s", chunk_coups=3000, workers=1)
    every = simulate_baccarat(rule_set, 40_000, seed="s", chunk_coups=3000, workers=cores())
    assert one.bets == every.bets and one.counts == every.counts
    other = simulate_baccarat(rule_set, 40_000, seed="t", chunk_coups=3000)
    assert other.bets != one.bets


def test_progress_is_reported_up_to_the_coups_asked() -> None:
    seen: list[tuple[int, int]] = []
    simulate_baccarat(
        rules(), 10_000, seed=1, chunk_coups=1000, progress=lambda done, asked: seen.append((done, asked))
    )
    assert seen[-1] == (10_000, 10_000) and [done for done, _ in seen] == sorted(done for done, _ in seen)


CONTINUOUS_CASES = [
    {},
    {"commission": "none_super6", "lucky_6": True},
    {"tie_pays": "9:1", "decks": 6},
]


@pytest.mark.parametrize("overrides", CONTINUOUS_CASES, ids=["macau", "super6-lucky6", "tie9-6decks"])
def test_continuous_shuffle_agrees_with_the_exact_analysis(overrides: dict[str, object]) -> None:
    """Every bet's simulated expectation is within 3 standard errors of the exact one (10^6 coups)."""
    rule_set = rules(**overrides)
    result = simulate_baccarat(rule_set, 1_000_000, seed="ci", shuffle="continuous")
    analysis = analyze_baccarat(rule_set)
    for spot, bet in result.bets.items():
        exact = float(analysis.expected_value(spot))
        assert abs(bet.ev - exact) < 3 * bet.se, (spot, bet.ev, exact, bet.se)
    probabilities = analysis.probabilities
    for outcome in ("banker", "player", "tie", "player_pair", "banker_pair"):
        p = float(probabilities[outcome])
        frequency = result.counts[outcome] / result.coups
        assert abs(frequency - p) < 4 * (p * (1 - p) / result.coups) ** 0.5, outcome


def test_eight_decks_deal_the_published_frequencies() -> None:
    result = simulate_baccarat(rules(), 1_000_000, seed="frequencies")
    rates = result.frequencies()
    assert rates["banker"] == pytest.approx(0.4586, abs=0.002)
    assert rates["player"] == pytest.approx(0.4462, abs=0.002)
    assert rates["tie"] == pytest.approx(0.0952, abs=0.0015)
    assert rates["natural"] == pytest.approx(0.3426, abs=0.002)
    assert result.counts["demo_coups"] == 3 * result.counts["shoes"]  # Art. 2.2: three at the start of each shoe
    assert result.counts["cards"] > 400 * (result.counts["shoes"] - 16)  # a shoe is dealt to its cut card


# --------------------------------------------------------------------------------------------------
# the live count


def _composition(cards: Sequence[str], decks: int) -> list[int]:
    counts = [4 * decks] * 13
    for text in cards:
        counts[RANKS.index(text[0])] -= 1
    return counts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 32), min_size=13, max_size=13).filter(lambda counts: sum(counts) >= 6))
def test_the_compiled_count_is_the_exact_count(remaining: list[int]) -> None:
    exact = count_coups(remaining)
    assert compiled_counts(remaining) == (
        exact.total, exact.banker, exact.player, exact.tie, exact.banker_six_two_cards, exact.banker_six_three_cards,
        exact.player_pair,
    )  # fmt: skip


@pytest.mark.parametrize("overrides", CONTINUOUS_CASES, ids=["macau", "super6-lucky6", "tie9-6decks"])
def test_live_expectations_match_the_exact_analysis_on_random_shoes(overrides: dict[str, object]) -> None:
    rule_set = rules(**overrides)
    source = seeded(f"compositions {overrides}")
    for i in range(40):
        most = 4 * rule_set.decks if i % 2 else 2  # a shoe anywhere, or one near its end
        remaining = [source.randbelow(most + 1) for _ in range(13)]
        remaining[source.randbelow(13)] += 6
        remaining = [min(n, 4 * rule_set.decks) for n in remaining]
        analysis = analyze_baccarat(rule_set, remaining)
        compiled = live_expected_values(rule_set, remaining)
        for spot in rule_set.spots:
            assert compiled[spot] == pytest.approx(float(analysis.expected_value(spot)), abs=1e-12, rel=0)


@pytest.mark.parametrize("view", ["remaining", "unseen"])
def test_live_edges_are_counted_before_each_deal(view: str) -> None:
    rule_set = rules(lucky_6=True, burn_each_coup=1)
    recorded, result = record_baccarat(rule_set, 400, seed="live", live_edges=True, live_view=view)  # type: ignore[arg-type]
    assert result.live is not None and result.live_view == view
    start = ("first card", "shoe-start burn")
    prior: list[tuple[str, str]] = []
    checked = 0
    for coup in recorded:
        if coup.coup == 1:
            prior = []
        before = prior + [(card, where) for card, where in coup.cards if where in start]
        if not coup.demo and checked < 12 and coup.coup % 7 == 1:
            seen = [card for card, where in before if view == "remaining" or "burn" not in where]
            analysis = analyze_baccarat(rule_set, _composition(seen, rule_set.decks))
            assert coup.expected is not None
            for spot in rule_set.spots:
                assert coup.expected[spot] == pytest.approx(float(analysis.expected_value(spot)), abs=1e-12, rel=0)
            checked += 1
        prior = before + [(card, where) for card, where in coup.cards if where not in start]
    assert checked == 12
    betting = [coup for coup in recorded if not coup.demo]
    for spot, edge in result.live.items():
        assert edge.coups == len(betting) == 400
        positive = [coup for coup in betting if coup.expected is not None and coup.expected[spot] > 0]
        assert edge.positive == len(positive)
        won = sum((coup.gains[spot] for coup in positive), Decimal(0))
        assert edge.gain_per_coup == pytest.approx(float(won) / 400)


def test_live_edges_of_a_real_shoe() -> None:
    """The pairs and Lucky 6 turn in the player's favour late in a shoe far more often than banker or player."""
    result = simulate_baccarat(rules(lucky_6=True), 20_000, seed="live", live_edges=True, chunk_coups=5000)
    assert result.live is not None
    live = result.live
    assert live["player_pair"].positive > live["player"].positive
    for spot, edge in live.items():
        assert 0 <= edge.frequency < 0.5
        exact = float(analyze_baccarat(result.rules).expected_value(spot))
        assert edge.mean_ev == pytest.approx(exact, abs=0.01)
        if edge.positive:
            assert 0 < edge.mean_ev_positive <= edge.max_ev


# --------------------------------------------------------------------------------------------------
# the interface


def test_result_document_is_json_with_exact_sums() -> None:
    result = simulate_baccarat(rules(), 5000, seed=3, chunk_coups=1000)
    document = json.loads(json.dumps(result_document(result)))
    assert document["game"] == "baccarat" and document["coups"] == 5000
    assert Decimal(document["bets"]["banker"]["net"]) == result.bets["banker"].net
    net = Fraction(Decimal(document["bets"]["banker"]["net"]))
    assert net.denominator in (1, 2, 4, 5, 10, 20)
    assert set(document["bets"]) == {"player", "banker", "tie", "player_pair", "banker_pair"}
    assert "live_edges" not in document
    live = simulate_baccarat(rules(), 300, seed=3, live_edges=True)
    assert set(result_document(live)["live_edges"]["bets"]["tie"]) >= {"frequency", "gain_positive"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simulate_baccarat(rules(), 0), "coups"),
        (lambda: simulate_baccarat(rules(), 10, shuffle="riffle"), "shuffle"),  # type: ignore[arg-type]
        (lambda: simulate_baccarat(rules(), 10, shuffle="continuous", live_edges=True), "live edges need a real shoe"),
        (lambda: simulate_baccarat(rules(), 10, workers=0), "workers"),
        (lambda: simulate_baccarat(rules(), 10, seed=1.5), "seed"),  # type: ignore[arg-type]
        (lambda: simulate_baccarat(rules(cut_card=5, demo_coups=3), 10), "in a row ended before any coup with bets"),
    ],
)
def test_errors_say_what_is_wrong(call: object, message: str) -> None:
    with pytest.raises(BaccaratSimulationError, match=message):
        call()  # type: ignore[operator]
