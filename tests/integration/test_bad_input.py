"""Bad input anywhere gets a clear error with a stable code and changes nothing."""

from __future__ import annotations

import contextlib
import hashlib

import pytest

from parlor.service.store import keys

from ..support import Stack, new_rest_match

pytestmark = pytest.mark.integration


def snapshot(db, match_id):
    state, events, actions, idem = keys(match_id)
    return (db.get(state), db.xrange(events), db.lrange(actions, 0, -1), db.hgetall(idem))


@pytest.fixture
def active(rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    rest.post(f"/v1/matches/{match['matchId']}/actions", {"action": {"whatTheHeck": {"bid": 1}}},
              token=tokens[0])
    return match["matchId"], tokens


def test_bad_requests_on_an_active_match_change_nothing(rest, db, active):
    match_id, tokens = active
    path = f"/v1/matches/{match_id}"
    act = f"{path}/actions"
    other, other_tokens = new_rest_match(rest, "what_the_heck", 2)
    cases = [
        # (method, path, json body or raw bytes, token, headers) -> (status, code)
        (("POST", act, b"{not json", tokens[1], None), (400, "INVALID_JSON")),
        (("POST", act, b"[1, 2]", tokens[1], None), (400, "INVALID_JSON")),
        (("POST", act, b"", tokens[1], None), (400, "INVALID_JSON")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": "seven"}}}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "expectedVersion": "x"}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "extra": 1}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": {"card": 7}}}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {}}, tokens[1], None), (400, "INVALID_ACTION")),
        (("POST", act, {"action": []}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": []}}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": ""}}, tokens[1], None), (400, "INVALID_ARGUMENT")),
        (("POST", act, {}, tokens[1], None), (400, "INVALID_ACTION")),
        (("POST", act, {"action": {"hiFu": {}}}, tokens[1], None), (400, "INVALID_ACTION")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, None, None), (401, "TOKEN_REQUIRED")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, "not-a-token", None), (401, "INVALID_TOKEN")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, other_tokens[0], None), (401, "INVALID_TOKEN")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, None, {"Authorization": "Basic eA=="}), (401, "INVALID_TOKEN")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, None, {"Authorization": ""}), (401, "INVALID_TOKEN")),
        (("POST", act, b"{not json", None, {"Authorization": "Bearer "}), (401, "INVALID_TOKEN")),
        (("GET", path, None, None, {"Authorization": ""}), (401, "INVALID_TOKEN")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "seat": 2}, tokens[1], None), (403, "SEAT_MISMATCH")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 2}}}, tokens[0], None), (400, "ILLEGAL_ACTION")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 16}}}, tokens[1], None), (400, "ILLEGAL_ACTION")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "expectedVersion": 1}, tokens[1], None), (409, "STALE_VERSION")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, tokens[1], {"Idempotency-Key": "x" * 129}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, tokens[1], {"Idempotency-Key": "has space"}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "pad": "x" * 70_000}, tokens[1], None), (413, "BODY_TOO_LARGE")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "pad": "x" * 70_000}, None, None), (413, "BODY_TOO_LARGE")),
        (("POST", act, b"{" * 70_000, None, None), (413, "BODY_TOO_LARGE")),
        (("POST", f"{path}/seats", {"name": "late"}, None, None), (409, "MATCH_FULL")),
        (("POST", f"{path}/seats", b"{", None, None), (400, "INVALID_JSON")),
        (("GET", f"{path}/legal-actions", None, None, None), (401, "TOKEN_REQUIRED")),
        (("GET", f"{path}/legal-actions", None, "nope", None), (401, "INVALID_TOKEN")),
        (("GET", path, None, "nope", None), (401, "INVALID_TOKEN")),
        (("GET", f"{path}/events?after=-1", None, None, None), (400, "INVALID_ARGUMENT")),
        (("GET", f"{path}/events?after=abc", None, None, None), (400, "INVALID_ARGUMENT")),
        (("GET", f"{path}/events?after=", None, None, None), (400, "INVALID_ARGUMENT")),
        (("GET", f"{path}/events?after=%EF%BC%91", None, None, None), (400, "INVALID_ARGUMENT")),
        (("GET", f"{path}/events?limit=1_0", None, None, None), (400, "INVALID_ARGUMENT")),
        (("GET", f"{path}/events", None, None, {"Last-Event-ID": "2147483648"}), (400, "INVALID_ARGUMENT")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, tokens[1], {"Idempotency-Key": ""}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}, "idempotencyKey": "one"}, tokens[1], {"Idempotency-Key": "two"}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", f"{path}/seats", {"name": "late", "idempotencyKey": "one"}, None, {"Idempotency-Key": "two"}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", act, {"action": {"whatTheHeck": {"bid": 7}}}, tokens[1], {"X-Idempotency-Key": "abc"}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", f"{path}/seats", {"name": "late"}, None, {"X-Idempotency-Key": "abc"}), (400, "INVALID_IDEMPOTENCY_KEY")),
        (("POST", act, b"{not json", None, None), (401, "TOKEN_REQUIRED")),
        (("DELETE", path, None, None, None), (405, "METHOD_NOT_ALLOWED")),
        (("PUT", act, None, None, None), (405, "METHOD_NOT_ALLOWED")),
    ]
    before = snapshot(db, match_id)
    for (method, url, body, token, headers), (status, code) in cases:
        raw = body if isinstance(body, bytes) else None
        reply = rest.request(method, url, None if raw is not None else body, token=token,
                             headers=headers, raw=raw)
        assert (reply.status, reply.error) == (status, code), (method, url, body, reply.body)
        assert reply.body["error"]["message"], "every error explains itself"
        assert isinstance(reply.body["error"]["details"], dict)
        for secret in tokens + other_tokens:
            assert secret not in str(reply.body), "an error echoed a token"
        assert snapshot(db, match_id) == before, (method, url, body)


