"""`parlor worker`: runs what matches have due: bots' moves, turn clocks that
ran out, bots filling quick-match tables (see schedule.py).

Any number of workers share one Redis. Each looks at every shard's schedule
every PARLOR_WORKER_POLL_MS (for turn clocks), and at once at a shard whose
write left work due now (a bot's turn: a notice on parlor:work-notices), and
claims what is due with a lease (store.claim: the item is pushed a lease into
the future, so no other worker takes it meanwhile, and it comes due again if
this worker dies before it is done), then does it through the service's own
code (Matches.work): the same version-checked writes as a client's call, so a
move made late, or by two workers at once, is refused rather than made twice.

The worker runs the engines itself rather than calling the gRPC service: a
bot's move needs the match record (its seat's view, the generator from the
seed), which the API rightly never hands out, and one write per move is all it
costs. The service stays stateless and does no background work.

Health on PARLOR_WORKER_PORT: /healthz (the process runs), /readyz (Redis
answers), /metrics (Prometheus).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time

import redis.asyncio as aredis
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, generate_latest

from parlor.common import logs
from parlor.common.config import Settings, cannot_listen, redacted_url
from parlor.common.errors import ParlorError

from . import metrics  # noqa: F401 (the service's value class: metrics kept in memory)
from .matches import Matches
from .store import SHARDS, WORK_NOTICES, MatchStore, connect

log = logging.getLogger(__name__)

HEALTH_INTERVAL = 2.0   # seconds between Redis pings
HEALTH_TIMEOUT = 1.0    # a ping slower than this counts as Redis not answering
GAUGE_INTERVAL = 5.0    # seconds between counts of what is due

MOVES = Counter("parlor_worker_moves_total",
                "What workers did, by kind: fill (bots took a quick-match table's open seats), bot "
                "(a bot's move), timeout (a turn clock ran out: the default move, or a bot took the seat).",
                ["kind"])
LEASE_EXPIRIES = Counter("parlor_worker_lease_expiries_total",
                         "Items claimed again after an earlier claim's lease ran out unfinished (a worker "
                         "died or stalled).")
DUE = Gauge("parlor_worker_due_items", "Items due now and not yet claimed, over every shard "
            "(as this worker last counted them).")
OLDEST = Gauge("parlor_worker_oldest_due_seconds",
               "How long the oldest due item has waited (0: none), as this worker last looked.")
FAILURES = Counter("parlor_worker_failures_total",
                   "Items whose work failed (Redis unavailable, ...): they come due again after the lease.")


class Worker:
    def __init__(self, settings: Settings, store: MatchStore, notices: aredis.Redis | None = None) -> None:
        """`notices`: a client to hear of work due at once on (store.connect(url,
        pubsub=True)); without one, the worker finds it at its next look."""
        self.settings = settings
        self.store = store
        self.matches = Matches(store, settings)
        self.ready = False
        self.stopping = asyncio.Event()
        self._working: set[asyncio.Task] = set()
        self._busy: set[str] = set()  # match ids a task of this worker is working on
        self._notices = notices
        self._heard: set[str] = set()  # shards announced to have work due now
        self._woken = asyncio.Event()

    async def run(self) -> None:
        """Claims and works until stop(); then lets the work in hand finish
        (up to PARLOR_DRAIN_SECONDS: what is left comes due again after its
        lease, for another worker)."""
        tasks = [asyncio.create_task(self._health()), asyncio.create_task(self._gauges())]
        if self._notices is not None:
            tasks.append(asyncio.create_task(self._listen()))
        poll = self.settings.worker_poll_ms / 1000
        looked = -poll
        loop = asyncio.get_running_loop()
        try:
            while not self.stopping.is_set():
                # Every shard at each poll; between polls, the shards announced to have work.
                every = loop.time() - looked >= poll
                shards = SHARDS if every else sorted(self._heard)
                self._heard.clear()
                self._woken.clear()
                if every:
                    looked = loop.time()
                claimed = await self._claim_round(shards) if self.ready else 0
                if not claimed:  # (else more may be due at once: look again)
                    await self._wait(max(0.0, looked + poll - loop.time()))
        finally:
            for task in tasks:
                task.cancel()
            if self._working:
                await asyncio.wait(self._working, timeout=self.settings.drain_seconds)

    def stop(self) -> None:
        self.stopping.set()
        self._woken.set()

    async def _wait(self, seconds: float) -> None:
        """Until the next poll, a notice of work, or the stop."""
        try:
            await asyncio.wait_for(self._woken.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def _listen(self) -> None:
        """Hears of work due at once (a bot's turn): the shard it is in is
        looked at without waiting for the next poll. Missed notices (Redis
        away, a user not allowed to subscribe) only delay work to the poll."""
        while True:
            pubsub = self._notices.pubsub()
            try:
                await pubsub.subscribe(WORK_NOTICES)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message["type"] == "message":
                        self._heard.add(message["data"].decode()[:1])
                        self._woken.set()
            except Exception as exc:  # noqa: BLE001 (Redis away: try again; polls go on meanwhile)
                log.warning("work notices lost: polling only", extra={"error": str(exc)[:200]})
                await asyncio.sleep(1.0)
            finally:
                try:
                    await pubsub.aclose()
                except Exception:  # noqa: BLE001
                    pass

    async def _claim_round(self, shards) -> int:
        """Claims from `shards` as much as there is room for; returns how many
        items it took."""
        room = self.settings.worker_concurrency - len(self._working)
        if room <= 0:
            return 0
        lease_ms = self.settings.worker_lease * 1000
        taken = 0
        for shard in shards:
            if room - taken <= 0:
                break
            try:
                claimed = await self.store.claim(shard, lease_ms, room - taken)
            except ParlorError:
                return taken  # Redis away: the health check says so; try again next poll
            for match_id, times in claimed:
                taken += 1
                if times > 1:
                    LEASE_EXPIRIES.inc()
                if match_id in self._busy:
                    continue  # (ours already: its task sets the schedule when done)
                self._start(match_id)
        return taken

    def _start(self, match_id: str) -> None:
        self._busy.add(match_id)
        task = asyncio.create_task(self._work(match_id))
        self._working.add(task)
        task.add_done_callback(self._working.discard)

    async def _work(self, match_id: str) -> None:
        logs.request_id.set(f"worker-{match_id[:8]}")
        try:
            for kind in await self.matches.work(match_id):
                MOVES.labels(kind).inc()
        except ParlorError as err:  # the store failed: the item comes due again after its lease
            FAILURES.inc()
            log.warning("work failed", extra={"match_id": match_id, "code": err.code})
        except Exception:  # noqa: BLE001 (a bug: logged; the item comes due again)
            FAILURES.inc()
            log.exception("work failed", extra={"match_id": match_id})
        finally:
            self._busy.discard(match_id)

    async def _health(self) -> None:
        """Readiness follows Redis (and measures its clock against ours, for due times)."""
        while True:
            try:
                await asyncio.wait_for(self.store.ping(), HEALTH_TIMEOUT)
                if not self.ready:
                    log.info("redis answers: working")
                self.ready = True
            except (ParlorError, asyncio.TimeoutError, OSError) as exc:
                if self.ready:
                    log.warning("redis does not answer: not working", extra={"error": str(exc)[:200]})
                self.ready = False
            await asyncio.sleep(HEALTH_INTERVAL)

    async def _gauges(self) -> None:
        while True:
            await asyncio.sleep(GAUGE_INTERVAL)
            if not self.ready:
                continue
            try:
                counts = await asyncio.gather(*(self.store.due_now(shard) for shard in SHARDS))
            except ParlorError:
                continue
            DUE.set(sum(count for count, _ in counts))
            oldest = [at for count, at in counts if count and at is not None]
            OLDEST.set(max(0.0, (self.store.now_ms() - min(oldest)) / 1000) if oldest else 0)


async def _serve_health(worker: Worker, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """/healthz, /readyz and /metrics, over a minimal HTTP/1.0."""
    try:
        line = await asyncio.wait_for(reader.readline(), 5)
        while (await asyncio.wait_for(reader.readline(), 5)).strip():
            pass  # the headers: not read
        path = line.split()[1].decode("latin1") if len(line.split()) > 1 else ""
        if path == "/metrics":
            status, body, ctype = 200, generate_latest(), CONTENT_TYPE_LATEST
        elif path == "/healthz":
            status, body, ctype = 200, b'{"status": "ok"}', "application/json"
        elif path == "/readyz":
            status = 200 if worker.ready and not worker.stopping.is_set() else 503
            body = b'{"status": "ok"}' if status == 200 else b'{"status": "redis unavailable"}'
            ctype = "application/json"
        else:
            status, body, ctype = 404, b'{"status": "not found"}', "application/json"
        reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[status]
        writer.write(f"HTTP/1.0 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
                     f"Connection: close\r\n\r\n".encode() + body)
        await writer.drain()
    except (asyncio.TimeoutError, OSError, IndexError):
        pass
    finally:
        writer.close()


async def serve(settings: Settings) -> None:
    store = MatchStore(connect(settings.redis_url), None, settings.redis_max_connections)
    notices = connect(settings.redis_url, pubsub=True)
    worker = Worker(settings, store, notices)
    try:
        server = await asyncio.start_server(lambda r, w: _serve_health(worker, r, w), settings.host,
                                            settings.worker_port)
    except OSError as exc:
        raise cannot_listen(settings.host, settings.worker_port, "PARLOR_WORKER_PORT", exc) from None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, worker.stop)
    log.info("parlor worker running", extra={"port": settings.worker_port, "redis": redacted_url(settings.redis_url)})
    started = time.monotonic()
    try:
        await worker.run()
    finally:
        server.close()
        await store.redis.aclose()
        await notices.aclose()
        log.info("parlor worker stopped", extra={"seconds": round(time.monotonic() - started, 1)})


def main() -> None:
    settings = Settings.from_env()
    logs.setup(settings.log_level)
    if not settings.redis_url:
        raise SystemExit("parlor worker needs REDIS_URL (the Redis the service uses)")
    asyncio.run(serve(settings))


if __name__ == "__main__":
    main()
