"""The typed action API is the one way to act: no module outside the parse functions dispatches on an
action's name, and the RL layout's codes are the kernels' own."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from croupier import codes
from croupier.baccarat import moves as baccarat_moves
from croupier.blackjack import moves
from croupier.rl import encoding

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"
NAMES = frozenset(moves.KINDS) | frozenset(baccarat_moves.KINDS)
"""Every action kind of both engines."""
OWN_MODULES = ("server/",)
"""Not checked here: the server is changed on its own."""


def strings(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            yield from strings(element)


def names_a_kind(node: ast.expr) -> bool:
    """``x.kind``, ``kind``, ``x["type"]``: what holds an action's name."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Name):
        return node.id in ("kind", "type_")
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "type"
    return False


def string_dispatch() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(OWN_MODULES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            operands = [node.left, *node.comparators]
            held = {text for operand in operands for text in strings(operand)} & NAMES
            if held and any(names_a_kind(operand) for operand in operands):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_compares_an_action_name_outside_the_parse_functions() -> None:
    assert string_dispatch() == []


def test_no_rl_module_imports_another_modules_private_names() -> None:
    private = []
    for path in sorted((SRC / "rl").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("croupier"):
                private += [f"{path.name}: {alias.name}" for alias in node.names if alias.name.startswith("_")]
    assert private == []


def test_the_rl_play_indices_are_the_kernels_option_codes() -> None:
    assert (encoding.STAND, encoding.HIT, encoding.DOUBLE, encoding.SPLIT, encoding.SURRENDER) == (
        codes.STAND,
        codes.HIT,
        codes.DOUBLE,
        codes.SPLIT,
        codes.SURRENDER,
    )
    for name, code in codes.OPTION_CODES.items():
        assert encoding.ACTION_NAMES[code] == name
    assert {cls.kind: index for cls, index in encoding.PLAY_INDEX.items()} == codes.OPTION_CODES
    assert encoding.INSURANCE == codes.OPTIONS and len(encoding.ACTION_NAMES) == encoding.FIRST_BET
    assert encoding.ACTION_NAMES[encoding.INSURANCE : encoding.NO_INSURANCE] == ("insurance", "even_money")


def test_each_engines_kinds_name_its_types() -> None:
    for engine in (moves, baccarat_moves):
        assert tuple(cls.kind for cls in engine.TYPES) == engine.KINDS
        for cls in engine.TYPES:
            assert engine.type_of(cls.kind) is cls


NAMED_CALL = re.compile(
    r"\.(?:(?:verify_|can_)?(?:hit|stand|double|split|surrender|insurance|even_money|close_insurance|place_bet|sit|"
    r"leave_seat)|insure|take_even_money)\("
)
"""A call of a round's or a table's named action method (``round_.stand(1)``, ``table.verify_place_bet(...)``)."""


def test_the_documentation_teaches_the_typed_actions() -> None:
    root = SRC.parents[1]
    for document in ("README.md", "docs/api.md"):
        text = (root / document).read_text(encoding="utf-8")
        blocks = "\n".join(re.findall(r"^```python\n(.*?)^```$", text, re.DOTALL | re.MULTILINE))
        assert NAMED_CALL.findall(blocks) == [], document
        assert ".apply(" in blocks and "older named methods" not in text, document
        assert "`verify_x()`" not in text, document
