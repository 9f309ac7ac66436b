"""The floors the benchmark compares Parlor with: the same transport and the
same Redis round trips, with no game logic.

    python -m tests.benchmarks.floor service            # gRPC: GET + a Lua compare-and-set
    python -m tests.benchmarks.floor service-sync       # the same on grpc's thread-pool server
    gunicorn ... 'tests.benchmarks.floor:create_app()'  # REST: the gateway's gunicorn set-up

The gRPC handler GETs a value (a version and a blob the size of a real match
record) and writes it back through a Lua compare-and-set, as an action does.

`service` is the floor the targets are measured against: the service's own
set-up (grpc.aio, redis.asyncio with hiredis, the service's connection
settings) with the game taken out. `service-sync` is the textbook bare handler
(grpc's thread-pool server, redis-py's blocking client): the kind of floor the
Foundation issue's reference figures describe, printed by `bench --sync-floor`
for comparison with them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import grpc

METHOD = "/floor.Floor/Act"
BLOB_BYTES = int(os.environ.get("FLOOR_BLOB_BYTES", "700"))
_CAS = """
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, string.find(cur, '|', 1, true) - 1) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', 600000)
return 1
"""


async def serve() -> None:
    """The same server set-up as the service (grpc.aio, redis.asyncio with the
    service's connection settings), one handler, no game logic."""
    from parlor.service.store import connect

    client = connect(os.environ["REDIS_URL"])
    cas = client.register_script(_CAS)

    async def act(request: bytes, context) -> bytes:
        key = f"floor:{{{request.decode()}}}:state"
        version, value = _next(await client.get(key))
        await cas(keys=[key], args=[version, value])
        return b"ok"

    handler = grpc.method_handlers_generic_handler("floor.Floor", {
        "Act": grpc.unary_unary_rpc_method_handler(act)})
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{os.environ['PARLOR_GRPC_PORT']}")
    await server.start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop(1)


def _next(value: bytes | None) -> tuple[bytes, bytes]:
    """The version read and the value to write back (the blob, one version on)."""
    version, _, blob = value.partition(b"|") if value else (b"0", b"", b"x" * BLOB_BYTES)
    return version, b"%d|%s" % (int(version) + 1, blob)


def serve_sync() -> None:
    """The textbook floor: grpc's thread-pool server, redis-py's blocking
    client (hiredis parses replies here too), the same two round trips."""
    from concurrent import futures

    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    cas = client.register_script(_CAS)

    def act(request: bytes, context) -> bytes:
        key = f"floor:{{{request.decode()}}}:state"
        version, value = _next(client.get(key))
        cas(keys=[key], args=[version, value])
        return b"ok"

    handler = grpc.method_handlers_generic_handler("floor.Floor", {
        "Act": grpc.unary_unary_rpc_method_handler(act)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=10))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{os.environ['PARLOR_GRPC_PORT']}")
    server.start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop(1))
    server.wait_for_termination()


def create_app():
    """The REST floor: one route that makes one gRPC call to the floor service."""
    from flask import Flask, jsonify, request

    app = Flask(__name__)
    state = {}

    def stub():
        if state.get("pid") != os.getpid():
            channel = grpc.insecure_channel(os.environ["PARLOR_SERVICE_TARGET"])
            state["call"] = channel.unary_unary(METHOD)
            state["pid"] = os.getpid()
        return state["call"]

    @app.post("/floor/<key>")
    def floor(key: str):
        request.get_json(force=True)
        stub()(key.encode(), timeout=5)
        return jsonify({"ok": True})

    return app


if __name__ == "__main__":
    if sys.argv[1:] == ["service"]:
        asyncio.run(serve())
    elif sys.argv[1:] == ["service-sync"]:
        serve_sync()
    else:
        sys.exit(__doc__)
