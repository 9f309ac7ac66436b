"""Several service processes on one port (PARLOR_SERVICE_PROCESSES): every core
of a machine serves calls, where one Python process (one event loop, one GIL)
would use one.

`parlor service` with more than one process is a small supervisor: it checks
the ports are free, starts the processes (each a whole service, binding the
gRPC port with SO_REUSEPORT, so that the kernel spreads new connections over
them), serves their metrics on PARLOR_METRICS_PORT, summed (each process writes
its values to files in a directory of the supervisor's, prometheus_client's
multi-process mode), and passes SIGTERM and SIGINT on, so that each drains
as a lone service does. A process that dies (killed, or failing later on) is
started again; one that stops with an error at its start stops them all.

A gRPC client's connection stays with the process that accepted it, so a
client (or gateway worker) talks to one process, whose kept records
(RecordCache) then serve its matches.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from parlor.common.config import Settings, cannot_listen, host_port

START_SECONDS = 10.0  # a process that exits with an error this soon after its start failed to start


def _check_free(host: str, port: int, variable: str) -> None:
    """Stops, naming `variable`, when another process holds the port: the
    processes share it with each other (SO_REUSEPORT), never with a stranger."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.bind((host, port))
    except OSError as exc:
        raise cannot_listen(host, port, variable, exc) from None


def supervise(settings: Settings) -> int:
    from prometheus_client import CollectorRegistry, multiprocess, start_http_server

    settings.check_distinct_ports("PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT")
    _check_free(settings.host, settings.grpc_port, "PARLOR_GRPC_PORT")
    metrics_dir = tempfile.mkdtemp(prefix="parlor-service-metrics-")
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=metrics_dir)
    try:
        start_http_server(settings.metrics_port, addr=settings.host, registry=registry)
    except OSError as exc:
        shutil.rmtree(metrics_dir, ignore_errors=True)
        raise cannot_listen(settings.host, settings.metrics_port, "PARLOR_METRICS_PORT", exc,
                            "serve metrics on") from None
    stopping = []
    signal.signal(signal.SIGTERM, lambda sig, _frame: stopping.append(sig))
    signal.signal(signal.SIGINT, lambda sig, _frame: stopping.append(sig))
    children: dict[int, tuple[subprocess.Popen, float]] = {}

    def start(index: int) -> None:
        proc = subprocess.Popen([sys.executable, "-m", "parlor.service.processes", metrics_dir])
        children[index] = (proc, time.monotonic())

    print(f'{{"msg": "parlor service: {settings.service_processes} processes on '
          f'{host_port(settings.host, settings.grpc_port)}"}}', flush=True)
    code = 0
    try:
        for index in range(settings.service_processes):
            start(index)
        while not stopping:
            time.sleep(0.2)
            for index, (proc, started) in list(children.items()):
                if proc.poll() is None:
                    continue
                multiprocess.mark_process_dead(proc.pid, metrics_dir)
                if proc.returncode > 0 and time.monotonic() - started < START_SECONDS:
                    code = proc.returncode  # (it stopped with a message: a port taken, a setting)
                    stopping.append(None)
                    break
                print(f'{{"msg": "parlor service: a process exited ({proc.returncode}); starting another"}}',
                      flush=True)
                start(index)
    finally:
        sig = next((s for s in stopping if s is not None), signal.SIGTERM)
        for proc, _ in children.values():
            if proc.poll() is None:
                proc.send_signal(sig)
        for proc, _ in children.values():
            try:
                proc.wait(settings.drain_seconds + 10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(metrics_dir, ignore_errors=True)
    return code


def _one_of_several(metrics_dir: str) -> None:
    """A service process started by supervise(): its metrics go to files in
    `metrics_dir` (set before anything creates a metric), its port is shared."""
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    from prometheus_client import values
    values.ValueClass = values.MultiProcessValue()
    values.ValueClass.parlor_shared = True  # (metrics.py keeps it: see there)

    from .server import main
    main(shared_port=True)


if __name__ == "__main__":
    _one_of_several(sys.argv[1])
