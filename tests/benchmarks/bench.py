"""Throughput, latency, memory and engine speed, measured against floors.

    .venv/bin/python -m tests.benchmarks.bench [--seconds 10] [--clients 1,8] [--repeat 3]
                                               [--setup-in-floor] [--sync-floor]

Starts Redis, the service and the gateway (as in production: separate
processes, gunicorn for REST) plus two floors with no game logic (floor.py):
a bare gRPC handler doing the same Redis round trips as an action (GET and a
Lua compare-and-set of a blob the size of a match record), and the same
gunicorn set-up proxying each request to it. Client processes play random
4-player What the Heck? matches; only action calls are timed and counted. Each
comparison runs --repeat pairs (ours, then the floor) and prints the median
pair's ratio with every pair's, since a shared machine's noise can swing single
runs by tens of percent. It also prints the servers' CPU time per action (the
service's; for REST the gateway's too), which other tenants sway less
(tests/benchmarks/instructions.py gives a repeatable measure). Clients and
servers share the machine.

Parlor's clients also create and join each match (5 calls per 60 actions,
not counted); the floors' clients make no such calls. --setup-in-floor has
the floors' clients make 5 uncounted calls per 60 actions too, for a
like-for-like comparison (the targets are stated against the bare floors).
--sync-floor also runs the textbook floor (grpc's thread-pool server and
blocking redis-py, the same round trips) in every round, for comparison with
the reference figures of the Foundation issue; the targets use the main floor.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

PLAYERS = 4
ACTIONS_PER_MATCH = 15 * PLAYERS
SETUP_CALLS = 1 + PLAYERS  # per match Parlor's clients also create it and join each seat


# ---- load generators (each runs in its own process) ------------------------------
#
# Both arms of a comparison load their server the same way, so that the ratio
# compares servers, not clients: requests are encoded before the clock starts
# or with one cheap call, replies are read whole and their status checked, and
# no reply body is parsed (only a new match's id and seat tokens are).

def _grpc_caller(target: str):
    """Raw-bytes unary calls over one channel: no (de)serialization in the client."""
    import grpc

    channel = grpc.insecure_channel(target)
    return lambda method: channel.unary_unary(method)


def _ours_grpc(target: str, deadline: float, seed: int, matches: float = math.inf, reply: str = ""):
    """`reply`: the answer's shape asked for ("events": no view)."""
    from parlor.v1 import parlor_pb2 as pb

    rpc = _grpc_caller(target)
    create, join, act = (rpc(f"/parlor.v1.Parlor/{m}") for m in ("CreateMatch", "JoinMatch", "SubmitAction"))
    chooser = random.Random(seed)
    latencies = []
    while time.time() < deadline and len(latencies) < matches * ACTIONS_PER_MATCH:
        match_id = pb.Match.FromString(create(pb.CreateMatchRequest(
            game="what_the_heck", players=PLAYERS).SerializeToString(), timeout=5)).match_id
        tokens = [pb.JoinMatchResponse.FromString(join(pb.JoinMatchRequest(
            match_id=match_id, name=f"b{i}").SerializeToString(), timeout=5)).token
            for i in range(PLAYERS)]
        meta = [(("authorization", f"Bearer {t}"),) for t in tokens]
        hands = [list(range(1, 16)) for _ in range(PLAYERS)]  # 3+ seats hold every number card
        request = pb.SubmitActionRequest(match_id=match_id, reply=reply)
        for _ in range(15):
            for seat in range(PLAYERS):
                request.action.what_the_heck.bid = hands[seat].pop(chooser.randrange(len(hands[seat])))
                body = request.SerializeToString()
                started = time.perf_counter()
                act(body, metadata=meta[seat], timeout=5)  # raises unless the status is OK
                latencies.append(time.perf_counter() - started)
                if time.time() >= deadline:
                    return latencies
    return latencies


