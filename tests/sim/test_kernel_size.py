"""The simulators' compiled kernels stay readable: no function of croupier.sim over 80 lines.

The measure is the server's (tests/server/test_code_size.py): a function's own lines, those of the
functions defined in it measured on their own.
"""

from pathlib import Path

import croupier.sim
from tests.server.test_code_size import MAX_FUNCTION_LINES, long_functions

PACKAGE = Path(croupier.sim.__file__).parent


def test_no_simulator_function_is_over_80_lines() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert {path.name for path in modules} >= {"kernels.py", "baccarat_kernels.py"}
    long = [line for path in modules for line in long_functions(path.read_text(encoding="utf-8"), path.name)]
    assert long == []


def test_the_measure_finds_a_long_kernel() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(f"@njit(cache=True)\ndef run_chunk():\n{body}\n", "k.py") == [
        f"k.py:2 run_chunk: {MAX_FUNCTION_LINES + 1} lines"
    ]
