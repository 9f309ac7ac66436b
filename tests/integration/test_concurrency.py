"""Concurrent writers, idempotent retries and stale versions, against the real stack."""

from __future__ import annotations

import hashlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis

from parlor.service.store import keys
from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth, new_grpc_match, new_rest_match
from .test_grpc import error_reason

pytestmark = pytest.mark.integration


def _all_at_once(fns):
    """Runs every callable at the same moment, each in its own thread."""
    barrier = threading.Barrier(len(fns))

    def go(fn):
        barrier.wait()
        return fn()

    with ThreadPoolExecutor(len(fns)) as pool:
        return list(pool.map(go, fns))


@pytest.mark.parametrize("players", [2, 5])
def test_simultaneous_bids_over_rest_are_each_applied_once(stack, players):
    clients = [stack.rest() for _ in range(players)]
    match, tokens = new_rest_match(clients[0], "what_the_heck", players)
    path = f"/v1/matches/{match['matchId']}/actions"
    hands = [clients[0].get(f"/v1/matches/{match['matchId']}", token=t).body["whatTheHeck"]["hand"]
             for t in tokens]  # two players: each seat's hand lacks three random cards
    for round_no in range(1, 6):
        replies = _all_at_once([
            (lambda c=c, t=t, card=hand[round_no - 1]:
             c.post(path, {"action": {"whatTheHeck": {"bid": card}}}, token=t))
            for c, t, hand in zip(clients, tokens, hands)])
        assert [r.status for r in replies] == [200] * players, [r.body for r in replies]
        versions = sorted(r.body["match"]["version"] for r in replies)
        assert versions == list(range(versions[0], versions[0] + players)), "a write was lost or doubled"
    view = clients[0].get(f"/v1/matches/{match['matchId']}", token=tokens[0]).body
    assert view["version"] == players + 5 * players
    assert view["whatTheHeck"]["round"] == 6
    assert [seat["played"] for seat in view["whatTheHeck"]["seats"]] == [sorted(h[:5]) for h in hands]
    numbers = [e["number"] for e in clients[0].get(f"/v1/matches/{match['matchId']}/events").body["events"]]
    assert numbers == list(range(1, len(numbers) + 1))
    for c in clients:
        c.close()


def test_simultaneous_bids_over_grpc_from_processes_worth_of_channels(stack):
    channels = [stack.channel() for _ in range(4)]
    stubs = [stack.stub(ch) for ch in channels]
    match, tokens = new_grpc_match(stubs[0], "what_the_heck", 4)
    for round_no in range(1, 16):
        replies = _all_at_once([
            (lambda s=s, t=t: s.SubmitAction(pb.SubmitActionRequest(
                match_id=match.match_id, action={"what_the_heck": {"bid": round_no}}), metadata=auth(t)))
            for s, t in zip(stubs, tokens)])
        assert len({r.match.version for r in replies}) == 4
    final = stubs[0].GetMatch(pb.GetMatchRequest(match_id=match.match_id))
    assert final.status == pb.FINISHED and final.version == 4 + 60
    assert list(final.result.scores) == [0, 0, 0, 0]  # everything cancelled: all bid alike
    for ch in channels:
        ch.close()


