"""The gRPC face of Matches: metadata in, messages out. Request ids, logging,
metrics and errors are handled once, by the `rpc` wrapper every Parlor method
wears (a wrapper rather than a server interceptor: grpc.aio's interceptor chain
costs a coroutine hop per call on the hot path)."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import Any, AsyncIterator, Awaitable, Callable

import grpc
from google.protobuf import message_factory
from google.protobuf.message import DecodeError

from parlor.common import logs
from parlor.common.errors import ParlorError, bearer
from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

from .matches import Matches

log = logging.getLogger(__name__)

_SERVICE = pb.DESCRIPTOR.services_by_name["Parlor"]
SERVICE_NAME = _SERVICE.full_name
DEADLINE_SLACK = 0.1  # seconds: see _Call.cancelled

Observe = Callable[[str, str, float], None]
Method = Callable[["ParlorServicer", Any, grpc.aio.ServicerContext], Awaitable[Any]]


def bearer_token(metadata) -> str | None:
    """The seat token from `authorization: Bearer <token>`, or None."""
    for key, value in metadata:
        if key == "authorization":
            return bearer(value)
    return None


def _no_idempotency_metadata(metadata) -> None:
    """The idempotency key travels in the request's `idempotency_key` field.
    Metadata `idempotency-key` (or `x-idempotency-key`, `idempotency_key`, a
    `-bin` form) is refused rather than ignored: ignored, a retry the caller
    believes safe would be applied twice."""
    for key, _ in metadata:
        if key.removesuffix("-bin").replace("_", "-").endswith("idempotency-key"):
            raise ParlorError("INVALID_IDEMPOTENCY_KEY", "Send the idempotency key in the request's "
                              "idempotency_key field; metadata idempotency-key is not read.")


class Malformed:
    """A request whose bytes did not decode as its message (not protobuf, a
    string that is not UTF-8). It reaches the method so that the caller gets
    INVALID_ARGUMENT with the usual rich status; left to grpc, a decode error is
    UNKNOWN naming a Python exception, and a traceback in the log."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name


def _decoder(message_class) -> Callable[[bytes], Any]:
    def decode(data: bytes):
        try:
            return message_class.FromString(data)
        except DecodeError:
            return Malformed(message_class.DESCRIPTOR.full_name)
    return decode


def add_to_server(servicer: "ParlorServicer", server: grpc.aio.Server) -> None:
    """Registers the Parlor methods as parlor_pb2_grpc.add_ParlorServicer_to_server
    does, except that undecodable requests come through as Malformed."""
    handlers = {}
    for method in _SERVICE.methods:
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming \
            else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(
            getattr(servicer, method.name),
            request_deserializer=_decoder(message_factory.GetMessageClass(method.input_type)),
            response_serializer=message_factory.GetMessageClass(method.output_type).SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)


def rpc(method: Method) -> Method:
    """For a Parlor RPC: a request id (from `x-request-id` metadata, else a new
    one), one JSON log line, `observe(method, code, seconds)` for metrics, and
    errors turned into a rich status (ParlorError as is, anything else as
    INTERNAL without internals). The method gets the call's metadata."""
    name = method.__name__

    @functools.wraps(method)
    async def handle(self: "ParlorServicer", request: Any, context: grpc.aio.ServicerContext) -> Any:
        call = _Call(self, name, context)
        try:
            _check(request)
            return await method(self, request, call.metadata)
        except grpc.aio.AbortError:
            raise
        except asyncio.CancelledError:  # the caller went away, or its deadline passed
            call.cancelled()
            raise
        except Exception as exc:  # noqa: BLE001 (every error becomes a status)
            await call.fail(exc)
        finally:
            call.finish()
    return handle


def rpc_stream(method: Callable[..., AsyncIterator[Any]]):
    """`rpc` for a server-streaming method (an async generator). The two share
    _Call; their try blocks stay apart because an async context manager would
    cost every unary call about 2 us more (measured), on the action path."""
    name = method.__name__

    @functools.wraps(method)
    async def handle(self: "ParlorServicer", request: Any, context: grpc.aio.ServicerContext):
        call = _Call(self, name, context)
        try:
            _check(request)
            async for reply in method(self, request, call.metadata):
                yield reply
        except grpc.aio.AbortError:
            raise
        except asyncio.CancelledError:  # the caller went away, or its deadline passed
            call.cancelled()
            raise
        except Exception as exc:  # noqa: BLE001 (every error becomes a status)
            await call.fail(exc)
        finally:
            call.finish()
    return handle