def test_a_body_naming_another_match_than_the_path_is_refused(rest, db, active):
    match_id, tokens = active
    other, _ = new_rest_match(rest, "what_the_heck", 3)
    before = snapshot(db, match_id)
    for path, body, token in [
            (f"/v1/matches/{match_id}/actions", {"matchId": other["matchId"], "action": {"whatTheHeck": {"bid": 9}}},
             tokens[1]),
            (f"/v1/matches/{other['matchId']}/seats", {"match_id": match_id, "name": "Eve"}, None)]:
        reply = rest.post(path, body, token=token)
        assert (reply.status, reply.error) == (400, "INVALID_ARGUMENT"), reply.body
        assert "matchId" in reply.body["error"]["message"]
    assert snapshot(db, match_id) == before
    same = rest.post(f"/v1/matches/{match_id}/actions",  # naming the path's own match is fine
                     {"matchId": match_id, "action": {"whatTheHeck": {"bid": 9}}}, token=tokens[1])
    assert same.status == 200, same.body


def test_illegal_action_details_name_the_reason(rest, active):
    match_id, tokens = active
    reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": 3}}},
                      token=tokens[0])
    assert reply.body["error"]["details"]["reason"] == "ALREADY_COMMITTED"
    reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": 0}}},
                      token=tokens[1])
    assert reply.body["error"]["details"]["reason"] == "CARD_NOT_IN_HAND"


def test_bad_creates_and_joins(rest, db):
    before = db.dbsize()
    cases = [
        ({"game": "chess", "players": 2}, (400, "UNKNOWN_GAME")),
        ({"game": "chess", "players": 2, "options": {"x": 1}}, (400, "UNKNOWN_GAME")),
        ({"game": "what_the_heck", "players": 6}, (400, "INVALID_PLAYER_COUNT")),
        ({"game": "what_the_heck", "players": 1}, (400, "INVALID_PLAYER_COUNT")),
        ({"game": "what_the_heck", "players": "four"}, (400, "INVALID_ARGUMENT")),
        ({"game": "what_the_heck", "players": 2.5}, (400, "INVALID_ARGUMENT")),
        ({"game": 7, "players": 2}, (400, "INVALID_ARGUMENT")),
        ({"players": 2}, (400, "UNKNOWN_GAME")),
        ({"game": "what_the_heck", "players": 2, "options": {"hidden_winnings": "yes"}}, (400, "INVALID_ARGUMENT")),
        ({"game": "what_the_heck", "players": 2, "options": {"jokers": True}}, (400, "INVALID_ARGUMENT")),
        ({"game": "what_the_heck", "players": 2, "options": [1]}, (400, "INVALID_ARGUMENT")),
        ({"game": "what_the_heck", "players": 2, "seed": ""}, (400, "INVALID_SEED")),
        ({"game": "what_the_heck", "players": 2, "seed": 5}, (400, "INVALID_ARGUMENT")),
        ({"game": "what_the_heck", "players": 2, "colour": "red"}, (400, "INVALID_ARGUMENT")),
        # options go in `options`, not in a field named after the game (the gRPC message's shape)
        ({"game": "heck", "players": 2, "heck": {"maxRounds": 3}}, (400, "INVALID_ARGUMENT")),
        ({"game": "heul_doch", "players": 3, "options": {}, "heulDoch": {}}, (400, "INVALID_ARGUMENT")),
        # a long value the error repeats is cut, so the status fits gRPC's trailers
        ({"game": "g" * 6000, "players": 3}, (400, "UNKNOWN_GAME")),
        ({"game": "\u00e9" * 6000, "players": 3}, (400, "UNKNOWN_GAME")),
        ({"game": "g" * 30000, "players": 3}, (400, "UNKNOWN_GAME")),
    ]
    for body, (status, code) in cases:
        reply = rest.post("/v1/matches", body)
        assert (reply.status, reply.error) == (status, code), (body, reply.body)
    assert db.dbsize() == before, "a refused create stored something"
    # a missing field is named as missing, not quoted back as "" or 0
    no_game = rest.post("/v1/matches", {"players": 2}).body["error"]["message"]
    assert no_game.startswith("The request names no game;") and "what_the_heck" in no_game, no_game
    for body in ({"game": "heck"}, {"game": "heck", "players": 0}):
        reply = rest.post("/v1/matches", body)
        assert (reply.status, reply.error) == (400, "INVALID_PLAYER_COUNT"), reply.body
        assert reply.body["error"]["message"].startswith("The request gives no player count (players);")
        assert "2 to 5 players" in reply.body["error"]["message"]
    # bytes that are not UTF-8 (UTF-16, gzip, Latin-1) are named as such
    for raw in ('{"game": "heck", "players": 2}'.encode("utf-16"), b'{"game": "h\xe9ck", "players": 2}'):
        reply = rest.request("POST", "/v1/matches", raw=raw)
        assert (reply.status, reply.error) == (400, "INVALID_JSON"), reply.body
        assert reply.body["error"]["message"].startswith("The body is not valid JSON: it is not UTF-8 text")
    long_name = rest.post("/v1/matches", {"game": "g" * 6000, "players": 3})
    assert len(long_name.body["error"]["message"]) < 1100
    assert long_name.body["error"]["details"]["game"].endswith("...")

    match, tokens = new_rest_match(rest, "hi_fu", 4)
    state_before = snapshot(db, match["matchId"])
    for colour in ("r" * 14000, "\u00e9" * 9000):
        reply = rest.post(f"/v1/matches/{match['matchId']}/actions",
                          {"action": {"hiFu": {"discard": {"cards": [{"colour": colour, "number": 1}]}}}},
                          token=tokens[0])
        assert (reply.status, reply.error) == (400, "ILLEGAL_ACTION"), reply.body
    assert snapshot(db, match["matchId"]) == state_before

    match = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2}).body
    seats = f"/v1/matches/{match['matchId']}/seats"
    state_before = snapshot(db, match["matchId"])
    for body, (status, code) in [
        ({"name": ""}, (400, "INVALID_NAME")),
        ({"name": "   "}, (400, "INVALID_NAME")),
        ({"name": "x" * 65}, (400, "INVALID_NAME")),
        ({"name": "bell\x07"}, (400, "INVALID_NAME")),
        ({"name": "\u3164\u3164"}, (400, "INVALID_NAME")),  # Hangul fillers: a blank seat
        ({"name": "\u2800"}, (400, "INVALID_NAME")),  # the blank Braille pattern
        ({"name": "\u0301\u0302"}, (400, "INVALID_NAME")),  # combining marks alone
        ({"name": 5}, (400, "INVALID_ARGUMENT")),
        ({"name": "ok", "seat": 2}, (400, "INVALID_SEAT")),
        ({"name": "ok", "seat": -1}, (400, "INVALID_SEAT")),
        ({"name": "ok", "seat": "one"}, (400, "INVALID_ARGUMENT")),
    ]:
        reply = rest.post(seats, body)
        assert (reply.status, reply.error) == (status, code), (body, reply.body)
    assert snapshot(db, match["matchId"]) == state_before
    early = rest.post(seats, {"name": "first"}).body["token"]
    reply = rest.post(f"/v1/matches/{match['matchId']}/actions",
                      {"action": {"whatTheHeck": {"bid": 4}}}, token=early)
    assert (reply.status, reply.error) == (400, "MATCH_NOT_STARTED")


