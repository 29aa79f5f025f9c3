"""Exact blackjack: a combinatorial analysis (CA) of one round from any shoe, for any rule set (docs/rules.md §2, §3).

What is computed. The expected value of one round per unit of initial bet, with the player's
composition-dependent strategy: every decision (stand, hit, double, split, surrender) is the one of
highest expectation given the up-card and the exact cards the hand holds, computed by full recursion
over the cards the shoe can still deal. Split hands reuse the strategy of the same cards unsplit
("CDZ-", the convention of Eric Farmer's and MGP's analyzers), less what a split hand may not do
(double without ``double_after_split``, any play on split aces with ``split_aces_one_card``). The
expected value of a split, with resplits up to ``max_split_hands``, is then exact for that strategy,
by Farmer's method: each split hand's value is taken with the other hands' cards unseen, grouped by
the pattern of pair and non-pair cards the hands drew as their second cards (an unseen card changes
no expectation, and "a card that is not a pair card" is expressed through shoes with pair cards
removed). The main EV assumes that insurance and even money are never taken; their own EVs are
reported apart (:class:`Insurance`).

Rules as the engine plays them (:mod:`croupier.blackjack.procedure`):

- With an up-card the dealer peeks under (``hole_card`` ``peek``: ace or ten; ``peek_ace``: ace),
  a dealer natural ends the round at once (naturals push, every other box loses its original bet),
  and every decision, surrender included, is taken knowing there is none: the option EVs of the
  strategy are conditional on no dealer natural there (the convention of published tables).
- Otherwise (``none``, or a ten under ``peek_ace``) a dealer natural is found after play and takes
  every open stake (``all``) or, from the box's open hands together, the original bet once
  (``original``); a hand that busted was lost when it busted, a surrendered half is settled, a bonus
  paid. Surrender then gives up half the bet whatever the hole card (early surrender).
- A hand of 21 takes no more cards; a 21 on a split hand is no natural (Art. 6).
- ``bonus_678_suited`` / ``bonus_777`` (Art. 9): a three-card 6-7-8 of one suit or 7-7-7, never on a
  doubled hand, pays the ratio at once and is settled, also on a split hand. Suits are exchangeable in
  the shoe (a full shoe holds as many of each suit; a composition by rank says nothing of suits), so a
  6 and a 7 are of one suit with probability 1/4 and an 8 drawn to them matches with probability 1/4;
  the two-card 6-7, 6-8 and 7-8 are analysed apart when suited (the player sees suits). The suit of the
  dealer's up-card is not used by the strategy (averaged over it, the bonus chance is exactly 1/4).

Parameters that do not move one box's expectation: ``double_for_less`` (the EV of a double is linear
in the amount added, so a full double is always at least as good as a smaller one); burns,
``dealer_draws_when_moot``, boxes and bets behind (they change which cards later rounds or other boxes
see, never the expectation of this box: an unseen card changes no expectation).

Two approximations; everything else is exact, and :func:`approximations` names them in the output
where they apply. (1) Under ``original`` with no peek, the chance that every split hand is closed
(busted or paid a bonus) when the dealer has a natural takes the hands as independent. Measured
against the brute force through the engine (tests/math/test_blackjack_exactness.py): the game's EV
moves by 5.1e-7 of a unit in a 16-card shoe (one split, a split's EV by up to 0.0077) and 2.0e-6 in a
20-card shoe (split to four, a split's EV by up to 0.0006); the correlation between hands falls as the
shoe grows (about as 1/cards), so with 6–8 decks it is of the order of 1e-7 (an estimate, not a
measurement). ``all`` and peeked up-cards are exact. (2) The standard deviation of a round with a
split takes the split hands as independent given the dealer's final total (exact for an infinite
shoe).

The reading of ``original`` is the engine's: a natural found after play takes the original bet once
from the box's *open* hands; a hand that busted (doubled or split) lost its stake when it busted. Some
analyzers instead take exactly one unit to a natural whatever was played ("original bets only" as if
the dealer had peeked, with early surrender kept): for 6 decks, S17, DOA, DAS, split to four, early
surrender not against an ace, that reading gives -0.16208% where the engine's gives -0.16661%.

Arithmetic. The quantities are probabilities, not money, and are computed in IEEE float64 (sums of
products of numbers in [0, 1]; relative error about 1e-13); the EV and SD are printed rounded to
:data:`DIGITS` decimal places of a unit, option EVs to :data:`OPTION_DIGITS`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import DOUBLE_TOTALS, Rules
from croupier.errors import RulesError
from croupier.math import CompositionError, aot, check_composition, parse_remaining
from croupier.math.bj_tables import SUIT_MATCH, VALUES, dealer_table
from croupier.ruleset import parse_assignments

DIGITS = 10
"""Decimal places (of one unit of initial bet) of the reported EV, house edge and SD."""
OPTION_DIGITS = 6
"""Decimal places of each option's EV in the strategy."""
MAX_DECKS = 10_000
VALUE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
OPTION_NAMES = ("stand", "hit", "double", "split", "surrender")
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # 2-9, T, A: the order of printed charts

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class HandResult:
    """One two-card hand against one up-card: every option's EV and the best of them.

    ``cards`` are value names (``"T,6"``: T stands for any ten-value card); ``label`` the total as a
    chart shows it (``"16"``, ``"soft 18"``, ``"8,8"``, ``"blackjack"``); ``kind`` one of ``hard``,
    ``soft``, ``pair``, ``blackjack``; ``suited`` true/false for a 6-7, 6-8 or 7-8 when the 6-7-8 bonus
    is offered, else None. ``probability`` is P(this up-card and these two cards [of this suitedness]).
    ``ev`` maps each offered option to its EV per initial unit, conditional on no dealer natural where
    the dealer peeks with this up-card (``conditional``), else unconditional.
    """

    up: str
    cards: str
    label: str
    kind: str
    suited: bool | None
    probability: float
    conditional: bool
    ev: Mapping[str, float]
    best: str


