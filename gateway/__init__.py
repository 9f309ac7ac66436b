"""Parlor's REST gateway: a Flask app that turns REST calls into gRPC calls to
the rules service and gRPC statuses into HTTP ones. No game logic, no state."""

from __future__ import annotations

import logging
import re
import time

from flask import Flask, g, request

from service import logs
from service.config import Settings

from . import errors
from .client import ServiceClient

log = logging.getLogger("gateway")
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    app.extensions["parlor"] = ServiceClient(settings.service_target, settings.rpc_timeout,
                                             settings.max_body_bytes)
    errors.init_app(app)

    from . import matches, metrics, ops
    app.register_blueprint(matches.bp)
    app.register_blueprint(ops.bp)
    app.register_blueprint(metrics.bp)

    @app.before_request
    def start_request():
        incoming = request.headers.get("X-Request-Id", "")
        g.request_id = incoming if _REQUEST_ID.fullmatch(incoming) else logs.new_request_id()
        g.started = time.perf_counter()
        logs.request_id.set(g.request_id)

    @app.after_request
    def finish_request(response):
        response.headers["X-Request-Id"] = g.get("request_id", "")
        route = request.url_rule.rule if request.url_rule else "unmatched"
        seconds = time.perf_counter() - g.get("started", time.perf_counter())
        metrics.observe(request.method, route, response.status_code, seconds)
        if route not in ("/healthz", "/readyz", "/metrics"):
            log.info("http", extra={"method": request.method, "route": route,
                                    "status": response.status_code, "ms": round(seconds * 1000, 2)})
        return response

    return app
