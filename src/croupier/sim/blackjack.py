"""The blackjack simulator: millions of rounds a second, played exactly as the engine plays them.

:func:`simulate_blackjack` plays ``rounds`` rounds of any rule set (:class:`~croupier.blackjack.rules.Rules`)
with a flat bet of one unit on each of boxes 1 to ``boxes``, one player per box, insurance and even
money never taken, decisions from a :class:`~croupier.sim.charts.Strategy` (the exact analysis's
strategy by default, or a chart file). Two ways to shuffle:

* ``shuffle="shoe"``: a real shoe of ``rules.decks`` decks, shuffled, its cut card placed by
  ``rules.cut_card`` (a range is drawn from), the burns at the shoe's start and each round's burns,
  rounds until the round in which the cut card comes out (Art. 2.2), one round per shuffle from the
  single-deck metal box. A round that finds the shoe empty is void (Art. 2.1) and dealt again from a
  new shoe; voided rounds are counted apart, not in the results.
* ``shuffle="continuous"``: a continuous shuffler: every round is dealt from a full, freshly shuffled
  shoe, as the engine deals the first round of a shoe under ``burn_at_shoe_start=0`` and
  ``cut_card=none`` (a machine neither burns at the shuffle nor uses a cut card; the round's own
  burns, ``burn_before_dealer_second``, still happen). Its expectation is that of the exact analysis.

Reproducible by seed. The run is cut into chunks of ``chunk_rounds`` rounds; chunk ``i`` draws from
its own xoshiro256** stream, seeded by SplitMix64 from the seed and ``i`` (see
:mod:`croupier.sim.kernels`), starts with a new shoe, and writes only its own results, which are
added up in chunk order as integers. The same seed and chunking give the same result on any number
of cores. A seed is an int or a string; its two 64-bit words are the first 16 bytes of
``SHA-256(str(seed))``, little-endian.

Money is exact: each box's result is an integer count of minor units (``unit`` of them to one unit of
bet, the least common multiple of 2 and the denominators of the rules' payout ratios), summed as
integers; only the reported mean, standard deviation and frequencies are floats.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numba
import numpy as np
import numpy.typing as npt

from croupier.blackjack.rules import Rules
from croupier.errors import CroupierError
from croupier.money import exact, format_amount
from croupier.sim import generator
from croupier.sim import kernels as k
from croupier.sim.charts import Strategy, strategy_from_analysis

if TYPE_CHECKING:
    from distributed import Client

Shuffle = Literal["shoe", "continuous"]
Progress = Callable[[int, int], None]
"""Called with (rounds done, rounds asked) as chunks finish."""
IntArray = npt.NDArray[np.int64]

DEFAULT_CHUNK = 1 << 18
"""Rounds per chunk unless told otherwise (262,144)."""
MAX_HISTOGRAM = 1 << 20
ACTION_NAMES = ("stand", "hit", "double", "split", "surrender")


class SimulationError(CroupierError):
    """A simulation that cannot run as asked; the message says why."""


# --------------------------------------------------------------------------------------------------
# inputs


def seed_words(seed: int | str) -> npt.NDArray[np.uint64]:
    """The generator's two seed words (:func:`croupier.sim.generator.seed_words`)."""
    return generator.seed_words(seed, SimulationError)


def money_unit(rules: Rules) -> int:
    """Minor units per unit of bet: every payment of ``rules`` on a one-unit bet is a whole number of them."""
    unit = 2  # a surrender's half
    for ratio in (rules.blackjack_pays, rules.bonus_678_suited, rules.bonus_777):
        if ratio is not None:
            unit = math.lcm(unit, ratio.fraction.denominator)
    return unit


def _largest_result(rules: Rules) -> Fraction:
    """A bound of one box's result in a round, won or lost: every hand doubled, or paid the best ratio."""
    ratios = [Fraction(2)]
    for ratio in (rules.blackjack_pays, rules.bonus_678_suited, rules.bonus_777):
        if ratio is not None:
            ratios.append(ratio.fraction)
    return max(ratios) * rules.max_split_hands


