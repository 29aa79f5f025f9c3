"""``croupier serve`` makes the demo's accounts, whose passwords are published (a supervisor's among them),
only where nobody else can reach them: by default on a loopback address, elsewhere only when asked."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from croupier import cli
from croupier.server import app as server_app


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()  # an application started with ``settle_heap`` froze the test process's heap: given back


def an_app() -> Any:
    """What ``serve`` needs of an application it does not run: its service, to mark stopping."""
    return SimpleNamespace(state=SimpleNamespace(service=SimpleNamespace(stopping=False)))


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.1", True),
        ("::1", True),
        ("localhost", True),
        ("LocalHost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("croupier.example", False),
    ],
)
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert cli.is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("args", "demo", "warned"),
    [
        ([], True, False),
        (["--host", "0.0.0.0"], False, False),
        (["--host", "0.0.0.0", "--demo"], True, True),
        (["--no-demo"], False, False),
    ],
)
def test_the_demo_accounts_only_where_nobody_else_reaches_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, args: list[str], demo: bool, warned: bool
) -> None:
    made: list[Any] = []
    monkeypatch.setattr(server_app, "create_app", lambda settings: made.append(settings) or an_app())
    monkeypatch.setattr(uvicorn.Server, "run", lambda *_args, **_kwargs: None)
    outcome = CliRunner().invoke(cli.app, ["serve", "--database", f"sqlite:///{tmp_path}/c.db", *args])
    assert outcome.exit_code == 0, outcome.output
    assert made and made[0].demo is demo
    assert ("published password" in outcome.output) is warned


def test_serve_leaves_what_it_made_at_start_out_of_the_full_collections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A full collection walks every object the collector tracks, the event loop stopped meanwhile; what
    ``serve`` made by the end of its start (the modules, the application, its tables) is frozen out of it."""
    create, made = server_app.create_app, []
    monkeypatch.setattr(server_app, "create_app", lambda settings: made.append(settings) or an_app())
    monkeypatch.setattr(uvicorn.Server, "run", lambda *_args, **_kwargs: None)
    outcome = CliRunner().invoke(cli.app, ["serve", "--database", f"sqlite:///{tmp_path}/c.db"])
    assert outcome.exit_code == 0, outcome.output
    settings = made[0]
    assert settings.settle_heap
    with TestClient(create(settings)):
        assert gc.get_freeze_count() > 10_000
    gc.unfreeze()
    with TestClient(create(replace(settings, settle_heap=False))):
        assert gc.get_freeze_count() == 0