def _floor_grpc(target: str, deadline: float, seed: int, matches: float = math.inf,
                setup: bool = False):
    """`setup`: also SETUP_CALLS uncounted calls per ACTIONS_PER_MATCH, as
    Parlor's clients make (the --setup-in-floor comparison)."""
    from tests.benchmarks.floor import METHOD

    call = _grpc_caller(target)(METHOD)
    meta = (("authorization", "Bearer " + "x" * 43),)  # a seat token's size, as ours sends
    latencies, n = [], 0
    while time.time() < deadline and n < matches * ACTIONS_PER_MATCH:
        key = f"{seed}-{n // ACTIONS_PER_MATCH}".encode()
        if setup and n % ACTIONS_PER_MATCH == 0:
            for _ in range(SETUP_CALLS):
                call(key, metadata=meta, timeout=5)
        n += 1
        started = time.perf_counter()
        call(key, metadata=meta, timeout=5)
        latencies.append(time.perf_counter() - started)
    return latencies


class _Http:
    """A minimal keep-alive client: bytes in, (status, bytes) out."""

    def __init__(self, port: int) -> None:
        import http.client

        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: bytes, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request("POST", path, body=body, headers=headers)
        reply = self.conn.getresponse()
        return reply.status, reply.read()


def _ours_rest(port: int, deadline: float, seed: int, matches: float = math.inf, reply: str = ""):
    import json

    shape = b', "reply": "%s"' % reply.encode() if reply else b""

    http = _Http(port)
    chooser = random.Random(seed)
    latencies = []
    while time.time() < deadline and len(latencies) < matches * ACTIONS_PER_MATCH:
        match_id = json.loads(http.post("/v1/matches", b'{"game": "what_the_heck", "players": %d}' % PLAYERS)[1])["matchId"]
        path = f"/v1/matches/{match_id}"
        tokens = [json.loads(http.post(f"{path}/seats", b'{"name": "b%d"}' % i)[1])["token"]
                  for i in range(PLAYERS)]
        hands = [list(range(1, 16)) for _ in range(PLAYERS)]  # 3+ seats hold every number card
        for _ in range(15):
            for seat in range(PLAYERS):
                card = hands[seat].pop(chooser.randrange(len(hands[seat])))
                body = b'{"action": {"whatTheHeck": {"bid": %d}}%s}' % (card, shape)
                started = time.perf_counter()
                status, reply = http.post(f"{path}/actions", body, tokens[seat])
                latencies.append(time.perf_counter() - started)
                assert status == 200, reply
                if time.time() >= deadline:
                    return latencies
    return latencies


def _floor_rest(port: int, deadline: float, seed: int, matches: float = math.inf,
                setup: bool = False):
    """`setup`: as for _floor_grpc."""
    http = _Http(port)
    body = b'{"action": {"whatTheHeck": {"bid": 7}}}'
    latencies, n = [], 0
    while time.time() < deadline and n < matches * ACTIONS_PER_MATCH:
        path = f"/floor/{seed}-{n // ACTIONS_PER_MATCH}"
        if setup and n % ACTIONS_PER_MATCH == 0:
            for _ in range(SETUP_CALLS):
                assert http.post(path, body, "x" * 43)[0] == 200
        n += 1
        started = time.perf_counter()
        status, reply = http.post(path, body, "x" * 43)
        latencies.append(time.perf_counter() - started)
        assert status == 200, reply
    return latencies


LOADS = {"grpc": _ours_grpc, "rest": _ours_rest, "floor-grpc": _floor_grpc, "floor-rest": _floor_rest,
         "grpc-events": partial(_ours_grpc, reply="events"), "rest-events": partial(_ours_rest, reply="events"),
         "floor-grpc-setup": partial(_floor_grpc, setup=True),
         "floor-rest-setup": partial(_floor_rest, setup=True)}


def _client(kind: str, address, ready, seconds: float, seed: int, out: mp.Queue) -> None:
    fn = LOADS[kind]
    import grpc  # noqa: F401  (imported before the clock starts, not in the timed part)

    from parlor.v1 import parlor_pb2  # noqa: F401
    ready.wait()  # every client is here: the clock starts for all at once
    start = time.time()
    used = time.process_time()
    latencies = fn(address, start + seconds, seed)
    out.put((latencies, time.process_time() - used))  # CPU of the timed part only