def test_unknown_matches_and_routes(rest):
    for method, url in [("GET", "/v1/matches/" + "a" * 24), ("GET", "/v1/matches/nope"),
                        ("GET", "/v1/matches/{x}/events"), ("POST", "/v1/matches/nope/seats"),
                        ("GET", "/v1/matches/" + "b" * 24 + "/legal-actions"),
                        ("POST", "/v1/matches/" + "c" * 24 + "/actions")]:
        body = {"name": "x"} if url.endswith("seats") else (
            {"action": {"whatTheHeck": {"bid": 1}}} if url.endswith("actions") else None)
        reply = rest.request(method, url, body, token="t" if "legal" in url or "actions" in url else None)
        assert (reply.status, reply.error) == (404, "MATCH_NOT_FOUND"), (url, reply.body)
    match_id = "d" * 24
    for method, url in [("GET", "/v2/everything"), ("GET", "/v1//games"), ("GET", "/v1/games/"),
                        ("GET", f"/v1/matches/{match_id}//events"), ("GET", f"/v1/matches/{match_id}%2F/events"),
                        ("POST", f"/v1/matches/{match_id}//actions")]:
        reply = rest.request(method, url, {} if method == "POST" else None)
        assert (reply.status, reply.error) == (404, "NOT_FOUND"), (url, reply.status, reply.body)


def test_workers_survive_bad_input(stack, rest):
    """No bad request above may have taken a gunicorn worker down."""
    for raw in (b"\xff\xfe" * 10, b'{"game": "what_the_heck", "players": 99999999999999999999}',
                b'{"game": "' + b"x" * 60_000 + b'", "players": 2}', b"[" * 50_000):
        reply = rest.post("/v1/matches", raw=raw, headers={"Content-Type": "application/json"})
        assert reply.status == 400 and reply.error, (raw[:20], reply.status, reply.body)
    assert rest.get("/healthz").status == 200
    log = stack.log("gateway")
    assert log.count("Booting worker") == 2, "a worker died and was replaced"
    assert "Traceback" not in stack.log("service")


@pytest.fixture(scope="module")
def locked_stack():
    s = Stack().start()  # PARLOR_ALLOW_FIXED_SEED unset
    yield s
    s.stop()


def test_fixed_seed_refused_unless_allowed(locked_stack):
    rest = locked_stack.rest()
    reply = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2, "seed": "mine"})
    assert (reply.status, reply.error) == (403, "FIXED_SEED_DISABLED")
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    match_id = match["matchId"]
    for _ in range(12):
        for token in tokens:
            card = rest.get(f"/v1/matches/{match_id}/legal-actions", token=token).body["actions"][0]
            final = rest.post(f"/v1/matches/{match_id}/actions", {"action": card}, token=token).body
    seed = final["match"]["seed"]
    assert len(seed) >= 32  # 24 random bytes, base64: at least 128 bits
    assert hashlib.sha256(seed.encode()).hexdigest() == match["seedSha256"]
    rest.close()


def test_a_body_within_the_limit_is_never_refused_as_too_large(rest, active):
    """The gateway adds to a body what the gRPC message carries besides it
    (the match id from the path, field framing): the service takes that much
    more than PARLOR_MAX_BODY_BYTES, so a body the gateway accepts is read."""
    import json

    match_id, tokens = active
    limit = 65536  # PARLOR_MAX_BODY_BYTES's default
    for path, field in [(f"/v1/matches/{match_id}/seats", "name"),
                        (f"/v1/matches/{'a' * 3000}/seats", "name"),
                        (f"/v1/matches/{match_id}/actions", "pad")]:
        body = {field: ""} if field == "name" else {"action": {"whatTheHeck": {"bid": 7}}, "pad": ""}
        body[field] = "x" * (limit - len(json.dumps(body)))
        raw = json.dumps(body).encode()
        assert len(raw) == limit
        reply = rest.post(path, raw=raw, token=tokens[1], headers={"Content-Type": "application/json"})
        assert reply.status in (400, 404, 409), (path[:40], reply.status, reply.body)


def test_oversized_chunked_body_is_413_and_changes_nothing(stack, rest, db, active):
    """A chunked body carries no length to check up front: it is 413 all the same,
    not cut at the limit and parsed."""
    import http.client
    import json

    match_id, tokens = active
    before = snapshot(db, match_id)
    body = json.dumps({"action": {"whatTheHeck": {"bid": 7}}, "pad": "x" * 100_000}).encode()
    for path, token in [(f"/v1/matches/{match_id}/actions", tokens[1]), ("/v1/matches", None)]:
        conn = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=30)
        headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn.request("POST", path, body=(body[i:i + 8192] for i in range(0, len(body), 8192)),
                         headers=headers, encode_chunked=True)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the gateway answered and closed before the rest was sent: read the answer
        reply = conn.getresponse()
        assert reply.status == 413, reply.read()
        assert reply.getheader("Connection") == "close"  # the unread rest ends the connection
        assert json.loads(reply.read())["error"]["code"] == "BODY_TOO_LARGE"
        conn.close()
    assert snapshot(db, match_id) == before
    # a chunked body within the limit is read whole
    conn = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=30)
    small = json.dumps({"action": {"whatTheHeck": {"bid": 7}}}).encode()
    conn.request("POST", f"/v1/matches/{match_id}/actions", body=iter([small[:10], small[10:]]),
                 headers={"Authorization": f"Bearer {tokens[1]}", "Transfer-Encoding": "chunked"},
                 encode_chunked=True)
    assert conn.getresponse().status == 200
    conn.close()


