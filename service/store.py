"""The match store: the only code that talks to Redis.

Every key of a match carries its *shard*'s hash tag, `{p<c>}`, where <c> is the
first character of the match id (32 shards), so one Lua script touches the
match together with its shard's schedule and lobby atomically, and the same
code runs on Redis Cluster (the 32 shards are 32 slots). Only Redis 6.2 commands.

    parlor:{p<c>}:<id>:state    string b"<version>|" + the match record (opaque bytes)
    parlor:{p<c>}:<id>:events   stream entry n-0 is event n: field p = what everybody
                                sees, s<seat> = that seat's fuller version
    parlor:{p<c>}:<id>:actions  list   [seat, action, version] per accepted action (replays)
    parlor:{p<c>}:<id>:idem     hash   "<credential>:<key>" -> an action's idempotency
                                record; "join:<hash of key>" -> a join's
  per shard:
    parlor:{p<c>}:due           zset   match id -> when the worker has something to do
                                (a bot's move, a turn clock, bots filling seats), ms
    parlor:{p<c>}:claims        hash   match id -> times claimed since its last write
    parlor:{p<c>}:lobby:<status>[:<game>]  zset  public matches (WAITING, ACTIVE) -> created, ms
    parlor:{p<c>}:lobby:exp     zset   public match id -> when it expires, ms
    parlor:{p<c>}:lobby:info    hash   public match id -> its MatchSummary (bytes)
    parlor:{p<c>}:lobby:open    hash   public waiting match id -> open seats
    parlor:{p<c>}:quick:<cfg>[:resv|:creating|:idem]  quick match's open tables of one
                                configuration, their seat reservations, the lock of
                                the caller creating one, idempotency records
  and, for every shard at once:
    parlor:active               zset   started, unfinished match ids by start time (for
                                the active-matches gauge; not used to serve play)

Matches created before the shards (ids of the same shape) live under
`parlor:{<id>}:...` (the legacy layout): they are read and played there as
before, without what needs their shard (bots, clocks, the lobby).

A write is one script: compare the version (or that the match is new), then
write state, events, action and idempotency record, refresh every key's TTL,
apply the shard's updates the caller packed (schedule, lobby), and announce
the new events (PUBLISH on parlor:event-notices, which EventNotices hears for
live streams). A read is one round trip. The client is redis.asyncio: the
service runs on one event loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import re
import struct
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Sequence, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

import redis
import redis.asyncio as aredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import BusyLoadingError, ClusterError, RedisClusterException
from redis.maint_notifications import MaintNotificationsConfig

from parlor.common import logs
from parlor.common.config import TLS_FILE_OPTIONS, sentinel_hosts, topology
from parlor.common.errors import ParlorError

from . import metrics
from .games import GAMES

log = logging.getLogger(__name__)
T = TypeVar("T")

NOTICES = "parlor:event-notices"  # pub/sub channel: "new events in <events key>"
WORK_NOTICES = "parlor:work-notices"  # pub/sub channel: "the shard <c> has work due now" (workers)

# A version other than the expected one is answered with the match as it stands
# (its value), so that a caller who wrote from a record it kept (an action's
# one round trip, RecordCache.latest) can decide again without reading it.
# ARGV: expected version ("new": the match must not exist yet), new value, TTL
# ms, idempotency field and record ('' for none), action ('' for none), events,
# the time (Redis's clock, ms) after which the write must not happen, and the
# shard's updates. A script that waited in a stalled Redis's socket buffer past
# that time (the caller was told the store failed) writes nothing when Redis
# wakes up. The window is checked last, just before the write: a script that
# would write nothing anyway (the version moved on, or the same request's retry
# got there first) says so, and the caller re-reads and answers with what
# stands, not "not made". Events and updates come packed, one argument each
# (fewer arguments to encode per call): strings, each a 4-byte big-endian length
# and its bytes; per event the stream id, the field count, then field, value,
# ...; per update a command, its argument count, the index of its key in KEYS
# (from 5 on: the shard's keys), then its arguments. Last, after every write, the
# new events are announced on NOTICES (the message: the event stream's key) for
# live streams, and work due at once on WORK_NOTICES (ARGV[10], the shard) for
# the workers, with pcall: a Redis user not allowed to publish loses the
# announcement (streams then find the events at their next keep-alive, workers
# the work at their next look), never the write. A script is not rolled back on an error, so nothing that may fail
# comes before a write.
_COMMIT = """
redis.replicate_commands()
local cur = redis.call('GET', KEYS[1])
if ARGV[1] == 'new' then
  if cur then return 0 end
else
  if not cur then return 0 end
  if string.sub(cur, 1, string.find(cur, '|', 1, true) - 1) ~= ARGV[1] then return {0, cur} end
end
if ARGV[4] ~= '' and redis.call('HEXISTS', KEYS[4], ARGV[4]) == 1 then return 2 end
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[8]) then return 3 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
local packed, pos
local function take()
  local len, at = struct.unpack('>I4', packed, pos)
  pos = at + len
  return string.sub(packed, at, pos - 1)
