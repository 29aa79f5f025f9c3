"""The simulators on a Dask cluster give exactly a local run's result.

A ``LocalCluster`` of two worker processes with one thread each (so every chunk's arguments and rows
are pickled across processes); both simulators are run with the same seed and chunking locally and
on the cluster, and every statistic must be equal (floats included: the cluster's rows are assembled
by the same code, in chunk order). The CLI with ``--scheduler`` prints the same JSON as without, bar
the timing and the worker count; a bad or unreachable address is a one-line error.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from distributed import Client, LocalCluster
from typer.testing import CliRunner

from croupier.baccarat.presets import baccarat_rules
from croupier.blackjack.presets import blackjack_rules
from croupier.cli import app
from croupier.sim import distributed as distributed_module
from croupier.sim.baccarat import BaccaratSimulationError, simulate_baccarat
from croupier.sim.blackjack import SimulationError, simulate_blackjack
from croupier.sim.charts import strategy_from_chart
from croupier.sim.distributed import task_groups

TIMING = {"seconds", "rounds_per_second", "coups_per_second", "workers"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, set_as_default=False) as connected:
        yield connected


def same(local: Any, remote: Any) -> None:
    """Every field equal but the time taken and the threads used."""
    assert dataclasses.replace(remote, seconds=0.0, workers=0) == dataclasses.replace(local, seconds=0.0, workers=0)


def test_blackjack_on_the_cluster_is_the_local_run(client: Client) -> None:
    rules = blackjack_rules("macau-1983", {"dealer_hits_soft_17": "true"})
    calls: list[tuple[int, int]] = []
    local = simulate_blackjack(rules, 50_000, seed="dask", boxes=3, chunk_rounds=7_000)
    remote = simulate_blackjack(
        rules,
        50_000,
        seed="dask",
        boxes=3,
        chunk_rounds=7_000,
        scheduler=client,
        progress=lambda d, t: calls.append((d, t)),
    )
    same(local, remote)
    assert remote.workers == 2 and remote.counts["splits"] > 0 and len(remote.results) > 5
    assert len(calls) == 8 and calls[-1] == (50_000, 50_000)  # a task per chunk here (at least four per worker thread)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert client.status == "running"  # a client passed in is left open

    chart = strategy_from_chart(rules, {"hard": {"16": "RRRRRRRRRR"}, "pair": {"8": "PPPPPPPPPP", "A": "PPPPPPPPPP"}})
    other = blackjack_rules("live-online")
    local = simulate_blackjack(
        other, 20_000, seed=11, boxes=7, shuffle="continuous", strategy=chart, chunk_rounds=3_000
    )
    remote = simulate_blackjack(
        other, 20_000, seed=11, boxes=7, shuffle="continuous", strategy=chart, chunk_rounds=3_000, scheduler=client
    )
    same(local, remote)
    assert remote.strategy == "chart"


def test_baccarat_on_the_cluster_is_the_local_run(cluster: LocalCluster) -> None:
    address = cluster.scheduler_address  # an address: the simulator opens its own client and closes it
    rules = baccarat_rules("macau", {"lucky_6": "true", "burn_each_coup": "1"})
    local = simulate_baccarat(rules, 3_000, seed=5, live_edges=True, live_view="unseen", chunk_coups=700)
    remote = simulate_baccarat(
        rules, 3_000, seed=5, live_edges=True, live_view="unseen", chunk_coups=700, scheduler=address
    )
    same(local, remote)  # the live edges' float sums too
    assert remote.live is not None and any(edge.positive for edge in remote.live.values())

    super6 = baccarat_rules("macau", {"commission": "none_super6", "lucky_6": "true"})
    local = simulate_baccarat(super6, 100_000, seed="x", shuffle="continuous", chunk_coups=9_999)
    calls: list[int] = []
    remote = simulate_baccarat(
        super6, 100_000, seed="x", shuffle="continuous", chunk_coups=9_999, scheduler=address,
        progress=lambda done, _total: calls.append(done),
    )  # fmt: skip
    same(local, remote)
    assert calls[-1] == 100_000 and len(calls) == 6  # 11 chunks, two to a task: groups change nothing


def test_tasks_group_consecutive_chunks() -> None:
    assert task_groups([7_000] * 8, threads=2) == [(i, i + 1) for i in range(8)]
    assert task_groups([9_999] * 10 + [10], threads=2) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 11)]
    big = task_groups([1 << 16] * 1000, threads=4)  # about 2**20 coups a task
    assert big[0] == (0, 16) and big[-1] == (992, 1000) and len(big) == 63


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def without_timing(text: str) -> dict[str, Any]:
    return {name: value for name, value in json.loads(text).items() if name not in TIMING}


@pytest.mark.parametrize(
    "args",
    [
        ("blackjack", "--rules", "live-online", "--rounds", "600000", "--boxes", "2", "--seed", "7", "--json"),
        ("baccarat", "--coups", "200000", "--seed", "3", "--set", "lucky_6=true", "--json"),
    ],
)
def test_the_cli_on_the_cluster_prints_the_local_json(cluster: LocalCluster, args: tuple[str, ...]) -> None:
    code, local, err = run(*args)
    assert code == 0, err
    code, remote, err = run(*args, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert without_timing(remote) == without_timing(local)
    assert json.loads(remote)["workers"] == 2


@pytest.mark.parametrize(
    ("game", "address", "timeout"),
    [
        ("blackjack", "tcp://127.0.0.1:1", 1),  # nothing listens: the client gives up after its timeout
        ("baccarat", "tcp://127.0.0.1:1", 2),
        ("blackjack", "not an address", None),  # refused at once; the module's own bound is what is asked
        ("baccarat", "not an address", None),
    ],
)
def test_a_bad_or_unreachable_scheduler_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, game: str, address: str, timeout: int | None
) -> None:
    """One line naming the address, exit 2; the one connection attempt is bounded by CONNECT_TIMEOUT (the
    client is asked for exactly that timeout), so a dead scheduler cannot hang the command."""
    import distributed

    if timeout is not None:
        monkeypatch.setattr(distributed_module, "CONNECT_TIMEOUT", timeout)
    asked: list[object] = []

    class Recording(distributed.Client):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            asked.append(kwargs.get("timeout"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(distributed, "Client", Recording)
    amount = "--rounds" if game == "blackjack" else "--coups"
    code, out, err = run(game, amount, "1000", "--scheduler", address)
    assert code == 2 and out == ""
    assert err.startswith(f"scheduler {address!r}: cannot connect") and err.count("\n") == 1, err
    assert asked == [distributed_module.CONNECT_TIMEOUT]


def test_workers_are_the_clusters_business(cluster: LocalCluster) -> None:
    address = cluster.scheduler_address
    with pytest.raises(SimulationError, match="workers: not used with a scheduler"):
        simulate_blackjack(blackjack_rules("live-online"), 1_000, workers=1, scheduler=address)
    with pytest.raises(BaccaratSimulationError, match="workers: not used with a scheduler"):
        simulate_baccarat(baccarat_rules("macau"), 1_000, workers=1, scheduler=address)
    with pytest.raises(SimulationError, match="scheduler: expected an address"):
        simulate_blackjack(blackjack_rules("live-online"), 1_000, scheduler="")


def test_a_cluster_without_workers_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distributed_module, "CONNECT_TIMEOUT", 1)
    with (
        LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty,
        pytest.raises(SimulationError, match="no worker joined within 1 s"),
    ):
        simulate_blackjack(blackjack_rules("live-online"), 1_000, scheduler=empty.scheduler_address)