@pytest.mark.parametrize("request_bytes, status, code", [
    (b"GET /v1/matches/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "URL_TOO_LONG"),
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"p" * 9000 + b"\r\n\r\n", 431, "HEADERS_TOO_LARGE"),
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n",
     431, "HEADERS_TOO_LARGE"),
    (b"NOT A REQUEST\r\n\r\n", 400, "INVALID_HTTP"),
    (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "INVALID_HTTP"),
    (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: bogus\r\n\r\n", 501,
     "UNSUPPORTED_TRANSFER_CODING"),
    *[(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + coding + b"\r\n\r\n"
       b"2\r\n{}\r\n0\r\n\r\n", 501, "UNSUPPORTED_TRANSFER_CODING")
      for coding in (b"gzip, chunked", b"deflate,chunked", b"Compress, chunked", b"br, chunked")],
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nExpect: miracles\r\n\r\n", 417, "EXPECTATION_FAILED"),
])
def test_requests_refused_before_the_app_get_json_errors_too(stack, request_bytes, status, code):
    """What gunicorn refuses itself (not HTTP, past its limits), and a body that
    cannot be read (bad chunked encoding, a compressed transfer coding), get the
    API's error shape."""
    import json
    import socket
    from http import HTTPStatus

    with socket.create_connection(("127.0.0.1", stack.http_port), timeout=10) as sock:
        sock.sendall(request_bytes)
        reply = read_to_close(sock)
    head, _, body = reply.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n")[0].lower()  # Werkzeug writes reasons in capitals
    assert status_line == f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".lower().encode(), reply[:200]
    assert b"Connection: close" in head
    assert b"Content-Type: application/json" in head
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"] and error["details"] == {}
    with socket.create_connection(("127.0.0.1", stack.http_port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 200"), "the worker serves on"


def test_a_413_closes_the_connection_and_says_so(stack):
    """The unread body cannot be skipped, so the connection ends after a 413;
    the response must say so, or a client's next request on it is lost."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=30)
    conn.request("POST", "/v1/matches", body=b"{" + b" " * 300_000 + b"}",
                 headers={"Content-Type": "application/json"})
    reply = conn.getresponse()
    assert (reply.status, reply.getheader("Connection")) == (413, "close")
    reply.read()
    conn.request("GET", "/healthz")  # http.client reconnects, as told
    assert conn.getresponse().status == 200
    conn.close()


def test_routes_without_seats_ignore_authorization(rest):
    """Listing games, creating and joining take no seat token: a stray
    Authorization header, however odd, is not theirs to judge."""
    assert rest.get("/v1/games", token="ß").status == 200
    match = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2}, token="ß")
    assert match.status == 200
    joined = rest.post(f"/v1/matches/{match.body['matchId']}/seats", {"name": "x"}, token="not-a-token")
    assert joined.status == 200 and joined.body["seat"] == 0


def read_to_close(sock) -> bytes:
    """Everything the server sends until it closes the connection."""
    reply = b""
    while chunk := sock.recv(65536):
        reply += chunk
    return reply


def assert_invalid_http(reply: bytes) -> None:
    import json

    head, _, payload = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), reply[:300]
    assert json.loads(payload)["error"]["code"] == "INVALID_HTTP"


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_body_cut_short_is_refused_and_changes_nothing(stack, db, active, framing):
    """The client ends its side before the body it announced is complete (a
    Content-Length not reached, a chunk not finished): the message is not whole,
    so nothing in it is acted on, however valid its first bytes are."""
    import json
    import socket

    match_id, tokens = active
    before = snapshot(db, match_id)
    body = json.dumps({"action": {"whatTheHeck": {"bid": 7}}}).encode()
    framed = (b"Content-Length: %d\r\n\r\n%s" % (len(body) + 50, body) if framing == "content-length"
              else b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s" % (len(body) + 50, body))
    with socket.create_connection(("127.0.0.1", stack.http_port), timeout=10) as sock:
        sock.sendall(b"POST /v1/matches/%s/actions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                     % (match_id.encode(), tokens[1].encode()) + framed)
        sock.shutdown(socket.SHUT_WR)
        assert_invalid_http(read_to_close(sock))
    assert snapshot(db, match_id) == before


@pytest.fixture(scope="module")
def strict_stack():
    """One worker with two threads, a 2-second client timeout, and idle
    connections kept 8 seconds."""
    s = Stack(env={"PARLOR_CLIENT_TIMEOUT_SECONDS": "2", "PARLOR_GATEWAY_WORKERS": "1",
                   "PARLOR_GATEWAY_THREADS": "2", "PARLOR_GATEWAY_KEEPALIVE_SECONDS": "8"}).start()
    yield s
    s.stop()


def connections_cut(stack, reason: str) -> float:
    """parlor_http_connections_cut_total{reason} on the gateway's /metrics."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{stack.http_port}/metrics", timeout=5) as reply:
        for line in reply.read().decode().splitlines():
            if line.startswith(f'parlor_http_connections_cut_total{{reason="{reason}"}} '):
                return float(line.rpartition(" ")[2])
    return 0.0


def answers_soon(stack, within: float) -> bool:
    import time

    started = time.monotonic()
    rest = stack.rest()
    try:
        return rest.get("/v1/games").status == 200 and time.monotonic() - started < within
    finally:
        rest.close()


def test_stalled_requests_cannot_take_every_gateway_thread(strict_stack):
    """Clients that stop half-way through their request (slowloris) are cut off
    after PARLOR_CLIENT_TIMEOUT_SECONDS; meanwhile and after, others are served."""
    import socket

    s = strict_stack
    cut_before = connections_cut(s, "stalled")
    rest = s.rest()
    for n in range(4):  # each thread serves a request first
        assert rest.get("/v1/games", headers={"X-Request-Id": f"earlier-{n}"}).status == 200
    rest.close()
    stalled = []
    try:
        for _ in range(4):  # twice the threads there are
            sock = socket.create_connection(("127.0.0.1", s.http_port), timeout=15)
            sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            stalled.append(sock)
        body_sock = socket.create_connection(("127.0.0.1", s.http_port), timeout=15)
        body_sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\"")
        assert answers_soon(s, within=8), "a stalled client held the threads"
        for sock in stalled:
            assert sock.recv(100) == b"", "the stalled connection is closed"
        assert_invalid_http(read_to_close(body_sock))
        body_sock.close()
        assert "Traceback" not in s.log("gateway")
        cut = [line for line in s.log("gateway").splitlines() if "stalled" in line]
        assert cut and not any("earlier-" in line for line in cut), "an earlier request's id: " + cut[0]
        assert connections_cut(s, "stalled") >= cut_before + 5  # (and in the metric, for operators)
    finally:
        for sock in stalled:
            sock.close()


@pytest.mark.parametrize("method,path", [("POST", "/v1/matches"), ("GET", "/v1/games")],
                         ids=["read-body", "unread-body"])
def test_what_comes_after_a_body_cut_off_is_never_read_as_a_request(strict_stack, method, path):
    """A client stalls half-way through a body and is cut off; then the rest of
    the body it announced comes (a client or proxy slow in sending it on), and
    those bytes happen to be a whole request. They are never answered as one:
    the connection closes after the answer to the request cut off. (Linux still
    delivers bytes sent after the gateway shut the reading side, and those that
    came just after the answer were read as the connection's next request.)"""
    import socket
    import threading

    smuggled = b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Request-Id: inside-a-body\r\n\r\n"
    first = b'{"game": '

    def trial(replies: list[bytes]) -> None:
        with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
            sock.sendall(b"%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (method.encode(), path.encode(),
                                                          len(first) + len(smuggled), first))
            reply = sock.recv(65536)  # after the stall (2 s here): the rest of the body, at once
            try:
                sock.sendall(smuggled)
                reply += read_to_close(sock)
            except OSError:
                pass
            replies.append(reply)

    replies: list[bytes] = []
    trials = [threading.Thread(target=trial, args=(replies,)) for _ in range(4)]
    for thread in trials:  # (in parallel: the moment the rest comes in decides, so several tries)
        thread.start()
    for thread in trials:
        thread.join(30)
    assert len(replies) == len(trials)
    for reply in replies:
        assert reply.startswith(b"HTTP/1.1 400" if method == "POST" else b"HTTP/1.1 200"), reply[:200]
        assert reply.count(b"HTTP/1.1 ") == 1 and b"inside-a-body" not in reply, reply[:600]
        if method == "POST":  # (the body could not be read: the answer says the connection ends)
            assert b"\r\nconnection: close\r\n" in reply.lower().partition(b"\r\n\r\n")[0]


