"""The engines, the analyses and the simulators do no I/O: no rich, no print, input or sleep, no file written.

The terminal (croupier.terminal), the CLI and the server do the I/O (the rendering included);
croupier.blackjack, croupier.baccarat, croupier.math and croupier.sim only compute and return data. Read
from the source (AST), every import and call counts, at module level or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"
PURE = ("blackjack", "baccarat", "math", "sim")
ALLOWED: dict[str, set[str]] = {}
"""Documented exceptions, by module path relative to src/croupier: none are needed."""

BANNED_MODULES = ("rich", "croupier.terminal", "croupier.files", "croupier.cli", "croupier.server")
BANNED_CALLS = {"print", "input", "sleep", "breakpoint"}
WRITE_METHODS = {"write_text", "write_bytes", "mkdir", "unlink", "touch"}


def _mode(call: ast.Call) -> str:
    if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
        return str(call.args[1].value)
    for keyword in call.keywords:
        if keyword.arg == "mode" and isinstance(keyword.value, ast.Constant):
            return str(keyword.value.value)
    return "r"


def io_found(source: str) -> list[str]:
    """What ``source`` does that a pure module must not, one line each (``"line 3: print(...)"``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if any(name == banned or name.startswith(banned + ".") for banned in BANNED_MODULES):
                found.append(f"line {node.lineno}: import {name}")
            if name in ("time.sleep", "builtins.print", "builtins.input"):
                found.append(f"line {node.lineno}: import {name}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called in BANNED_CALLS:
            found.append(f"line {node.lineno}: {called}(...)")
        elif called == "open" and set(_mode(node)) & set("wax+"):
            found.append(f"line {node.lineno}: open(..., {_mode(node)!r})")
        elif isinstance(func, ast.Attribute) and called in WRITE_METHODS:
            found.append(f"line {node.lineno}: .{called}(...)")
    return found


def _modules() -> list[Path]:
    return sorted(path for package in PURE for path in (SRC / package).rglob("*.py"))


def test_the_pure_packages_are_found() -> None:
    names = {str(path.relative_to(SRC)) for path in _modules()}
    assert {"blackjack/state.py", "baccarat/roads.py", "math/strategy.py", "math/blackjack.py"} <= names
    assert {"sim/blackjack.py", "sim/baccarat.py", "sim/charts.py", "sim/distributed.py"} <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(SRC)))
def test_an_engine_analysis_or_simulator_module_does_no_io(path: Path) -> None:
    relative = str(path.relative_to(SRC))
    found = [line for line in io_found(path.read_text()) if line not in ALLOWED.get(relative, set())]
    assert found == [], f"{relative} does I/O (move it to croupier.terminal or the CLI): {found}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from rich.console import Console\n", "line 1: import rich.console"),
        ("import rich\n", "line 1: import rich"),
        ("import time\n\ndef f():\n    time.sleep(1)\n", "line 4: sleep(...)"),
        ("from time import sleep\n", "line 1: import time.sleep"),
        ("def f():\n    print('x')\n", "line 2: print(...)"),
        ("answer = input('> ')\n", "line 1: input(...)"),
        ("with open('f', 'w') as f:\n    pass\n", "line 1: open(..., 'w')"),
        ("open('f', mode='ab')\n", "line 1: open(..., 'ab')"),
        ("from pathlib import Path\nPath('f').write_text('x')\n", "line 2: .write_text(...)"),
        ("def f():\n    from croupier.terminal import render\n", "line 2: import croupier.terminal"),
    ],
)
def test_the_check_sees_io(source: str, expected: str) -> None:
    assert expected in io_found(source)


def test_the_check_lets_computation_pass() -> None:
    source = "import math\nwith open('f') as f:\n    text = f.read()\nvalue = math.sqrt(2)\n'a'.replace('a', 'b')\n"
    assert io_found(source) == []


def _croupier_imports(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("croupier"):
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names if alias.name.startswith("croupier"))
    return modules


def test_the_blackjack_analysis_does_not_import_the_chart_built_on_it() -> None:
    """math.strategy builds on math.blackjack; the other way round would be a cycle."""
    imported = _croupier_imports(SRC / "math" / "blackjack.py")
    assert not any(name.startswith("croupier.math.strategy") for name in imported)
    assert "croupier.math.blackjack" in _croupier_imports(SRC / "math" / "strategy.py")
