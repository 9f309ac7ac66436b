"""The `parlor` command.

    parlor dev       service, gateway and worker on this machine; an embedded Redis unless REDIS_URL is set
    parlor service   the gRPC rules service
    parlor gateway   the REST gateway under gunicorn
    parlor worker    bots' moves and turn clocks, from the schedule in Redis
    parlor bot ID    bots take a match's open seats and play them to the end (over gRPC)
    parlor verify X  re-runs a finished match from its replay (a URL or a file) and checks it
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from parlor.common.config import Settings, cannot_listen, host_port, redacted_url

GATEWAY_ARGS = ["-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf", "parlor.gateway.wsgi:app"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="parlor", description="Parlor: small card games as a service.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("dev", help="run service, gateway and (unless REDIS_URL is set) an embedded Redis")
    sub.add_parser("service", help="run the gRPC rules service (needs REDIS_URL)")
    sub.add_parser("gateway", help="run the REST gateway under gunicorn")
    sub.add_parser("worker", help="run bots' moves and turn clocks (needs REDIS_URL)")
    verify = sub.add_parser("verify", help="re-run a finished match from its replay record and check its "
                                           "seed, every action and its result")
    verify.add_argument("replay", help="the replay's URL (http(s)://.../v1/matches/<id>/replay) or a file "
                                       "holding its JSON (- for standard input)")
    bot = sub.add_parser("bot", help="bots take open seats of a match (on the service at "
                                     "PARLOR_SERVICE_TARGET) and play them to the end")
    bot.add_argument("match_id")
    bot.add_argument("--seats", type=int, default=None, help="how many open seats to take (default: all)")
    bot.add_argument("--name", default="Bot", help="the bots' seat name (numbered when several)")
    bot.add_argument("--seed", default=None, help="makes the bots' choices repeatable")
    args = parser.parse_args(argv)
    command = args.command
    if command == "bot":
        from .bots.client import run
        sys.exit(run(_service_target(), args.match_id, args.seats, args.name, args.seed,
                     out=lambda line: print(line, flush=True)))
    if command == "verify":
        from .verify import main as verify_main
        sys.exit(verify_main(args.replay))
    if command == "service":
        from .server import main as serve
        serve()
    elif command == "worker":
        from .worker import main as work
        work()
    elif command == "gateway":
        settings = Settings.from_env()
        _check_free(settings.host, settings.http_port, "PARLOR_HTTP_PORT")
        os.execv(sys.executable, [sys.executable, *GATEWAY_ARGS])
    else:
        sys.exit(dev())


def _dev_file() -> str:
    """Where a running `parlor dev` says where it listens, for the other
    `parlor` commands of this user on this machine."""
    return os.path.join(tempfile.gettempdir(), f"parlor-dev-{os.getuid()}.json")


def _service_target() -> str:
    """The service `parlor bot` calls: PARLOR_SERVICE_TARGET when set; else
    the one a `parlor dev` of this user runs (it may listen on other ports than
    the defaults); else localhost on PARLOR_GRPC_PORT (50051)."""
    settings = Settings.from_env()
    if os.environ.get("PARLOR_SERVICE_TARGET", "").strip():
        return settings.service_target
    try:
        with open(_dev_file(), encoding="utf-8") as file:
            running = json.load(file)
        os.kill(running["pid"], 0)  # (still running)
        return running["grpc"]
    except (OSError, ValueError, KeyError, TypeError):
        return host_port("localhost", settings.grpc_port)


def _check_free(host: str, port: int, variable: str) -> None:
    """Stops with a message naming `variable` when the port cannot be bound
    (gunicorn would retry for 5 s and then name neither)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            sock.bind((host, port))
    except OSError as exc:
        raise cannot_listen(host, port, variable, exc) from None


