"""Live play: WatchEvents over gRPC and Server-Sent Events over REST, against
real processes. A stream carries exactly what ListEvents gives the same
caller (so the secrecy of events carries over), resumes after the last event
received, and ends when the match is over, when its time is up, or when the
service drains."""

from __future__ import annotations

import contextlib
import http.client
import random
import signal
import socket
import struct
import threading
import time

import grpc
import pytest
import redis

from parlor.service.embedded_redis import EmbeddedRedis
from parlor.service.store import keys
from parlor.v1 import parlor_pb2 as pb

from ..support import Sse, Stack, auth, new_grpc_match, new_rest_match, open_when_free, play_rest_to_end, when_free
from .test_grpc import error_reason

pytestmark = pytest.mark.integration


def json_events(rest, match_id: str, token: str | None, after: int = 0) -> list[dict]:
    reply = rest.get(f"/v1/matches/{match_id}/events?after={after}", token=token)
    assert reply.status == 200, reply.body
    return reply.body["events"]


def grpc_events(stub, match_id: str, token: str | None) -> list[pb.Event]:
    return list(stub.ListEvents(pb.ListEventsRequest(match_id=match_id),
                                metadata=auth(token) if token else None).events)


def bid(rest, match_id: str, token: str, card: int) -> None:
    reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": card}}},
                      token=token)
    assert reply.status == 200, reply.body


# ---- gRPC ------------------------------------------------------------------------------

def test_watch_follows_play_to_the_end(stub, rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 3, seed="watch")
    match_id = match["matchId"]
    seat0 = stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id), metadata=auth(tokens[0]))
    spectator = stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id, after=2))

    first = next(seat0)  # at once: everything so far
    assert not first.end
    assert list(first.events) == grpc_events(stub, match_id, tokens[0])
    assert [e.number for e in next(spectator).events] == [3, 4, 5]  # numbered after 2
    streamed = list(first.events)

    bid(rest, match_id, tokens[1], 9)
    told = time.monotonic()
    streamed += next(seat0).events
    # The commit's notice brings it, not the next keep-alive re-read (15 s away).
    assert time.monotonic() - told < 5
    other = streamed[-1].what_the_heck.bid_committed
    assert other.seat == 1 and not other.HasField("bid"), "another seat's bid leaked"
    bid(rest, match_id, tokens[0], 4)
    streamed += next(seat0).events
    own = streamed[-1].what_the_heck.bid_committed
    assert (own.seat, own.bid) == (0, 4), "a seat sees its own bid"
    for number in (6, 7):
        shown = next(spectator).events
        assert [e.number for e in shown] == [number]
        assert not shown[0].what_the_heck.bid_committed.HasField("bid")

    play_rest_to_end(rest, match_id, tokens, random.Random(1))
    replies = list(seat0)  # the stream ends by itself, status OK
    assert replies[-1].end and all(not r.end for r in replies[:-1])
    streamed += [e for r in replies for e in r.events]
    assert streamed == grpc_events(stub, match_id, tokens[0])
    assert streamed[-1].HasField("match_finished")
    spectator.cancel()

    again = list(stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id, after=streamed[-1].number)))
    assert [(list(r.events), r.end) for r in again] == [([], True)], "nothing new: one last message"


def test_many_streams_on_one_match_each_get_their_own_view_of_every_event(stub, rest):
    """Streams at the same event with the same eyes share their reads; each must
    still carry exactly its viewer's events, the seats' private ones included."""
    match, tokens = new_rest_match(rest, "what_the_heck", 3, seed="crowd")
    match_id = match["matchId"]
    viewers = [None] * 12 + [tokens[0]] * 4 + [tokens[1]] * 4
    streams = [stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id),
                                metadata=auth(token) if token else None) for token in viewers]
    seen: list[list[pb.Event]] = [[] for _ in streams]

    def follow(i: int) -> None:
        for reply in streams[i]:
            seen[i] += reply.events

    followers = [threading.Thread(target=follow, args=(i,), daemon=True) for i in range(len(streams))]
    for follower in followers:
        follower.start()
    play_rest_to_end(rest, match_id, tokens, random.Random(5))
    for follower in followers:
        follower.join(30)
    expected = {token: grpc_events(stub, match_id, token) for token in set(viewers)}
    for token, events in zip(viewers, seen):
        assert events == expected[token]
    assert expected[tokens[0]] != expected[None] != expected[tokens[1]]