def test_idempotent_retry_returns_the_first_response_and_applies_once(rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    path = f"/v1/matches/{match['matchId']}/actions"
    body = {"action": {"whatTheHeck": {"bid": 7}}}
    key = {"Idempotency-Key": "bid-round-1"}
    first = rest.post(path, body, token=tokens[0], headers=key)
    assert first.status == 200
    again = rest.post(path, body, token=tokens[0], headers=key)
    assert again.status == 200 and again.body == first.body
    view = rest.get(f"/v1/matches/{match['matchId']}").body
    assert view["version"] == first.body["match"]["version"]

    # The match moves on; the retry still gets the first response, as it was.
    for seat, card in ((1, 1), (2, 2)):
        moved = rest.post(path, {"action": {"whatTheHeck": {"bid": card}}}, token=tokens[seat])
        assert moved.status == 200, moved.body
    assert rest.get(f"/v1/matches/{match['matchId']}").body["whatTheHeck"]["round"] == 2
    later = rest.post(path, body, token=tokens[0], headers=key)
    assert later.status == 200 and later.body == first.body

    reused = rest.post(path, {"action": {"whatTheHeck": {"bid": 8}}}, token=tokens[0], headers=key)
    assert reused.status == 409 and reused.error == "IDEMPOTENCY_KEY_REUSED"
    # Keys are per seat: another seat may use the same key for its own action.
    other = rest.post(path, {"action": {"whatTheHeck": {"bid": 3}}}, token=tokens[1], headers=key)
    assert other.status == 200


def test_concurrent_duplicates_apply_once(stack):
    clients = [stack.rest() for _ in range(6)]
    match, tokens = new_rest_match(clients[0], "what_the_heck", 2)
    path = f"/v1/matches/{match['matchId']}/actions"
    replies = _all_at_once([
        (lambda c=c: c.post(path, {"action": {"whatTheHeck": {"bid": 4}}}, token=tokens[0],
                            headers={"Idempotency-Key": "once"})) for c in clients])
    assert all(r.status == 200 for r in replies)
    assert len({str(r.body) for r in replies}) == 1
    assert clients[0].get(f"/v1/matches/{match['matchId']}").body["version"] == 3
    for c in clients:
        c.close()


def test_concurrent_duplicates_with_expected_version_all_get_the_first_answer(stack):
    """Retries of one request racing each other: the losers of the write find
    the winner's record under their key, rather than a stale version."""
    with stack.channel() as channel:
        stub = stack.stub(channel)
        for attempt in range(5):
            # three seats: every hand holds all 15 number cards (two remove three each)
            match, tokens = new_grpc_match(stub, "what_the_heck", 3)
            request = pb.SubmitActionRequest(match_id=match.match_id, action={"what_the_heck": {"bid": 7}},
                                             expected_version=3, idempotency_key="retry-1")
            calls = [stub.SubmitAction.future(request, metadata=auth(tokens[0])) for _ in range(8)]
            replies = [call.result() for call in calls]  # raises on any error (STALE_VERSION)
            assert len({r.SerializeToString() for r in replies}) == 1
            assert stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).version == 4


def test_racing_writers_with_one_expected_version_one_wins_the_rest_are_stale(stack):
    """Different seats' actions all expecting the same version: one is applied,
    every other is told STALE_VERSION with the version the match is now at."""
    with stack.channel() as channel:
        stub = stack.stub(channel)
        match, tokens = new_grpc_match(stub, "what_the_heck", 5)
        request = pb.SubmitActionRequest(match_id=match.match_id, action={"what_the_heck": {"bid": 9}},
                                         expected_version=5)
        calls = [stub.SubmitAction.future(request, metadata=auth(t)) for t in tokens]
        won, stale = 0, []
        for call in calls:
            try:
                call.result()
                won += 1
            except grpc.RpcError as err:
                stale.append(error_reason(err))
        assert won == 1
        assert stale == [(grpc.StatusCode.ABORTED, "STALE_VERSION",
                          {"expectedVersion": "5", "currentVersion": "6"})] * 4
        assert stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).version == 6


