"""How long a function is, as the code-size tests measure it (tests/test_code_size.py, tests/server/test_code_size.py).

A function's length is its own lines: a function defined inside it (a route of a router factory, a
closure) is measured on its own and not counted again in the function that holds it.
"""

from __future__ import annotations

import ast

MAX_FUNCTION_LINES = 80

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


def long_functions(source: str, where: str, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Each function of ``source`` over ``limit`` own lines, as ``where:line name: n lines``."""
    tree = ast.parse(source)
    return [
        f"{where}:{node.lineno} {node.name}: {own_lines(node)} lines"
        for node in ast.walk(tree)
        if isinstance(node, Function) and own_lines(node) > limit
    ]
