"""Redis Sentinel and Redis Cluster, chosen by REDIS_URL alone: real servers,
a full match through the real stack on each."""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import redis

from parlor.service.embedded_redis import EmbeddedRedis, cli_binary, free_port, server_binary
from parlor.service.store import keys

from ..support import Sse, Stack, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def play_one_match(stack: Stack) -> None:
    """A whole match over REST, followed live by a spectator's event stream
    (woken by the commits' notices, a pub/sub subscription)."""
    rest = stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 3, seed=None)
    live = Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events")
    assert live.status == 200
    seen = live.events(5)  # the joins, the start, the first prize card
    rest.post(f"/v1/matches/{match['matchId']}/actions", {"action": {"whatTheHeck": {"bid": 15}}},
              token=tokens[0])
    told = time.monotonic()
    seen += live.events(1)
    assert seen[-1]["whatTheHeck"]["bidCommitted"] == {"seat": 0}
    assert time.monotonic() - told < 5, "no notice: the stream waited for its keep-alive"
    final, _ = play_rest_to_end(rest, match["matchId"], tokens, random.Random(4))
    assert final["match"]["status"] == "FINISHED"
    assert seen + live.rest_of_it() == rest.get(f"/v1/matches/{match['matchId']}/events").body["events"]
    key = rest.post(f"/v1/matches/{match['matchId']}/actions",
                    {"action": {"whatTheHeck": {"bid": 1}}}, token=tokens[0],
                    headers={"Idempotency-Key": "after-the-end"})
    assert key.error == "MATCH_FINISHED"
    assert rest.get("/readyz").status == 200
    rest.close()


