"""What operators see: metrics that move, JSON logs with one request id from
gateway to service, and a drain on SIGTERM that fails nothing already accepted."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import grpc
import pytest

from parlor.service.embedded_redis import EmbeddedRedis, free_port
from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def scrape(url: str) -> dict[str, float]:
    with urllib.request.urlopen(url, timeout=5) as reply:
        text = reply.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def test_metrics_move_after_a_match(stack, rest):
    service_metrics = f"http://127.0.0.1:{stack.metrics_port}/metrics"
    gateway_metrics = f"http://127.0.0.1:{stack.http_port}/metrics"
    before_s, before_g = scrape(service_metrics), scrape(gateway_metrics)
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    rest.post(f"/v1/matches/{match['matchId']}/actions", {"action": {"whatTheHeck": {"bid": 99}}},
              token=tokens[0])
    _, actions = play_rest_to_end(rest, match["matchId"], tokens, random.Random(9))
    after_s, after_g = scrape(service_metrics), scrape(gateway_metrics)

    def delta(after, before, key):
        return after.get(key, 0) - before.get(key, 0)

    accepted = 'parlor_actions_total{game="what_the_heck",outcome="accepted"}'
    assert delta(after_s, before_s, accepted) == actions
    assert delta(after_s, before_s, 'parlor_actions_total{game="what_the_heck",outcome="illegal"}') == 1
    assert delta(after_s, before_s, 'parlor_matches_total{game="what_the_heck",step="finished"}') == 1
    assert delta(after_s, before_s, 'parlor_rpc_requests_total{code="OK",rpc="SubmitAction"}') == actions
    assert "parlor_active_matches" in after_s
    # one service process plays the whole match: every read after the first write finds its record kept
    assert delta(after_s, before_s, 'parlor_record_cache_total{result="hit"}') >= actions
    assert any(k.startswith("parlor_rpc_duration_seconds_bucket") for k in after_s)
    route = 'parlor_http_requests_total{method="POST",route="/v1/matches/<match_id>/actions",status="200"}'
    assert delta(after_g, before_g, route) == actions
    assert any(k.startswith("parlor_http_request_duration_seconds_bucket") for k in after_g)


def test_metrics_content_type_is_prometheus_text(stack):
    for url in (f"http://127.0.0.1:{stack.http_port}/metrics", f"http://127.0.0.1:{stack.metrics_port}/metrics"):
        with urllib.request.urlopen(url, timeout=5) as reply:
            kind = reply.headers["Content-Type"]
        assert kind.startswith("text/plain; version=") and kind.count("charset=") == 1, (url, kind)


def test_metric_labels_stay_bounded_whatever_clients_send(stack, rest):
    """Any method token and any path: the labels stay within a fixed set."""
    gateway_metrics = f"http://127.0.0.1:{stack.http_port}/metrics"
    for n in range(5):
        reply = rest.request(f"FROB{'X' * n}", f"/no/such/path/{n}")
        assert reply.status in (404, 405) and reply.error
    labels = [k for k in scrape(gateway_metrics) if k.startswith("parlor_http_requests_total{")]
    assert not any("FROB" in k or "/no/such" in k for k in labels)
    assert 'parlor_http_requests_total{method="OTHER",route="unmatched",status="404"}' in labels


def test_json_logs_carry_the_request_id_across_and_no_secrets(stack, rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    reply = rest.post(f"/v1/matches/{match['matchId']}/actions", {"action": {"whatTheHeck": {"bid": 4}}},
                      token=tokens[0], headers={"X-Request-Id": "trace-4711"})
    assert reply.headers["x-request-id"] == "trace-4711"
    generated = rest.get("/v1/games").headers["x-request-id"]
    stack.log_with("gateway", "trace-4711", generated)
    stack.log_with("service", "trace-4711", generated)
    for name in ("gateway", "service"):
        lines = [line for line in stack.log(name).splitlines() if line.startswith("{")]
        parsed = [json.loads(line) for line in lines]  # every line is JSON
        assert any(p.get("request_id") == "trace-4711" for p in parsed), name
        assert any(p.get("request_id") == generated for p in parsed), name
        text = stack.log(name)
        assert not any(token in text for token in tokens), f"a token reached the {name} log"
        assert "test-seed" not in text, f"a seed reached the {name} log"


@pytest.fixture
def drain_stack():
    s = Stack(env={"PARLOR_DRAIN_SECONDS": "10", "PARLOR_GATEWAY_WORKERS": "2"}).start()
    yield s
    s.stop()


def burst_through_sigterm(stack, process: str, senders) -> tuple[list, float, int]:
    """Each sender calls in a loop on its own thread; once 30 calls are done,
    `process` gets SIGTERM. Returns (started, finished, outcome) per call, when the signal
    went, and the exit code."""
    stop, results = threading.Event(), []

    def loop(send):
        while not stop.is_set():
            started = time.monotonic()
            try:
                outcome = send()
            except Exception as exc:  # connection refused after shutdown began
                outcome = type(exc).__name__
            results.append((started, time.monotonic(), outcome))

    threads = [threading.Thread(target=loop, args=(send,)) for send in senders]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(results) < 30 and time.monotonic() < deadline:  # calls in flight, even on a busy machine
        time.sleep(0.05)
    signalled = time.monotonic()
    code = stack.stop_process(process, signal.SIGTERM)
    stop.set()
    for t in threads:
        t.join()
    return results, signalled, code


def test_sigterm_drains_the_gateway(drain_stack):
    rest = drain_stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    path = f"/v1/matches/{match['matchId']}"
    clients = [drain_stack.rest() for _ in range(6)]
    results, signalled, code = burst_through_sigterm(
        drain_stack, "gateway", [lambda c=c: c.get(path, token=tokens[0]).status for c in clients])
    assert code == 0
    answered_before = [r for r in results if r[0] < signalled]
    assert len(answered_before) > 20
    assert all(r[2] == 200 for r in answered_before), [r for r in answered_before if r[2] != 200][:5]
    assert not any(isinstance(r[2], int) and r[2] >= 500 for r in results)


def test_a_stopping_gateway_finishes_closing_its_connections_before_it_exits(drain_stack):
    """After SIGTERM, a kept-alive connection's next request is answered with
    "Connection: close", and the worker lingers until the client has read it:
    bytes the client sent meanwhile (a request pipelined behind) must not
    reset the connection and cut off the answer (the lingering worker exited
    first, and its sockets were reset)."""
    import socket

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answer waits in the gateway's buffers
    sock.settimeout(10)
    sock.connect(("127.0.0.1", drain_stack.http_port))
    with sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        first = b""
        while not first.endswith(b"}"):
            first += sock.recv(4096)
        assert first.startswith(b"HTTP/1.1 200")
        drain_stack.procs["gateway"].send_signal(signal.SIGTERM)
        time.sleep(0.5)
        sock.sendall(b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.05)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # behind it, after the gateway read it
        time.sleep(1)
        reply = b""
        while more := sock.recv(65536):
            reply += more
    head, _, body = reply.partition(b"\r\n\r\n")
    length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
                 .split(b":")[1])
    assert head.startswith(b"HTTP/1.1 200") and b"Connection: close" in head
    assert len(body) == length and json.loads(body)["openapi"]
    assert drain_stack.stop_process("gateway") == 0


def test_sigterm_drains_the_service(drain_stack):
    """Calls the server accepted before SIGTERM all complete OK."""
    channel = drain_stack.channel()
    stub = drain_stack.stub(channel)
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=n)).token for n in "ab"]

    def get():
        try:
            stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id), metadata=auth(tokens[0]), timeout=5)
            return "OK"
        except grpc.RpcError as err:
            return err.code().name

    results, signalled, code = burst_through_sigterm(drain_stack, "service", [get] * 6)
    channel.close()
    assert code == 0
    finished_before = [r for r in results if r[1] < signalled]
    assert len(finished_before) > 20 and all(r[2] == "OK" for r in finished_before)
    # Every call the server accepted (it logs each one it handles) was answered OK;
    # calls still on the wire when the drain began were refused, never half-done.
    handled = [json.loads(line) for line in drain_stack.log("service").splitlines()
               if '"rpc": "GetMatch"' in line]
    assert all(line["code"] == "OK" for line in handled)
    answered = [r for r in results if r[2] == "OK"]
    assert len(answered) == len(handled)
    # The rest never ran: refused, or cancelled once the drain found no call left in
    # a handler (gRPC may hold a call it took as it began stopping); on a very busy
    # machine such a call can still reach the client's deadline first.
    assert {r[2] for r in results} <= {"OK", "CANCELLED", "UNAVAILABLE", "DEADLINE_EXCEEDED"}
    assert all(r[1] >= signalled for r in results if r[2] == "DEADLINE_EXCEEDED"), "a deadline before the drain"


def test_a_second_service_on_a_taken_port_refuses_to_start(stack, rest):
    """gRPC would share the port (SO_REUSEPORT) and split the calls between two
    services; ours exits with a clear message instead, and the first serves on.
    So it does when the metrics port is the one taken."""
    for free, words in (
            ("PARLOR_METRICS_PORT",
             f"cannot listen on 127.0.0.1:{stack.grpc_port} (PARLOR_GRPC_PORT): "
             "is another process using the port?"),
            ("PARLOR_GRPC_PORT", f"cannot serve metrics on 127.0.0.1:{stack.metrics_port} "
                                 "(PARLOR_METRICS_PORT): Address already in use")):
        env = {**stack.process_env(), free: str(free_port())}  # the other port is the first's
        second = subprocess.run([sys.executable, "-m", "parlor.service.server"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode != 0
        assert second.stderr.strip().splitlines()[-1] == words
    assert rest.get("/v1/games").status == 200


def test_parlor_gateway_on_a_taken_port_names_the_variable(stack, tmp_path):
    """gunicorn would retry the bind for 5 s and then name neither the port's
    variable nor the reason; `parlor gateway` checks the port first."""
    metrics = tmp_path / "metrics"
    env = {**stack.process_env(), "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    second = subprocess.run([sys.executable, "-c", "from parlor.service.cli import main; main(['gateway'])"],
                            env=env, capture_output=True, text=True, timeout=60)
    assert second.returncode != 0
    assert second.stderr.strip().splitlines()[-1] == (
        f"cannot listen on 127.0.0.1:{stack.http_port} (PARLOR_HTTP_PORT): Address already in use")
    assert not metrics.exists(), "gunicorn was started"


def test_the_service_keeps_its_metrics_in_memory_whatever_the_gateway_variable_says(tmp_path):
    """PROMETHEUS_MULTIPROC_DIR is the gateway workers' (one environment may hold
    both parts' settings): the service neither fails on a missing directory nor
    writes its metrics there."""
    missing, present = tmp_path / "missing", tmp_path / "present"
    present.mkdir()
    for directory in (missing, present):
        s = Stack(env={"PROMETHEUS_MULTIPROC_DIR": str(directory)}, gateway=False).start()
        try:
            stub = s.stub()
            stub.ListGames(pb.ListGamesRequest(), timeout=10)
            samples = scrape(f"http://127.0.0.1:{s.metrics_port}/metrics")
            assert samples['parlor_rpc_requests_total{code="OK",rpc="ListGames"}'] >= 1
        finally:
            s.stop()
    assert not missing.exists() and list(present.iterdir()) == []


def test_a_second_gateway_on_the_same_port_leaves_the_first_ones_metrics_alone(stack, rest):
    """A second gateway started by mistake on the running one's port would share
    its metrics directory (named after the port): it used to empty it before
    failing to bind, and the first one's /metrics lost every series for good."""
    second = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
                             "parlor.gateway.wsgi:app"], env=stack.process_env(),
                            capture_output=True, text=True, timeout=60)
    assert second.returncode != 0
    assert "belongs to a gateway that is running" in second.stderr
    assert rest.get("/v1/games").status == 200
    samples = scrape(f"http://127.0.0.1:{stack.http_port}/metrics")
    assert samples['parlor_http_requests_total{method="GET",route="/v1/games",status="200"}'] >= 1


