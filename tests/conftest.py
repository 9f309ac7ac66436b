from __future__ import annotations

import pytest
import redis

from .support import Stack


@pytest.fixture(scope="session")
def stack():
    """The whole product, for real, with fixed seeds allowed (tests need them)."""
    s = Stack(env={"PARLOR_ALLOW_FIXED_SEED": "1"}).start()
    yield s
    s.stop()


@pytest.fixture
def rest(stack):
    client = stack.rest()
    yield client
    client.close()


@pytest.fixture
def stub(stack):
    channel = stack.channel()
    yield stack.stub(channel)
    channel.close()


@pytest.fixture
def db(stack):
    """A plain Redis client on the stack's Redis, to look at what is stored."""
    client = redis.Redis.from_url(stack.redis.url)
    yield client
    client.close()
