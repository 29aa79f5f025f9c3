"""The baccarat simulator: coups played exactly as the engine plays them, compiled, on every core.

:func:`simulate_baccarat` plays ``coups`` coups of any baccarat rule set
(:class:`~croupier.baccarat.rules.Rules`) with a stake of one unit on every spot the rules offer
(player, banker, tie, both pairs, and Lucky 6 where ``lucky_6 = true``), each settled on its own with
the rules' payouts. Two ways to shuffle:

* ``shuffle="shoe"``: a real shoe of ``rules.decks`` decks, shuffled, its cut card placed as the
  engine places it (:func:`croupier.baccarat.state.shuffled_shoes`: a range is drawn from, never
  nearer the end than :attr:`~croupier.baccarat.rules.Rules.cards_from_cut_card_to_end`), the
  shoe-start burn (Art. 2.1: the first card turned and as many burned as its value, or ``decks``, or a
  fixed count), ``demo_coups`` demonstration coups without bets (Art. 2.2; their cards count like any
  other), the burn before each coup from the second on where ``burn_each_coup`` (Art. 8), and coups
  until the cut card's coup, or one more (Art. 3.1). With ``shuffler = automatic`` every coup is dealt
  from a fresh shuffle (Art. 2.3, 7.2).
* ``shuffle="continuous"``: a continuous shuffler: every coup is dealt from a full, freshly shuffled
  shoe with no burn and no demonstration coup, as the engine deals under ``shuffler = automatic``.
  Its expectations are those of the exact analysis (:func:`croupier.math.baccarat.analyze_baccarat`).

``coups`` counts coups with bets; demonstration coups are counted apart.

Reproducible by seed. The run is cut into chunks of ``chunk_coups`` coups; chunk ``i`` draws from its
own xoshiro256** stream, seeded by SplitMix64 from the seed and ``i`` (see
:mod:`croupier.sim.baccarat_kernels`), starts with a new shoe and stops after its last coup, even in
the middle of a shoe, and writes only its own results, which are added up in chunk order. The same
seed and chunking give the same result on any number of cores. A seed is an int or a string; its two
64-bit words are the first 16 bytes of ``SHA-256(str(seed))``, little-endian.

Money is exact: each stake's result is an integer count of minor units (``unit`` of them to one unit
of bet: the least common multiple of the denominators of the rules' payouts), summed as integers;
only the reported means, standard deviations, frequencies and live-edge expectations are floats.

**Live edges** (``live_edges=True``, real shoes only): before the deal of every coup with bets, the
exact expectation of every spot for the composition of the cards then left is counted (the exact
count of :func:`croupier.math.baccarat.count_coups`, compiled in int64, so the sign of each
expectation is exact), and the simulator reports how often each spot's expectation is positive, the
mean expectation then, and what a bettor who staked that spot only then won per bet and per coup.
``live_view="remaining"`` counts the cards left in the shoe; ``live_view="unseen"`` counts every card
the table has not seen face up (the cards left and the burned ones): what a player at the table can
know. Both are exact expectations of the next coup given what they count, since a burned card is a
card drawn at random from the cards the player has not seen.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numba
import numpy as np
import numpy.typing as npt

from croupier.baccarat import tableau
from croupier.baccarat.rules import (
    BANKER_COMMISSION,
    LUCKY_6_THREE_CARDS,
    LUCKY_6_TWO_CARDS,
    SPOTS,
    SUPER_6_PAYS,
    Rules,
    Spot,
)
from croupier.errors import CroupierError
from croupier.money import exact, format_amount
from croupier.ruleset import describe
from croupier.sim import baccarat_count as bc
from croupier.sim import baccarat_kernels as k
from croupier.sim import generator

if TYPE_CHECKING:
    from distributed import Client

Shuffle = Literal["shoe", "continuous"]
LiveView = Literal["remaining", "unseen"]
Progress = Callable[[int, int], None]
"""Called with (coups done, coups asked) as chunks finish."""
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

DEFAULT_CHUNK = 1 << 16
"""Coups per chunk unless told otherwise (65,536)."""
GENERATOR = "xoshiro256** per chunk, seeded by SplitMix64 from SHA-256(str(seed)) and the chunk number"
DESTINATIONS = ("first card", "shoe-start burn", "burn", "player", "banker")
"""What became of each card drawn, by the kernels' ``D_*`` codes."""
WINNERS: tuple[tableau.Winner, ...] = ("banker", "player", "tie")


