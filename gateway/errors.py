"""JSON responses and errors, in one place. Errors are {"error": {"code", "message", "details"}}.

HTTP status follows the gRPC status as grpc-gateway maps it (runtime/errors.go);
the stable code comes from the service's google.rpc.ErrorInfo.reason.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

import grpc
import orjson
from flask import Flask, Response, current_app
from werkzeug.exceptions import HTTPException

from parlor.common.errors import ParlorError, error_info

log = logging.getLogger(__name__)

C = grpc.StatusCode
# CANCELLED is 503, not grpc-gateway's 499 (nor 500, as other unmapped codes): the
# gateway cancels only event streams whose client has gone, which get no answer,
# so a cancelled call is one a stopping service dropped before starting it.
HTTP_STATUS = {
    C.OK: 200, C.CANCELLED: 503, C.UNKNOWN: 500, C.INVALID_ARGUMENT: 400,
    C.DEADLINE_EXCEEDED: 504, C.NOT_FOUND: 404, C.ALREADY_EXISTS: 409,
    C.PERMISSION_DENIED: 403, C.UNAUTHENTICATED: 401, C.RESOURCE_EXHAUSTED: 429,
    C.FAILED_PRECONDITION: 400, C.ABORTED: 409, C.OUT_OF_RANGE: 400,
    C.UNIMPLEMENTED: 501, C.INTERNAL: 500, C.UNAVAILABLE: 503, C.DATA_LOSS: 500,
}

# Codes for failures that carry no ErrorInfo (the service was not reached, ...).
_TRANSPORT = {
    C.UNAVAILABLE: ("SERVICE_UNAVAILABLE", "The game service is unavailable; try again shortly."),
    C.DEADLINE_EXCEEDED: ("TIMEOUT", "The game service did not answer in time; try again."),
    C.RESOURCE_EXHAUSTED: ("RESOURCE_EXHAUSTED", "The request is too large or the service is overloaded."),
    C.CANCELLED: ("SERVICE_UNAVAILABLE", "The game service stopped before answering (it is restarting); "
                  "try again."),
}

# What gRPC says when its health checking (PARLOR_GATEWAY_HEALTH_CHECKING) found
# no replica SERVING ("connections to all backends failing; last error: ...:
# backend unhealthy"). Should the wording change, such calls are simply 503
# SERVICE_UNAVAILABLE.
_UNHEALTHY = "backend unhealthy"

# Werkzeug's own errors (routing, body size) with our codes.
_HTTP_CODES = {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
               413: "BODY_TOO_LARGE"}


UNREAD_BODY = "parlor.body_unread"  # WSGI environ flag: the request body was left unread

# Requests gunicorn refuses before the app sees them, by status: (code, message).
# gunicorn_conf.py answers them in the error shape; the OpenAPI document lists the codes.
PROTOCOL_ERRORS = {
    400: ("INVALID_HTTP", "The request is not valid HTTP."),
    414: ("URL_TOO_LONG", "The request line (method and URL) is too long."),
    417: ("EXPECTATION_FAILED", "The gateway cannot meet the request's Expect header."),
    431: ("HEADERS_TOO_LARGE", "The request headers are too many or too large."),
    501: ("UNSUPPORTED_TRANSFER_CODING", "The request uses a transfer coding the gateway does not take."),
}


def protocol_error(status: int) -> tuple[str, bytes]:
    """The status line (`501 Not Implemented`) and JSON body for a request
    refused before the app reads it, written by hand where Flask is not in play."""
    code, message = PROTOCOL_ERRORS.get(status, PROTOCOL_ERRORS[400] if status < 500
                                        else ("INTERNAL", "Something went wrong on our side."))
    body = orjson.dumps({"error": {"code": code, "message": message, "details": {}}})
    return f"{status} {HTTPStatus(status).phrase}", body


class ApiError(Exception):
    """An error the gateway finds itself (malformed JSON, a bad query value)."""

    def __init__(self, status: int, code: str, message: str, **details: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def json_response(data, status: int = 200) -> Response:
    """Every JSON body the gateway sends is written here (orjson)."""
    return current_app.response_class(orjson.dumps(data), status=status, mimetype="application/json")


def error_response(status: int, code: str, message: str, details: dict | None = None):
    return json_response({"error": {"code": code, "message": message, "details": details or {}}}, status)


def every_replica_unhealthy(err: grpc.RpcError) -> bool:
    """Whether gRPC refused a call because, with health checking on, every
    replica reports NOT_SERVING (it says so in the details)."""
    return err.code() == C.UNAVAILABLE and _UNHEALTHY in (err.details() or "")


def from_rpc_error(err: grpc.RpcError):
    code = err.code()
    info = error_info(err)
    if info is not None:
        return error_response(HTTP_STATUS.get(code, 500), info.reason, err.details(), dict(info.metadata))
    name, message = _TRANSPORT.get(code, ("INTERNAL", "Something went wrong on our side."))
    if every_replica_unhealthy(err):
        # Health checking on, and every replica reports NOT_SERVING: nearly
        # always because none reaches Redis (else they are all draining).
        name, message = "STORE_UNAVAILABLE", ("No game service replica can reach the match store right "
                                              "now; try again shortly.")
    if code not in _TRANSPORT:
        log.error("grpc error without details",
                  extra={"grpc_code": code.name, "grpc_details": err.details()})
    return error_response(HTTP_STATUS.get(code, 500), name, message)


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.details)

    @app.errorhandler(ParlorError)  # a check the gateway shares with the service
    def parlor_error(exc: ParlorError):
        return error_response(HTTP_STATUS[exc.status_code], exc.code, exc.message, exc.details)

    @app.errorhandler(grpc.RpcError)
    def rpc_error(exc: grpc.RpcError):
        return from_rpc_error(exc)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        code = _HTTP_CODES.get(status, "HTTP_ERROR")
        message = {413: f"The body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes.",
                   404: "There is no such endpoint.",
                   405: "This endpoint does not take that method."}.get(status, exc.description)
        response = error_response(status, code, message)
        allow = exc.get_response().headers.get("Allow")  # 405 says what is allowed
        if allow:
            response.headers["Allow"] = allow
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unhandled error")
        return error_response(500, "INTERNAL", "Something went wrong on our side.")
