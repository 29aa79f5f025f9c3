"""Packaging (docs/api.md, "Installing"): the engines import light, a missing extra is named, the public API.

Each check runs in a fresh interpreter, so what it finds in ``sys.modules`` is what the import loaded;
a missing extra is simulated by ``sys.modules[name] = None``, which makes ``import name`` fail as if
the package were not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import croupier
from croupier.extras import EXTRAS, extra_of, missing_extra_message

SRC = Path(croupier.__file__).resolve().parents[1]
SCENARIOS = Path(__file__).resolve().parent / "scenarios"

HEAVY = tuple(module for modules in EXTRAS.values() for module in modules)
"""Every module an extra installs: none of them may load with the engines."""


def python(code: str, *, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that imports croupier from this tree."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, env=env, timeout=60, check=False
    )


def loaded_heavy(code: str) -> list[str]:
    """The heavy modules in ``sys.modules`` after ``code`` ran."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    done = python(probe)
    assert done.returncode == 0, done.stderr
    result: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_heavy_list_names_the_stacks_of_every_extra() -> None:
    for module in ("fastapi", "starlette", "sqlalchemy", "asyncpg", "redis", "argon2", "dask", "distributed"):
        assert extra_of(module) == ("sim" if module in ("dask", "distributed") else "server")
    assert extra_of("matplotlib.figure") == "report" and extra_of("gymnasium") == "rl"
    assert extra_of("numpy") is None  # the analysis and the simulators need it: installed with croupier


def test_importing_the_engines_loads_no_extra() -> None:
    """``import croupier`` and the engines, their public names used, a transcript replayed: no server, no
    Dask, no matplotlib, no Gymnasium."""
    code = """
import croupier, croupier.blackjack, croupier.baccarat, croupier.transcript
from croupier.rng import seeded
table = croupier.BlackjackTable.shuffled(croupier.blackjack_rules("macau-1983"), seeded(1))
round_ = table.new_round()
round_.bet("ana", 1, 100)
round_.deal()
croupier.BaccaratTable, croupier.baccarat.build_roads, croupier.blackjack.replay_blackjack
import json
for name in ("bac-banker-six-draws-on-six", "bj-macau-plain-win"):
    with open(f"{SCENARIOS}/{name}.json", encoding="utf-8") as file:
        doc = croupier.load_transcript(json.dumps(json.load(file)["transcript"]))
    assert croupier.replay_transcript(doc)["rounds"]
""".replace("{SCENARIOS}", str(SCENARIOS))
    assert loaded_heavy(code) == []


def test_the_analysis_loads_no_extra() -> None:
    code = "import croupier.math.blackjack, croupier.math.baccarat, croupier.math.strategy, croupier.sim"
    code += "; import croupier.terminal, croupier.terminal.render, croupier.terminal.chart_files"
    assert loaded_heavy(code) == []


def test_every_command_help_loads_no_extra() -> None:
    """``croupier --help`` and the help of every command and group: the commands import when they run."""
    code = """
import contextlib, io, typer.main
from croupier.cli import app
root = typer.main.get_command(app)
paths = []
def walk(command, path):
    paths.append(path)
    for name, sub in getattr(command, "commands", {}).items():
        walk(sub, [*path, name])
walk(root, [])
assert len(paths) > 15, paths
for path in paths:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            root.main([*path, "--help"], prog_name="croupier", standalone_mode=False)
        except SystemExit:
            pass
    assert "Usage" in out.getvalue(), path
"""
    assert loaded_heavy(code) == []