@dataclass(frozen=True)
class ChartCell:
    """A chart cell: a hand total (or pair) against an up-card, its two-card hands' EVs weighted by
    their probabilities, the best option so weighted, and whether some composition plays otherwise."""

    up: str
    label: str
    kind: str
    probability: float
    ev: Mapping[str, float]
    best: str
    exceptions: bool


@dataclass(frozen=True)
class Insurance:
    """Insurance and even money with an ace up (Art. 6, 8). ``ev_per_unit``: EV of one unit of
    insurance (pays ``pays``), averaged over the player's hands; ``even_money_ev``: EV of a natural
    that declines even money (taking it is worth exactly 1)."""

    offered: bool
    pays: str | None
    p_natural: float
    ev_per_unit: float | None
    even_money_offered: bool
    even_money_ev: float


@dataclass(frozen=True)
class BlackjackAnalysis:
    """The exact analysis of one round: EV and SD per initial unit, strategy, insurance."""

    rules: Rules
    decks: int | float | None
    counts: tuple[int, ...] | None  # cards of each value A..T; None for an infinite shoe
    ev: float
    sd: float
    probability_total: float
    ev_by_up: Mapping[str, float]
    hands: tuple[HandResult, ...]
    chart: tuple[ChartCell, ...]
    insurance: Insurance
    approximations: tuple[str, ...] = ()

    @property
    def house_edge(self) -> float:
        return -self.ev

    @property
    def infinite(self) -> bool:
        return self.counts is None


# --------------------------------------------------------------------------------------------------
# input


def parse_decks(text: str) -> int | float:
    """Read ``--decks``: a whole number 1–10000 or ``inf``."""
    raw = text.strip().lower()
    if raw in ("inf", "infinite", "infinity"):
        return math.inf
    if not raw.isdecimal() or not raw.isascii():
        raise CompositionError(f"decks: expected a whole number 1-{MAX_DECKS} or 'inf', got {text!r}")
    return _check_decks(int(raw))


