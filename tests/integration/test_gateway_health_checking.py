"""PARLOR_GATEWAY_HEALTH_CHECKING: a gateway over two service replicas, one of
which loses its Redis. With health checking the gateway sends that replica
nothing as soon as it reports NOT_SERVING; without it, the replica keeps its
share of calls (503 STORE_UNAVAILABLE) until its connections age out. When no
replica is SERVING, calls are 503 STORE_UNAVAILABLE either way (but the games,
which need no Redis, are still listed), and the gateway serves again once a
replica does."""

from __future__ import annotations

import pytest
from grpc_health.v1 import health_pb2

from ..support import Stack
from .test_faults import health, wait_for

pytestmark = pytest.mark.integration

SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture
def replicas():
    """Two service replicas, each with a Redis of its own (so that one alone can
    lose it), and two gateways over both: with health checking, and without."""
    a = Stack(gateway=False).start()
    b = Stack(gateway=False).start()
    gateways = {}
    try:
        target = f"ipv4:127.0.0.1:{a.grpc_port},127.0.0.1:{b.grpc_port}"
        for checking in (True, False):
            # (A's Redis is unused: a gateway never talks to Redis.)
            gateway = Stack.on_redis_of(a, env={"PARLOR_SERVICE_TARGET": target,
                                                "PARLOR_GATEWAY_HEALTH_CHECKING": "1" if checking else "0"})
            gateway.start_gateway()
            gateways[checking] = gateway
        yield a, b, gateways
    finally:
        for stack in (*gateways.values(), a, b):
            stack.stop()


def creates(gateway: Stack, count: int = 12) -> list[tuple[int, str | None]]:
    """(status, error code) of `count` match creations, each on a new connection
    (so that both gateway workers take some)."""
    results = []
    for _ in range(count):
        rest = gateway.rest()
        reply = rest.post("/v1/matches", {"game": "heck", "players": 2})
        results.append((reply.status, reply.error))
        rest.close()
    return results


def test_a_replica_without_redis_gets_no_calls_with_health_checking(replicas):
    a, b, gateways = replicas
    assert creates(gateways[True]) == [(200, None)] * 12
    assert creates(gateways[False]) == [(200, None)] * 12

    b.redis.stop()
    assert wait_for(lambda: health(b) == NOT_SERVING)
    assert wait_for(lambda: creates(gateways[True]) == [(200, None)] * 12, timeout=5), \
        creates(gateways[True])
    without = creates(gateways[False], 20)
    assert (503, "STORE_UNAVAILABLE") in without and (200, None) in without, without

    a.redis.stop()  # now no replica can serve
    assert wait_for(lambda: health(a) == NOT_SERVING)
    for gateway in gateways.values():
        assert wait_for(lambda: set(creates(gateway, 4)) == {(503, "STORE_UNAVAILABLE")}, timeout=5), \
            creates(gateway, 4)
        rest = gateway.rest()
        assert wait_for(lambda: rest.get("/readyz").status == 503)
        assert rest.get("/readyz").body["error"]["code"] == "STORE_UNAVAILABLE"  # (not the service)
        assert rest.get("/healthz").status == 200
        rest.close()
        for _ in range(4):  # (new connections, so both workers answer) listing games needs no Redis
            rest = gateway.rest()
            listed = rest.get("/v1/games")
            assert listed.status == 200 and len(listed.body["games"]) == 5, listed.body
            rest.close()

    a.redis.start()  # the same port: replica A reconnects and turns SERVING again
    assert wait_for(lambda: health(a) == SERVING)
    assert wait_for(lambda: creates(gateways[True]) == [(200, None)] * 12, timeout=5), \
        creates(gateways[True])
    for gateway in (*gateways.values(), a, b):
        assert "Traceback" not in "".join(gateway.log(name) for name in gateway.procs)
