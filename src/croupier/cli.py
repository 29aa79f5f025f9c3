"""The ``croupier`` command line.

Every error a user can cause prints one line to stderr and exits with status 2 (docs/transcript.md,
"Errors"); nothing is printed to stdout then.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

import typer

from croupier.accounts_cli import accounts_app
from croupier.errors import CroupierError
from croupier.extras import missing_extra_message, require
from croupier.tables_cli import GROUP_SETTINGS, tables_app

app = typer.Typer(name="croupier", help="Casino table games run exactly as their rules are written.", **GROUP_SETTINGS)
play_app = typer.Typer(help="Sit at a table in the terminal.", **GROUP_SETTINGS)
app.add_typer(play_app, name="play")
analyze_app = typer.Typer(help="Exact game mathematics: the odds and house edge of every bet.", **GROUP_SETTINGS)
app.add_typer(analyze_app, name="analyze")
simulate_app = typer.Typer(help="Simulate millions of rounds, reproducibly by seed, on every core.", **GROUP_SETTINGS)
app.add_typer(simulate_app, name="simulate")
app.add_typer(tables_app, name="tables")
app.add_typer(accounts_app, name="accounts")
DECKS_HELP = "Analyse a shoe of N decks (1-10000) or 'inf' (default: the rules')."


@analyze_app.command("baccarat")
def analyze_baccarat(
    rules: Annotated[str, typer.Option(help="Preset: macau.")] = "macau",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    remaining: Annotated[
        str | None,
        typer.Option(
            metavar="COUNTS",
            help="Cards left of each rank A,2,...,9,T,J,Q,K: 13 comma-separated counts (default: a full shoe).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """Exact counts, probabilities and house edge of every baccarat bet for one coup from the shoe."""
    from croupier.math.baccarat import analysis_document, analyze_from_options
    from croupier.terminal.render import render_baccarat_analysis

    try:
        analysis = analyze_from_options(rules, set_ or [], remaining)
    except CroupierError as error:
        fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(analysis_document(analysis), indent=2) + "\n")
    else:
        render_baccarat_analysis(analysis)


@analyze_app.command("blackjack")
def analyze_blackjack(
    rules: Annotated[str, typer.Option(help="Preset: macau-1983 or live-online.")] = "macau-1983",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    decks: Annotated[
        str | None,
        typer.Option(metavar="N", help=DECKS_HELP),
    ] = None,
    remaining: Annotated[
        str | None,
        typer.Option(
            metavar="COUNTS",
            help="Cards left of each rank A,2,...,9,T,J,Q,K: 13 comma-separated counts (default: a full shoe).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """Exact EV, SD and composition-dependent strategy of one blackjack round from the shoe."""
    from croupier.math.blackjack import analysis_document, analyze_from_options
    from croupier.terminal.render import render_blackjack_analysis

    try:
        analysis = analyze_from_options(rules, set_ or [], decks, remaining)
    except CroupierError as error:
        fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(analysis_document(analysis), indent=2) + "\n")
    else:
        render_blackjack_analysis(analysis)


@app.command()
def warm() -> None:
    """Compile every kernel before its first use: the analysis ahead of time, the simulators into numba's cache
    (run by the install)."""
    from croupier.warm import build, warm_simulators

    try:
        path = build()
    except Exception as error:  # no C compiler, an unwritable folder: the JIT kernels still work
        sys.stdout.write(f"Not compiled ahead of time ({type(error).__name__}: {error}); numba's JIT is used\n")
    else:
        sys.stdout.write(f"Analysis kernels compiled ahead of time: {path}\n")
    try:
        seconds = warm_simulators()
    except Exception as error:  # an unwritable cache: the simulators compile on their first run instead
        sys.stdout.write(f"Simulators not compiled ({type(error).__name__}: {error}); they compile on first use\n")
        return
    sys.stdout.write(f"Simulator kernels compiled into numba's cache in {seconds:.0f} s\n")


@app.command()
def strategy(
    rules: Annotated[str, typer.Option(help="Preset: macau-1983 or live-online.")] = "macau-1983",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    decks: Annotated[str | None, typer.Option(metavar="N", help=DECKS_HELP)] = None,
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Also write the chart to FILE.png, FILE.svg or FILE.html.")
    ] = None,
) -> None:
    """The basic strategy chart of a blackjack rule set (hard, soft, pairs by up-card), from the exact analysis."""
    from croupier.math.blackjack import analyze_from_options
    from croupier.math.strategy import strategy_chart
    from croupier.terminal.chart_files import ChartError, check_target, write_chart
    from croupier.terminal.render import render_chart

    if out is not None and out.suffix.lower() in (".png", ".svg"):
        require("report")
    try:
        if out is not None:
            check_target(out)
        chart = strategy_chart(analyze_from_options(rules, set_ or [], decks))
        written = None if out is None else write_chart(chart, out)
    except (CroupierError, ChartError) as error:
        fail(str(error))
    render_chart(chart)
    if written is not None:
        sys.stdout.write(f"Chart written to {written}\n")


@app.command()
def report(
    rules: Annotated[str, typer.Option(help="Preset: macau-1983, live-online (blackjack) or macau (baccarat).")],
    out: Annotated[Path, typer.Option(metavar="FILE.html", help="Where to write the par sheet.")],
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    rounds: Annotated[
        int, typer.Option(help="Rounds (coups) of each simulation confirming the analysis; 0 for none.")
    ] = 4_000_000,
    live_coups: Annotated[int, typer.Option(help="Baccarat coups with the live edges counted; 0 for none.")] = 20_000,
    seed: Annotated[str, typer.Option(help="Seed of the simulations.")] = "par-sheet",
) -> None:
    """Write the par sheet of a rule set: rules, exact house edges, rule effects, strategy, simulation."""
    import shlex

    from croupier.report import (
        baccarat_report,
        blackjack_report,
        check_target,
        game_of,
        render_html,
        write_text,
    )
    from croupier.report_simulation import baccarat_simulation, blackjack_simulation

    require("report")
    if rounds < 0 or live_coups < 0:
        fail("--rounds and --live-coups count rounds: 0 or more")
    try:
        target = check_target(out)
        if game_of(rules) == "blackjack":
            simulate = blackjack_simulation(rounds, _seed(seed)) if rounds else None
            document = blackjack_report(rules, set_ or [], simulate=simulate, progress=_progress)
        else:
            simulate = baccarat_simulation(rounds, _seed(seed), live_coups) if rounds else None
            document = baccarat_report(rules, set_ or [], simulate=simulate, progress=_progress)
        options = ["--rules", rules, *(f"--set={a}" for a in set_ or []), f"--rounds={rounds}", f"--seed={seed}"]
        command = "croupier report " + shlex.join([*options, "--out", out.name])
        write_text(target, render_html(document, command))
    except CroupierError as error:
        fail(str(error))
    _progress("")
    sys.stdout.write(f"Par sheet written to {target}\n")


@app.command()
def certify(
    rules: Annotated[
        list[str] | None,
        typer.Option(help="A preset to certify (repeat it for more); default all: macau-1983, live-online, macau."),
    ] = None,
    shoes: Annotated[int, typer.Option(help="Shoes shuffled and tallied per preset.")] = 1_000_000,
    seed: Annotated[
        str | None,
        typer.Option(help="Test the documented seeded generator with this seed (reproducible); default: OS entropy."),
    ] = None,
    alpha: Annotated[float, typer.Option(help="Significance of the whole report (Bonferroni-corrected).")] = 0.01,
    workers: Annotated[int | None, typer.Option(help="Cores to use (default: all).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write the document as JSON instead of Markdown.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Write the report to FILE (FILE.html: an HTML page); default stdout."),
    ] = None,
) -> None:
    """Certify the shuffle and its generator: position, adjacency, fixed-point and run tests, the scaling's bias.

    Exits 0 when every test passes, 1 when one fails (the report is written either way)."""
    import shlex

    from croupier.certify import CertifyError, certify_report
    from croupier.certify import certify as run_certification
    from croupier.files import check_out, write_whole
    from croupier.report import render_html, render_markdown

    presets = rules or ["macau-1983", "live-online", "macau"]
    try:
        target = None if out is None else check_out(out, CertifyError)
        progress, advance = _progress_bar(shoes * len(dict.fromkeys(presets)), "shoes")
        done: dict[str, int] = {}

        def moved(preset: str, count: int, _total: int) -> None:
            done[preset] = count
            advance(sum(done.values()), None)

        with progress:
            document = run_certification(presets, shoes, seed, alpha=alpha, workers=workers, progress=moved)
        options = [*(f"--rules={p}" for p in rules or []), f"--shoes={shoes}"]
        options += [f"--seed={seed}"] if seed is not None else []
        options += [f"--alpha={alpha}"] if alpha != 0.01 else []
        document["command"] = "croupier certify " + shlex.join(options)
        if as_json:
            text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        elif target is not None and target.suffix.lower() in (".html", ".htm"):
            text = render_html(certify_report(document), document["command"])
        else:
            text = render_markdown(certify_report(document), document["command"])
        if target is None:
            sys.stdout.write(text)
        else:
            write_whole(target, text.encode("utf-8"), CertifyError)
            sys.stderr.write(f"Certification written to {target}: {'PASS' if document['pass'] else 'FAIL'}\n")
    except CroupierError as error:
        fail(str(error))
    if not document["pass"]:
        raise typer.Exit(1)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (``croupier serve --host``) listens only on this machine: where the demo's accounts,
    whose passwords are published, are made by default."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_limits(port: int, max_body_bytes: int, body_seconds: float, header_seconds: float) -> None:
    """``serve``'s port and request limits, or the command fails naming the option."""
    if not 1 <= port <= 65535:
        fail(f"--port {port}: a port is 1-65535")
    if max_body_bytes < 1024 or not 0 < body_seconds <= 3600 or not 0 < header_seconds <= 3600:
        fail("--max-body-bytes is at least 1024; --body-seconds and --header-seconds are from 0 to 3600")


