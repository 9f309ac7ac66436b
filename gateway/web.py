"""The browser client: static files under gateway/web/, served at `/` (the page)
and `/web/<file>` (its scripts, styles and icon).

The page is plain JavaScript modules with no build step, and it calls only the
public REST API, like any other client. These routes are not API operations:
the OpenAPI document leaves them out.

Caching: every file is answered with `Cache-Control: no-cache` and an ETag, so a
browser keeps its copy but asks each time whether it is still current (a
304 costs a round trip and no body). The files are small and the modules
import each other by relative URL, so a versioned URL per file would buy
little and need a build step.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory
from werkzeug.exceptions import NotFound

bp = Blueprint("web", __name__)

WEB_DIR = Path(__file__).resolve().with_name("web")
# Only these kinds of file are served from WEB_DIR (anything else there, such as
# an editor's backup, is not): the package ships these suffixes
# (pyproject.toml's package-data).
_SERVED = {".html", ".js", ".css", ".svg"}

# Scripts, styles, images and API calls from this origin only; no inline script
# or style (the page sets none: it builds its DOM with createElement and
# classes), no plugins, no framing, no <base> tricks, no form posts.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
))


@bp.get("/")
def index():
    return _send("index.html")


@bp.get("/web/<path:name>")
def asset(name: str):
    return _send(name)


def _send(name: str):
    if Path(name).suffix not in _SERVED:
        raise NotFound()
    # send_from_directory refuses paths that leave WEB_DIR (404); without a
    # max_age it answers no-cache, with an ETag and Last-Modified, and 304 to a
    # conditional request that still matches.
    return send_from_directory(WEB_DIR, name)


@bp.after_request
def page_headers(response):
    """Headers for the page and its files (the API's own are set elsewhere)."""
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    # The page's address holds a match id (in the fragment, which browsers never
    # send, but a later path might not): tell other sites nothing.
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"  # frame-ancestors, for older browsers
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    return response