def test_a_request_trickled_in_a_byte_at_a_time_is_cut_off(strict_stack):
    """Each byte in time, but the whole request not within three client timeouts
    (6 s here): the connection ends and the thread serves others again."""
    import socket
    import threading
    import time

    s = strict_stack
    request = b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n" + b" " * 400
    ended: list[float] = []

    def trickle() -> None:
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=15) as sock:
            try:
                for byte in request:
                    sock.sendall(bytes([byte]))
                    time.sleep(0.3)
            except OSError:  # the gateway hung up
                pass
            try:
                sock.recv(100)
            except OSError:
                pass
        ended.append(time.monotonic() - started)

    cut_before = connections_cut(s, "too_slow")
    tricklers = [threading.Thread(target=trickle) for _ in range(2)]  # as many as the threads
    for t in tricklers:
        t.start()
    for t in tricklers:
        t.join(30)
    assert len(ended) == 2 and max(ended) < 12, ended  # 6 s and a tick, not 140 s of trickle
    assert connections_cut(s, "too_slow") >= cut_before + 2
    assert answers_soon(s, within=2)
    assert "Traceback" not in s.log("gateway")


def test_trickling_clients_hold_no_thread_while_they_send(strict_stack):
    """Three times as many clients as threads trickle their requests in: the
    gateway reads them in its event loop, so everyone else is served meanwhile,
    not after the tricklers are cut off."""
    import socket
    import threading
    import time

    s = strict_stack
    request = b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * 100 + b"\r\n\r\n"
    stop = threading.Event()

    def trickle() -> None:
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=15) as sock:
            try:
                for byte in request:
                    if stop.is_set():
                        return
                    sock.sendall(bytes([byte]))
                    time.sleep(0.25)
            except OSError:  # cut off after three client timeouts
                pass

    tricklers = [threading.Thread(target=trickle) for _ in range(6)]
    for t in tricklers:
        t.start()
    try:
        time.sleep(0.5)
        for _ in range(5):  # over the next few seconds, well before the tricklers are cut off
            assert answers_soon(s, within=1), "trickling clients held the threads"
            time.sleep(0.5)
    finally:
        stop.set()
        for t in tricklers:
            t.join(30)
    assert "Traceback" not in s.log("gateway")


