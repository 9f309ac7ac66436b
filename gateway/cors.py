"""Cross-origin calls from web apps (CORS), for the origins PARLOR_CORS_ORIGINS
lists (`*`: any). Off when it is empty: browsers then allow only pages served
from the gateway's own origin.

Seat tokens travel in the Authorization header, never in cookies, so no
credentials are allowed and `*` is safe to answer. A preflight (OPTIONS with
Access-Control-Request-Method) is answered here, 204, without reaching a route.
"""

from __future__ import annotations

from flask import Flask, request

ALLOWED_METHODS = "GET, POST, DELETE"
ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id"
EXPOSED_HEADERS = "X-Request-Id"
MAX_AGE_SECONDS = 600  # how long a browser may reuse a preflight's answer


def init_app(app: Flask, origins: tuple[str, ...]) -> None:
    if not origins:
        return
    anyone = "*" in origins
    listed = frozenset(origins)

    def allowed_origin() -> str | None:
        """What Access-Control-Allow-Origin says to this request, if anything."""
        origin = request.headers.get("Origin")
        if origin is None or not (anyone or origin in listed):
            return None
        return "*" if anyone else origin

    @app.before_request
    def preflight():
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        answer = app.response_class(status=204)
        del answer.headers["Content-Type"]
        if allowed_origin() is not None:
            answer.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            answer.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            answer.headers["Access-Control-Max-Age"] = str(MAX_AGE_SECONDS)
        return answer  # (a refused origin gets no CORS headers: the browser stops there)

    @app.after_request
    def allow(response):
        origin = allowed_origin()
        if origin is not None:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if not anyone:
            response.vary.add("Origin")  # the answer depends on it: caches must know
        return response
