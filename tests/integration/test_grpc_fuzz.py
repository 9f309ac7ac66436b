"""Random calls against the running gRPC service, every game: whatever the
request bytes and metadata, the answer is OK or an error with the rich status
(a google.rpc.ErrorInfo naming a known code), never INTERNAL or UNKNOWN, and a
refused call changes nothing stored.

Requests are valid ones with protobuf fields appended (the last value of a
field wins, so this sets any field, known or not, to any value of any wire
type), with bytes flipped, cut or inserted, or arbitrary bytes."""

from __future__ import annotations

import os

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service.games import GAMES
from parlor.v1 import parlor_pb2 as pb

from .fuzzing import stored, version_of

pytestmark = pytest.mark.integration

# The status each error code comes with (parlor.proto's table), and gRPC's own.
ALLOWED = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION,
           grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND,
           grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.ABORTED}


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative numbers as protobuf sends them: ten bytes
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


_VARINT_TYPES = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
                 FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_ENUM,
                 FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64}
_EDGE_NUMBERS = st.sampled_from([0, 1, -1, 2, 5, 2**31 - 1, 2**31, -(2**31) - 1, 2**63])


@st.composite
def appended_field(draw, descriptor, depth: int = 0) -> bytes:
    """One field, encoded: half the time one of the message's own fields with
    a value of its type (sub-messages built the same way, two levels deep),
    else any field number with any wire type and value."""
    if descriptor is not None and draw(st.booleans(), label="own field"):
        field = draw(st.sampled_from(list(descriptor.fields)), label="field")
        if field.type in _VARINT_TYPES:
            value = draw(_EDGE_NUMBERS | st.integers(-(2**63), 2**64 - 1), label="number")
            return _varint(field.number << 3) + _varint(value)
        if field.type == FieldDescriptor.TYPE_MESSAGE and depth < 2:
            payload = b"".join(draw(st.lists(appended_field(field.message_type, depth + 1), max_size=3)))
        else:
            payload = draw(st.text(max_size=30).map(str.encode) | st.binary(max_size=30), label="bytes")
        return _varint(field.number << 3 | 2) + _varint(len(payload)) + payload
    number = draw(st.integers(1, 12) | st.integers(1, 2**29 - 1), label="field number")
    wire = draw(st.sampled_from([0, 1, 2, 5]), label="wire type")
    tag = _varint(number << 3 | wire)
    if wire == 0:
        return tag + _varint(draw(_EDGE_NUMBERS | st.integers(-(2**63), 2**64 - 1)))
    if wire == 1:
        return tag + draw(st.binary(min_size=8, max_size=8))
    if wire == 5:
        return tag + draw(st.binary(min_size=4, max_size=4))
    payload = draw(st.binary(max_size=40) | st.text(max_size=20).map(str.encode))
    return tag + _varint(len(payload)) + payload


@st.composite
def request_bytes(draw, valid: bytes, descriptor) -> bytes:
    kind = draw(st.sampled_from(["append", "append", "flip", "cut", "insert", "anything"]), label="change")
    if kind == "append":
        return valid + b"".join(draw(st.lists(appended_field(descriptor), min_size=1, max_size=3)))
    if kind == "anything":
        return draw(st.binary(max_size=64))
    # (a position modulo the length: what is drawn must not depend on the
    # match, which moves on, or Hypothesis cannot replay a case)
    at = draw(st.integers(0, 10_000), label="position") % len(valid)
    if kind == "flip":
        return valid[:at] + bytes([valid[at] ^ draw(st.integers(1, 255))]) + valid[at + 1:]
    if kind == "cut":
        return valid[:at]
    return valid[:at] + draw(st.binary(min_size=1, max_size=4)) + valid[at:]


