"""Lazy public names for a package's ``__init__``: a name is imported from its module on first use.

So ``import croupier`` and ``import croupier.blackjack`` cost almost nothing, and importing any
submodule (which runs its package's ``__init__`` first) pulls in nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``, whose public ``names`` each map to
    ``"module:attribute"`` (or just ``"module"`` when the attribute has the same name)."""
    namespace = importlib.import_module(package).__dict__

    def getattr_(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = target.partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        namespace[name] = value  # found once; later uses are plain attribute lookups
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *names})

    return getattr_, dir_
