"""The README's first command: `parlor dev` brings everything up, with an
embedded Redis unless REDIS_URL is set, and takes it all down again."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from parlor.service.embedded_redis import EmbeddedRedis, free_port

from ..support import Rest

pytestmark = pytest.mark.integration
PARLOR = str(Path(sys.executable).with_name("parlor"))


def start_dev(extra_env: dict[str, str]):
    http_port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
    env.update({"PARLOR_HTTP_PORT": str(http_port), "PARLOR_GRPC_PORT": str(free_port()),
                "PARLOR_METRICS_PORT": str(free_port()), "PARLOR_WORKER_PORT": str(free_port()),
                "PYTHONUNBUFFERED": "1", **extra_env})
    proc = subprocess.Popen([PARLOR, "dev"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        lines.append(line)
        if line.startswith("Parlor is running"):
            banner = "".join(lines[-1:] + [proc.stdout.readline() for _ in range(6)])
            # Keep reading what it prints: a full pipe would block its logging
            # (and with it its shutdown) once a test has it do enough.
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            return proc, http_port, banner
    proc.kill()
    raise AssertionError("parlor dev did not come up:\n" + "".join(lines))


def stop(proc) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(30)
    finally:
        proc.kill()
    return code


def redis_servers(under: int) -> set[int]:
    """The redis-server processes descended from process `under` (other
    test runs on the machine may have Redis servers of their own)."""
    parents, servers = {}, set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                parents[int(pid)] = int(stat.rpartition(")")[2].split()[1])
                if b"redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    servers.add(int(pid))
            except (OSError, ValueError, IndexError):
                pass

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == under:
                return True
        return False
    return {pid for pid in servers if descends(pid)}


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running a redis-server."""
    running = set()
    for pid in pids:
        try:
            if b"redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                running.add(pid)
        except OSError:
            pass
    return running


def test_dev_with_embedded_redis():
    """(With PARLOR_HOST and PROMETHEUS_MULTIPROC_DIR set empty: they count as unset.)"""
    proc, port, banner = start_dev({"PARLOR_HOST": "", "PROMETHEUS_MULTIPROC_DIR": ""})
    assert f"REST   http://127.0.0.1:{port}" in banner and "embedded" in banner
    started = redis_servers(proc.pid)
    assert len(started) == 1, "one embedded Redis"
    rest = Rest(port)
    assert rest.get("/v1/games").status == 200
    created = rest.post("/v1/matches", {"game": "heck", "players": 3})
    assert created.status == 200 and created.body["status"] == "WAITING"
    rest.close()
    assert stop(proc) == 0
    deadline = time.monotonic() + 10
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(started), "the embedded Redis outlived parlor dev"
    metrics_dir = Path(tempfile.gettempdir()) / f"parlor-gateway-metrics-{port}"
    assert not metrics_dir.exists(), "the gateway left its metrics directory behind"


@pytest.mark.parametrize("host", ["::1", "::"])
def test_dev_on_ipv6(host):
    """PARLOR_HOST may be an IPv6 address (or its wildcard): both servers bind
    it, and the gateway reaches the service there."""
    proc, port, banner = start_dev({"PARLOR_HOST": host})
    try:
        shown = "[::1]" if host == "::1" else "127.0.0.1"
        assert f"REST   http://{shown}:{port}" in banner, banner
        conn = http.client.HTTPConnection("::1", port, timeout=10)
        conn.request("GET", "/v1/games")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        assert stop(proc) == 0


def test_parlor_bot_finds_the_service_parlor_dev_runs_on_other_ports():
    """The README's commands as printed: `parlor dev` on ports of its own in one
    terminal, `parlor bot <id>` in another without any setting."""
    proc, port, banner = start_dev({"PARLOR_ALLOW_FIXED_SEED": "1"})
    try:
        rest = Rest(port)
        match_id = rest.post("/v1/matches", {"game": "whatever", "players": 2}).body["matchId"]
        rest.close()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
        bot = subprocess.run([PARLOR, "bot", match_id, "--seed", "s"], env=env, capture_output=True, text=True,
                             timeout=120)
        assert bot.returncode == 0, bot.stdout + bot.stderr
        assert "match over" in bot.stdout
    finally:
        assert stop(proc) == 0


def test_parlor_bot_without_a_service_says_which_setting_to_give():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
    env["PARLOR_SERVICE_TARGET"] = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    bot = subprocess.run([PARLOR, "bot", "a" * 24], env=env, capture_output=True, text=True, timeout=60)
    assert bot.returncode == 1
    assert "PARLOR_SERVICE_TARGET" in bot.stdout and env["PARLOR_SERVICE_TARGET"] in bot.stdout, bot.stdout
    assert time.monotonic() - started < 15


