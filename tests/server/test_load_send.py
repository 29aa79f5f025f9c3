"""The load benchmark's bots send a money-moving request again, with the same key, when its connection
failed before any answer came (a kept-alive connection closed by the server at that moment)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from benchmarks import load
from benchmarks.load import Answer, Bot, Figures, Line, leave, send, server_ms


async def _serve(failures: int, keys: list[str], connections: list[int]) -> asyncio.Server:
    """A server that closes the connection under each of the first ``failures`` requests, then answers."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode()
                fields = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if line)
                await reader.readexactly(int(fields["Content-Length"]))
                keys.append(fields["Idempotency-Key"])
                if len(keys) <= failures:
                    break
                body = b'{"ok":true}'
                writer.write(
                    b"HTTP/1.1 200 OK\r\nServer-Timing: app;dur=7\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
                )
        except asyncio.IncompleteReadError:
            pass
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def _run(failures: int, requests: int = 1, idle: float = 0.0) -> tuple[Answer, list[str], Figures, int]:
    keys: list[str] = []
    connections: list[int] = []

    async def go() -> tuple[Answer, Figures]:
        server = await _serve(failures, keys, connections)
        port = server.sockets[0].getsockname()[1]
        figures = Figures()
        bot = Bot("load-1", "token", 1, 1, random.Random(1), base=f"http://127.0.0.1:{port}")
        line = Line(bot.base)
        try:
            for _ in range(requests):
                await asyncio.sleep(idle)
                answer = await send(line, bot, "/api/tables/1/bets", {"spot": "1", "amount": "10"}, figures)
        finally:
            line.close()
            server.close()
        return answer, figures

    answer, figures = asyncio.run(go())
    return answer, keys, figures, len(connections)


def test_a_request_whose_connection_failed_is_sent_again_with_its_key() -> None:
    answer, keys, figures, _ = _run(failures=1)
    assert answer.status_code == 200 and answer.json() == {"ok": True} and server_ms(answer) == 7.0
    assert len(keys) == 2 and keys[0] == keys[1]
    assert figures.resent == ["bets: ConnectionError"] and figures.errors == []


def test_a_second_failure_is_an_error_of_the_run() -> None:
    answer, keys, figures, _ = _run(failures=2)
    assert figures.resent == ["bets: ConnectionError"]
    assert answer.status_code == 599 and "ConnectionError" in answer.text
    assert len(keys) == 2 and keys[0] == keys[1]


def test_a_bots_requests_share_its_kept_alive_connection() -> None:
    answer, keys, figures, connections = _run(failures=0, requests=3)
    assert answer.status_code == 200 and len(set(keys)) == 3 and connections == 1 and figures.resent == []


def test_a_connection_idle_past_its_time_is_not_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server closes a connection idle 5 s: a bot's is given up before that, not found closed under it."""
    monkeypatch.setattr(load, "KEEP_ALIVE_S", 0.05)
    answer, _keys, figures, connections = _run(failures=0, requests=2, idle=0.1)
    assert answer.status_code == 200 and connections == 2 and figures.resent == []


def test_a_runs_folder_is_removed_unless_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--keep`` nothing of a run is left behind (its SQLite database, the servers' logs)."""
    for keep in (False, True):
        folder = tmp_path / f"run-{keep}"
        folder.mkdir()
        (folder / "croupier.db").write_bytes(b"x")
        leave(folder, f"sqlite:///{folder / 'croupier.db'}", keep=keep)
        assert folder.exists() is keep
    assert f"kept in {tmp_path / 'run-True'}" in capsys.readouterr().out


def test_each_run_says_how_fast_and_how_loaded_the_machine_was(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load, "LOOP_STEPS", 1000)
    monkeypatch.setattr(load.os, "getloadavg", lambda: (1.5, 0.25, 2.0))
    said = load.machine_now()
    assert said.startswith("machine at the start: ") and said.endswith("; load 1.50, 0.25, 2.00")
    assert int(said.split(": ")[1].split(" ns")[0]) > 0


def test_each_run_says_which_releases_it_ran_on() -> None:
    from importlib import metadata

    said = load.stack_now()
    assert said.startswith("stack: Python 3.")
    assert f"sqlalchemy {metadata.version('sqlalchemy')}" in said and f"fastapi {metadata.version('fastapi')}" in said
    assert said.count(",") == len(load.STACK)


def test_a_bot_answers_each_event_of_a_batched_message() -> None:
    """The bots open their sockets as the browser does (``?batch=1``): a message of several events is
    taken event by event, so a ``betting_open`` inside one is bet on and an ``await`` that names the bot
    decided, as when each came alone."""
    keys: list[str] = []

    class Socket:
        def __init__(self, messages: list[str]) -> None:
            self.messages = messages

        def __aiter__(self) -> Socket:
            return self

        async def __anext__(self) -> str:
            if not self.messages:
                raise StopAsyncIteration
            return self.messages.pop(0)

    async def go() -> Bot:
        server = await _serve(0, keys, [])
        port = server.sockets[0].getsockname()[1]
        bot = Bot("load-1", "token", 1, 1, random.Random(1), base=f"http://127.0.0.1:{port}")
        line = Line(bot.base)
        opened = {
            "type": "event",
            "table": 1,
            "event": {"type": "betting_open", "closes_at": "2026-12-07T00:00:05+00:00"},
        }
        asked = {
            "type": "event",
            "table": 1,
            "event": {"type": "await", "kind": "decision", "player": "load-1"},
            "your_actions": [{"type": "stand", "box": 1, "hand": 0}],
        }
        batch = {"type": "events", "events": [{"type": "event", "table": 1, "event": {"type": "shuffle"}}, opened]}
        try:
            await load._read(bot, line, Figures(), Socket([load.json.dumps(batch), load.json.dumps(asked)]))
        finally:
            line.close()
            server.close()
        return bot

    bot = asyncio.run(go())
    assert (bot.bets, bot.decisions) == (1, 1)
    assert len(keys) == 2
