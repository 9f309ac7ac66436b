"""CPU instructions per action, ours against the floors: a repeatable measure.

    .venv/bin/python -m tests.benchmarks.instructions [--matches 4]

Throughput on a shared 2-core machine swings with other tenants (CPU steal);
instruction counts do not. This runs one server process at a time under
valgrind's callgrind (the gRPC service, or one gunicorn worker of the gateway
with the service running natively behind it), drives it with the benchmark's
own load generators from one client, and prints instructions per action for
Parlor and for the floor (floor.py), and their ratio. Each figure is the
difference between a run of 1 match and a run of 1 + --matches matches, so
start-up and shut-down cancel out. Needs valgrind; takes a few minutes.

Instructions are not time: system calls (the same number in both arms) are not
counted, so the ratio is a little harsher than a CPU-time ratio. At saturation
the service process is the bottleneck of the gRPC benchmark, so the ratio of its
instructions per action predicts the throughput ratio there.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from parlor.service.embedded_redis import EmbeddedRedis, free_port
from tests.benchmarks.bench import ACTIONS_PER_MATCH, LOADS


def _total_instructions(path: str) -> int:
    with open(path) as dump:
        for line in dump:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {path}")


def _run(part: str, arm: str, matches: int, redis_url: str, workdir: str, reply: str = "") -> int:
    """Total instructions of the measured process (the service, or the gateway
    worker) over one warm-up match plus `matches` matches."""
    grpc_port, http_port = free_port(), free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PARLOR_HOST="127.0.0.1",
               PARLOR_GRPC_PORT=str(grpc_port), PARLOR_HTTP_PORT=str(http_port),
               PARLOR_SERVICE_TARGET=f"127.0.0.1:{grpc_port}", PARLOR_METRICS_PORT=str(free_port()),
               PARLOR_LOG_LEVEL="WARNING", PARLOR_GATEWAY_WORKERS="1", PARLOR_SERVICE_PROCESSES="1",
               FLOOR_BLOB_BYTES="1736")
    service = ["-m", "parlor.service.server"] if arm == "ours" else ["-m", "tests.benchmarks.floor", "service"]
    gateway = ["-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
               "parlor.gateway.wsgi:app" if arm == "ours" else "tests.benchmarks.floor:create_app()"]
    out = os.path.join(workdir, f"{part}-{arm}-{matches}")
    callgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", sys.executable]
    quiet = dict(env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    measured = subprocess.Popen(callgrind + (service if part == "service" else gateway), **quiet)
    helper = None if part == "service" else subprocess.Popen([sys.executable, *service], **quiet)
    try:
        address = f"127.0.0.1:{grpc_port}" if part == "service" else http_port
        load = LOADS[("" if arm == "ours" else "floor-") + ("grpc" if part == "service" else "rest")
                     + (f"-{reply}" if reply and arm == "ours" else "")]
        deadline = time.time() + 300
        while True:  # the first match doubles as the wait for start-up
            try:
                load(address, math.inf, 99, matches=1)
                break
            except Exception:  # not listening yet (under valgrind, start-up takes a while)
                if time.time() > deadline or measured.poll() is not None:
                    raise
                time.sleep(1)
        if matches:
            load(address, math.inf, 1, matches=matches)
        pid = measured.pid
        if part == "gateway":  # the worker gunicorn forked (callgrind follows forks)
            pid = int(open(f"/proc/{pid}/task/{pid}/children").read().split()[0])
    finally:
        measured.terminate()
        measured.wait()
        if helper is not None:
            helper.terminate()
            helper.wait()
    for _ in range(60):  # the worker's counts are written as it exits
        if os.path.exists(f"{out}.{pid}"):
            time.sleep(1)
            return _total_instructions(f"{out}.{pid}")
        time.sleep(1)
    raise RuntimeError(f"callgrind wrote no counts for {part} ({arm})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--parts", default="service,gateway", help="which processes to measure")
    parser.add_argument("--no-floor", action="store_true", help="measure Parlor only")
    parser.add_argument("--events-only", action="store_true",
                        help="also measure actions asking for the events only (\"reply\": \"events\")")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    redis = EmbeddedRedis().start()
    workdir = tempfile.mkdtemp(prefix="parlor-callgrind-")
    try:
        arms = [("ours", "")] + ([("ours", "events")] if args.events_only else []) \
            + ([] if args.no_floor else [("floor", "")])
        for part in args.parts.split(","):
            per_action = {}
            for arm, reply in arms:
                base = _run(part, arm, 0, redis.url, workdir, reply)
                more = _run(part, arm, args.matches, redis.url, workdir, reply)
                per_action[(arm, reply)] = (more - base) / (args.matches * ACTIONS_PER_MATCH)
            ours = per_action[("ours", "")]
            line = f"{part:8} instructions per action: Parlor {ours / 1000:,.0f}k"
            if ("ours", "events") in per_action:
                line += f" (events only: {per_action[('ours', 'events')] / 1000:,.0f}k)"
            if ("floor", "") in per_action:
                floor = per_action[("floor", "")]
                line += f", floor {floor / 1000:,.0f}k, ratio {floor / ours:.0%}"
            print(line, flush=True)
    finally:
        redis.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
