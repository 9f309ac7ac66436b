"""The gateway's gRPC client. gunicorn forks workers: the channel is made lazily
in the process that uses it (and remade if the process id changed), never at
import time. Calls always carry a deadline.

Calls fail fast while the service is unreachable (503 SERVICE_UNAVAILABLE, at
once), and reconnect attempts back off to at most a second: a gateway that
started before the service, or outlived a restart of it, serves again within a
second of the service coming back, on every worker. (gRPC's default backoff
grows to two minutes, and a call made while a channel is backing off fails
without trying.)"""

from __future__ import annotations

import json
import os
import threading

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlor.common.config import CLIENT_CHANNEL_OPTIONS
from parlor.v1 import parlor_pb2, parlor_pb2_grpc

from .errors import every_replica_unhealthy

# Client-side round robin over every address the target resolves to (a headless
# Service in Kubernetes gives one per replica). Only gRPC's transparent retries
# apply (a call that never reached a server); an action is never re-sent blindly.
# With health checking (PARLOR_GATEWAY_HEALTH_CHECKING), each connection also
# watches the replica's `parlor.v1.Parlor` health, and calls go only to replicas
# that report SERVING: one that cannot reach Redis, or is draining, gets none.
HEALTH_SERVICE = parlor_pb2.DESCRIPTOR.services_by_name["Parlor"].full_name  # parlor.v1.Parlor


def service_config(health_checking: bool) -> str:
    config: dict = {"loadBalancingConfig": [{"round_robin": {}}]}
    if health_checking:
        config["healthCheckConfig"] = {"serviceName": HEALTH_SERVICE}
    return json.dumps(config)


class ServiceClient:
    def __init__(self, target: str, timeout: float, max_message_bytes: int,
                 stream_seconds: float = 0, health_checking: bool = False) -> None:
        self.target = target
        self._health_checking = health_checking
        self.timeout = timeout
        self.stream_seconds = stream_seconds
        self._max_message_bytes = max_message_bytes
        self._lock = threading.Lock()
        self._pid = None
        self._channel = None
        self._stub = None
        self._health = None
        self._unchecked = None  # a stub on a channel without health checking, made when needed

    def _new_channel(self, service_config: str) -> grpc.Channel:
        return grpc.insecure_channel(self.target, options=[
            ("grpc.service_config", service_config),
            ("grpc.enable_retries", 1),
            ("grpc.max_receive_message_length", 16 * 1024 * 1024),
            ("grpc.max_send_message_length", self._max_message_bytes * 2),
            ("grpc.keepalive_time_ms", 30_000),
            *CLIENT_CHANNEL_OPTIONS,
        ])

    def _ensure(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._channel = self._new_channel(service_config(self._health_checking))
            self._stub = parlor_pb2_grpc.ParlorStub(self._channel)
            self._health = health_pb2_grpc.HealthStub(self._channel)
            self._unchecked = None
            self._pid = os.getpid()

    def call(self, method: str, request, metadata: list[tuple[str, str]]):
        """Calls one Parlor RPC; raises grpc.RpcError."""
        self._ensure()
        return getattr(self._stub, method)(request, timeout=self.timeout, metadata=metadata)

    def call_any_replica(self, method: str, request, metadata: list[tuple[str, str]]):
        """Calls an RPC that needs no Redis (ListGames). With health checking on,
        gRPC sends no call at all while every replica reports NOT_SERVING (none
        reaches Redis); such a call is then sent again, once, on a channel of its
        own without health checking, made the first time it is needed."""
        try:
            return self.call(method, request, metadata)
        except grpc.RpcError as err:
            if not (self._health_checking and every_replica_unhealthy(err)):
                raise
        with self._lock:
            if self._unchecked is None:
                self._unchecked = parlor_pb2_grpc.ParlorStub(self._new_channel(service_config(False)))
        return getattr(self._unchecked, method)(request, timeout=self.timeout, metadata=metadata)

    def stream(self, method: str, request, metadata: list[tuple[str, str]]):
        """Starts one server-streaming Parlor RPC; returns its reply iterator
        (which raises grpc.RpcError, and has cancel()). Its deadline is the
        stream's longest life plus the usual call deadline."""
        self._ensure()
        return getattr(self._stub, method)(request, timeout=self.stream_seconds + self.timeout,
                                           metadata=metadata)

    def why_not_ready(self, service: str) -> str | None:
        """None when the service reports SERVING for `service` (Redis
        reachable); else the error code that says why not: STORE_UNAVAILABLE
        when it answers that it is not serving (it cannot reach Redis, or it is
        draining), or, with health checking on, gRPC finds every replica so;
        SERVICE_UNAVAILABLE when it does not answer."""
        self._ensure()
        try:
            reply = self._health.Check(health_pb2.HealthCheckRequest(service=service),
                                       timeout=min(self.timeout, 2.0))
        except grpc.RpcError as err:
            return "STORE_UNAVAILABLE" if every_replica_unhealthy(err) else "SERVICE_UNAVAILABLE"
        return None if reply.status == health_pb2.HealthCheckResponse.SERVING else "STORE_UNAVAILABLE"