def send_in_pieces(sock, data: bytes, pieces: int, pause: float = 0.2) -> None:
    import time

    step = -(-len(data) // pieces)
    for at in range(0, len(data), step):
        sock.sendall(data[at:at + step])
        time.sleep(pause)


def read_responses(sock, count: int) -> list[tuple[int, bytes]]:
    """The next `count` HTTP/1.1 responses (each with a Content-Length): status and body."""
    reply, responses = b"", []
    while len(responses) < count:
        head, blank, rest = reply.partition(b"\r\n\r\n")
        fields = head.lower().split(b"\r\n")
        length = next((int(f.split(b":")[1]) for f in fields if f.startswith(b"content-length:")), 0)
        if blank and len(rest) >= length:
            responses.append((int(head.split()[1]), rest[:length]))
            reply = rest[length:]
        else:
            more = sock.recv(65536)
            assert more, f"the connection closed after {len(responses)} responses"
            reply += more
    return responses


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_requests_that_arrive_in_pieces_are_served_whole(strict_stack, framing):
    """A request whose headers and body come in several pieces (within the
    client timeout) is answered as if it came at once: on a new connection, on a
    kept-alive one, and with a second request pipelined behind it."""
    import json
    import socket

    body = json.dumps({"game": "what_the_heck", "players": 2}).encode()
    if framing == "chunked":
        framed = b"Transfer-Encoding: chunked\r\n\r\n" + b"".join(
            b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:])) + b"0\r\n\r\n"
    else:
        framed = b"Content-Length: %d\r\n\r\n" % len(body) + body
    create = b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framed
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        send_in_pieces(sock, create, pieces=5)
        ((status, reply),) = read_responses(sock, 1)
        assert status == 200 and json.loads(reply)["game"] == "what_the_heck"
        send_in_pieces(sock, create + b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n", pieces=7)
        (status, reply), (then, games) = read_responses(sock, 2)
        assert status == 200 and json.loads(reply)["status"] == "WAITING"
        assert then == 200 and "games" in json.loads(games)


def test_a_body_of_many_small_chunks_is_answered_promptly(strict_stack):
    """60,000 one-byte chunks (a 60 KB body, under the limit, 360 KB on the
    wire) sent at once: read ahead whole, then parsed in a blink. (Handed to
    gunicorn's parser in one piece, they cost it seconds of CPU per request, and
    the request was cut off at its deadline before any answer.)"""
    import json
    import socket

    body = b"1\r\n \r\n" * 60_000 + b"0\r\n\r\n"
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        ((status, reply),) = read_responses(sock, 1)
    assert (status, json.loads(reply)["error"]["code"]) == (400, "INVALID_JSON")  # (all spaces)
    assert answers_soon(strict_stack, within=2)


def test_silent_connections_wait_without_holding_threads(strict_stack):
    """Connections that send nothing (port scans, browsers' pre-connects) wait
    in the poller, not on a thread, and are closed after the keep-alive time."""
    import socket
    import time

    opened = time.monotonic()
    silent = [socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) for _ in range(30)]
    try:
        assert answers_soon(strict_stack, within=2)
        assert silent[0].recv(100) == b"", "a silent connection is closed in the end"
        waited = time.monotonic() - opened
        assert waited < 7.5, f"closed after {waited:.1f} s: a long keep-alive is for connections that spoke"
    finally:
        for sock in silent:
            sock.close()


def test_an_idle_connection_is_kept_for_the_keep_alive_time(strict_stack):
    """PARLOR_GATEWAY_KEEPALIVE_SECONDS: a proxy's pooled connection, idle for
    less than that, still takes the next request."""
    import time

    rest = strict_stack.rest()
    assert rest.get("/v1/games").status == 200
    conn = rest._conn
    time.sleep(6)  # longer than gunicorn's own 5 s default, shorter than the 8 s set
    assert rest.get("/v1/games").status == 200
    assert rest._conn is conn, "the connection was closed while idle"
    rest.close()


def test_a_client_that_does_not_read_its_answers_is_cut_off(strict_stack):
    """Pipelined requests whose answers are never read fill the socket's
    buffers; the write that waits past the client timeout ends the connection."""
    import socket
    import time

    hogs = []
    try:
        for _ in range(2):  # as many as the threads
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(15)
            sock.connect(("127.0.0.1", strict_stack.http_port))
            sock.sendall(b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 300)
            hogs.append(sock)
        cut_before = connections_cut(strict_stack, "stalled")
        time.sleep(3)  # past the client timeout: the stuck writes have given up
        assert answers_soon(strict_stack, within=4), "a client that does not read held the threads"
        assert "Traceback" not in strict_stack.log("gateway")
        deadline = time.monotonic() + 10  # (each hog's write gives up 2 s after it stalls, in turn)
        while connections_cut(strict_stack, "stalled") < cut_before + 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert connections_cut(strict_stack, "stalled") >= cut_before + 2
    finally:
        for sock in hogs:
            sock.close()


def test_clients_that_keep_closed_connections_open_stall_no_one(strict_stack):
    """An answer with "Connection: close" ends with a linger: the gateway waits
    (2 s at most) for the client to close its side too, so that bytes it sent
    meanwhile do not reset the connection before the answer is read. Clients
    that never close make that wait whole; it happens in the worker's event
    loop, beside everyone else's requests, not in their way (in gunicorn's own
    worker, twenty such clients stalled the worker for 40 s)."""
    import socket
    import time

    lingering = []
    try:
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15)
            sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            lingering.append(sock)
        time.sleep(0.5)
        for _ in range(3):
            assert answers_soon(strict_stack, within=1), "clients holding closed connections stalled the worker"
        started = time.monotonic()
        for sock in lingering:
            assert read_responses(sock, 1)[0][0] == 200
            sock.settimeout(5)
            assert sock.recv(100) == b"", "the gateway closed its side"
        waited = time.monotonic() - started
        assert waited < 6, f"all lingered in turn: {waited:.1f} s"  # (2 s each in turn: 40 s)
        assert "Traceback" not in strict_stack.log("gateway")
    finally:
        for sock in lingering:
            sock.close()


def test_bytes_sent_after_a_closing_answer_do_not_reset_it(strict_stack):
    """What a client sent beyond a request answered with "Connection: close" is
    read and dropped while the gateway lingers, so the answer arrives whole
    (closed with unread bytes, the connection is reset, the answer with it)."""
    import socket

    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + b"x" * 100_000)
        assert read_responses(sock, 1)[0][0] == 200
        assert sock.recv(100) == b""


@pytest.mark.parametrize("request_bytes, status, code", [
    (b"GET /v1/matches/" + b"a" * 5000, 414, "URL_TOO_LONG"),
    (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX: y\n",
     400, "INVALID_HTTP"),
], ids=["request line over the limit", "bare LF in the trailers"])
def test_requests_refused_at_once_are_not_read_on_first(strict_stack, request_bytes, status, code):
    """A request that gunicorn refuses at once however it goes on is answered
    at once, not after the client stalls (the client timeout, 2 s here)."""
    import json
    import socket
    import time

    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(request_bytes)  # and then nothing
        ((got, body),) = read_responses(sock, 1)
        took = time.monotonic() - started
    assert (got, json.loads(body)["error"]["code"]) == (status, code)
    assert took < 1.5, f"answered after {took:.1f} s"


