"""Settings from the environment: defaults, and a clear stop for bad values."""

from __future__ import annotations

import os

import pytest

from parlor.common.config import Settings, redacted_url

# Every whole-number variable with its smallest and largest accepted values.
NUMBERS = {
    "PARLOR_GRPC_PORT": (1, 65535), "PARLOR_HTTP_PORT": (1, 65535), "PARLOR_METRICS_PORT": (1, 65535),
    "PARLOR_FINISHED_TTL_SECONDS": (1, 315_360_000), "PARLOR_ABANDONED_TTL_SECONDS": (1, 315_360_000),
    "PARLOR_WAITING_TTL_SECONDS": (1, 315_360_000),
    "PARLOR_MAX_BODY_BYTES": (1024, 67_108_864), "PARLOR_RPC_TIMEOUT_MS": (1, 3_600_000),
    "PARLOR_GATEWAY_WORKERS": (1, 256), "PARLOR_GATEWAY_THREADS": (1, 1024),
    "PARLOR_CLIENT_TIMEOUT_SECONDS": (1, 3600), "PARLOR_DRAIN_SECONDS": (0, 3600),
    "PARLOR_GATEWAY_KEEPALIVE_SECONDS": (1, 3600),
    "PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS": (1, 2_073_600), "PARLOR_STREAM_SECONDS": (1, 86_400),
    "PARLOR_STREAM_KEEPALIVE_SECONDS": (1, 3600), "PARLOR_MAX_STREAMS": (1, 1_000_000),
    "PARLOR_RECORD_CACHE_MATCHES": (0, 1_000_000), "PARLOR_REDIS_MAX_CONNECTIONS": (1, 10_000),
    "PARLOR_WORKER_PORT": (1, 65535), "PARLOR_WORKER_LEASE_SECONDS": (1, 3600),
    "PARLOR_WORKER_POLL_MS": (10, 60_000), "PARLOR_WORKER_CONCURRENCY": (1, 10_000),
    "PARLOR_SERVICE_PROCESSES": (1, 256),
}


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    for name in os.environ:
        if name.startswith("PARLOR_") or name == "REDIS_URL":
            monkeypatch.delenv(name)


def test_defaults():
    from dataclasses import replace

    from parlor.common.config import usable_cores

    settings = Settings.from_env()
    assert settings == replace(Settings(), service_processes=usable_cores())
    assert (settings.grpc_port, settings.http_port, settings.redis_max_connections) == (50051, 8080, 64)
    assert settings.allow_fixed_seed is False


@pytest.mark.parametrize("name", NUMBERS)
def test_a_number_that_is_not_one_stops_with_the_variables_name(monkeypatch, name):
    monkeypatch.setenv(name, "ten")
    with pytest.raises(SystemExit, match=f"^{name} must be an integer, not 'ten'$"):
        Settings.from_env()


@pytest.mark.parametrize("raw", ["1_000", "+5", "1.5", "1e3", "0x10", "\u0663", "5 5"])
def test_only_plain_decimal_digits_are_a_number(monkeypatch, raw):
    monkeypatch.setenv("PARLOR_DRAIN_SECONDS", raw)
    with pytest.raises(SystemExit, match="^PARLOR_DRAIN_SECONDS must be an integer"):
        Settings.from_env()


@pytest.mark.parametrize("raw, value", [(" 7 ", 7), ("07", 7), ("0", 0)])
def test_surrounding_spaces_and_leading_zeros_are_read(monkeypatch, raw, value):
    monkeypatch.setenv("PARLOR_DRAIN_SECONDS", raw)
    assert Settings.from_env().drain_seconds == value


