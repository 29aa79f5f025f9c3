"""The package stays readable: no module under src/croupier is over 700 lines, no function over 80 own lines.

Every module counts for the module limit, the numba kernels and the server's migrations included. The
function limit (measured by tests/code_size_support.py) counts the numba kernels too (their rounds, counts
and solvers are small named functions over documented state records: docs/simulate.md, docs/math.md) and
has one documented exception: the Alembic migrations, which write a schema out as one ``upgrade`` step by
design.

tests/server/test_code_size.py checks the server's functions on their own, for a run of the server's tests.
"""

from pathlib import Path

import croupier
from tests.code_size_support import MAX_FUNCTION_LINES, long_functions

MAX_MODULE_LINES = 700
PACKAGE = Path(croupier.__file__).parent


def long_modules(root: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """Each module under ``root`` over ``limit`` lines, as ``path: lines``."""
    return [
        f"{path.relative_to(root)}: {lines}"
        for path in sorted(root.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    ]


def function_checked(relative: Path) -> bool:
    """Whether the function limit applies to the module at ``relative`` (to the package)."""
    return "migrations" not in relative.parts


def long_package_functions(root: Path) -> list[str]:
    """Each function over the limit in the modules under ``root`` that the limit applies to."""
    return [
        line
        for path in sorted(root.rglob("*.py"))
        if function_checked(relative := path.relative_to(root))
        for line in long_functions(path.read_text(encoding="utf-8"), str(relative))
    ]


def test_no_module_of_the_package_is_over_700_lines() -> None:
    assert long_modules(PACKAGE) == []


def test_the_measure_finds_a_long_module_in_a_subpackage_and_spares_one_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (tmp_path / "at_limit.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    assert long_modules(tmp_path) == [f"{Path('game', 'long.py')}: {MAX_MODULE_LINES + 1}"]


def test_no_function_of_the_package_is_over_80_lines_outside_the_migrations() -> None:
    assert long_package_functions(PACKAGE) == []


def test_the_function_check_finds_a_long_function_anywhere_but_in_the_migrations(tmp_path: Path) -> None:
    long = "def f():\n" + "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES)) + "\n"
    for relative in ("report.py", "terminal/render.py", "sim/kernels.py", "server/migrations/versions/0001.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(long)
    assert long_package_functions(tmp_path) == [
        f"report.py:1 f: {MAX_FUNCTION_LINES + 1} lines",
        f"{Path('sim', 'kernels.py')}:1 f: {MAX_FUNCTION_LINES + 1} lines",
        f"{Path('terminal', 'render.py')}:1 f: {MAX_FUNCTION_LINES + 1} lines",
    ]
