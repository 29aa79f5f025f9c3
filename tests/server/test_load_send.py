"""The load benchmark's bots send a money-moving request again, with the same key, when its connection
failed before any answer came (a kept-alive connection closed by the server at that moment)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest
from benchmarks.load import Bot, Figures, leave, send


def _run(failures: int) -> tuple[httpx.Response, list[str], Figures]:
    keys: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        keys.append(request.headers["Idempotency-Key"])
        if len(keys) <= failures:
            raise httpx.ReadError("the server closed the connection", request=request)
        return httpx.Response(200, json={"ok": True})

    async def go() -> tuple[httpx.Response, Figures]:
        figures = Figures()
        bot = Bot("load-1", "token", 1, 1, random.Random(1), base="http://server")
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            return await send(client, bot, "/api/tables/1/bets", {"spot": "1", "amount": "10"}, figures), figures

    response, figures = asyncio.run(go())
    return response, keys, figures


def test_a_request_whose_connection_failed_is_sent_again_with_its_key() -> None:
    response, keys, figures = _run(failures=1)
    assert response.status_code == 200
    assert len(keys) == 2 and keys[0] == keys[1]
    assert figures.resent == ["bets: ReadError"] and figures.errors == []


def test_a_second_failure_is_an_error_of_the_run() -> None:
    response, keys, figures = _run(failures=2)
    assert figures.resent == ["bets: ReadError"]
    assert response.status_code == 599 and "ReadError" in response.text
    assert len(keys) == 2 and keys[0] == keys[1]


def test_a_runs_folder_is_removed_unless_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--keep`` nothing of a run is left behind (its SQLite database, the servers' logs)."""
    for keep in (False, True):
        folder = tmp_path / f"run-{keep}"
        folder.mkdir()
        (folder / "croupier.db").write_bytes(b"x")
        leave(folder, f"sqlite:///{folder / 'croupier.db'}", keep=keep)
        assert folder.exists() is keep
    assert f"kept in {tmp_path / 'run-True'}" in capsys.readouterr().out