MIN_METRICS_TOKEN = 16
METRICS_TOKEN_HELP = (
    "The bearer token (16+ printable ASCII characters) that GET /api/metrics asks for; without it the route is off. "
    "Prefer the environment variable."
)
MAX_DRAIN_SECONDS = 300
DRAIN_HELP = (
    "At SIGTERM, answer GET /api/ready with 503 and go on serving this long before stopping, so that a load "
    "balancer moves the traffic first (a second signal stops at once). 0: stop at once."
)


MAX_FULL_COLLECTION_SECONDS = 3600
FULL_COLLECTION_HELP = "Seconds (1-3600) between the garbage collector's full collections, each a pause of the server."


def _check_operations(drain_seconds: float, metrics_token: str | None, full_collection_seconds: float) -> None:
    """``serve``'s drain, metrics token and full collections, each refused with its reason."""
    if not 0 <= drain_seconds <= MAX_DRAIN_SECONDS:
        fail(f"--drain-seconds: from 0 to {MAX_DRAIN_SECONDS}, not {drain_seconds:g}")
    if not 1 <= full_collection_seconds <= MAX_FULL_COLLECTION_SECONDS:
        fail(f"--full-collection-seconds: from 1 to {MAX_FULL_COLLECTION_SECONDS}, not {full_collection_seconds:g}")
    token = metrics_token
    if token is not None and (
        len(token) < MIN_METRICS_TOKEN or not (token.isascii() and token.isprintable()) or token != token.strip()
    ):
        fail(
            f"--metrics-token: at least {MIN_METRICS_TOKEN} printable ASCII characters, no space at either end "
            "(it guards the server's figures, sent in an Authorization header)"
        )


