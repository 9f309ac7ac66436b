"""How the store words Redis's failures: STORE_UNAVAILABLE when the command did
not run (or may have, for a write, saying so); anything else is a bug of ours."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis._parsers.base import BaseParser
from redis.exceptions import ClusterError, RedisClusterException

from service.errors import ParlorError
from service.store import MatchStore

NOT_RUN = "The match store is unavailable; try again shortly."


class FailingRedis:
    """A Redis client whose every command (the commit script, a GET) raises `error`."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def register_script(self, script):
        return self.fail

    async def fail(self, *args, **kwargs):
        raise self.error

    get = fail


def outcome(error: Exception, op: str = "commit") -> str:
    """What MatchStore.commit (or .load) makes of `error` from Redis."""
    store = MatchStore(FailingRedis(error))
    call = store.commit("a" * 24, 0, b"record", 60) if op == "commit" else store.load("a" * 24)
    try:
        asyncio.run(call)
    except ParlorError as refused:
        assert refused.code == "STORE_UNAVAILABLE"
        return "not run" if refused.message == NOT_RUN else "unknown"
    except Exception as other:  # noqa: BLE001
        return type(other).__name__
    raise AssertionError("no error")


@pytest.mark.parametrize("reply", [
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    "OOM command not allowed when used memory > 'maxmemory'.",
    "READONLY You can't write against a read only replica.",
    "CLUSTERDOWN The cluster is down",
    "TRYAGAIN Multiple keys request during rehashing of slot",
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    "NOREPLICAS Not enough good replicas to write.",
    "NOSCRIPT No matching script. Please use EVAL.",
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
    # Redis 6.2 wraps an error raised inside a script:
    "Error running script (call to f_0123): @user_script:9: -OOM command not allowed when used "
    "memory > 'maxmemory'.",
    "Error running script (call to f_0123): @user_script:9: @user_script: 9: -READONLY You can't "
    "write against a read only replica.",
])
def test_replies_that_say_redis_cannot_serve_now_mean_not_run(reply):
    assert outcome(BaseParser.parse_error(reply)) == "not run"


@pytest.mark.parametrize("reply", [
    "WRONGTYPE Operation against a key holding the wrong kind of value",
    "ERR Error running script (call to f_0123): @user_script:3: user_script:3: attempt to index nil",
    "Error running script (call to f_0123): @user_script:3: Script attempted to access nil",
    "NOPERM this user has no permissions to run the 'time' command",
])
def test_other_replies_are_ours_to_fix(reply):
    assert outcome(BaseParser.parse_error(reply)) not in ("not run", "unknown")


@pytest.mark.parametrize("error,words", [
    (redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused."), "not run"),
    (redis.TimeoutError("Timeout connecting to server"), "not run"),  # (packets dropped: never connected)
    (BaseParser.parse_error("LOADING Redis is loading the dataset in memory"), "not run"),
    (redis.ConnectionError("The previous master is now a slave"), "not run"),
    (ClusterError("TTL exhausted."), "not run"),
    (RedisClusterException("Redis Cluster cannot be connected. Please provide at least one reachable "
                           "node: None"), "not run"),
    (redis.ConnectionError("Connection closed by server."), "unknown"),
    (redis.TimeoutError("Timeout reading from 127.0.0.1:6379"), "unknown"),
])
def test_a_failed_write_says_whether_it_may_have_been_made(error, words):
    assert outcome(error) == words
    assert outcome(error, op="load") == "not run"  # a read changes nothing either way