def test_watch_refuses_bad_requests(stub, rest):
    match, _ = new_rest_match(rest, "what_the_heck", 2)
    cases = [
        (pb.WatchEventsRequest(match_id="a" * 24), None, grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND"),
        (pb.WatchEventsRequest(match_id=match["matchId"]), "not-a-token",
         grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN"),
        (pb.WatchEventsRequest(match_id=match["matchId"], after=-1), None,
         grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"),
    ]
    for request, token, code, reason in cases:
        with pytest.raises(grpc.RpcError) as caught:
            next(stub.WatchEvents(request, metadata=auth(token) if token else None))
        assert error_reason(caught.value)[:2] == (code, reason)


# ---- Server-Sent Events ----------------------------------------------------------------

def test_sse_follows_play_resumes_and_stops_after_the_end(stack, rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    match_id = match["matchId"]
    path = f"/v1/matches/{match_id}/events"
    stream = Sse(stack.http_port, path, token=tokens[0])
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-store"
    assert stream.next() == {"retry": 1000}
    opening = stream.events(4)
    assert opening == json_events(rest, match_id, tokens[0])

    bid(rest, match_id, tokens[1], hand(rest, match_id, tokens[1])[0])
    other = stream.events(1)[0]["whatTheHeck"]["bidCommitted"]
    assert other == {"seat": 1}, "another seat's bid leaked"
    card = hand(rest, match_id, tokens[0])[0]
    bid(rest, match_id, tokens[0], card)
    assert stream.events(1)[0]["whatTheHeck"]["bidCommitted"] == {"seat": 0, "bid": card}
    stream.close()  # a dropped connection: EventSource comes back with Last-Event-ID

    play_rest_to_end(rest, match_id, tokens, random.Random(2))
    everything = json_events(rest, match_id, tokens[0])
    resumed = Sse(stack.http_port, f"{path}?after=0", token=tokens[0], headers={"Last-Event-ID": "6"})
    assert resumed.status == 200
    rest_of_it = resumed.rest_of_it()
    assert rest_of_it == everything[6:], "Last-Event-ID wins over `after`; nothing missed or repeated"
    assert "matchFinished" in rest_of_it[-1]

    spectator = Sse(stack.http_port, path)
    assert spectator.next() == {"retry": 1000}
    assert spectator.rest_of_it() == json_events(rest, match_id, None)

    done = Sse(stack.http_port, path, token=tokens[0], headers={"Last-Event-ID": str(everything[-1]["number"])})
    assert (done.status, done.body()) == (204, b""), "204 tells EventSource to stop reconnecting"
    assert "content-type" not in done.headers
    fresh = Sse(stack.http_port, path, token=tokens[0], headers={"Last-Event-ID": ""})  # no id yet
    assert fresh.next() == {"retry": 1000} and fresh.rest_of_it() == everything


def hand(rest, match_id: str, token: str) -> list[int]:
    return rest.get(f"/v1/matches/{match_id}", token=token).body["whatTheHeck"]["hand"]


def test_sse_bad_requests_are_json_errors(stack, rest):
    match, _ = new_rest_match(rest, "what_the_heck", 2)
    path = f"/v1/matches/{match['matchId']}/events"
    cases = [
        (path, {"Last-Event-ID": "abc"}, None, 400, "INVALID_ARGUMENT"),
        (path, {"Last-Event-ID": "-1"}, None, 400, "INVALID_ARGUMENT"),
        (path, {"Last-Event-ID": "99999999999999999999"}, None, 400, "INVALID_ARGUMENT"),
        (path + "?after=x", {}, None, 400, "INVALID_ARGUMENT"),
        (path + "?limit=abc", {}, None, 400, "INVALID_ARGUMENT"),
        ("/v1/matches/" + "a" * 24 + "/events", {}, None, 404, "MATCH_NOT_FOUND"),
        (path, {}, "not-a-token", 401, "INVALID_TOKEN"),
    ]
    for where, headers, token, status, code in cases:
        stream = Sse(stack.http_port, where, token=token, headers=headers)
        body = stream.body()
        assert (stream.status, body["error"]["code"]) == (status, code), (where, headers, body)
        stream.close()
    for accept in ("application/json", "*/*", "text/*", "application/json, text/event-stream;q=0.5",
                   "text/event-stream;q=0.1, application/json"):
        reply = rest.get(path, headers={"Accept": accept})
        assert reply.status == 200 and reply.body["events"], accept
    for accept in ("text/event-stream; charset=utf-8", "TEXT/EVENT-STREAM",
                   "text/event-stream, application/json", "application/json;q=0.5, text/event-stream"):
        stream = open_when_free(stack, path, headers={"Accept": accept})
        assert stream.headers["content-type"].startswith("text/event-stream"), accept
        stream.close()


# ---- limits, keep-alives, draining and faults (stacks of their own) ------------------------

WEB_APP = "https://cards.example"


@pytest.fixture(scope="module")
def quick_stack():
    """Keep-alives every second, streams of four seconds, and a web app's
    origin allowed to call."""
    s = Stack(env={"PARLOR_STREAM_KEEPALIVE_SECONDS": "1", "PARLOR_STREAM_SECONDS": "4",
                   "PARLOR_CORS_ORIGINS": WEB_APP}).start()
    yield s
    s.stop()


def test_keep_alives_then_the_stream_ends_when_its_time_is_up(quick_stack):
    rest = quick_stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    stream = Sse(quick_stack.http_port, f"/v1/matches/{match['matchId']}/events", token=tokens[0])
    opened = time.monotonic()
    messages = []
    while (message := stream.next()) is not None:
        messages.append(message)
    lasted = time.monotonic() - opened
    seen = (round(lasted, 2), messages)  # (shown if an assertion fails)
    assert messages[0] == {"retry": 1000} and len([m for m in messages if "data" in m]) == 4, seen
    assert sum(m.get("comment") == "keep-alive" for m in messages) >= 2, seen
    assert 3 <= lasted < 10, seen
    rest.close()


def test_a_stream_outlives_its_connections_maximum_age():
    """A connection that reaches PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS is
    closed gracefully: a live stream on it still ends as usual, with OK, when
    its time is up, even with no drain time at all."""
    s = Stack(env={"PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS": "1", "PARLOR_STREAM_SECONDS": "4",
                   "PARLOR_STREAM_KEEPALIVE_SECONDS": "1", "PARLOR_DRAIN_SECONDS": "0"},
              gateway=False).start()
    try:
        channel = s.channel()
        stub = s.stub(channel)
        match, tokens = new_grpc_match(stub, "what_the_heck", 2)
        opened = time.monotonic()
        replies = list(stub.WatchEvents(pb.WatchEventsRequest(match_id=match.match_id),
                                        metadata=auth(tokens[0]), timeout=30))
        lasted = time.monotonic() - opened
        assert 3.5 <= lasted < 15, lasted
        assert [e.number for r in replies for e in r.events] == [1, 2, 3, 4]
        channel.close()
    finally:
        s.stop()


def test_a_web_app_on_another_origin_may_follow_a_match(quick_stack):
    """What a browser does for a page served from another origin: a preflight
    for the seat's request, then the request; EventSource sends no preflight."""
    rest = quick_stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    path = f"/v1/matches/{match['matchId']}/events"
    preflight = rest.request("OPTIONS", path, headers={
        "Origin": WEB_APP, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, last-event-id"})
    assert preflight.status == 204
    assert preflight.headers["access-control-allow-origin"] == WEB_APP
    assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
    live = Sse(quick_stack.http_port, path, token=tokens[0], headers={"Origin": WEB_APP})
    assert live.status == 200 and live.headers["access-control-allow-origin"] == WEB_APP
    live.close()
    listed = rest.get(path, headers={"Origin": WEB_APP})
    assert listed.headers["access-control-allow-origin"] == WEB_APP
    assert "access-control-allow-origin" not in rest.get(path, headers={"Origin": "https://other.example"}).headers
    rest.close()


@pytest.fixture(scope="module")
def tight_stack():
    """Small limits and slow keep-alives: one gateway worker with two threads
    (so one stream slot), two streams per service process."""
    s = Stack(env={"PARLOR_STREAM_KEEPALIVE_SECONDS": "60", "PARLOR_MAX_STREAMS": "2",
                   "PARLOR_GATEWAY_WORKERS": "1", "PARLOR_GATEWAY_THREADS": "2"}).start()
    yield s
    s.stop()


def test_stream_limits_and_slots_freed_when_clients_hang_up(tight_stack):
    rest = tight_stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    path = f"/v1/matches/{match['matchId']}/events"
    # The gateway notices a hang-up at once, not at its next write (a keep-alive a
    # minute away here), and the service's slot goes with the gateway's call.
    held = open_when_free(tight_stack, path)
    for hang_up in ("close", "reset"):
        assert held.next() == {"retry": 1000}
        refused = Sse(tight_stack.http_port, path)
        assert (refused.status, refused.body()["error"]["code"]) == (429, "TOO_MANY_STREAMS")
        assert rest.get(path).status == 200, "a thread stays free for other requests"
        if hang_up == "reset":
            held.conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        held.close()
        held = open_when_free(tight_stack, path)
    held.close()

    with tight_stack.channel() as channel:
        stub = tight_stack.stub(channel)
        request = pb.WatchEventsRequest(match_id=match["matchId"])
        deadline = time.monotonic() + 5
        while True:  # the gateway's stream just closed: wait until the service has let it go
            open_ = [stub.WatchEvents(request), stub.WatchEvents(request)]
            try:
                for call in open_:
                    next(call)
                break
            except grpc.RpcError:
                for call in open_:
                    call.cancel()
                assert time.monotonic() < deadline
                time.sleep(0.1)
        with pytest.raises(grpc.RpcError) as caught:
            next(stub.WatchEvents(request))
        assert error_reason(caught.value)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")
        for call in open_:
            call.cancel()
    rest.close()


def test_a_stream_begun_past_the_end_ends_with_the_match(tight_stack):
    rest = tight_stack.rest()
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    with tight_stack.channel() as channel:
        ahead = tight_stack.stub(channel).WatchEvents(
            pb.WatchEventsRequest(match_id=match["matchId"], after=1000))
        assert not next(ahead).events
        play_rest_to_end(rest, match["matchId"], tokens, random.Random(3))
        finished = time.monotonic()
        rest_of_it = list(ahead)  # ends with the match, not at PARLOR_STREAM_SECONDS
        assert time.monotonic() - finished < 5, "it waited for a quiet interval (60 s)"
    assert rest_of_it[-1].end and not any(r.events for r in rest_of_it)
    rest.close()


def test_streams_that_end_with_their_first_message_give_their_slot_back():
    """A stream whose first message already ends it (a finished match with
    events left to send), or a HEAD on the stream, never watched its socket;
    its slot still comes back, on a worker that has watched nothing yet."""
    s = Stack(env={"PARLOR_GATEWAY_WORKERS": "1", "PARLOR_GATEWAY_THREADS": "2"}).start()  # one slot
    try:
        rest = s.rest()
        match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
        play_rest_to_end(rest, match["matchId"], tokens, random.Random(5))
        path = f"/v1/matches/{match['matchId']}/events"
        for _ in range(3):
            # The slot comes back once the gateway is done with the response,
            # which can be a moment after the client has read all of it.
            stream = open_when_free(s, path)
            assert stream.status == 200
            assert stream.rest_of_it()[-1]["matchFinished"]
            stream.conn.close()
            head = when_free(lambda: _head(s.http_port, path))
            assert head.status == 200
        live, _ = new_rest_match(rest, "what_the_heck", 2, seed=None)
        stream = open_when_free(s, f"/v1/matches/{live['matchId']}/events")
        assert stream.next() == {"retry": 1000}
        stream.close()
        assert "Traceback" not in s.log("gateway")
        rest.close()
    finally:
        s.stop()


def _head(port: int, path: str):
    """A HEAD on a stream, its connection closed; the response keeps `status`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("HEAD", path, headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    conn.close()
    return response


@contextlib.contextmanager
def watched(env: dict[str, str] | None = None):
    """A service of its own (no gateway) and a spectator's open stream on a
    new match, its first message read."""
    stack = Stack(gateway=False, env=env or {}).start()
    try:
        with stack.channel() as channel:
            stub = stack.stub(channel)
            match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
            watching = stub.WatchEvents(pb.WatchEventsRequest(match_id=match.match_id))
            next(watching)
            yield stack, watching
    finally:
        stack.stop()


def test_streams_end_at_once_when_the_service_drains():
    with watched({"PARLOR_DRAIN_SECONDS": "20"}) as (stack, watching):
        ended = threading.Event()
        threading.Thread(target=lambda: (list(watching), ended.set()), daemon=True).start()
        started = time.monotonic()
        stack.procs["service"].send_signal(signal.SIGTERM)
        assert ended.wait(10), "an open stream held the drain"
        assert time.monotonic() - started < 5
        assert stack.procs["service"].wait(15) == 0


def test_health_watches_hear_not_serving_and_end_when_the_service_drains():
    """Clients with health checking on hold a Watch open: on SIGTERM it says
    NOT_SERVING and ends, so it does not hold the drain (20 s here)."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with watched({"PARLOR_DRAIN_SECONDS": "20"}) as (stack, _):
        with stack.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            names = ("", "parlor.v1.Parlor", "liveness", "no.such.Service")
            watches = [health.Watch(health_pb2.HealthCheckRequest(service=name)) for name in names]
            heard: list[list[int]] = [[] for _ in watches]
            for watch, statuses in zip(watches, heard):
                statuses.append(next(watch).status)
            serving, unknown = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
            assert heard == [[serving]] * 3 + [[unknown]]
            threads = [threading.Thread(target=lambda w=w, h=h: h.extend(r.status for r in w), daemon=True)
                       for w, h in zip(watches, heard)]
            for thread in threads:
                thread.start()
            started = time.monotonic()
            stack.procs["service"].send_signal(signal.SIGTERM)
            for thread in threads:
                thread.join(10)
                assert not thread.is_alive(), "an open health watch held the drain"
            assert [statuses[-1] for statuses in heard[:3]] == [health_pb2.HealthCheckResponse.NOT_SERVING] * 3
            assert heard[3] == [unknown], "a name never served stays unknown"
            assert stack.procs["service"].wait(15) == 0
            assert time.monotonic() - started < 8


def test_a_stream_ends_with_unavailable_when_redis_goes_away():
    with watched() as (stack, watching):
        stack.redis.process.send_signal(signal.SIGKILL)
        with pytest.raises(grpc.RpcError) as caught:
            next(watching)
        assert error_reason(caught.value)[:2] == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
        assert "Traceback" not in stack.log("service")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["drain", "quick"])
def test_sse_streams_end_at_once_when_the_gateway_stops(sig):
    """A stopping worker ends its open streams at once, not at their next
    keep-alive (15 s by default): a drain (SIGTERM) or Ctrl-C (SIGINT) is not
    held up by clients waiting for a match's next event."""
    stack = Stack(env={"PARLOR_DRAIN_SECONDS": "20", "PARLOR_GATEWAY_WORKERS": "1"}).start()
    try:
        rest = stack.rest()
        match, _ = new_rest_match(rest, "what_the_heck", 2, seed=None)
        rest.close()
        streams = [Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events") for _ in range(3)]
        assert all(stream.status == 200 for stream in streams)
        for stream in streams:  # every stream is open, waiting for the next event
            assert stream.events(2)
        started = time.monotonic()
        stack.procs["gateway"].send_signal(sig)
        for stream in streams:
            while stream.next() is not None:
                assert time.monotonic() - started < 10, "an open stream held the gateway's stop"
        assert stack.procs["gateway"].wait(15) == 0
        assert time.monotonic() - started < 8  # (the keep-alive would be 15 s, the drain 20 s)
    finally:
        stack.stop()


def test_streams_hold_no_redis_connection():
    """Waiting streams are woken by one subscription per process, not by a
    blocking read each: many at once, or many dropped in a hurry, leave Redis's
    connection count where it was."""
    with watched() as (stack, first):
        plain = redis.Redis.from_url(stack.redis.url)
        first.cancel()
        with stack.channel() as channel:
            stub = stack.stub(channel)
            match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
            request = pb.WatchEventsRequest(match_id=match.match_id)
            before = plain.info("clients")["connected_clients"]
            for _ in range(200):  # open, take the first message, hang up
                call = stub.WatchEvents(request)
                next(call)
                call.cancel()
            many = [stub.WatchEvents(request) for _ in range(300)]
            for call in many:
                assert not next(call).events  # the first message: nothing yet
            clients = plain.info("clients")
            assert clients["blocked_clients"] == 0
            # 300 streams waiting; the service's pool may have grown while their
            # first reads overlapped (more so on a loaded machine), never one per stream
            assert clients["connected_clients"] < before + 100, "connections grow with streams"
            token = stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="a")).token
            assert token
            for call in many:  # every one of them hears the join
                assert next(call).events[0].seat_joined.name == "a"
                call.cancel()
        plain.close()


@contextlib.contextmanager
def redis_user_stack(rules: list[str], env: dict[str, str] | None = None):
    """A stack on a Redis of its own, reaching it as the user `parlor` (password
    `secret`) with the ACL `rules`; yields the stack and an admin client."""
    with EmbeddedRedis() as server:
        admin = redis.Redis.from_url(server.url)
        admin.execute_command("ACL", "SETUSER", "parlor", *rules)
        stack = Stack(redis_url=f"redis://parlor:secret@127.0.0.1:{server.port}/0", env=env or {}).start()
        try:
            yield stack, admin
        finally:
            stack.stop()
            admin.close()


def test_a_redis_user_that_may_not_publish_loses_only_the_notices():
    """An operator's Redis user without channel rights (Redis 7's default for
    new users): play and its records are whole; streams find events at their
    keep-alives instead of at once."""
    rules = ["on", ">secret", "~parlor:*", "resetchannels", "+@all"]
    with redis_user_stack(rules, {"PARLOR_STREAM_KEEPALIVE_SECONDS": "1"}) as (stack, admin):
        rest = stack.rest()
        match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
        path = f"/v1/matches/{match['matchId']}"
        live = Sse(stack.http_port, f"{path}/events")
        assert len(live.events(4)) == 4
        card = hand(rest, match["matchId"], tokens[0])[0]
        acted = rest.post(f"{path}/actions", {"action": {"whatTheHeck": {"bid": card}}},
                          token=tokens[0], headers={"Idempotency-Key": "k1"})
        assert acted.status == 200, acted.body
        assert live.events(1)[0]["whatTheHeck"]["bidCommitted"] == {"seat": 0}
        again = rest.post(f"{path}/actions", {"action": {"whatTheHeck": {"bid": card}}},
                          token=tokens[0], headers={"Idempotency-Key": "k1"})
        assert again.body == acted.body, "the idempotency record was written"
        assert admin.llen(keys(match['matchId'])[2]) == 1, "the action log too"
        live.close()
        rest.close()
        assert stack.log("service").count("event notices lost") == 1
        assert "Traceback" not in stack.log("service")


def test_the_redis_user_deploy_readme_suggests_plays_and_hears_notices():
    """The ACL example in deploy/README.md, run as written, on the Redis the
    tests ship (6.2): matches are played and live streams hear commits at once."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "deploy" / "README.md").read_text()
    command = re.search(r"`(ACL SETUSER parlor [^`]+)`", readme).group(1).replace(">PASSWORD", ">secret")
    with redis_user_stack(command.split()[3:], {"PARLOR_STREAM_KEEPALIVE_SECONDS": "60"}) as (stack, _):
        rest = stack.rest()
        match, tokens = new_rest_match(rest, "what_the_heck", 3, seed=None)
        live = Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events")
        assert len(live.events(5)) == 5
        started = time.monotonic()
        final, _ = play_rest_to_end(rest, match["matchId"], tokens, random.Random(1))
        assert final["match"]["status"] == "FINISHED"
        assert len(live.rest_of_it()) == final["events"][-1]["number"] - 5, "every event, live"
        assert time.monotonic() - started < 30, "streams heard the commits (no 60 s keep-alive waits)"
        live.close()
        rest.close()
        assert "event notices lost" not in stack.log("service")
        assert "Traceback" not in stack.log("service")


def test_a_redis_user_that_may_not_keep_the_active_index_still_plays():
    """The active-match index (for a gauge) is written after the join or
    action it follows: its failure must not turn a change that was made into
    an error (the last join's token would be lost)."""
    rules = ["on", ">secret", "~parlor:*", "resetchannels", "&parlor:event-notices", "+@all", "-zadd", "-zrem"]
    with redis_user_stack(rules) as (stack, _):
        rest = stack.rest()
        match, tokens = new_rest_match(rest, "what_the_heck", 3, seed=None)  # asserts every join
        final, _ = play_rest_to_end(rest, match["matchId"], tokens, random.Random(3))
        assert final["match"]["status"] == "FINISHED"
        rest.close()
        log = stack.log("service")
        assert log.count("active-match index not updated") == 2 and "no permissions" in log
        assert "Traceback" not in log


def test_keep_alives_go_out_while_redis_hangs():
    """A frozen Redis (not down: no error comes) does not silence a stream: its
    keep-alive is sent before Redis is asked anything."""
    with watched({"PARLOR_STREAM_KEEPALIVE_SECONDS": "1"}) as (stack, watching):
        stack.redis.process.send_signal(signal.SIGSTOP)
        try:
            started = time.monotonic()
            assert not next(watching).events
            assert time.monotonic() - started < 3
        finally:
            stack.redis.process.send_signal(signal.SIGCONT)


def test_sse_streams_end_at_once_when_a_worker_restarts_after_its_last_request():
    """gunicorn's --max-requests restarts a worker after so many requests (it
    stops itself, with no signal): its open streams end then too, not at
    their next keep-alive (15 s)."""
    stack = Stack(env={"PARLOR_GATEWAY_WORKERS": "1"}, gateway=False).start()
    try:
        stack.start_gateway("--max-requests", "12")
        rest = stack.rest()
        match, _ = new_rest_match(rest, "what_the_heck", 2, seed=None)
        stream = Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events")
        assert stream.status == 200 and stream.events(2)
        started = time.monotonic()
        for _ in range(12):  # past the worker's last request
            try:
                rest.get("/v1/games")
            except OSError:
                rest.close()
        while stream.next() is not None:
            assert time.monotonic() - started < 8, "the stream held the worker's restart"
        assert time.monotonic() - started < 8
        rest.close()
    finally:
        stack.stop()


def test_a_stream_is_served_by_a_worker_short_of_file_descriptors():
    """The watcher of streams' hang-ups takes three file descriptors; started
    by a worker's first stream, it failed in a worker at its limit of open
    files, and every stream was cut after its first message (a traceback each
    time). It starts with the worker now."""
    import os
    import re
    import resource

    stack = Stack(env={"PARLOR_GATEWAY_WORKERS": "1"}).start()
    try:
        rest = stack.rest()
        match, _ = new_rest_match(rest, "what_the_heck", 2, seed=None)
        (worker,) = re.findall(r"Booting worker with pid: (\d+)", stack.log("gateway"))
        rest.close()
        time.sleep(2.5)  # (its linger over)
        files = len(os.listdir(f"/proc/{worker}/fd"))
        soft, hard = resource.prlimit(int(worker), resource.RLIMIT_NOFILE)
        resource.prlimit(int(worker), resource.RLIMIT_NOFILE, (files + 1, hard))  # room for one connection
        try:
            stream = Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events")
            assert stream.status == 200 and len(stream.events(2)) == 2
            time.sleep(0.5)
            assert "Traceback" not in stack.log("gateway")
            stream.close()
        finally:
            resource.prlimit(int(worker), resource.RLIMIT_NOFILE, (soft, hard))
    finally:
        stack.stop()
