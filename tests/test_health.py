"""The service's Redis health check: what it tells the store and gRPC health."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis
from grpc_health.v1 import health, health_pb2

from parlor.common.errors import ParlorError
from parlor.service.server import REFUSE_SECONDS, RedisHealth


class Store:
    """What RedisHealth uses of MatchStore: ping() answers from a script."""

    def __init__(self, *outcomes, sentinels_hang: bool = False):
        self.outcomes = list(outcomes)
        self.refusals: list[float] = []
        self.sentinels_hang = sentinels_hang
        self.asked_sentinels = 0

    async def follow_master(self):
        self.asked_sentinels += 1
        if self.sentinels_hang:
            await asyncio.sleep(10)

    async def ping(self):
        outcome = self.outcomes.pop(0)
        if outcome == "silent":
            await asyncio.sleep(10)
        if isinstance(outcome, BaseException):
            raise outcome
        return True

    def refuse_for(self, seconds, because=None):
        self.refusals.append(seconds)


def down() -> ParlorError:
    error = ParlorError("STORE_UNAVAILABLE", "The match store is unavailable; try again shortly.")
    error.__cause__ = redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    return error


def busy() -> ParlorError:
    error = ParlorError("STORE_UNAVAILABLE", "The match store is unavailable; try again shortly.")
    error.__cause__ = redis.ResponseError("BUSY Redis is busy running a script.")
    return error


def checks(store: Store, count: int) -> list[bool]:
    keeper = RedisHealth(store, health.aio.HealthServicer(), 60)

    async def run():
        return [await keeper.check() for _ in range(count)]
    return asyncio.run(run())


def test_calls_are_refused_from_the_second_check_in_a_row_without_an_answer(monkeypatch):
    monkeypatch.setattr("parlor.service.server.HEALTH_TIMEOUT", 0.05)
    store = Store(True, "silent", down(), "silent", True, "silent")
    # (what each check reports: SERVING through one failed check, see below)
    assert checks(store, 6) == [True, True, False, False, True, True]
    assert store.refusals == [0, 0, REFUSE_SECONDS, REFUSE_SECONDS, 0, 0]


def test_sentinels_that_hang_neither_fail_nor_slow_the_checks(monkeypatch):
    """Each check also has the Sentinels asked where the master is (a failover),
    apart from its own timed ping: one question at a time, however long they
    take to answer."""
    monkeypatch.setattr("parlor.service.server.HEALTH_TIMEOUT", 0.2)
    store = Store(True, True, True, sentinels_hang=True)
    started = time.monotonic()
    assert checks(store, 3) == [True, True, True]
    assert time.monotonic() - started < 0.5
    assert store.asked_sentinels == 1  # (the first question is still open)
    quick = Store(True, True)
    checks(quick, 2)
    assert quick.asked_sentinels >= 1


def test_error_replies_are_not_serving_but_refuse_no_calls():
    store = Store(busy(), busy(), busy(), redis.exceptions.NoPermissionError("no TIME"), True)
    assert checks(store, 5) == [False, False, False, False, True]
    assert store.refusals == [0, 0, 0, 0, 0]


def test_health_turns_not_serving_at_the_second_failed_check_in_a_row():
    """One failed check is no outage: gateways that watch the health would
    otherwise turn away every call for a single slow answer."""
    servicer = health.aio.HealthServicer()
    keeper = RedisHealth(Store(busy(), True, busy(), True, busy(), down(), True), servicer, 60)

    async def run():
        seen = []
        for _ in range(7):
            await keeper.check()
            reply = await servicer.Check(health_pb2.HealthCheckRequest(service="parlor.v1.Parlor"), None)
            seen.append(reply.status)
        return seen
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    # Before Redis first answered, a failed check is NOT_SERVING at once.
    assert asyncio.run(run()) == [not_serving, serving, serving, serving, serving, not_serving, serving]


def test_a_redis_user_without_a_command_parlor_needs_stops_the_service():
    keeper = RedisHealth(Store(redis.exceptions.NoPermissionError("this user has no permissions to run "
                                                                  "the 'time' command")),
                         health.aio.HealthServicer(), 60)
    with pytest.raises(SystemExit, match="may not run a command Parlor needs .*deploy/README.md"):
        asyncio.run(keeper.start())


def test_a_lasting_unexpected_failure_is_logged_once(caplog):
    """A check failing the same way every half second (NOPERM after an ACL
    change) is logged when it starts, not at every check; a new failure is
    logged again."""
    refused = redis.exceptions.NoPermissionError("no permissions to run the 'ping' command")
    store = Store(refused, refused, refused, True, refused, ValueError("odd"))
    with caplog.at_level("WARNING", logger="parlor.service.server"):
        assert checks(store, 6) == [False, False, False, True, True, False]  # (SERVING through one)
    logged = [r.error for r in caplog.records if r.getMessage() == "redis health check failed"]
    assert logged == ["NoPermissionError: no permissions to run the 'ping' command"] * 2 + ["ValueError: odd"]


class HangingCount(Store):
    """Redis hangs in the middle of the active-matches count (it waits out the
    socket timeout) and answers no ping from then on."""

    def __init__(self):
        super().__init__(True)
        self.counting = asyncio.Event()

    async def ping(self):
        if self.counting.is_set():
            raise down()
        return await super().ping()

    async def count_active(self, now, abandoned_after):
        self.counting.set()
        await asyncio.sleep(30)


def test_a_count_hanging_on_redis_does_not_hold_up_the_health_checks(monkeypatch):
    """The gauge's count of active matches runs beside the checks: a Redis
    that hangs during it is reported NOT_SERVING at the second failed check,
    not after the count's socket timeout."""
    monkeypatch.setattr("parlor.service.server.HEALTH_INTERVAL", 0.1)
    monkeypatch.setattr("parlor.service.server.RECOVERY_INTERVAL", 0.1)
    servicer = health.aio.HealthServicer()
    keeper = RedisHealth(HangingCount(), servicer, 60)

    async def run():
        await keeper.start()
        try:
            for _ in range(50):
                await asyncio.sleep(0.1)
                status = (await servicer.Check(health_pb2.HealthCheckRequest(service=""), None)).status
                if status == health_pb2.HealthCheckResponse.NOT_SERVING:
                    return True
            return False
        finally:
            keeper.stop()
    assert asyncio.run(run()), "still SERVING after 5 s"


@pytest.mark.parametrize("outcome, error", [
    ("silent", "no answer within 0.05 s"),
    (down(), "Error 111 connecting to 127.0.0.1:1. Connection refused."),
])
def test_a_redis_that_does_not_answer_at_the_start_is_logged_with_why(monkeypatch, caplog, outcome, error):
    """(A rediss:// URL for a Redis without TLS, say: the service starts, NOT_SERVING.)"""
    monkeypatch.setattr("parlor.service.server.HEALTH_TIMEOUT", 0.05)
    keeper = RedisHealth(Store(outcome), health.aio.HealthServicer(), 60)

    async def run():
        await keeper.start()
        keeper.stop()
    with caplog.at_level("WARNING", logger="parlor.service.server"):
        asyncio.run(run())
    (record,) = [r for r in caplog.records if r.getMessage().startswith("redis does not answer yet")]
    assert record.error == error