def test_dev_uses_redis_url_when_set():
    with EmbeddedRedis() as redis:
        proc, port, banner = start_dev({"REDIS_URL": redis.url})
        assert "embedded" not in banner and f"Redis  {redis.url} (REDIS_URL)" in banner
        rest = Rest(port)
        match = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2}).body
        rest.close()
        import redis as redis_client
        client = redis_client.Redis.from_url(redis.url)
        assert any(match["matchId"].encode() in key for key in client.keys("parlor:*"))
        client.close()
        assert stop(proc) == 0


def test_service_without_redis_url_says_what_is_missing():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
    result = subprocess.run([PARLOR, "service"], env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "REDIS_URL" in result.stderr



def test_dev_on_a_taken_http_port_stops_at_once_naming_the_variable():
    """Before starting anything (no embedded Redis left behind), and without
    gunicorn's five seconds of retries."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
        env.update({"PARLOR_HTTP_PORT": str(port), "PARLOR_GRPC_PORT": str(free_port()),
                    "PARLOR_METRICS_PORT": str(free_port())})
        started = time.monotonic()
        result = subprocess.run([PARLOR, "dev"], env=env, capture_output=True, text=True, timeout=30)
    # (gunicorn would log each of its retries; the time only catches a hang, loosely, as
    # a busy machine may take seconds just to start the interpreter)
    assert result.returncode != 0 and time.monotonic() - started < 20
    assert "Retrying" not in result.stderr and "in use:" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"cannot listen on 127.0.0.1:{port} (PARLOR_HTTP_PORT): Address already in use")


@pytest.mark.parametrize("variable, value, says", [
    ("PARLOR_REDIS_SERVER", "/nonexistent/redis-server",
     "parlor dev: the embedded Redis: cannot run /nonexistent/redis-server (PARLOR_REDIS_SERVER): "
     "No such file or directory"),
    ("PROMETHEUS_MULTIPROC_DIR", "/proc/parlor-metrics",
     "PROMETHEUS_MULTIPROC_DIR /proc/parlor-metrics: No such file or directory; "
     "it must be a writable directory (see the README's configuration table)"),
    ("PARLOR_HOST", "nohost.invalid", "cannot listen on PARLOR_HOST nohost.invalid: "),
    ("PARLOR_HOST", "192.0.2.1", "cannot listen on PARLOR_HOST 192.0.2.1: not an address of this machine"),
])
def test_a_bad_setting_stops_with_a_message_naming_it(variable, value, says, command="dev"):
    """A message, not a traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
    env.update({"PARLOR_HTTP_PORT": str(free_port()), "PARLOR_GRPC_PORT": str(free_port()),
                "PARLOR_METRICS_PORT": str(free_port()), variable: value})
    if command == "service":
        env["REDIS_URL"] = "redis://127.0.0.1:1/0"  # (not reached: the service stops before)
    result = subprocess.run([PARLOR, command], env=env, capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and says in output and "Traceback" not in output, output


@pytest.mark.parametrize("host, says", [
    ("nohost.invalid", "cannot listen on PARLOR_HOST nohost.invalid: "),
    ("192.0.2.1", "cannot listen on PARLOR_HOST 192.0.2.1: not an address of this machine"),
])
def test_the_service_on_a_host_it_cannot_listen_on_says_so(host, says):
    test_a_bad_setting_stops_with_a_message_naming_it("PARLOR_HOST", host, says, command="service")


@pytest.mark.parametrize("command, first, second", [
    ("dev", "PARLOR_HTTP_PORT", "PARLOR_GRPC_PORT"),
    ("dev", "PARLOR_METRICS_PORT", "PARLOR_HTTP_PORT"),
    ("dev", "PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT"),
    ("service", "PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT"),
])
def test_one_port_for_two_servers_stops_naming_both(command, first, second):
    port = str(free_port())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOR_", "REDIS_URL"))}
    env.update({"PARLOR_HTTP_PORT": str(free_port()), "PARLOR_GRPC_PORT": str(free_port()),
                "PARLOR_METRICS_PORT": str(free_port()), first: port, second: port,
                "REDIS_URL": "redis://127.0.0.1:1/0" if command == "service" else ""})
    result = subprocess.run([PARLOR, command], env=env, capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    ordered = [v for v in ("PARLOR_HTTP_PORT", "PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT") if v in (first, second)]
    assert f"{ordered[0]} and {ordered[1]} are both {port}: each server needs a port of its own" in output
