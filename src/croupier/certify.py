# mypy: disable-error-code="no-untyped-call"
"""``croupier certify``: the evidence a test lab asks for about the shuffle and its generator (docs/certify.md).

For each preset, ``shoes`` shoes are shuffled by the compiled twin of the game's shuffle
(:mod:`croupier.sim.shuffle`: the same Fisher–Yates over the same generator bytes, proved card for card by
tests/sim/test_shuffle.py) and tallied; then:

- **positions**: each card's distribution over the places of the shoe (χ², ``N - 1`` df per card), each
  place's distribution over the cards (per place), and the whole ``N × N`` table (its χ² times
  ``(N - 1) / N`` is χ² with ``(N - 1)²`` df: the covariance of a random permutation matrix is ``N / (N - 1)``
  times the doubly-centred projection);
- **adjacency**: how often card ``a`` is directly followed by card ``b``. Given that ``a`` is not last, its
  successor is uniform over the other ``N - 1`` cards, so each card's row of successors is χ² with ``N - 2``
  df on its own total; the whole table is their sum, ``N (N - 2)`` df (the rows are nearly independent: their
  covariance adds O(1/N) to the variance);
- **fixed points** (cards at their new-shoe place) per shoe against the exact distribution
  ``P(k) = C(N, k) D(N - k) / N!`` (``D``: derangements), tails pooled to an expectation of 5 or more;
- **ascending runs** per shoe against the exact distribution (Eulerian numbers), tails pooled likewise;
- the **bias bound of the integer scaling**, exact, for both generators (:func:`scaling_bounds`).

Every p-value is compared with ``alpha / m`` (Bonferroni over the ``m`` p-values of the whole report), so
a fair generator passes the whole report with probability at least ``1 - alpha``.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from croupier import __version__
from croupier.errors import CroupierError
from croupier.report import PRESET_GAMES, Report, Section, Table
from croupier.sim import shuffle as kernel

CLIENT_SEED = "croupier-seeded"
"""The client seed of :func:`croupier.rng.seeded`: shoe ``i`` of a seeded run is its stream with nonce ``i``."""
CHUNK_SHOES = 10_000
MIN_EXPECTED = 5.0
"""Histogram bins are pooled until each expects at least this many shoes (the χ² approximation's rule)."""


class CertifyError(CroupierError):
    """A certification run cannot be made as asked."""


# --------------------------------------------------------------------------------------------------
# p-values


def chi2_sf(statistic: float, df: int) -> float:
    """``P(χ²_df >= statistic)``: the regularised upper incomplete gamma ``Q(df / 2, statistic / 2)``."""
    if df < 1:
        raise ValueError(f"a χ² test needs at least 1 degree of freedom, got {df}")
    a, x = df / 2.0, statistic / 2.0
    if x <= 0.0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:  # the series of P(a, x); Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-17:
            n += 1.0
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # Q's continued fraction (modified Lentz)
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16 or i > 1_000_000:
            break
    return math.exp(log_front) * h


# --------------------------------------------------------------------------------------------------
# exact distributions


@cache
def fixed_point_probabilities(cards: int) -> tuple[Fraction, ...]:
    """``P(k fixed points)`` of a uniform permutation of ``cards``, ``k = 0 … cards``: ``C(N, k) D(N - k) / N!``."""
    derangements = [1, 0]
    for m in range(2, cards + 1):
        derangements.append((m - 1) * (derangements[-1] + derangements[-2]))
    total = math.factorial(cards)
    return tuple(Fraction(math.comb(cards, k) * derangements[cards - k], total) for k in range(cards + 1))


@cache
def run_probabilities(cards: int) -> tuple[Fraction, ...]:
    """``P(r ascending runs)`` of a uniform permutation of ``cards``, ``r = 0 … cards`` (``r = 0`` never):
    ``A(N, r - 1) / N!`` with ``A`` the Eulerian numbers (``r - 1`` descents)."""
    row = [1]  # A(1, 0)
    for n in range(2, cards + 1):
        row = [(d + 1) * (row[d] if d < len(row) else 0) + (n - d) * (row[d - 1] if d >= 1 else 0) for d in range(n)]
    total = math.factorial(cards)
    return (Fraction(0), *(Fraction(count, total) for count in row))


@dataclass(frozen=True)
class Pooled:
    """A histogram against its exact distribution, tails pooled: bins ``(label, observed, expected)``, χ², df."""

    bins: list[tuple[str, int, float]]
    statistic: float
    df: int


def pooled_chi2(observed: Sequence[int], probabilities: Sequence[Fraction], shoes: int) -> Pooled:
    """χ² of ``observed[k]`` against ``shoes * probabilities[k]``, the tails pooled until each bin expects
    at least :data:`MIN_EXPECTED`."""
    expected = [shoes * float(p) for p in probabilities]
    support = [k for k, p in enumerate(probabilities) if p > 0]
    low, high = support[0], support[-1]
    left, acc = low, 0.0
    while left < high and acc + expected[left] < MIN_EXPECTED:
        acc += expected[left]
        left += 1
    right, acc = high, 0.0
    while right > left and acc + expected[right] < MIN_EXPECTED:
        acc += expected[right]
        right -= 1
    edges = [(low, left), *((k, k) for k in range(left + 1, right)), (right, high)] if right > left else [(low, high)]
    bins = []
    for first, last in edges:
        label = str(first) if first == last else (f"≤ {last}" if first == low else f"≥ {first}")
        o = int(sum(observed[first : last + 1]))
        e = sum(expected[first : last + 1])
        bins.append((label, o, e))
    statistic = sum((o - e) ** 2 / e for _label, o, e in bins if e > 0)
    return Pooled(bins, statistic, len(bins) - 1)


# --------------------------------------------------------------------------------------------------
# the integer scaling


WORD = 1 << 32


def _bias(accepted: int, n: int) -> Fraction:
    """The worst ``|P(x) - 1/n|`` when a uniform value of ``[0, accepted)`` is mapped to ``x = value mod n``."""
    q, r = divmod(accepted, n)
    if r == 0:
        return Fraction(0)
    return max(Fraction(q + 1, accepted) - Fraction(1, n), Fraction(1, n) - Fraction(q, accepted))


def scaling_bounds(cards: int) -> dict[str, Any]:
    """The exact worst-case bias of each generator's integer scaling over every ``n`` a shoe of ``cards`` draws
    (``2 … cards``), computed from the values each method accepts; with the bias a plain modulo would have."""
    os_bias = hmac_bias = modulo_bias = Fraction(0)
    os_reject = hmac_reject = 0.0
    worst_modulo = 2
    for n in range(2, cards + 1):
        k = n.bit_length()  # the OS method: k bits, values >= n rejected, so [0, n) is accepted, each once
        os_bias = max(os_bias, _bias(n, n))
        os_reject = max(os_reject, 1 - n / (1 << k))
        limit = WORD - WORD % n  # the HMAC method: words >= limit rejected, then w mod n
        hmac_bias = max(hmac_bias, _bias(limit, n))
        hmac_reject = max(hmac_reject, (WORD - limit) / WORD)
        plain = _bias(WORD, n)
        if plain > modulo_bias:
            modulo_bias, worst_modulo = plain, n
    return {
        "cards": cards,
        "os": {
            "method": "k = bit_length(n) bits from ceil(k/8) bytes (big-endian, top k bits); values >= n rejected",
            "accepted": "[0, n): each value has exactly one of the 2^k equally likely bit patterns",
            "bias": str(os_bias),
            "worst_rejection": os_reject,
        },
        "hmac": {
            "method": "32-bit big-endian words; w >= 2^32 - (2^32 mod n) rejected, then w mod n",
            "accepted": "[0, L) with L = 2^32 - (2^32 mod n) a multiple of n: each value has exactly L/n words",
            "bias": str(hmac_bias),
            "worst_rejection": hmac_reject,
        },
        "plain_modulo": {"bias": float(modulo_bias), "relative": float(modulo_bias * worst_modulo), "n": worst_modulo},
    }


# --------------------------------------------------------------------------------------------------
# running the kernel


@dataclass
class Tallies:
    """What the kernel counts over a preset's shoes (see :func:`croupier.sim.shuffle.tally_orders`)."""

    positions: np.ndarray[Any, Any]
    adjacency: np.ndarray[Any, Any]
    fixed: np.ndarray[Any, Any]
    runs: np.ndarray[Any, Any]
    shoes: int = 0
    os_bytes: int = 0

    @classmethod
    def empty(cls, cards: int) -> Tallies:
        return cls(*kernel.new_tallies(cards))

    def add(self, other: Tallies) -> None:
        self.positions += other.positions
        self.adjacency += other.adjacency
        self.fixed += other.fixed
        self.runs += other.runs
        self.shoes += other.shoes
        self.os_bytes += other.os_bytes

    @property
    def cards(self) -> int:
        return int(self.positions.shape[0])


Entropy = Callable[[int], bytes]


def _os_chunk(cards: int, shoes: int, entropy: Entropy) -> Tallies:
    tallies = Tallies.empty(cards)
    per_shoe = kernel.bytes_per_shoe(cards)
    pending = b""
    fetched = 0
    left = shoes
    while left:
        fresh = entropy(int(per_shoe * left * 1.01) + 4 * cards)
        fetched += len(fresh)
        buf = np.frombuffer(pending + fresh, dtype=np.uint8)
        done, at = kernel.tally_bytes(
            buf, 0, cards, left, tallies.positions, tallies.adjacency, tallies.fixed, tallies.runs
        )
        left -= int(done)
        pending = buf[int(at) :].tobytes()
    tallies.shoes = shoes
    tallies.os_bytes = fetched - len(pending)
    return tallies


def _hmac_chunk(cards: int, first: int, shoes: int, key: tuple[Any, Any, Any]) -> Tallies:
    tallies = Tallies.empty(cards)
    kernel.tally_hmac(*key, first, shoes, cards, tallies.positions, tallies.adjacency, tallies.fixed, tallies.runs)
    tallies.shoes = shoes
    return tallies


def run_shoes(
    cards: int,
    shoes: int,
    seed: str | None = None,
    *,
    first_nonce: int = 0,
    workers: int | None = None,
    entropy: Entropy = os.urandom,
    progress: Callable[[int], None] | None = None,
) -> Tallies:
    """Shuffle and tally ``shoes`` shoes of ``cards`` cards: from ``entropy`` (``os.urandom``) read as the game's
    :class:`croupier.rng.SystemRandom` reads it, or, with ``seed``, from the documented seeded generator (the shoe
    of nonce ``i``: ``HmacStream(SHA-256(seed), "croupier-seeded", i)``, ``i`` from ``first_nonce``; nonce 0 is
    :func:`croupier.rng.seeded`'s stream)."""
    chunks = [(first, min(CHUNK_SHOES, shoes - first)) for first in range(0, shoes, CHUNK_SHOES)]
    total = Tallies.empty(cards)
    if seed is not None:
        key = kernel.hmac_key(hashlib.sha256(seed.encode()).digest(), CLIENT_SEED)

        def one(chunk: tuple[int, int]) -> Tallies:
            return _hmac_chunk(cards, first_nonce + chunk[0], chunk[1], key)

    else:

        def one(chunk: tuple[int, int]) -> Tallies:
            return _os_chunk(cards, chunk[1], entropy)

    with ThreadPoolExecutor(max_workers=max(1, workers or os.cpu_count() or 1)) as pool:
        for part in pool.map(one, chunks):
            total.add(part)
            if progress is not None:
                progress(part.shoes)
    return total


# --------------------------------------------------------------------------------------------------
# the tests


def _test(name: str, statistic: float, df: int, p: float, **extra: Any) -> dict[str, Any]:
    return {"test": name, "statistic": statistic, "df": df, "p": p, **extra}


def _family(name: str, statistics: np.ndarray[Any, Any], df: int) -> dict[str, Any]:
    """One χ² per card (or place): the smallest p-value stands for the family; every one is compared."""
    ps = [chi2_sf(float(x), df) for x in statistics]
    worst = int(np.argmin(ps))
    return _test(name, float(statistics[worst]), df, ps[worst], count=len(ps), which=worst, p_values=ps)


def analyse(tallies: Tallies) -> list[dict[str, Any]]:
    """The p-value tests of one preset's tallies (before the multiple-comparison threshold is applied)."""
    n, s = tallies.cards, tallies.shoes
    if s < 1:
        raise CertifyError("certify: no shoe was tallied")
    positions = tallies.positions.astype(np.float64)
    squares = positions**2
    by_card = n * squares.sum(axis=1) / s - s  # Σ (C - E)² / E with E = s / n, per row
    by_place = n * squares.sum(axis=0) / s - s
    whole = float(by_card.sum())
    tests = [
        _test("positions: every card at every place", whole, (n - 1) ** 2, chi2_sf(whole * (n - 1) / n, (n - 1) ** 2)),
        _family("positions: each card over the places", by_card, n - 1),
        _family("positions: each place over the cards", by_place, n - 1),
    ]
    adjacency = tallies.adjacency.astype(np.float64)
    totals = adjacency.sum(axis=1)
    rows = np.where(totals > 0, (n - 1) * (adjacency**2).sum(axis=1) / np.maximum(totals, 1) - totals, 0.0)
    adjacent = float(rows.sum())
    tests.append(
        _test("adjacency: every card followed by every other", adjacent, n * (n - 2), chi2_sf(adjacent, n * (n - 2)))
    )
    tests.append(_family("adjacency: each card's successors", rows, n - 2))
    for name, observed, probabilities in (
        ("fixed points per shoe", tallies.fixed, fixed_point_probabilities(n)),
        ("ascending runs per shoe", tallies.runs, run_probabilities(n)),
    ):
        pooled = pooled_chi2([int(v) for v in observed], probabilities, s)
        mean = float(np.dot(np.arange(len(observed)), observed)) / s
        exact_mean = float(sum(k * p for k, p in enumerate(probabilities)))
        p = chi2_sf(pooled.statistic, pooled.df) if pooled.df > 0 else 1.0
        tests.append(_test(name, pooled.statistic, pooled.df, p, bins=pooled.bins, mean=mean, exact_mean=exact_mean))
    return tests


def _extremes(tallies: Tallies) -> dict[str, float]:
    """The most and least frequent card–place and card–successor cells, as observed / expected."""
    n, s = tallies.cards, tallies.shoes
    cells = tallies.positions / (s / n)
    adjacency = tallies.adjacency.astype(np.float64)
    totals = adjacency.sum(axis=1, keepdims=True) / (n - 1)
    ratio = np.divide(adjacency, totals, out=np.ones_like(adjacency), where=totals > 0)
    np.fill_diagonal(ratio, np.nan)
    return {
        "position_low": float(cells.min()),
        "position_high": float(cells.max()),
        "adjacency_low": float(np.nanmin(ratio)),
        "adjacency_high": float(np.nanmax(ratio)),
    }


def preset_cards(preset: str) -> tuple[int, int]:
    """A preset's decks and cards."""
    game = PRESET_GAMES.get(preset)
    if game is None:
        raise CertifyError(f"certify: unknown preset {preset!r}; the presets are: {', '.join(PRESET_GAMES)}")
    if game == "blackjack":
        from croupier.blackjack.presets import blackjack_rules

        decks = blackjack_rules(preset).decks
    else:
        from croupier.baccarat.presets import baccarat_rules

        decks = baccarat_rules(preset).decks
    return decks, decks * 52


def generator_text(seed: str | None) -> str:
    if seed is None:
        return (
            "the OS CSPRNG: os.urandom, read exactly as the game's default source reads it "
            "(croupier.rng.SystemRandom → secrets.randbelow → CPython's SystemRandom._randbelow)"
        )
    return (
        f"the documented seeded generator, seed {seed!r}: each shoe is the HMAC-SHA256 stream "
        f"HmacStream(SHA-256({seed!r}), {CLIENT_SEED!r}, nonce), the presets taking consecutive nonces from 0 "
        f"(nonce 0 is croupier.rng.seeded({seed!r})); the provably fair shoes of the server use the same stream "
        "and the same integer scaling with a secret seed"
    )


def certify(
    presets: Sequence[str],
    shoes: int,
    seed: str | None = None,
    *,
    alpha: float = 0.01,
    workers: int | None = None,
    entropy: Entropy = os.urandom,
    progress: Callable[[str, int, int], None] | None = None,
    tally: Callable[[int, int], Tallies] | None = None,
) -> dict[str, Any]:
    """The certification document of ``presets`` (see the module docstring). ``tally(cards, shoes)`` replaces
    the kernel (tests inject a biased shuffle through it)."""
    if shoes < 1:
        raise CertifyError(f"certify: --shoes {shoes}: at least 1")
    if not 0 < alpha < 1:
        raise CertifyError(f"certify: --alpha {alpha}: a significance level between 0 and 1")
    if not presets:
        raise CertifyError("certify: no preset to certify")
    sized = [(preset, *preset_cards(preset)) for preset in dict.fromkeys(presets)]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    for index, (preset, decks, cards) in enumerate(sized):
        began = time.perf_counter()

        def advance(count: int, name: str = preset, done: list[int] = [0]) -> None:  # noqa: B006 (one per preset)
            done[0] += count
            if progress is not None:
                progress(name, done[0], shoes)

        if tally is not None:
            tallies = tally(cards, shoes)
        else:
            tallies = run_shoes(
                cards, shoes, seed, first_nonce=index * shoes, workers=workers, entropy=entropy, progress=advance
            )
        tests = analyse(tallies)
        results.append(
            {
                "preset": preset,
                "game": PRESET_GAMES[preset],
                "decks": decks,
                "cards": cards,
                "shoes": tallies.shoes,
                "os_bytes": tallies.os_bytes,
                "seconds": round(time.perf_counter() - began, 2),
                "extremes": _extremes(tallies),
                "tests": tests,
            }
        )
    count = sum(test.get("count", 1) for result in results for test in result["tests"])
    threshold = alpha / count
    for result in results:
        for test in result["tests"]:
            ps = test.pop("p_values", [test["p"]])
            test["failing"] = sum(1 for p in ps if p < threshold)
            test["pass"] = test["failing"] == 0
        result["pass"] = all(test["pass"] for test in result["tests"])
    return {
        "title": "Shuffle and generator certification",
        "croupier": __version__,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "generator": {"kind": "os" if seed is None else "seeded", "seed": seed, "text": generator_text(seed)},
        "shuffle": "Fisher–Yates (Durstenfeld) of the new shoe, as croupier.rng.fisher_yates, in the compiled twin "
        "croupier.sim.shuffle (tests/sim/test_shuffle.py proves it deals the game's orders for the same bytes)",
        "shoes": shoes,
        "alpha": alpha,
        "correction": "Bonferroni",
        "p_values": count,
        "threshold": threshold,
        "scaling": scaling_bounds(max(cards for _p, _d, cards in sized)),
        "presets": results,
        "seconds": round(time.perf_counter() - started, 2),
        "pass": all(result["pass"] for result in results),
    }


# --------------------------------------------------------------------------------------------------
# the report


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.2e}"


