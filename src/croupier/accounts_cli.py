"""``croupier accounts``: a supervisor disables and enables accounts of a running server, over its REST API
(docs/protocol.md, "Accounts"), signed in as ``croupier tables`` is (``--user``/``--password`` or
``CROUPIER_USER``/``CROUPIER_PASSWORD``)."""

from __future__ import annotations

import sys
from typing import Annotated
from urllib.parse import quote

import typer

from croupier.tables_cli import DEFAULT_SERVER, GROUP_SETTINGS, Client, Password, Server, User

accounts_app = typer.Typer(help="Disable and enable the accounts of a running server (supervisor).", **GROUP_SETTINGS)

Name = Annotated[str, typer.Argument(help="The account's name.")]


@accounts_app.command("disable")
def disable(
    name: Name,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept with the account).")] = "",
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
) -> None:
    """Disable an account: it is signed out everywhere at once and cannot sign in; its money stays."""
    path = f"/api/accounts/{quote(name, safe='')}/disable"
    answer = Client(server, user, password).call("POST", path, {"reason": reason})
    sys.stdout.write(f"account {answer['account']} is disabled; {answer['tokens_revoked']} token(s) revoked\n")


@accounts_app.command("enable")
def enable(name: Name, server: Server = DEFAULT_SERVER, user: User = None, password: Password = None) -> None:
    """Enable a disabled account: it may sign in again."""
    answer = Client(server, user, password).call("POST", f"/api/accounts/{quote(name, safe='')}/enable")
    sys.stdout.write(f"account {answer['account']} is enabled\n")