def rule_parameters(rules: Rules, boxes: int, shuffle: Shuffle, record: bool = False) -> IntArray:
    """The kernel's rule array (:mod:`croupier.sim.kernels` ``R_*``) for ``rules``."""
    unit = money_unit(rules)
    rp = np.zeros(k.R_SIZE, dtype=np.int64)
    rp[k.R_BOXES] = boxes
    rp[k.R_H17] = rules.dealer_hits_soft_17
    rp[k.R_HOLE] = {"none": 0, "peek": 1, "peek_ace": 2}[rules.hole_card]
    rp[k.R_TAKES_ALL] = rules.dealer_blackjack_takes == "all"
    rp[k.R_DAS] = rules.double_after_split
    rp[k.R_MAX_HANDS] = rules.max_split_hands
    rp[k.R_ACES_ONE] = rules.split_aces_one_card
    rp[k.R_RESPLIT_ACES] = rules.resplit_aces
    rp[k.R_SURRENDER] = {"none": 0, "early_not_ace": 1, "late": 2}[rules.surrender]
    rp[k.R_BJ] = int(rules.blackjack_pays.fraction * unit)
    rp[k.R_B678] = -1 if rules.bonus_678_suited is None else int(rules.bonus_678_suited.fraction * unit)
    rp[k.R_B777] = -1 if rules.bonus_777 is None else int(rules.bonus_777.fraction * unit)
    rp[k.R_DRAWS_MOOT] = rules.dealer_draws_when_moot
    continuous = shuffle == "continuous"
    rp[k.R_START_BURNS] = 0 if continuous else rules.shoe_start_burns
    rp[k.R_BURN_EACH] = rules.burn_each_round
    rp[k.R_BURN_SECOND] = rules.burn_before_dealer_second
    rp[k.R_METAL] = rules.metal_box
    cut = None if continuous else rules.cut_card
    if cut is None:
        rp[k.R_CUT_MODE] = 0
    elif isinstance(cut, int):
        rp[k.R_CUT_MODE] = 1
        rp[k.R_CUT_A] = cut
    else:
        rp[k.R_CUT_MODE] = 2
        rp[k.R_CUT_A], rp[k.R_CUT_B] = cut
    rp[k.R_UNIT] = unit
    rp[k.R_CONTINUOUS] = continuous
    rp[k.R_RECORD] = record
    rp[k.R_HIST_OFFSET] = int(_largest_result(rules) * unit)
    rp[k.R_SUITED] = rules.bonus_678_suited is not None and rules.bonus_678_suited.pays > 0
    return rp


@dataclass(frozen=True)
class _Plan:
    rules: Rules
    boxes: int
    shuffle: Shuffle
    strategy: Strategy
    chunk_rounds: int
    seed: int | str

    def arrays(self, record: bool) -> tuple[Any, ...]:
        s = self.strategy
        return (
            rule_parameters(self.rules, self.boxes, self.shuffle, record),
            s.first,
            s.split_hand,
            s.resplit,
            s.more,
            s.by_cards,
            s.links,
        )

    def sizes(self, rounds: int) -> IntArray:
        full, rest = divmod(rounds, self.chunk_rounds)
        sizes = [self.chunk_rounds] * full + ([rest] if rest else [])
        return np.array(sizes, dtype=np.int64)

    def histogram_size(self) -> int:
        size = 2 * int(_largest_result(self.rules) * money_unit(self.rules)) + 1
        return size if size <= MAX_HISTOGRAM else 1