def _check_decks(decks: object) -> int | float:
    if isinstance(decks, float) and decks == math.inf:
        return math.inf
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise CompositionError(f"decks: expected a whole number 1-{MAX_DECKS} or math.inf, got {decks!r}")
    if not 1 <= decks <= MAX_DECKS:
        raise CompositionError(f"decks: {decks} is outside 1-{MAX_DECKS} (or inf)")
    return decks


def _counts_by_value(composition: Sequence[int]) -> tuple[int, ...]:
    values = tuple(composition)
    if len(values) not in (VALUES, 13):
        raise CompositionError(
            f"composition: expected 10 counts (A,2,...,9,T) or 13 (A,2,...,9,T,J,Q,K), got {len(values)}"
        )
    names = VALUE_NAMES if len(values) == VALUES else tuple("A23456789TJQK")
    for name, count in zip(names, values, strict=True):
        if isinstance(count, bool) or not isinstance(count, int):
            raise CompositionError(f"composition: the count for {name} must be a whole number, got {count!r}")
        if count < 0:
            raise CompositionError(f"composition: {name} has {count} cards; a count cannot be negative")
    if len(values) == 13:
        values = (*values[:9], sum(values[9:]))
    return values


def cards_a_round_may_need(counts: Sequence[int], max_hands: int) -> int:
    """An upper bound of the cards one box's round can take from ``counts``: the smallest cards first,
    each of ``max_hands`` hands drawing while its hard total is 20 or less, the dealer while under 17."""
    stream = [v + 1 for v in range(VALUES) for _ in range(counts[v])]
    taken = 0
    for limit in [20] * max_hands + [16]:
        hard = cards = 0
        while taken < len(stream) and (cards < 2 or hard <= limit):
            hard += stream[taken]
            taken += 1
            cards += 1
        if taken >= len(stream):
            return len(stream) + 1
    return taken


def _shoe(
    rules: Rules, decks: object, composition: Sequence[int] | None
) -> tuple[int | float | None, tuple[int, ...] | None]:
    if decks is not None and composition is not None:
        raise CompositionError("give either decks or a composition of the shoe, not both")
    if composition is not None:
        counts = _counts_by_value(composition)
        need = cards_a_round_may_need(counts, rules.max_split_hands)
        if sum(counts) < need:
            raise CompositionError(
                f"composition: {sum(counts)} cards left; a round of one box may need up to {need}, so the shoe "
                "could run out"
            )
        return None, counts
    number = _check_decks(rules.decks if decks is None else decks)
    if number == math.inf:
        return number, None
    n = int(number)
    return n, (4 * n,) * 9 + (16 * n,)


# --------------------------------------------------------------------------------------------------
# analysis


def approximations(rules: Rules) -> tuple[str, ...]:
    """What of the analysis of ``rules`` is not exact (the module's two approximations), as printed notes."""
    if rules.max_split_hands < 2:
        return ()
    notes = []
    if rules.dealer_blackjack_takes == "original" and rules.hole_card != "peek":
        notes.append(
            "ev: a split box against a natural found after play takes the chance that every split hand is "
            "closed as if the hands were independent (2.0e-6 of the EV in a 20-card shoe; estimated 1e-7 with 6-8 "
            "decks)"
        )
    notes.append("sd: split hands are taken as independent given the dealer's final total")
    return tuple(notes)


def _ratio(value: Any) -> float:
    return 0.0 if value is None else value.pays / value.per


def _peek_mask(rules: Rules) -> npt.NDArray[np.bool_]:
    mask = np.zeros(VALUES, dtype=np.bool_)
    if rules.hole_card == "peek":
        mask[0] = mask[9] = True
    elif rules.hole_card == "peek_ace":
        mask[0] = True
    return mask