def certify_report(document: dict[str, Any]) -> Report:
    """The document as a par-sheet :class:`~croupier.report.Report` (markdown or HTML)."""
    verdict = "PASS" if document["pass"] else "FAIL"
    presets = document["presets"]
    summary = [
        f"Verdict: {verdict}"
        + (
            ": every test of every preset passes."
            if document["pass"]
            else ": " + ", ".join(f"{t['test']} ({r['preset']})" for r in presets for t in r["tests"] if not t["pass"])
        ),
        f"Generator tested: {document['generator']['text']}.",
        f"Shuffle: {document['shuffle']}.",
        f"{document['shoes']:,} shoes of each preset: "
        + ", ".join(f"{r['preset']} ({r['decks']} decks, {r['cards']} cards)" for r in presets)
        + ".",
        f"Significance α = {document['alpha']} for the whole report, Bonferroni-corrected over its "
        f"{document['p_values']:,} p-values: each passes at p ≥ α / {document['p_values']:,} = "
        f"{document['threshold']:.3e}.",
        f"Run on {document['date']} in {document['seconds']:,} s (croupier {document['croupier']}).",
    ]
    sections = [_scaling_section(document["scaling"])]
    for result in presets:
        sections.append(_preset_section(result, document["threshold"]))
    sections.append(_method_section())
    return Report(document["title"], summary, sections)