class BaccaratSimulationError(CroupierError):
    """A baccarat simulation that cannot run as asked; the message says why."""


# --------------------------------------------------------------------------------------------------
# inputs


def seed_words(seed: int | str) -> npt.NDArray[np.uint64]:
    """The generator's two seed words (:func:`croupier.sim.generator.seed_words`)."""
    return generator.seed_words(seed, BaccaratSimulationError)


def _payouts(rules: Rules) -> dict[str, Fraction]:
    """Every winning stake's gain per unit under ``rules`` (Art. 17, 18; 2018 amendment)."""
    five_pct = rules.commission == "5pct"
    banker = BANKER_COMMISSION.fraction if five_pct else Fraction(1)
    return {
        "banker": banker,
        "banker_six": banker if five_pct else SUPER_6_PAYS.fraction,
        "tie": rules.tie_pays.fraction,
        "pair": rules.pair_pays.fraction,
        "lucky_6_two": LUCKY_6_TWO_CARDS.fraction,
        "lucky_6_three": LUCKY_6_THREE_CARDS.fraction,
    }


def money_unit(rules: Rules) -> int:
    """Minor units per unit of bet: every payment of ``rules`` on a one-unit stake is a whole number of them."""
    unit = 1
    for value in _payouts(rules).values():
        unit = math.lcm(unit, value.denominator)
    return unit


def rule_parameters(rules: Rules, shuffle: Shuffle, live: LiveView | None = None, record: bool = False) -> IntArray:
    """The kernel's rule array (:mod:`croupier.sim.baccarat_kernels` ``R_*``) for ``rules``."""
    unit = money_unit(rules)
    pays = {name: int(value * unit) for name, value in _payouts(rules).items()}
    rp = np.zeros(k.R_SIZE, dtype=np.int64)
    rp[k.R_DECKS] = rules.decks
    continuous = shuffle == "continuous" or rules.automatic_shuffler
    rp[k.R_CONTINUOUS] = continuous
    setting = rules.cut_card
    need = rules.cards_from_cut_card_to_end
    total = rules.decks * 52
    if continuous or setting is None:
        rp[k.R_CUT_MODE] = 0
    elif isinstance(setting, int):  # as shuffled_shoes places it
        rp[k.R_CUT_MODE] = 1
        rp[k.R_CUT_A] = min(setting, total - need)
    else:
        rp[k.R_CUT_MODE] = 2
        rp[k.R_CUT_A], rp[k.R_CUT_B] = max(setting[0], need), max(setting[1], need)
    burn = rules.burn
    if burn == "first_card_value":
        rp[k.R_BURN_MODE] = 1
    else:
        rp[k.R_BURN_MODE] = 2
        rp[k.R_BURN_N] = rules.decks if burn == "decks" else burn
    rp[k.R_DEMO] = rules.max_demo_coups
    rp[k.R_AT_LAST] = rules.at_cut_card == "last"
    rp[k.R_BURN_EACH] = rules.burn_each_coup
    rp[k.R_UNIT] = unit
    rp[k.R_PAY_BANKER] = pays["banker"]
    rp[k.R_PAY_BANKER_SIX] = pays["banker_six"]
    rp[k.R_PAY_TIE] = pays["tie"]
    rp[k.R_PAY_PAIR] = pays["pair"]
    rp[k.R_PAY_L6_TWO] = pays["lucky_6_two"]
    rp[k.R_PAY_L6_THREE] = pays["lucky_6_three"]
    rp[k.R_LUCKY] = rules.lucky_6
    rp[k.R_RECORD] = record
    rp[k.R_LIVE] = 0 if live is None else (1 if live == "remaining" else 2)
    return rp


def tableau_arrays() -> tuple[npt.NDArray[np.bool_], ...]:
    """The drawing rules of :mod:`croupier.baccarat.tableau` as the kernels' lookup arrays (Art. 9)."""
    nat = np.array([t in tableau.NATURALS for t in range(10)], dtype=np.bool_)
    pdraw = np.array([tableau.player_draws(t) for t in range(10)], dtype=np.bool_)
    bstood = np.array([t in tableau.BANKER_DRAWS_WHEN_PLAYER_STOOD for t in range(10)], dtype=np.bool_)
    bthird = np.array(
        [[x in tableau.BANKER_DRAWS_AFTER_PLAYER_THIRD.get(b, frozenset()) for x in range(10)] for b in range(10)],
        dtype=np.bool_,
    )
    return nat, pdraw, bstood, bthird