def _check(request: Any) -> None:
    if type(request) is Malformed:
        raise ParlorError("INVALID_ARGUMENT", f"The request is not a valid {request.type_name} message.")


class _Call:
    """One call's request id, clock and outcome, for the log line and metrics."""

    __slots__ = ("servicer", "name", "context", "metadata", "code", "started", "_token")

    def __init__(self, servicer: "ParlorServicer", name: str, context: grpc.aio.ServicerContext) -> None:
        self.servicer, self.name, self.context = servicer, name, context
        self.metadata = context.invocation_metadata() or ()
        incoming = next((v for k, v in self.metadata if k == "x-request-id"), None)
        self._token = logs.request_id.set(logs.request_id_from(incoming))
        self.code = "OK"
        self.started = time.perf_counter()
        servicer.in_flight += 1

    async def fail(self, exc: Exception) -> None:
        """Ends the call with `exc` as a rich status (raises AbortError)."""
        if not isinstance(exc, ParlorError):
            log.exception("unhandled error", extra={"rpc": self.name})
            exc = ParlorError("INTERNAL", "Something went wrong on our side.")
        self.code = exc.code
        status = exc.to_status()
        await self.context.abort(status.code, status.details, status.trailing_metadata)

    def cancelled(self) -> None:
        """The call ends without an answer: its deadline passed, or the caller
        cancelled it (so it is not logged and counted as OK)."""
        left = self.context.time_remaining()
        # The deadline travels as a time left (grpc-timeout), so here it falls a
        # little after the caller's: a caller giving up at its deadline is seen
        # with a moment still left.
        self.code = "DEADLINE_EXCEEDED" if left is not None and left <= DEADLINE_SLACK else "CANCELLED"

    def finish(self) -> None:
        self.servicer.in_flight -= 1
        elapsed = time.perf_counter() - self.started
        if log.isEnabledFor(logging.INFO):
            log.info("rpc", extra={"rpc": self.name, "code": self.code, "ms": round(elapsed * 1000, 2)})
        if self.servicer.observe is not None:
            self.servicer.observe(self.name, self.code, elapsed)
        try:
            logs.request_id.reset(self._token)
        except ValueError:  # a stream closed from another context
            pass


class ParlorServicer(parlor_pb2_grpc.ParlorServicer):
    def __init__(self, matches: Matches, observe: Observe | None = None) -> None:
        self.matches = matches
        self.observe = observe
        self.in_flight = 0  # calls a handler has begun and not yet finished (streams included)

    @rpc
    async def ListGames(self, request, metadata):
        return self.matches.list_games()

    @rpc
    async def CreateMatch(self, request, metadata):
        return await self.matches.create(request)

    @rpc
    async def JoinMatch(self, request, metadata):
        _no_idempotency_metadata(metadata)
        return await self.matches.join(request)

    @rpc
    async def GetMatch(self, request, metadata):
        return await self.matches.get(request.match_id, bearer_token(metadata))

    @rpc
    async def ListLegalActions(self, request, metadata):
        return await self.matches.legal_actions(request.match_id, bearer_token(metadata))

    @rpc
    async def SubmitAction(self, request, metadata):
        token = bearer_token(metadata)
        if token:  # else Matches.submit names the missing token first
            _no_idempotency_metadata(metadata)
        return await self.matches.submit(request, token)

    @rpc
    async def ListEvents(self, request, metadata):
        return await self.matches.events(request, bearer_token(metadata))

    @rpc
    async def LeaveMatch(self, request, metadata):
        return await self.matches.leave(request, bearer_token(metadata))

    @rpc
    async def ListMatches(self, request, metadata):
        return await self.matches.list_matches(request)

    @rpc
    async def QuickMatch(self, request, metadata):
        _no_idempotency_metadata(metadata)
        return await self.matches.quick(request)

    @rpc
    async def GetReplay(self, request, metadata):
        return await self.matches.replay(request.match_id)

    @rpc
    async def GetRules(self, request, metadata):
        return self.matches.rules(request)

    @rpc_stream
    async def WatchEvents(self, request, metadata):
        async for reply in self.matches.watch(request, bearer_token(metadata)):
            yield reply
