"""The call wrapper every Parlor method wears: errors become rich statuses,
and every call, however it ends, gets its log line and metrics, and is counted
while in flight (for the drain, tested here too)."""

import asyncio
import logging

import grpc
import pytest

from parlor.common.errors import ParlorError
from parlor.service.server import drain
from parlor.service.servicer import rpc, rpc_stream


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
        self.in_flight = 0

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
    assert servicer.in_flight == 0
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


def test_a_refusal_keeps_its_code():
    servicer, context = Servicer(), Context()
    with pytest.raises(grpc.aio.AbortError):
        run(servicer.Refuses(None, context))
    assert context.aborted == (grpc.StatusCode.NOT_FOUND, "There is no such match.")
    assert servicer.observed == [("Refuses", "MATCH_NOT_FOUND")]
    assert servicer.in_flight == 0


def test_an_answer_is_ok_and_sees_the_metadata():
    servicer = Servicer()
    assert run(servicer.Answers(None, Context())) == "abcdef0123456789"
    assert servicer.observed == [("Answers", "OK")]
    assert servicer.in_flight == 0


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
    assert servicer.in_flight == 0


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
    assert servicer.in_flight == 0


def test_a_drain_lets_calls_in_flight_finish_and_cancels_what_no_handler_has():
    """A real server stopping with a long grace: a call our handler is running
    finishes OK; a call gRPC holds that no Parlor handler has (here a raw
    handler, standing in for a call gRPC took as it began stopping and never
    handed over) is cancelled once ours are done, instead of holding the stop
    for the whole grace and its client until its deadline."""
    servicer = Servicer()

    @rpc
    async def slow(self, request, metadata):
        await asyncio.sleep(0.5)
        return b"done"

    async def ours(request, context):
        return await slow(servicer, request, context)

    async def held(request, context):
        await asyncio.sleep(30)
        return b"never"

    handlers = {"Slow": grpc.unary_unary_rpc_method_handler(ours),
                "Held": grpc.unary_unary_rpc_method_handler(held)}

    async def scenario():
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("t.T", handlers),))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            calls = [asyncio.ensure_future(channel.unary_unary(f"/t.T/{name}")(b"", timeout=25))
                     for name in ("Slow", "Held")]
            for _ in range(500):  # (both calls are under way once ours is: 5 s at most)
                if servicer.in_flight:
                    break
                await asyncio.sleep(0.01)
            started = asyncio.get_running_loop().time()
            await drain(server, servicer, 20)
            took = asyncio.get_running_loop().time() - started
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
        return took, outcomes

    took, (slow_outcome, held_outcome) = run(scenario())
    assert slow_outcome == b"done"
    assert isinstance(held_outcome, grpc.aio.AioRpcError)
    assert held_outcome.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
    assert 0.4 < took < 5, took
    assert servicer.in_flight == 0 and servicer.observed == [("slow", "OK")]
