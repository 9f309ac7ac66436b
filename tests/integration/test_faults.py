"""Redis goes away and comes back: clear errors meanwhile, nothing acknowledged
lost (AOF with appendfsync always), no restart of our processes needed."""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlor.service.embedded_redis import EmbeddedRedis, cli_binary
from parlor.service.store import keys
from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth, new_grpc_match, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


@pytest.fixture
def durable_stack():
    s = Stack(env={"PARLOR_ALLOW_FIXED_SEED": "1"}, redis_appendonly=True).start()
    yield s
    s.stop()


def wait_for(check, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def health(stack) -> int:
    with stack.channel() as channel:
        try:
            return health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="parlor.v1.Parlor"), timeout=2).status
        except grpc.RpcError:
            return -1


def test_redis_crash_and_restart(durable_stack):
    stack = durable_stack
    rest = stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    match_id = match["matchId"]
    path = f"/v1/matches/{match_id}/actions"
    for seat, card in enumerate([5, 6, 7]):
        assert rest.post(path, {"action": {"whatTheHeck": {"bid": card}}}, token=tokens[seat]).status == 200
    before = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body

    stack.redis.process.send_signal(signal.SIGKILL)  # a crash: no clean shutdown
    stack.redis.process.wait()

    down = rest.get(f"/v1/matches/{match_id}")
    assert (down.status, down.error) == (503, "STORE_UNAVAILABLE")
    failed = rest.post(path, {"action": {"whatTheHeck": {"bid": 1}}}, token=tokens[0])
    assert (failed.status, failed.error) == (503, "STORE_UNAVAILABLE")
    assert rest.get("/healthz").status == 200, "liveness must not depend on Redis"
    assert wait_for(lambda: rest.get("/readyz").status == 503)
    assert rest.get("/readyz").body["error"]["code"] == "STORE_UNAVAILABLE"
    assert health(stack) == health_pb2.HealthCheckResponse.NOT_SERVING

    stack.redis.start()  # same port, same AOF directory
    assert wait_for(lambda: rest.get("/readyz").status == 200)
    assert health(stack) == health_pb2.HealthCheckResponse.SERVING
    after = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body
    assert after == before, "an acknowledged write was lost, or a failed one applied"
    final, _ = play_rest_to_end(rest, match_id, tokens, random.Random(5))
    assert final["match"]["status"] == "FINISHED"
    assert "Traceback" not in stack.log("service")
    rest.close()


def test_gateway_serves_again_soon_after_the_service_returns():
    """The service goes away (a restart, or it starts after the gateway): calls
    meanwhile get 503 SERVICE_UNAVAILABLE at once, and within about a second
    of its return every gateway worker serves again, however long it was gone."""
    stack = Stack().start()
    try:
        assert stack.stop_process("service") == 0
        rest = stack.rest()
        unready = rest.get("/readyz")
        rest.close()
        assert (unready.status, unready.body["error"]["code"]) == (503, "SERVICE_UNAVAILABLE")
        gone = time.monotonic()
        while time.monotonic() - gone < 20:  # gRPC's default backoff would wait ~10 s more by now
            rest = stack.rest()
            reply = rest.get("/v1/games")
            rest.close()
            assert (reply.status, reply.error) == (503, "SERVICE_UNAVAILABLE")
            time.sleep(0.2)
        stack.start_service()
        statuses: list[int] = []

        def every_worker_serves() -> bool:
            statuses.clear()
            for _ in range(12):  # fresh connections, so both gateway workers answer
                rest = stack.rest()
                statuses.append(rest.get("/v1/games").status)
                rest.close()
            return statuses == [200] * 12

        # reconnects back off to at most 1.2 s (1 s and jitter): 4 s leaves room for a busy machine
        assert wait_for(every_worker_serves, timeout=4), (statuses, stack.log("gateway")[-3000:])
    finally:
        stack.stop()