def live_expected_values(rules: Rules, remaining: Sequence[int]) -> dict[Spot, float]:
    """Each offered spot's expectation per unit for a coup dealt from ``remaining`` (13 counts by rank),
    by the compiled count the live edges use; :func:`croupier.math.baccarat.analyze_baccarat` is exact."""
    ranks = np.array(list(remaining), dtype=np.int64)
    if ranks.shape != (13,) or ranks.min() < 0 or ranks.sum() < 6:
        raise BaccaratSimulationError("remaining: expected 13 non-negative counts totalling at least six cards")
    counts = np.zeros(bc.C_SIZE, dtype=np.int64)
    nat, pdraw, bstood, bthird = tableau_arrays()
    bc.count_coups(ranks, nat, pdraw, bstood, bthird, counts)
    num = np.zeros(k.SPOTS, dtype=np.int64)
    ev = np.zeros(k.SPOTS, dtype=np.float64)
    k.expected_values(rule_parameters(rules, "shoe"), counts, num, ev)
    return {spot: float(ev[i]) for i, spot in enumerate(SPOTS) if spot in rules.spots}


def compiled_counts(remaining: Sequence[int]) -> tuple[int, ...]:
    """The compiled count of a coup from ``remaining``: total, banker, player, tie, banker wins on a two-card
    and a three-card 6, and player pairs (as :class:`croupier.math.baccarat.CoupCounts` names them)."""
    counts = np.zeros(bc.C_SIZE, dtype=np.int64)
    nat, pdraw, bstood, bthird = tableau_arrays()
    bc.count_coups(np.array(list(remaining), dtype=np.int64), nat, pdraw, bstood, bthird, counts)
    return tuple(int(x) for x in counts)


@dataclass(frozen=True)
class _Plan:
    rules: Rules
    shuffle: Shuffle
    seed: int | str
    chunk_coups: int
    live: LiveView | None

    def sizes(self, coups: int) -> IntArray:
        full, rest = divmod(coups, self.chunk_coups)
        return np.array([self.chunk_coups] * full + ([rest] if rest else []), dtype=np.int64)


def _plan(
    rules: Rules, coups: int, seed: int | str, shuffle: str, live_edges: bool, live_view: str, chunk_coups: int
) -> _Plan:
    if not isinstance(rules, Rules):
        raise BaccaratSimulationError(f"simulate_baccarat needs baccarat Rules, got {type(rules).__name__}")
    if isinstance(coups, bool) or not isinstance(coups, int) or coups < 1:
        raise BaccaratSimulationError(f"coups: expected a positive whole number, got {coups!r}")
    if shuffle not in ("shoe", "continuous"):
        raise BaccaratSimulationError(f"shuffle: expected 'shoe' or 'continuous', got {shuffle!r}")
    if isinstance(chunk_coups, bool) or not isinstance(chunk_coups, int) or chunk_coups < 1:
        raise BaccaratSimulationError(f"chunk_coups: expected a positive whole number, got {chunk_coups!r}")
    if live_view not in ("remaining", "unseen"):
        raise BaccaratSimulationError(f"live_view: expected 'remaining' or 'unseen', got {live_view!r}")
    if live_edges and (shuffle == "continuous" or rules.automatic_shuffler):
        raise BaccaratSimulationError(
            "live edges need a real shoe: a continuous or automatic shuffler deals every coup from a full shoe "
            "(Art. 2.3, 7.2), whose edges are those of the exact analysis"
        )
    if live_edges and money_unit(rules) * math.perm(rules.decks * 52, 6) >= 1 << 62:
        raise BaccaratSimulationError("live edges: the rules' payouts are too fine for the exact 64-bit count")
    seed_words(seed)
    mode: Shuffle = "shoe" if shuffle == "shoe" else "continuous"
    view: LiveView = "remaining" if live_view == "remaining" else "unseen"
    return _Plan(rules, mode, seed, chunk_coups, view if live_edges else None)