def _solve(rules: Rules, shoe: FloatArray, infinite: bool) -> tuple[FloatArray, FloatArray, FloatArray]:
    max_hands = rules.max_split_hands
    aces_hands = max_hands if rules.resplit_aces else min(max_hands, 2)
    extra = tuple(max(1, 2 * (aces_hands if v == 0 else max_hands) - 3) for v in range(VALUES))
    comp, table = aot.tables(extra, rules.split_aces_one_card and not rules.resplit_aces, rules.dealer_hits_soft_17)
    dealer_probs, solve = aot.kernels()
    dmat = dealer_probs(
        comp.cards,
        comp.dealer,
        shoe,
        infinite,
        table.values,
        table.counts,
        table.nnz,
        table.size,
        table.outcome,
        table.ptr,
        table.up,
        table.mult,
        table.max_count,
    )
    surrender = np.zeros(VALUES, dtype=np.bool_)
    if rules.surrender == "late":
        surrender[:] = True
    elif rules.surrender == "early_not_ace":
        surrender[1:] = True
    double_ok = np.zeros(22, dtype=np.bool_)
    for total in DOUBLE_TOTALS[rules.double_on]:
        double_ok[total] = True
    ev, m2, nat = solve(
        comp.cards,
        comp.size,
        comp.hard,
        comp.plus,
        comp.hands,
        comp.pair_ptr,
        comp.pair_hands,
        dmat,
        shoe,
        infinite,
        float(shoe.sum()),
        _peek_mask(rules),
        surrender,
        double_ok,
        rules.dealer_blackjack_takes == "all",
        rules.double_after_split,
        max_hands,
        rules.resplit_aces,
        rules.split_aces_one_card,
        _ratio(rules.blackjack_pays),
        _ratio(rules.bonus_678_suited),
        _ratio(rules.bonus_777),
    )
    return ev, m2, nat


def analyze_blackjack(
    rules: Rules, *, decks: int | float | None = None, composition: Sequence[int] | None = None
) -> BlackjackAnalysis:
    """The exact analysis of one round of ``rules`` from a shoe.

    The shoe is ``decks`` full decks (1–10000, or ``math.inf`` for an infinite shoe), or the remaining
    ``composition`` (10 counts of values A, 2, …, 9, T, or 13 of ranks A, 2, …, K), or else
    ``rules.decks``. Bad input raises :class:`~croupier.math.CompositionError` (a
    :class:`~croupier.errors.CroupierError`).
    """
    if not isinstance(rules, Rules):
        raise RulesError(f"analyze_blackjack needs blackjack Rules, got {type(rules).__name__}")
    number, counts = _shoe(rules, decks, composition)
    infinite = counts is None
    shoe = np.array([1.0 / 13] * 9 + [4.0 / 13]) if infinite else np.array(counts, dtype=np.float64)
    ev, m2, nat = _solve(rules, shoe, infinite)
    return _assemble(rules, number, counts, shoe, infinite, ev, m2, nat)


def analyze_from_options(
    preset: str, assignments: Sequence[str], decks: str | None = None, remaining: str | None = None
) -> BlackjackAnalysis:
    """The command line's reading: ``--rules``, each ``--set NAME=VALUE``, ``--decks`` and ``--remaining``.

    ``decks`` may be given as ``--decks N`` or ``--set decks=N``: a table deals from 1 to 8 decks
    (Art. 1), but the analysis takes any shoe of 1 to 10000 decks or ``inf``. A value a table may use
    also becomes the rules' ``decks``; a larger one, or ``inf``, is the analysed shoe alone.
    ``remaining`` is 13 counts by rank (A, 2, …, 9, T, J, Q, K) of the cards left in the rules' shoe.
    """
    overrides: dict[str, object] = dict(parse_assignments(list(assignments)))
    from_set = overrides.pop("decks", None)
    if from_set is not None and decks is not None:
        raise CompositionError("decks: give it once, as --decks or as --set decks=..., not both")
    text = decks if decks is not None else from_set
    number = None if text is None else parse_decks(str(text))
    if number is not None and number != math.inf and int(number) <= _TABLE_DECKS:
        overrides["decks"] = str(int(number))
    rules = blackjack_rules(preset, overrides)
    if remaining is None:
        return analyze_blackjack(rules, decks=number)
    if number is not None and (number == math.inf or int(number) > _TABLE_DECKS):
        raise CompositionError(
            f"remaining: a composition is the cards left in the table's shoe of 1-{_TABLE_DECKS} decks, not of {text}"
        )
    counts = check_composition(parse_remaining(remaining), decks=rules.decks, min_cards=0)
    return analyze_blackjack(rules, composition=counts)


