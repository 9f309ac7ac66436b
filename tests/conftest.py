from __future__ import annotations

import pytest

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