def _metadata(data, tokens: list[str]) -> list[tuple[str, str]]:
    metadata = []
    auth = data.draw(st.sampled_from(["none", "seat", "seat", "junk"]), label="authorization")
    if auth == "seat":
        metadata.append(("authorization", "Bearer " + tokens[data.draw(st.integers(0, len(tokens) - 1))]))
    elif auth == "junk":
        text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
        metadata.append(("authorization", data.draw(text, label="authorization value")))
    if data.draw(st.integers(0, 9), label="idempotency metadata") == 0:
        metadata.append(("idempotency-key", "k" * 20))
    return metadata


@pytest.fixture(scope="module")
def channel(stack):
    with stack.channel() as ch:
        yield ch


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "400")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_call_gets_ok_or_a_rich_error_and_a_refusal_changes_nothing(
        fuzz_client, fuzz_tables, known_codes, channel, db, data):
    client = fuzz_client
    table = fuzz_tables[data.draw(st.sampled_from(sorted(fuzz_tables)), label="game")]
    method = data.draw(st.sampled_from(["CreateMatch", "JoinMatch", "GetMatch", "ListLegalActions",
                                        "SubmitAction", "ListEvents"]), label="method")
    target = table.active
    action = {}
    if method == "JoinMatch":  # a match with every seat open, so that a join can succeed
        created = client.post("/v1/matches", {"game": table.game, "players": GAMES[table.game].max_players})
        target = created.body["matchId"]
    elif method == "SubmitAction":  # a legal action of some seat (an index: see test_rest_fuzz)
        legal = [action for token in table.tokens for action in
                 client.get(f"/v1/matches/{target}/legal-actions", token=token).body["actions"]]
        pick = data.draw(st.integers(0, 1000), label="legal action")
        action = json_format.ParseDict(legal[pick % len(legal)], pb.Action()) if legal else pb.Action()
    valid = {
        "CreateMatch": pb.CreateMatchRequest(game=table.game, players=GAMES[table.game].min_players),
        "JoinMatch": pb.JoinMatchRequest(match_id=target, name="fuzz"),
        "GetMatch": pb.GetMatchRequest(match_id=target),
        "ListLegalActions": pb.ListLegalActionsRequest(match_id=target),
        "SubmitAction": pb.SubmitActionRequest(match_id=target, action=action),
        "ListEvents": pb.ListEventsRequest(match_id=target, after=1),
    }[method]
    request = data.draw(request_bytes(valid.SerializeToString(), valid.DESCRIPTOR), label="request")
    metadata = _metadata(data, table.tokens)
    watched = {m for t in fuzz_tables.values() for m in (t.active, t.waiting)} | {target}
    before = stored(db, watched)

    try:
        answer = channel.unary_unary(f"/parlor.v1.Parlor/{method}")(request, metadata=metadata, timeout=10)
    except grpc.RpcError as err:
        seen = (method, request, metadata, err.code(), err.details())
        assert err.code() in ALLOWED, seen
        status = rpc_status.from_call(err)
        assert status is not None and status.details, seen
        info = error_details_pb2.ErrorInfo()
        assert status.details[0].Unpack(info) and info.reason in known_codes, seen
        assert stored(db, watched) == before, seen
        return
    seen = (method, request, metadata)
    after = stored(db, watched)
    changed = [m for m in watched if after[m] != before[m]]
    if method in ("JoinMatch", "SubmitAction"):
        # An accepted write may have gone to another match than the one meant
        # (appended bytes can name any id), but only ever to one, by one version.
        assert len(changed) <= 1, (changed, seen)
        for m in changed:
            assert version_of(after[m]) == version_of(before[m]) + 1, seen
        if method == "JoinMatch":  # the seat taken is a seat of the match, now the caller's
            joined = pb.JoinMatchResponse.FromString(answer)
            view = client.get(f"/v1/matches/{changed[0]}", token=joined.token).body
            assert 0 <= joined.seat < len(view["seats"]) and view["viewerSeat"] == joined.seat, (view, seen)
    else:
        assert not changed, seen
