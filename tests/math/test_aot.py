"""The ahead-of-time build of the blackjack analysis (croupier.math.aot): used only when it matches the
sources, and then bit for bit the JIT kernels' results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from croupier.blackjack.presets import blackjack_rules
from croupier.math import aot, bj_kernels, bj_solve
from croupier.math import blackjack as analysis


def test_a_stale_or_missing_build_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No build, or a build stamped for other sources: the JIT kernels and computed tables are used."""
    monkeypatch.setattr(aot, "DIRECTORY", tmp_path)
    aot.compiled.cache_clear()
    try:
        assert aot.compiled() is None
        assert aot.kernels() == (bj_kernels.dealer_probs, bj_solve.solve_flat)
        (tmp_path / "stamp").write_text("another build")
        assert aot.compiled() is None
        aot.compiled.cache_clear()
        (tmp_path / "stamp").write_text(aot.digest())  # stamped, but the module itself is missing
        assert aot.compiled() is None
        extra = (1, 5, 5, 5, 5, 5, 5, 5, 5, 5)
        comp, table = aot.tables(extra, True, False)
        assert comp.extra == extra and table.max_size == int(table.size.max())
    finally:
        aot.compiled.cache_clear()


def test_the_digest_follows_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "math").mkdir()
    for name in aot.SOURCES:
        (tmp_path / "math" / name).write_text((aot.HERE / name).read_text())
    tmp_path = tmp_path / "math"
    monkeypatch.setattr(aot, "HERE", tmp_path)
    before = aot.digest()
    (tmp_path / "bj_solve.py").write_text((tmp_path / "bj_solve.py").read_text() + "\n# changed\n")
    assert aot.digest() != before


@pytest.mark.skipif(aot.compiled() is None, reason="no ahead-of-time build here: `croupier warm` (make) builds it")
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"dealer_blackjack_takes": "original", "double_on": "any_two", "double_after_split": True},
        {"hole_card": "peek", "resplit_aces": True, "split_aces_one_card": False, "max_split_hands": 3},
    ],
)
def test_the_build_equals_the_jit_kernels(changes: dict[str, object]) -> None:
    """Every option's value and second moment, to the last bit, from 1 deck, 6 decks and an infinite shoe."""
    rules = blackjack_rules("macau-1983", changes)
    for shoe, infinite in (
        (np.array([4.0] * 9 + [16.0]), False),
        (np.array([24.0] * 9 + [96.0]), False),
        (np.array([1 / 13] * 9 + [4 / 13]), True),
    ):
        built = analysis._solve(rules, shoe, infinite)
        aot_kernels = aot.kernels
        try:
            aot.kernels = lambda: (bj_kernels.dealer_probs, bj_solve.solve_flat)  # type: ignore[assignment]
            jit = analysis._solve(rules, shoe, infinite)
        finally:
            aot.kernels = aot_kernels  # type: ignore[method-assign]
        for a, b in zip(built, jit, strict=True):
            assert np.array_equal(a, b, equal_nan=True)


def test_warm_without_a_compiler_says_so_and_succeeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``croupier warm`` (the install step) never fails the install: a build that cannot be made is one line."""
    from typer.testing import CliRunner

    import croupier.warm
    from croupier.cli import app

    def no_compiler() -> Path:
        raise OSError("no C compiler")

    monkeypatch.setattr(croupier.warm, "build", no_compiler)
    monkeypatch.setattr(croupier.warm, "warm_simulators", lambda: 12.4)
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0
    assert result.output == (
        "Not compiled ahead of time (OSError: no C compiler); numba's JIT is used\n"
        "Simulator kernels compiled into numba's cache in 12 s\n"
    )


def test_warm_with_an_unwritable_cache_says_so_and_succeeds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The simulators' cache that cannot be written is one line too: they compile on first use instead."""
    from typer.testing import CliRunner

    import croupier.warm
    from croupier.cli import app

    def unwritable() -> float:
        raise PermissionError("read-only cache")

    monkeypatch.setattr(croupier.warm, "build", lambda: tmp_path / "built.so")
    monkeypatch.setattr(croupier.warm, "warm_simulators", unwritable)
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0
    assert result.output == (
        f"Analysis kernels compiled ahead of time: {tmp_path / 'built.so'}\n"
        "Simulators not compiled (PermissionError: read-only cache); they compile on first use\n"
    )