def _check_redis(redis_key: str | None, redis_prefix: str) -> None:
    """``serve --redis``: the signing key and the channels' prefix, or the command fails saying why."""
    from croupier.server.hub import check_key, check_prefix

    try:
        check_key(redis_key)
        check_prefix(redis_prefix)
    except CroupierError as error:
        fail(str(error))


def _demo_wanted(demo: bool | None, host: str) -> bool:
    """Whether ``serve`` makes the demo: by default only on a loopback address; ``--demo`` elsewhere warns."""
    if demo is None:
        return is_loopback(host)
    if demo and not is_loopback(host):
        sys.stderr.write(
            f"warning: --demo on {host}: in an empty database the demo accounts are made with the published "
            "password 'demo', a supervisor's among them\n"
        )
    return demo


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str, typer.Option(help="sqlite:///FILE (the default, made if missing) or postgresql://USER@HOST/DB.")
    ] = "sqlite:///croupier.db",
    redis: Annotated[
        str | None, typer.Option(help="redis://HOST:PORT to fan events out between several processes.")
    ] = None,
    redis_key: Annotated[
        str | None,
        typer.Option(
            envvar="CROUPIER_REDIS_KEY",
            help="With --redis: the key (16+ characters, the same in every process) that signs every message "
            "between the processes; unsigned messages are ignored. Prefer the environment variable.",
        ),
    ] = None,
    redis_prefix: Annotated[
        str, typer.Option(help="With --redis: the prefix of its channels (one per deployment sharing a Redis).")
    ] = "croupier",
    metrics_token: Annotated[str | None, typer.Option(envvar="CROUPIER_METRICS_TOKEN", help=METRICS_TOKEN_HELP)] = None,
    demo: Annotated[
        bool | None,
        typer.Option(
            "--demo/--no-demo",
            help="Make the demo tables and accounts (published passwords) in an empty database. By default only "
            "on a loopback address; --demo on any other address is a deliberate choice.",
        ),
    ] = None,
    betting_seconds: Annotated[float, typer.Option(help="Betting window of the demo tables.")] = 15.0,
    decision_seconds: Annotated[float, typer.Option(help="Decision timer of the demo tables.")] = 20.0,
    max_body_bytes: Annotated[int, typer.Option(help="The largest request body taken (413 beyond).")] = 64 * 1024,
    body_seconds: Annotated[float, typer.Option(help="Seconds a request body may take to arrive (408).")] = 10.0,
    header_seconds: Annotated[
        float, typer.Option(help="Seconds a request's headers may take to arrive; then the connection closes.")
    ] = 10.0,
    drain_seconds: Annotated[float, typer.Option(help=DRAIN_HELP)] = 0.0,
    full_collection_seconds: Annotated[float, typer.Option(help=FULL_COLLECTION_HELP)] = 60.0,
) -> None:
    """Run the live table server: REST and WebSockets, tables, wallets, history (docs/protocol.md)."""
    require("server")  # every module of the extra, before the server starts (some load only when used)
    import uvicorn

    from croupier.server.app import Settings, create_app
    from croupier.server.db import normalise_url
    from croupier.server.guard import draining_server, uvicorn_options

    try:
        url = normalise_url(database)
    except CroupierError as error:
        fail(str(error))
    _check_limits(port, max_body_bytes, body_seconds, header_seconds)
    _check_operations(drain_seconds, metrics_token, full_collection_seconds)
    if redis is not None:
        _check_redis(redis_key, redis_prefix)
    settings = Settings(
        database=url,
        redis=redis,
        redis_key=redis_key,
        redis_prefix=redis_prefix,
        metrics_token=metrics_token,
        demo=_demo_wanted(demo, host),
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        max_body_bytes=max_body_bytes,
        body_seconds=body_seconds,
        header_seconds=header_seconds,
        settle_heap=True,
        full_collection_seconds=full_collection_seconds,
    )
    sys.stderr.write(f"croupier serving on http://{host}:{port} (database {database})\n")
    options = uvicorn_options(settings.header_seconds, settings.max_header_bytes)
    app = create_app(settings)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", **options)
    draining_server(config, app.state.service, drain_seconds).run()


