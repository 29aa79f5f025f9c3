"""Where the blackjack analysis is exact and where it is not: a no-hole-card game whose natural takes the
original bet (``original``), early surrender, double on any two, DAS, against the brute force through
the engine; the other reading of ``original`` that some analyzers use; the approximations the output
names."""

from __future__ import annotations

import math

import numpy as np
import pytest
from rich.console import Console

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.math.blackjack import (
    _hand_probability,
    _solve,
    analysis_document,
    analyze_blackjack,
    approximations,
    cards_text,
)
from croupier.terminal.render import render_blackjack_analysis
from tests.math.test_blackjack_analysis import NAMES, TINY, Reference, engine_value

NO_BURNS = {"burn_at_shoe_start": 0, "burn_each_round": 0, "burn_before_dealer_second": 0, "cut_card": "none"}


def original_no_peek(decks: int, max_split_hands: int) -> Rules:
    """Macau's table (no hole card, S17, early surrender not against an ace) with ``original``, DOA, DAS."""
    changes: dict[str, object] = {
        "decks": decks,
        "dealer_blackjack_takes": "original",
        "double_on": "any_two",
        "double_after_split": True,
        "bonus_678_suited": "none",
        "bonus_777": "none",
        "max_split_hands": max_split_hands,
        **NO_BURNS,
    }
    return blackjack_rules("macau-1983", changes)


@pytest.mark.parametrize(
    ("up", "x", "y", "first"),
    [
        (9, 2, 6, "double"),  # a doubled 11 cannot bust: a natural takes one unit of two
        (9, 4, 9, "double"),  # a doubled 15 busts and then loses both units, natural or not
        (0, 4, 9, "hit"),
        (9, 5, 9, "surrender"),
        (9, 0, 0, "split"),  # split aces, one card each
    ],
)
def test_original_without_a_peek_is_the_engines(up: int, x: int, y: int, first: str) -> None:
    """Every deal of a 16-card shoe through the engine: the analysis's option EV equals the engine's to
    1e-12, a split within the approximation the output names (measured here: below 0.008)."""
    rules = original_no_peek(1, 2)
    reference = Reference(rules, [(v, -1) for v in range(10)], TINY)
    engine = engine_value(reference, up, x, y, first)
    analysis = analyze_blackjack(rules, composition=TINY)
    mine = next(h for h in analysis.hands if h.up == NAMES[up] and h.cards == cards_text(x, y)).ev[first]
    assert mine == pytest.approx(engine, abs=0.008 if first == "split" else 1e-12)


def test_the_game_against_a_ten_equals_the_brute_force() -> None:
    """Against a ten (a natural found after play takes the original bet), the EV the up-card adds to the
    game, with the analysis's own choices, equals the brute force over every deal of a 16-card shoe to
    1e-6 (the split approximation; 5.1e-7 over the whole game, measured with every up-card)."""
    rules = original_no_peek(1, 2)
    reference = Reference(rules, [(v, -1) for v in range(10)], TINY)
    analysis = analyze_blackjack(rules, composition=TINY)
    chosen = {(h.up, h.cards): h for h in analysis.hands}
    shoe = np.array(TINY, dtype=np.float64)
    for up in (9,):
        exact = 0.0
        for x in range(10):
            for y in range(x, 10):
                p = _hand_probability(shoe, False, up, x, y)
                if p > 0:
                    options, _ = reference.hand(up, x, y)
                    exact += p * options[chosen[(NAMES[up], cards_text(x, y))].best]
        assert analysis.ev_by_up[NAMES[up]] == pytest.approx(exact, abs=1e-6), NAMES[up]


def one_unit_to_a_natural(rules: Rules) -> float:
    """The game's EV if a natural took exactly one unit whatever was played (busted doubles and split hands
    included), early surrender kept: the peeked game's values (joint with no natural) less P(natural)."""
    peeked = blackjack_rules(rules.preset, {**rules.describe(), "hole_card": "peek"})
    shoe = np.array([4.0 * rules.decks] * 9 + [16.0 * rules.decks])
    ev, _, nat = _solve(peeked, shoe, False)
    total = 0.0
    for u in range(10):
        for x in range(10):
            for y in range(x, 10):
                p = _hand_probability(shoe, False, u, x, y)
                values = ev[u, x, y, 0]
                if p <= 0 or (x, y) == (0, 9):
                    total += p * (0.0 if p <= 0 else values[0])
                    continue
                options = values - nat[u, x, y]
                if u != 0 and not math.isnan(values[4]):
                    options[4] = -0.5
                total += p * float(np.nanmax(options))
    return total


def test_the_two_readings_of_original_bets_only() -> None:
    """Six decks: the engine's reading (a bust was lost when it busted) gives -0.16661%; taking one unit to
    a natural whatever was played gives -0.16208%, the figure of analyzers that read it so."""
    rules = original_no_peek(6, 4)
    assert 100 * analyze_blackjack(rules).ev == pytest.approx(-0.16661, abs=5e-6)
    assert 100 * one_unit_to_a_natural(rules) == pytest.approx(-0.16208, abs=5e-6)


def test_the_output_names_its_approximations() -> None:
    """'exact' only where it is: the split EV under ``original`` without a peek, and the SD with splits."""
    ev_note, sd_note = approximations(original_no_peek(6, 4))
    assert ev_note.startswith("ev:") and sd_note.startswith("sd:")
    assert approximations(blackjack_rules("macau-1983")) == (sd_note,)  # a natural takes all: the EV is exact
    assert approximations(blackjack_rules("live-online")) == (ev_note, sd_note)  # a ten up is not peeked
    us = blackjack_rules("live-online", {"hole_card": "peek"})
    assert approximations(us) == (sd_note,)
    assert approximations(blackjack_rules("live-online", {"max_split_hands": 1})) == ()
    analysis = analyze_blackjack(original_no_peek(6, 4), decks=math.inf)
    assert analysis_document(analysis)["approximations"] == [ev_note, sd_note]
    console = Console(record=True, width=400)
    render_blackjack_analysis(analysis, console)
    text = console.export_text()
    assert "but for the approximations below" in text and f"Approximate {ev_note}" in text
    exact = analyze_blackjack(blackjack_rules("live-online", {"max_split_hands": 1}), decks=math.inf)
    console = Console(record=True, width=400)
    render_blackjack_analysis(exact, console)
    assert "Approximate" not in console.export_text()