_TABLE_DECKS = 8
"""The most decks a table deals from (Art. 1; online §1.6): the bound of the rules' own ``decks``."""


def dealer_outcomes(
    dealer_hits_soft_17: bool, *, decks: int | float | None = None, composition: Sequence[int] | None = None
) -> dict[str, dict[str, float]]:
    """P(dealer's final 17, 18, 19, 20, 21, blackjack, bust | up-card) from a full shoe, before any peek.

    Keyed by up-card (``"A"``, ``"2"``, …, ``"T"``), then outcome. The shoe is given as for
    :func:`analyze_blackjack` (``decks`` defaults to 1 here).
    """
    if decks is not None and composition is not None:
        raise CompositionError("give either decks or a composition of the shoe, not both")
    infinite = False
    if composition is not None:
        shoe = np.array(_counts_by_value(composition), dtype=np.float64)
    else:
        number = _check_decks(1 if decks is None else decks)
        infinite = number == math.inf
        shoe = np.array([1.0 / 13] * 9 + [4.0 / 13]) if infinite else np.array([4.0 * number] * 9 + [16.0 * number])
    table = dealer_table(dealer_hits_soft_17)
    empty = np.zeros((1, VALUES), dtype=np.int64)
    dealer_probs, _ = aot.kernels()
    dmat = dealer_probs(
        empty,
        np.ones(1, dtype=np.bool_),
        shoe,
        infinite,
        table.values,
        table.counts,
        table.nnz,
        table.size,
        table.outcome,
        table.ptr,
        table.up,
        table.mult,
        table.max_count,
    )
    names = ("17", "18", "19", "20", "21", "blackjack")
    result = {}
    for u in range(VALUES):
        row = {name: float(dmat[0, u, k]) for k, name in enumerate(names)}
        row["bust"] = 1.0 - sum(row.values()) if shoe[u] > 0 else 0.0
        result[VALUE_NAMES[u]] = row
    return result


def _hand_probability(shoe: FloatArray, infinite: bool, u: int, x: int, y: int) -> float:
    """P(up-card ``u`` and the two cards ``x <= y`` in either order)."""
    orders = 1.0 if x == y else 2.0
    if infinite:
        return float(shoe[u] * shoe[x] * shoe[y] * orders)
    n = float(shoe.sum())
    cu = shoe[u]
    cx = shoe[x] - (u == x)
    cy = shoe[y] - (u == y) - (x == y)
    if cu <= 0 or cx <= 0 or cy <= 0:
        return 0.0
    return float(cu / n * cx / (n - 1) * cy / (n - 2) * orders)


def cards_text(x: int, y: int) -> str:
    """Two card values as a chart names them: an ace first (``A,7``), else the higher first (``T,6``)."""
    low, high = min(x, y), max(x, y)
    if low == 0:
        return f"A,{VALUE_NAMES[high]}"
    return f"{VALUE_NAMES[high]},{VALUE_NAMES[low]}"


def _label(x: int, y: int) -> tuple[str, str]:
    if x == 0 and y == 9:
        return "blackjack", "blackjack"
    if x == y:
        return f"{VALUE_NAMES[x]},{VALUE_NAMES[y]}", "pair"
    if x == 0:
        return f"soft {12 + y}", "soft"
    return str(x + y + 2), "hard"