def _median(results: list[dict]) -> dict:
    """The run with the median rate (its latencies with it)."""
    return sorted(results, key=lambda r: r["rate"])[len(results) // 2]


def _cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by these processes and their
    children (gunicorn's workers), from /proc."""
    ticks, todo = 0, list(pids)
    while todo:
        proc = Path("/proc", str(todo.pop()))
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            todo += [int(c) for c in (proc / "task" / proc.name / "children").read_text().split()]
        except FileNotFoundError:  # exited meanwhile
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def load(kind: str, address, clients: int, seconds: float, servers: list[int] = (),
         redis_pid: int | None = None) -> dict:
    """Runs `clients` client processes for `seconds`; with `servers` (pids),
    also the CPU time those servers spent per action, and with `redis_pid`
    Redis's. The clients' own CPU time per action is always measured."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    ready = ctx.Barrier(clients + 1)  # passed once every client process has started
    procs = [ctx.Process(target=_client, args=(kind, address, ready, seconds, i, out))
             for i in range(clients)]
    for p in procs:
        p.start()
    ready.wait(timeout=60)
    cpu_before = _cpu_seconds(servers)
    redis_before = _cpu_seconds([redis_pid]) if redis_pid else 0.0
    results = [out.get() for _ in procs]
    cpu = _cpu_seconds(servers) - cpu_before
    redis_cpu = _cpu_seconds([redis_pid]) - redis_before if redis_pid else 0.0
    for p in procs:
        p.join()
    latencies = sorted(sum((lat for lat, _ in results), []))
    per_action = 1e6 / len(latencies)
    return {"rate": len(latencies) / seconds, "cpu_us": cpu * per_action,
            "redis_us": redis_cpu * per_action, "client_us": sum(c for _, c in results) * per_action,
            "p50": latencies[len(latencies) // 2] * 1000,
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000}


# ---- in-process figures ----------------------------------------------------------

def engine_playouts(seconds: float = 3.0) -> float:
    from parlor.service.games.rng import Rng
    from parlor.service.games.what_the_heck import GAME

    count, chooser = 0, random.Random(1)
    options = GAME.resolve_options(PLAYERS, {})
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        rng = Rng.from_seed(str(count))
        state = GAME.new_state(PLAYERS, options, rng)
        while GAME.outcome(state) is None:
            for seat in GAME.to_act(state):
                GAME.play(state, seat, chooser.choice(GAME.legal(state, seat)), rng)
        count += 1
    return count / seconds


def memory_per_match(stack, matches: int = 10) -> tuple[float, int]:
    """Plays whole matches over gRPC, every action with an idempotency key, and
    sums MEMORY USAGE over each match's keys."""
    import redis

    from parlor.v1 import parlor_pb2 as pb
    from tests.support import match_memory

    stub = stack.stub()
    client = redis.Redis.from_url(stack.redis_url)
    chooser, used, record = random.Random(7), [], 0
    for _ in range(matches):
        match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=PLAYERS))
        tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=f"player {i}")).token
                  for i in range(PLAYERS)]
        meta = [[("authorization", f"Bearer {t}")] for t in tokens]
        for n in range(15 * PLAYERS):
            seat = n % PLAYERS
            actions = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                            metadata=meta[seat]).actions
            stub.SubmitAction(pb.SubmitActionRequest(
                match_id=match.match_id, action=chooser.choice(actions),
                idempotency_key=f"{seat}-{n:04d}-0123456789abcdef"), metadata=meta[seat])
        used.append(match_memory(client, match.match_id))
        from parlor.service.store import keys
        record = len(client.get(keys(match.match_id)[0]))
    return statistics.mean(used), record


