"""Operations endpoints: liveness, readiness and the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from parlor.v1 import parlor_pb2 as pb

from .openapi import document

bp = Blueprint("ops", __name__)
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Parlor"].full_name


@bp.get("/healthz")
def healthz():
    """Liveness: the worker answers. Never depends on the service or Redis."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz():
    """Readiness: the service answers and reports Redis reachable."""
    if current_app.extensions["parlor"].ready(SERVICE_NAME):
        return jsonify({"status": "ready"})
    return jsonify({"status": "unavailable",
                    "error": {"code": "SERVICE_UNAVAILABLE",
                              "message": "The game service or its Redis is not reachable.",
                              "details": {}}}), 503


@bp.get("/v1/openapi.json")
def openapi():
    return jsonify(document())