def test_an_embedded_redis_does_not_take_another_servers_port_for_its_own():
    """free_port() frees the port before redis-server binds it, so another
    server (another test run's) can take it first: starting then fails, rather
    than going on with a Redis that is not ours."""
    with EmbeddedRedis() as theirs:
        with pytest.raises(RuntimeError, match="taken by another Redis"):
            EmbeddedRedis(port=theirs.port).start()
        assert theirs.process.poll() is None


def test_the_gateway_calls_the_service_directly_whatever_proxy_variables_say(stack):
    """http_proxy and grpc_proxy (set cluster-wide on some nodes) would make gRPC
    tunnel the gateway's calls through a proxy, here one that is not there."""
    from parlor.service.embedded_redis import free_port

    from ..support import Stack

    dead_proxy = f"http://127.0.0.1:{free_port()}"
    gateway = Stack.on_redis_of(stack, env={"PARLOR_SERVICE_TARGET": f"127.0.0.1:{stack.grpc_port}",
                                            "http_proxy": dead_proxy, "grpc_proxy": dead_proxy,
                                            "no_proxy": ""})
    try:
        gateway.start_gateway()
        rest = gateway.rest()
        assert rest.get("/readyz").status == 200
        assert rest.get("/v1/games").status == 200
        rest.close()
    finally:
        gateway.stop()


