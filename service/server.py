"""The gRPC server: Parlor, grpc.health.v1 and reflection on one port, on one
asyncio event loop (grpc.aio): no thread per call, so the GIL is not fought over.

`create_server()` builds and starts a server on any port (tests bind port 0);
`main()` adds settings, logging, metrics, signals and the drain on SIGTERM.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time

import grpc
import redis
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from prometheus_client import start_http_server

from parlor.common import logs
from parlor.common.config import Settings, cannot_listen, host_port, redacted_url
from parlor.common.errors import ParlorError

from . import metrics
from .matches import Matches
from .servicer import SERVICE_NAME, ParlorServicer, add_to_server
from .store import MatchStore, connect

log = logging.getLogger(__name__)

LIVENESS = "liveness"  # SERVING while the process runs: probes that must not depend on Redis
HEALTH_INTERVAL = 2.0  # seconds between Redis pings
RECOVERY_INTERVAL = 0.5  # seconds between pings while Redis does not answer
# How long calls fail at once after the second check in a row without an answer:
# past the next check (RECOVERY_INTERVAL + HEALTH_TIMEOUT), which renews it.
REFUSE_SECONDS = 3.0
HEALTH_TIMEOUT = 1.0   # a ping slower than this counts as Redis not answering (a hung server)
ACTIVE_INTERVAL = 15.0  # seconds between counts of active matches (a gauge)


class HealthServicer(health.aio.HealthServicer):
    """grpc's health service, but an open Watch ends when the server drains,
    once it has told the watcher the service is no longer SERVING (NOT_SERVING;
    SERVICE_UNKNOWN for a name never served): the watchers (clients with
    health checking on) know to go elsewhere, and an open watch no longer holds
    the drain for its whole grace period (PARLOR_DRAIN_SECONDS)."""

    LAST_WORD_SECONDS = 1.0  # at most this long for a watch to write its last status

    def __init__(self) -> None:
        super().__init__()
        self._draining = asyncio.Event()

    async def Watch(self, request: health_pb2.HealthCheckRequest, context) -> None:
        told = _Told(context)
        watching = asyncio.create_task(super().Watch(request, told))
        # (an error of the watch's after the drain began, e.g. its client gone, is of no interest)
        watching.add_done_callback(lambda task: task.cancelled() or task.exception())
        draining = asyncio.create_task(self._draining.wait())
        tasks = [watching, draining]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if watching.done():
                return watching.result()
            # The watch hears NOT_SERVING as the drain begins: let it write that.
            tasks.append(heard := asyncio.create_task(told.not_serving.wait()))
            await asyncio.wait({watching, heard}, timeout=self.LAST_WORD_SECONDS,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()

    async def enter_graceful_shutdown(self) -> None:
        await super().enter_graceful_shutdown()
        self._draining.set()


class _Told:
    """A call's context that notes when a status other than SERVING has been
    written to it (`not_serving` is set then; SERVING clears it)."""

    def __init__(self, context) -> None:
        self._context = context
        self.not_serving = asyncio.Event()

    async def write(self, response: health_pb2.HealthCheckResponse) -> None:
        await self._context.write(response)
        if response.status == health_pb2.HealthCheckResponse.SERVING:
            self.not_serving.clear()
        else:
            self.not_serving.set()

    def __getattr__(self, name: str):
        return getattr(self._context, name)


class RedisHealth:
    """Keeps the health of "" and parlor.v1.Parlor in step with Redis (SERVING
    only while Redis answers), tells the store (which fails calls at once while
    Redis does not answer), and keeps the active-matches gauge up to date."""

    def __init__(self, store: MatchStore, servicer: health.aio.HealthServicer,
                 abandoned_ttl: int) -> None:
        self.store = store
        self.servicer = servicer
        self.abandoned_ttl = abandoned_ttl
        self._tasks: list[asyncio.Task] = []
        self._follower: asyncio.Task | None = None  # asking the Sentinels where the master is
        self._silent = 0  # checks in a row that got no answer
        self._failed = 0  # checks in a row that failed, in any way (while any, the next comes sooner)
        self._served = False  # health has been SERVING at least once (it stays True)
        self.not_permitted: str | None = None  # why the Redis user may not run the check
        self._error: str | None = None  # the last check's unexpected failure, if it had one
        self.failure: str | None = None  # why the last check failed, for the log

    async def check(self) -> bool:
        silent = False  # no answer at all, as opposed to an error reply
        refused = None  # the Redis user may not run a command the check sends
        error = None  # an unexpected failure, as logged
        # With Sentinel, also where the master is now (a failover), in a task of
        # its own: the Sentinels' silence must neither fail nor slow the check.
        if self._follower is None or self._follower.done():
            self._follower = asyncio.create_task(self.store.follow_master(), name="sentinel-master")
        try:
            healthy = await asyncio.wait_for(self.store.ping(), HEALTH_TIMEOUT)
            self.failure = None if healthy else "an unexpected answer"
        except asyncio.TimeoutError:
            healthy, silent = False, True
            self.failure = f"no answer within {HEALTH_TIMEOUT} s"
        except ParlorError as exc:  # STORE_UNAVAILABLE: down, or an error reply such as BUSY
            healthy, silent = False, not isinstance(exc.__cause__, redis.ResponseError)
            self.failure = str(exc.__cause__ or exc)[:200]
        except Exception as exc:  # noqa: BLE001 (NOPERM, an unknown command, ...: not serving)
            error = f"{type(exc).__name__}: {exc}"
            self.failure = error[:200]
            if error != self._error:  # (once, not at every check while it lasts)
                log.warning("redis health check failed", extra={"error": error})
            healthy = False
            refused = str(exc) if isinstance(exc, redis.exceptions.NoPermissionError) else None
        self._error = error
        self.not_permitted = refused
        self._silent = self._silent + 1 if silent else 0
        # Two checks in a row without an answer (one late answer is no outage):
        # calls fail at once until the next check, with room to spare. A Redis
        # that answers with errors is left to answer the calls too.
        self.store.refuse_for(REFUSE_SECONDS if self._silent >= 2 else 0, self.failure)
        # Health, likewise, turns NOT_SERVING at the second failed check in a
        # row (it follows within RECOVERY_INTERVAL), or at once before Redis
        # ever answered: one slow answer must not turn away every call of
        # gateways that watch it (PARLOR_GATEWAY_HEALTH_CHECKING).
        self._failed = 0 if healthy else self._failed + 1
        serving = healthy or (self._served and self._failed < 2)
        self._served = self._served or healthy
        status = health_pb2.HealthCheckResponse.SERVING if serving \
            else health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME):
            await self.servicer.set(name, status)
        return serving

    async def start(self) -> None:
        """The first check (Redis not up yet: the service starts NOT_SERVING and
        keeps checking), then the checks every HEALTH_INTERVAL."""
        if not await self.check():
            log.warning("redis does not answer yet: NOT_SERVING until it does", extra={"error": self.failure})
        if self.not_permitted:
            raise SystemExit(f"The Redis user may not run a command Parlor needs ({self.not_permitted}); "
                             "see deploy/README.md for its ACL")
        self._tasks = [asyncio.create_task(self._run(), name="redis-health"),
                       asyncio.create_task(self._count(), name="active-matches")]

    def stop(self) -> None:
        for task in (*self._tasks, self._follower):
            if task is not None:
                task.cancel()

    async def _run(self) -> None:
        was = None
        while True:
            await asyncio.sleep(RECOVERY_INTERVAL if self._failed else HEALTH_INTERVAL)
            try:
                now = await self.check()
                if now != was and was is not None:
                    log.warning("redis health changed", extra={"serving": now, "error": self.failure})
                was = now
            except Exception:  # noqa: BLE001 (the checks must go on whatever happens)
                log.exception("redis health round failed")

    async def _count(self) -> None:
        """The active-matches gauge, on its own: a count that waits out Redis's
        socket timeout (Redis hung in the middle of it) must not hold up the
        health checks that notice it."""
        while True:
            counted = False
            if self._served and not self._failed:
                try:
                    metrics.ACTIVE.set(await self.store.count_active(time.time(), self.abandoned_ttl))
                    counted = True
                except ParlorError:
                    pass  # (the gauge waits for the next round)
                except Exception:  # noqa: BLE001 (the counts must go on whatever happens)
                    log.exception("counting active matches failed")
            await asyncio.sleep(ACTIVE_INTERVAL if counted else HEALTH_INTERVAL)


def _add_reflection(server: grpc.aio.Server, names: tuple[str, ...]) -> None:
    """Server reflection, as grpc.reflection.v1alpha (what grpcio-reflection
    ships) and as grpc.reflection.v1, which newer tools ask first: the two
    versions' messages are the same on the wire, so one servicer answers both.
    Both are listed, and both can be described."""
    _add_reflection_v1_descriptor(descriptor_pool.Default())
    servicer = reflection.aio.ReflectionServicer((*names, REFLECTION_V1),
                                                 pool=_MethodAwarePool(descriptor_pool.Default()))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    handlers = {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(REFLECTION_V1, handlers),))


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _add_reflection_v1_descriptor(pool) -> None:
    """grpc/reflection/v1/reflection.proto, for reflection to describe: the
    v1alpha file under v1's package (the two differ in nothing else)."""
    try:
        pool.FindServiceByName(REFLECTION_V1)
        return  # (added already)
    except KeyError:
        pass
    alpha, v1 = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    file.name, file.package = "grpc/reflection/v1/reflection.proto", "grpc.reflection.v1"
    file.ClearField("options")
    for message in file.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(alpha, v1)
    for method in file.service[0].method:
        method.input_type = method.input_type.replace(alpha, v1)
        method.output_type = method.output_type.replace(alpha, v1)
    pool.AddSerializedFile(file.SerializeToString())


