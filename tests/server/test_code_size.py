"""The server package stays readable: no function over 80 lines (no module of the whole package over 700
lines: tests/test_code_size.py).

A function's length is its own lines: a function defined inside it (a route of a router factory, a
closure) is measured on its own and not counted again in the function that holds it.
"""

import ast
from pathlib import Path

import croupier.server

MAX_FUNCTION_LINES = 80
PACKAGE = Path(croupier.server.__file__).parent

Function = ast.FunctionDef | ast.AsyncFunctionDef


def own_lines(function: Function) -> int:
    """The function's lines, less those of the functions defined in it."""
    return _span(function) - sum(_span(inner) for inner in _direct_children(function))


def _span(function: Function) -> int:
    return (function.end_lineno or function.lineno) - function.lineno + 1


def _direct_children(function: Function) -> list[Function]:
    """The functions defined in ``function`` but not inside another function of it."""
    found: list[Function] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Function):
                found.append(child)
            else:
                visit(child)

    visit(function)
    return found


def long_functions(source: str, where: str) -> list[str]:
    tree = ast.parse(source)
    return [
        f"{where}:{node.lineno} {node.name}: {own_lines(node)} lines"
        for node in ast.walk(tree)
        if isinstance(node, Function) and own_lines(node) > MAX_FUNCTION_LINES
    ]


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
