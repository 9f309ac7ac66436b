"""Settings, read once from the environment (12-factor). Every variable is listed
in the README's configuration table; keep the two in step."""

from __future__ import annotations

import errno
import math
import os
import re
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from redis.connection import parse_url

MIN_BODY_BYTES = 1024  # the smallest PARLOR_MAX_BODY_BYTES allowed


MAX_BODY_BYTES = 64 * 1024 * 1024
HOUR, DAY = 3600, 86_400


def _int(name: str, default: int, minimum: int = 0, maximum: int = 2**31 - 1) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not re.fullmatch(r"-?[0-9]+", raw):  # (int() would also take "1_000", "+5", "٣")
        raise SystemExit(f"{name} must be an integer, not {raw!r}")
    value = int(raw)
    if value < minimum:
        raise SystemExit(f"{name} must be at least {minimum}, not {value}")
    if value > maximum:
        raise SystemExit(f"{name} must be at most {maximum}, not {value}")
    return value


def _port(name: str, default: int) -> int:
    return _int(name, default, minimum=1, maximum=65_535)


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level(name: str) -> str:
    level = (os.environ.get(name, "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise SystemExit(f"{name} must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return level


REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+sentinel", "rediss+sentinel", "redis+cluster", "rediss+cluster")


def topology(url: str) -> tuple[str, str]:
    """What a REDIS_URL names, "sentinel", "cluster" or "" (one server), and
    the URL as redis-py reads it: a cluster's under the scheme of one of its
    nodes (redis:// or rediss://), the others as they are."""
    scheme, _, rest = url.partition("://")
    base, _, kind = scheme.partition("+")
    return kind, f"{base}://{rest}" if kind == "cluster" else url


def _redis_url(name: str) -> str:
    """REDIS_URL, if set: one of the schemes connect() reads, with any database
    number (after the host, after a Sentinel master's name, or `?db=`) and any
    Sentinel port a number, and for Sentinel a master's name."""
    url = os.environ.get(name, "").strip()
    if not url:
        return url
    scheme, sep, _ = url.partition("://")
    if not sep or scheme not in REDIS_SCHEMES:
        raise SystemExit(f"{name} must start with one of {', '.join(s + '://' for s in REDIS_SCHEMES)}"
                         f" (see the README), not {redacted_url(url)!r}")
    try:
        parts = urlsplit(url)  # (as redis-py reads it: the host part ends at the first / ? or #)
    except ValueError as exc:  # an unclosed [ of an IPv6 address
        raise SystemExit(f"{name}: {exc} (see the README)") from None
    # An @ after the host part: a password holding ? or # not percent-encoded,
    # its end taken for query options (and quoting them would show it); but
    # ?password= and ?username= may hold one (a unix:// URL's credentials).
    query = parse_qsl(parts.query, keep_blank_values=True)
    if "@" in parts.fragment or any("@" in key or ("@" in value and key.lower() not in ("password", "username"))
                                    for key, value in query):
        raise SystemExit(f"{name}: a password holding / ? # or @ must have it percent-encoded, e.g. %2F "
                         "(see the README)")
    given = [key for key, _ in query]
    twice = sorted({key for key in given if given.count(key) > 1})
    if twice:  # (checked here as the last, read by redis-py as the first)
        raise SystemExit(f"{name}: ?{twice[0][:20]}= is given more than once")
    hosts = parts.netloc.rpartition("@")[2]
    steps = [step for step in parts.path.split("/") if step]
    kind, as_redis_py = topology(url)
    if kind == "sentinel":
        if not steps:
            raise SystemExit(f"{name}: {scheme}:// needs /<master-name> after the hosts")
        try:
            sentinel_hosts(hosts)
        except ValueError:
            raise SystemExit(f"{name}: each Sentinel must be host or host:port, the port a number "
                             "(an IPv6 address in brackets)") from None
        options = dict(query)
        read = ("db", *TLS_FILE_OPTIONS) if scheme == "rediss+sentinel" else ("db",)
        other = sorted(set(options) - set(read))
        if other:
            raise SystemExit(f"{name}: {scheme}:// reads no query parameter but "
                             f"{', '.join('?' + key for key in read)} (not {', '.join(key[:20] for key in other)})")
        _check_tls_files(name, options)
        steps = steps[1:]
    databases = [value for key, value in query if key == "db"]
    if scheme != "unix":
        databases += steps
    if not all(db.isdigit() for db in databases):  # (a "/" in a password, not percent-encoded, lands here)
        raise SystemExit(f"{name}: the database after the host must be a number, as must ?db= (a password "
                         "holding / ? # or @ must have it percent-encoded, e.g. %2F)")
    if kind == "cluster" and any(int(db) != 0 for db in databases):
        raise SystemExit(f"{name}: Redis Cluster has only database 0")
    if kind != "sentinel":  # the rest as redis-py reads it: port, host, query options
        try:
            read = parse_url(as_redis_py)
        except ValueError as exc:  # (its messages quote no password)
            raise SystemExit(f"{name}: {exc} (see the README)") from None
        if not read.get("path" if scheme == "unix" else "host"):
            raise SystemExit(f"{name}: no {'socket path' if scheme == 'unix' else 'host'} in it (see the README)")
        _check_redis_options(name, as_redis_py)
    return url


# Options of a rediss:// URL that name files: the CA that vouches for the
# server's certificate, and the client's own certificate and key.
TLS_FILE_OPTIONS = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile")


def _check_redis_options(name: str, url: str) -> None:
    """Refuses query options that redis-py's connections do not take (it would
    raise at the first connection, leaving the service NOT_SERVING for good),
    those that change what the store reads (replies as text, RESP3), and TLS
    files this process cannot read."""
    from redis import asyncio as aredis

    options = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
    resp3 = options.get("protocol", "2").strip().lstrip("0") != "2"  # (redis-py reads 02 as 2)
    if "decode_responses" in options or resp3:
        option = "decode_responses" if "decode_responses" in options else "protocol"
        raise SystemExit(f"{name}: ?{option}={options[option][:20]} is not for this service "
                         "(it reads Redis's replies as bytes, in RESP2); leave it out")
    try:
        aredis.ConnectionPool.from_url(url).make_connection()  # (builds the connection; opens nothing)
    except TypeError as exc:  # an option no connection of this scheme takes
        unknown = re.search(r"argument '([^']*)'", str(exc))
        raise SystemExit(f"{name}: redis-py reads no option ?{unknown.group(1) if unknown else ''} for a "
                         "URL of this scheme (see redis-py's from_url for those it reads)") from None
    except Exception as exc:  # noqa: BLE001 (a value it cannot use: ValueError, RedisError, ...)
        password = urlsplit(url).password
        said = str(exc) if not password or password not in str(exc) else type(exc).__name__
        raise SystemExit(f"{name}: an option's value is not one redis-py can use: {said[:200]} "
                         "(see the README)") from None
    _check_tls_files(name, options)


def _check_tls_files(name: str, options: dict[str, str]) -> None:
    """redis-py reads these files only at the first connection: one not
    mounted, or not a certificate or key it can use, left the service
    NOT_SERVING for good, the cause only in its log. They are read here as
    redis-py will read them."""
    for option in TLS_FILE_OPTIONS:
        path = options.get(option)
        if path is not None and not (os.path.isfile(path) and os.access(path, os.R_OK)):
            why = ("no such file" if not os.path.exists(path) else "not a file" if not os.path.isfile(path)
                   else "not readable by this process")
            raise SystemExit(f"{name}: ?{option}={path[:200]} cannot be read ({why}); "
                             "is the volume holding it mounted there?")
    ca, cert, key = (options.get(option) for option in TLS_FILE_OPTIONS)
    if key is not None and cert is None:
        raise SystemExit(f"{name}: ?ssl_keyfile= needs ?ssl_certfile=, the certificate it is the key of")
    context = ssl.create_default_context()
    if ca is not None:
        try:
            context.load_verify_locations(cafile=ca)
        except (ssl.SSLError, ValueError) as exc:
            raise SystemExit(f"{name}: ?ssl_ca_certs={ca[:200]} holds no CA certificate in PEM form "
                             f"({str(exc)[:100]})") from None
    if cert is not None:
        try:
            context.load_cert_chain(cert, key, password=options.get("ssl_password"))
        except (ssl.SSLError, ValueError) as exc:
            raise SystemExit(f"{name}: ?ssl_certfile={cert[:200]}" + (f" and ?ssl_keyfile={key[:200]}" if key else "")
                             + f" are not a certificate and its key in PEM form, one matching the other "
                             f"({str(exc)[:100]})") from None


def sentinel_hosts(hosts: str) -> list[tuple[str, int]]:
    """The Sentinels of a redis+sentinel:// URL, from its host part (after any
    password): comma-separated host[:port], an IPv6 address in brackets, port
    26379 when none is given. ValueError for one that is none of these."""
    found = []
    for item in hosts.split(","):
        if item.startswith("["):
            host, _, rest = item[1:].partition("]")
            sep, port = rest[:1], rest[1:]
            if sep not in ("", ":"):
                raise ValueError(item)
        else:
            host, sep, port = item.rpartition(":")
            if not sep:
                host = item
        if not host or sep and not (port.isdigit() and 0 < int(port) < 65536):
            raise ValueError(item)
        found.append((host, int(port) if sep else 26379))
    return found


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise SystemExit(f"{name} must be 1 or 0 (or true/false, yes/no, on/off), not {raw!r}")


# Channel options of Parlor's own clients of the service (the gateway, bots):
# after a restart of the service, try again soon (at most a second apart); and
# call it directly, since a proxy named by http_proxy or grpc_proxy (which gRPC
# would otherwise use) is never meant for calls to the service.
CLIENT_CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
    ("grpc.enable_http_proxy", 0),
)

# gRPC target schemes (name resolvers) grpcio has; anything else is host:port.
_TARGET_SCHEMES = ("dns", "unix", "unix-abstract", "ipv4", "ipv6")
_HOST_PORT = re.compile(r"(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]@]+):([0-9]{1,5})")


def _service_target(name: str, default: str) -> str:
    """A gRPC target: host:port, dns:[//authority/]host:port, or one of the other
    resolvers' (unix:path, ipv4:..., ...). gRPC takes anything and then only
    fails to connect, or dials port 443 when none is given."""
    target = os.environ.get(name, "").strip() or default
    scheme, _, rest = target.partition(":")
    if scheme in _TARGET_SCHEMES:
        if scheme != "dns":
            if rest:
                return target
        else:
            address = re.sub(r"^//[^/]*/", "", rest)
            port = _HOST_PORT.fullmatch(address)
            if port and 0 < int(port[1]) < 65536:
                return target
    elif "://" not in target:
        port = _HOST_PORT.fullmatch(target)
        if port and 0 < int(port[1]) < 65536:
            return target
    raise SystemExit(f"{name} must be a gRPC target such as localhost:50051 or dns:///parlor-service:50051 "
                     f"(a host and a port), not {target[:100]!r}")


_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _origins(name: str) -> tuple[str, ...]:
    """A comma-separated list of web origins (scheme://host[:port]), or `*`,
    each as a browser writes it in its Origin header: lower case, without the
    scheme's default port (the gateway compares them exactly)."""
    found = []
    for origin in (o.strip().rstrip("/") for o in os.environ.get(name, "").split(",")):
        if origin == "*" or not origin:
            found += [origin] if origin else []
            continue
        match = re.fullmatch(r"(https?)://([^/\s?#:@\[\]]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?", origin,
                             re.IGNORECASE)
        if not match or (match[3] and not 0 < int(match[3]) < 65536):
            raise SystemExit(f"{name}: {origin!r} is not an origin like https://app.example.com")
        scheme, host, port = match[1].lower(), match[2].lower(), match[3]
        found.append(f"{scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS[scheme] else ""))
    return tuple(found)


@dataclass(frozen=True)
class Settings:
    redis_url: str = ""
    host: str = "0.0.0.0"
    grpc_port: int = 50051
    http_port: int = 8080
    metrics_port: int = 9095
    service_target: str = "localhost:50051"
    allow_fixed_seed: bool = False
    finished_ttl: int = 86_400
    abandoned_ttl: int = 604_800
    waiting_ttl: int = 86_400
    max_body_bytes: int = 65_536
    rpc_timeout: float = 5.0
    gateway_workers: int = 2
    gateway_threads: int = 4
    client_timeout: int = 10
    gateway_keepalive: int = 5
    gateway_health_checking: bool = False
    drain_seconds: int = 20
    max_connection_age: int = 300
    stream_seconds: int = 120
    stream_keepalive: int = 15
    max_streams: int = 1000
    record_cache: int = 1024
    replay_rate: int = 2000
    redis_max_connections: int = 64
    cors_origins: tuple[str, ...] = ()
    log_level: str = "INFO"
    worker_port: int = 9096
    worker_lease: int = 10
    worker_poll_ms: int = 1000
    worker_concurrency: int = 16
    service_processes: int = 1

    def check_distinct_ports(self, *variables: str) -> None:
        """Stops naming two of `variables` (port settings of servers on one
        host) that give the same port: the second server would fail to bind,
        or, when both are HTTP, one would answer for the other."""
        ports = {"PARLOR_GRPC_PORT": self.grpc_port, "PARLOR_HTTP_PORT": self.http_port,
                 "PARLOR_METRICS_PORT": self.metrics_port, "PARLOR_WORKER_PORT": self.worker_port}
        seen: dict[int, str] = {}
        for variable in variables:
            port = ports[variable]
            if port in seen:
                raise SystemExit(f"{seen[port]} and {variable} are both {port}: each server needs a port of its own")
            seen[port] = variable

    @classmethod
    def from_env(cls) -> "Settings":
        """The settings the environment gives; a variable left unset takes the
        default above."""
        d = cls()
        return cls(
            redis_url=_redis_url("REDIS_URL"),
            host=os.environ.get("PARLOR_HOST", "").strip() or d.host,
            grpc_port=_port("PARLOR_GRPC_PORT", d.grpc_port),
            http_port=_port("PARLOR_HTTP_PORT", d.http_port),
            metrics_port=_port("PARLOR_METRICS_PORT", d.metrics_port),
            service_target=_service_target("PARLOR_SERVICE_TARGET", d.service_target),
            allow_fixed_seed=_bool("PARLOR_ALLOW_FIXED_SEED", d.allow_fixed_seed),
            finished_ttl=_int("PARLOR_FINISHED_TTL_SECONDS", d.finished_ttl,
                              minimum=1, maximum=3650 * DAY),
            abandoned_ttl=_int("PARLOR_ABANDONED_TTL_SECONDS", d.abandoned_ttl,
                               minimum=1, maximum=3650 * DAY),
            waiting_ttl=_int("PARLOR_WAITING_TTL_SECONDS", d.waiting_ttl, minimum=1, maximum=3650 * DAY),
            max_body_bytes=_int("PARLOR_MAX_BODY_BYTES", d.max_body_bytes, minimum=MIN_BODY_BYTES,
                                maximum=MAX_BODY_BYTES),
            rpc_timeout=_int("PARLOR_RPC_TIMEOUT_MS", round(d.rpc_timeout * 1000),
                             minimum=1, maximum=HOUR * 1000) / 1000,
            gateway_workers=_int("PARLOR_GATEWAY_WORKERS", d.gateway_workers, minimum=1, maximum=256),
            gateway_threads=_int("PARLOR_GATEWAY_THREADS", d.gateway_threads, minimum=1, maximum=1024),
            client_timeout=_int("PARLOR_CLIENT_TIMEOUT_SECONDS", d.client_timeout,
                                minimum=1, maximum=HOUR),
            gateway_keepalive=_int("PARLOR_GATEWAY_KEEPALIVE_SECONDS", d.gateway_keepalive,
                                   minimum=1, maximum=HOUR),
            gateway_health_checking=_bool("PARLOR_GATEWAY_HEALTH_CHECKING", d.gateway_health_checking),
            drain_seconds=_int("PARLOR_DRAIN_SECONDS", d.drain_seconds, maximum=HOUR),
            max_connection_age=_int("PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS", d.max_connection_age,
                                    minimum=1, maximum=24 * DAY),
            stream_seconds=_int("PARLOR_STREAM_SECONDS", d.stream_seconds, minimum=1, maximum=DAY),
            stream_keepalive=_int("PARLOR_STREAM_KEEPALIVE_SECONDS", d.stream_keepalive,
                                  minimum=1, maximum=HOUR),
            max_streams=_int("PARLOR_MAX_STREAMS", d.max_streams, minimum=1, maximum=1_000_000),
            record_cache=_int("PARLOR_RECORD_CACHE_MATCHES", d.record_cache, maximum=1_000_000),
            replay_rate=_int("PARLOR_REPLAY_ACTIONS_PER_SECOND", d.replay_rate, minimum=1, maximum=10_000_000),
            redis_max_connections=_int("PARLOR_REDIS_MAX_CONNECTIONS", d.redis_max_connections,
                                       minimum=1, maximum=10_000),
            cors_origins=_origins("PARLOR_CORS_ORIGINS"),
            log_level=_log_level("PARLOR_LOG_LEVEL"),
            worker_port=_port("PARLOR_WORKER_PORT", d.worker_port),
            worker_lease=_int("PARLOR_WORKER_LEASE_SECONDS", d.worker_lease, minimum=1, maximum=HOUR),
            worker_poll_ms=_int("PARLOR_WORKER_POLL_MS", d.worker_poll_ms, minimum=10, maximum=60_000),
            worker_concurrency=_int("PARLOR_WORKER_CONCURRENCY", d.worker_concurrency, minimum=1,
                                    maximum=10_000),
            service_processes=_int("PARLOR_SERVICE_PROCESSES", usable_cores(), minimum=1, maximum=256),
        )


def cannot_listen(host: str, port: int, variable: str, exc: OSError, what: str = "listen on") -> SystemExit:
    """What a server stops with when it cannot bind host:port: blamed on
    PARLOR_HOST when the address is at fault (it does not resolve, or is not an
    address of this machine), else on `variable`, the port's setting."""
    if isinstance(exc, socket.gaierror):
        return SystemExit(f"cannot listen on PARLOR_HOST {host}: {exc.strerror or exc}")
    if exc.errno == errno.EADDRNOTAVAIL:
        return SystemExit(f"cannot listen on PARLOR_HOST {host}: not an address of this machine")
    return SystemExit(f"cannot {what} {host_port(host, port)} ({variable}): {exc.strerror or exc}")


def host_port(host: str, port: int) -> str:
    """`host:port` for binding or dialling, an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


def redacted_url(url: str) -> str:
    """A Redis URL without its password (before the host, or as ?password=),
    for logs and banners. Everything before the last @ goes: a password
    holding / or ? (unencoded) goes with it."""
    head, at, rest = url.rpartition("@")
    scheme, sep, _ = head.partition("://")
    shown = (scheme + sep if sep else "") + "***@" if at else ""
    address, sep, query = rest.partition("?")
    if sep:
        query = "&".join(f"{key}=***" if key.lower() in ("password", "username") else f"{key}{eq}{value}"
                         for key, eq, value in (p.partition("=") for p in query.split("&")))
    return shown + address + sep + query


def usable_cores() -> int:
    """The cores this process may use: those it may run on, at most its cgroup's
    CPU limit (a container's `limits.cpu`), rounded up. The default of
    PARLOR_SERVICE_PROCESSES."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    limit = _cgroup_cpu_limit()
    return max(1, min(cores, math.ceil(limit)) if limit else cores)


def _cgroup_cpu_limit() -> float | None:
    """The cgroup's CPU quota in cores (v2 cpu.max, else v1's CFS quota), None for none."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as limit:
            quota, period = limit.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") as quota, \
                open("/sys/fs/cgroup/cpu/cpu.cfs_period_us") as period:
            us, per = int(quota.read()), int(period.read())
        return None if us <= 0 else us / per
    except (OSError, ValueError):
        return None
