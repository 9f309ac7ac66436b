"""The gRPC face of Matches: metadata in, messages out. Request ids, logging,
metrics and errors are handled once, by the `rpc` wrapper every Parlor method
wears (a wrapper rather than a server interceptor: grpc.aio's interceptor chain
costs a coroutine hop per call on the hot path)."""

from __future__ import annotations

import functools
import logging
import time
from typing import Any, Awaitable, Callable

import grpc

from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

from . import logs
from .errors import ParlorError
from .matches import Matches

log = logging.getLogger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Parlor"].full_name

Observe = Callable[[str, str, float], None]
Method = Callable[["ParlorServicer", Any, grpc.aio.ServicerContext], Awaitable[Any]]


def bearer_token(metadata) -> str | None:
    """The seat token from `authorization: Bearer <token>`, or None."""
    for key, value in metadata:
        if key == "authorization":
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ParlorError("INVALID_TOKEN", "Authorization must be `Bearer <token>`.")
            return token.strip()
    return None


def rpc(method: Method) -> Method:
    """For a Parlor RPC: a request id (from `x-request-id` metadata, else a new
    one), one JSON log line, `observe(method, code, seconds)` for metrics, and
    errors turned into a rich status (ParlorError as is, anything else as
    INTERNAL without internals). The method gets the call's metadata."""
    name = method.__name__

    @functools.wraps(method)
    async def handle(self: "ParlorServicer", request: Any, context: grpc.aio.ServicerContext) -> Any:
        metadata = context.invocation_metadata() or ()
        incoming = next((v for k, v in metadata if k == "x-request-id"), None)
        token = logs.request_id.set(logs.request_id_from(incoming))
        started = time.perf_counter()
        code = "OK"
        try:
            return await method(self, request, metadata)
        except ParlorError as exc:
            code = exc.code
            await _abort(context, exc)
        except grpc.aio.AbortError:
            raise
        except Exception:
            code = "INTERNAL"
            log.exception("unhandled error", extra={"rpc": name})
            await _abort(context, ParlorError("INTERNAL", "Something went wrong on our side."))
        finally:
            elapsed = time.perf_counter() - started
            if log.isEnabledFor(logging.INFO):
                log.info("rpc", extra={"rpc": name, "code": code, "ms": round(elapsed * 1000, 2)})
            if self.observe is not None:
                self.observe(name, code, elapsed)
            logs.request_id.reset(token)
    return handle


class ParlorServicer(parlor_pb2_grpc.ParlorServicer):
    def __init__(self, matches: Matches, observe: Observe | None = None) -> None:
        self.matches = matches
        self.observe = observe

    @rpc
    async def ListGames(self, request, metadata):
        return self.matches.list_games()

    @rpc
    async def CreateMatch(self, request, metadata):
        return await self.matches.create(request)

    @rpc
    async def JoinMatch(self, request, metadata):
        return await self.matches.join(request)

    @rpc
    async def GetMatch(self, request, metadata):
        return await self.matches.get(request.match_id, bearer_token(metadata))

    @rpc
    async def ListLegalActions(self, request, metadata):
        return await self.matches.legal_actions(request.match_id, bearer_token(metadata))

    @rpc
    async def SubmitAction(self, request, metadata):
        return await self.matches.submit(request, bearer_token(metadata))

    @rpc
    async def ListEvents(self, request, metadata):
        return await self.matches.events(request, bearer_token(metadata))


async def _abort(context: grpc.aio.ServicerContext, error: ParlorError) -> None:
    status = error.to_status()
    await context.abort(status.code, status.details, status.trailing_metadata)
