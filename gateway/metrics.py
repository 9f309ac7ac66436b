"""The gateway's Prometheus metrics. gunicorn runs several worker processes, so
the client library's multiprocess mode is used: each worker writes to files in
PROMETHEUS_MULTIPROC_DIR (set up by gunicorn_conf.py) and /metrics adds them up."""

from __future__ import annotations

import os
from functools import cache

from flask import Blueprint, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest, multiprocess

REQUESTS = Counter("parlor_http_requests_total", "REST requests by method, route and status.",
                   ["method", "route", "status"])
SECONDS = Histogram("parlor_http_request_duration_seconds", "Time to answer a REST request.", ["route"],
                    buckets=(0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
CONNECTIONS_CUT = Counter(
    "parlor_http_connections_cut_total",
    "Connections the gateway closed because the client was too slow: stalled for "
    "PARLOR_CLIENT_TIMEOUT_SECONDS sending its request or reading the answer (stalled), or its "
    "request not whole within three client timeouts (too_slow).",
    ["reason"])
CUT_REASONS = ("stalled", "too_slow")

bp = Blueprint("metrics", __name__)


# Children looked up once per label set (labels() locks and validates on every
# call). Label values are bounded: routes are the app's own ("unmatched" for the
# rest), methods outside the standard ones count as OTHER (a client may send any
# token), statuses are a small set.
_requests = cache(REQUESTS.labels)
_seconds = cache(SECONDS.labels)
_cut = cache(CONNECTIONS_CUT.labels)
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe(method: str, route: str, status: int, seconds: float) -> None:
    _requests(method if method in _METHODS else "OTHER", route, str(status)).inc()
    _seconds(route).observe(seconds)


def connection_cut(reason: str) -> None:
    _cut(reason).inc()


@bp.get("/metrics")
def metrics():
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:  # a single process (the Flask test client)
        from prometheus_client import REGISTRY as registry
    # content_type, not mimetype: Flask would add a second charset to the one it has
    return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
