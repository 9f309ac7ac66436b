"""Parlor's REST gateway: a Flask app that turns REST calls into gRPC calls to
the rules service and gRPC statuses into HTTP ones. No game logic, no state."""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask, g, request

from parlor.common import logs
from parlor.common.config import Settings

from . import cors, errors
from .client import ServiceClient
from .deadlines import DEADLINES

log = logging.getLogger("gateway")


def stream_slots(threads: int) -> int:
    """Live event streams one gateway worker keeps open at once. Each holds a
    thread while open; a quarter of the threads (at least one) stay for every
    other request, the probes' among them, so a worker full of streams still
    answers its API calls and its liveness probe promptly."""
    return threads - max(1, threads // 4)


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    # A path that is not a route is 404, not a redirect to a guessed one (Werkzeug
    # would answer `//` with a 308 and an HTML page).
    app.url_map.merge_slashes = False
    app.extensions["parlor"] = ServiceClient(settings.service_target, settings.rpc_timeout,
                                             settings.max_body_bytes, settings.stream_seconds,
                                             health_checking=settings.gateway_health_checking)
    app.extensions["parlor.streams"] = threading.BoundedSemaphore(stream_slots(settings.gateway_threads))
    errors.init_app(app)
    app.wsgi_app = _RequestGuard(app.wsgi_app, settings.max_body_bytes)

    from . import matches, metrics, ops, web
    app.register_blueprint(matches.bp)
    app.register_blueprint(ops.bp)
    app.register_blueprint(metrics.bp)
    app.register_blueprint(web.bp)  # the browser client (static files; not API operations)

    # (Every request passes these two: the request and g are looked up once
    # each, not through their proxies on every use.)
    @app.before_request
    def start_request():
        ctx = g._get_current_object()
        ctx.request_id = rid = logs.request_id_from(request.environ.get("HTTP_X_REQUEST_ID"))
        ctx.started = time.perf_counter()
        logs.request_id.set(rid)

    @app.after_request
    def finish_request(response):
        req = request._get_current_object()
        method = req.method
        headers = response.headers
        if method == "OPTIONS" and response.status_code == 200 and not response.content_length:
            # Flask's automatic answer to OPTIONS (the Allow header) as 204, not an empty HTML page
            response.status_code = 204
            del headers["Content-Type"]
        ctx = g._get_current_object()
        headers["X-Request-Id"] = ctx.get("request_id", "")
        headers["X-Content-Type-Options"] = "nosniff"
        if req.path.startswith("/v1/matches") and "Cache-Control" not in headers:
            # Seats' views, tokens and events: for the caller alone, and stale at once.
            headers["Cache-Control"] = "no-store"
        rule = req.url_rule
        route = rule.rule if rule else "unmatched"
        seconds = time.perf_counter() - ctx.get("started", time.perf_counter())
        status = response.status_code
        metrics.observe(method, route, status, seconds)
        if route not in ("/healthz", "/readyz", "/metrics") and log.isEnabledFor(logging.INFO):
            log.info("http", extra={"method": method, "route": route, "status": status,
                                    "ms": round(seconds * 1000, 2)})
        return response

    cors.init_app(app, settings.cors_origins)
    return app


class _RequestGuard:
    """What the gateway checks of a request before Flask sees it, for gunicorn.

    Closes the connection after a response that left the request body unread
    (413, or a body that could not be read: jsonpb.body_object flags both in the
    environ), and says so in the response.
    gunicorn finds out only after writing `Connection: keep-alive`, when it
    cannot drain the body, and then drops the connection: a client's next
    request on it would fail. It ignores a Connection header set by the app, so
    the server is told directly: gunicorn's start_response is a method of its
    response object, which has force_close(). Other servers are left alone.
    It also refuses compressed transfer codings, which gunicorn lets through,
    and lifts the request's read deadline (deadlines.py) when it has no body."""

    def __init__(self, app, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH")
        coding = environ.get("HTTP_TRANSFER_ENCODING")
        if environ.get("REQUEST_METHOD") != "POST" or (coding is None and length in (None, "", "0")):
            # no body the gateway reads (only POST routes do): the request is in
            DEADLINES.disarm(environ.get("gunicorn.socket"))
        body = None
        if coding is not None or "HTTP_EXPECT" in environ or (
                length and not (length.isdigit() and int(length) <= self.max_body_bytes)):
            body = environ["wsgi.input"] = _Input(environ["wsgi.input"], length)
        # (Otherwise the usual request: its body, if any, was read ahead whole, so
        # whatever the app leaves of it costs no wait to drain.)

        def start(status: str, headers, exc_info=None):
            # A body that could not be read, or not read to its end: gunicorn would
            # wait (5 s, on this thread) for the rest of it to drain it, or take what
            # comes after a body cut short for a next request: the connection closes.
            if environ.get(errors.UNREAD_BODY) or (body is not None and not body.done):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if force_close is not None:
                    force_close()
            return start_response(status, headers, exc_info)

        if coding is not None and _compressed(coding):
            # gunicorn passes gzip, deflate and compress through undecoded; the body
            # is refused unread, as gunicorn refuses the codings it does not know.
            environ[errors.UNREAD_BODY] = True
            status_line, payload = errors.protocol_error(501)
            start(status_line, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
            return [payload]
        return self.app(environ, start)


class _Input:
    """wsgi.input, noting whether the body has been read to its end."""

    def __init__(self, raw, length: str | None) -> None:
        self.raw = raw
        self.left = int(length) if length and length.isdigit() else None  # (None: to the end of the chunks)
        self.done = self.left == 0

    def _took(self, data: bytes, size) -> bytes:
        if self.left is not None:
            self.left -= len(data)
            self.done = self.left <= 0
        if not data or size is None or size < 0:
            self.done = True  # (read to the end)
        return data

    def read(self, size=None):
        return self._took(self.raw.read(size), size)

    def readline(self, size=None):
        return self._took(self.raw.readline(size), 0)  # (an empty line: the end)

    def readlines(self, size=None):
        lines = self.raw.readlines(size)
        self.done = self.done or size is None or size < 0 or not lines
        return lines

    def __iter__(self):
        return iter(self.readline, b"")


def _compressed(transfer_encoding: str) -> bool:
    """Whether a Transfer-Encoding names a coding other than chunked (and the
    no-op identity)."""
    return any(c.strip(" \t").lower() not in ("chunked", "identity", "")
               for c in transfer_encoding.split(","))
