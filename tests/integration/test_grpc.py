"""The gRPC API directly: a full match, rich errors, health and reflection."""

from __future__ import annotations

import random
import socket
import struct
import time

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from parlor.v1 import parlor_pb2 as pb

from ..support import auth

pytestmark = pytest.mark.integration


def error_reason(err: grpc.RpcError) -> tuple[grpc.StatusCode, str, dict]:
    status = rpc_status.from_call(err)
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.domain == "parlor.v1"
    return err.code(), info.reason, dict(info.metadata)


def test_full_match_over_grpc(stub):
    match = stub.CreateMatch(pb.CreateMatchRequest(
        game="what_the_heck", players=3, seed="grpc", what_the_heck={"hidden_winnings": False}))
    assert match.status == pb.WAITING and match.version == 0
    tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=f"app-{i}")).token
              for i in range(3)]
    chooser = random.Random(3)
    final = None
    for _ in range(100):  # 15 rounds of 3 bids; a bound, so that a stuck match fails rather than hangs
        if final is not None:
            break
        for seat, token in enumerate(tokens):
            listed = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                           metadata=auth(token))
            if not listed.actions:
                continue
            reply = stub.SubmitAction(pb.SubmitActionRequest(
                match_id=match.match_id, action=chooser.choice(listed.actions),
                expected_version=listed.version, seat=seat), metadata=auth(token))
            assert reply.match.viewer_seat == seat
            if reply.match.status == pb.FINISHED:
                final = reply.match
                break
    assert final is not None, "the match did not end"
    assert final.seed == "grpc" and len(final.result.scores) == 3
    assert list(final.what_the_heck.seats[0].played) == list(range(1, 16))
    events = stub.ListEvents(pb.ListEventsRequest(match_id=match.match_id, after=0))
    assert events.events[-1].WhichOneof("kind") == "match_finished"
    assert events.last_event == events.events[-1].number


def test_errors_carry_error_info(stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(pb.CreateMatchRequest(game="chess", players=2))
    assert error_reason(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME")
    with pytest.raises(grpc.RpcError) as caught:
        stub.GetMatch(pb.GetMatchRequest(match_id="a" * 24))
    assert error_reason(caught.value)[:2] == (grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND")

    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=n)).token for n in "ab"]
    act = pb.SubmitActionRequest(match_id=match.match_id, action={"what_the_heck": {"bid": 99}})
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitAction(act, metadata=auth(tokens[0]))
    code, reason, details = error_reason(caught.value)
    assert (code, reason, details["reason"]) == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_ACTION",
                                                 "CARD_NOT_IN_HAND")
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, seat=1,
                                                 action={"what_the_heck": {"bid": 5}}),
                          metadata=auth(tokens[0]))
    assert error_reason(caught.value)[:2] == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_MISMATCH")
    for key, value in [("idempotency-key", "k1"), ("x-idempotency-key", "k1"), ("idempotency_key", "k1"),
                       ("idempotency-key-bin", b"k1")]:
        with pytest.raises(grpc.RpcError) as caught:  # the key goes in the request field: not ignored
            stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id,
                                                     action={"what_the_heck": {"bid": 5}}),
                              metadata=[*auth(tokens[0]), (key, value)])
        assert error_reason(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_IDEMPOTENCY_KEY")
    assert stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).version == 2  # the joins only
    with pytest.raises(grpc.RpcError) as caught:
        stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                              metadata=[("authorization", "Basic abc")])
    assert error_reason(caught.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN")


def test_a_missing_token_is_named_before_what_the_request_gets_wrong(stub):
    """As over REST: who asks comes before what they ask."""
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, idempotency_key="has space"))
    assert error_reason(caught.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_REQUIRED")


@pytest.mark.parametrize("method, data", [
    ("GetMatch", b"\xff\xff\xff"),                  # not protobuf at all
    ("JoinMatch", b"\x0a\x02\xff\xfe\x12\x01x"),     # match_id is not UTF-8
    ("SubmitAction", b"\x12\x05\x0a\x03\x08"),       # a sub-message cut short
    ("WatchEvents", b"\xff\xff\xff"),              # a server-streaming method
])
def test_undecodable_requests_are_invalid_argument(stack, method, data):
    """Bytes that are not the method's message get INVALID_ARGUMENT with the
    usual rich status, not UNKNOWN and a traceback."""
    path = f"/parlor.v1.Parlor/{method}"
    with stack.channel() as channel, pytest.raises(grpc.RpcError) as caught:
        if method == "WatchEvents":
            next(channel.unary_stream(path)(data, timeout=5))
        else:
            channel.unary_unary(path)(data, timeout=5)  # raw bytes, no serializer
    code, reason, _ = error_reason(caught.value)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT")
    assert "is not a valid parlor.v1." in caught.value.details()
    assert "Traceback" not in stack.log("service")


def test_health_and_reflection(stack):
    with stack.channel() as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "parlor.v1.Parlor", "liveness"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        replies = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
        names = {s.name for r in replies for s in r.list_services_response.service}
        assert {"parlor.v1.Parlor", "grpc.health.v1.Health"} <= names
        # what `grpcurl describe` asks: the file of a service, a method, a message
        for symbol in ("parlor.v1.Parlor", "parlor.v1.Parlor.SubmitAction", "parlor.v1.Match"):
            [reply] = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
                file_containing_symbol=symbol)]), timeout=5)
            assert reply.HasField("file_descriptor_response"), (symbol, reply)
            names = {descriptor_pb2.FileDescriptorProto.FromString(raw).name
                     for raw in reply.file_descriptor_response.file_descriptor_proto}
            assert "parlor/v1/parlor.proto" in names
        [reply] = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
            file_containing_symbol="parlor.v1.Parlor.NoSuchMethod")]), timeout=5)
        assert reply.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
        # grpc.reflection.v1 (newer tools ask it first) answers the same: its
        # messages are v1alpha's on the wire
        v1 = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                   request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                   response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        [reply] = v1(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
        assert {"parlor.v1.Parlor", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
                "grpc.reflection.v1alpha.ServerReflection"} <= {s.name for s in reply.list_services_response.service}
        [reply] = v1(iter([reflection_pb2.ServerReflectionRequest(
            file_containing_symbol="parlor.v1.Parlor.SubmitAction")]), timeout=5)
        assert reply.HasField("file_descriptor_response")
        for symbol in ("grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"):
            [reply] = v1(iter([reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol)]), timeout=5)
            (raw,) = reply.file_descriptor_response.file_descriptor_proto
            file = descriptor_pb2.FileDescriptorProto.FromString(raw)
            assert file.package == symbol.rpartition(".")[0] and file.service[0].method[0].input_type == (
                "." + file.package + ".ServerReflectionRequest")