def dev() -> int:
    env = dict(os.environ)
    if not env.get("PARLOR_HOST", "").strip():  # (empty counts as unset)
        env["PARLOR_HOST"] = "127.0.0.1"
    settings = Settings.from_env()
    settings.check_distinct_ports("PARLOR_HTTP_PORT", "PARLOR_GRPC_PORT", "PARLOR_METRICS_PORT",
                                  "PARLOR_WORKER_PORT")
    _check_free(env["PARLOR_HOST"], settings.http_port, "PARLOR_HTTP_PORT")  # before anything starts
    if settings.redis_url:
        return _supervise(env, settings, embedded=False)
    from .embedded_redis import EmbeddedRedis
    redis = EmbeddedRedis()
    try:
        try:
            env["REDIS_URL"] = redis.start().url
        except RuntimeError as exc:
            raise SystemExit(f"parlor dev: the embedded Redis: {exc}") from None
        return _supervise(env, settings, embedded=True)
    finally:
        redis.cleanup()


def _supervise(env: dict[str, str], settings: Settings, embedded: bool) -> int:
    """Runs the service and the worker, then the gateway once the service
    serves, until Ctrl-C (or SIGTERM) or any of them exits; stops them all."""
    # Where to reach what binds PARLOR_HOST (a wildcard: on the loopback).
    host = env["PARLOR_HOST"] if env["PARLOR_HOST"] not in ("0.0.0.0", "::") else "127.0.0.1"
    env["PARLOR_SERVICE_TARGET"] = target = host_port(host, settings.grpc_port)
    # The gateway starts once the service serves: a gateway worker that tried
    # the service before it was up backs off (up to a second) and would answer
    # 503 after the banner said Parlor was running.
    children = [subprocess.Popen([sys.executable, "-m", "parlor.service.server"], env=env),
                subprocess.Popen([sys.executable, "-m", "parlor.service.worker"], env=env)]
    before_gateway = len(children)  # (the gateway is the last child)
    stopping = False

    def stop(signum=None, _frame=None):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    rest = f"http://{host_port(host, settings.http_port)}"
    announced = False
    started = time.monotonic()
    code = 0
    try:
        while not stopping:
            exited = [c for c in children if c.poll() is not None]
            if exited:
                code = exited[0].returncode or 1
                print(f"parlor dev: a server exited ({code}); stopping", file=sys.stderr)
                break
            if len(children) == before_gateway:
                if _serving(target):
                    children.append(subprocess.Popen([sys.executable, *GATEWAY_ARGS], env=env))
            elif not announced and _ready(f"{rest}/readyz"):
                announced = True
                _announce(target, rest)
                print(f"\nParlor is running (Ctrl-C stops it)\n"
                      f"  Web    {rest}/  (play in a browser)\n"
                      f"  REST   {rest}  (OpenAPI: {rest}/v1/openapi.json)\n"
                      f"  gRPC   {target}  (`parlor bot` finds it)\n"
                      f"  Worker bots' moves and turn clocks; health on port {settings.worker_port}\n"
                      f"  Redis  {redacted_url(env['REDIS_URL'])}"
                      f"{' (embedded, discarded on exit)' if embedded else ' (REDIS_URL)'}\n", flush=True)
            if not announced and time.monotonic() - started > 30:
                waiting = ("the service (is Redis reachable?)" if len(children) == before_gateway
                           else "the gateway")
                print(f"parlor dev: still waiting for {waiting} after 30 s; check the logs above",
                      file=sys.stderr)
                started = time.monotonic()
            time.sleep(0.2)
    finally:
        if announced:
            _withdraw()
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(settings.drain_seconds + 5)
            except subprocess.TimeoutExpired:
                child.kill()
    return code


def _announce(target: str, rest: str) -> None:
    """Writes where this `parlor dev` listens (see _service_target)."""
    try:
        with open(_dev_file(), "w", encoding="utf-8") as file:
            json.dump({"pid": os.getpid(), "grpc": target, "rest": rest}, file)
    except OSError:
        pass  # (then `parlor bot` needs PARLOR_SERVICE_TARGET)


def _withdraw() -> None:
    try:
        path = _dev_file()
        with open(path, encoding="utf-8") as file:
            if json.load(file).get("pid") != os.getpid():
                return  # another parlor dev's
        os.unlink(path)
    except (OSError, ValueError, AttributeError):
        pass


def _serving(target: str) -> bool:
    """Whether the gRPC service at `target` reports SERVING (Redis reachable)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(),
                                                              timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as reply:
            return reply.status == 200
    except (OSError, http.client.HTTPException):  # (not yet up; or something else answers there)
        return False


if __name__ == "__main__":
    main()
