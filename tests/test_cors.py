"""Cross-origin calls (PARLOR_CORS_ORIGINS): the headers a browser checks, on
routes that need no service (the rest is covered over real processes in
integration/test_live_events.py)."""

import os
import subprocess
import sys

import pytest

from parlor.common.config import Settings
from parlor.gateway import create_app

APP = "https://app.example.com"


def client(*origins: str):
    return create_app(Settings(cors_origins=origins)).test_client()


def test_off_by_default():
    reply = client().get("/v1/openapi.json", headers={"Origin": APP})
    assert "Access-Control-Allow-Origin" not in reply.headers


def test_a_listed_origin_may_call_and_read_the_request_id():
    reply = client(APP, "http://localhost:3000").get("/v1/openapi.json", headers={"Origin": APP})
    assert reply.status_code == 200
    assert reply.headers["Access-Control-Allow-Origin"] == APP
    assert reply.headers["Access-Control-Expose-Headers"] == "X-Request-Id"
    assert "Origin" in reply.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in reply.headers, "tokens are headers, not cookies"


def test_other_origins_get_no_cors_headers():
    gateway = client(APP)
    for origin in ("https://evil.example", "https://app.example.com.evil", "null"):
        reply = gateway.get("/v1/openapi.json", headers={"Origin": origin})
        assert "Access-Control-Allow-Origin" not in reply.headers, origin
        preflight = gateway.options("/v1/matches", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST"})
        assert preflight.status_code == 204
        assert not any(h.startswith("Access-Control-") for h in preflight.headers.keys()), origin


def test_preflight_allows_the_api_headers():
    reply = client(APP).options("/v1/matches/abc/actions", headers={
        "Origin": APP, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
    assert reply.status_code == 204 and reply.data == b""
    assert "Content-Type" not in reply.headers
    assert reply.headers["Access-Control-Allow-Origin"] == APP
    assert reply.headers["Access-Control-Allow-Methods"] == "GET, POST, DELETE"
    allowed = {h.strip().lower() for h in reply.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "last-event-id", "x-request-id"} <= allowed
    assert int(reply.headers["Access-Control-Max-Age"]) > 0


def test_any_origin():
    reply = client("*").get("/healthz", headers={"Origin": "https://anywhere.example"})
    assert reply.headers["Access-Control-Allow-Origin"] == "*"
    assert "Origin" not in reply.headers.get("Vary", "")


def test_errors_carry_the_headers_too():
    reply = client(APP).get("/v1/no-such-route", headers={"Origin": APP})
    assert reply.status_code == 404 and reply.headers["Access-Control-Allow-Origin"] == APP


@pytest.mark.parametrize("value", ["app.example.com", "https://app.example.com/path", "ftp://x",
                                   "https://app.example.com:99999", "https://user@app.example.com"])
def test_a_bad_origin_setting_stops_the_server(value):
    env = dict(os.environ, PARLOR_CORS_ORIGINS=value)
    done = subprocess.run([sys.executable, "-c", "from parlor.common.config import Settings; Settings.from_env()"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "PARLOR_CORS_ORIGINS" in done.stderr


def test_a_plain_options_request_says_what_is_allowed_without_a_body():
    """OPTIONS without a preflight's headers, with CORS on or off: 204 with Allow."""
    for gateway in (client(), client(APP)):
        reply = gateway.options("/v1/matches")
        assert reply.status_code == 204 and reply.data == b""
        assert "Content-Type" not in reply.headers
        assert set(reply.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST", "OPTIONS"}


def test_origins_are_set_as_browsers_write_them(monkeypatch):
    """Lower case, without the scheme's default port: a browser's Origin header
    is compared with them exactly."""
    monkeypatch.setenv("PARLOR_CORS_ORIGINS", "https://App.Example.com, https://b.example.com:443,"
                                              "http://c.example:8080/,HTTP://[::1]:80")
    origins = Settings.from_env().cors_origins
    assert origins == ("https://app.example.com", "https://b.example.com", "http://c.example:8080", "http://[::1]")
    reply = client(*origins).get("/healthz", headers={"Origin": "https://app.example.com"})
    assert reply.headers["Access-Control-Allow-Origin"] == "https://app.example.com"
