"""The server's modules meet at public names: none reaches into another object's underscore names."""

import ast
from pathlib import Path

import croupier.server

PACKAGE = Path(croupier.server.__file__).parent


def private_reaches(source: str) -> list[tuple[int, str]]:
    """The ``x._name`` of ``source`` where ``x`` is not ``self`` or ``cls`` (dunder names aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        found.append((node.lineno, node.attr))
    return found


def test_no_server_module_calls_another_objects_private_names() -> None:
    found = {
        str(path.relative_to(PACKAGE)): reaches
        for path in sorted(PACKAGE.rglob("*.py"))
        if (reaches := private_reaches(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"give the collaborator a public method instead: {found}"


def test_the_check_sees_a_private_reach() -> None:
    source = "actor._publish(x)\nself._own()\nservice._lease_round()\ncls._make()\nx.__class__\n"
    assert private_reaches(source) == [(1, "_publish"), (3, "_lease_round")]