def _assemble(
    rules: Rules,
    number: int | float | None,
    counts: tuple[int, ...] | None,
    shoe: FloatArray,
    infinite: bool,
    ev: FloatArray,
    m2: FloatArray,
    nat: FloatArray,
) -> BlackjackAnalysis:
    peek = _peek_mask(rules)
    bonus = rules.bonus_678_suited is not None and _ratio(rules.bonus_678_suited) > 0
    total_ev = 0.0
    total_m2 = 0.0
    total_p = 0.0
    by_up = dict.fromkeys(VALUE_NAMES, 0.0)
    hands: list[HandResult] = []
    for u in UP_ORDER:
        for x in range(VALUES):
            for y in range(x, VALUES):
                p = _hand_probability(shoe, infinite, u, x, y)
                if p <= 0:
                    continue
                label, kind = _label(x, y)
                natural = kind == "blackjack"
                pb = float(nat[u, x, y])
                conditional = bool(peek[u]) and not natural and pb < 1.0
                variants: list[tuple[int, float, bool | None]] = [(0, 1.0, None)]
                if bonus and not np.isnan(ev[u, x, y, 1, 0]):
                    variants = [(0, 1.0 - SUIT_MATCH, False), (1, SUIT_MATCH, True)]
                for s, weight, suited in variants:
                    values = ev[u, x, y, s]
                    k = int(np.nanargmax(values))
                    best_value = float(values[k])
                    lost = pb if conditional else 0.0
                    total_ev += p * weight * (best_value - lost)
                    total_m2 += p * weight * (float(m2[u, x, y, s, k]) + lost)
                    total_p += p * weight
                    by_up[VALUE_NAMES[u]] += p * weight * (best_value - lost)
                    scale = 1.0 / (1.0 - pb) if conditional else 1.0
                    options = {
                        OPTION_NAMES[i]: float(values[i]) * scale
                        for i in range(len(OPTION_NAMES))
                        if not np.isnan(values[i])
                    }
                    hands.append(
                        HandResult(
                            VALUE_NAMES[u],
                            cards_text(x, y),
                            label,
                            kind,
                            suited,
                            p * weight,
                            conditional,
                            options,
                            OPTION_NAMES[k],
                        )
                    )
    variance = max(total_m2 - total_ev * total_ev, 0.0)
    return BlackjackAnalysis(
        rules=rules,
        decks=number,
        counts=counts,
        ev=total_ev,
        sd=math.sqrt(variance),
        probability_total=total_p,
        ev_by_up=by_up,
        hands=tuple(hands),
        chart=_chart(hands),
        insurance=_insurance(rules, shoe, infinite, nat),
        approximations=approximations(rules),
    )


def _chart(hands: Sequence[HandResult]) -> tuple[ChartCell, ...]:
    groups: dict[tuple[str, str, str], list[HandResult]] = {}
    for hand in hands:
        groups.setdefault((hand.up, hand.kind, hand.label), []).append(hand)
    cells = []
    for (up, kind, label), members in groups.items():
        weight = sum(h.probability for h in members)
        options = [name for name in OPTION_NAMES if all(name in h.ev for h in members)]
        ev = {name: sum(h.probability * h.ev[name] for h in members) / weight for name in options}
        best = max(options, key=lambda name: ev[name])
        exceptions = any(h.best != best for h in members)
        cells.append(ChartCell(up, label, kind, weight, ev, best, exceptions))
    return tuple(cells)


def _insurance(rules: Rules, shoe: FloatArray, infinite: bool, nat: FloatArray) -> Insurance:
    if infinite:
        p_natural = float(shoe[9])
    else:
        n = float(shoe.sum())
        p_natural = float(shoe[9] / (n - 1)) if shoe[0] > 0 and n > 1 else 0.0
    pays = rules.insurance_pays
    ev_unit = None if pays is None else _ratio(pays) * p_natural - (1.0 - p_natural)
    bj = _ratio(rules.blackjack_pays)
    decline = bj * (1.0 - float(nat[0, 0, 9]))
    return Insurance(
        pays is not None, None if pays is None else str(pays), p_natural, ev_unit, rules.even_money, decline
    )


