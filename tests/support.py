"""Real processes for integration tests: Redis, the gRPC service, gunicorn
serving the gateway, each on a free port; and a small REST client."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from parlor.service.embedded_redis import EmbeddedRedis, free_port
from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent

_log_root: Path | None = None


def log_root() -> Path | None:
    """The directory holding every Stack's server logs in this process (made
    with the first Stack): tests/conftest.py removes it after a run that passed
    and names it after one that did not."""
    return _log_root


def _new_log_dir() -> Path:
    global _log_root
    if _log_root is None:
        _log_root = Path(tempfile.mkdtemp(prefix="parlor-test-logs-"))
    return Path(tempfile.mkdtemp(prefix="stack-", dir=_log_root))


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def error(self) -> str | None:
        """The stable error code, if this is an error reply."""
        if isinstance(self.body, dict) and "error" in self.body:
            return self.body["error"]["code"]
        return None


class Rest:
    """A keep-alive HTTP/1.1 JSON client for one gateway."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> Reply:
        send = dict(headers or {})
        if token is not None:
            send["Authorization"] = f"Bearer {token}"
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            send.setdefault("Content-Type", "application/json")
        for attempt in range(2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self._conn.request(method, path, body=data, headers=send)
                resp = self._conn.getresponse()
                payload = resp.read()
                break
            except (ConnectionError, http.client.HTTPException):
                self._conn.close()
                self._conn = None
                if attempt:
                    raise
        if resp.will_close:
            self._conn.close()
            self._conn = None
        ctype = resp.getheader("Content-Type", "")
        parsed = json.loads(payload) if payload and "json" in ctype else payload
        return Reply(resp.status, parsed, {k.lower(): v for k, v in resp.getheaders()})

    def get(self, path: str, **kw) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw) -> Reply:
        return self.request("POST", path, body, **kw)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class Sse:
    """A Server-Sent Events reader over its own connection: GET with
    `Accept: text/event-stream`, then messages one at a time."""

    def __init__(self, port: int, path: str, token: str | None = None,
                 headers: dict[str, str] | None = None, timeout: float = 30) -> None:
        send = {"Accept": "text/event-stream", **(headers or {})}
        if token is not None:
            send["Authorization"] = f"Bearer {token}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.conn.request("GET", path, headers=send)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.getheaders()}

    def body(self) -> Any:
        """The whole body of a reply that is not a stream (JSON parsed)."""
        data = self.response.read()
        return json.loads(data) if data and "json" in self.headers.get("content-type", "") else data

    def next(self) -> dict[str, Any] | None:
        """The next message: {"id", "data" (parsed JSON)}, {"comment"} for a
        keep-alive, {"retry"}; None when the stream has ended."""
        message: dict[str, Any] = {}
        while True:
            line = self.response.readline()
            if not line:
                return message or None
            line = line.decode().rstrip("\n")
            if not line:
                if message:
                    return message
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                message["comment"] = value
            elif name == "data":
                message["data"] = json.loads(value)
            elif name in ("id", "retry"):
                message[name] = int(value)

    def rest_of_it(self) -> list[dict[str, Any]]:
        """The data of every event until the stream ends."""
        found = []
        while (message := self.next()) is not None:
            if "data" in message:
                found.append(message["data"])
        return found

    def events(self, count: int) -> list[dict[str, Any]]:
        """The data of the next `count` events, skipping keep-alives."""
        found = []
        while len(found) < count:
            message = self.next()
            assert message is not None, f"the stream ended after {len(found)} of {count} events"
            if "data" in message:
                assert message["id"] == message["data"]["number"]
                found.append(message["data"])
        return found

    def close(self) -> None:
        self.conn.close()


def when_free(attempt):
    """`attempt()`'s reply once it is not 429 (a stream slot taken): the slot of
    a stream closed just before is freed a moment later, when the gateway is
    done with it. `attempt` returns an object with `status` and `close()`."""
    since = time.monotonic()
    while (reply := attempt()).status == 429:
        reply.close()
        assert time.monotonic() - since < 5, "no stream slot came free"
        time.sleep(0.1)
    return reply