def _answers(rest) -> bool:
    try:
        return rest.post("/floor/warm-up", {}).status == 200
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--engine-seconds", type=float, default=3.0,
                        help="how long the engine's playouts are counted")
    parser.add_argument("--clients", default="1,8")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per arm, alternating ours and the floor; medians are printed")
    parser.add_argument("--setup-in-floor", action="store_true",
                        help="the floors' clients also make the 5 uncounted setup calls per match "
                             "that Parlor's make (create, 4 joins), for a like-for-like comparison; "
                             "the targets are stated against the bare floors")
    parser.add_argument("--events-only", action="store_true",
                        help="also measure actions that ask for the events only (\"reply\": \"events\"), "
                             "beside the default answer with the view")
    parser.add_argument("--processes", default="1,2",
                        help="service process counts (PARLOR_SERVICE_PROCESSES) to measure gRPC throughput "
                             "with, at the largest client count; empty for none")
    parser.add_argument("--sync-floor", action="store_true",
                        help="also measure the textbook floor (floor.py service-sync: grpc's thread-pool "
                             "server, blocking redis-py), the kind the Foundation issue's reference "
                             "figures describe; printed for comparison, the targets use the main floor")
    args = parser.parse_args()
    client_counts = [int(c) for c in args.clients.split(",")]

    from tests.support import Stack

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"{args.seconds:.0f} s per run; clients and servers share the machine", flush=True)
    playouts = engine_playouts(args.engine_seconds)
    print(f"engine: {playouts:,.0f} random 4-player What the Heck? playouts/s on one core", flush=True)

    env = {"PARLOR_LOG_LEVEL": "WARNING"}
    stack = Stack(env=dict(env)).start()
    floors = []
    try:
        mem, record = memory_per_match(stack)
        print(f"redis: {mem / 1024:.1f} KB per finished 4-player match (state, events, action log, "
              f"idempotency records; record {record} bytes)", flush=True)
        floors.append(_start_floor(stack, record, "service", env))
        if args.sync_floor:
            floors.append(_start_floor(stack, record, "service-sync", env))

        floor_name = "floor+setup" if args.setup_in_floor else "floor"
        import redis
        redis_pid = redis.Redis.from_url(stack.redis_url).info("server")["process_id"]
        floor_kind = "-setup" if args.setup_in_floor else ""
        for clients in client_counts:
            for transport in ("gRPC", "REST"):
                kind = transport.lower()
                servers = ["service"] + (["gateway"] if kind == "rest" else [])
                # Alternate the arms and take medians: a shared machine's noise
                # (other tenants, CPU steal) then falls on all alike.
                runs = [[load(kind, _address(stack, kind), clients, args.seconds,
                              [stack.procs[name].pid for name in servers], redis_pid)]
                        + [load(f"floor-{kind}{floor_kind}", _address(f, kind), clients, args.seconds,
                                [f.procs[name].pid for name in servers], redis_pid) for f in floors]
                        for _ in range(args.repeat)]
                # The ratio is the median of each pair's ratio (a pair ran back to back).
                ours, base = (_median([run[i] for run in runs]) for i in (0, 1))
                print(f"{transport:4} {clients} client(s): {ours['rate']:7.0f} actions/s "
                      f"(p50 {ours['p50']:.2f} ms, p99 {ours['p99']:.2f} ms)   {floor_name} {base['rate']:7.0f}/s "
                      f"(p50 {base['p50']:.2f} ms, p99 {base['p99']:.2f} ms)   {_paired(runs, 1)}", flush=True)
                # Server CPU time per action: less swayed by other tenants than
                # throughput, and unlike instruction counts it includes system calls.
                cpu = [statistics.median(run[i]["cpu_us"] for run in runs) for i in (0, 1)]
                print(f"{'':4} server CPU per action ({' + '.join(servers)}): {cpu[0]:.0f} us, "
                      f"{floor_name} {cpu[1]:.0f} us, ratio {cpu[1] / cpu[0]:.0%}", flush=True)
                # Clients, servers and Redis share the cores: with 8 clients the
                # machine is busy, and every process's CPU per action counts.
                extra = [[statistics.median(run[i][k] for run in runs) for k in ("redis_us", "client_us")]
                         for i in (0, 1)]
                total = [cpu[i] + sum(extra[i]) for i in (0, 1)]
                print(f"{'':4} with Redis and the clients: ours {total[0]:.0f} us (Redis {extra[0][0]:.0f}, "
                      f"clients {extra[0][1]:.0f}), {floor_name} {total[1]:.0f} us (Redis {extra[1][0]:.0f}, "
                      f"clients {extra[1][1]:.0f}), ratio {total[1] / total[0]:.0%}", flush=True)
                if args.sync_floor:
                    sync = _median([run[2] for run in runs])
                    print(f"{'':4} textbook {floor_name} (grpc's thread-pool server, blocking redis-py): "
                          f"{sync['rate']:7.0f}/s (p50 {sync['p50']:.2f} ms), {_paired(runs, 2)}", flush=True)
                if args.events_only:
                    lean = _median([load(f"{kind}-events", _address(stack, kind), clients, args.seconds,
                                         [stack.procs[name].pid for name in servers], redis_pid)
                                    for _ in range(args.repeat)])
                    print(f"{'':4} events only (\"reply\": \"events\"): {lean['rate']:7.0f} actions/s "
                          f"(p50 {lean['p50']:.2f} ms, p99 {lean['p99']:.2f} ms), server CPU per action "
                          f"{lean['cpu_us']:.0f} us", flush=True)
        for processes in [int(n) for n in args.processes.split(",") if n]:
            _processes(stack, processes, max(client_counts), args.seconds, args.repeat, env)
    finally:
        for floor in floors:
            floor.stop()  # their Redis is the stack's: stopped with the stack
        stack.stop()


