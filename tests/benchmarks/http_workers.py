"""What a normal client sees of the gateway while others misbehave: Parlor's
gunicorn worker (gunicorn_conf.GatewayWorker) against gunicorn's own gthread.

    .venv/bin/python -m tests.benchmarks.http_workers [--seconds 8] [--slow 8,64] [--silent 8,64]
                                                      [--idle 500] [--pipelined 4] [--batch 100]

Starts Redis and the service once (tests/support.Stack), and two gateways in
front of them, alike but for the worker: ours, and gunicorn's `gthread` with
gunicorn's own protective settings (STOCK_ARGS) and the gateway's hooks (the
listening sockets' SO_RCVTIMEO and SO_SNDTIMEO of PARLOR_CLIENT_TIMEOUT_SECONDS
among them), as the gateway would run on gunicorn's public interface alone.
Both have the same workers and threads (PARLOR_GATEWAY_WORKERS, _THREADS).

Each scenario runs an adversary against one gateway, then against the other
(arms alternate, so that a shared machine's drift falls on both), and
meanwhile --normal clients each alternate GET /v1/games and a create-match
POST, each on a new connection, as arriving visitors do; their latencies (a
request not answered within --request-timeout counts as failed) are the
figures printed. The adversaries:

  baseline         none
  slow N           N connections trickling a request in, one byte a second:
                   half of them its headers, half (headers sent whole) its body
  silent N         N connections that never send anything
  idle N           N kept-alive connections, each answered once, then idle
  pipelined N      N connections each sending --batch requests at once, again
                   and again; every answer must come, in order (checked)

An adversary's connection the gateway closes is opened again (a scanner or a
pool keeps at it), so the gateway faces N of them throughout. The figures are
the median (p50) and the 99th percentile; with few answers, p99 is the
slowest. Clients and servers share the machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import selectors
import socket
import sys
import threading
import time
from dataclasses import dataclass, field

# gunicorn's gthread at the most protective values its settings offer that a
# public JSON API can live with. None of them bounds how long a thread may
# wait for a request trickled in: that is what the adversaries probe.
STOCK_ARGS = [
    "--worker-class", "gthread",
    "--timeout", "10",                    # a hung worker is killed after 10 s (default 30)
    "--graceful-timeout", "5",            # (default 30)
    "--keep-alive", "2",                  # idle connections closed after 2 s (gunicorn's default)
    "--limit-request-line", "2048",       # (default 4094; this API's longest URL is far shorter)
    "--limit-request-fields", "32",       # (default 100)
    "--limit-request-field_size", "4096",  # (default 8190; a seat token's header is ~60 bytes)
    "--worker-connections", "1000",       # connections per worker (the default, as ours)
]

CREATE = json.dumps({"game": "what_the_heck", "players": 2}).encode()
TRICKLE_SECONDS = 1.0  # a slow client's pace: one byte a second, well within the client timeout


# ---- a normal client ---------------------------------------------------------------

def _normal(port: int, until: float, timeout: float, found: list) -> None:
    """GET /v1/games and POST /v1/matches in turn, each on a new connection,
    until `until`: appends (kind, seconds or None when not answered in time)."""
    n = 0
    while time.monotonic() < until:
        kind = ("get", "post")[n % 2]
        n += 1
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        try:
            if kind == "get":
                conn.request("GET", "/v1/games")
            else:
                conn.request("POST", "/v1/matches", body=CREATE, headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            reply.read()
            took = time.monotonic() - started
            found.append((kind, took if reply.status == 200 and took <= timeout else None))
        except (OSError, http.client.HTTPException):
            found.append((kind, None))
            time.sleep(max(0.0, min(0.1, until - time.monotonic())))  # (refused at once: no busy loop)
        finally:
            conn.close()


# ---- adversaries --------------------------------------------------------------------

SLOW_REQUEST = (b"POST /v1/matches HTTP/1.1\r\nHost: parlor\r\nContent-Type: application/json\r\n"
                b"X-Request-Id: slow\r\nContent-Length: 1000\r\n\r\n")
SLOW_BODY = CREATE + b" " * (1000 - len(CREATE))
IDLE_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: parlor\r\n\r\n"


@dataclass
class _Adversary:
    """N connections of one kind, kept open (reopened when the gateway closes
    them) by one thread with a selector, until stop()."""

    port: int
    kind: str  # slow, silent, idle
    count: int
    closed_by_server: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _ready: threading.Event = field(default_factory=threading.Event)

    def start(self) -> "_Adversary":
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(60)
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        self.seconds = time.monotonic() - self.started

    def _open(self, sel, n: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        except OSError:
            return  # tried again at the next tick
        sock.setblocking(False)
        state = {"n": n, "sent": 0, "due": time.monotonic() + (n % 20) * TRICKLE_SECONDS / 20}  # (staggered)
        if self.kind == "slow":
            state["data"] = SLOW_REQUEST + SLOW_BODY
            if n % 2:  # the body trickled in, its headers sent whole
                sock.sendall(SLOW_REQUEST)
                state["sent"] = len(SLOW_REQUEST)
        elif self.kind == "idle":
            sock.sendall(IDLE_REQUEST)
        sel.register(sock, selectors.EVENT_READ, state)

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        for n in range(self.count):
            self._open(sel, n)
        self._ready.set()
        try:
            while not self._stop.is_set():
                for key, _ in sel.select(0.05):
                    try:
                        data = key.fileobj.recv(65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    if data:
                        continue  # (an idle connection's answer, or an error for a slow one)
                    self.closed_by_server += 1
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    self._open(sel, key.data["n"])
                open_ = {key.data["n"] for key in sel.get_map().values()}
                for n in set(range(self.count)) - open_:  # (those a refused connect left out)
                    self._open(sel, n)
                if self.kind == "slow":
                    now = time.monotonic()
                    for key in list(sel.get_map().values()):
                        state = key.data
                        if state["due"] <= now and state["sent"] < len(state["data"]):
                            try:
                                key.fileobj.send(state["data"][state["sent"]:state["sent"] + 1])
                                state["sent"] += 1
                            except OSError:
                                pass  # (closed: the read side sees it)
                            state["due"] = now + TRICKLE_SECONDS
        finally:
            for key in list(sel.get_map().values()):
                key.fileobj.close()
            sel.close()


class _Pipeliner:
    """N connections, each sending `batch` requests at once (GET /v1/games and
    a create-match POST in turn, numbered in X-Request-Id) and reading the
    answers, again and again; counts the answers that came in order."""

    def __init__(self, port: int, count: int, batch: int) -> None:
        self.port, self.count, self.batch = port, count, batch
        self.sent = self.in_order = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def start(self) -> "_Pipeliner":
        self.started = time.monotonic()
        self._threads = [threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(self.count)]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(60)
        self.seconds = time.monotonic() - self.started

    def _requests(self, who: int, round_: int) -> bytes:
        out = []
        for n in range(self.batch):
            rid = b"X-Request-Id: pipe-%d-%d-%d\r\n" % (who, round_, n)
            if n % 2:
                out.append(b"POST /v1/matches HTTP/1.1\r\nHost: parlor\r\nContent-Type: application/json\r\n" + rid
                           + b"Content-Length: %d\r\n\r\n" % len(CREATE) + CREATE)
            else:
                out.append(b"GET /v1/games HTTP/1.1\r\nHost: parlor\r\n" + rid + b"\r\n")
        return b"".join(out)

    def _run(self, who: int) -> None:
        round_ = 0
        while not self._stop.is_set():
            round_ += 1
            data = self._requests(who, round_)
            got = []
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
                    sock.sendall(data)
                    got = _read_answers(sock, self.batch)
            except OSError:
                pass
            expected = [b"pipe-%d-%d-%d" % (who, round_, n) for n in range(self.batch)]
            right = sum(1 for (status, rid), want in zip(got, expected) if status == 200 and rid == want)
            with self._lock:
                self.sent += self.batch
                self.in_order += right


def _read_answers(sock: socket.socket, count: int) -> list[tuple[int, bytes]]:
    """Up to `count` answers (each with a Content-Length): (status, X-Request-Id)."""
    buf, answers = b"", []
    while len(answers) < count:
        head, blank, rest = buf.partition(b"\r\n\r\n")
        if blank:
            fields = {}
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                fields[name.strip().lower()] = value.strip()
            length = int(fields.get(b"content-length", b"0"))
            if len(rest) >= length:
                answers.append((int(head.split(b" ", 2)[1]), fields.get(b"x-request-id", b"")))
                buf = rest[length:]
                continue
        more = sock.recv(1 << 20)
        if not more:
            break
        buf += more
    return answers


# ---- one run -----------------------------------------------------------------------

def _percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _latencies(found: list, kind: str) -> str:
    times = [t for k, t in found if k == kind and t is not None]
    if not times:
        return "no answer"
    return f"{_percentile(times, 0.5) * 1000:.1f} / {_percentile(times, 0.99) * 1000:.0f} ms"


def _settle(port: int, timeout: float = 60) -> None:
    """Waits until the gateway answers promptly again (its threads free)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200 and time.monotonic() - started < 0.5:
                return
        except (OSError, http.client.HTTPException):
            time.sleep(0.2)
        finally:
            conn.close()


