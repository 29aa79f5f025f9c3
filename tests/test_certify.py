"""``croupier certify``: the shuffle's statistical report, and that a biased shuffle fails it.

A fair run (2,000 shoes of every preset, seeded and from OS bytes) passes; the same report over a deliberately
biased shuffle (an off-by-one Fisher–Yates, a modulo without rejection, the naive swap with any card) fails,
so the report's tests can fail. The p-values, exact distributions and bias bounds are checked against closed
forms and brute force.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier import certify as certify_module
from croupier.certify import (
    Tallies,
    certify,
    certify_report,
    chi2_sf,
    fixed_point_probabilities,
    pooled_chi2,
    run_probabilities,
    scaling_bounds,
)
from croupier.cli import app
from croupier.report import render_markdown
from croupier.sim import shuffle as kernel

SHOES = 2_000


def shake(label: str) -> Callable[[int], bytes]:
    """A fixed stand-in for os.urandom: a SHAKE-256 stream, read in order."""
    reader = io.BytesIO(hashlib.shake_256(label.encode()).digest(4_000_000))

    def read(size: int) -> bytes:
        data = reader.read(size)
        assert len(data) == size, "the test's byte stream ran out"
        return data

    return read


# --------------------------------------------------------------------------------------------------
# the mathematics


def test_chi2_p_values_match_closed_forms() -> None:
    for x in (0.1, 1.0, 3.0, 10.0, 40.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
        assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-12)
    df = 172_225  # the whole position table of 416 cards: Wilson–Hilferty is very close at this size
    for z in (-2.0, 0.0, 3.0, 5.0):
        x = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
        assert chi2_sf(x, df) == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)), rel=2e-3)


def brute(n: int) -> tuple[Counter[int], Counter[int]]:
    fixed: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    for order in itertools.permutations(range(n)):
        fixed[sum(1 for p, c in enumerate(order) if p == c)] += 1
        runs[1 + sum(1 for a, b in itertools.pairwise(order) if b < a)] += 1
    return fixed, runs


@pytest.mark.parametrize("n", [1, 2, 5, 7])
def test_exact_distributions_match_every_permutation(n: int) -> None:
    fixed, runs = brute(n)
    total = math.factorial(n)
    assert fixed_point_probabilities(n) == tuple(Fraction(fixed[k], total) for k in range(n + 1))
    assert run_probabilities(n) == tuple(Fraction(runs[r], total) for r in range(n + 1))
    assert sum(run_probabilities(416)) == 1 == sum(fixed_point_probabilities(416))


def test_pooled_chi2_pools_thin_tails() -> None:
    probabilities = fixed_point_probabilities(52)
    observed = [round(1_000 * float(p)) for p in probabilities]
    pooled = pooled_chi2(observed, probabilities, 1_000)
    assert all(e >= 5 for _label, _o, e in pooled.bins)
    assert pooled.bins[-1][0].startswith("≥") and sum(o for _l, o, _e in pooled.bins) == sum(observed)
    assert pooled.df == len(pooled.bins) - 1 and pooled.statistic < 1


def test_scaling_bias_is_exactly_zero_and_modulo_would_not_be() -> None:
    bounds = scaling_bounds(416)
    assert bounds["os"]["bias"] == "0" and bounds["hmac"]["bias"] == "0"
    assert bounds["plain_modulo"]["bias"] > 0
    for accepted, n in ((10, 3), (9, 3), (2**16, 416), (256, 200), (256 - 256 % 200, 200), (2**16, 256)):
        counts = Counter(v % n for v in range(accepted))  # the bias by enumerating every accepted input
        worst = max(abs(Fraction(counts[x], accepted) - Fraction(1, n)) for x in range(n))
        assert certify_module._bias(accepted, n) == worst
    # a power of two n = 2^j draws j + 1 bits (CPython's bit_length), so half its tries are rejected
    assert bounds["os"]["worst_rejection"] == 0.5


# --------------------------------------------------------------------------------------------------
# fair runs pass


def test_a_small_seeded_run_of_every_preset_passes() -> None:
    document = certify(["macau-1983", "live-online", "macau"], SHOES, "certify-test", workers=1)
    assert document["pass"], [(r["preset"], t["test"], t["p"]) for r in document["presets"] for t in r["tests"]]
    assert [r["cards"] for r in document["presets"]] == [312, 416, 416]
    assert document["p_values"] == sum(3 * r["cards"] + 4 for r in document["presets"])
    live, macau = document["presets"][1:]
    assert live["tests"][0]["statistic"] != macau["tests"][0]["statistic"]  # each preset its own shoes
    page = render_markdown(certify_report(document))
    assert "Verdict: PASS" in page and "HmacStream(SHA-256('certify-test')" in page


def test_a_small_run_from_os_bytes_passes_and_counts_the_bytes() -> None:
    document = certify(["live-online"], SHOES, None, workers=1, entropy=shake("os"))
    result = document["presets"][0]
    assert document["pass"] and document["generator"]["kind"] == "os"
    assert 0.95 < result["os_bytes"] / (SHOES * kernel.bytes_per_shoe(416)) < 1.05
    assert "os.urandom" in render_markdown(certify_report(document))


# --------------------------------------------------------------------------------------------------
# biased shuffles fail


def biased(kind: str) -> Callable[[int, int], Tallies]:
    """A tally over ``shoes`` orders from a shuffle of ``kind`` (numpy's generator stands for the bits)."""

    def tally(cards: int, shoes: int) -> Tallies:
        rng = np.random.default_rng(13)
        orders = np.tile(np.arange(cards, dtype=np.int64), (shoes, 1))
        rows = np.arange(shoes)
        for i in range(cards - 1, 0, -1):
            if kind == "fair":
                j = rng.integers(0, i + 1, size=shoes)
            elif kind == "off-by-one":  # randbelow(i): Sattolo's cycles, never a fixed point
                j = rng.integers(0, i, size=shoes)
            elif kind == "modulo":  # the OS bytes without rejection: bytes mod n
                size = ((i + 1).bit_length() + 7) // 8
                j = rng.integers(0, 256**size, size=shoes) % (i + 1)
            else:  # naive: swap with any card of the shoe
                j = rng.integers(0, cards, size=shoes)
            held = orders[rows, i].copy()
            orders[rows, i] = orders[rows, j]
            orders[rows, j] = held
        tallies = Tallies.empty(cards)
        kernel.tally_orders(orders, tallies.positions, tallies.adjacency, tallies.fixed, tallies.runs)
        tallies.shoes = shoes
        return tallies

    return tally


@pytest.mark.parametrize(
    ("kind", "caught_by"),
    [
        ("off-by-one", "fixed points per shoe"),
        ("modulo", "positions: every card at every place"),
        ("naive", "positions: every card at every place"),
    ],
)
def test_a_biased_shuffle_fails_the_report(kind: str, caught_by: str) -> None:
    document = certify(["live-online"], SHOES, "x", tally=biased(kind))
    failed = [t["test"] for t in document["presets"][0]["tests"] if not t["pass"]]
    assert not document["pass"] and caught_by in failed
    assert "Verdict: FAIL" in render_markdown(certify_report(document))


def test_the_biased_harness_with_a_fair_shuffle_passes() -> None:
    assert certify(["live-online"], SHOES, "x", tally=biased("fair"))["pass"]


# --------------------------------------------------------------------------------------------------
# the command


def test_certify_command_writes_markdown_json_and_html(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    # the OS-entropy runs read a seeded byte stream in place of os.urandom (the same code path): a fair shuffle
    # fails a test at alpha = 0.01 one run in a hundred, so fresh entropy would make this test fail at random
    real, stream = certify_module.run_shoes, random.Random(2026)

    def repeatable(cards: int, shoes: int, seed: str | None = None, **options: object) -> object:
        return real(cards, shoes, seed, **{**options, "entropy": stream.randbytes})  # type: ignore[arg-type]

    monkeypatch.setattr(certify_module, "run_shoes", repeatable)
    result = runner.invoke(app, ["certify", "--rules", "macau", "--shoes", "500", "--seed", "cli"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Shuffle and generator certification") and "Verdict: PASS" in result.stdout
    assert "`croupier certify --rules=macau --shoes=500 --seed=cli`" in result.stdout
    result = runner.invoke(app, ["certify", "--rules", "macau", "--shoes", "500", "--seed", "cli", "--json"])
    document = json.loads(result.stdout)
    assert document["pass"] and document["presets"][0]["shoes"] == 500 and document["generator"]["seed"] == "cli"
    for name in ("c.md", "c.json", "c.html"):
        options = ["--json"] if name.endswith(".json") else []
        args = ["certify", "--rules", "macau", "--shoes", "300", "--out", str(tmp_path / name), *options]
        assert runner.invoke(app, args).exit_code == 0
    assert (tmp_path / "c.md").read_text().startswith("# Shuffle")
    assert json.loads((tmp_path / "c.json").read_text())["generator"]["kind"] == "os"
    assert (tmp_path / "c.html").read_text().startswith("<!doctype html>")


def test_certify_command_refuses_bad_input_and_exits_1_on_a_failed_test(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    for args, message in (
        (["--rules", "vegas"], "unknown preset 'vegas'"),
        (["--shoes", "0"], "--shoes 0: at least 1"),
        (["--alpha", "2"], "--alpha 2.0"),
        (["--out", "/no/such/folder/c.md"], "does not exist"),
    ):
        result = runner.invoke(app, ["certify", *args])
        assert result.exit_code == 2 and message in result.output
    monkeypatch.setattr(certify_module, "run_shoes", lambda cards, shoes, *a, **k: biased("off-by-one")(cards, shoes))
    result = runner.invoke(app, ["certify", "--rules", "macau", "--shoes", "500"])
    assert result.exit_code == 1 and "Verdict: FAIL" in result.stdout
