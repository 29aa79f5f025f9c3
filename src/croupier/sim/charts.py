"""The simulator's strategy: lookup tables from the exact analysis or from a chart file.

The compiled round (:mod:`croupier.sim.kernels`) asks these tables, indexed by card values ``0-9``
(A, 2, …, 9, T) and the dealer's up-card value ``u``:

* ``first[u, x, y, s]``: the box's first decision on its two cards ``x, y`` (``s = 1`` for a 6-7,
  6-8 or 7-8 of one suit where the 6-7-8 suited bonus is paid): stand, hit, double, split or
  surrender, always one the rules allow there;
* ``split_hand[u, x, y, s]``: a split hand's decision on two cards when it does not resplit: stand,
  hit, or double where ``double_after_split`` and ``double_on`` allow it;
* ``resplit[u, x, y, s]``: 1 where a split hand holding a pair splits again (the rules permitting);
* ``by_cards[u, r]``: 1 where a hand of three cards or more of composition ``r`` hits (the hand's
  composition is followed card by card through ``links[r, v]``, ``r = 0`` the empty hand); empty
  for a chart;
* ``more[u, total, soft]``: hit or stand by total, for a hand of three cards or more that
  ``by_cards`` does not list (every hand, for a chart).

From the analysis (:func:`strategy_from_analysis`), the analysis's own strategy, exactly: ``first`` is
the best option of each two-card hand of :func:`croupier.math.blackjack.analyze_blackjack`; a split
hand plays as the analysis assumes (the option its cards take unsplit, less what a split hand may not
do, and every pair resplit while the rules allow); a hand of three cards or more hits or stands by its
exact cards, by the analysis's recursion (:func:`croupier.sim.composition.hit_by_composition`).
``more`` is then a fallback by total: hit where the two-card hands of that total (without pairs,
unless no other hand makes it, and without suited 6-7-8 hands, whose hit counts the bonus) gain more
by hitting than by standing, weighted by their probabilities.

A chart file (:func:`load_chart`) is JSON::

    {"hard": {"12": "HHSSSHHHHH", ...}, "soft": {"18": "dddddSSHHH", ...}, "pair": {"8": "PPPPPPPPPP", ...}}

Each row is ten letters, for the up-cards 2, 3, 4, 5, 6, 7, 8, 9, T, A. Letters: ``H`` hit, ``S``
stand, ``D`` double (else hit), ``d`` double (else stand), ``R`` surrender (else hit), ``r``
surrender (else stand), ``P`` split (in ``pair`` rows; pairs are named ``A``, ``2`` … ``9``, ``T``).
"Else" applies where the rules refuse the first choice (``double_on``, ``double_after_split``,
``surrender``, a third card). A pair row's letter other than ``P`` plays the pair as that letter;
a missing pair row plays the pair by its total. Missing total rows: hard totals hit below 17 and
stand from 17, soft totals hit below 18 and stand from 18.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from croupier.blackjack.rules import DOUBLE_TOTALS, Rules
from croupier.codes import DOUBLE, HIT, OPTION_CODES, SPLIT, STAND, SURRENDER
from croupier.errors import CroupierError
from croupier.sim.composition import hit_by_composition

Table = npt.NDArray[np.int8]

VALUE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
CHART_UPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
"""Up-card values in the order of a chart row: 2, 3, …, 9, T, A."""
LETTERS = "HSDdRrP"


class ChartError(CroupierError):
    """A chart file that cannot be read; the message names the row and the letter."""


@dataclass(frozen=True)
class Strategy:
    """The simulator's lookup tables (see the module docstring) and where they came from."""

    first: Table
    split_hand: Table
    resplit: Table
    more: Table
    source: str
    by_cards: Table = field(default_factory=lambda: np.zeros((10, 0), dtype=np.int8))
    links: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros((1, 10), dtype=np.int64))


def _empty() -> Table:
    return np.zeros((10, 10, 10, 2), dtype=np.int8)


def _two_card_total(x: int, y: int) -> tuple[int, bool]:
    hard = x + y + 2
    if (x == 0 or y == 0) and hard <= 11:
        return hard + 10, True
    return hard, False


def _surrender_allowed(rules: Rules, u: int) -> bool:
    return rules.surrender == "late" or (rules.surrender == "early_not_ace" and u != 0)


def _split_hand_doubles(rules: Rules, total: int) -> bool:
    """A split hand may double its two cards (split aces under ``split_aces_one_card`` never ask)."""
    return rules.double_after_split and total in DOUBLE_TOTALS[rules.double_on]


