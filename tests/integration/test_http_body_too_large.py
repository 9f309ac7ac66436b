"""A body over PARLOR_MAX_BODY_BYTES gets its 413 also when the client writes
the whole body before it reads anything, as Python's urllib, http.client and
requests do: the gateway answers at once, then reads and drops the rest of
the body while it closes (gunicorn_conf.LINGER_DRAIN, a few MiB), rather than
resetting the connection under the client's feet (a broken pipe, and no answer).
The drain is bounded in bytes and in time: a client that sends on and on is
cut off all the same."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request

import pytest

from ..support import new_rest_match

pytestmark = pytest.mark.integration

MIB = 1024 * 1024
# gunicorn_conf.py's, with the default body limit (importing it here would set
# up a gateway in the test process: its metrics directory, gunicorn's error page)
LINGER_MOST_SECONDS, LINGER_DRAIN = 5, 8 * MIB


@pytest.fixture(scope="module")
def seat(stack):
    """A match in play and its first seat's token."""
    rest = stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    rest.close()
    return match["matchId"], tokens[0]


def _post_with_urllib(port: int, path: str, body: bytes, headers: dict) -> tuple[int, str | None, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.headers["Connection"], reply.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers["Connection"], err.read()


def _post_with_http_client(port: int, path: str, body: bytes, headers: dict) -> tuple[int, str | None, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)  # (the whole body, then the answer)
        reply = conn.getresponse()
        return reply.status, reply.getheader("Connection"), reply.read()
    finally:
        conn.close()


@pytest.mark.parametrize("size", [1 * MIB, 4 * MIB], ids=["1MiB", "4MiB"])
@pytest.mark.parametrize("client", [_post_with_urllib, _post_with_http_client], ids=["urllib", "http.client"])
@pytest.mark.parametrize("route", ["create", "action"])
def test_a_client_that_writes_a_body_too_large_whole_reads_its_413(stack, rest, seat, client, size, route):
    match_id, token = seat
    headers = {"Content-Type": "application/json"}
    if route == "create":
        path = "/v1/matches"
    else:
        path = f"/v1/matches/{match_id}/actions"
        headers["Authorization"] = f"Bearer {token}"
        version = rest.get(f"/v1/matches/{match_id}", token=token).body["version"]
    body = b'{"action": {"whatTheHeck": {"bid": 1}}, "pad": "' + b"x" * size + b'"}'
    status, connection, payload = client(stack.http_port, path, body, headers)
    assert (status, connection) == (413, "close"), payload[:200]
    assert json.loads(payload)["error"]["code"] == "BODY_TOO_LARGE"
    if route == "action":
        assert rest.get(f"/v1/matches/{match_id}", token=token).body["version"] == version
    assert rest.get("/v1/games").status == 200


def _send_until_cut(port: int, chunk: bytes, pause: float, give_up: float) -> tuple[int, float, bytes]:
    """POSTs a body far over any drain, `chunk` after `chunk` with `pause`
    between, until the gateway cuts the connection: (bytes sent, seconds
    until the cut, what it answered)."""
    started = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % (1 << 40))
        try:
            while time.monotonic() - started < give_up:
                sock.sendall(chunk)
                sent += len(chunk)
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass
        took = time.monotonic() - started
        try:
            answer = sock.recv(65536)
        except OSError:
            answer = b""  # (the reset may take the answer with it)
    return sent, took, answer


def test_a_client_that_sends_on_and_on_is_cut_off_after_the_drain(stack, rest):
    """As fast as it can: cut once the drain's bytes are in (plus what the
    sockets' buffers hold), within moments."""
    sent, took, answer = _send_until_cut(stack.http_port, b" " * (256 * 1024), pause=0, give_up=30)
    assert took < LINGER_MOST_SECONDS + 3, f"cut after {took:.1f} s"
    assert sent < LINGER_DRAIN + 32 * MIB, f"{sent / MIB:.0f} MiB taken"
    assert not answer or answer.startswith(b"HTTP/1.1 413")
    assert rest.get("/v1/games").status == 200


def test_a_client_that_trickles_on_and_on_is_cut_off_after_the_drain_time(stack, rest):
    """Slowly but never pausing for LINGER_SECONDS (2 s; a client on a slow link
    still sending its body): drained for LINGER_MOST_SECONDS, then cut, far
    short of the drain's bytes."""
    sent, took, _ = _send_until_cut(stack.http_port, b" " * (16 * 1024), pause=0.2, give_up=30)
    assert LINGER_MOST_SECONDS - 0.5 < took < LINGER_MOST_SECONDS + 3, f"cut after {took:.1f} s"
    assert sent < LINGER_DRAIN
    assert rest.get("/v1/games").status == 200