def _scaling_section(scaling: dict[str, Any]) -> Section:
    section = Section("The integer scaling: bias bound")
    section.text(
        "A shuffle needs, for every n from 2 to the shoe's size, an integer uniform in [0, n) from random bits. Both "
        "generators of the game use rejection sampling: they map an accepted range whose size is a multiple of n onto "
        "[0, n), each value from the same number of equally likely inputs, so each has probability exactly 1/n. The "
        f"bias below is computed exactly (rational arithmetic) for every n from 2 to {scaling['cards']}, from the "
        "range each method accepts; a rejected input is replaced by fresh bits, which does not change the "
        "distribution of the accepted one."
    )
    rows = [
        [
            "OS CSPRNG (SystemRandom, secrets)",
            scaling["os"]["method"],
            scaling["os"]["accepted"],
            scaling["os"]["bias"],
            f"{scaling['os']['worst_rejection']:.4f}",
        ],
        [
            "HMAC-SHA256 stream (provably fair, seeded)",
            scaling["hmac"]["method"],
            scaling["hmac"]["accepted"],
            scaling["hmac"]["bias"],
            f"{scaling['hmac']['worst_rejection']:.3e}",
        ],
    ]
    section.table(
        Table(
            "Worst-case bias of the integer scaling, max over n and x of |P(x) − 1/n|",
            ["generator", "method", "accepted inputs", "worst bias (exact)", "worst rejection chance per try"],
            rows,
            note=(
                f"For comparison, a plain 32-bit modulo without rejection would have a worst bias of "
                f"{scaling['plain_modulo']['bias']:.3e} (at n = {scaling['plain_modulo']['n']}: the likeliest value "
                f"{scaling['plain_modulo']['relative']:.3e} more likely than 1/n, relatively)."
            ),
        )
    )
    return section


