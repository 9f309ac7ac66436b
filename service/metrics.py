"""The service's Prometheus metrics (served on PARLOR_METRICS_PORT).

Labels are bounded: RPC names, error codes, game ids and a fixed set of action
outcomes. Never a match id, seat or token.
"""

from __future__ import annotations

from functools import cache

from prometheus_client import Counter, Gauge, Histogram, values

# A service process keeps its metrics in memory, whatever PROMETHEUS_MULTIPROC_DIR
# says: that variable is the gateway's (gunicorn's workers), and prometheus_client
# would otherwise write this process's values to files there, or fail if the
# directory is missing. Except one of several service processes on one port
# (processes.py), whose values go to files its parent serves, summed: the parent
# sets the multi-process value class before this module is imported. Metrics
# pick the value class up when they (and their labelled children) are created.
if not getattr(values.ValueClass, "parlor_shared", False):
    values.ValueClass = values.MutexValue

RPCS = Counter("parlor_rpc_requests_total", "Parlor RPCs served, by method and result code.",
               ["rpc", "code"])
RPC_SECONDS = Histogram("parlor_rpc_duration_seconds", "Time to serve a Parlor RPC.", ["rpc"],
                        buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
ACTIONS = Counter("parlor_actions_total",
                  "Submitted actions by game and outcome: accepted, illegal, stale (expectedVersion "
                  "behind), duplicate (idempotent retry answered from the first response), conflict "
                  "(lost a compare-and-set race and was re-validated).", ["game", "outcome"])
MATCHES = Counter("parlor_matches_total", "Matches by game and lifecycle step (created, started, finished).",
                  ["game", "step"])
ACTIVE = Gauge("parlor_active_matches",
               "Matches started and not finished (abandoned ones drop out after PARLOR_ABANDONED_TTL_SECONDS), "
               "as last counted in Redis.", multiprocess_mode="livemax")
STREAMS = Gauge("parlor_event_streams", "Live event streams (WatchEvents) open in this service (summed over "
                "its processes).", multiprocess_mode="livesum")
REDIS_ERRORS = Counter("parlor_redis_errors_total",
                       "Redis calls that failed because Redis could not serve them: no connection, a "
                       "timeout, a reply such as BUSY, LOADING, OOM or READONLY, or a write refused as "
                       "too late.", ["op"])
REDIS_RECONNECTS = Counter("parlor_redis_reconnects_total",
                           "Times the service closed its idle Redis connections because the server they "
                           "reach is no longer the primary (READONLY, NOREPLICAS, LOADING, MASTERDOWN): a "
                           "failover behind REDIS_URL's name.")
RECORDS = Counter("parlor_record_cache_total",
                  "Match records read, by whether this process still kept the one it wrote last (hit: "
                  "not decoded again; see PARLOR_RECORD_CACHE_MATCHES) or decoded it (miss).", ["result"])
RECORD_HIT, RECORD_MISS = RECORDS.labels("hit"), RECORDS.labels("miss")


# Children by label values, looked up once: `labels()` takes a lock and checks
# its arguments on every call, which shows on the per-action path. The label
# sets are bounded (see above), so are these caches.
_rpc_count = cache(RPCS.labels)
_rpc_seconds = cache(RPC_SECONDS.labels)
action = cache(ACTIONS.labels)   # action(game, outcome).inc()
match = cache(MATCHES.labels)    # match(game, step).inc()


def observe_rpc(rpc: str, code: str, seconds: float) -> None:
    _rpc_count(rpc, code).inc()
    _rpc_seconds(rpc).observe(seconds)
