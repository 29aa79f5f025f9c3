"""``croupier tables`` against a live ``croupier serve`` on a free loopback port: end to end, over HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-c", "from croupier.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    folder = tmp_path_factory.mktemp("cli")
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--database", f"sqlite:///{folder / 'croupier.db'}"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/api/tables", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the server did not start: {(folder / 'server.log').read_text()}")
            time.sleep(0.2)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def croupier(server: str, *args: str, user: str | None = "sam") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    if user is not None:
        env.update(CROUPIER_USER=user, CROUPIER_PASSWORD="demo")
    return subprocess.run(
        [*CLI, "tables", *args, "--server", server], capture_output=True, text=True, env=env, timeout=60
    )


def refused(result: subprocess.CompletedProcess[str], reason: str) -> None:
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert reason in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_supervisor_runs_tables_from_the_command_line(server: str) -> None:
    made = croupier(
        server,
        "create",
        "cli-bac",
        "--game",
        "baccarat",
        "--min",
        "20",
        "--max",
        "2000",
        "--chip",
        "10",
        "--set",
        "lucky_6=true",
        "--squeeze",
        "--squeeze-seconds",
        "12",
        "--live-edges",
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout == "table 5 cli-bac is open\n"
    listed = croupier(server, "list", user=None)
    assert listed.returncode == 0 and "cli-bac" in listed.stdout and "open (betting)" in listed.stdout
    shown = croupier(server, "show", "5", "--json")
    document: dict[str, Any] = json.loads(shown.stdout)
    assert document["overrides"] == {"lucky_6": "true", "squeeze": "true"} and document["squeeze_seconds"] == 12
    assert document["live_edges"] is True and [c["kind"] for c in document["changes"]] == ["create"]
    changed = croupier(server, "change", "5", "--max", "5000", "--set", "tie_pays=9:1")
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout == "change 2 to table 5 applies when the table starts its next shoe\n"
    shown = croupier(server, "show", "5", "--json")
    assert json.loads(shown.stdout)["pending"][0]["settings"] == {
        "max_bet": "5000.00",
        "overrides": {"lucky_6": "true", "squeeze": "true", "tie_pays": "9:1"},
    }
    closed = croupier(server, "close", "5")
    assert closed.returncode == 0 and closed.stdout in ("table 5 cli-bac is closing\n", "table 5 cli-bac is closed\n")
    for _ in range(100):
        if "closed" in croupier(server, "list", user=None).stdout.split("cli-bac")[1].splitlines()[0]:
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the table did not close")
    reopened = croupier(server, "reopen", "5")
    assert reopened.stdout == "table 5 cli-bac is open\n"


def test_refusals_are_one_line_and_status_2(server: str) -> None:
    refused(
        croupier(server, "create", "cheap", "--game", "baccarat", "--min", "0.10", "--max", "10", "--chip", "0.10"),
        "would be paid 0.095",
    )
    refused(croupier(server, "create", "x", "--game", "blackjack", "--min", "10", "--max", "100", user="ana"), "403")
    refused(croupier(server, "create", "x", "--game", "blackjack", "--min", "10", "--max", "100", user=None), "--user")
    refused(croupier(server, "change", "1", "--min", "5000"), "above max_bet")
    refused(croupier(server, "change", "1"), "name at least one setting")
    refused(croupier(server, "show", "99"), "table 99: no such table")
    refused(croupier(server, "change", "1", "--set", "decks"), "NAME=VALUE")
    port = _free_port()
    refused(croupier(f"http://127.0.0.1:{port}", "list"), "the server does not answer")


def test_no_server_flag_is_needed_for_help(tmp_path: Path) -> None:
    result = subprocess.run([*CLI, "tables", "create", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "--min" in result.stdout


def test_a_supervisor_disables_and_enables_an_account_from_the_command_line(server: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env.update(CROUPIER_USER="sam", CROUPIER_PASSWORD="demo")

    def accounts(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*CLI, "accounts", *args, "--server", server]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)

    def sign_in() -> int:
        request = urllib.request.Request(
            server + "/api/login",
            data=json.dumps({"name": "chen", "password": "demo"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    assert sign_in() == 200
    off = accounts("disable", "chen", "--reason", "asked to be excluded")
    assert off.returncode == 0 and "account chen is disabled; 1 token(s) revoked" in off.stdout, off
    assert sign_in() == 403
    on = accounts("enable", "chen")
    assert on.returncode == 0 and on.stdout == "account chen is enabled\n", on
    assert sign_in() == 200
    refused(accounts("disable", "nobody"), "404 account 'nobody': no such account")