def test_a_second_gateway_given_a_running_ones_metrics_directory_names_that_one(stack):
    """(Its message named its own port, as if that were the running one's.)"""
    import tempfile

    env = {**stack.process_env(), "PARLOR_HTTP_PORT": str(free_port()),
           "PROMETHEUS_MULTIPROC_DIR": os.path.join(tempfile.gettempdir(),
                                                    f"parlor-gateway-metrics-{stack.http_port}")}
    second = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
                             "parlor.gateway.wsgi:app"], env=env, capture_output=True, text=True, timeout=60)
    assert second.returncode != 0
    assert f"belongs to a gateway that is running (on 127.0.0.1:{stack.http_port})" in second.stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["drain", "quick"])
def test_a_worker_told_to_stop_while_it_starts_stops(stack, tmp_path, sig):
    """The master tells its workers to stop while one is still starting (right
    after a scale-up, or a Ctrl-C at start): until it sets its own signal
    handlers, a new worker runs the master's, which only queue the signal. It
    was lost, and the worker served on until the master killed it after
    PARLOR_DRAIN_SECONDS (20 s here). Here the start is held up (post_fork
    sleeps) so that the stop comes then."""
    config = tmp_path / "slow_start.py"
    config.write_text("from parlor.gateway.gunicorn_conf import *  # noqa: F401,F403\n"
                      "from parlor.gateway import gunicorn_conf\n\n\n"
                      "def post_fork(server, worker):\n"
                      "    getattr(gunicorn_conf, 'post_fork', lambda *_: None)(server, worker)\n"
                      "    import time\n"
                      "    time.sleep(2)\n")
    env = {**stack.process_env(), "PARLOR_HTTP_PORT": str(free_port()), "PARLOR_DRAIN_SECONDS": "20",
           "PARLOR_GATEWAY_WORKERS": "1"}
    log = tmp_path / "gateway.log"
    with open(log, "wb") as out:
        gateway = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:parlor.gateway.gunicorn_conf",
                                    "-c", str(config), "parlor.gateway.wsgi:app"], env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "Booting worker" not in log.read_text():
            assert time.monotonic() < deadline and gateway.poll() is None, log.read_text()
            time.sleep(0.02)
        started = time.monotonic()
        gateway.send_signal(sig)
        assert gateway.wait(30) == 0
        assert time.monotonic() - started < 12, "the worker missed the stop: " + log.read_text()[-2000:]
        assert "SIGKILL" not in log.read_text()
    finally:
        gateway.kill()
        gateway.wait()