def _plan(
    rules: Rules,
    seed: int | str,
    boxes: int,
    shuffle: str,
    strategy: Strategy | None,
    chunk_rounds: int,
) -> _Plan:
    if not isinstance(rules, Rules):
        raise SimulationError(f"simulate_blackjack needs blackjack Rules, got {type(rules).__name__}")
    if isinstance(boxes, bool) or not isinstance(boxes, int) or not 1 <= boxes <= rules.boxes:
        raise SimulationError(f"boxes: {rules.preset} has boxes 1-{rules.boxes} (Art. 2.3); got {boxes!r}")
    if shuffle not in ("shoe", "continuous"):
        raise SimulationError(f"shuffle: expected 'shoe' or 'continuous', got {shuffle!r}")
    if isinstance(chunk_rounds, bool) or not isinstance(chunk_rounds, int) or chunk_rounds < 1:
        raise SimulationError(f"chunk_rounds: expected a positive whole number, got {chunk_rounds!r}")
    seed_words(seed)
    mode: Shuffle = "shoe" if shuffle == "shoe" else "continuous"
    return _Plan(rules, boxes, mode, strategy or strategy_from_analysis(rules), chunk_rounds, seed)


# --------------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation found. Money sums are exact; means, deviations and rates are floats.

    ``ev``: the mean result per round per unit of initial bet (every box's result over
    ``rounds × boxes``), ``se`` its standard error (rounds are the independent observations: the
    boxes of one round share the dealer's hand), ``sd`` the standard deviation of one box's result in a
    round, ``sd_round`` that of a round's result per unit bet. ``counts``: naturals (players'),
    dealer naturals, busts (players' hands), dealer busts, doubles, splits, surrenders, bonuses, hands,
    wins/pushes/losses (by hand), voided rounds, shoes, cards drawn. ``results``: how many times a
    box's result in a round was each amount (in units).
    """

    rules: Rules
    rounds: int
    boxes: int
    shuffle: Shuffle
    seed: int | str
    chunk_rounds: int
    strategy: str
    unit: int
    net: Decimal
    ev: float
    se: float
    sd: float
    sd_round: float
    counts: dict[str, int]
    results: dict[Decimal, int]
    seconds: float
    workers: int

    @property
    def house_edge(self) -> float:
        return -self.ev

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def rates(self) -> dict[str, float]:
        """Frequencies: per box and round, per hand, or per round, as each name says."""
        c = self.counts
        box_rounds = max(self.rounds * self.boxes, 1)
        hands = max(c["hands"], 1)
        rounds = max(self.rounds, 1)
        return {
            "naturals_per_box": c["naturals"] / box_rounds,
            "dealer_naturals_per_round": c["dealer_naturals"] / rounds,
            "busts_per_hand": c["busts"] / hands,
            "dealer_busts_per_round": c["dealer_busts"] / rounds,
            "doubles_per_box": c["doubles"] / box_rounds,
            "splits_per_box": c["splits"] / box_rounds,
            "surrenders_per_box": c["surrenders"] / box_rounds,
            "bonus_678_per_box": c["bonus_678"] / box_rounds,
            "bonus_777_per_box": c["bonus_777"] / box_rounds,
            "wins_per_hand": c["wins"] / hands,
            "pushes_per_hand": c["pushes"] / hands,
            "losses_per_hand": c["losses"] / hands,
            "hands_per_box": c["hands"] / box_rounds,
        }


COUNT_NAMES: dict[str, int] = {
    "hands": k.S_HANDS,
    "naturals": k.S_NATURALS,
    "dealer_naturals": k.S_DEALER_NATURALS,
    "busts": k.S_BUSTS,
    "dealer_busts": k.S_DEALER_BUSTS,
    "doubles": k.S_DOUBLES,
    "splits": k.S_SPLITS,
    "surrenders": k.S_SURRENDERS,
    "bonus_678": k.S_BONUS_678,
    "bonus_777": k.S_BONUS_777,
    "wins": k.S_WINS,
    "pushes": k.S_PUSHES,
    "losses": k.S_LOSSES,
    "voided_rounds": k.S_VOIDS,
    "shoes": k.S_SHOES,
    "cards": k.S_CARDS,
}


def _result(plan: _Plan, stats: IntArray, hist: IntArray, seconds: float, workers: int) -> SimulationResult:
    total = [int(x) for x in stats.sum(axis=0)]  # Python ints: exact, whatever the size
    rounds = total[k.S_ROUNDS]
    unit = money_unit(plan.rules)
    boxes = plan.boxes
    net = Fraction(total[k.S_NET], unit)
    per = max(rounds * boxes, 1)
    ev = float(Fraction(total[k.S_NET], unit * per))
    n = max(rounds, 1)
    mean_round = Fraction(total[k.S_NET], unit * boxes * n)
    var_round = Fraction(total[k.S_NET2], unit * unit * boxes * boxes * n) - mean_round * mean_round
    var_box = Fraction(total[k.S_BOX2], unit * unit * per) - Fraction(total[k.S_NET], unit * per) ** 2
    sd_round = math.sqrt(max(float(var_round), 0.0))
    results: dict[Decimal, int] = {}
    offset = int(_largest_result(plan.rules) * unit)
    counts_by_amount = hist.sum(axis=0)
    if counts_by_amount.shape[0] > 1:
        for index in np.nonzero(counts_by_amount)[0]:
            results[exact(Fraction(int(index) - offset, unit))] = int(counts_by_amount[index])
    return SimulationResult(
        rules=plan.rules,
        rounds=rounds,
        boxes=boxes,
        shuffle=plan.shuffle,
        seed=plan.seed,
        chunk_rounds=plan.chunk_rounds,
        strategy=plan.strategy.source,
        unit=unit,
        net=exact(net),
        ev=ev,
        se=sd_round / math.sqrt(n),
        sd=math.sqrt(max(float(var_box), 0.0)),
        sd_round=sd_round,
        counts={name: total[index] for name, index in COUNT_NAMES.items()},
        results=dict(sorted(results.items())),
        seconds=seconds,
        workers=workers,
    )


# --------------------------------------------------------------------------------------------------
# running


def simulate_blackjack(
    rules: Rules,
    rounds: int,
    seed: int | str = 0,
    boxes: int = 1,
    shuffle: Shuffle = "shoe",
    strategy: Strategy | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    chunk_rounds: int = DEFAULT_CHUNK,
    scheduler: str | Client | None = None,
) -> SimulationResult:
    """Play ``rounds`` settled rounds of ``rules`` (see the module docstring) and report them.

    ``workers`` threads (every core by default) play the chunks; ``progress(done, rounds)`` is called
    as they finish. The result depends on ``seed`` and ``chunk_rounds`` only.

    ``scheduler``: a Dask scheduler's address (``tcp://host:8786``) or a ``distributed.Client``: the
    chunks are played there instead, a task per group of chunks (:func:`chunk_statistics`), with the same
    result as a local run; ``workers`` is then the cluster's business and must be left out.
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SimulationError(f"rounds: expected a positive whole number, got {rounds!r}")
    plan = _plan(rules, seed, boxes, shuffle, strategy, chunk_rounds)
    sizes = plan.sizes(rounds)
    if scheduler is not None:
        if workers is not None:
            raise SimulationError("workers: not used with a scheduler (the cluster's worker threads play the chunks)")
        from croupier.sim.distributed import run_on_cluster

        rows, threads, seconds = run_on_cluster(
            scheduler, chunk_statistics, plan, sizes, rounds, progress, SimulationError
        )
        return _result(plan, rows[0], rows[1], seconds, threads)
    rp, first, split_hand, resplit, more, by_cards, links = plan.arrays(record=False)
    hist_size = plan.histogram_size()
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    hist = np.zeros((sizes.shape[0], hist_size), dtype=np.int64)
    limit = cores()
    threads = limit if workers is None else workers
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise SimulationError(f"workers: expected 1-{limit} (the cores numba may use), got {workers!r}")
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
                rp, first, split_hand, resplit, more, by_cards, links, rules.decks, sizes[start:end], start, words,
                stats[start:end], hist[start:end],
            )  # fmt: skip
            done += int(sizes[start:end].sum())
            if progress is not None:
                progress(done, rounds)
    finally:
        numba.set_num_threads(before)
    return _result(plan, stats, hist, time.perf_counter() - started, threads)