@pytest.mark.parametrize("name", NUMBERS)
def test_a_number_out_of_range_stops_with_the_variables_name(monkeypatch, name):
    low, high = NUMBERS[name]
    monkeypatch.setenv(name, str(low - 1))
    with pytest.raises(SystemExit, match=f"^{name} must be at least {low}, not {low - 1}$"):
        Settings.from_env()
    monkeypatch.setenv(name, str(high + 1))
    with pytest.raises(SystemExit, match=f"^{name} must be at most {high}, not {high + 1}$"):
        Settings.from_env()
    for fine in (low, high):
        monkeypatch.setenv(name, f" {fine} ")
        Settings.from_env()


@pytest.mark.parametrize("level", ["debug", "INFO", "Warning", "ERROR"])
def test_log_levels(monkeypatch, level):
    monkeypatch.setenv("PARLOR_LOG_LEVEL", level)
    assert Settings.from_env().log_level == level.upper()


def test_an_unknown_log_level_stops(monkeypatch):
    monkeypatch.setenv("PARLOR_LOG_LEVEL", "loud")
    with pytest.raises(SystemExit, match="^PARLOR_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'$"):
        Settings.from_env()


@pytest.mark.parametrize("url", ["redis://localhost:6379/0", "redis://:pw@h:6379", "rediss://h/2?ssl_cert_reqs=none",
                                 "redis://h/0?socket_timeout=3&client_name=parlor&protocol=2",
                                 "redis://h/0?protocol=02",
                                 "unix:///run/redis.sock?db=1", "redis+sentinel://h1:26379,h2:26379/main/0",
                                 "redis+sentinel://h1,[::1]:26380,[::2]/main?db=2",
                                 "redis+cluster://h:7000", "redis+cluster://h:7000/0",
                                 "rediss+cluster://h:7000?ssl_cert_reqs=required",
                                 "unix:///run/redis.sock?password=p@ss&db=1", "redis://h/0?username=me@x&password=a@b"])
def test_redis_urls_that_are_read(monkeypatch, url):
    monkeypatch.setenv("REDIS_URL", url)
    assert Settings.from_env().redis_url == url


