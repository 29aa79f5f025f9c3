"""Which optional extra of the package provides a module, and the one-line message when it is missing.

``pip install croupier`` installs the engines, transcripts and replay, the exact analysis, the
simulators and the command line. The rest is in extras (``pyproject.toml``): ``server`` (the live
table server: ``croupier serve``, ``croupier verify``), ``sim`` (a simulation on a Dask cluster:
``--scheduler``), ``report`` (pictures: ``croupier report``, ``croupier strategy --out``) and ``rl``
(the Gymnasium and PettingZoo environments).

>>> extra_of("sqlalchemy.ext.asyncio")
'server'
>>> extra_of("json") is None
True
>>> missing_extra_message(ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib"))
"this needs the optional extra 'report' (matplotlib is not installed): pip install 'croupier[report]'"
"""

from __future__ import annotations

import importlib.util

EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "aiosqlite",
        "alembic",
        "argon2",
        "asyncpg",
        "fastapi",
        "prometheus_client",
        "redis",
        "sqlalchemy",
        "starlette",
        "uvicorn",
    ),
    "sim": ("dask", "distributed"),
    "report": ("matplotlib",),
    "rl": ("gymnasium", "pettingzoo"),
}
"""Each extra and the top-level modules it installs that croupier imports (pydantic is not among them:
the server uses it, but typer needs it too, so it comes with ``pip install croupier``)."""

_EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (a dotted name: its top-level package counts), or None."""
    return _EXTRA_OF.get(module.partition(".")[0])


def missing_extra_message(error: ModuleNotFoundError, what: str = "this") -> str | None:
    """The one-line message for ``error`` (``what`` needs the module) when an extra provides it, else None."""
    if error.name is None:
        return None
    extra = extra_of(error.name)
    if extra is None:
        return None
    top = error.name.partition(".")[0]
    return f"{what} needs the optional extra {extra!r} ({top} is not installed): pip install 'croupier[{extra}]'"


def require(extra: str) -> None:
    """Raise :class:`ModuleNotFoundError` for the first module of ``extra`` that is not installed.

    For a command to check before its long work what it needs only at the end (finding a module
    imports nothing)."""
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
