"""The package stays readable: no module under src/croupier is over 700 lines.

Every module counts, the numba kernels and the server's migrations included (none needs an exception);
the server's function-length check is tests/server/test_code_size.py.
"""

from pathlib import Path

import croupier

MAX_MODULE_LINES = 700
PACKAGE = Path(croupier.__file__).parent


def long_modules(root: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """Each module under ``root`` over ``limit`` lines, as ``path: lines``."""
    return [
        f"{path.relative_to(root)}: {lines}"
        for path in sorted(root.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    ]


def test_no_module_of_the_package_is_over_700_lines() -> None:
    assert long_modules(PACKAGE) == []


def test_the_measure_finds_a_long_module_in_a_subpackage_and_spares_one_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (tmp_path / "at_limit.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    assert long_modules(tmp_path) == [f"{Path('game', 'long.py')}: {MAX_MODULE_LINES + 1}"]