def sentinel_and_play(binary: str, conf: Path, client: redis.Redis, url: str, master: redis.Redis) -> None:
    """Runs a Sentinel (`binary`: a redis-server) from `conf` (it monitors
    parlor-main), waits until it names the master (asked through `client`),
    then plays a match through a stack on `url`: its keys land on `master`."""
    sentinel = subprocess.Popen([binary, str(conf), "--sentinel"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if client.execute_command("SENTINEL", "get-master-addr-by-name", "parlor-main"):
                    break
            except redis.ConnectionError:
                pass
            time.sleep(0.1)
        client.close()
        stack = Stack(redis_url=url).start()
        try:
            play_one_match(stack)
            assert master.keys("parlor:{*")
            # The Sentinels go away, the master stays: the service stays ready and
            # plays on over the connections it has (the health check, asking the
            # Sentinels where the master is, does not count their silence).
            sentinel.terminate()
            sentinel.wait(10)
            time.sleep(2.5)  # a health check or two
            rest = stack.rest()
            assert rest.get("/readyz").status == 200
            assert rest.post("/v1/matches", {"game": "what_the_heck", "players": 3}).status == 200
            rest.close()
        finally:
            stack.stop()
    finally:
        sentinel.terminate()
        sentinel.wait(10)
        master.close()


def test_sentinel():
    with EmbeddedRedis() as master, tempfile.TemporaryDirectory() as work:
        port = free_port()
        conf = Path(work) / "sentinel.conf"
        conf.write_text(f"port {port}\nbind 127.0.0.1\ndir {work}\n"
                        f"sentinel monitor parlor-main 127.0.0.1 {master.port} 1\n")
        sentinel_and_play(server_binary(), conf, redis.Redis(port=port), f"redis+sentinel://127.0.0.1:{port}/parlor-main/0",
                          redis.Redis(port=master.port))


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) exists and is free too."""
    while True:
        port = free_port()
        if port < 55_000:
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port + 10_000))
                    return port
                except OSError:
                    pass


CLUSTER_NODE = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")


def bots_and_lobby(stack: Stack) -> None:
    """The shards' keys on a cluster: a worker plays a match of bots to the end,
    a quick match seats two callers at one table, and the lobby lists it."""
    stack.start_worker()
    rest = stack.rest()
    bots = rest.post("/v1/matches", {"game": "heul_doch", "players": 3, "bots": 3}).body["matchId"]
    first = rest.post("/v1/quick-match", {"game": "heck", "players": 3, "name": "Ann"}).body
    second = rest.post("/v1/quick-match", {"game": "heck", "players": 3, "name": "Bob"}).body
    assert first["matchId"] == second["matchId"] and {first["seat"], second["seat"]} == {0, 1}
    listed = rest.get("/v1/matches?game=heck").body["matches"]
    assert [m["matchId"] for m in listed] == [first["matchId"]] and listed[0]["openSeats"] == 1
    deadline = time.monotonic() + 60
    while rest.get(f"/v1/matches/{bots}").body["status"] != "FINISHED":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    rest.close()


def form_cluster_and_play(cli: list[str], ports: list[int], client: redis.Redis, url: str,
                          lobby: bool = False) -> None:
    """Makes one cluster of the nodes at `ports` (`cli`: redis-cli and its
    connection options), waits until `client` sees it whole, then plays a
    match through a stack on `url` (and with `lobby`, bots_and_lobby)."""
    subprocess.run([*cli, "--cluster", "create", *[f"127.0.0.1:{port}" for port in ports],
                    "--cluster-replicas", "0", "--cluster-yes"], check=True, capture_output=True, timeout=30)
    deadline = time.monotonic() + 15
    while client.cluster("info")["cluster_state"] != "ok":
        assert time.monotonic() < deadline, "the cluster did not form"
        time.sleep(0.1)
    client.close()
    stack = Stack(redis_url=url).start()
    try:
        play_one_match(stack)
        if lobby:
            bots_and_lobby(stack)
    finally:
        stack.stop()


def test_cluster():
    nodes = []
    try:
        for _ in range(3):
            nodes.append(EmbeddedRedis(port=cluster_port(), extra_args=CLUSTER_NODE).start())
        form_cluster_and_play([cli_binary()], [node.port for node in nodes], redis.Redis(port=nodes[0].port),
                              f"redis+cluster://127.0.0.1:{nodes[0].port}", lobby=True)
    finally:
        for node in nodes:
            node.cleanup()


# ---- TLS ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tls_files(certificates) -> Path:
    """The certificates (tests/conftest.py), once redis-server and redis-cli
    are on PATH: Debian's speak TLS; the embedded package's do not."""
    if not all(shutil.which(tool) for tool in ("redis-server", "redis-cli")):
        pytest.skip("needs redis-server and redis-cli built with TLS")
    return certificates


def _client_options(work: Path, ca: bool = True) -> str:
    """REDIS_URL's query options for the client's certificate (and the CA)."""
    options = f"ssl_certfile={work / 'client.crt'}&ssl_keyfile={work / 'client.key'}"
    return f"ssl_ca_certs={work / 'ca.crt'}&{options}" if ca else options


@contextlib.contextmanager
def _tls_servers(work: Path, count: int, *extra: str):
    """`count` Redis servers speaking TLS only, asking clients for a
    certificate of the private CA; yields their ports once all answer."""
    ports, servers = [], []
    try:
        for _ in range(count):
            port = cluster_port()  # (a cluster's TLS bus port is the TLS port + 10000)
            node = work / f"node-{port}"
            node.mkdir()
            servers.append(subprocess.Popen(
                [shutil.which("redis-server"), "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(node),
                 "--tls-cert-file", str(work / "server.crt"), "--tls-key-file", str(work / "server.key"),
                 "--tls-ca-cert-file", str(work / "ca.crt"), "--tls-auth-clients", "yes", *extra],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
            ports.append(port)
        for port, server in zip(ports, servers):
            client = redis.Redis.from_url(f"rediss://127.0.0.1:{port}/0?{_client_options(work)}")
            deadline = time.monotonic() + 10
            while True:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if server.poll() is not None:
                        pytest.skip(f"this redis-server does not speak TLS: {server.stdout.read()[-300:]}")
                    assert time.monotonic() < deadline, "a TLS Redis did not come up"
                    time.sleep(0.1)
                finally:
                    client.close()
        yield ports
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)


@pytest.fixture(scope="module")
def tls_redis(tls_files):
    with _tls_servers(tls_files, 1) as (port,):
        client = redis.Redis.from_url(f"rediss://127.0.0.1:{port}/0?{_client_options(tls_files)}")
        yield port, client
        client.close()


def test_tls_with_a_private_ca_and_a_client_certificate(tls_files, tls_redis):
    """rediss:// with the CA that vouches for the server's certificate and the
    client's certificate and key, as query options (README, REDIS_URL)."""
    port, client = tls_redis
    stack = Stack(redis_url=f"rediss://127.0.0.1:{port}/0?{_client_options(tls_files)}").start()
    try:
        play_one_match(stack)
        assert client.keys("parlor:{*")
    finally:
        stack.stop()


def test_a_server_certificate_nobody_vouches_for_keeps_the_service_unready(tls_files, tls_redis):
    """Without the private CA the server's certificate is not trusted: the
    service runs NOT_SERVING, calls are 503 STORE_UNAVAILABLE, and its log says
    why. Nothing is written."""
    port, client = tls_redis
    before = client.dbsize()
    stack = Stack(redis_url=f"rediss://127.0.0.1:{port}/0?{_client_options(tls_files, ca=False)}").start()
    try:
        rest = stack.rest()
        assert rest.get("/readyz").status == 503
        created = rest.post("/v1/matches", {"game": "what_the_heck", "players": 3})
        assert (created.status, created.error) == (503, "STORE_UNAVAILABLE")
        rest.close()
        assert "certificate verify failed" in stack.log_with("service", "certificate verify failed")
        assert client.dbsize() == before
    finally:
        stack.stop()


def test_tls_cluster(tls_files):
    """rediss+cluster://: a Redis Cluster whose nodes speak TLS only, to
    clients and to each other."""
    with _tls_servers(tls_files, 3, "--tls-cluster", "yes", *CLUSTER_NODE) as ports:
        form_cluster_and_play(
            [shutil.which("redis-cli"), "--tls", "--cacert", str(tls_files / "ca.crt"),
             "--cert", str(tls_files / "client.crt"), "--key", str(tls_files / "client.key")], ports,
            redis.Redis.from_url(f"rediss://127.0.0.1:{ports[0]}/0?{_client_options(tls_files)}"),
            f"rediss+cluster://127.0.0.1:{ports[0]}?{_client_options(tls_files)}")


def test_tls_sentinel(tls_files):
    """rediss+sentinel://: Sentinels and master speaking TLS only, the same
    CA and client certificate for both."""
    options = _client_options(tls_files)
    with _tls_servers(tls_files, 1) as (master_port,):
        port = free_port()
        work = tls_files / f"sentinel-{port}"
        work.mkdir()
        conf = work / "sentinel.conf"
        conf.write_text(
            f"port 0\ntls-port {port}\nbind 127.0.0.1\ndir {work}\ntls-replication yes\ntls-auth-clients yes\n"
            f"tls-cert-file {tls_files / 'server.crt'}\ntls-key-file {tls_files / 'server.key'}\n"
            f"tls-ca-cert-file {tls_files / 'ca.crt'}\nsentinel monitor parlor-main 127.0.0.1 {master_port} 1\n")
        sentinel_and_play(shutil.which("redis-server"), conf,
                          redis.Redis.from_url(f"rediss://127.0.0.1:{port}/0?{options}"),
                          f"rediss+sentinel://127.0.0.1:{port}/parlor-main/0?{options}",
                          redis.Redis.from_url(f"rediss://127.0.0.1:{master_port}/0?{options}"))


def test_a_sentinel_failover_loses_no_acknowledged_action():
    """Sentinel promotes the replica while a match is played. The old master
    keeps `min-replicas-to-write 1` (as deploy/README.md asks), so from the
    promotion on it refuses writes (NOREPLICAS) instead of taking ones that its
    demotion, seconds later, would throw away: those calls are 503, the service
    drops its connections to it and asks the Sentinels where the master is now,
    and within seconds actions land on the new master. Every action answered
    200 is there."""
    with EmbeddedRedis(extra_args=("--min-replicas-to-write", "1", "--min-replicas-max-lag", "10")) as master, \
            EmbeddedRedis() as replica, tempfile.TemporaryDirectory() as work:
        old, new = redis.Redis(port=master.port), redis.Redis(port=replica.port)
        new.replicaof("127.0.0.1", master.port)
        deadline = time.monotonic() + 10
        while new.info("replication")["master_link_status"] != "up":
            assert time.monotonic() < deadline, "the replica did not sync"
            time.sleep(0.05)
        port = free_port()
        conf = Path(work) / "sentinel.conf"
        conf.write_text(f"port {port}\nbind 127.0.0.1\ndir {work}\n"
                        f"sentinel monitor parlor-main 127.0.0.1 {master.port} 1\n")
        sentinel = subprocess.Popen([server_binary(), str(conf), "--sentinel"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        watcher = redis.Redis(port=port)
        stack = None
        try:
            while True:  # the Sentinel knows the replica (it can fail over to it)
                try:
                    if watcher.execute_command("SENTINEL", "REPLICAS", "parlor-main"):
                        break
                except redis.ConnectionError:
                    pass
                assert time.monotonic() < deadline, "the Sentinel did not find the replica"
                time.sleep(0.1)
            stack = Stack(redis_url=f"redis+sentinel://127.0.0.1:{port}/parlor-main/0",
                          env={"PARLOR_ALLOW_FIXED_SEED": "1"}).start()
            rest = stack.rest()
            match, tokens = new_rest_match(rest, "what_the_heck", 3)
            path = f"/v1/matches/{match['matchId']}"
            hands = [list(range(1, 16)) for _ in tokens]
            accepted = 0

            def bid(seat: int) -> tuple[int, str | None]:
                nonlocal accepted
                reply = rest.post(f"{path}/actions", {"action": {"whatTheHeck": {"bid": hands[seat][0]}}},
                                  token=tokens[seat])
                if reply.status == 200:
                    hands[seat].pop(0)
                    accepted += 1
                return reply.status, reply.error

            assert bid(0) == (200, None)
            live = Sse(stack.http_port, f"{path}/events")  # a spectator following the match live
            deadline = time.monotonic() + 10
            while new.info("replication").get("slave_repl_offset") != old.info("replication")["master_repl_offset"]:
                assert time.monotonic() < deadline, "the replica did not catch up"
                time.sleep(0.01)
            while True:  # (NOGOODSLAVE until the Sentinel has heard from the replica)
                try:
                    watcher.execute_command("SENTINEL", "FAILOVER", "parlor-main")
                    break
                except redis.ResponseError:
                    assert time.monotonic() < deadline, "the Sentinel would not fail over"
                    time.sleep(0.2)
            # Play resumes once the replica is promoted (an action the old master took in
            # the instant of the promotion, not yet sent on, would be lost: replication is
            # asynchronous, and that is not what this test is about).
            deadline = time.monotonic() + 10
            while new.info("replication")["role"] != "master":
                assert time.monotonic() < deadline, "the Sentinel did not promote the replica"
                time.sleep(0.01)
            started, answers = time.monotonic(), []
            while time.monotonic() - started < 15 and accepted < 12:
                answers.append((round(time.monotonic() - started, 1), *bid(accepted % 3)))
                time.sleep(0.05)
            refused = {answer[1:] for answer in answers if answer[1] != 200}
            assert refused <= {(503, "STORE_UNAVAILABLE")}, answers
            late = [answer for answer in answers if answer[1] == 200]
            # (before: 503 until the Sentinels made the old master a replica, ~10 s)
            assert late and late[0][0] < 6, f"no action landed within 6 s of the promotion: {answers}"
            assert accepted == 12, answers
            # The live stream hears of them within seconds too: the service subscribes
            # anew once the Sentinels name the new master (before: at the stream's next
            # keep-alive, 15 s, as the old master heard no notices).
            played = time.monotonic()
            while live.events(1)[0]["version"] < 3 + accepted:
                pass
            assert time.monotonic() - played < 5, "the live stream waited for its keep-alive"
            live.close()
            # every action answered 200 is on the new master, none twice
            state = new.get(keys(match['matchId'])[0])
            assert state.startswith(b"%d|" % (3 + accepted)), (state[:4], accepted, answers)
            assert rest.get(path).body["version"] == 3 + accepted
            rest.close()
        finally:
            if stack is not None:
                stack.stop()
            sentinel.terminate()
            sentinel.wait(10)
            watcher.close()
            old.close()
            new.close()