def _processes(stack, processes: int, clients: int, seconds: float, repeat: int, env: dict[str, str]) -> None:
    """gRPC throughput of a service of `processes` processes on one port, on
    the stack's Redis (each client process has a connection of its own, which
    the kernel gives to one of them)."""
    from tests.support import Stack

    service = Stack.on_redis_of(stack, gateway=False, env={**env, "PARLOR_SERVICE_PROCESSES": str(processes)})
    try:
        service.start_service()
        runs = [load("grpc", _address(service, "grpc"), clients, seconds, [service.procs["service"].pid])
                for _ in range(repeat)]
    finally:
        service.stop()
    run = _median(runs)
    print(f"gRPC {clients} client(s), {processes} service process(es): {run['rate']:7.0f} actions/s "
          f"(p50 {run['p50']:.2f} ms, p99 {run['p99']:.2f} ms), service CPU per action {run['cpu_us']:.0f} us",
          flush=True)


def _paired(runs: list[list[dict]], floor: int) -> str:
    """Ours against floor number `floor` of each round (run back to back): the
    median ratio, and every round's."""
    ratios = sorted(run[0]["rate"] / run[floor]["rate"] for run in runs)
    return f"ratio {ratios[len(ratios) // 2]:.0%} (pairs: {', '.join(f'{r:.0%}' for r in ratios)})"


def _address(stack, kind: str):
    """Where a stack (ours or a floor) answers `kind` ("grpc" or "rest")."""
    return f"127.0.0.1:{stack.grpc_port}" if kind == "grpc" else stack.http_port


def _start_floor(stack, record: int, mode: str, env: dict[str, str]):
    """A floor (floor.py `mode`) and the gunicorn set-up proxying to it, on the
    stack's Redis, with a blob the size of the stack's match record."""
    from tests.support import Rest, Stack, _wait

    floor = Stack.on_redis_of(stack, env={**env, "FLOOR_BLOB_BYTES": str(record)})
    try:
        proc = floor._spawn("service", ["-m", "tests.benchmarks.floor", mode])
        _wait(floor._grpc_up, f"floor {mode}", proc=proc)
        proc = floor._spawn("gateway", ["-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
                                        "tests.benchmarks.floor:create_app()"])
        rest = Rest(floor.http_port)
        _wait(lambda: _answers(rest), f"floor gateway ({mode})", proc=proc)
        rest.close()
    except BaseException:
        floor.stop()
        raise
    return floor


if __name__ == "__main__":
    main()
