"""The error catalogue: every stable error code, its gRPC status and how it
travels (google.rpc.Status with an ErrorInfo whose reason is the code).

The REST gateway turns the gRPC status into HTTP as grpc-gateway does (see
gateway/errors.py); the code and details pass through unchanged.
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "parlor.v1"

C = grpc.StatusCode
# code -> gRPC status. Codes are part of the API: never rename one.
CODES: dict[str, grpc.StatusCode] = {
    "INVALID_ARGUMENT": C.INVALID_ARGUMENT,
    "UNKNOWN_GAME": C.INVALID_ARGUMENT,
    "INVALID_PLAYER_COUNT": C.INVALID_ARGUMENT,
    "INVALID_OPTION": C.INVALID_ARGUMENT,
    "INVALID_SEED": C.INVALID_ARGUMENT,
    "INVALID_NAME": C.INVALID_ARGUMENT,
    "INVALID_SEAT": C.INVALID_ARGUMENT,
    "INVALID_ACTION": C.INVALID_ARGUMENT,
    "INVALID_IDEMPOTENCY_KEY": C.INVALID_ARGUMENT,
    "INVALID_BOT": C.INVALID_ARGUMENT,
    "INVALID_VISIBILITY": C.INVALID_ARGUMENT,
    "INVALID_TURN_SECONDS": C.INVALID_ARGUMENT,
    "INVALID_ON_TIMEOUT": C.INVALID_ARGUMENT,
    "INVALID_PAGE_TOKEN": C.INVALID_ARGUMENT,
    "ILLEGAL_ACTION": C.FAILED_PRECONDITION,
    "MATCH_NOT_STARTED": C.FAILED_PRECONDITION,
    "MATCH_FINISHED": C.FAILED_PRECONDITION,
    "RULES_VERSION_UNAVAILABLE": C.FAILED_PRECONDITION,
    "MATCH_NOT_FINISHED": C.FAILED_PRECONDITION,
    "MATCH_TOO_OLD": C.FAILED_PRECONDITION,
    "TOKEN_REQUIRED": C.UNAUTHENTICATED,
    "INVALID_TOKEN": C.UNAUTHENTICATED,
    "FIXED_SEED_DISABLED": C.PERMISSION_DENIED,
    "SEAT_MISMATCH": C.PERMISSION_DENIED,
    "MATCH_NOT_FOUND": C.NOT_FOUND,
    "SEAT_TAKEN": C.ALREADY_EXISTS,
    "MATCH_FULL": C.ALREADY_EXISTS,
    "IDEMPOTENCY_KEY_REUSED": C.ALREADY_EXISTS,
    "STALE_VERSION": C.ABORTED,
    "CONFLICT": C.ABORTED,
    "TOO_MANY_STREAMS": C.RESOURCE_EXHAUSTED,
    "TOO_MANY_REPLAYS": C.RESOURCE_EXHAUSTED,
    "STORE_UNAVAILABLE": C.UNAVAILABLE,
    "INTERNAL": C.INTERNAL,
}


# The status travels in the call's trailers, where gRPC allows 8 KiB of metadata
# by default: the message twice (grpc-message, percent-encoded, and inside
# grpc-status-details-bin, base64) and every detail. A message or detail that
# repeats what the caller sent (an unknown game's name) is cut to fit, so that a
# long value is refused with its own code rather than by the transport.
MESSAGE_BYTES = 1000
DETAIL_BYTES = 200


def clip(text: str, limit: int) -> str:
    """`text`, cut to at most `limit` bytes of UTF-8 (on a character boundary)
    and ending in "..." when cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit - 3].decode("utf-8", "ignore") + "..."


class ParlorError(Exception):
    """An error the caller gets to see: a stable code, a message for people and
    string details. Raise it anywhere below the servicer. Detail keys are given
    in Python's snake_case and sent in lowerCamelCase, as the JSON API names
    fields (and as ErrorInfo metadata keys are conventionally written)."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        if code not in CODES:
            raise AssertionError(f"unknown error code {code}")
        super().__init__(message)
        self.code = code
        self.message = clip(message, MESSAGE_BYTES)
        self.details = {lower_camel(k): clip(_text(v), DETAIL_BYTES)
                        for k, v in details.items() if v is not None}

    @property
    def status_code(self) -> grpc.StatusCode:
        return CODES[self.code]

    def to_status(self) -> grpc.Status:
        info = error_details_pb2.ErrorInfo(reason=self.code, domain=DOMAIN, metadata=self.details)
        detail = any_pb2.Any()
        detail.Pack(info)
        return rpc_status.to_status(status_pb2.Status(
            code=getattr(code_pb2, self.status_code.name), message=self.message, details=[detail]))


def bearer(value: str) -> str:
    """The token of an `Authorization: Bearer <token>` value (the scheme in any
    case), as the service and the gateway both read it; INVALID_TOKEN if the
    value is not one."""
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ParlorError("INVALID_TOKEN", "Authorization must be `Bearer <token>`.")
    return token.strip()


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo a failed call carries (what ParlorError.to_status puts
    there: the code as `reason`, the details as `metadata`), or None."""
    try:
        status = rpc_status.from_call(err) if isinstance(err, grpc.Call) else None
    except ValueError:  # details that contradict the status code: not ours, or mangled
        return None
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    return None


def lower_camel(key: str) -> str:
    """snake_case as lowerCamelCase, as proto3 JSON names fields."""
    first, *rest = key.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)