def run_cli(blocked: tuple[str, ...], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``croupier ARGS`` with the modules ``blocked`` as if not installed."""
    code = (
        f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n"
        f"sys.argv = ['croupier', *{list(args)!r}]\nfrom croupier.cli import main\nmain()\n"
    )
    return python(code, stdin=stdin)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_serve_without_the_server_extra_names_it() -> None:
    done = run_cli(EXTRAS["server"], "serve", "--port", "0")
    assert done.returncode == 2, done.stderr
    assert one_line(done.stderr) == (
        "croupier serve needs the optional extra 'server' (aiosqlite is not installed): pip install 'croupier[server]'"
    )
    assert done.stdout == ""


@pytest.mark.parametrize("module", ["fastapi", "sqlalchemy", "argon2", "alembic", "redis", "uvicorn"])
def test_serve_names_the_extra_whichever_server_module_is_missing(module: str) -> None:
    """Checked before anything else, modules the server loads only when used (alembic, redis) among them;
    ``--port 0`` would be refused next, so the command never starts a server here."""
    done = run_cli((module,), "serve", "--port", "0")
    assert done.returncode == 2, done.stderr
    assert f"({module} is not installed): pip install 'croupier[server]'" in one_line(done.stderr)


def test_a_picture_without_the_report_extra_names_it_before_the_analysis(tmp_path: Path) -> None:
    target = tmp_path / "chart.png"
    done = run_cli(("matplotlib",), "strategy", "--out", str(target))
    assert done.returncode == 2, done.stderr
    assert "croupier strategy needs the optional extra 'report'" in one_line(done.stderr)
    assert done.stdout == "" and not target.exists()


def test_the_par_sheet_without_the_report_extra_names_it_before_simulating(tmp_path: Path) -> None:
    target = tmp_path / "par.html"
    done = run_cli(("matplotlib",), "report", "--rules", "macau", "--out", str(target), "--rounds", "0")
    assert done.returncode == 2, done.stderr
    assert one_line(done.stderr).endswith("pip install 'croupier[report]'")
    assert not target.exists()


def test_a_cluster_without_the_sim_extra_names_it() -> None:
    args = ("simulate", "blackjack", "--rounds", "1000", "--scheduler", "tcp://127.0.0.1:9")
    done = run_cli(("distributed", "dask"), *args)
    assert done.returncode == 2, done.stderr
    assert "croupier simulate blackjack needs the optional extra 'sim'" in one_line(done.stderr)


def test_verify_needs_no_extra() -> None:
    """Checking a shoe's document is arithmetic: it runs without the server's stack."""
    done = run_cli(EXTRAS["server"], "verify", "-", stdin="[]")
    assert done.returncode == 2
    assert one_line(done.stderr) == "verify: expected a JSON object (the shoe document)"


def test_the_rl_package_without_its_extra_names_it() -> None:
    done = python("import sys\nsys.modules['gymnasium'] = None\nimport croupier.rl\n")
    assert done.returncode == 1
    assert "ModuleNotFoundError: croupier.rl needs the optional extra 'rl'" in done.stderr
    assert "pip install 'croupier[rl]'" in done.stderr


def test_a_module_no_extra_provides_is_not_dressed_up() -> None:
    assert missing_extra_message(ModuleNotFoundError("No module named 'nope'", name="nope")) is None
    assert missing_extra_message(ModuleNotFoundError("no name")) is None


def test_the_public_names_are_the_engines_own() -> None:
    import croupier.baccarat
    import croupier.blackjack
    from croupier.baccarat.presets import baccarat_rules
    from croupier.blackjack.state import Round, Table
    from croupier.money import parse_amount
    from croupier.transcript import replay

    assert croupier.BlackjackTable is Table and croupier.BlackjackRound is Round
    assert croupier.blackjack.Table is Table and croupier.blackjack.Round is Round
    assert croupier.baccarat_rules is baccarat_rules is croupier.baccarat.baccarat_rules
    assert croupier.parse_amount is parse_amount and croupier.replay_transcript is replay
    for package in (croupier, croupier.blackjack, croupier.baccarat):
        for name in package.__all__:
            assert getattr(package, name) is not None, (package.__name__, name)
        assert set(package.__all__) <= set(dir(package))
    from croupier.baccarat import moves as baccarat_moves
    from croupier.blackjack import moves as blackjack_moves

    for package, moves in ((croupier.blackjack, blackjack_moves), (croupier.baccarat, baccarat_moves)):
        for cls in moves.TYPES:  # each engine exports its typed actions and their union
            assert cls.__name__ in package.__all__ and getattr(package, cls.__name__) is cls
        assert "Action" in package.__all__ and package.Action is moves.Action
    with pytest.raises(AttributeError, match="module 'croupier' has no attribute 'Tabel'"):
        croupier.Tabel  # noqa: B018