def cores() -> int:
    """The cores numba may use (its default thread count)."""
    return int(getattr(numba.config, "NUMBA_NUM_THREADS", None) or os.cpu_count() or 1)


def chunk_statistics(plan: _Plan, first_chunk: int, sizes: IntArray) -> tuple[IntArray, IntArray]:
    """Chunks ``first_chunk`` … ``first_chunk + len(sizes) - 1`` of ``plan``'s run, ``sizes[i]`` rounds
    each, played one after the other on this thread: their rows of integer statistics and of results
    (as :func:`simulate_blackjack` fills them in). A pure function of the plan, the seed and the chunks:
    what a Dask task runs."""
    rp, first, split_hand, resplit, more, by_cards, links = plan.arrays(record=False)
    words = seed_words(plan.seed)
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    hist = np.zeros((sizes.shape[0], plan.histogram_size()), dtype=np.int64)
    empty8 = np.zeros(1, dtype=np.int8)
    for i in range(sizes.shape[0]):  # as kernels.run_chunks plays each chunk
        rng = generator.seed_state(words, first_chunk + i)
        dest = np.zeros(1, dtype=np.int64)
        dec = np.zeros((1, 3), dtype=np.int64)
        rows = np.zeros((1, k.W_SIZE), dtype=np.int64)
        rst = np.zeros(k.RST_SIZE, dtype=np.int64)
        k.run_chunk(
            rp, first, split_hand, resplit, more, by_cards, links, plan.rules.decks, int(sizes[i]), rng, stats[i],
            hist[i], empty8, dest, dec, rows, rst,
        )  # fmt: skip
    return stats, hist