@pytest.mark.parametrize("url,words", [
    ("localhost:6379", "REDIS_URL must start with one of redis://"),
    ("http://h:6379", "REDIS_URL must start with one of redis://"),
    ("redis://:secret@h:6379/abc", "the database after the host must be a number"),
    ("redis://default:se/cret@h:6379/0", "the database after the host must be a number"),
    ("redis-x://:sec@ret@h:6379/0", "REDIS_URL must start with one of redis://"),
    ("redis+sentinel://:secret@h1:26379/main/abc", "the database after the host"),
    ("redis+sentinel://:secret@h1:26379", "needs /<master-name>"),
    ("redis+sentinel://:secret@h1:port/main", "each Sentinel must be host or host:port"),
    ("redis+sentinel://:secret@h1:,h2/main", "each Sentinel must be host or host:port"),
    ("redis+sentinel://:secret@[::1/main", "Invalid IPv6 URL"),
    ("redis://:secret@[::1:6379/0", "Invalid IPv6 URL"),
    ("redis+sentinel://:secret@[::1]x/main", "each Sentinel must be host or host:port"),
    ("redis+sentinel://:secret@h1/main?password=secret", "reads no query parameter but"),
    ("redis+sentinel://:secret@h1/main?ssl_ca_certs=/x", "reads no query parameter but [?]db [(]not ssl_ca_certs"),
    ("rediss+sentinel://:secret@h1/main?ssl_cert_reqs=none",
     "rediss[+]sentinel:// reads no query parameter but [?]db, [?]ssl_ca_certs, [?]ssl_certfile, [?]ssl_keyfile"),
    ("rediss+sentinel://:secret@h1/main/0?ssl_keyfile=/nonexistent/tls.key", "[?]ssl_keyfile=/nonexistent/tls.key cannot"),
    ("rediss://:secret@h/0?ssl_ca_certs=/tmp", "[?]ssl_ca_certs=/tmp cannot be read [(]not a file[)]"),
    # (a password holding ? or @ not percent-encoded: its end would land in the query, and be quoted)
    ("redis+sentinel://:se?cret@h1/main", "a password holding / [?] # or @ must have it percent-encoded"),
    ("redis://:pa?ss=secret@h:6379/0", "a password holding / [?] # or @ must have it percent-encoded"),
    ("redis://:pa#ss@h:6379/0", "a password holding / [?] # or @ must have it percent-encoded"),
    ("rediss+sentinel://u:12/main?secret@h1/main", "a password holding / [?] # or @ must have it percent-encoded"),
    ("redis://:secret@h/0?socket_timeout=3&socket_timeout=4", "[?]socket_timeout= is given more than once"),
    ("rediss+sentinel://:secret@h1", "needs /<master-name>"),
    ("unix:///run/redis.sock?password=secret&db=abc", "the database after the host"),
    ("redis://h:6379?db=x&password=secret", "the database after the host"),
    ("redis://:secret@127.0.0.1:abc/0", "Port could not be cast to integer value as 'abc'"),
    ("redis://:secret@127.0.0.1:99999/0", "Port out of range"),
    ("redis+cluster://:secret@h:abc", "Port could not be cast"),
    ("redis+cluster://:secret@h:7000/1", "Redis Cluster has only database 0"),
    ("redis+cluster://:secret@h:7000?db=2", "Redis Cluster has only database 0"),
    ("rediss+cluster://:secret@h:7000/1", "Redis Cluster has only database 0"),
    ("rediss+cluster://:secret@h:7000?ssl_ca_certs=/nonexistent/ca.crt", "[?]ssl_ca_certs=/nonexistent/ca.crt cannot"),
    ("redis+cluster://:secret@h:7000?ssl_ca_certs=/x", "redis-py reads no option [?]ssl_ca_certs"),
    ("default:secret@h:6379/0", "REDIS_URL must start with one of redis://"),
    ("redis//:secret@h:6379/0", "REDIS_URL must start with one of redis://"),
    ("redis://:secret@h/0?socket_timeout=abc", "Invalid value for 'socket_timeout'"),
    ("redis://", "no host in it"),
    ("unix://?password=secret", "no socket path in it"),
    # (redis-py raised these at the first connection: the service ran on, never SERVING)
    ("redis://:secret@h/0?foo=bar", "redis-py reads no option [?]foo"),
    ("redis://:secret@h/0?ssl_cert_reqs=none", "redis-py reads no option [?]ssl_cert_reqs"),
    ("unix:///run/redis.sock?password=secret&timeout=1", "redis-py reads no option [?]timeout"),
    ("redis+cluster://:secret@h:7000?foo=1", "redis-py reads no option [?]foo"),
    # (replies as text, or in RESP3: every read of a match failed)
    ("redis://:secret@h/0?decode_responses=yes", "[?]decode_responses=yes is not for this service"),
    ("redis://:secret@h/0?protocol=3", "[?]protocol=3 is not for this service"),
    # (values redis-py cannot use, raised as other errors than TypeError)
    ("rediss://:secret@h/0?ssl_cert_reqs=bogus", "an option's value is not one redis-py can use"),
    ("redis://:secret@h/0?credential_provider=x", "an option's value is not one redis-py can use"),
    ("redis://:secret@h/0?maint_notifications_config=x", "an option's value is not one redis-py can use"),
    # (files redis-py opens only at the first connection: a CA or a client certificate not mounted)
    ("rediss://:secret@h/0?ssl_ca_certs=/etc/parlor/redis-tls/ca.crt",
     "[?]ssl_ca_certs=/etc/parlor/redis-tls/ca.crt cannot be read [(]no such file[)]; is the volume"),
    ("rediss://:secret@h/0?ssl_certfile=/nonexistent/tls.crt&ssl_keyfile=/nonexistent/tls.key",
     "[?]ssl_certfile=/nonexistent/tls.crt cannot be read"),
])
def test_a_redis_url_that_is_not_read_stops_without_showing_a_password(monkeypatch, url, words):
    monkeypatch.setenv("REDIS_URL", url)
    with pytest.raises(SystemExit, match=words) as stopped:
        Settings.from_env()
    assert "cret" not in str(stopped.value) and "ret@" not in str(stopped.value)


