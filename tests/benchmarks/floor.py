"""The floors the benchmark compares Parlor with: the same transport and the
same Redis round trips, with no game logic.

    python -m tests.benchmarks.floor service            # gRPC: GET + a Lua compare-and-set
    gunicorn ... 'tests.benchmarks.floor:create_app()'  # REST: the gateway's gunicorn set-up

The gRPC handler GETs a value (a version and a blob the size of a real match
record) and writes it back through a Lua compare-and-set, as an action does.
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
    from service.store import connect

    client = connect(os.environ["REDIS_URL"])
    cas = client.register_script(_CAS)

    async def act(request: bytes, context) -> bytes:
        key = f"floor:{{{request.decode()}}}:state"
        value = await client.get(key)
        version, _, blob = value.partition(b"|") if value else (b"0", b"", b"x" * BLOB_BYTES)
        await cas(keys=[key], args=[version, b"%d|%s" % (int(version) + 1, blob)])
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


if __name__ == "__main__" and sys.argv[1:] == ["service"]:
    asyncio.run(serve())