def open_when_free(stack, path: str, **kw) -> Sse:
    """A stream, once the gateway has a slot for it."""
    return when_free(lambda: Sse(stack.http_port, path, **kw))


def _wait(check, what: str, timeout: float = 20.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        if check():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} not ready after {timeout} s")


@dataclass
class Stack:
    """Redis + `python -m parlor.service.server` + gunicorn(gateway), started for real."""

    env: dict[str, str] = field(default_factory=dict)
    redis_appendonly: bool = False
    redis_url: str | None = None  # an outside Redis (Sentinel, Cluster); else one of our own
    gateway: bool = True
    redis: EmbeddedRedis | None = None
    grpc_port: int = 0
    http_port: int = 0
    metrics_port: int = 0
    log_dir: Path = field(default_factory=_new_log_dir)
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    @classmethod
    def on_redis_of(cls, other: "Stack", **kw) -> "Stack":
        """A stack on `other`'s Redis, with ports of its own and nothing started:
        its parts are started one by one (a lone gateway, a benchmark floor)."""
        stack = cls(redis_url=other.redis_url, **kw)
        stack._pick_ports()
        return stack

    def _pick_ports(self) -> None:
        self.grpc_port, self.http_port, self.metrics_port = free_port(), free_port(), free_port()

    def start(self) -> "Stack":
        try:
            if self.redis_url is None:
                self.redis = EmbeddedRedis(appendonly=self.redis_appendonly)
                self.redis_url = self.redis.start().url
            self._pick_ports()
            self.start_service()
            if self.gateway:
                self.start_gateway()
        except BaseException:
            self.stop()  # nothing left running when a part does not come up
            raise
        return self

    def process_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PARLOR_")}
        env.update({
            "REDIS_URL": self.redis_url, "PARLOR_HOST": "127.0.0.1",
            "PARLOR_GRPC_PORT": str(self.grpc_port), "PARLOR_HTTP_PORT": str(self.http_port),
            "PARLOR_SERVICE_TARGET": f"127.0.0.1:{self.grpc_port}",
            "PARLOR_METRICS_PORT": str(self.metrics_port),
            "PARLOR_DRAIN_SECONDS": "5", "PARLOR_GATEWAY_WORKERS": "2", "PARLOR_SERVICE_PROCESSES": "1",
            "PYTHONUNBUFFERED": "1",
        })
        env.update(self.env)
        return env

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "ab")
        proc = subprocess.Popen([sys.executable, *args], env={**self.process_env(), **(env or {})}, cwd=ROOT,
                                stdout=log, stderr=subprocess.STDOUT)
        self.procs[name] = proc
        return proc

    def start_service(self) -> None:
        proc = self._spawn("service", ["-m", "parlor.service.server"])
        _wait(lambda: self._grpc_up(), "the gRPC service", proc=proc)

    def start_worker(self, name: str = "worker") -> subprocess.Popen:
        """A `parlor worker` (bots' moves, turn clocks) on the stack's Redis,
        with its own health port."""
        proc = self._spawn(name, ["-m", "parlor.service.worker"], {"PARLOR_WORKER_PORT": str(free_port())})
        _wait(lambda: "parlor worker running" in self.log(name), f"the {name}", proc=proc)
        return proc

    def start_gateway(self, *gunicorn_args: str) -> None:
        """gunicorn as the gateway runs it; `gunicorn_args` override its settings."""
        proc = self._spawn("gateway", ["-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
                                       *gunicorn_args, "parlor.gateway.wsgi:app"])
        rest = Rest(self.http_port)
        _wait(lambda: self._http_up(rest), "the gateway", proc=proc)
        rest.close()

    def _grpc_up(self) -> bool:
        with grpc.insecure_channel(f"127.0.0.1:{self.grpc_port}") as channel:
            try:
                grpc.channel_ready_future(channel).result(timeout=0.5)
                return True
            except grpc.FutureTimeoutError:
                return False

    @staticmethod
    def _http_up(rest: Rest) -> bool:
        try:
            return rest.get("/healthz").status == 200
        except OSError:
            return False

    def log(self, name: str) -> str:
        return (self.log_dir / f"{name}.log").read_text(errors="replace")

    def log_with(self, name: str, *texts: str, timeout: float = 10) -> str:
        """The log of `name` once it holds every one of `texts` (log lines
        are written as calls are handled, not before the answer goes out)."""
        deadline = time.monotonic() + timeout
        while not all(text in (log := self.log(name)) for text in texts):
            assert time.monotonic() < deadline, f"the {name} log never showed {texts}"
            time.sleep(0.02)
        return log

    def stop_process(self, name: str, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        proc = self.procs.pop(name)
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return proc.returncode

    def stop(self) -> None:
        for name in list(self.procs):
            self.stop_process(name)
        if self.redis is not None:
            self.redis.cleanup()

    # clients
    def rest(self) -> Rest:
        return Rest(self.http_port)

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(f"127.0.0.1:{self.grpc_port}")

    def stub(self, channel: grpc.Channel | None = None) -> parlor_pb2_grpc.ParlorStub:
        return parlor_pb2_grpc.ParlorStub(channel or self.channel())


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def new_grpc_match(stub, game: str, players: int) -> tuple[pb.Match, list[str]]:
    """Creates a match over gRPC and fills every seat; returns (match, tokens)."""
    match = stub.CreateMatch(pb.CreateMatchRequest(game=game, players=players))
    tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=f"s{i}")).token
              for i in range(players)]
    return match, tokens