@pytest.mark.parametrize("template", [
    "rediss://h/0?ssl_ca_certs={ca}",
    "rediss://:pw@h/0?ssl_ca_certs={ca}&ssl_certfile={cert}&ssl_keyfile={key}",
    "rediss://h/0?ssl_certfile={cert}&ssl_keyfile={key}",
    "rediss+cluster://h:7000?ssl_ca_certs={ca}&ssl_certfile={cert}&ssl_keyfile={key}",
    "rediss+sentinel://h1,h2/main/0?ssl_ca_certs={ca}&ssl_certfile={cert}&ssl_keyfile={key}",
])
def test_tls_files_that_are_read(monkeypatch, certificates, template):
    url = template.format(ca=certificates / "ca.crt", cert=certificates / "client.crt",
                          key=certificates / "client.key")
    monkeypatch.setenv("REDIS_URL", url)
    assert Settings.from_env().redis_url == url


@pytest.mark.parametrize("options,words", [
    ("ssl_ca_certs={cert_key}", "[?]ssl_ca_certs=.* holds no CA certificate in PEM form"),
    ("ssl_ca_certs={here}", "[?]ssl_ca_certs=.* holds no CA certificate in PEM form"),
    ("ssl_keyfile={key}", "[?]ssl_keyfile= needs [?]ssl_certfile="),
    ("ssl_certfile={cert}&ssl_keyfile={other}", "are not a certificate and its key in PEM form, one matching"),
    ("ssl_certfile={cert}", "are not a certificate and its key in PEM form"),  # (no key, none in the file)
    ("ssl_certfile={here}&ssl_keyfile={key}", "are not a certificate and its key in PEM form"),
])
@pytest.mark.parametrize("scheme", ["rediss://:secret@h/0", "rediss+sentinel://:secret@h1/main"])
def test_tls_files_that_cannot_be_used_stop_at_start(monkeypatch, certificates, scheme, options, words):
    """(redis-py reads them at the first connection: the service ran on, never SERVING)"""
    files = {"cert": certificates / "client.crt", "key": certificates / "client.key",
             "other": certificates / "other.key", "cert_key": certificates / "client.key", "here": __file__}
    monkeypatch.setenv("REDIS_URL", f"{scheme}?{options.format(**files)}")
    with pytest.raises(SystemExit, match=words) as stopped:
        Settings.from_env()
    assert "secret" not in str(stopped.value)


@pytest.mark.parametrize("url,shown", [
    ("redis://:s3cret@cache:6379/0", "redis://***@cache:6379/0"),
    ("rediss://user:s3cret@cache:6380", "rediss://***@cache:6380"),
    ("rediss+cluster://:s3cret@cache:6380", "rediss+cluster://***@cache:6380"),
    ("redis://cache:6379/0", "redis://cache:6379/0"),
    ("redis://:pa/ss?w@cache:6379/0", "redis://***@cache:6379/0"),
    ("unix:///run/redis.sock?password=s3cret&db=1", "unix:///run/redis.sock?password=***&db=1"),
    ("redis://cache?username=me&Password=s3cret", "redis://cache?username=***&Password=***"),
    ("default:s3cret@cache:6379/0", "***@cache:6379/0"),  # (no scheme: nothing before the @ shows)
    ("redis:/:s3cret@cache:6379/0", "***@cache:6379/0"),
])
def test_redis_passwords_stay_out_of_banners_and_logs(url, shown):
    assert redacted_url(url) == shown


@pytest.mark.parametrize("raw,value", [("1", True), ("true", True), ("on", True), ("0", False),
                                       ("no", False), ("", False)])
