"""The examples of the documentation run: README.md's and docs/api.md's Python blocks, and every ``>>>``
example in the package's docstrings (doctest)."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import croupier
from croupier.extras import missing_extra_message

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(croupier.__file__).resolve().parent
DOCUMENTS = ("README.md", "docs/api.md")
"""The documents whose every Python block runs (the other pages' blocks simulate billions of rounds or
need a cluster)."""

BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def python_blocks(document: str) -> list[str]:
    return BLOCK.findall((ROOT / document).read_text(encoding="utf-8"))


def test_the_blocks_are_found() -> None:
    """An example that stopped being found would stop being run: each document has its blocks."""
    assert python_blocks("README.md") and python_blocks("docs/api.md")
    assert len(python_blocks("docs/api.md")) >= 2
    assert all("croupier" in block for document in DOCUMENTS for block in python_blocks(document))


@pytest.mark.parametrize(
    ("document", "index"),
    [(document, index) for document in DOCUMENTS for index in range(len(python_blocks(document)))],
)
def test_python_block_runs(document: str, index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    code = compile(python_blocks(document)[index], f"{document} block {index + 1}", "exec")
    exec(code, {"__name__": f"example_{index}"})


def modules_with_examples() -> list[str]:
    """Every module of the package whose source holds a ``>>>`` example."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_docstring_examples_are_found() -> None:
    assert {
        "croupier",
        "croupier.blackjack",
        "croupier.extras",
        "croupier.money",
        "croupier.blackjack.autoplay",
    } <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        message = missing_extra_message(error, name)
        if message is None:
            raise
        pytest.skip(message)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name}: no example found by doctest"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (see the output)"
