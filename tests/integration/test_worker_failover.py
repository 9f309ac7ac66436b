"""Turn clocks under load, run by two workers on one Redis with two service
processes: every deadline that passes gets exactly one default move, and a
worker killed outright (SIGKILL) loses nothing: its claimed items are done by
the other once their lease runs out, none twice."""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

from ..support import Stack

pytestmark = pytest.mark.integration

MATCHES = 200
TURN_SECONDS = 5
LEASE_SECONDS = 2
PLAYERS = 3


def test_two_workers_and_two_services_time_out_every_seat_once_even_when_one_worker_dies():
    stack = Stack(gateway=False, env={"PARLOR_WORKER_LEASE_SECONDS": str(LEASE_SECONDS),
                                      "PARLOR_WORKER_POLL_MS": "100"}).start()
    try:
        second = Stack.on_redis_of(stack)  # a second service process on the same Redis
        second.start_service()
        workers = [stack.start_worker("worker-a"), stack.start_worker("worker-b")]
        channels = [stack.channel(), second.channel()]
        stubs = [parlor_pb2_grpc.ParlorStub(channel) for channel in channels]

        def make(i: int) -> str:
            stub = stubs[i % 2]  # half the matches made and joined through each service process
            match = stub.CreateMatch(pb.CreateMatchRequest(game="heul_doch", players=PLAYERS,
                                                           turn_seconds=TURN_SECONDS), timeout=30)
            for seat in range(PLAYERS):
                stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=f"idle {seat}"), timeout=30)
            return match.match_id

        with ThreadPoolExecutor(16) as pool:
            match_ids = list(pool.map(make, range(MATCHES)))
        started = time.monotonic()
        # The first deadlines pass 5 s in; kill one worker in the middle of the second round of them.
        time.sleep(TURN_SECONDS * 1.5)
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait()
        time.sleep(TURN_SECONDS * 2)
        checked_at = time.time()
        elapsed = time.monotonic() - started

        overdue, counts = [], []
        for i, match_id in enumerate(match_ids):
            stub = stubs[i % 2]
            view = stub.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=30)
            events = stub.ListEvents(pb.ListEventsRequest(match_id=match_id), timeout=30).events
            timeouts = [(e.version, e.turn_timed_out.seat) for e in events if e.HasField("turn_timed_out")]
            counts.append(len(timeouts))
            # exactly one default move per deadline: a timeout answers the seat whose turn it is,
            # and the turn moves on (Heul doch: one seat at a time, clockwise)
            seats = [seat for _, seat in timeouts]
            assert seats == [(seats[0] + k) % PLAYERS for k in range(len(seats))] if seats else True, \
                (match_id, timeouts)
            assert len({version for version, _ in timeouts}) == len(timeouts), (match_id, timeouts)
            for deadline in view.deadlines:  # nothing left behind: no deadline long past
                if deadline.at.ToMilliseconds() / 1000 < checked_at - (LEASE_SECONDS + 2):
                    overdue.append((match_id, deadline.seat))
        assert not overdue, f"{len(overdue)} deadlines passed unhandled, e.g. {overdue[:3]}"
        # every match had a deadline pass about every TURN_SECONDS since its seats filled
        assert min(counts) >= int(elapsed // TURN_SECONDS) - 1, (min(counts), elapsed)
        assert max(counts) <= int(elapsed // TURN_SECONDS) + 1, (max(counts), elapsed)
        log = stack.log("worker-b")
        assert "Traceback" not in log and "Traceback" not in stack.log("worker-a")
        for channel in channels:
            channel.close()
    finally:
        try:
            second.stop()
        finally:
            stack.stop()


def test_a_claimed_item_comes_due_again_after_its_lease():
    """A claim that is never finished (its worker gone) is claimed again once its
    lease has run out, and counted as a lease expiry. (A Redis of its own: the
    session's worker would take the item.)"""
    import asyncio

    from parlor.service.embedded_redis import EmbeddedRedis
    from parlor.service.store import MatchStore, connect, shard_key

    redis = EmbeddedRedis().start()

    async def claims():
        store = MatchStore(connect(redis.url))
        try:
            shard = "z"
            await store.redis.zadd(shard_key(shard, "due"), {"z" + "a" * 23: 0})
            first = await store.claim(shard, 300, 10)
            again = await store.claim(shard, 300, 10)
            await asyncio.sleep(0.4)
            after = await store.claim(shard, 300, 10)
            await store.redis.delete(shard_key(shard, "due"), shard_key(shard, "claims"))
            return first, again, after
        finally:
            await store.redis.aclose()

    try:
        first, again, after = asyncio.run(claims())
    finally:
        redis.cleanup()
    assert first == [("z" + "a" * 23, 1)]
    assert again == [], "a claimed item is not claimed twice within its lease"
    assert after == [("z" + "a" * 23, 2)]


def test_grpc_refuses_a_bad_turn_clock(stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(pb.CreateMatchRequest(game="heck", players=2, turn_seconds=3))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
