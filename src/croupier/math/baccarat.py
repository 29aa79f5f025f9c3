"""Exact baccarat: the odds and house edge of every bet, for any shoe composition (docs/rules.md §4).

Counting convention (that of the published tables, e.g. the Wizard of Odds): every coup is counted
as if six cards were dealt. A shoe of ``N`` cards has ``N·(N-1)·…·(N-5)`` ordered six-card sequences;
the first four deal the two sides (Art. 7: player, banker, player, banker), the fifth and sixth are
the third cards the tableau asks for (Art. 9), and a coup that takes only four or five cards is
counted once for every ordering of the cards it leaves unused. Each count is an exact integer, each
probability and house edge an exact :class:`~fractions.Fraction`.

Method: the tableau only sees point values (Art. 5: T/J/Q/K count 0), so the deal is enumerated over
the ten values with their multiplicities, not over cards. The two-card hands are taken as unordered
pairs of values, each weighted by the number of card sequences that deal it (the count of an ordered
sequence is the falling product of the counts of its values, whatever their order). For every pair of
two-card hands the third cards are summed in closed form: for a banker total ``B``, the cards that
bring it to a final total ``t`` are the cards of value ``t - B (mod 10)``, so one running sum of the
remaining counts per hand answers "how many third cards make the banker win, tie or lose" for each
player third card in one step. That is 55 × 55 pairs of hands and at most ten third cards for each.

Pairs (Art. 13(4), same *rank*: J-J yes, J-Q no) depend only on a side's first two cards and not on
the tableau, so they are counted apart, by rank: ``Σ n_r (n_r - 1)`` ordered pairs, times the
orderings of the other four cards. By symmetry the banker's first two cards (the second and fourth)
pair exactly as often as the player's (the first and third).

The drawing rules are not written again here: they are read from :mod:`croupier.baccarat.tableau`,
the payouts from :mod:`croupier.baccarat.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.baccarat import tableau
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import (
    BANKER_COMMISSION,
    LUCKY_6_THREE_CARDS,
    LUCKY_6_TWO_CARDS,
    SUPER_6_PAYS,
    Rules,
    Spot,
)
from croupier.math import RANKS, check_composition, decimal_text, full_shoe, parse_remaining
from croupier.ruleset import parse_assignments

CARDS_PER_COUP = 6
"""The most cards a coup takes (two each, a third each: Art. 7, 9); the counts are of six-card sequences."""

VALUE_OF_RANK: tuple[int, ...] = tuple(tableau.CARD_VALUES[rank] for rank in RANKS)
"""Art. 5: the point value of each rank, in the order of :data:`croupier.cards.RANKS`."""

# The tableau (croupier.baccarat.tableau) as lookup tables over two-card totals 0-9.
_STAND, _BANKER_DRAWS, _PLAYER_DRAWS = 0, 1, 2
_NATURAL = tuple(total in tableau.NATURALS for total in range(10))
_BANKER_DRAWS_ON_THIRD: tuple[tuple[bool, ...], ...] = tuple(
    tuple(third in tableau.BANKER_DRAWS_AFTER_PLAYER_THIRD.get(banker, frozenset()) for third in range(10))
    for banker in range(10)
)


def _kind(player: int, banker: int) -> int:
    """Who draws after two cards each: nobody, the banker alone, or the player (then the banker maybe)."""
    if _NATURAL[player] or _NATURAL[banker]:
        return _STAND  # Art. 9: a natural on either side, both stand
    if tableau.player_draws(player):
        return _PLAYER_DRAWS  # Art. 9.1-9.2
    if banker in tableau.BANKER_DRAWS_WHEN_PLAYER_STOOD:
        return _BANKER_DRAWS  # Art. 9.3(6)
    return _STAND


_KIND: tuple[tuple[int, ...], ...] = tuple(tuple(_kind(p, b) for b in range(10)) for p in range(10))


@dataclass(frozen=True, slots=True)
class CoupCounts:
    """How many ordered six-card sequences of the shoe deal a coup that shows each outcome.

    ``banker``, ``player`` and ``tie`` partition ``total``. ``banker_six_two_cards`` and
    ``banker_six_three_cards`` count the banker wins on a final total of 6 with two and with three
    cards (Super 6, Lucky 6); ``player_pair`` and ``banker_pair`` the coups whose side's first two
    cards have one rank (Art. 13(4)).
    """

    total: int
    banker: int
    player: int
    tie: int
    banker_six_two_cards: int
    banker_six_three_cards: int
    player_pair: int
    banker_pair: int


def falling(n: int, k: int) -> int:
    """``n·(n-1)·…·(n-k+1)``: the ordered ``k``-card sequences of ``n`` cards (0 when ``k > n``)."""
    result = 1
    for i in range(k):
        result *= n - i
    return result


def count_coups(remaining: Sequence[int]) -> CoupCounts:
    """Count every outcome over the ordered six-card sequences of a shoe holding ``remaining`` (13 counts by rank).

    Raises :class:`~croupier.math.CompositionError` unless the counts are 13 non-negative integers
    totalling at least six cards.
    """
    ranks = check_composition(remaining, decks=None, min_cards=CARDS_PER_COUP)
    values = [0] * 10
    for rank_count, value in zip(ranks, VALUE_OF_RANK, strict=True):
        values[value] += rank_count
    banker, player, tie, six_two, six_three = _tableau_counts(values)
    cards = sum(ranks)
    pairs = sum(n * (n - 1) for n in ranks) * falling(cards - 2, CARDS_PER_COUP - 2)
    return CoupCounts(
        total=falling(cards, CARDS_PER_COUP),
        banker=banker,
        player=player,
        tie=tie,
        banker_six_two_cards=six_two,
        banker_six_three_cards=six_three,
        player_pair=pairs,
        banker_pair=pairs,
    )


def _tableau_counts(values: list[int]) -> tuple[int, int, int, int, int]:
    """Banker wins, player wins, ties, banker wins on a two-card 6 and on a three-card 6.

    ``values[v]`` is the number of cards of point value ``v``. Hot loop: plain ints and lists. The
    counts are a list ``totals`` (banker, player, tie, six_two, six_three) that each step adds to.
    """
    c = list(values)
    left = sum(c) - 4  # cards left after the first four
    totals = [0, 0, 0, 0, 0]
    # weight of coups in which nobody draws, by two-card totals: settled in one pass at the end
    standing = [[0] * 10 for _ in range(10)]
    for p1 in range(10):
        if not c[p1]:
            continue
        for p2 in range(p1, 10):
            wp = c[p1]
            c[p1] -= 1
            wp *= c[p2]
            c[p2] -= 1
            if wp:
                _banker_hands(c, (p1 + p2) % 10, wp if p1 == p2 else 2 * wp, left, standing, totals)
            c[p2] += 1
            c[p1] += 1
    _settle_standing(standing, left * (left - 1), totals)
    banker, player, tie, six_two, six_three = totals
    return banker, player, tie, six_two, six_three


def _banker_hands(c: list[int], pt: int, wp: int, left: int, standing: list[list[int]], totals: list[int]) -> None:
    """Every banker two-card hand from the counts ``c`` against the player's two-card total ``pt``
    (``wp`` orderings of the player's cards): a standing pair is kept for the end, a draw counted now."""
    kind_row = _KIND[pt]
    standing_row = standing[pt]
    banker = player = tie = six_two = six_three = 0
    for b1 in range(10):
        if not c[b1]:
            continue
        for b2 in range(b1, 10):
            w = c[b1]
            c[b1] -= 1
            w *= c[b2]
            c[b2] -= 1
            if w:
                w *= wp if b1 == b2 else 2 * wp
                bt = (b1 + b2) % 10
                kind = kind_row[bt]
                if kind == _STAND:
                    standing_row[bt] += w
                elif kind == _BANKER_DRAWS:
                    _banker_draws(c, pt, bt, w * (left - 1), left, totals)
                else:
                    lb, lt, lp, l2, l3 = _player_draws(c, pt, bt, left)
                    banker += w * lb
                    tie += w * lt
                    player += w * lp
                    six_two += w * l2
                    six_three += w * l3
            c[b2] += 1
            c[b1] += 1
    totals[0] += banker
    totals[1] += player
    totals[2] += tie
    totals[3] += six_two
    totals[4] += six_three


def _banker_draws(c: list[int], pt: int, bt: int, w: int, left: int, totals: list[int]) -> None:
    """The player stood on ``pt``; the banker's third card x makes ``(bt + x) % 10`` (``w`` sequences each)."""
    wins = 0
    for final in range(pt + 1, 10):
        wins += c[(final - bt) % 10]
    ties = c[(pt - bt) % 10]
    totals[0] += w * wins
    totals[2] += w * ties
    totals[1] += w * (left - wins - ties)
    if pt < 6:
        totals[4] += w * c[(6 - bt) % 10]


def _player_draws(c: list[int], pt: int, bt: int, left: int) -> tuple[int, int, int, int, int]:
    """The player draws x on ``pt``; the banker on ``bt`` draws or stands as the tableau says (Art. 9).

    Returns the banker's wins, ties, player's wins, banker wins on a two-card and a three-card 6, each
    over the player's third card and what follows (to be multiplied by the first four cards' orderings).
    """
    tail1 = left - 1  # orderings of the unused sixth card, when the coup takes five
    # reach[t] = cards giving the banker a final total below t
    reach = [0] * 11
    running = 0
    for final in range(10):
        running += c[(final - bt) % 10]
        reach[final + 1] = running
    draws_row = _BANKER_DRAWS_ON_THIRD[bt]
    six_value = (6 - bt) % 10
    lb = lt = lp = l2 = l3 = 0
    for x in range(10):
        k = c[x]
        if not k:
            continue
        final_p = (pt + x) % 10
        if draws_row[x]:
            below = reach[final_p]
            upto = reach[final_p + 1]
            wins = left - upto
            ties = upto - below
            losses = below
            taken = (bt + x) % 10  # the card x left the shoe: one fewer of its class
            if taken > final_p:
                wins -= 1
            elif taken == final_p:
                ties -= 1
            else:
                losses -= 1
            lb += k * wins
            lt += k * ties
            lp += k * losses
            if final_p < 6:
                l3 += k * (c[six_value] - (x == six_value))
        elif bt > final_p:
            lb += k * tail1
            if bt == 6:
                l2 += k * tail1
        elif bt == final_p:
            lt += k * tail1
        else:
            lp += k * tail1
    return lb, lt, lp, l2, l3


def _settle_standing(standing: list[list[int]], tail2: int, totals: list[int]) -> None:
    """The coups nobody draws in, by two-card totals; ``tail2`` orders the unused fifth and sixth cards."""
    for pt in range(10):
        for bt in range(10):
            weight = standing[pt][bt] * tail2
            if not weight:
                continue
            outcome = tableau.winner(pt, bt)
            if outcome == "banker":
                totals[0] += weight
                if bt == 6:
                    totals[3] += weight
            elif outcome == "tie":
                totals[2] += weight
            else:
                totals[1] += weight


# --------------------------------------------------------------------------------------------------
# the analysis of a rule set


@dataclass(frozen=True)
class BaccaratAnalysis:
    """The exact odds of a coup dealt from ``remaining`` under ``rules``, and every offered bet's house edge."""

    rules: Rules
    remaining: tuple[int, ...]
    counts: CoupCounts

    @property
    def cards(self) -> int:
        return sum(self.remaining)

    @property
    def spots(self) -> tuple[Spot, ...]:
        """The bets the rule set offers (``lucky_6`` only where it has it)."""
        return self.rules.spots

    @property
    def probabilities(self) -> dict[str, Fraction]:
        """The probability of each outcome a bet is settled on."""
        counts = self.counts
        return {
            "banker": Fraction(counts.banker, counts.total),
            "player": Fraction(counts.player, counts.total),
            "tie": Fraction(counts.tie, counts.total),
            "player_pair": Fraction(counts.player_pair, counts.total),
            "banker_pair": Fraction(counts.banker_pair, counts.total),
            "banker_six_two_cards": Fraction(counts.banker_six_two_cards, counts.total),
            "banker_six_three_cards": Fraction(counts.banker_six_three_cards, counts.total),
        }

    def expected_value(self, spot: Spot) -> Fraction:
        """The player's expected gain per unit staked on ``spot``, per coup (a push counts as 0)."""
        n = self.counts
        rules = self.rules
        if spot == "player":
            gain = Fraction(n.player - n.banker)  # Art. 17.1: 1:1; a tie pushes (Art. 12)
        elif spot == "banker":
            if rules.commission == "5pct":
                gain = BANKER_COMMISSION.fraction * n.banker - n.player  # Art. 18: 0.95:1
            else:
                sixes = n.banker_six_two_cards + n.banker_six_three_cards
                gain = (n.banker - sixes) + SUPER_6_PAYS.fraction * sixes - n.player  # Art. 18.2
        elif spot == "tie":
            gain = rules.tie_pays.fraction * n.tie - (n.total - n.tie)  # Art. 17.2
        elif spot in ("player_pair", "banker_pair"):
            pairs = n.player_pair if spot == "player_pair" else n.banker_pair
            gain = rules.pair_pays.fraction * pairs - (n.total - pairs)  # Art. 17.3
        else:  # lucky_6, 2018 amendment: a banker 6 that ties loses
            wins = n.banker_six_two_cards + n.banker_six_three_cards
            gain = (
                LUCKY_6_TWO_CARDS.fraction * n.banker_six_two_cards
                + LUCKY_6_THREE_CARDS.fraction * n.banker_six_three_cards
                - (n.total - wins)
            )
        return gain / n.total

    @property
    def house_edge(self) -> dict[Spot, Fraction]:
        """Per offered spot, the house's expected gain per unit staked per coup: ties are in the denominator."""
        return {spot: -self.expected_value(spot) for spot in self.spots}


def analyze_baccarat(rules: Rules, remaining: Sequence[int] | None = None) -> BaccaratAnalysis:
    """Analyse a coup dealt from ``remaining`` (13 counts by rank; default a full shoe of ``rules.decks``).

    A composition with more of a rank than ``rules.decks`` decks hold, a negative count, not 13
    counts, or fewer than six cards raises :class:`~croupier.math.CompositionError`.
    """
    counts = full_shoe(rules.decks) if remaining is None else remaining
    shoe = check_composition(counts, decks=rules.decks, min_cards=CARDS_PER_COUP)
    return BaccaratAnalysis(rules=rules, remaining=shoe, counts=count_coups(shoe))


def analyze_from_options(preset: str, assignments: Sequence[str], remaining: str | None) -> BaccaratAnalysis:
    """The command line's reading: ``--rules``, each ``--set NAME=VALUE`` and ``--remaining COUNTS``."""
    rules = baccarat_rules(preset, parse_assignments(list(assignments)))
    shoe = None if remaining is None else parse_remaining(remaining)
    return analyze_baccarat(rules, shoe)


# --------------------------------------------------------------------------------------------------
# output


def pays_text(rules: Rules, spot: Spot) -> str:
    """What a winning stake on ``spot`` is paid, as the table layout says it."""
    if spot == "player":
        return "1:1"
    if spot == "banker":
        if rules.commission == "5pct":
            return f"{BANKER_COMMISSION} (5% commission)"
        return f"1:1, a winning 6 pays {SUPER_6_PAYS}"
    if spot == "tie":
        return str(rules.tie_pays)
    if spot in ("player_pair", "banker_pair"):
        return str(rules.pair_pays)
    return f"{LUCKY_6_TWO_CARDS} two cards, {LUCKY_6_THREE_CARDS} three cards"


def analysis_document(analysis: BaccaratAnalysis) -> dict[str, Any]:
    """The analysis as JSON-ready data: counts as decimal integer strings, the rest as decimal text.

    ``probabilities`` and ``house_edge`` are :func:`~croupier.math.decimal_text` (exact where the
    fraction terminates, else 12 significant digits); ``exact`` holds the same values as reduced
    fractions ``"numerator/denominator"``.
    """
    rules = analysis.rules
    counts = analysis.counts
    probabilities = analysis.probabilities
    edges = analysis.house_edge
    return {
        "game": "baccarat",
        "rules": {
            "preset": rules.preset,
            "decks": rules.decks,
            "commission": rules.commission,
            "tie_pays": str(rules.tie_pays),
            "pair_pays": str(rules.pair_pays),
            "lucky_6": rules.lucky_6,
        },
        "remaining": dict(zip(RANKS, analysis.remaining, strict=True)),
        "cards": analysis.cards,
        "counts": {
            "banker": str(counts.banker),
            "player": str(counts.player),
            "tie": str(counts.tie),
            "total": str(counts.total),
            "player_pair": str(counts.player_pair),
            "banker_pair": str(counts.banker_pair),
            "banker_six_two_cards": str(counts.banker_six_two_cards),
            "banker_six_three_cards": str(counts.banker_six_three_cards),
        },
        "probabilities": {name: decimal_text(value) for name, value in probabilities.items()},
        "house_edge": {spot: decimal_text(value) for spot, value in edges.items()},
        "pays": {spot: pays_text(rules, spot) for spot in analysis.spots},
        "exact": {
            "probabilities": {name: _fraction_text(value) for name, value in probabilities.items()},
            "house_edge": {spot: _fraction_text(value) for spot, value in edges.items()},
        },
    }


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def percent_text(value: Fraction, places: int = 4) -> str:
    """``value`` as a percentage rounded half-even to ``places`` decimals, in exact arithmetic."""
    scaled = round(value * 100 * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, fraction = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}%"