def test_a_body_trickled_in_after_100_continue_is_cut_off_on_the_thread_too(strict_stack):
    """A body sent after `100 Continue` is read by a thread, not the event loop;
    trickled in, each byte in time, it is cut off at the same deadline (three
    client timeouts: 6 s here), and counted as too slow."""
    import socket
    import time

    cut_before = connections_cut(strict_stack, "too_slow")
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                     b"Content-Length: 100\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue")
        try:
            for _ in range(100):
                sock.sendall(b" ")
                time.sleep(0.3)
        except OSError:  # the gateway hung up
            pass
    took = time.monotonic() - started
    assert took < 12, f"cut off after {took:.1f} s"  # 6 s and a tick, not 30 s of trickle
    assert connections_cut(strict_stack, "too_slow") >= cut_before + 1
    assert answers_soon(strict_stack, within=2)


def test_a_body_stalled_after_100_continue_is_cut_off_and_counted(strict_stack):
    """A body sent after `100 Continue` is read by a thread; one that stalls
    for the client timeout (2 s here) is refused 400, its connection closed,
    and counted as stalled like those cut in the event loop."""
    import socket
    import time

    cut_before = connections_cut(strict_stack, "stalled")
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue")
        sock.sendall(b'{"game"')
        assert_invalid_http(read_to_close(sock))
    deadline = time.monotonic() + 10  # (the count is written as the answer goes out, not before)
    while connections_cut(strict_stack, "stalled") < cut_before + 1:
        assert time.monotonic() < deadline, "the stall was not counted"
        time.sleep(0.1)


def test_many_pipelined_requests_are_answered_in_order(strict_stack):
    """Requests pipelined behind one another, more of them than one piece the
    read-ahead hands gunicorn's parser (8 KiB) and than one read (64 KiB):
    GETs, and POSTs with plain and chunked bodies, each answered, in order."""
    import json
    import socket

    body = json.dumps({"game": "what_the_heck", "players": 2}).encode()
    kinds = [
        b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipelined-%04d\r\n\r\n",
        b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipelined-%04d\r\n"
        b"Content-Type: application/json\r\nContent-Length: " + b"%d\r\n\r\n" % len(body) + body,
        b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nX-Request-Id: pipelined-%04d\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:7], body[7:])) + b"0\r\n\r\n",
    ]
    count = 600  # ~100 KB
    requests = b"".join(kinds[n % 3].replace(b"%04d", b"%04d" % n) for n in range(count))
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
        sock.sendall(requests)
        answers = read_responses(sock, count)
    assert [status for status, _ in answers] == [200] * count
    assert all((b'"games"' in reply) == (n % 3 == 0) for n, (_, reply) in enumerate(answers))


def test_a_content_length_of_thousands_of_digits_is_refused_and_the_worker_serves_on(strict_stack):
    """(It raised in the worker's event loop: the worker died, with every
    connection it held.)"""
    import json
    import socket

    kept = strict_stack.rest()
    assert kept.get("/v1/games").status == 200
    conn = kept._conn
    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=10) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Length: " + b"9" * 5000 + b"\r\n\r\n")
        ((status, body),) = read_responses(sock, 1)
    assert (status, json.loads(body)["error"]["code"]) == (400, "INVALID_HTTP")
    assert kept.get("/v1/games").status == 200 and kept._conn is conn, "the kept-alive connection survived"
    kept.close()
    assert "Traceback" not in strict_stack.log("gateway")


def test_a_chunked_body_trickled_in_holds_no_thread(strict_stack):
    """Like any request trickled in, a chunked body is read in the event loop
    to its end: a chunk whose data comes in many reads counts once towards the
    body limit (counted at every read, 16 KiB chunks looked over the limit
    after four reads, and went to threads half-read)."""
    import socket
    import threading
    import time

    stop = threading.Event()

    def trickle() -> None:
        with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
            sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4000\r\n")
            try:
                while not stop.is_set():
                    sock.sendall(b"x" * 10)
                    time.sleep(0.2)
            except OSError:
                pass

    tricklers = [threading.Thread(target=trickle) for _ in range(3)]  # more than the threads
    for t in tricklers:
        t.start()
    try:
        for _ in range(6):  # over the next few seconds, before the tricklers are cut off
            time.sleep(0.5)
            assert answers_soon(strict_stack, within=1), "trickled chunked bodies held the threads"
    finally:
        stop.set()
        for t in tricklers:
            t.join(30)


def test_the_start_of_a_pipelined_request_trickled_in_holds_no_thread(strict_stack):
    """A request answered, with the first bytes of the next one behind it in
    the same read: the rest of that one is read in the event loop too, however
    slowly it comes (gunicorn hands such a connection to a thread at once),
    and then answered."""
    import json
    import socket
    import threading
    import time

    rest_of_it = b"ET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n"
    answers: list[int] = []

    def trickle() -> None:
        with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=15) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nG")
            assert read_responses(sock, 1)[0][0] == 200
            for byte in rest_of_it:  # 36 bytes over 3.6 s: each in time, the whole within 6 s
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
            ((status, body),) = read_responses(sock, 1)
            if "games" in json.loads(body):
                answers.append(status)

    tricklers = [threading.Thread(target=trickle) for _ in range(3)]  # more than the threads
    for t in tricklers:
        t.start()
    try:
        for _ in range(5):
            time.sleep(0.5)
            assert answers_soon(strict_stack, within=1), "slow pipelined requests held the threads"
    finally:
        for t in tricklers:
            t.join(30)
    assert answers == [200, 200, 200]


def test_a_body_too_large_sent_whole_gets_its_413_not_a_reset(strict_stack):
    """The gateway answers 413 as soon as it sees the Content-Length, and
    drains what the client still sends while it closes (a few MiB, at least
    twice the limit), so the client reads its answer rather than a reset
    (test_http_body_too_large.py: clients that write the whole body first)."""
    import json
    import socket

    with socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=10) as sock:
        sock.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 120000\r\n\r\n")
        send_in_pieces(sock, b" " * 120_000, pieces=12, pause=0.02)  # (past 64 KiB after the answer)
        sock.shutdown(socket.SHUT_WR)
        ((status, body),) = read_responses(sock, 1)
    assert (status, json.loads(body)["error"]["code"]) == (413, "BODY_TOO_LARGE")