def test_stale_expected_version(rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    path = f"/v1/matches/{match['matchId']}/actions"
    ok = rest.post(path, {"action": {"whatTheHeck": {"bid": 5}}, "expectedVersion": 2}, token=tokens[0])
    assert ok.status == 200 and ok.body["match"]["version"] == 3
    stale = rest.post(path, {"action": {"whatTheHeck": {"bid": 5}}, "expectedVersion": 2}, token=tokens[1])
    assert stale.status == 409 and stale.error == "STALE_VERSION"
    assert stale.body["error"]["details"] == {"expectedVersion": "2", "currentVersion": "3"}
    assert rest.get(f"/v1/matches/{match['matchId']}").body["version"] == 3


def test_a_burst_of_calls_opens_no_more_redis_connections_than_allowed():
    """PARLOR_REDIS_MAX_CONNECTIONS bounds the service's connection pool: 300
    calls at once (reads, and a match played meanwhile) all succeed, waiting
    their turn for one of 2 connections (+1 for the health check's PING)."""
    stack = Stack(gateway=False, env={"PARLOR_REDIS_MAX_CONNECTIONS": "2"}).start()
    watcher = redis.Redis.from_url(stack.redis.url)
    own = watcher.client_id()
    most, seen, done = [0], [[]], threading.Event()

    def count_connections():
        while not done.is_set():
            service = [c for c in watcher.client_list() if int(c["id"]) != own]  # (ids come as text)
            if len(service) > most[0]:
                most[0], seen[0] = len(service), [f"{c['addr']} {c['cmd']}" for c in service]

    try:
        with stack.channel() as channel:
            stub = stack.stub(channel)
            match, tokens = new_grpc_match(stub, "what_the_heck", 3)
            read = pb.GetMatchRequest(match_id=match.match_id)
            counter = threading.Thread(target=count_connections)
            counter.start()
            try:
                for round_no in range(1, 16):
                    bids = [(lambda t=t: stub.SubmitAction(pb.SubmitActionRequest(
                        match_id=match.match_id, action={"what_the_heck": {"bid": round_no}}),
                        metadata=auth(t))) for t in tokens]
                    reads = [lambda: stub.GetMatch(read, timeout=30)] * 20
                    replies = _all_at_once(bids + reads)
                    assert all(r.match.version for r in replies[:3])
            finally:
                done.set()
                counter.join()
            final = stub.GetMatch(read)
            assert final.status == pb.FINISHED and final.version == 3 + 45
        assert 0 < most[0] <= 3, f"the service had {most[0]} Redis connections open: {seen[0]}"
    finally:
        watcher.close()
        stack.stop()


def test_idempotency_records_written_with_16_hex_digits_are_replayed_too(rest, db):
    """An action's record is filed under 8 hex digits of the token's hash and
    the key, and read under 16 digits first: the first step of moving to 16
    (two seats of a match sharing 8 digits is a one in 10^9 chance, and one
    seat would be answered with the other's first response). A record as the
    next release will write it is found and replayed, so a retry landing on
    this release is not applied twice."""
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    path = f"/v1/matches/{match['matchId']}/actions"
    idem = keys(match['matchId'])[3]
    first = rest.post(path, {"action": {"whatTheHeck": {"bid": 7}}}, token=tokens[0],
                      headers={"Idempotency-Key": "upgrade"})
    assert first.status == 200, first.body
    digest = hashlib.sha256(tokens[0].encode()).hexdigest()
    assert db.hkeys(idem) == [f"{digest[:8]}:upgrade".encode()]

    # As the next release writes it: the same record under 16 digits.
    record = db.hget(idem, f"{digest[:8]}:upgrade")
    db.hdel(idem, f"{digest[:8]}:upgrade")
    db.hset(idem, f"{digest[:16]}:upgrade", record)
    again = rest.post(path, {"action": {"whatTheHeck": {"bid": 7}}}, token=tokens[0],
                      headers={"Idempotency-Key": "upgrade"})
    assert (again.status, again.body) == (200, first.body)
    assert rest.get(f"/v1/matches/{match['matchId']}").body["version"] == first.body["match"]["version"]


def test_retries_of_older_actions_are_answered_within_the_replay_allowance():
    """The answer to a retry of an older action is rebuilt by re-running the
    match up to it: a service process re-runs at most
    PARLOR_REPLAY_ACTIONS_PER_SECOND actions a second, and past that the retry
    is 429 TOO_MANY_REPLAYS (nothing changed), answered when tried again later.
    A re-run longer than a second's worth passes when the allowance is full and
    holds back the next ones for as long as it cost. A retry of the latest
    action needs no re-run and is always answered."""
    stack = Stack(env={"PARLOR_ALLOW_FIXED_SEED": "1", "PARLOR_REPLAY_ACTIONS_PER_SECOND": "20"}).start()
    rest = stack.rest()
    try:
        match, tokens = new_rest_match(rest, "what_the_heck", 3)
        path = f"/v1/matches/{match['matchId']}"
        sent = []  # (token, key, body, first reply) for each action, in order
        while rest.get(path).body["status"] != "FINISHED":
            for token in tokens:
                listed = rest.get(f"{path}/legal-actions", token=token).body["actions"]
                if listed:
                    body, key = {"action": listed[0]}, {"Idempotency-Key": f"action-{len(sent) + 1}"}
                    first = rest.post(f"{path}/actions", body, token=token, headers=key)
                    assert first.status == 200, first.body
                    sent.append((token, key, body, first.body))
        assert len(sent) == 45

        def retry(n: int):
            token, key, body, _ = sent[n - 1]
            return rest.post(f"{path}/actions", body, token=token, headers=key)

        version = rest.get(path).body["version"]
        assert retry(40).body == sent[39][3]  # re-runs 40 actions: two seconds' worth
        refused = retry(30)  # (within those two seconds)
        assert (refused.status, refused.error) == (429, "TOO_MANY_REPLAYS"), refused.body
        assert "try again" in refused.body["error"]["message"]
        assert retry(45).body == sent[44][3]  # the latest: nothing to re-run
        assert rest.get(path).body["version"] == version
        time.sleep(2.2)  # the allowance full again
        assert retry(30).body == sent[29][3]
    finally:
        rest.close()
        stack.stop()