@app.command()
def verify(
    source: Annotated[str, typer.Argument(help="A shoe's document (GET /api/shoes/ID), or - for standard input.")],
) -> None:
    """Check a provably fair shoe: the revealed seed matches its commitment and dealt every card shown."""
    from croupier.server.fair import verify_document

    text = _read_input(source)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"verify: {source} is not JSON ({error.msg} at line {error.lineno})")
    if not isinstance(document, dict):
        fail("verify: expected a JSON object (the shoe document)")
    try:
        summary = verify_document(document)
    except CroupierError as error:
        fail(str(error))
    sys.stdout.write(
        f"shoe {document.get('shoe')}: the seed matches the commitment {summary['commitment']}; "
        f"{summary['cards_checked']} cards of {summary['rounds']} rounds are the seed's\n"
    )


def _progress(step: str) -> None:
    """A long command's current step, on stderr when it is a terminal."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K  {step}")
        sys.stderr.flush()


def _progress_bar(total: int, what: str) -> tuple[Any, Any]:
    """A rich progress bar on stderr (only when it is a terminal) and the callback that moves it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
    task = progress.add_task(what, total=total)
    return progress, lambda done, _total: progress.update(task, completed=done)


@simulate_app.command("blackjack")
def simulate_blackjack_command(
    rules: Annotated[str, typer.Option(help="Preset: macau-1983 or live-online.")] = "macau-1983",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    rounds: Annotated[int, typer.Option(help="Rounds to play.")] = 10_000_000,
    seed: Annotated[str, typer.Option(help="Seed of the documented generator (xoshiro256** per chunk).")] = "0",
    boxes: Annotated[int, typer.Option(help="Boxes played, one unit each (1-7).")] = 1,
    shuffle: Annotated[str, typer.Option(help="shoe (cut card, burns) or continuous.")] = "shoe",
    chart: Annotated[
        Path | None, typer.Option(help="A strategy chart file (JSON, docs/simulate.md); default: the exact analysis's.")
    ] = None,
    workers: Annotated[int | None, typer.Option(help="Cores to use (default: all).")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="A Dask scheduler's address (tcp://host:8786): play the chunks on that cluster."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play rounds of a blackjack rule set with a strategy; EV with its standard error, SD, frequencies."""
    from croupier.blackjack.presets import blackjack_rules
    from croupier.ruleset import parse_assignments
    from croupier.sim.blackjack import result_document, simulate_blackjack
    from croupier.sim.charts import load_chart, strategy_from_chart

    if shuffle not in ("shoe", "continuous"):
        fail(f"--shuffle {shuffle!r}: shoe or continuous")
    if rounds < 1:
        fail(f"--rounds {rounds}: at least 1")
    try:
        table_rules = blackjack_rules(rules, parse_assignments(set_ or []))
        strategy = None if chart is None else strategy_from_chart(table_rules, load_chart(chart))
        progress, advance = _progress_bar(rounds, "rounds")
        mode: Literal["shoe", "continuous"] = "shoe" if shuffle == "shoe" else "continuous"
        with progress:
            result = simulate_blackjack(
                table_rules, rounds, _seed(seed), boxes, mode, strategy, workers, advance, scheduler=scheduler
            )
    except CroupierError as error:
        fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(result_document(result), indent=2) + "\n")
    else:
        from croupier.terminal.render import render_blackjack_simulation

        render_blackjack_simulation(result)


@simulate_app.command("baccarat")
def simulate_baccarat_command(
    rules: Annotated[str, typer.Option(help="Preset: macau.")] = "macau",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    coups: Annotated[int, typer.Option(help="Coups with bets to play.")] = 1_000_000,
    seed: Annotated[str, typer.Option(help="Seed of the documented generator (xoshiro256** per chunk).")] = "0",
    shuffle: Annotated[str, typer.Option(help="shoe (cut card, burns) or continuous.")] = "shoe",
    live_edges: Annotated[
        bool, typer.Option(help="Before each coup, the exact EV of every bet for the cards left (slower).")
    ] = False,
    workers: Annotated[int | None, typer.Option(help="Cores to use (default: all).")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="A Dask scheduler's address (tcp://host:8786): play the chunks on that cluster."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play coups of a baccarat rule set with a unit on every bet; EV with its standard error, frequencies."""
    from croupier.baccarat.presets import baccarat_rules
    from croupier.math.baccarat import analyze_baccarat
    from croupier.ruleset import parse_assignments
    from croupier.sim.baccarat import result_document, simulate_baccarat

    if shuffle not in ("shoe", "continuous"):
        fail(f"--shuffle {shuffle!r}: shoe or continuous")
    if coups < 1:
        fail(f"--coups {coups}: at least 1")
    try:
        table_rules = baccarat_rules(rules, parse_assignments(set_ or []))
        progress, advance = _progress_bar(coups, "coups")
        with progress:
            mode: Literal["shoe", "continuous"] = "shoe" if shuffle == "shoe" else "continuous"
            result = simulate_baccarat(
                table_rules, coups, _seed(seed), mode, workers, advance, live_edges, scheduler=scheduler
            )
    except CroupierError as error:
        fail(str(error))
    document = result_document(result)
    if as_json:
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        return
    from croupier.terminal.render import render_baccarat_simulation

    render_baccarat_simulation(document, analyze_baccarat(table_rules).house_edge, f"{rules} ({shuffle}), seed {seed}")


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def fail(message: str) -> NoReturn:
    """One line to stderr, exit status 2."""
    sys.stderr.write(message.replace("\n", " ") + "\n")
    raise typer.Exit(2)


def _read_input(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as error:
        fail(f"replay: cannot read {source}: {error.strerror}")
    except UnicodeDecodeError:
        fail(f"replay: {source} is not UTF-8 text")
    raise AssertionError("unreachable")


@app.command()
def replay(
    source: Annotated[str, typer.Argument(help="Transcript file, or - for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result document as JSON.")] = False,
) -> None:
    """Replay a transcript (docs/transcript.md) and print what happened."""
    from croupier import transcript

    text = _read_input(source)
    try:
        doc = transcript.load(text)
        result = transcript.replay(doc)
        output = json.dumps(result, indent=2, ensure_ascii=False) if as_json else transcript.render(doc, result)
    except CroupierError as error:
        fail(str(error))
    sys.stdout.write(output + "\n")


@play_app.command("blackjack")
def play_blackjack(
    rules: Annotated[str, typer.Option(help="Preset: macau-1983 or live-online.")] = "macau-1983",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    bankroll: Annotated[str, typer.Option(help="Starting bankroll in table units.")] = "1000",
    seed: Annotated[str | None, typer.Option(help="Seed the shuffle (for practice); default the OS CSPRNG.")] = None,
) -> None:
    """Play blackjack at a table of your own."""
    from croupier.terminal.blackjack_play import play

    try:
        play(rules, set_ or [], bankroll, seed)
    except CroupierError as error:
        fail(str(error))


@play_app.command("baccarat")
def play_baccarat(
    rules: Annotated[str, typer.Option(help="Preset: macau.")] = "macau",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule: NAME=VALUE.")] = None,
    bankroll: Annotated[str, typer.Option(help="Starting bankroll in table units.")] = "1000",
    seed: Annotated[str | None, typer.Option(help="Seed the shuffle (for practice); default the OS CSPRNG.")] = None,
) -> None:
    """Play baccarat at a table of your own."""
    from croupier.terminal.baccarat_play import play

    try:
        play(rules, set_ or [], bankroll, seed)
    except CroupierError as error:
        fail(str(error))


@app.command()
def roads(
    as_json: Annotated[bool, typer.Option("--json", help="Print the roads as JSON.")] = False,
) -> None:
    """Read results (B, P, T; b/p for pairs) on stdin and draw the five roads."""
    from croupier.baccarat.roads import build_roads, roads_document
    from croupier.terminal.render import render_roads

    try:
        board = build_roads(sys.stdin.read())
    except CroupierError as error:
        fail(str(error))
    if as_json:
        document: dict[str, Any] = roads_document(board)
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        render_roads(board)


def _needing_extras(command: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``command``, except that a module of a missing extra is one line naming the extra, exit status 2.

    The commands import what they need when they run (``croupier --help`` loads none of it), so
    ``pip install croupier`` without ``[server]`` still has every command and ``croupier serve`` says
    what to install (croupier.extras)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ModuleNotFoundError as error:
            message = missing_extra_message(error, f"croupier {name}")
            if message is None:
                raise
            fail(message)

    return run


def _guard_commands(typer_app: typer.Typer, prefix: str) -> None:
    for info in typer_app.registered_commands:
        if info.callback is not None:
            name = info.name or info.callback.__name__.replace("_", "-")
            info.callback = _needing_extras(info.callback, prefix + name)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None and isinstance(group.name, str):
            _guard_commands(group.typer_instance, f"{prefix}{group.name} ")


_guard_commands(app, "")


GROUPS: dict[str, typer.Typer] = {
    info.name: info.typer_instance
    for info in app.registered_groups
    if isinstance(info.name, str) and info.typer_instance is not None
}
"""The command groups, by name: a command of one is run by its group alone (:func:`main`)."""


def _run(argv: list[str]) -> None:
    """The command line ``argv``. Typer builds every command of the app it runs (each one's signature and
    types) before it parses a word: for a group's command only that group is built, not the whole tree
    (about a third of ``croupier analyze baccarat``'s start)."""
    group = GROUPS.get(argv[0]) if argv else None
    if group is not None:
        group(args=argv[1:], prog_name=f"croupier {argv[0]}")
    else:
        app(args=argv, prog_name="croupier")


def main() -> None:
    """Entry point: run the app; an unexpected failure is one line, never a traceback."""
    try:
        _run(sys.argv[1:])
    except CroupierError as error:  # pragma: no cover - commands catch their own
        sys.stderr.write(str(error) + "\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except Exception as error:  # pragma: no cover - a bug; still one line for the user
        sys.stderr.write(f"croupier: internal error: {type(error).__name__}: {error}\n")
        sys.exit(70)