def _preset_section(result: dict[str, Any], threshold: float) -> Section:
    section = Section(f"{result['preset']} ({result['game']}): {result['decks']} decks, {result['cards']} cards")
    os_bytes = f", {result['os_bytes']:,} bytes of OS entropy" if result["os_bytes"] else ""
    section.text(
        f"{result['shoes']:,} shoes in {result['seconds']:,} s{os_bytes}. "
        f"Verdict: {'PASS' if result['pass'] else 'FAIL'}."
    )
    rows = []
    for test in result["tests"]:
        family = f" (smallest of {test['count']}, #{test['which']})" if "count" in test else ""
        failing = f"{test['failing']} below" if test["failing"] else "none below"
        rows.append(
            [
                test["test"] + family,
                f"{test['statistic']:,.1f}",
                f"{test['df']:,}",
                _p(test["p"]),
                failing,
                "pass" if test["pass"] else "FAIL",
            ]
        )
    section.table(
        Table(
            "χ² tests",
            ["test", "χ²", "df", "p-value", f"p < {threshold:.2e}", "result"],
            rows,
            numeric=frozenset({1, 2, 3}),
        )
    )
    extremes = result["extremes"]
    section.text(
        f"Observed / expected: card–place cells from {extremes['position_low']:.3f} to "
        f"{extremes['position_high']:.3f}; card–successor cells from {extremes['adjacency_low']:.3f} to "
        f"{extremes['adjacency_high']:.3f}. "
        + " ".join(
            f"Mean {t['test']}: {t['mean']:.4f} (exact {t['exact_mean']:.4f})." for t in result["tests"] if "mean" in t
        )
    )
    for test in result["tests"]:
        if "bins" in test and len(test["bins"]) <= 16:
            section.table(
                Table(
                    f"{test['test']}: mean {test['mean']:.4f} (exact {test['exact_mean']:.4f})",
                    ["count", "shoes", "expected"],
                    [[label, f"{o:,}", f"{e:,.1f}"] for label, o, e in test["bins"]],
                    numeric=frozenset({1, 2}),
                )
            )
    return section