# --------------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class BetResult:
    """One spot's results over the run, for a stake of one unit every coup.

    ``net``: the exact sum of the gains; ``ev``: the mean gain per coup; ``se``: its standard error
    (coups taken as independent; within a shoe they are nearly so); ``sd``: the standard deviation of
    one coup's gain.
    """

    net: Decimal
    ev: float
    se: float
    sd: float

    @property
    def house_edge(self) -> float:
        return -self.ev


@dataclass(frozen=True)
class LiveEdge:
    """How often one spot's exact expectation for the cards left was positive before the deal.

    ``coups``: the coups analysed (every coup with bets); ``positive``: those whose expectation was
    positive; ``mean_ev_positive``: the mean expectation over those; ``gain_positive`` and
    ``se_positive``: what a one-unit stake won per bet, betting only then, and its standard error;
    ``gain_per_coup``: the same bettor's gain per coup played; ``mean_ev``: the mean expectation over
    every coup analysed (it estimates the spot's expectation in a real shoe); ``max_ev``: the largest.
    """

    coups: int
    positive: int
    mean_ev_positive: float
    gain_positive: float
    se_positive: float
    gain_per_coup: float
    mean_ev: float
    max_ev: float

    @property
    def frequency(self) -> float:
        return self.positive / self.coups if self.coups else 0.0


@dataclass(frozen=True)
class BaccaratSimulation:
    """What a baccarat simulation found. Money sums are exact; means, deviations and rates are floats."""

    rules: Rules
    coups: int
    shuffle: Shuffle
    seed: int | str
    chunk_coups: int
    unit: int
    bets: dict[Spot, BetResult]
    counts: dict[str, int]
    live_view: LiveView | None
    live: dict[Spot, LiveEdge] | None
    seconds: float
    workers: int

    @property
    def coups_per_second(self) -> float:
        return self.coups / self.seconds if self.seconds > 0 else math.inf

    def frequencies(self) -> dict[str, float]:
        """Per coup with bets: each outcome, pairs, naturals, third cards, banker wins on 6 (Super 6, Lucky 6)."""
        c = self.counts
        coups = max(self.coups, 1)
        names = (
            "banker", "player", "tie", "player_pair", "banker_pair", "natural", "player_natural", "banker_natural",
            "player_third_card", "banker_third_card", "banker_six_two_cards", "banker_six_three_cards",
        )  # fmt: skip
        rates = {name: c[name] / coups for name in names}
        rates["banker_six"] = (c["banker_six_two_cards"] + c["banker_six_three_cards"]) / coups
        return rates


COUNT_NAMES: dict[str, int] = {
    "banker": k.S_BANKER,
    "player": k.S_PLAYER,
    "tie": k.S_TIE,
    "player_pair": k.S_PLAYER_PAIR,
    "banker_pair": k.S_BANKER_PAIR,
    "natural": k.S_NATURAL,
    "player_natural": k.S_PLAYER_NATURAL,
    "banker_natural": k.S_BANKER_NATURAL,
    "player_third_card": k.S_PLAYER_THIRD,
    "banker_third_card": k.S_BANKER_THIRD,
    "banker_six_two_cards": k.S_BANKER_SIX_TWO,
    "banker_six_three_cards": k.S_BANKER_SIX_THREE,
    "demo_coups": k.S_DEMO,
    "shoes": k.S_SHOES,
    "cards": k.S_CARDS,
}


