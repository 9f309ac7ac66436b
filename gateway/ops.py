"""Operations endpoints: liveness, readiness and the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, current_app

from .client import HEALTH_SERVICE
from .errors import json_response
from .openapi import document

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz():
    """Liveness: the worker answers. Never depends on the service or Redis."""
    return json_response({"status": "ok"})


_NOT_READY = {"SERVICE_UNAVAILABLE": "The game service does not answer.",
              "STORE_UNAVAILABLE": "The game service cannot reach its Redis (or is shutting down)."}


@bp.get("/readyz")
def readyz():
    """Readiness: the service answers and reports Redis reachable."""
    problem = current_app.extensions["parlor"].why_not_ready(HEALTH_SERVICE)
    if problem is None:
        return json_response({"status": "ready"})
    return json_response({"status": "unavailable",
                          "error": {"code": problem, "message": _NOT_READY[problem], "details": {}}}, 503)


@bp.get("/v1/openapi.json")
def openapi():
    return json_response(document())