def test_switches(monkeypatch, raw, value):
    monkeypatch.setenv("PARLOR_ALLOW_FIXED_SEED", raw)
    assert Settings.from_env().allow_fixed_seed is value


@pytest.mark.parametrize("name", ["PARLOR_ALLOW_FIXED_SEED", "PARLOR_GATEWAY_HEALTH_CHECKING"])
def test_a_switch_that_is_neither_stops(monkeypatch, name):
    monkeypatch.setenv(name, "maybe")
    with pytest.raises(SystemExit, match=f"{name} must be 1 or 0"):
        Settings.from_env()


def test_gateway_health_checking_is_off_unless_asked(monkeypatch):
    assert Settings.from_env().gateway_health_checking is False
    monkeypatch.setenv("PARLOR_GATEWAY_HEALTH_CHECKING", "1")
    assert Settings.from_env().gateway_health_checking is True


@pytest.mark.parametrize("url, sentinels, db", [
    ("redis+sentinel://:pw@s1,s2:26380/main", [("s1", 26379), ("s2", 26380)], 0),
    ("redis+sentinel://[::1]:26380,[fe80::2]/main/3", [("::1", 26380), ("fe80::2", 26379)], 3),
    ("redis+sentinel://s1:26379/main?db=4", [("s1", 26379)], 4),
])
def test_sentinel_urls_name_their_sentinels_and_database(monkeypatch, url, sentinels, db):
    """A Sentinel without a port is on 26379; the database comes after the
    master's name or in ?db=. (No connection is made to build the client.)"""
    from parlor.service.store import connect

    monkeypatch.setenv("REDIS_URL", url)
    client = connect(Settings.from_env().redis_url)
    pool = client.connection_pool
    assert pool.service_name == "main" and pool.connection_kwargs["db"] == db
    assert [(s.connection_pool.connection_kwargs["host"], s.connection_pool.connection_kwargs["port"])
            for s in pool.sentinel_manager.sentinels] == sentinels


@pytest.mark.parametrize("target", ["localhost:50051", "dns:///parlor-service-headless.parlor.svc.cluster.local:50051",
                                    "dns://10.0.0.10/parlor:50051", "[::1]:50051", "unix:/run/parlor.sock",
                                    "ipv4:127.0.0.1:50051,127.0.0.2:50051"])
def test_service_targets_that_are_read(monkeypatch, target):
    monkeypatch.setenv("PARLOR_SERVICE_TARGET", target)
    assert Settings.from_env().service_target == target


@pytest.mark.parametrize("target", ["127.0.0.1:abc", "127.0.0.1:99999", "dns:///", "dns:///parlor",
                                    "http://127.0.0.1:50051", "parlor-service", "unix:"])
def test_a_service_target_without_a_host_and_port_stops(monkeypatch, target):
    """gRPC would take it and then fail every call (or dial port 443)."""
    monkeypatch.setenv("PARLOR_SERVICE_TARGET", target)
    with pytest.raises(SystemExit, match="^PARLOR_SERVICE_TARGET must be a gRPC target such as localhost:50051"):
        Settings.from_env()


def test_a_blank_redis_server_variable_counts_as_unset(monkeypatch):
    from parlor.service.embedded_redis import server_binary

    monkeypatch.delenv("PARLOR_REDIS_SERVER", raising=False)
    default = server_binary()
    monkeypatch.setenv("PARLOR_REDIS_SERVER", "  ")
    assert server_binary() == default


def test_service_processes_default_to_the_usable_cores_within_a_cgroup_limit(monkeypatch):
    from parlor.common import config

    monkeypatch.setattr(config.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(config, "_cgroup_cpu_limit", lambda: None)
    assert config.usable_cores() == 4
    monkeypatch.setattr(config, "_cgroup_cpu_limit", lambda: 1.5)  # limits.cpu: 1500m
    assert config.usable_cores() == 2
    monkeypatch.setattr(config, "_cgroup_cpu_limit", lambda: 0.25)
    assert config.usable_cores() == 1