def _mean_sd(total: int, squares: int, n: int, unit: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    mean = Fraction(total, unit * n)
    variance = Fraction(squares, unit * unit * n) - mean * mean
    return float(mean), math.sqrt(max(float(variance), 0.0))


def _result(plan: _Plan, stats: IntArray, fstats: FloatArray, seconds: float, workers: int) -> BaccaratSimulation:
    errors = {int(x) for x in stats[:, k.S_ERROR]}
    if 2 in errors:
        raise BaccaratSimulationError(
            f"{k.EMPTY_SHOES} shoes of {plan.rules.preset} in a row ended before any coup with bets: the cut card "
            "comes out so early that the shoe-start burns and the demonstration coups end the shoe "
            f"(cut_card = {describe(plan.rules.cut_card)}, demo_coups = {plan.rules.demo_coups}; Art. 2.1-3.1)"
        )
    if 1 in errors:
        raise BaccaratSimulationError("a shoe ran out of cards before its last coup; check cut_card and burn")
    total = [int(x) for x in stats.sum(axis=0)]  # Python ints: exact, whatever the size
    coups = total[k.S_COUPS]
    unit = money_unit(plan.rules)
    bets: dict[Spot, BetResult] = {}
    live: dict[Spot, LiveEdge] = {}
    for index, spot in enumerate(SPOTS):
        if spot not in plan.rules.spots:
            continue
        ev, sd = _mean_sd(total[k.S_GAIN + index], total[k.S_GAIN2 + index], coups, unit)
        se = sd / math.sqrt(coups) if coups else 0.0
        bets[spot] = BetResult(exact(Fraction(total[k.S_GAIN + index], unit)), ev, se, sd)
        if plan.live is not None:
            analysed = total[k.S_LIVE_COUPS]
            positive = total[k.S_POS + index]
            gain, sd_pos = _mean_sd(total[k.S_POS_GAIN + index], total[k.S_POS_GAIN2 + index], positive, unit)
            ev_pos = math.fsum(float(x) for x in fstats[:, k.F_EV_POS + index])  # chunk order
            ev_all = math.fsum(float(x) for x in fstats[:, k.F_EV_ALL + index])
            live[spot] = LiveEdge(
                coups=analysed,
                positive=positive,
                mean_ev_positive=ev_pos / positive if positive else 0.0,
                gain_positive=gain,
                se_positive=sd_pos / math.sqrt(positive) if positive else 0.0,
                gain_per_coup=float(Fraction(total[k.S_POS_GAIN + index], unit * analysed)) if analysed else 0.0,
                mean_ev=ev_all / analysed if analysed else 0.0,
                max_ev=float(fstats[:, k.F_EV_MAX + index].max()),
            )
    return BaccaratSimulation(
        rules=plan.rules,
        coups=coups,
        shuffle=plan.shuffle,
        seed=plan.seed,
        chunk_coups=plan.chunk_coups,
        unit=unit,
        bets=bets,
        counts={name: total[index] for name, index in COUNT_NAMES.items()},
        live_view=plan.live,
        live=live if plan.live is not None else None,
        seconds=seconds,
        workers=workers,
    )


# --------------------------------------------------------------------------------------------------
# running


def cores() -> int:
    """The cores numba may use (its default thread count)."""
    return int(getattr(numba.config, "NUMBA_NUM_THREADS", None) or os.cpu_count() or 1)


def chunk_statistics(plan: _Plan, first_chunk: int, sizes: IntArray) -> tuple[IntArray, FloatArray]:
    """Chunks ``first_chunk`` … ``first_chunk + len(sizes) - 1`` of ``plan``'s run, ``sizes[i]`` coups
    each, played one after the other on this thread: their rows of integer and float statistics (as
    :func:`simulate_baccarat` fills them in). A pure function of the plan, the seed and the chunks:
    what a Dask task runs."""
    rp = rule_parameters(plan.rules, plan.shuffle, plan.live)
    nat, pdraw, bstood, bthird = tableau_arrays()
    words = seed_words(plan.seed)
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    fstats = np.zeros((sizes.shape[0], k.F_SIZE), dtype=np.float64)
    for i in range(sizes.shape[0]):  # as baccarat_kernels.run_chunks plays each chunk
        rng = generator.seed_state(words, first_chunk + i)
        rec_cards = np.zeros(1, dtype=np.int8)
        rec_dest = np.zeros(1, dtype=np.int8)
        rec_rows = np.zeros((1, k.W_SIZE), dtype=np.int64)
        rec_ev = np.zeros((1, k.SPOTS), dtype=np.float64)
        rst = np.zeros(k.RST_SIZE, dtype=np.int64)
        k.run_chunk(
            rp, nat, pdraw, bstood, bthird, int(sizes[i]), rng, stats[i], fstats[i], rec_cards, rec_dest, rec_rows,
            rec_ev, rst,
        )  # fmt: skip
    return stats, fstats


def simulate_baccarat(
    rules: Rules,
    coups: int,
    seed: int | str = 0,
    shuffle: Shuffle = "shoe",
    workers: int | None = None,
    progress: Progress | None = None,
    live_edges: bool = False,
    live_view: LiveView = "remaining",
    chunk_coups: int = DEFAULT_CHUNK,
    scheduler: str | Client | None = None,
) -> BaccaratSimulation:
    """Play ``coups`` coups with bets of ``rules`` (see the module docstring) and report them.

    ``workers`` threads (every core by default) play the chunks; ``progress(done, coups)`` is called
    as they finish. The result depends on ``seed``, ``chunk_coups`` and the options only.

    ``scheduler``: a Dask scheduler's address (``tcp://host:8786``) or a ``distributed.Client``: the
    chunks are played there instead, a task per group of chunks (:func:`chunk_statistics`), with the same
    result as a local run; ``workers`` is then the cluster's business and must be left out.
    """
    plan = _plan(rules, coups, seed, shuffle, live_edges, live_view, chunk_coups)
    sizes = plan.sizes(coups)
    if scheduler is not None:
        if workers is not None:
            raise BaccaratSimulationError(
                "workers: not used with a scheduler (the cluster's worker threads play the chunks)"
            )
        from croupier.sim.distributed import run_on_cluster

        rows, threads, seconds = run_on_cluster(
            scheduler, chunk_statistics, plan, sizes, coups, progress, BaccaratSimulationError
        )
        return _result(plan, rows[0], rows[1], seconds, threads)
    rp = rule_parameters(rules, plan.shuffle, plan.live)
    nat, pdraw, bstood, bthird = tableau_arrays()
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    fstats = np.zeros((sizes.shape[0], k.F_SIZE), dtype=np.float64)
    limit = cores()
    threads = limit if workers is None else workers
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise BaccaratSimulationError(f"workers: expected 1-{limit} (the cores numba may use), got {workers!r}")
    words = seed_words(seed)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    started = time.perf_counter()
    try:
        batch = threads * 2
        done = 0
        for start in range(0, sizes.shape[0], batch):
            end = min(start + batch, sizes.shape[0])
            k.run_chunks(
                rp, nat, pdraw, bstood, bthird, sizes[start:end], start, words, stats[start:end], fstats[start:end]
            )
            done += int(sizes[start:end].sum())
            if progress is not None:
                progress(done, coups)
    finally:
        numba.set_num_threads(before)
    return _result(plan, stats, fstats, time.perf_counter() - started, threads)


# --------------------------------------------------------------------------------------------------
# recording, for the twin test and for inspection


@dataclass(frozen=True)
class RecordedCoup:
    """One coup as the simulator played it.

    ``cards``: every card drawn for it, in order, as ``(card, destination)`` with the card's text
    (``"TD"``) and one of :data:`DESTINATIONS` (a shoe's first coup holds the shoe-start cards too);
    ``gains``: each offered spot's gain on a one-unit stake (empty for a demonstration coup);
    ``expected``: with live edges, each spot's expectation before the deal. ``chunk`` and ``shoe``
    number the shoe; ``cut_card`` is its cut-card position (``None``: no cut card).
    """

    chunk: int
    shoe: int
    coup: int
    demo: bool
    last_of_shoe: bool
    cut_card: int | None
    cards: tuple[tuple[str, str], ...]
    winner: tableau.Winner
    gains: dict[Spot, Decimal]
    expected: dict[Spot, float] | None


def _card_text(code: int) -> str:
    return "A23456789TJQK"[code % 13] + "SHDC"[code // 13]


def record_baccarat(
    rules: Rules,
    coups: int,
    seed: int | str = 0,
    shuffle: Shuffle = "shoe",
    live_edges: bool = False,
    live_view: LiveView = "remaining",
    chunk_coups: int = DEFAULT_CHUNK,
) -> tuple[list[RecordedCoup], BaccaratSimulation]:
    """Play as :func:`simulate_baccarat` does (one thread, the same chunks, the same compiled coup) and
    keep every coup: the cards drawn and where they went, the winner and each spot's gain."""
    plan = _plan(rules, coups, seed, shuffle, live_edges, live_view, chunk_coups)
    rp = rule_parameters(rules, plan.shuffle, plan.live, record=True)
    nat, pdraw, bstood, bthird = tableau_arrays()
    sizes = plan.sizes(coups)
    words = seed_words(seed)
    unit = money_unit(rules)
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    fstats = np.zeros((sizes.shape[0], k.F_SIZE), dtype=np.float64)
    recorded: list[RecordedCoup] = []
    started = time.perf_counter()
    for chunk, size in enumerate(sizes):
        count = int(size)
        # a row holds at most 6 cards, a burn and 12 shoe-start cards; room for shoes without a coup with bets
        rows_cap = (count + 1) * (rules.max_demo_coups + 1) * 2 + 64
        cards_cap = rows_cap * 19
        rec_cards = np.zeros(cards_cap, dtype=np.int8)
        rec_dest = np.zeros(cards_cap, dtype=np.int8)
        rec_rows = np.zeros((rows_cap, k.W_SIZE), dtype=np.int64)
        rec_ev = np.zeros((rows_cap, k.SPOTS), dtype=np.float64)
        rst = np.zeros(k.RST_SIZE, dtype=np.int64)
        rng = generator.seed_state(words, chunk)
        k.run_chunk(
            rp, nat, pdraw, bstood, bthird, count, rng, stats[chunk], fstats[chunk], rec_cards, rec_dest, rec_rows,
            rec_ev, rst,
        )  # fmt: skip
        if rst[k.RST_OVERFLOW]:
            raise BaccaratSimulationError("the record overflowed its arrays; record fewer coups")
        for w in range(int(rst[k.RST_ROWS])):
            row = rec_rows[w]
            demo = bool(row[k.W_DEMO])
            span = range(int(row[k.W_CARD_START]), int(row[k.W_CARD_END]))
            recorded.append(
                RecordedCoup(
                    chunk=chunk,
                    shoe=int(row[k.W_SHOE]),
                    coup=int(row[k.W_COUP]),
                    demo=demo,
                    last_of_shoe=bool(row[k.W_LAST]),
                    cut_card=None if row[k.W_CUT] < 0 else int(row[k.W_CUT]),
                    cards=tuple((_card_text(int(rec_cards[i])), DESTINATIONS[int(rec_dest[i])]) for i in span),
                    winner=WINNERS[int(row[k.W_WINNER])],
                    gains={}
                    if demo
                    else {
                        spot: exact(Fraction(int(row[k.W_GAIN + i]), unit))
                        for i, spot in enumerate(SPOTS)
                        if spot in rules.spots
                    },
                    expected=None
                    if plan.live is None or demo
                    else {spot: float(rec_ev[w, i]) for i, spot in enumerate(SPOTS) if spot in rules.spots},
                )
            )
    return recorded, _result(plan, stats, fstats, time.perf_counter() - started, 1)


# --------------------------------------------------------------------------------------------------
# the JSON document


def _float_text(value: float, places: int = 10) -> str:
    return f"{value:.{places}f}"


def result_document(result: BaccaratSimulation) -> dict[str, Any]:
    """The result as JSON-ready data: exact sums as decimal strings, statistics as rounded decimal strings."""
    document: dict[str, Any] = {
        "game": "baccarat",
        "rules": result.rules.preset,
        "parameters": result.rules.describe(),
        "coups": result.coups,
        "shuffle": result.shuffle,
        "seed": result.seed,
        "chunk_coups": result.chunk_coups,
        "generator": GENERATOR,
        "bets": {
            spot: {
                "net": format_amount(bet.net),
                "ev": _float_text(bet.ev),
                "house_edge": _float_text(bet.house_edge),
                "se": _float_text(bet.se),
                "sd": _float_text(bet.sd),
            }
            for spot, bet in result.bets.items()
        },
        "counts": dict(result.counts),
        "frequencies": {name: _float_text(value) for name, value in result.frequencies().items()},
        "seconds": round(result.seconds, 3),
        "coups_per_second": round(result.coups_per_second) if result.seconds > 0 else None,
        "workers": result.workers,
    }
    if result.live is not None:
        document["live_edges"] = {
            "view": result.live_view,
            "bets": {
                spot: {
                    "coups": edge.coups,
                    "positive": edge.positive,
                    "frequency": _float_text(edge.frequency),
                    "mean_ev_positive": _float_text(edge.mean_ev_positive),
                    "gain_positive": _float_text(edge.gain_positive),
                    "se_positive": _float_text(edge.se_positive),
                    "gain_per_coup": _float_text(edge.gain_per_coup),
                    "mean_ev": _float_text(edge.mean_ev),
                    "max_ev": _float_text(edge.max_ev),
                }
                for spot, edge in result.live.items()
            },
        }
    return document
