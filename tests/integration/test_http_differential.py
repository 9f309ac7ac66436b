"""The gateway's worker reads requests in its event loop before a thread
parses them (gateway/gunicorn_conf.py); whatever the bytes and however they
arrive, the answers must be the ones gunicorn's own worker gives. Random
streams of requests (pipelined, mixed framings, some malformed), sent in
random pieces to both, are answered alike."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest

from ..support import Stack

pytestmark = pytest.mark.integration

BODY = json.dumps({"game": "what_the_heck", "players": 2}).encode()


def _chunked(body: bytes, parts: int, rng: random.Random) -> bytes:
    cuts = sorted(rng.sample(range(1, len(body)), parts - 1)) if parts > 1 else []
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


def _request(n: int, rng: random.Random) -> tuple[bytes, bool]:
    """A request with X-Request-Id n, and whether the connection may go on after it."""
    lead = b"\r\n" if rng.random() < 0.05 else b""  # (empty lines before a request are skipped)
    request, goes_on = _one_request(n, rng)
    return lead + request, goes_on


def _one_request(n: int, rng: random.Random) -> tuple[bytes, bool]:
    rid = b"X-Request-Id: diff-%04d\r\n" % n
    if rng.random() < 0.3:
        rid += b"X-Pad: %s\r\n" % (b"p" * rng.randint(1, 3000))
    kind = rng.randrange(7) if rng.random() < 0.97 else rng.randrange(7, 11)
    if kind == 0:
        return b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + rid + b"\r\n", True
    if kind == 1:
        return b"GET /v1/matches/nope HTTP/1.1\r\nHost: x\r\n" + rid + b"\r\n", True
    if kind == 2:
        return (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n" + rid + b"Content-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY), True
    if kind == 3:
        return (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n" + rid + b"Content-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n" + _chunked(BODY, rng.randint(1, 4), rng)), True
    if kind == 4:
        return (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n" + rid + b"Content-Length: 5\r\n\r\n{nope"), True
    if kind == 5:
        return b"GET /healthz HTTP/1.0\r\n" + rid + b"Connection: keep-alive\r\n\r\n", True
    if kind == 6:  # a body the app does not read
        return b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + rid + b"Content-Length: 3\r\n\r\nabc", True
    if kind == 7:
        return b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + rid + b"Connection: close\r\n\r\n", False
    if kind == 8:  # over PARLOR_MAX_BODY_BYTES: 413, and the connection ends
        return (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n" + rid + b"Content-Type: application/json\r\n"
                b"Content-Length: 70000\r\n\r\n" + b" " * 70_000), False
    if kind == 9:  # refused before the app: the connection ends
        return b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + rid + b"Bad Header\r\n\r\n", False
    return (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n" + rid + b"Transfer-Encoding: chunked\r\n\r\n"
            b"zz\r\n"), False


def _stream(seed: int) -> bytes:
    rng = random.Random(seed)
    data = b""
    for n in range(rng.choice([1, 2, 5, 40, 200])):
        request, goes_on = _request(n, rng)
        data += request
        if not goes_on:
            break
    return data


def _answers(port: int, data: bytes, seed: int) -> tuple[list[tuple], bool]:
    """Each answer's status, request id and what its body is (an error code, or
    its top-level keys), in order, until the gateway closes the connection; and
    whether it reset the connection (then the answers are those read before)."""
    rng = random.Random(seed)
    reply, reset = b"", False
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        try:
            at = 0
            while at < len(data):
                step = rng.choice([1, 7, 100, 1000, 10_000, len(data)])
                sock.sendall(data[at:at + step])
                at += step
                if rng.random() < 0.2:
                    time.sleep(rng.random() * 0.02)
            sock.shutdown(socket.SHUT_WR)
            while more := sock.recv(1 << 20):
                reply += more
        except (ConnectionResetError, BrokenPipeError, OSError) as exc:  # (ENOTCONN: reset before shutdown)
            if isinstance(exc, TimeoutError):  # (no answer at all is a failure)
                raise
            reset = True
    answers = []
    while reply:
        head, _, rest = reply.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(b":") for line in lines[1:])}
        body = rest[:int(fields.get(b"content-length", b"0"))]
        reply = rest[len(body):]
        try:
            parsed = json.loads(body)
            shape = parsed["error"]["code"] if "error" in parsed else tuple(sorted(parsed))
        except (ValueError, TypeError):
            shape = body
        answers.append((lines[0].split(b" ")[1], fields.get(b"x-request-id"), shape))
    if reset and answers and len(body) < int(fields.get(b"content-length", b"0")):
        answers.pop()  # (cut short by the reset)
    return answers, reset


@pytest.fixture(scope="module")
def gateways():
    """Our gateway, and gunicorn's own gthread worker with the same settings
    otherwise, in front of one service."""
    ours = Stack(env={"PARLOR_GATEWAY_WORKERS": "1"}).start()
    theirs = Stack.on_redis_of(ours, env={"PARLOR_SERVICE_TARGET": f"127.0.0.1:{ours.grpc_port}",
                                          "PARLOR_GATEWAY_WORKERS": "1"})
    try:
        theirs.start_gateway("--worker-class", "gthread")
        assert "Using worker: gthread" in theirs.log("gateway")
        yield ours.http_port, theirs.http_port
    finally:
        theirs.stop()
        ours.stop()


@pytest.mark.parametrize("seed", range(60))
def test_a_random_request_stream_is_answered_as_gunicorns_own_worker_answers_it(gateways, seed):
    ours, theirs = gateways
    data = _stream(seed)
    expected, their_reset = _answers(theirs, data, seed)
    got, our_reset = _answers(ours, data, seed)
    if their_reset:  # (gunicorn's worker, busy, may reset a closing connection it still had bytes to read on)
        assert got[:len(expected)] == expected
    else:
        assert expected, "gunicorn answered nothing"
        assert (got, our_reset) == (expected, False)
