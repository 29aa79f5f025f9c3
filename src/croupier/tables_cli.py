"""``croupier tables``: a supervisor runs the tables of a running server over HTTP (docs/protocol.md).

Every command talks to ``--server`` (default http://127.0.0.1:8000); those that change a table sign in
with ``--user`` and ``--password`` (or the environment's ``CROUPIER_USER`` and ``CROUPIER_PASSWORD``).
A refusal prints the server's reason on one line and exits with status 2; so does a server that does
not answer. The HTTP client is the standard library's: the command needs nothing the server does not.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer

GROUP_SETTINGS: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}
"""Every command group's: its help when given no command; no shell-completion options; no rich tracebacks
(a failure is one line: ``croupier.cli.main``); help and usage errors as click's plain text (typer's rich
help imports rich's Markdown and markdown-it on every ``--help``, most of its time). A group is run on
its own for its commands (``croupier.cli.GROUPS``), so each carries them."""

tables_app = typer.Typer(help="Open, change and close the tables of a running server (supervisor).", **GROUP_SETTINGS)

Server = Annotated[str, typer.Option("--server", help="The server's address.", envvar="CROUPIER_SERVER")]
User = Annotated[str | None, typer.Option("--user", help="A supervisor's name.", envvar="CROUPIER_USER")]
Password = Annotated[str | None, typer.Option("--password", help="The password.", envvar="CROUPIER_PASSWORD")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the server's answer as JSON.")]
DEFAULT_SERVER = "http://127.0.0.1:8000"


def _fail(message: str) -> NoReturn:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    raise typer.Exit(2)


class Client:
    """The server's REST API, signed in on first need."""

    def __init__(self, server: str, user: str | None = None, password: str | None = None) -> None:
        if not server.startswith(("http://", "https://")):
            _fail(f"--server {server!r}: give an http:// or https:// address")
        self.server = server.rstrip("/")
        self.user, self.password = user, password
        self.token: str | None = None

    def sign_in(self) -> None:
        if self.token is not None:
            return
        if not self.user or not self.password:
            _fail("sign in: give --user and --password (or set CROUPIER_USER and CROUPIER_PASSWORD)")
        answer = self.call("POST", "/api/login", {"name": self.user, "password": self.password}, signed=False)
        self.token = str(answer["token"])

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, *, signed: bool = True) -> Any:
        if signed:
            self.sign_in()
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if signed and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        import urllib.error  # here, not at start-up: every croupier command imports this module
        import urllib.request

        request = urllib.request.Request(self.server + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                reason = json.loads(error.read()).get("error")
            except (ValueError, AttributeError):
                reason = None
            _fail(f"{method} {path}: {error.code} {reason or error.reason}")
        except (urllib.error.URLError, OSError) as error:
            why = getattr(error, "reason", error)
            _fail(f"{self.server}: the server does not answer ({why}); is croupier serve running?")
        except ValueError:
            _fail(f"{method} {path}: the answer is not JSON; is {self.server} a croupier server?")


def _print(document: Any) -> None:
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def _settings_lines(document: dict[str, Any]) -> None:
    for key, value in document.items():
        if key == "pending":
            continue
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else value
        sys.stdout.write(f"{key:17} {'-' if shown is None else shown}\n")
    for change in document.get("pending") or []:
        sys.stdout.write(
            f"{'pending':17} change {change['change']}: {json.dumps(change['settings'])} (at the next shoe)\n"
        )


def _overrides(pairs: list[str] | None) -> dict[str, str]:
    result: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            _fail(f"--set {pair!r}: write NAME=VALUE, e.g. --set decks=6")
        result[name.strip()] = value.strip()
    return result


def _body(**options: Any) -> dict[str, Any]:
    return {k: v for k, v in options.items() if v is not None}


@tables_app.command("list")
def list_tables(server: Server = DEFAULT_SERVER, as_json: AsJson = False) -> None:
    """The lobby: every table, open or closed."""
    lobby = Client(server).call("GET", "/api/tables", signed=False)
    if as_json:
        _print(lobby)
        return
    sys.stdout.write(f"{'id':>4}  {'name':16} {'game':9} {'rules':11} {'limits':22} {'chip':>7}  {'mode':5} status\n")
    for t in lobby:
        limits = f"{t['min_bet']}-{t['max_bet']}"
        status = t.get("status", "open")
        phase = f" ({t['phase']})" if status == "open" else ""
        sys.stdout.write(
            f"{t['id']:>4}  {t['name']:16} {t['game']:9} {t['rules']:11} {limits:22} {t['chip']:>7}  {t['mode']:5} "
            f"{status}{phase}\n"
        )


@tables_app.command("show")
def show(
    table: Annotated[int, typer.Argument(help="The table's number.")],
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
    as_json: AsJson = False,
) -> None:
    """A table's settings, status and pending changes, and its change log."""
    client = Client(server, user, password)
    document = client.call("GET", f"/api/tables/{table}/settings")
    changes = client.call("GET", f"/api/tables/{table}/changes")
    if as_json:
        _print({**document, "changes": changes})
        return
    _settings_lines(document)
    for change in changes:
        when = change["applied_at"] or "pending"
        sys.stdout.write(
            f"{'change':17} {change['change']} {change['kind']} by {change['by']} at {change['requested_at']}"
            f" (applied: {when}) {json.dumps(change['settings'])}\n"
        )


@tables_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The table's name, unique.")],
    game: Annotated[str, typer.Option(help="blackjack or baccarat.")],
    min_bet: Annotated[str, typer.Option("--min", help="The table minimum.")],
    max_bet: Annotated[str, typer.Option("--max", help="The table maximum.")],
    chip: Annotated[str, typer.Option(help="Every bet is a whole number of chips.")] = "1",
    preset: Annotated[str | None, typer.Option(help="macau-1983, live-online (blackjack); macau (baccarat).")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="A rule override: NAME=VALUE.")] = None,
    betting_seconds: Annotated[float, typer.Option(help="The betting window.")] = 15.0,
    decision_seconds: Annotated[float, typer.Option(help="The decision timer.")] = 20.0,
    squeeze_seconds: Annotated[float | None, typer.Option(help="Baccarat with squeeze: the squeeze time.")] = None,
    mode: Annotated[str, typer.Option(help="rng (the server's shoe) or live (a dealer's card reader).")] = "rng",
    dealer: Annotated[str | None, typer.Option(help="The dealer account of a live table.")] = None,
    squeeze: Annotated[bool | None, typer.Option("--squeeze/--no-squeeze", help="Baccarat's squeeze.")] = None,
    live_edges: Annotated[bool, typer.Option(help="Players see the exact live house edges (staff always do).")] = False,
    insurance_to_chip: Annotated[
        bool, typer.Option(help="Blackjack: insurance up to half the bet rounded up to the next chip (§2.5.1).")
    ] = False,
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
    as_json: AsJson = False,
) -> None:
    """Open a table; it runs at once."""
    body = _body(
        name=name,
        game=game,
        preset=preset,
        overrides=_overrides(set_),
        min_bet=min_bet,
        max_bet=max_bet,
        chip=chip,
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        squeeze_seconds=squeeze_seconds,
        mode=mode,
        dealer=dealer,
        squeeze=squeeze,
        live_edges=live_edges,
        insurance_to_chip=insurance_to_chip,
    )
    document = Client(server, user, password).call("POST", "/api/tables", body)
    if as_json:
        _print(document)
        return
    sys.stdout.write(f"table {document['id']} {document['name']} is open\n")