def test_a_hung_redis_shows_in_health_within_seconds(durable_stack):
    """A Redis that stops answering without closing connections (frozen, not
    crashed): health goes NOT_SERVING within a few seconds, not after the
    5-second socket timeout, calls meanwhile fail at once with 503
    STORE_UNAVAILABLE (not after the timeout, one after another), and all is
    back once Redis answers again."""
    stack = durable_stack
    rest = stack.rest()
    match, _ = new_rest_match(rest, "what_the_heck", 3)
    path = f"/v1/matches/{match['matchId']}"
    assert health(stack) == health_pb2.HealthCheckResponse.SERVING
    stack.redis.process.send_signal(signal.SIGSTOP)
    try:
        # a ping every 2 s, failed after 1 s, then again 0.5 s later: NOT_SERVING at the
        # second failure, within 4.5 s (9 allows a busy machine)
        assert wait_for(lambda: health(stack) == health_pb2.HealthCheckResponse.NOT_SERVING, timeout=9)
        assert rest.get("/readyz").status == 503
        assert rest.get("/healthz").status == 200

        def fails_at_once() -> bool:
            started = time.monotonic()
            reply = rest.get(path)
            if time.monotonic() - started >= 3.0:  # waited for the socket timeout or the deadline
                assert (reply.status, reply.error) in ((503, "STORE_UNAVAILABLE"), (504, "TIMEOUT"))
                return False
            assert (reply.status, reply.error) == (503, "STORE_UNAVAILABLE")
            return True

        # from the second check in a row without an answer (one late answer is no outage)
        assert wait_for(fails_at_once, timeout=10)
        assert all(fails_at_once() for _ in range(3))
    finally:
        stack.redis.process.send_signal(signal.SIGCONT)
    assert wait_for(lambda: health(stack) == health_pb2.HealthCheckResponse.SERVING)
    assert wait_for(lambda: rest.get("/readyz").status == 200)
    assert wait_for(lambda: rest.get(path).status == 200, timeout=2)  # pings every 0.5 s meanwhile
    assert "Traceback" not in stack.log("service")
    rest.close()


def test_after_a_redis_restart_no_call_fails_on_a_connection_the_old_server_closed():
    """The service's pool holds connections to the Redis that went away. Once
    health is SERVING again, every call succeeds: none is sent on one of those
    connections (they are replaced as they are taken), however long after the
    restart it is taken."""
    stack = Stack(gateway=False).start()
    try:
        with stack.channel() as channel:
            stub = stack.stub(channel)

            def burst(matches, bid):
                calls = [(match.match_id, token) for match, tokens in matches for token in tokens]
                with ThreadPoolExecutor(len(calls)) as pool:
                    return list(pool.map(lambda call: stub.SubmitAction(pb.SubmitActionRequest(
                        match_id=call[0], action={"what_the_heck": {"bid": bid}}),
                        metadata=auth(call[1]), timeout=10).match.version, calls))

            for restart in range(3):
                matches = [new_grpc_match(stub, "what_the_heck", 3) for _ in range(6)]
                burst(matches, 1)  # 18 calls at once: the pool grows to many connections
                subprocess.run([cli_binary(), "-p", str(stack.redis.port), "shutdown", "nosave"],
                               check=True, capture_output=True)
                stack.redis.process.wait(10)
                stack.redis.start()
                assert wait_for(lambda: health(stack) == health_pb2.HealthCheckResponse.SERVING)
                # a few calls in a row reuse the newest connections; the burst takes the older ones
                matches = [new_grpc_match(stub, "what_the_heck", 3) for _ in range(6)]
                assert sorted(burst(matches, 2)) == sorted([4, 5, 6] * 6)  # (a failed call raises)
    finally:
        stack.stop()


def test_error_replies_to_the_health_check_do_not_stop_it(durable_stack):
    """Redis answers BUSY while another client's script runs too long: health
    is NOT_SERVING meanwhile and calls get 503 STORE_UNAVAILABLE (BUSY is an
    answer: they are not refused before they ask), the checks go on, and once
    the script is killed health and calls come back (the checks used to end at
    the first error reply, leaving calls refused for good)."""
    stack = durable_stack
    rest = stack.rest()
    match, _ = new_rest_match(rest, "what_the_heck", 3)
    admin = redis.Redis.from_url(stack.redis.url)
    admin.config_set("lua-time-limit", 100)
    runner = threading.Thread(target=lambda: _run_forever(stack.redis.url), daemon=True)
    runner.start()
    try:
        assert wait_for(lambda: health(stack) == health_pb2.HealthCheckResponse.NOT_SERVING, timeout=10)
        time.sleep(3)  # several checks answered BUSY
        busy = rest.get(f"/v1/matches/{match['matchId']}")
        assert (busy.status, busy.error) == (503, "STORE_UNAVAILABLE")
    finally:
        admin.script_kill()
        runner.join(10)
    assert wait_for(lambda: health(stack) == health_pb2.HealthCheckResponse.SERVING, timeout=10)
    assert wait_for(lambda: rest.get(f"/v1/matches/{match['matchId']}").status == 200, timeout=5)
    assert '"op": "ping", "error": "BUSY' in stack.log("service")
    admin.close()
    rest.close()


