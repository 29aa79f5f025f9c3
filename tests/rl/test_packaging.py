"""Packaging: the ids made from a fresh interpreter, the ``rl`` extra light, a helpful error without it.

Gymnasium 1.x loads no plugins from entry points (``gymnasium.envs`` entry points were dropped in
1.0), so an id is made in one call with the documented module prefix:
``gymnasium.make("croupier.rl:croupier/Blackjack-macau-1983-v0")`` imports ``croupier.rl`` (which
registers the ids) and makes the environment.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from croupier.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def _names(requirements: list[str]) -> set[str]:
    names = set()
    for line in requirements:
        name = line.split(";")[0]
        for stop in "[<>=!~ ":
            name = name.split(stop)[0]
        names.add(name.strip().lower())
    return names


def test_the_rl_extra_pulls_no_server_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    server = _names(extras["server"])
    assert _names(extras["rl"]) == {"gymnasium", "pettingzoo"}
    assert not _names(project["dependencies"]) & server, "the engines install without the server's dependencies"


def test_the_environments_import_nothing_of_the_server() -> None:
    done = _python(
        "import sys, croupier.rl, croupier.rl.multi, croupier.rl.agents, croupier.rl.baccarat\n"
        f"server = {EXTRAS['server']!r}\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] in server or m.startswith('croupier.server')))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "env_id",
    [
        "croupier/Blackjack-macau-1983-v0",
        "croupier/Blackjack-live-online-v0",
        "croupier/Baccarat-macau-v0",
    ],
)
def test_gymnasium_make_with_the_module_prefix_in_a_fresh_interpreter(env_id: str) -> None:
    done = _python(
        "import sys, gymnasium\n"
        "assert 'croupier.rl' not in sys.modules\n"
        f"env = gymnasium.make('croupier.rl:{env_id}')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, int(info['action_mask'].sum()) > 0)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "True"


@pytest.mark.parametrize(("hidden", "module"), [("gymnasium", "croupier.rl"), ("pettingzoo", "croupier.rl.multi")])
def test_a_missing_extra_is_named(hidden: str, module: str) -> None:
    done = _python(f"import sys\nsys.modules[{hidden!r}] = None\nimport {module}")
    assert done.returncode != 0
    assert "pip install 'croupier[rl]'" in done.stderr and hidden in done.stderr
