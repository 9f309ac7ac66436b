"""How the store words Redis's failures: STORE_UNAVAILABLE when the command did
not run (or may have, for a write, saying so); anything else is a bug of ours."""

from __future__ import annotations

import asyncio

import pytest
import redis
from prometheus_client import REGISTRY
from redis._parsers.base import BaseParser
from redis.exceptions import ClusterError, RedisClusterException

from parlor.common.errors import ParlorError
from parlor.service.store import MatchStore

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


class Pool:
    """A connection pool that counts how often its idle connections are closed."""

    def __init__(self, fails: bool = False) -> None:
        self.closed = 0
        self.fails = fails

    async def disconnect(self, inuse_connections: bool = True):
        assert not inuse_connections  # (commands in flight are left to finish)
        self.closed += 1
        if self.fails:
            raise redis.TimeoutError("Timeout closing the connection")


@pytest.mark.parametrize("reply,closes", [
    ("READONLY You can't write against a read only replica.", True),
    ("NOREPLICAS Not enough good replicas to write.", True),
    ("LOADING Redis is loading the dataset in memory", True),
    ("Error running script (call to f_x): @user_script:9: @user_script: 9: -READONLY You can't write "
     "against a read only replica.", True),
    ("BUSY Redis is busy running a script.", False),
    ("OOM command not allowed when used memory > 'maxmemory'.", False),
])
def test_a_reply_from_a_server_no_longer_the_primary_closes_the_idle_connections(reply, closes):
    """(so that the next commands connect anew, and reach the new primary)"""
    client = FailingRedis(BaseParser.parse_error(reply))
    client.connection_pool = Pool()
    store = MatchStore(client)
    counted = REGISTRY.get_sample_value("parlor_redis_reconnects_total")
    for _ in range(3):  # a burst of such answers closes them once, not the new ones too
        with pytest.raises(ParlorError, match=NOT_RUN):
            asyncio.run(store.load("a" * 24))
    assert client.connection_pool.closed == (1 if closes else 0)
    assert REGISTRY.get_sample_value("parlor_redis_reconnects_total") == counted + (1 if closes else 0)


def test_sentinels_word_readonly_their_own_way_and_connections_close_too():
    client = FailingRedis(redis.ConnectionError("The previous master is now a slave"))
    client.connection_pool = Pool()
    with pytest.raises(ParlorError, match=NOT_RUN):
        asyncio.run(MatchStore(client).load("a" * 24))
    assert client.connection_pool.closed == 1


def test_a_close_that_fails_leaves_the_call_failing_as_it_was():
    client = FailingRedis(BaseParser.parse_error("READONLY You can't write against a read only replica."))
    client.connection_pool = Pool(fails=True)
    with pytest.raises(ParlorError, match=NOT_RUN):
        asyncio.run(MatchStore(client).load("a" * 24))
    assert client.connection_pool.closed == 1
