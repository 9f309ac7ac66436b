"""The gRPC face of Matches: metadata in, messages out. Errors, request ids and
logging are handled once, in RequestInterceptor, for every Parlor RPC."""

from __future__ import annotations

import logging
import re
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
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def bearer_token(context: grpc.aio.ServicerContext) -> str | None:
    """The seat token from `authorization: Bearer <token>`, or None."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ParlorError("INVALID_TOKEN", "Authorization must be `Bearer <token>`.")
            return token.strip()
    return None


class ParlorServicer(parlor_pb2_grpc.ParlorServicer):
    def __init__(self, matches: Matches) -> None:
        self.matches = matches

    async def ListGames(self, request, context):
        return self.matches.list_games()

    async def CreateMatch(self, request, context):
        return await self.matches.create(request)

    async def JoinMatch(self, request, context):
        return await self.matches.join(request)

    async def GetMatch(self, request, context):
        return await self.matches.get(request.match_id, bearer_token(context))

    async def ListLegalActions(self, request, context):
        return await self.matches.legal_actions(request.match_id, bearer_token(context))

    async def SubmitAction(self, request, context):
        return await self.matches.submit(request, bearer_token(context))

    async def ListEvents(self, request, context):
        return await self.matches.events(request, bearer_token(context))


class RequestInterceptor(grpc.aio.ServerInterceptor):
    """For every Parlor RPC: a request id (from `x-request-id` metadata, else a
    new one), one JSON log line, `observe(method, code, seconds)` for metrics,
    and errors turned into a rich status (ParlorError as is, anything else as
    INTERNAL without internals)."""

    def __init__(self, observe: Callable[[str, str, float], None] | None = None) -> None:
        self.observe = observe
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}  # one wrapper per method, made once

    async def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(handler_call_details)
        if handler is None or not method.startswith(f"/{SERVICE_NAME}/") or not handler.unary_unary:
            return handler
        wrapped = grpc.unary_unary_rpc_method_handler(
            self._wrap(handler.unary_unary, method.rsplit("/", 1)[1]),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
        self._wrapped[method] = wrapped
        return wrapped

    def _wrap(self, behavior: Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]],
              rpc: str) -> Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]:
        async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
            rid = next((v for k, v in context.invocation_metadata() or ()
                        if k == "x-request-id" and _REQUEST_ID.fullmatch(v)), None)
            token = logs.request_id.set(rid or logs.new_request_id())
            started = time.perf_counter()
            code = "OK"
            try:
                return await behavior(request, context)
            except ParlorError as exc:
                code = exc.code
                await _abort(context, exc)
            except grpc.aio.AbortError:
                raise
            except Exception:
                code = "INTERNAL"
                log.exception("unhandled error", extra={"rpc": rpc})
                await _abort(context, ParlorError("INTERNAL", "Something went wrong on our side."))
            finally:
                elapsed = time.perf_counter() - started
                log.info("rpc", extra={"rpc": rpc, "code": code, "ms": round(elapsed * 1000, 2)})
                if self.observe is not None:
                    self.observe(rpc, code, elapsed)
                logs.request_id.reset(token)
        return handle


async def _abort(context: grpc.aio.ServicerContext, error: ParlorError) -> None:
    status = error.to_status()
    await context.abort(status.code, status.details, status.trailing_metadata)