class _MethodAwarePool:
    """The descriptor pool reflection answers from, able to find the file of a
    method too (`grpcurl describe parlor.v1.Parlor.SubmitAction` asks for it;
    upb's pool finds the file of a service or message, not of a method)."""

    def __init__(self, pool: descriptor_pool.DescriptorPool) -> None:
        self._pool = pool

    def __getattr__(self, name: str):
        return getattr(self._pool, name)

    def FindFileContainingSymbol(self, symbol: str):  # noqa: N802 (the pool's API)
        try:
            return self._pool.FindFileContainingSymbol(symbol)
        except KeyError:  # not a service or message: a method? (KeyError if not either)
            return self._pool.FindMethodByName(symbol).containing_service.file


# What a gRPC message may carry beyond PARLOR_MAX_BODY_BYTES: the gateway puts a
# REST body's fields into a message with the match id from the path (a URL line
# is at most ~4 KiB, gunicorn's limit), so a body the gateway accepts is never refused here.
MESSAGE_HEADROOM = 16 * 1024


def connection_age_grace(settings: Settings) -> int:
    """Seconds a connection past its maximum age stays open for the calls
    still on it: the longest of an event stream's life and the drain, plus
    a margin."""
    return max(settings.stream_seconds, settings.drain_seconds) + 10