# --------------------------------------------------------------------------------------------------
# output


def _text(value: float, places: int = DIGITS) -> str:
    text = f"{value:.{places}f}"
    return "0." + "0" * places if text.lstrip("-").strip("0.") == "" else text


def percent_text(value: float, places: int = 4) -> str:
    """``value`` as a percentage to ``places`` decimals (``"-0.4031%"``)."""
    return f"{_text(100 * value, places)}%"


def shoe_text(analysis: BlackjackAnalysis) -> str:
    """The shoe in words: ``6 decks``, ``an infinite shoe``, ``312 cards (A 24, 2 24, ...)``."""
    if analysis.counts is None:
        return "an infinite shoe"
    if analysis.decks is not None:
        return f"{analysis.decks} deck{'s' if analysis.decks != 1 else ''}"
    cards = sum(analysis.counts)
    return f"{cards} cards (" + ", ".join(f"{n} {c}" for n, c in zip(VALUE_NAMES, analysis.counts, strict=True)) + ")"


def analysis_document(analysis: BlackjackAnalysis) -> dict[str, Any]:
    """The ``--json`` document: EV, house edge and SD per initial unit, the rules, the strategy, insurance."""
    rules = analysis.rules
    described: dict[str, Any] = {"preset": rules.preset, **rules.describe()}
    if analysis.decks is not None:
        described["decks"] = "inf" if analysis.decks == math.inf else str(analysis.decks)
    elif analysis.counts is not None:
        described["decks"] = "composition"
    ins = analysis.insurance
    return {
        "game": "blackjack",
        "rules": described,
        "shoe": {
            "decks": None if analysis.decks is None else ("inf" if analysis.decks == math.inf else analysis.decks),
            "cards": None if analysis.counts is None else dict(zip(VALUE_NAMES, analysis.counts, strict=True)),
        },
        "ev": _text(analysis.ev),
        "house_edge": _text(analysis.house_edge),
        "sd": _text(analysis.sd),
        "ev_percent": percent_text(analysis.ev),
        "notes": {
            "ev": "expected value of one round per unit of initial bet, insurance and even money never taken; "
            f"float64 arithmetic, rounded to {DIGITS} decimal places",
            "sd": "standard deviation of the round's result per initial hand (unit of initial bet)",
            "strategy": "composition-dependent; split hands play as the same cards unsplit (CDZ-); option EVs "
            "are conditional on no dealer natural where the dealer peeks with that up-card",
            "exact": "every figure but those named in approximations",
        },
        "approximations": list(analysis.approximations),
        "ev_by_up": {up: _text(value) for up, value in analysis.ev_by_up.items()},
        "insurance": {
            "offered": ins.offered,
            "pays": ins.pays,
            "p_dealer_natural_given_ace": _text(ins.p_natural),
            "ev_per_unit": None if ins.ev_per_unit is None else _text(ins.ev_per_unit),
            "even_money": {
                "offered": ins.even_money_offered,
                "ev_take": "1",
                "ev_decline": _text(ins.even_money_ev),
            },
        },
        "strategy": [
            {
                "up": hand.up,
                "hand": hand.label,
                "cards": hand.cards,
                "kind": hand.kind,
                **({"suited": hand.suited} if hand.suited is not None else {}),
                "probability": _text(hand.probability, 12),
                "conditional": hand.conditional,
                "best": hand.best,
                "ev": {name: _text(value, OPTION_DIGITS) for name, value in hand.ev.items()},
            }
            for hand in analysis.hands
        ],
        "chart": [
            {
                "up": cell.up,
                "hand": cell.label,
                "kind": cell.kind,
                "best": cell.best,
                "exceptions": cell.exceptions,
                "ev": {name: _text(value, OPTION_DIGITS) for name, value in cell.ev.items()},
            }
            for cell in analysis.chart
        ],
    }
