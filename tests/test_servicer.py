"""The call wrapper every Parlor method wears: errors become rich statuses,
and every call, however it ends, gets its log line and metrics."""

import asyncio
import logging

import grpc
import pytest

from service.errors import ParlorError
from service.servicer import rpc, rpc_stream


class Context:
    """What the wrapper uses of grpc.aio.ServicerContext."""

    def __init__(self, time_remaining=None):
        self.aborted = None
        self.remaining = time_remaining

    def time_remaining(self):
        return self.remaining

    def invocation_metadata(self):
        return (("x-request-id", "abcdef0123456789"),)

    async def abort(self, code, details, trailing_metadata):
        self.aborted = (code, details)
        raise grpc.aio.AbortError()


class Servicer:
    def __init__(self):
        self.observed = []

    def observe(self, name, code, seconds):
        self.observed.append((name, code))

    @rpc
    async def Fails(self, request, metadata):  # noqa: N802 (gRPC method names)
        raise RuntimeError("a bug")

    @rpc
    async def Refuses(self, request, metadata):  # noqa: N802
        raise ParlorError("MATCH_NOT_FOUND", "There is no such match.")

    @rpc
    async def Answers(self, request, metadata):  # noqa: N802
        return dict(metadata)["x-request-id"]

    @rpc
    async def Waits(self, request, metadata):  # noqa: N802
        await asyncio.sleep(10)

    @rpc_stream
    async def Streams(self, request, metadata):  # noqa: N802
        yield 1
        await asyncio.sleep(10)
        yield 2


def run(coro):
    return asyncio.run(coro)


def test_a_bug_is_internal_without_internals_and_logged(caplog):
    servicer, context = Servicer(), Context()
    with caplog.at_level(logging.ERROR), pytest.raises(grpc.aio.AbortError):
        run(servicer.Fails(None, context))
    assert context.aborted == (grpc.StatusCode.INTERNAL, "Something went wrong on our side.")
    assert servicer.observed == [("Fails", "INTERNAL")]
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


def test_a_refusal_keeps_its_code():
    servicer, context = Servicer(), Context()
    with pytest.raises(grpc.aio.AbortError):
        run(servicer.Refuses(None, context))
    assert context.aborted == (grpc.StatusCode.NOT_FOUND, "There is no such match.")
    assert servicer.observed == [("Refuses", "MATCH_NOT_FOUND")]


def test_an_answer_is_ok_and_sees_the_metadata():
    servicer = Servicer()
    assert run(servicer.Answers(None, Context())) == "abcdef0123456789"
    assert servicer.observed == [("Answers", "OK")]


def test_a_stream_the_caller_leaves_is_cancelled():
    servicer = Servicer()

    async def leave_after_first():
        replies = servicer.Streams(None, Context())
        task = asyncio.ensure_future(replies.__anext__())
        assert await task == 1
        task = asyncio.ensure_future(replies.__anext__())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(leave_after_first())
    assert servicer.observed == [("Streams", "CANCELLED")]


@pytest.mark.parametrize("remaining,code", [(None, "CANCELLED"), (3.0, "CANCELLED"), (0.2, "CANCELLED"),
                                            (0.03, "DEADLINE_EXCEEDED"), (0.0, "DEADLINE_EXCEEDED"),
                                            (-0.5, "DEADLINE_EXCEEDED")])
def test_a_call_cancelled_while_it_waits_is_not_counted_as_ok(remaining, code):
    """gRPC cancels the handler when the caller hangs up or its deadline passes
    (seen here a moment before the deadline: it came as a time left)."""
    servicer = Servicer()

    async def cancel_while_waiting():
        task = asyncio.ensure_future(servicer.Waits(None, Context(time_remaining=remaining)))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(cancel_while_waiting())
    assert servicer.observed == [("Waits", code)]