@pytest.mark.parametrize("request_head", [
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    b"POST /v1/no-such-route HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n20000\r\n",
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n",
], ids=["GET with a body over the limit", "unknown route", "GET with a chunked body", "GET expecting 100"])
def test_a_body_the_app_does_not_read_is_not_waited_for(strict_stack, request_head):
    """Answered without reading the body that is announced and not sent: the
    connection closes after the answer, rather than a thread waiting (5 s) to
    drain the body gunicorn would read next."""
    import socket

    held = []
    try:
        for _ in range(4):  # twice the threads
            sock = socket.create_connection(("127.0.0.1", strict_stack.http_port), timeout=10)
            sock.sendall(request_head)  # and no body
            held.append(sock)
        for sock in held:
            reply = b""
            while b"\r\n\r\n" not in reply.removeprefix(b"HTTP/1.1 100 Continue\r\n\r\n"):
                reply += sock.recv(65536)
            head = reply.removeprefix(b"HTTP/1.1 100 Continue\r\n\r\n").partition(b"\r\n\r\n")[0]
            assert b"Connection: close" in head, reply[:300]
        assert answers_soon(strict_stack, within=1), "threads waited for bodies that never came"
    finally:
        for sock in held:
            sock.close()


def test_a_worker_out_of_file_descriptors_pauses_accepting_and_serves_on():
    """accept() failing with EMFILE (the worker's limit on open files reached)
    ended the worker, and every connection it held, as it does in gunicorn's
    own worker; it now stops accepting for a moment and serves on."""
    import re
    import resource
    import socket
    import time

    s = Stack(env={"PARLOR_GATEWAY_WORKERS": "1"}).start()
    held = []
    try:
        (worker,) = re.findall(r"Booting worker with pid: (\d+)", s.log("gateway"))
        kept = s.rest()
        assert kept.get("/v1/games").status == 200  # a connection the worker holds
        resource.prlimit(int(worker), resource.RLIMIT_NOFILE, (64, 64))
        for _ in range(80):  # past the limit: silent connections wait in the backlog or the poller
            held.append(socket.create_connection(("127.0.0.1", s.http_port), timeout=10))
        s.log_with("gateway", "out of file descriptors")
        for sock in held:
            sock.close()
        held.clear()
        assert kept.get("/v1/games").status == 200, "the worker and its connections live on"
        fresh = s.rest()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if fresh.get("/healthz").status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        assert fresh.get("/healthz").status == 200
        assert re.findall(r"Booting worker with pid: (\d+)", s.log("gateway")) == [worker]
        assert "Traceback" not in s.log("gateway")
    finally:
        for sock in held:
            sock.close()
        s.stop()


HEALTH_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


@contextlib.contextmanager
def files_held_by_idle_connections(count: int):
    """One gateway worker (idle connections kept 30 s) whose limit on open files
    leaves room for `count` connections, each answered and then kept alive,
    idle: yields (the stack, the worker's pid, those connections)."""
    import os
    import re
    import resource
    import socket
    import time

    s = Stack(env={"PARLOR_GATEWAY_WORKERS": "1", "PARLOR_GATEWAY_KEEPALIVE_SECONDS": "30"}).start()
    idle = []
    try:
        (worker,) = re.findall(r"Booting worker with pid: (\d+)", s.log("gateway"))
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=10) as warm:
            warm.sendall(HEALTH_REQUEST)
            assert read_responses(warm, 1)[0][0] == 200
        time.sleep(1)  # (its linger over)
        files = len(os.listdir(f"/proc/{worker}/fd"))
        resource.prlimit(int(worker), resource.RLIMIT_NOFILE, (files + count, files + count))
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", s.http_port), timeout=10)
            sock.sendall(HEALTH_REQUEST)
            assert read_responses(sock, 1)[0][0] == 200
            idle.append(sock)
        yield s, worker, idle
    finally:
        for sock in idle:
            sock.close()
        s.stop()


def test_a_worker_out_of_file_descriptors_closes_idle_connections_for_new_ones():
    """The worker's open files are all held by idle kept-alive connections (a
    proxy's pool, say): a new client is served at once, not after the idle
    ones' keep-alive time (30 s here), and idle ones are closed for it."""
    import re
    import select
    import socket
    import time

    with files_held_by_idle_connections(8) as (s, worker, idle):
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=40) as fresh:
            fresh.sendall(HEALTH_REQUEST)
            assert fresh.recv(65536).startswith(b"HTTP/1.1 200")
        assert time.monotonic() - started < 10  # (not the keep-alive's 30 s)
        assert re.search(r"closed [1-8] idle kept-alive connections", s.log("gateway"))
        closed, _, _ = select.select(idle, [], [], 5)  # (those closed for it read as ended)
        assert closed and all(sock.recv(1) == b"" for sock in closed)
        assert re.findall(r"Booting worker with pid: (\d+)", s.log("gateway")) == [worker]


def test_an_idle_connection_whose_request_comes_as_files_run_out_is_served():
    """Files run out (accept fails) in the same turn of the worker's event loop
    as a request comes on an idle kept-alive connection: that connection is
    served, not closed under the event (which ended the worker, with every
    request it held). The worker is stopped for a moment so that both events
    land in one turn."""
    import os
    import re
    import signal
    import socket
    import time

    with files_held_by_idle_connections(4) as (s, worker, idle):
        time.sleep(0.3)
        os.kill(int(worker), signal.SIGSTOP)
        try:
            fresh = socket.create_connection(("127.0.0.1", s.http_port), timeout=10)  # (in the backlog)
            fresh.sendall(HEALTH_REQUEST)
            time.sleep(0.2)
            idle[0].sendall(HEALTH_REQUEST)
            time.sleep(0.2)
        finally:
            os.kill(int(worker), signal.SIGCONT)
        assert read_responses(idle[0], 1)[0][0] == 200
        assert read_responses(fresh, 1)[0][0] == 200
        fresh.close()
        assert re.findall(r"Booting worker with pid: (\d+)", s.log("gateway")) == [worker]
        assert "Traceback" not in s.log("gateway")
