"""A process's figures for the operator's monitoring, in Prometheus's text format: ``GET /api/metrics``
(``routes_health``), with the deployment's metrics token (``croupier serve --metrics-token`` or
``CROUPIER_METRICS_TOKEN``; without one the route is off).

Kept as the process works (``prometheus_client``, one registry per application):

- ``croupier_http_answer_seconds{route,method,status}``: each HTTP answer's time in the server, from the
  request's reaching the application to its answer's start (what its ``Server-Timing`` header says), by
  the route's template (``/api/tables/{table_id}/bets``: a bounded set, never a raw path; ``other`` for a
  path no route takes and for the pages);
- ``croupier_betting_window_late_seconds``: how late each betting window of this process's tables closed
  after the time its ``betting_open`` announced (the tables' timers, as the load benchmark reads them);
- ``croupier_gc_pause_seconds{generation}`` and ``croupier_gc_freed_objects_total{generation}``: each
  collection of Python's cyclic garbage collector, the thread it ran in (mostly the event loop) stopped
  meanwhile, and the unreachable objects it found (``croupier serve`` only: croupier.server.heap, whose
  counts are read at each scrape).

Read at each scrape: the tables this process runs by phase, the WebSocket viewers connected, the database
connections in use, and the hub's counts (events not sent to Redis, messages refused, resyncs,
reconnects, messages let go unopened). No figure names an account or carries an amount.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Gauge, Histogram, disable_created_metrics, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from croupier.server.heap import Pauses

if TYPE_CHECKING:
    from starlette.types import Scope

    from croupier.server.service import Service

# no ``_created`` series beside each histogram (half the lines; nothing lost here); untyped in the library
disable_created_metrics()  # type: ignore[no-untyped-call]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LATE_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
HUB_COUNTS = {
    "unsent": "Events this process could not send to Redis (its viewers elsewhere resync)",
    "refused": "Redis messages refused (not signed with the deployment's key, too old, or replayed)",
    "resyncs": "Times every viewer of this process was sent for a fresh snapshot",
    "reconnects": "Times the Redis listener subscribed again after losing its connection",
    "unwatched": "Redis messages let go unopened: no one on this process watches their channel",
}


class Metrics:
    """The registry of one application and the figures kept as it works."""

    def __init__(self, service: Service) -> None:
        self.registry = CollectorRegistry()
        self.answers = Histogram(
            "croupier_http_answer_seconds",
            "An HTTP answer's time in the server (its Server-Timing), by route template, method and status",
            ["route", "method", "status"],
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self.windows_late = Histogram(
            "croupier_betting_window_late_seconds",
            "How late each betting window closed after the time its betting_open announced",
            buckets=LATE_BUCKETS,
            registry=self.registry,
        )
        self.pauses = Pauses()
        """The garbage collector's pauses, counted by the server's heap (``croupier serve``)."""
        self.sockets = Gauge("croupier_websockets_open", "WebSocket viewers connected now", registry=self.registry)
        self.registry.register(_Now(service))

    def answered(self, scope: Scope, status: int, seconds: float) -> None:
        """An HTTP answer began, ``seconds`` after its request reached the application."""
        route = getattr(scope.get("route"), "path", None)
        template = route if isinstance(route, str) and route.startswith("/api") else "other"
        method = str(scope.get("method", ""))
        self.answers.labels(template, method if method in _METHODS else "other", str(status)).observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)


_METHODS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})


class _Now(Collector):
    """What is read at each scrape."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def collect(self) -> Iterator[Metric]:
        service = self.service
        tables = GaugeMetricFamily("croupier_tables", "Tables this process runs, by phase", labels=["phase"])
        for phase, count in sorted(Counter(actor.phase for actor in service.actors.values()).items()):
            tables.add_metric([phase], count)
        yield tables
        if service.settings.settle_heap:
            yield from _collections(service.metrics.pauses)
        for name, help_text in HUB_COUNTS.items():
            yield CounterMetricFamily(f"croupier_hub_{name}", help_text, value=service.hub.counts.get(name, 0))
        pool: Any = getattr(service.engine, "pool", None)
        checked_out = getattr(pool, "checkedout", None)
        if callable(checked_out):
            yield GaugeMetricFamily(
                "croupier_database_connections_in_use",
                "Connections of the writing pool lent out now",
                value=checked_out(),
            )


def _collections(pauses: Pauses) -> Iterator[Metric]:
    """The garbage collector's pauses and what it freed, by generation (croupier.server.heap)."""
    paused = HistogramMetricFamily(
        "croupier_gc_pause_seconds",
        "Each collection of Python's cyclic garbage collector (its thread stopped meanwhile), by generation",
        labels=["generation"],
    )
    freed = CounterMetricFamily(
        "croupier_gc_freed_objects",
        "The unreachable objects the garbage collector's collections found, by generation",
        labels=["generation"],
    )
    for generation in range(3):
        paused.add_metric([str(generation)], pauses.cumulative(generation), pauses.sums[generation])
        freed.add_metric([str(generation)], pauses.freed[generation])
    yield paused
    yield freed