# --------------------------------------------------------------------------------------------------
# from the exact analysis


def strategy_from_analysis(rules: Rules, analysis: object | None = None) -> Strategy:
    """The analysis's strategy for ``rules`` (computed for ``rules.decks`` unless ``analysis`` is given)."""
    from croupier.math.blackjack import BlackjackAnalysis, analyze_blackjack

    result = analysis if analysis is not None else analyze_blackjack(rules)
    if not isinstance(result, BlackjackAnalysis):
        raise TypeError(f"expected a BlackjackAnalysis, got {type(result).__name__}")
    first, split_hand, resplit = _empty(), _empty(), _empty()
    # more: weighted (stand, hit) EVs of the two-card hands of each total, without pairs, then pairs
    sums = np.zeros((10, 22, 2, 2, 2))  # u, total, soft, pair?, (stand, hit)
    weights = np.zeros((10, 22, 2, 2))
    for hand in result.hands:
        u = VALUE_NAMES.index(hand.up)
        names = hand.cards.split(",")
        x, y = VALUE_NAMES.index(names[0]), VALUE_NAMES.index(names[1])
        variants = (0, 1) if hand.suited is None else ((1,) if hand.suited else (0,))
        total, soft = _two_card_total(x, y)
        best = OPTION_CODES[hand.best]
        ev = hand.ev
        # a split hand: the option the same cards take unsplit, less what a split hand may not do
        choice, value = STAND, ev["stand"]
        if "hit" in ev and ev["hit"] > value:
            choice, value = HIT, ev["hit"]
        if "double" in ev and _split_hand_doubles(rules, total) and ev["double"] > value:
            choice = DOUBLE
        for s in variants:
            for a, b in ((x, y), (y, x)):
                first[u, a, b, s] = best
                split_hand[u, a, b, s] = choice
                resplit[u, a, b, s] = 1 if x == y and rules.max_split_hands >= 2 else 0
        if hand.kind == "blackjack" or hand.suited or "hit" not in ev:
            continue
        pair = 1 if x == y else 0
        sums[u, total, int(soft), pair, 0] += hand.probability * ev["stand"]
        sums[u, total, int(soft), pair, 1] += hand.probability * ev["hit"]
        weights[u, total, int(soft), pair] += hand.probability
    more = np.zeros((10, 22, 2), dtype=np.int8)
    for u in range(10):
        for total in range(22):
            for soft_index in range(2):
                kind = 0 if weights[u, total, soft_index, 0] > 0 else 1
                if weights[u, total, soft_index, kind] > 0:
                    stand, hit = sums[u, total, soft_index, kind]
                    more[u, total, soft_index] = HIT if hit > stand else STAND
                else:
                    more[u, total, soft_index] = _default_letter_code(total, bool(soft_index))
    by_cards, links = _hit_by_composition(rules, result.counts)
    return Strategy(first, split_hand, resplit, more, "exact analysis", by_cards, links)


def _hit_by_composition(rules: Rules, counts: tuple[int, ...] | None) -> tuple[Table, npt.NDArray[np.int64]]:
    """Hit or stand for every hand the player can hold against every up-card, as the analysis plays it
    (by the hand's exact cards), and the links ``links[r, v]``: the hand ``r`` with one more card ``v``."""
    from croupier.math import bj_kernels
    from croupier.math.bj_tables import VALUES, compositions, dealer_table

    comp = compositions((0,) * VALUES, False)
    infinite = counts is None
    shoe = np.array([1.0 / 13] * 9 + [4.0 / 13]) if counts is None else np.array(counts, dtype=np.float64)
    table = dealer_table(rules.dealer_hits_soft_17)
    dmat = bj_kernels.dealer_probs(
        comp.cards, comp.dealer, shoe, infinite, table.values, table.counts, table.nnz, table.size,
        table.outcome, table.ptr, table.up, table.mult, table.max_count,
    )  # fmt: skip
    peek = np.zeros(VALUES, dtype=np.bool_)
    if rules.hole_card in ("peek", "peek_ace"):
        peek[0] = True
    if rules.hole_card == "peek":
        peek[9] = True
    hits = hit_by_composition(comp.cards, comp.size, comp.hard, comp.plus, comp.hands, dmat, shoe, infinite, peek)
    base = int(np.count_nonzero(comp.hard <= 21))  # the hands a player can hold come first
    return np.ascontiguousarray(hits[:, :base]), np.ascontiguousarray(comp.plus[:base])