async def create_server(settings: Settings, store: MatchStore, address: str | None = None,
                        shared_port: bool = False) -> tuple[grpc.aio.Server, int, RedisHealth, ParlorServicer]:
    """Builds and starts the server; returns it, its bound port, the health
    keeper (stop it before stopping the server) and the servicer (its
    `matches`, its calls in flight). `shared_port`: one of several processes
    on the port (processes.py)."""
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", settings.max_body_bytes + MESSAGE_HEADROOM),
            ("grpc.max_connection_age_ms", settings.max_connection_age * 1000),
            # Calls in flight when a connection reaches its age may finish: an
            # event stream may need its whole life (then it ends, OK, and the
            # client resumes on a new connection), so the grace is not the drain.
            ("grpc.max_connection_age_grace_ms", connection_age_grace(settings) * 1000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
            # gRPC binds with SO_REUSEPORT by default: a second service started on
            # a taken port would silently share its calls. Fail instead, unless
            # the port is shared on purpose (its processes' supervisor checked it).
            ("grpc.so_reuseport", 1 if shared_port else 0),
        ])
    servicer = ParlorServicer(Matches(store, settings), metrics.observe_rpc)
    add_to_server(servicer, server)
    health_servicer = HealthServicer()
    await health_servicer.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    _add_reflection(server, (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME))
    where = address or host_port(settings.host, settings.grpc_port)
    try:
        port = server.add_insecure_port(where)
    except RuntimeError:  # grpcio raises where older versions returned 0
        port = 0
    if port == 0:
        raise SystemExit(f"cannot listen on {where} (PARLOR_GRPC_PORT): is another process using the port?")
    keeper = RedisHealth(store, health_servicer, settings.abandoned_ttl)
    await keeper.start()
    await server.start()
    return server, port, keeper, servicer


