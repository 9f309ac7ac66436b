"""The gRPC server: Parlor, grpc.health.v1 and reflection on one port.

`create_server()` builds and starts a server on any port (tests bind port 0);
`main()` adds settings, logging, signals and the drain on SIGTERM.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from parlor.v1 import parlor_pb2_grpc

from prometheus_client import start_http_server

from . import logs, metrics
from .config import Settings
from .errors import ParlorError
from .matches import Matches
from .servicer import SERVICE_NAME, ParlorServicer, RequestInterceptor
from .store import MatchStore, connect

log = logging.getLogger(__name__)

LIVENESS = "liveness"  # SERVING while the process runs: probes that must not depend on Redis
HEALTH_INTERVAL = 2.0  # seconds between Redis pings


class RedisHealth:
    """Keeps the health of "" and parlor.v1.Parlor in step with Redis: SERVING
    only while Redis answers."""

    def __init__(self, store: MatchStore, servicer: health.HealthServicer) -> None:
        self.store = store
        self.servicer = servicer
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="redis-health", daemon=True)

    def check(self) -> bool:
        try:
            healthy = self.store.ping()
        except ParlorError:
            healthy = False
        status = health_pb2.HealthCheckResponse.SERVING if healthy \
            else health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME):
            self.servicer.set(name, status)
        return healthy

    def start(self) -> None:
        self.check()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        was = None
        while not self._stop.wait(HEALTH_INTERVAL):
            now = self.check()
            if now != was and was is not None:
                log.warning("redis health changed", extra={"serving": now})
            was = now


def create_server(settings: Settings, store: MatchStore, address: str | None = None,
                  interceptors: tuple = ()) -> tuple[grpc.Server, int, RedisHealth]:
    """Builds and starts the server; returns it, its bound port and the health
    keeper (stop it before stopping the server)."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=settings.grpc_workers, thread_name_prefix="rpc"),
        interceptors=(RequestInterceptor(metrics.observe_rpc), *interceptors),
        options=[
            ("grpc.max_receive_message_length", settings.max_body_bytes),
            ("grpc.max_connection_age_ms", settings.max_connection_age * 1000),
            ("grpc.max_connection_age_grace_ms", settings.drain_seconds * 1000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ])
    parlor_pb2_grpc.add_ParlorServicer_to_server(ParlorServicer(Matches(store, settings)), server)
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_servicer.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(address or f"{settings.host}:{settings.grpc_port}")
    if port == 0:
        raise SystemExit(f"cannot listen on {address or settings.grpc_port}")
    keeper = RedisHealth(store, health_servicer)
    keeper.start()
    server.start()
    return server, port, keeper


def main() -> None:
    settings = Settings.from_env()
    logs.setup(settings.log_level)
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set (parlor dev starts an embedded Redis for you)")
    store = MatchStore(connect(settings.redis_url))
    server, port, keeper = create_server(settings, store)
    metrics.ActiveMatches(lambda: store.count_active(time.time(), settings.abandoned_ttl))
    start_http_server(settings.metrics_port, addr=settings.host)
    log.info("parlor service listening", extra={"grpc_port": port, "metrics_port": settings.metrics_port,
                                                "redis": _redacted(settings.redis_url)})
    stopping = threading.Event()

    def on_signal(signum, _frame):
        if stopping.is_set():
            return
        stopping.set()
        log.info("draining", extra={"signal": signal.Signals(signum).name,
                                    "grace_seconds": settings.drain_seconds})
        keeper.stop()
        keeper.servicer.enter_graceful_shutdown()
        server.stop(settings.drain_seconds)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.wait_for_termination()
    log.info("parlor service stopped")


def _redacted(url: str) -> str:
    """REDIS_URL without its password, for logs."""
    head, sep, tail = url.partition("@")
    if not sep:
        return url
    scheme, _, _ = head.partition("://")
    return f"{scheme}://***@{tail}"


if __name__ == "__main__":
    main()