def _default_letter_code(total: int, soft: bool) -> int:
    return HIT if total < (18 if soft else 17) else STAND


# --------------------------------------------------------------------------------------------------
# from a chart file


def load_chart(path: str | Path) -> dict[str, dict[str, str]]:
    """Read a chart file (JSON, see the module docstring) and check every row."""
    try:
        raw = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ChartError(f"chart {path}: {error}") from None
    return check_chart(raw)


def check_chart(raw: object) -> dict[str, dict[str, str]]:
    """The chart ``raw`` with its rows checked; raises :class:`ChartError` naming a bad row."""
    if not isinstance(raw, Mapping):
        raise ChartError("a chart is a JSON object with the keys hard, soft and pair")
    unknown = set(raw) - {"hard", "soft", "pair"}
    if unknown:
        raise ChartError(f"chart: unknown section(s) {sorted(unknown)}; the sections are hard, soft, pair")
    chart: dict[str, dict[str, str]] = {}
    for section in ("hard", "soft", "pair"):
        rows = raw.get(section, {})
        if not isinstance(rows, Mapping):
            raise ChartError(f"chart {section}: expected an object of rows")
        checked: dict[str, str] = {}
        for key, row in rows.items():
            name = str(key).upper() if section == "pair" else str(key)
            if section == "pair":
                if name == "10":
                    name = "T"
                if name not in VALUE_NAMES:
                    raise ChartError(f"chart pair {key!r}: pairs are named A, 2, ..., 9, T")
            elif not name.isdigit() or not (4 if section == "hard" else 12) <= int(name) <= 21:
                low = 4 if section == "hard" else 12
                raise ChartError(f"chart {section} {key!r}: a {section} total is {low}-21")
            if not isinstance(row, str) or len(row) != 10 or any(letter not in LETTERS for letter in row):
                raise ChartError(
                    f"chart {section} {key}: expected ten letters of {LETTERS} (up-cards 2-9, T, A), got {row!r}"
                )
            if section != "pair" and "P" in row:
                raise ChartError(f"chart {section} {key}: P (split) belongs in pair rows only")
            checked[name] = row
        chart[section] = checked
    return chart


def _resolve(letter: str, can_double: bool, can_surrender: bool) -> int:
    if letter in "Dd":
        return DOUBLE if can_double else (HIT if letter == "D" else STAND)
    if letter in "Rr":
        return SURRENDER if can_surrender else (HIT if letter == "R" else STAND)
    return HIT if letter == "H" else STAND


def strategy_from_chart(rules: Rules, chart: Mapping[str, Mapping[str, str]], source: str = "chart") -> Strategy:
    """Lookup tables that play ``chart`` (see the module docstring) under ``rules``."""
    checked = check_chart(chart)
    first, split_hand, resplit = _empty(), _empty(), _empty()
    more = np.zeros((10, 22, 2), dtype=np.int8)

    def total_letter(total: int, soft: bool, column: int) -> str | None:
        row = checked["soft" if soft else "hard"].get(str(total))
        return row[column] if row is not None else None

    for column, u in enumerate(CHART_UPS):
        for total in range(4, 22):
            for soft in (False, True):
                letter = total_letter(total, soft, column)
                code = _default_letter_code(total, soft) if letter is None else _resolve(letter, False, False)
                more[u, total, int(soft)] = code
        for x in range(10):
            for y in range(10):
                total, soft = _two_card_total(x, y)
                letter = total_letter(total, soft, column)
                pair_row = checked["pair"].get(VALUE_NAMES[x]) if x == y else None
                pair_letter = pair_row[column] if pair_row is not None else None
                if pair_letter is not None and pair_letter != "P":
                    letter = pair_letter
                doubles = total in DOUBLE_TOTALS[rules.double_on]
                if letter is None:
                    base = _default_letter_code(total, soft)
                    first_code = split_code = base
                else:
                    first_code = _resolve(letter, doubles, _surrender_allowed(rules, u))
                    split_code = _resolve(letter, _split_hand_doubles(rules, total), False)
                splits = pair_letter == "P" and rules.max_split_hands >= 2
                for s in (0, 1):
                    first[u, x, y, s] = SPLIT if splits else first_code
                    split_hand[u, x, y, s] = split_code
                    resplit[u, x, y, s] = 1 if splits else 0
    return Strategy(first, split_hand, resplit, more, source)