async def drain(server: grpc.aio.Server, servicer: ParlorServicer, grace: float) -> None:
    """Stops `server`: no new calls; the calls in flight may finish within
    `grace` seconds. gRPC may hold a call that arrived as the server began
    stopping without ever handing it to a handler (seen on a busy machine):
    the stop then waited until that call's client gave up at its deadline, or
    for the whole grace, while the client waited. So once no handler has had
    a call for a moment, the calls left are cancelled: none of them ran."""
    stopping = asyncio.ensure_future(server.stop(grace))
    idle_checks = 0
    while not stopping.done():
        await asyncio.wait((stopping,), timeout=0.1)
        idle_checks = idle_checks + 1 if servicer.in_flight == 0 else 0
        if idle_checks >= 2 and not stopping.done():
            await server.stop(None)  # (the shortest grace given wins)
    await stopping


async def serve(settings: Settings, shared_port: bool = False) -> None:
    """One service process; `shared_port`: one of several (processes.py),
    whose supervisor serves their metrics."""
    settings.check_distinct_ports("PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT")
    # Live event streams hear of new events on a subscription of their own.
    store = MatchStore(connect(settings.redis_url), connect(settings.redis_url, pubsub=True),
                       settings.redis_max_connections)
    if not shared_port:
        try:  # first: a port in use stops the service before anything else started
            start_http_server(settings.metrics_port, addr=settings.host)
        except OSError as exc:
            raise cannot_listen(settings.host, settings.metrics_port, "PARLOR_METRICS_PORT", exc,
                                "serve metrics on") from None
    server, port, keeper, servicer = await create_server(settings, store, shared_port=shared_port)
    log.info("parlor service listening", extra={"grpc_port": port, "metrics_port": settings.metrics_port,
                                                "redis": redacted_url(settings.redis_url)})
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda sig=sig: (log.info("draining", extra={
            "signal": sig.name, "grace_seconds": settings.drain_seconds}), stopping.set()))
    await stopping.wait()
    keeper.stop()
    servicer.matches.draining.set()  # open event streams end now; clients resume with `after`
    await keeper.servicer.enter_graceful_shutdown()
    await drain(server, servicer, settings.drain_seconds)  # refuses new calls, lets in-flight ones finish
    await store.redis.aclose()
    await store.notices.close()
    log.info("parlor service stopped")


def main(shared_port: bool = False) -> None:
    """`parlor service`: one process, or with PARLOR_SERVICE_PROCESSES above 1,
    a supervisor of that many (processes.py); `shared_port`: one of those."""
    settings = Settings.from_env()
    logs.setup(settings.log_level)
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set (parlor dev starts an embedded Redis for you)")
    if settings.service_processes > 1 and not shared_port:
        from .processes import supervise
        sys.exit(supervise(settings))
    asyncio.run(serve(settings, shared_port))


if __name__ == "__main__":
    main()