@tables_app.command("change")
def change(
    table: Annotated[int, typer.Argument(help="The table's number.")],
    min_bet: Annotated[str | None, typer.Option("--min", help="The table minimum.")] = None,
    max_bet: Annotated[str | None, typer.Option("--max", help="The table maximum.")] = None,
    chip: Annotated[str | None, typer.Option(help="The chip.")] = None,
    preset: Annotated[str | None, typer.Option(help="The preset.")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Add or change a rule override: NAME=VALUE.")] = None,
    unset: Annotated[list[str] | None, typer.Option("--unset", help="Drop a rule override: NAME.")] = None,
    betting_seconds: Annotated[float | None, typer.Option(help="The betting window.")] = None,
    decision_seconds: Annotated[float | None, typer.Option(help="The decision timer.")] = None,
    squeeze_seconds: Annotated[float | None, typer.Option(help="The squeeze time.")] = None,
    mode: Annotated[str | None, typer.Option(help="rng or live.")] = None,
    dealer: Annotated[str | None, typer.Option(help="The dealer account.")] = None,
    squeeze: Annotated[bool | None, typer.Option("--squeeze/--no-squeeze", help="Baccarat's squeeze.")] = None,
    live_edges: Annotated[bool | None, typer.Option("--live-edges/--no-live-edges", help="Live edges.")] = None,
    insurance_to_chip: Annotated[
        bool | None, typer.Option("--insurance-to-chip/--no-insurance-to-chip", help="Insurance to the next chip.")
    ] = None,
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
    as_json: AsJson = False,
) -> None:
    """Change a table: it applies when the table starts its next shoe (a closed table's at once)."""
    client = Client(server, user, password)
    overrides = None
    if set_ or unset:  # the overrides the table will have, with these set or dropped
        document = client.call("GET", f"/api/tables/{table}/settings")
        overrides = dict(document["overrides"])
        for pending in document.get("pending") or []:
            overrides = dict(pending["settings"].get("overrides", overrides))
        overrides.update(_overrides(set_))
        for name in unset or []:
            overrides.pop(name, None)
    body = _body(
        min_bet=min_bet,
        max_bet=max_bet,
        chip=chip,
        preset=preset,
        overrides=overrides,
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        squeeze_seconds=squeeze_seconds,
        mode=mode,
        dealer=dealer,
        squeeze=squeeze,
        live_edges=live_edges,
        insurance_to_chip=insurance_to_chip,
    )
    if not body:
        _fail("change: name at least one setting to change (see croupier tables change --help)")
    answer = client.call("PATCH", f"/api/tables/{table}", body)
    if as_json:
        _print(answer)
        return
    when = "now" if answer["applies"] == "now" else "when the table starts its next shoe"
    sys.stdout.write(f"change {answer['change']} to table {table} applies {when}\n")


@tables_app.command("close")
def close(
    table: Annotated[int, typer.Argument(help="The table's number.")],
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
) -> None:
    """Close a table: the round in play finishes, no new bets are taken, the table stops."""
    answer = Client(server, user, password).call("DELETE", f"/api/tables/{table}")
    sys.stdout.write(f"table {answer['id']} {answer['name']} is {answer['status']}\n")


@tables_app.command("reopen")
def reopen(
    table: Annotated[int, typer.Argument(help="The table's number.")],
    server: Server = DEFAULT_SERVER,
    user: User = None,
    password: Password = None,
) -> None:
    """Reopen a closed table."""
    answer = Client(server, user, password).call("POST", f"/api/tables/{table}/reopen")
    sys.stdout.write(f"table {answer['id']} {answer['name']} is {answer['status']}\n")
