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


@bp.get("/readyz")
def readyz():
    """Readiness: the service answers and reports Redis reachable."""
    if current_app.extensions["parlor"].ready(HEALTH_SERVICE):
        return json_response({"status": "ready"})
    return json_response({"status": "unavailable",
                          "error": {"code": "SERVICE_UNAVAILABLE",
                                    "message": "The game service or its Redis is not reachable.",
                                    "details": {}}}, 503)


@bp.get("/v1/openapi.json")
def openapi():
    return json_response(document())