# --------------------------------------------------------------------------------------------------
# recording, for the twin test and for inspection


@dataclass(frozen=True)
class RecordedRound:
    """One round as the simulator played it.

    ``cards``: every card drawn, in order, as ``(card, destination)`` with the card's text (``"TD"``)
    and its destination ``burn``, ``dealer``, ``dealer down`` or ``(box, hand)``; ``decisions``:
    ``(box, hand, action)`` in the order made; ``nets``: each box's result in units (``None`` for a
    voided round). ``chunk`` and ``shoe`` number the shoe the round came from; ``cut_card`` is that
    shoe's cut-card position (``None``: no cut card).
    """

    chunk: int
    shoe: int
    first_of_shoe: bool
    last_of_shoe: bool
    voided: bool
    cut_card: int | None
    cards: tuple[tuple[str, object], ...]
    decisions: tuple[tuple[int, int, str], ...]
    nets: tuple[Decimal, ...] | None = field(default=None)


def _card_text(code: int) -> str:
    return "A23456789TJQK"[code % 13] + "SHDC"[code // 13]


def _destination(code: int) -> object:
    if code == k.DEST_BURN:
        return "burn"
    if code == k.DEST_DEALER_UP:
        return "dealer"
    if code == k.DEST_DEALER_DOWN:
        return "dealer down"
    box, hand = divmod(code - k.DEST_BOX, 4)
    return (box + 1, hand)


def record_blackjack(
    rules: Rules,
    rounds: int,
    seed: int | str = 0,
    boxes: int = 1,
    shuffle: Shuffle = "shoe",
    strategy: Strategy | None = None,
    chunk_rounds: int = DEFAULT_CHUNK,
) -> tuple[list[RecordedRound], SimulationResult]:
    """Play as :func:`simulate_blackjack` does (one thread, the same chunks, the same compiled round)
    and keep every round: the cards drawn, the decisions and each box's result."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SimulationError(f"rounds: expected a positive whole number, got {rounds!r}")
    plan = _plan(rules, seed, boxes, shuffle, strategy, chunk_rounds)
    rp, first, split_hand, resplit, more, by_cards, links = plan.arrays(record=True)
    sizes = plan.sizes(rounds)
    words = seed_words(seed)
    unit = money_unit(rules)
    stats = np.zeros((sizes.shape[0], k.S_SIZE), dtype=np.int64)
    hist = np.zeros((sizes.shape[0], plan.histogram_size()), dtype=np.int64)
    recorded: list[RecordedRound] = []
    started = time.perf_counter()
    for chunk, size in enumerate(sizes):
        count = int(size)
        capacity = 64 + count * (30 + 40 * boxes)
        cards = np.zeros(capacity, dtype=np.int8)
        dest = np.zeros(capacity, dtype=np.int64)
        decisions = np.zeros((capacity, 3), dtype=np.int64)
        rows = np.zeros((16 + 2 * count, k.W_SIZE), dtype=np.int64)
        rst = np.zeros(k.RST_SIZE, dtype=np.int64)
        rng = generator.seed_state(words, chunk)
        k.run_chunk(
            rp, first, split_hand, resplit, more, by_cards, links, rules.decks, count, rng, stats[chunk], hist[chunk],
            cards, dest, decisions, rows, rst,
        )  # fmt: skip
        if rst[k.RST_OVERFLOW]:
            raise SimulationError("the record overflowed its arrays; record fewer rounds")
        for w in range(int(rst[k.RST_ROUNDS])):
            row = rows[w]
            voided = bool(row[k.W_VOID])
            span = range(int(row[k.W_CARD_START]), int(row[k.W_CARD_END]))
            recorded.append(
                RecordedRound(
                    chunk=chunk,
                    shoe=int(row[k.W_SHOE]),
                    first_of_shoe=bool(row[k.W_FIRST]),
                    last_of_shoe=bool(row[k.W_LAST]),
                    voided=voided,
                    cut_card=None if row[k.W_CUT] < 0 else int(row[k.W_CUT]),
                    cards=tuple((_card_text(int(cards[i])), _destination(int(dest[i]))) for i in span),
                    decisions=tuple(
                        (int(decisions[i, 0]), int(decisions[i, 1]), ACTION_NAMES[int(decisions[i, 2])])
                        for i in range(int(row[k.W_DEC_START]), int(row[k.W_DEC_END]))
                    ),
                    nets=None if voided else tuple(exact(Fraction(int(row[k.W_NET + b]), unit)) for b in range(boxes)),
                )
            )
    return recorded, _result(plan, stats, hist, time.perf_counter() - started, 1)


# --------------------------------------------------------------------------------------------------
# the JSON document


def _float_text(value: float, places: int = 10) -> str:
    return f"{value:.{places}f}"


def result_document(result: SimulationResult) -> dict[str, Any]:
    """The result as JSON-ready data: exact sums and amounts as decimal strings, statistics rounded."""
    return {
        "game": "blackjack",
        "rules": result.rules.preset,
        "parameters": result.rules.describe(),
        "rounds": result.rounds,
        "boxes": result.boxes,
        "shuffle": result.shuffle,
        "seed": result.seed,
        "chunk_rounds": result.chunk_rounds,
        "strategy": result.strategy,
        "generator": "xoshiro256** per chunk, seeded by SplitMix64 from SHA-256(str(seed)) and the chunk number",
        "net": format_amount(result.net),
        "ev": _float_text(result.ev),
        "house_edge": _float_text(result.house_edge),
        "se": _float_text(result.se),
        "sd": _float_text(result.sd),
        "sd_round": _float_text(result.sd_round),
        "counts": dict(result.counts),
        "rates": {name: _float_text(value) for name, value in result.rates().items()},
        "results": {format_amount(amount): count for amount, count in result.results.items()},
        "seconds": round(result.seconds, 3),
        "rounds_per_second": round(result.rounds_per_second) if result.seconds > 0 else None,
        "workers": result.workers,
    }
