"""The server package stays readable: no function over 80 own lines (tests/code_size_support.py measures
them; tests/test_code_size.py checks the whole package, and no module over 700 lines).

The server has no exception: its Alembic migrations are the only files left out, as everywhere.
"""

from pathlib import Path

import croupier.server
from tests.code_size_support import MAX_FUNCTION_LINES, long_functions

PACKAGE = Path(croupier.server.__file__).parent


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts)


def test_no_server_function_is_over_80_lines() -> None:
    long = [line for p in modules() for line in long_functions(p.read_text(), str(p.relative_to(PACKAGE)))]
    assert long == []


def test_the_measure_counts_a_long_function_and_not_its_nested_ones_twice() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(f"def f():\n{body}\n", "m") == [f"m:1 f: {MAX_FUNCTION_LINES + 1} lines"]
    inner = "\n".join(f"        x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    assert long_functions(f"def outer():\n    def inner():\n{inner}\n    return inner\n", "m") == []