def new_rest_match(rest: Rest, game: str, players: int, options: dict | None = None,
                   seed: str | None = "test-seed") -> tuple[dict, list[str]]:
    """Creates a match over REST and fills every seat; returns (created view, tokens)."""
    body: dict[str, Any] = {"game": game, "players": players}
    if options:
        body["options"] = options
    if seed is not None:
        body["seed"] = seed
    created = rest.post("/v1/matches", body)
    assert created.status == 200, created.body
    tokens = []
    for seat in range(players):
        joined = rest.post(f"/v1/matches/{created.body['matchId']}/seats", {"name": f"player {seat}"})
        assert joined.status == 200, joined.body
        assert joined.body["seat"] == seat
        tokens.append(joined.body["token"])
    return created.body, tokens


def game_field(game_id: str) -> str:
    """The JSON name of a game's field in views, actions and events (`whatTheHeck`)."""
    return pb.Match.DESCRIPTOR.fields_by_name[game_id].json_name


def play_rest_to_end(rest: Rest, match_id: str, tokens: list[str], chooser, max_actions: int = 20_000,
                     replies: list | None = None):
    """Plays random legal actions, as the seats' clients would, until the match
    is finished; returns the last action reply's body and the number of actions.
    `replies`, if given, gets each action's (seat, reply body)."""
    count = 0
    while count < max_actions:
        moved = False
        for seat, token in enumerate(tokens):
            listed = rest.get(f"/v1/matches/{match_id}/legal-actions", token=token)
            assert listed.status == 200, listed.body
            if not listed.body["actions"]:
                continue
            action = chooser.choice(listed.body["actions"])
            reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": action}, token=token)
            assert reply.status == 200, (action, reply.body)
            if replies is not None:
                replies.append((seat, reply.body))
            count += 1
            moved = True
            if reply.body["match"]["status"] == "FINISHED":
                return reply.body, count
        assert moved, "nobody has a legal action but the match is not finished"
    raise AssertionError("the match did not end")


def match_memory(client, match_id: str) -> int:
    """Bytes Redis uses for a match's keys (MEMORY USAGE), with a plain client."""
    from parlor.service.store import keys
    return sum(client.memory_usage(key, samples=0) or 0 for key in keys(match_id))