def _warm(port: int, seconds: float) -> None:
    found: list = []
    clients = [threading.Thread(target=_normal, args=(port, time.monotonic() + seconds, 10, found))
               for _ in range(4)]
    for client in clients:
        client.start()
    for client in clients:
        client.join()


def run_scenario(port: int, kind: str, count: int, args) -> dict:
    adversary = None
    if kind in ("slow", "silent", "idle"):
        adversary = _Adversary(port, kind, count).start()
    elif kind == "pipelined":
        adversary = _Pipeliner(port, count, args.batch).start()
    try:
        time.sleep(args.warm_up if adversary else 0)
        until = time.monotonic() + args.seconds
        found: list = []
        clients = [threading.Thread(target=_normal, args=(port, until, args.request_timeout, found))
                   for _ in range(args.normal)]
        for client in clients:
            client.start()
        for client in clients:
            client.join()
    finally:
        if adversary is not None:
            adversary.stop()
    result = {"found": found}
    if isinstance(adversary, _Adversary):
        result["closed"] = f"{adversary.closed_by_server / adversary.seconds:,.1f}/s adversary connections closed"
    elif isinstance(adversary, _Pipeliner):
        result["pipelined"] = (f"{adversary.in_order / adversary.seconds:,.0f} pipelined req/s, "
                               f"{adversary.in_order:,}/{adversary.sent:,} answered in order")
    _settle(port)
    return result