def _hpack_int(n: int, bits: int) -> bytes:
    top = (1 << bits) - 1
    if n < top:
        return bytes([n])
    out = bytearray([top])
    n -= top
    while n >= 128:
        out.append(n % 128 + 128)
        n //= 128
    return bytes(out + bytes([n]))


def _raw_grpc_call(port: int, path: bytes, message: bytes, headers: list[tuple[bytes, bytes]]) -> bytes:
    """One call as raw HTTP/2 frames, so that header values can hold bytes that
    grpc's own client refuses to send. Returns what came back."""
    def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

    fields = [(b":method", b"POST"), (b":scheme", b"http"), (b":path", path), (b":authority", b"parlor"),
              (b"content-type", b"application/grpc"), (b"te", b"trailers"), *headers]
    block = b"".join(b"\x00" + _hpack_int(len(k), 7) + k + _hpack_int(len(v), 7) + v for k, v in fields)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0, b"") + frame(1, 4, 1, block)
                     + frame(0, 1, 1, b"\x00" + struct.pack(">I", len(message)) + message))
        received = b""
        deadline = time.monotonic() + 5
        while b"grpc-status" not in received and time.monotonic() < deadline:
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
    return received


def test_metadata_that_is_not_utf8_stays_out_of_the_log(stack, stub):
    """gRPC logs an undecodable metadata value with a traceback quoting it: a
    token with a stray byte must not reach the log that way."""
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    token = stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="a")).token
    request = pb.GetMatchRequest(match_id=match.match_id).SerializeToString()
    reply = _raw_grpc_call(stack.grpc_port, b"/parlor.v1.Parlor/GetMatch", request,
                           [(b"authorization", b"Bearer " + token.encode() + b"\xff")])
    assert b"grpc-status" in reply
    log = stack.log_with("service", "not UTF-8 (not logged)")  # (written as the call is read)
    assert token not in log and "Traceback" not in log
    assert stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).match_id == match.match_id