def _method_section() -> Section:
    section = Section("Method")
    for line in (
        "A card is its place in the new shoe (its decks in new-deck order one after another), so the N cards of a "
        "shoe are told apart even where several decks hold the same rank and suit. The shuffle is the game's "
        "Fisher–Yates (Durstenfeld: for i from N − 1 down to 1, swap the cards at i and randbelow(i + 1)) in a "
        "compiled twin fed the same generator bytes; the twin's orders equal the game's card for card "
        "(tests/sim/test_shuffle.py).",
        "Positions: each card's count at each place against shoes / N. One χ² per card (N − 1 df) and one per place "
        "(N − 1 df); the whole N × N table's χ² times (N − 1) / N is χ² with (N − 1)² df (the covariance of a "
        "random permutation matrix is N / (N − 1) times the doubly centred projection).",
        "Adjacency: how often card a is directly followed by card b. Where a is not last, its successor is uniform "
        "over the other N − 1 cards, so each card's successor counts give a χ² with N − 2 df on their own total; "
        "the whole table is their sum, N (N − 2) df (the rows are nearly independent: their covariance adds "
        "O(1/N) to the variance).",
        "Fixed points: the cards dealt from their new-shoe place, per shoe, against the exact distribution "
        "P(k) = C(N, k) D(N − k) / N! (D: derangements). Ascending runs: a run ends where a card is lower than the "
        "one before it; the count per shoe against its exact distribution (Eulerian numbers: r runs have r − 1 "
        "descents). Both histograms pool their tails until each bin expects at least 5 shoes.",
        "Significance: every p-value of the report (each card's and each place's own among them) is compared with "
        "α / m, m the number of p-values (Bonferroni): a fair shuffle passes the whole report with probability at "
        "least 1 − α, whatever the dependence between the tests.",
    ):
        section.text(line)
    return section