def _row(scenario: str, arm: str, result: dict) -> str:
    found = result["found"]
    answered = sum(1 for _, t in found if t is not None)
    notes = [result[key] for key in ("closed", "pipelined") if key in result]
    return (f"{scenario:16} {arm:8} {_latencies(found, 'get'):>18} {_latencies(found, 'post'):>18} "
            f"{f'{answered}/{len(found)}':>9}   {'; '.join(notes)}").rstrip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="how long normal clients are timed per run")
    parser.add_argument("--warm-up", type=float, default=1.0, help="adversaries' head start")
    parser.add_argument("--normal", type=int, default=2, help="normal clients")
    parser.add_argument("--request-timeout", type=float, default=10.0,
                        help="a normal request not answered within this has failed")
    parser.add_argument("--slow", default="8,64", help="counts of slow clients, one run each")
    parser.add_argument("--silent", default="8,64", help="counts of silent connections")
    parser.add_argument("--idle", default="500", help="counts of idle kept-alive connections")
    parser.add_argument("--pipelined", default="4", help="counts of pipelining connections")
    parser.add_argument("--batch", type=int, default=100, help="requests each pipelining connection sends at once")
    parser.add_argument("--arms", default="parlor,gthread")
    args = parser.parse_args()

    import resource

    from tests.support import Stack

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # (the adversaries' sockets; the gateways inherit it)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    env = {"PARLOR_LOG_LEVEL": "WARNING", "PARLOR_GATEWAY_WORKERS": os.environ.get("PARLOR_GATEWAY_WORKERS", "2"),
           "PARLOR_GATEWAY_THREADS": os.environ.get("PARLOR_GATEWAY_THREADS", "4")}
    scenarios = [("baseline", 0)] + [(kind, int(n)) for kind in ("slow", "silent", "idle", "pipelined")
                                    for n in getattr(args, kind).split(",") if n.strip() and int(n) > 0]
    arms = [arm.strip() for arm in args.arms.split(",")]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; gateways of "
          f"{env['PARLOR_GATEWAY_WORKERS']} workers x {env['PARLOR_GATEWAY_THREADS']} threads, client timeout "
          f"{os.environ.get('PARLOR_CLIENT_TIMEOUT_SECONDS', '10')} s; {args.normal} normal clients, "
          f"{args.seconds:g} s per run; clients and servers share the machine", flush=True)
    if "gthread" in arms:
        print(f"gthread: {' '.join(STOCK_ARGS)}", flush=True)
    base = Stack(env=dict(env), gateway=False).start()
    gateways = {}
    try:
        for arm in arms:
            gateway = Stack.on_redis_of(base, env={**env, "PARLOR_SERVICE_TARGET": f"127.0.0.1:{base.grpc_port}"})
            gateways[arm] = gateway
            gateway.start_gateway(*(STOCK_ARGS if arm == "gthread" else []))
        for arm in arms:  # (every worker's gRPC channel up, the code paths warm)
            _warm(gateways[arm].http_port, min(1.0, args.seconds))
        rows = []
        for turn, (kind, count) in enumerate(scenarios):
            name = kind if kind == "baseline" else f"{kind} x{count}"
            for arm in (arms if turn % 2 == 0 else arms[::-1]):  # (neither always first)
                result = run_scenario(gateways[arm].http_port, kind, count, args)
                row = _row(name, arm, result)
                print(row, file=sys.stderr, flush=True)  # (progress; the table follows on stdout)
                rows.append((turn, arms.index(arm), row))
        print()
        print("What a normal client sees: GET /v1/games and POST /v1/matches, p50 / p99 latency, and "
              f"requests answered within {args.request_timeout:g} s")
        print(f"{'scenario':16} {'worker':8} {'GET /v1/games':>18} {'POST /v1/matches':>18} {'answered':>9}   "
              "adversary")
        for *_, row in sorted(rows):
            print(row)
        sys.stdout.flush()
    finally:
        for gateway in gateways.values():
            gateway.stop()
        base.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


if __name__ == "__main__":
    main()