def _run_forever(url: str) -> None:
    client = redis.Redis.from_url(url, socket_timeout=None)  # (it runs until the test kills it)
    try:
        client.eval("while true do end", 0)
    except redis.ResponseError:  # killed
        pass
    finally:
        client.close()


def test_a_full_redis_refuses_actions_cleanly_and_they_go_through_once_it_has_room(durable_stack):
    """maxmemory with noeviction (deploy/README.md): the script's writes are
    refused, the API says 503 STORE_UNAVAILABLE, nothing is half-written, and
    the same action goes through once Redis has room again."""
    stack = durable_stack
    rest = stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    match_id = match["matchId"]
    before = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body
    db = redis.Redis.from_url(stack.redis_url)
    used = db.info("memory")["used_memory"]
    db.config_set("maxmemory", used // 2)  # full
    try:
        bid = {"action": {"whatTheHeck": {"bid": 5}}}
        reply = rest.post(f"/v1/matches/{match_id}/actions", bid, token=tokens[0])
        assert (reply.status, reply.body["error"]["code"]) == (503, "STORE_UNAVAILABLE")
        assert rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body == before, "reads go on, unchanged"
        created = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2})
        assert (created.status, created.body["error"]["code"]) == (503, "STORE_UNAVAILABLE")
    finally:
        db.config_set("maxmemory", 0)
    reply = rest.post(f"/v1/matches/{match_id}/actions", bid, token=tokens[0])
    assert reply.status == 200 and reply.body["match"]["version"] == before["version"] + 1
    assert "Traceback" not in stack.log("service") + stack.log("gateway")


class Forwarder:
    """A TCP forwarder standing in for a name that moves on failover (a managed
    Redis's primary endpoint, a Service in front of the primary): connections
    made after `point_at` reach the new target, those made before stay where
    they were, as DNS changes leave open connections alone."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def point_at(self, port: int) -> None:
        self.target = port

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()
        for s in self.open:
            s.close()


def test_after_a_failover_behind_one_name_calls_reach_the_new_primary():
    """A failover behind the name REDIS_URL gives: the old primary becomes a
    replica (writes answered READONLY) and the name leads to the new one. The
    connections already open still reach the old primary, whose PING answers
    as ever: a write refused READONLY is 503 STORE_UNAVAILABLE, and the service
    drops those connections, so that the next calls connect anew and reach the
    new primary. Before, every write failed until the service restarted."""
    with EmbeddedRedis() as old, EmbeddedRedis() as new:
        new_client, old_client = redis.Redis(port=new.port), redis.Redis(port=old.port)
        new_client.replicaof("127.0.0.1", old.port)
        forwarder = Forwarder(old.port)
        stack = Stack(redis_url=f"redis://127.0.0.1:{forwarder.port}/0",
                      env={"PARLOR_ALLOW_FIXED_SEED": "1"}).start()
        try:
            rest = stack.rest()
            match, tokens = new_rest_match(rest, "what_the_heck", 3)
            path = f"/v1/matches/{match['matchId']}"
            assert rest.post(f"{path}/actions", {"action": {"whatTheHeck": {"bid": 1}}},
                             token=tokens[0]).status == 200
            assert wait_for(lambda: new_client.info("replication")["master_link_status"] == "up"
                            and new_client.get(keys(match['matchId'])[0])
                            == old_client.get(keys(match['matchId'])[0]), timeout=10)
            # the failover: the replica takes over, the old primary follows it, the name moves
            new_client.replicaof("NO", "ONE")
            old_client.replicaof("127.0.0.1", new.port)
            forwarder.point_at(new.port)
            answers = []
            for _ in range(10):
                reply = rest.post(f"{path}/actions", {"action": {"whatTheHeck": {"bid": 2}}}, token=tokens[1])
                answers.append((reply.status, reply.error))
                if reply.status == 200:
                    break
                time.sleep(0.2)
            assert answers[-1] == (200, None), answers
            assert set(answers[:-1]) <= {(503, "STORE_UNAVAILABLE")}, answers
            assert rest.get(path).body["version"] == 5  # three joins, two bids: none lost, none twice
            assert new_client.get(keys(match['matchId'])[0]).startswith(b"5|")
            rest.close()
        finally:
            stack.stop()
            forwarder.close()
            new_client.close()
            old_client.close()