end
packed, pos = ARGV[7], 1
while pos <= #packed do
  local cmd = {'XADD', KEYS[2], take()}
  for f = 1, tonumber(take()) * 2 do cmd[#cmd + 1] = take() end
  redis.call(unpack(cmd))
end
if ARGV[6] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[6]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[4], ARGV[4], ARGV[5]) end
for k = 2, 4 do redis.call('PEXPIRE', KEYS[k], ARGV[3]) end
packed, pos = ARGV[9], 1
while pos <= #packed do
  local cmd = {take()}
  local count = tonumber(take())
  cmd[2] = KEYS[tonumber(take())]
  for a = 1, count do cmd[#cmd + 1] = take() end
  redis.call(unpack(cmd))
end
if #ARGV[7] > 0 then redis.pcall('PUBLISH', '""" + NOTICES + """', KEYS[2]) end
if ARGV[10] ~= '' then redis.pcall('PUBLISH', '""" + WORK_NOTICES + """', ARGV[10]) end
return 1
"""

# The worker's claim on what is due in a shard: KEYS due, claims; ARGV lease ms,
# most items. Each due item is pushed a lease into the future (so that no other
# worker takes it meanwhile, and it comes due again should this worker die)
# and counted in claims; a write of the match clears the count (ShardOp), so a
# count above 1 is a claim whose lease ran out unfinished.
_CLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HINCRBY', KEYS[2], id, 1)
end
return out
"""

# The worker found nothing to do for a claimed match at the version it read
# (a player acted first, the clock was moved): its schedule is set to what that
# version has due, unless the match has moved on meanwhile (its write set the
# schedule then) or, for a match gone (ARGV[2] ''), has come back. KEYS state,
# due, claims; ARGV match id, version, due ms ('' for nothing due).
_RELEASE = """
local cur = redis.call('GET', KEYS[1])
if ARGV[2] == '' then
  if cur then return 0 end
elseif not cur or string.sub(cur, 1, string.find(cur, '|', 1, true) - 1) ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then redis.call('ZREM', KEYS[2], ARGV[1]) else redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

# Quick match: a seat at one of a configuration's open tables. KEYS tables (zset
# id -> created), reservations (zset "id|token" -> until), the creating lock,
# idempotency records, lobby:open, lobby:exp; ARGV reservation ms, token,
# idempotency field ('' for none), fingerprint, TTL ms. Answers {'again', record}
# for a key used before, {'join', id} with a seat reserved at a table with seats
# neither taken nor reserved, else {'create', ''} to the one caller that gets
# the lock (it creates the next table), {'wait', ''} to the others.
_QUICK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[3] ~= '' then
  local done = redis.call('HGET', KEYS[4], ARGV[3])
  if done then return {'again', done} end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local held = {}
for _, r in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local id = string.sub(r, 1, string.find(r, '|', 1, true) - 1)
  held[id] = (held[id] or 0) + 1
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, 19)) do
  local open = tonumber(redis.call('HGET', KEYS[5], id) or '0')
  local expires = tonumber(redis.call('ZSCORE', KEYS[6], id) or '0')
  if open <= 0 or expires <= now then
    redis.call('ZREM', KEYS[1], id)
  elseif open > (held[id] or 0) then
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), id .. '|' .. ARGV[2])
    redis.call('PEXPIRE', KEYS[2], ARGV[5])
    if ARGV[3] ~= '' then
      redis.call('HSET', KEYS[4], ARGV[3], ARGV[4] .. '|' .. id)
      redis.call('PEXPIRE', KEYS[4], ARGV[5])
    end
    return {'join', id}
  end
end
if redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', 2000) then return {'create', ''} end
return {'wait', ''}
"""

# Drops a shard's lobby entries of matches that expired (at most 100 a call).
# KEYS lobby:exp, lobby:info, lobby:open, then every lobby zset of the shard.
_PURGE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(gone) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
  for k = 4, #KEYS do redis.call('ZREM', KEYS[k], id) end
end
return #gone
"""


@dataclass(frozen=True)
class Stored:
    version: int
    record: bytes
    idempotency: bytes | None = None
    legacy: bool = False  # found under the first layout's keys (see keys())


@dataclass(frozen=True)
class ShardOp:
    """One update of a shard's keys (schedule, lobby) that a write makes with
    the match, in the same script: a Redis command on `key`, one of the
    match's shard's keys (shard_key)."""

    command: str
    key: str
    args: tuple[bytes | str | int, ...] = ()


@dataclass(frozen=True)
class NewEvent:
    """One event to append: `public` bytes for everybody, `private` per seat."""

    number: int
    public: bytes
    private: dict[int, bytes]


class WriteFailed(Exception):
    """A commit that failed in a way the caller must be told precisely."""

    warning = message = ""
    error: str | None = None


class TooLate(WriteFailed):
    """The write reached Redis after its window (WRITE_WINDOW_MS) and was not made."""

    warning = "redis too slow: write refused"
    message = "The match store was too slow to take the change, which was not made; try again shortly."


class Unconfirmed(WriteFailed):
    """The write went out and its answer was lost (a timeout, a connection
    closed): made before its window closed, or never."""

    warning = "redis unavailable"
    message = ("The match store did not confirm this change, so it may or may not have been made: "
               "re-read the match in a few seconds before trying again (a retry with the same "
               "Idempotency-Key is always safe).")

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


class Conflict(Exception):
    """The version moved on (or the match vanished) between read and write.
    `current`: the match as it stands (None if it is gone, or for a new
    match's id that is taken)."""

    def __init__(self, current: Stored | None = None) -> None:
        super().__init__()
        self.current = current


class DuplicateKey(Exception):
    """A concurrent request with the same idempotency key committed first."""


# A write starts in Redis within this long of being sent, or is not made at all
# (the script checks Redis's clock). Well inside the 5 s socket timeout, so that
# a write the service gave up on (and answered STORE_UNAVAILABLE for) cannot
# start later; it may have been made before, if Redis stalled between making it
# and answering.
WRITE_WINDOW_MS = 2500


ACTIVE_INDEX = "parlor:active"
_LENGTH = struct.Struct(">I")


def _pack(parts: Sequence[bytes | str]) -> bytes:
    """Strings as the scripts unpack them: each a 4-byte big-endian length and its bytes."""
    out = []
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out.append(_LENGTH.pack(len(data)) + data)
    return b"".join(out)


SHARDS = "abcdefghijklmnopqrstuvwxyz234567"  # a match id's first character names its shard


def keys(match_id: str, legacy: bool = False) -> tuple[str, str, str, str]:
    """The match's state, events, actions and idempotency keys; `legacy`: as
    matches created before the shards are stored."""
    tag = f"parlor:{{{match_id}}}" if legacy else f"parlor:{{p{match_id[0]}}}:{match_id}"
    return f"{tag}:state", f"{tag}:events", f"{tag}:actions", f"{tag}:idem"


def shard_key(shard: str, name: str) -> str:
    """A key of the shard `shard` (a character of SHARDS): in the same slot as
    its matches' keys."""
    return f"parlor:{{p{shard}}}:{name}"


LOBBY_STATUSES = ("WAITING", "ACTIVE")


def quick_key(shard: str, config: str, part: str = "") -> str:
    """A quick-match configuration's keys: its open tables, or `part` (resv,
    creating, idem)."""
    return shard_key(shard, f"quick:{config}" + (f":{part}" if part else ""))


def match_of(events_key: bytes) -> str:
    """The match id of an events key of either layout (as NOTICES carries it)."""
    text = events_key.decode("ascii", "replace").removesuffix(":events")
    return text.rpartition(":")[2].strip("{}")


def connect(url: str, pubsub: bool = False) -> aredis.Redis:
    """A client for REDIS_URL: redis://, rediss://, unix://, or
    redis+sentinel://[:pw@]host:port[,host:port]/<master>[/db], or
    redis+cluster://[:pw@]host:port (rediss+... with TLS for both). No
    automatic retries: the store decides what is safe to retry (reads) and
    what is not (writes). `pubsub`: a plain client for subscribing (with
    Cluster, to the node the URL names: a PUBLISH reaches every node)."""
    # Maintenance notifications (a RESP3 feature of managed Redis) stay off:
    # redis-py's "auto" default also turns off its check that a pooled
    # connection is still open, so the first calls after a Redis restart went
    # out on connections the old server had closed, and failed.
    no_notices = MaintNotificationsConfig(enabled=False)
    common = dict(socket_timeout=5, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0),
                  health_check_interval=15, maint_notifications_config=no_notices)
    kind, as_redis_py = topology(url)
    if kind == "sentinel":
        from redis.asyncio.sentinel import Sentinel

        parts = urlsplit(url)  # (checked by config._redis_url)
        path = [p for p in parts.path.split("/") if p]
        query = dict(parse_qsl(parts.query))
        db = query.get("db") or (path[1] if len(path) > 1 else "0")
        password = unquote(parts.password) if parts.password else None
        # TLS to the Sentinels and to the master alike
        tls = {"ssl": True, **{k: v for k, v in query.items() if k in TLS_FILE_OPTIONS}} \
            if url.startswith("rediss+") else {}
        # (sentinel_kwargs, once given, are all a Sentinel connection gets: its timeouts too)
        sentinel = Sentinel(sentinel_hosts(parts.netloc.rpartition("@")[2]), socket_timeout=2,
                            sentinel_kwargs={"password": password, "socket_timeout": 2,
                                             "socket_connect_timeout": 2, **tls})
        return sentinel.master_for(path[0], db=int(db), password=password, **tls, **common)
    if kind == "cluster":
        from redis.asyncio.cluster import RedisCluster

        if pubsub:
            return aredis.Redis.from_url(as_redis_py, **common)
        return RedisCluster.from_url(as_redis_py, **common)
    return aredis.Redis.from_url(url, **common)


_NOT_RUN = "The match store is unavailable; try again shortly."
SENTINEL_TIMEOUT = 5.0  # seconds follow_master() waits for the Sentinels (each is tried in turn)


def _store_errors(fn: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Redis failures as STORE_UNAVAILABLE, counted and logged (at most once a
    second); other errors (a bug of ours, such as an error in the script) pass."""
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except WriteFailed as exc:
            metrics.REDIS_ERRORS.labels(fn.__name__).inc()
            _warn(exc.warning, fn.__name__, exc.error)
            raise ParlorError("STORE_UNAVAILABLE", exc.message) from exc
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError, ClusterError,
                RedisClusterException) as exc:
            code = _reply_code(exc) if isinstance(exc, redis.ResponseError) \
                else "LOADING" if isinstance(exc, BusyLoadingError) else None  # (a ConnectionError in redis-py)
            if code is not None and code not in _UNAVAILABLE_REPLIES:
                raise
            metrics.REDIS_ERRORS.labels(fn.__name__).inc()
            _warn("redis unavailable", fn.__name__, str(exc))
            if code in _ELSEWHERE_REPLIES or _DEMOTED in str(exc):
                await args[0].reconnect()
            raise ParlorError("STORE_UNAVAILABLE", _NOT_RUN) from exc
    return wrapper


# Error replies that say Redis cannot serve now, not that the command was
# wrong: the command did not run (a script that is already running is never
# answered BUSY), so the caller may simply try again.
_UNAVAILABLE_REPLIES = frozenset({"BUSY", "LOADING", "CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "READONLY",
                                  "NOREPLICAS", "NOSCRIPT", "OOM", "MISCONF"})
# Of those, the replies of a server that is no longer (or not yet again) the
# primary, as after a failover: the connections to it are closed (reconnect()).
# Sentinel's client words READONLY its own way (_DEMOTED).
_ELSEWHERE_REPLIES = frozenset({"READONLY", "NOREPLICAS", "LOADING", "MASTERDOWN"})
_DEMOTED = "previous master is now a slave"
RECONNECT_EVERY = 1.0  # seconds: reconnect() closes connections at most this often

WARN_EVERY = 1.0  # seconds: at most one warning per kind and operation, with a count of the rest
_warned: dict[tuple[str, str], tuple[float, int]] = {}


def _warn(what: str, op: str, error: str | None = None) -> None:
    """Logs a store failure, at most once a second per kind and operation: in
    an outage every call fails, and a line each would flood the log (the
    metric parlor_redis_errors_total still counts every one)."""
    now = time.monotonic()
    last, unlogged = _warned.get((what, op), (-math.inf, 0))
    if now - last < WARN_EVERY:
        _warned[(what, op)] = (last, unlogged + 1)
        return
    _warned[(what, op)] = (now, 0)
    extra: dict[str, object] = {"op": op}
    if error is not None:
        extra["error"] = error
    if unlogged:
        extra["not_logged"] = unlogged  # alike failures in the second before this one
    log.warning(what, extra=extra)


def _reply_code(exc: redis.ResponseError) -> str:
    """An error reply's code (BUSY, OOM, ...): redis-py keeps it in status_code
    for the codes it knows, else it leads the message; Redis 6.2 wraps an error
    raised inside a script as "Error running script ... @user_script:9: -OOM ..."."""
    text = str(exc)
    wrapped = _IN_SCRIPT.search(text) if text.startswith("Error running script") else None
    return wrapped.group(1) if wrapped else getattr(exc, "status_code", None) or text.partition(" ")[0]


_IN_SCRIPT = re.compile(r"@user_script:\s*\d+:\s*-?([A-Z]+) ")


def _maybe_sent(exc: Exception) -> bool:
    """Whether a failed command may have reached Redis and run: not when no
    connection could be made (redis-py words those "Error ... connecting to
    ..." and "Timeout connecting to server"), Redis was loading its data
    (LOADING), or Sentinel's master had become a replica; otherwise it may have
    run, its answer lost. (A call the store refuses while Redis does not answer
    fails before it is sent, in _one_of_many, and never comes here.)"""
    text = str(exc)
    return not (isinstance(exc, BusyLoadingError)
                or (text.startswith("Error ") and " connecting to " in text)
                or text.startswith("Timeout connecting to ")
                or _DEMOTED in text)


def _one_of_many(fn: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Waits for one of the store's slots (PARLOR_REDIS_MAX_CONNECTIONS): at
    most that many commands are in flight at once, so a burst of calls cannot
    grow the connection pool past it; the rest wait their turn (or their
    deadline). While the health check finds Redis not answering (refuse_for),
    calls fail at once instead of waiting out the socket timeout, one after
    another; a call that gets an answer ends that at once."""
    @functools.wraps(fn)
    async def wrapper(self: "MatchStore", *args, **kwargs):
        self._check_answering()
        async with self._slots:
            self._check_answering()  # (again: it may have found out while this call waited)
            answer = await fn(self, *args, **kwargs)
            self._refuse_until = 0.0  # Redis answers
            return answer
    return wrapper


_NOT_ANSWERING = "Redis did not answer the last health checks"


def _retry_read(fn: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Reads change nothing, so one retry on a fresh connection is safe (a
    pooled connection can fail on its first use after a network blip). Not
    after a timeout: a Redis that did not answer in time will not answer the
    retry sooner, and the caller would wait twice as long for its error."""
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except redis.ConnectionError:
            return await fn(*args, **kwargs)
    return wrapper


class MatchStore:
    def __init__(self, client: aredis.Redis, pubsub: aredis.Redis | None = None,
                 max_connections: int = 64, clock: Callable[[], float] = time.time) -> None:
        """`pubsub`: a client to hear event notices on (connect(url, pubsub=True));
        without one, live streams hear nothing and re-read at each keep-alive.
        `max_connections`: match commands in flight at once, and so the
        connections they open (the health check's ping() goes around the limit,
        so that a busy store is not taken for a dead one). `clock`: the service's
        wall clock, in seconds (tests put it off)."""
        self.redis = client
        self._slots = asyncio.Semaphore(max_connections)
        # Until when (time.monotonic()) calls fail at once: see refuse_for().
        self._refuse_until = 0.0
        self._refused_because: str | None = None
        self._reconnected = -math.inf  # when reconnect() last closed connections (time.monotonic())
        self._sentinels_failing = False
        self._master: tuple[str, int] | None = None  # the master the Sentinels named last
        # Redis's clock minus ours, in ms, as the last ping() measured it: a
        # write's window is set on Redis's clock, however far ours is off.
        self.clock_offset_ms = 0.0
        self._clock = clock
        self.notices = EventNotices(pubsub)
        self._commit = client.register_script(_COMMIT)
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._quick = client.register_script(_QUICK)
        self._purge = client.register_script(_PURGE)

    def _check_answering(self) -> None:
        if self._refuse_until and time.monotonic() < self._refuse_until:
            raise redis.ConnectionError(f"{_NOT_ANSWERING} ({self._refused_because})"
                                        if self._refused_because else _NOT_ANSWERING)

    def refuse_for(self, seconds: float, because: str | None = None) -> None:
        """Told by the health check that Redis does not answer (`because`, as
        its last check saw it, for the log): calls fail at once for `seconds`
        (0: no longer), unless one gets an answer first. The check renews it
        while Redis stays silent; should the check itself stop, calls go to
        Redis again when it runs out."""
        self._refuse_until = time.monotonic() + seconds if seconds else 0.0
        self._refused_because = because

    async def reconnect(self) -> None:
        """Closes the idle connections (those in use close as they come back
        with the same answer), so that the next commands connect anew (with
        Sentinel, to the master the Sentinels name). After a READONLY answer:
        the server they reach became a replica, as after a failover behind one
        name (a managed Redis's primary endpoint, a Service in front of the
        primary), and PING answers there as ever. After NOREPLICAS: an old
        master that lost its replica to a promotion refuses writes
        (min-replicas-to-write) until it is made a replica itself. Cluster's
        client follows the slots."""
        now = time.monotonic()
        pool = getattr(self.redis, "connection_pool", None)
        if pool is None or now - self._reconnected < RECONNECT_EVERY:
            return  # (a burst of such answers closes the old connections once, not the new ones too)
        self._reconnected = now
        metrics.REDIS_RECONNECTS.inc()
        try:
            await pool.disconnect(inuse_connections=False)
        except Exception as exc:  # noqa: BLE001 (a close that timed out: the call still fails as it was)
            log.warning("redis connections not all closed", extra={"error": str(exc)[:200]})

    async def follow_master(self) -> None:
        """With Sentinel: asks the Sentinels which server is the master; once
        they name another, redis-py's pool closes the idle connections to the
        old one, and the next commands reach the new master, rather than the old
        one until it is made a replica, seconds later, with the writes it took
        lost. The health check calls it (one at a time), apart from its own
        timed checks: the Sentinels' silence or refusal is logged (when it
        starts and ends) and changes nothing else, since the master may answer
        all the same."""
        pool = getattr(self.redis, "connection_pool", None)
        if not hasattr(pool, "get_master_address"):
            return
        try:
            now = await asyncio.wait_for(pool.get_master_address(), SENTINEL_TIMEOUT)
            # (compared with what this asked last: a connection made meanwhile updates the pool's)
            if self._master is not None and now != self._master:
                log.warning("redis master moved", extra={"master": f"{now[0]}:{now[1]}"})
                self.notices.resubscribe()  # (its connection, in use, is not one of the idle ones)
            self._master = now
            if self._sentinels_failing:
                log.info("sentinels answer again")
            self._sentinels_failing = False
        except (redis.RedisError, asyncio.TimeoutError) as exc:
            if not self._sentinels_failing:
                log.warning("sentinels do not say which server is the master",
                            extra={"error": str(exc)[:200] or type(exc).__name__})
            self._sentinels_failing = True

    @_store_errors
    async def ping(self) -> bool:
        """Whether Redis answers; also measures its clock against ours (TIME).
        PING first: Redis answers TIME while it is still loading its data, but
        PING, like the match commands, with LOADING."""
        await self.redis.ping()
        sent = self._clock()
        seconds, microseconds = await self.redis.time()
        received = self._clock()
        self.clock_offset_ms = seconds * 1000 + microseconds / 1000 - (sent + received) * 500
        return True

    @_store_errors
    @_one_of_many
    @_retry_read
    async def load(self, match_id: str, idempotency_fields: Sequence[str] = ()) -> Stored | None:
        """The match's version and record (and the idempotency record under
        the first of `idempotency_fields` that holds one) in one round trip
        (two for a match of the legacy layout); None if there is no such match."""
        found = await self._load(match_id, idempotency_fields, False)
        if found is None:
            found = await self._load(match_id, idempotency_fields, True)
        return found

    async def _load(self, match_id: str, idempotency_fields: Sequence[str], legacy: bool) -> Stored | None:
        state, _, _, idem = keys(match_id, legacy)
        if not idempotency_fields:
            value, found = await self.redis.get(state), None
        else:
            pipe = self.redis.pipeline(transaction=False)
            pipe.get(state)
            for field in idempotency_fields:  # HGETs, not one HMGET: the documented ACL has HGET
                pipe.hget(idem, field)
            value, *records = await pipe.execute()
            found = next((record for record in records if record is not None), None)
        if value is None:
            return None
        version, _, record = value.partition(b"|")
        return Stored(int(version), record, found, legacy)

    @_store_errors
    @_one_of_many
    async def commit(self, match_id: str, expected_version: int | None, record: bytes, ttl_seconds: int,
                     events: Sequence[NewEvent] = (), action: bytes = b"",
                     idempotency: tuple[str, bytes] | None = None, shard_ops: Sequence[ShardOp] = (),
                     legacy: bool = False, work_now: bool = False) -> int:
        """Writes the next version if the stored one is still `expected_version`
        (None: a new match, at version 0, if the id is free), with the shard's
        updates `shard_ops`; `work_now`: the write leaves work due at once (a
        bot's turn), which the workers hear of. Raises Conflict (re-read and
        re-validate; for a new match, the id is taken) or DuplicateKey."""
        version = 0 if expected_version is None else expected_version + 1
        value = b"%d|%s" % (version, record)
        packed = []
        for event in events:
            packed += [b"%d-0" % event.number, b"%d" % (1 + len(event.private)), b"p", event.public]
            for seat, data in event.private.items():
                packed += [b"s%d" % seat, data]
        match_keys = list(keys(match_id, legacy))
        shard_keys: list[str] = []
        ops = []
        for op in shard_ops:
            if op.key not in shard_keys:
                shard_keys.append(op.key)
            ops += [op.command, b"%d" % len(op.args), b"%d" % (5 + shard_keys.index(op.key)),
                    *(a if isinstance(a, bytes) else str(a).encode() for a in op.args)]
        window_ends = self.now_ms() + WRITE_WINDOW_MS
        args = ["new" if expected_version is None else expected_version, value, ttl_seconds * 1000,
                idempotency[0] if idempotency else "", idempotency[1] if idempotency else "",
                action, _pack(packed), window_ends, _pack(ops), match_id[0] if work_now else ""]
        try:
            status = await self._commit(keys=match_keys + shard_keys, args=args)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            if _maybe_sent(exc):
                raise Unconfirmed(str(exc)) from exc
            raise
        if type(status) is list:
            version, _, current = status[1].partition(b"|")
            raise Conflict(Stored(int(version), current, None, legacy))
        if status == 0:
            raise Conflict()
        if status == 2:
            raise DuplicateKey()
        if status == 3:
            raise TooLate()
        return version

    @_store_errors
    @_one_of_many
    @_retry_read
    async def events(self, match_id: str, after: int, limit: int, seat: int | None,
                     until: int | None = None, legacy: bool = False) -> list[bytes]:
        """Events numbered after `after` (up to `until`), as `seat` sees them."""
        end = f"{until}-0" if until is not None else "+"
        entries = await self.redis.xrange(keys(match_id, legacy)[1], f"{after + 1}-0", end, count=limit)
        own = f"s{seat}".encode() if seat is not None else None
        return [fields.get(own) or fields[b"p"] for _, fields in entries]

    @_store_errors
    @_one_of_many
    @_retry_read
    async def actions(self, match_id: str, count: int, legacy: bool = False) -> list[bytes]:
        """The first `count` accepted actions (-1: all), oldest first."""
        if count == 0:
            return []
        return await self.redis.lrange(keys(match_id, legacy)[2], 0, count - 1 if count > 0 else -1)

    def now_ms(self) -> int:
        """Now on Redis's clock (as the last health check measured ours against
        it), in ms: due times, deadlines and lobby ages are all on one clock,
        whichever process writes them."""
        return int(self._clock() * 1000 + self.clock_offset_ms)

    # ---- the worker's schedule ------------------------------------------------------

    @_store_errors
    @_one_of_many
    async def claim(self, shard: str, lease_ms: int, most: int) -> list[tuple[str, int]]:
        """Claims up to `most` of the shard's items that are due (see _CLAIM):
        (match id, times claimed since its last write) each."""
        found = await self._claim(keys=[shard_key(shard, "due"), shard_key(shard, "claims")],
                                  args=[lease_ms, most])
        return [(found[i].decode(), int(found[i + 1])) for i in range(0, len(found), 2)]

    @_store_errors
    @_one_of_many
    async def release(self, match_id: str, version: int | None, due_ms: int | None,
                      legacy: bool = False) -> bool:
        """Sets a claimed match's schedule to `due_ms` (None: nothing due) as of
        `version` (None: the match is gone); False when it has moved on."""
        shard = match_id[0]
        return bool(await self._release(
            keys=[keys(match_id, legacy)[0], shard_key(shard, "due"), shard_key(shard, "claims")],
            args=[match_id, "" if version is None else version, "" if due_ms is None else due_ms]))

    @_store_errors
    @_one_of_many
    async def due_now(self, shard: str) -> tuple[int, int | None]:
        """The shard's items due now, and the due time of the oldest (ms), for metrics."""
        due = shard_key(shard, "due")
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcount(due, "-inf", self.now_ms())
        pipe.zrange(due, 0, 0, withscores=True)
        count, oldest = await pipe.execute()
        return count, int(oldest[0][1]) if oldest else None

    # ---- the lobby ---------------------------------------------------------------------

    @_store_errors
    @_one_of_many
    async def quick_seat(self, shard: str, config: str, token: str, reservation_ms: int,
                         idempotency: tuple[str, bytes] | None, ttl_ms: int) -> tuple[str, bytes]:
        """A seat reserved at an open table of a quick-match configuration (see
        _QUICK): ("join", match id), ("again", record), ("create", b"") or ("wait", b"")."""
        kind, found = await self._quick(
            keys=[quick_key(shard, config), quick_key(shard, config, "resv"),
                  quick_key(shard, config, "creating"), quick_key(shard, config, "idem"),
                  shard_key(shard, "lobby:open"), shard_key(shard, "lobby:exp")],
            args=[reservation_ms, token, idempotency[0] if idempotency else "",
                  idempotency[1] if idempotency else b"", ttl_ms])
        return kind.decode(), found

    @_store_errors
    @_one_of_many
    @_retry_read
    async def lobby_page(self, status: str, game: str, before: tuple[int, str] | None,
                         limit: int) -> tuple[list[tuple[int, str, bytes]], tuple[int, str] | None]:
        """Public matches of `status` (and `game`, unless empty), newest first
        (by creation, then id), those strictly older than `before` (created ms,
        id): (created ms, id, summary) each, and where the next page starts
        (None: this is the last). Every shard is asked for at most limit + 1
        entries, so a page costs O(limit), however many matches wait; entries
        of expired matches are left out (so a page may hold fewer)."""
        name = f"lobby:{status}:{game}" if game else f"lobby:{status}"
        pipe = self.redis.pipeline(transaction=False)
        for shard in SHARDS:
            key = shard_key(shard, name)
            if before is None:
                pipe.zrevrangebyscore(key, "+inf", "-inf", start=0, num=limit + 1, withscores=True)
            else:
                pipe.zrevrangebyscore(key, f"({before[0]}", "-inf", start=0, num=limit + 1, withscores=True)
                pipe.zrangebyscore(key, before[0], before[0], withscores=True)  # the same ms: by id
        found = []
        for entries in await pipe.execute():
            for member, score in entries:
                entry = (int(score), member.decode())
                if before is None or entry < before:
                    found.append(entry)
        found.sort(reverse=True)
        page = found[:limit]
        cursor = page[-1] if len(found) > limit else None
        if not page:
            return [], None
        pipe = self.redis.pipeline(transaction=False)
        for created, match_id in page:
            pipe.hget(shard_key(match_id[0], "lobby:info"), match_id)
            pipe.zscore(shard_key(match_id[0], "lobby:exp"), match_id)
        looked = await pipe.execute()
        now = self.now_ms()
        out, expired = [], set()
        for (created, match_id), info, expires in zip(page, looked[::2], looked[1::2]):
            if info is None or expires is None or expires <= now:
                expired.add(match_id[0])
                continue
            out.append((created, match_id, info))
        for shard in expired:
            await self._purge_lobby(shard)
        return out, cursor

    async def _purge_lobby(self, shard: str) -> int:
        """Drops the shard's lobby entries of expired matches (see _PURGE)."""
        zsets = [shard_key(shard, f"lobby:{status}{suffix}") for status in LOBBY_STATUSES
                 for suffix in ("", *(f":{game}" for game in GAMES))]
        return await self._purge(keys=[shard_key(shard, "lobby:exp"), shard_key(shard, "lobby:info"),
                                       shard_key(shard, "lobby:open"), *zsets])

    @_store_errors
    @_one_of_many
    async def mark_started(self, match_id: str, now: float) -> None:
        await self.redis.zadd(ACTIVE_INDEX, {match_id: now})

    @_store_errors
    @_one_of_many
    async def mark_finished(self, match_id: str) -> None:
        await self.redis.zrem(ACTIVE_INDEX, match_id)

    @_store_errors
    @_one_of_many
    async def count_active(self, now: float, abandoned_after: int) -> int:
        """Started, unfinished matches; forgets those started before the
        abandoned TTL (they expired unless still played, which is rare)."""
        await self.redis.zremrangebyscore(ACTIVE_INDEX, "-inf", now - abandoned_after)
        return await self.redis.zcard(ACTIVE_INDEX)


class EventNotices:
    """Wakes this process's live streams when their match has new events.

    The commit script publishes the events key on NOTICES after writing; one
    subscription per process hears every notice and sets the asyncio.Event of
    each stream watching that match. A stream holds no Redis connection while
    it waits, so leaving (a client hanging up, a drain) is plain task
    cancellation. The subscription runs only while some stream watches (with
    none, notices cost this process nothing) and is remade after a Redis
    outage. Notices can be missed (during an outage, before the subscription
    is made): streams re-read at every keep-alive anyway, so a missed notice
    delays events, never loses them.
    """

    RETRY_SECONDS = (1.0, 30.0)  # first and longest wait before subscribing again

    def __init__(self, client: aredis.Redis | None) -> None:
        self._client = client
        self._watchers: dict[str, set[asyncio.Event]] = {}  # by match id
        self._epochs: dict[str, object] = {}  # per watched match: replaced with each notice
        self._listener: asyncio.Task | None = None
        self._subscribed = asyncio.Event()
        self._failing = False  # the last subscription attempt failed
        self._moved = False  # resubscribe() asked for a subscription anew

    async def watch(self, match_id: str, wait_seconds: float = 1.0) -> asyncio.Event:
        """An event set whenever `match_id` gets new events, from now on;
        unwatch() it when done. Waits up to `wait_seconds` for the
        subscription, so that what the caller reads next is not missed."""
        notice = asyncio.Event()
        self._watchers.setdefault(match_id, set()).add(notice)
        if self._client is not None:
            if self._listener is None or self._listener.done():
                self._listener = asyncio.create_task(self._listen(), name="event-notices")
            if self._failing:
                return notice  # no waiting on a subscription that keeps failing
            try:
                await asyncio.wait_for(self._subscribed.wait(), wait_seconds)
            except asyncio.TimeoutError:
                pass  # Redis slow or away: the keep-alive re-reads cover it
            except BaseException:  # the caller left meanwhile
                self.unwatch(match_id, notice)
                raise
        return notice

    def resubscribe(self) -> None:
        """Makes the subscription anew (its connection is closed and opened
        again): after a Sentinel failover, to the new master, which the
        commits publish on; the old one hears nothing until it is made a
        replica, seconds later."""
        self._moved = True

    def unwatch(self, match_id: str, notice: asyncio.Event) -> None:
        waiting = self._watchers.get(match_id)
        if waiting is not None:
            waiting.discard(notice)
            if not waiting:
                del self._watchers[match_id]
                self._epochs.pop(match_id, None)

    def epoch(self, match_id: str) -> object:
        """A token that changes whenever a notice of new events in `match_id`
        arrives (or may have been missed): a read begun in an earlier epoch
        may predate the news."""
        epoch = self._epochs.get(match_id)
        if epoch is None:
            epoch = self._epochs[match_id] = object()
        return epoch

    async def close(self) -> None:
        """After the last stream ended: lets the subscription wind down, then
        closes the client."""
        if self._listener is not None:
            await asyncio.wait({self._listener}, timeout=3)
            self._listener.cancel()
        if self._client is not None:
            await self._client.aclose()

    def _wake(self, events_key: bytes | None) -> None:
        """Wakes the streams of the match whose events key came in a notice
        (None: of every match)."""
        woken = [match_of(events_key)] if events_key is not None else list(self._watchers)
        for k in woken:
            if k in self._watchers:
                self._epochs[k] = object()  # before the streams run: see epoch()
                for notice in self._watchers[k]:
                    notice.set()

    async def _listen(self) -> None:
        """Subscribes while anybody watches. Polls with a timeout rather than
        being cancelled: a cancelled redis-py read can leave its connection
        behind in Redis."""
        logs.request_id.set("")  # its log lines belong to no request
        wait = self.RETRY_SECONDS[0]
        while self._watchers:
            pubsub = self._client.pubsub()
            self._moved = False
            try:
                await pubsub.subscribe(NOTICES)
                while self._watchers and not self._moved:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message["type"] == "message":
                        self._wake(message["data"])
                    elif message["type"] == "subscribe":  # Redis confirms: notices flow from now
                        self._subscribed.set()
                        if self._failing:
                            log.warning("event notices back")
                        wait, self._failing = self.RETRY_SECONDS[0], False
                        self._wake(None)  # anything written while unsubscribed: look again
            except Exception as exc:  # noqa: BLE001 (Redis away, not allowed, ...: try again)
                if not self._failing:  # once per outage, not once per retry
                    log.warning("event notices lost: live streams fall back to re-reading at "
                                "each keep-alive until the subscription is back",
                                extra={"error": str(exc)})
                self._failing = True
                self._wake(None)  # streams look for themselves meanwhile (and meet any error)
                await asyncio.sleep(wait)
                wait = min(wait * 2, self.RETRY_SECONDS[1])
            finally:
                self._subscribed.clear()
                try:
                    await pubsub.aclose()
                except Exception:  # noqa: BLE001 (a broken connection: nothing to close)
                    pass
