"""Joins retried with an Idempotency-Key: the first answer again (the same seat
and token), nothing changed, and neither the key nor the token stored in clear."""

from __future__ import annotations

import uuid

import grpc
import pytest

from parlor.service.store import keys
from parlor.v1 import parlor_pb2 as pb

from .test_bad_input import snapshot
from .test_concurrency import _all_at_once
from .test_grpc import error_reason
from .test_store import stored_bytes

pytestmark = pytest.mark.integration


def new_key() -> str:
    return str(uuid.uuid4())


def new_match(rest, players: int = 3) -> str:
    created = rest.post("/v1/matches", {"game": "what_the_heck", "players": players})
    assert created.status == 200, created.body
    return created.body["matchId"]


def join(rest, match_id: str, body: dict, key: str | None):
    headers = {"Idempotency-Key": key} if key is not None else None
    return rest.post(f"/v1/matches/{match_id}/seats", body, headers=headers)


def test_a_retried_join_gets_the_same_seat_and_token_and_changes_nothing(rest, db):
    match_id = new_match(rest)
    key = new_key()
    first = join(rest, match_id, {"name": "Ann"}, key)
    assert first.status == 200, first.body
    before = snapshot(db, match_id)
    again = join(rest, match_id, {"name": "Ann"}, key)
    assert again.status == 200 and again.body == first.body
    assert snapshot(db, match_id) == before
    view = rest.get(f"/v1/matches/{match_id}", token=again.body["token"]).body
    assert view["viewerSeat"] == first.body["seat"]
    assert [seat["joined"] for seat in view["seats"]] == [True, False, False]

    # Each join has its own key; a join without one is not affected by it.
    other = join(rest, match_id, {"name": "Bob"}, new_key())
    plain = join(rest, match_id, {"name": "Cy"}, None)
    assert (other.body["seat"], plain.body["seat"]) == (1, 2)
    assert rest.get(f"/v1/matches/{match_id}").body["status"] == "ACTIVE"


def test_the_last_seats_join_retried_after_the_match_started_gets_its_answer(rest, db):
    match_id = new_match(rest, players=2)
    join(rest, match_id, {"name": "Ann"}, None)
    key = new_key()
    last = join(rest, match_id, {"name": "Bob", "seat": 1}, key)
    assert last.status == 200, last.body
    hand = rest.get(f"/v1/matches/{match_id}", token=last.body["token"]).body["whatTheHeck"]["hand"]
    acted = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": hand[0]}}},
                      token=last.body["token"])
    assert acted.status == 200, acted.body
    before = snapshot(db, match_id)
    again = join(rest, match_id, {"name": "Bob", "seat": 1}, key)
    assert again.status == 200 and again.body == last.body
    assert snapshot(db, match_id) == before
    # Without the key, the full match refuses as ever.
    assert join(rest, match_id, {"name": "Bob", "seat": 1}, None).error == "MATCH_FULL"


def test_the_same_key_with_another_join_is_refused_and_changes_nothing(rest, db):
    match_id = new_match(rest)
    key = new_key()
    assert join(rest, match_id, {"name": "Ann"}, key).status == 200
    before = snapshot(db, match_id)
    for body in ({"name": "Bob"}, {"name": "Ann", "seat": 0}, {"name": "Ann", "seat": 2}):
        reply = join(rest, match_id, body, key)
        assert (reply.status, reply.error) == (409, "IDEMPOTENCY_KEY_REUSED"), (body, reply.body)
    assert snapshot(db, match_id) == before
    # The key is the match's: on another match it is a new key.
    assert join(rest, new_match(rest), {"name": "Bob"}, key).status == 200


def test_a_refused_join_records_nothing(rest, db):
    match_id = new_match(rest)
    assert join(rest, match_id, {"name": "Ann", "seat": 0}, None).status == 200
    key = new_key()
    taken = join(rest, match_id, {"name": "Bob", "seat": 0}, key)
    assert taken.error == "SEAT_TAKEN"
    assert db.hlen(keys(match_id)[3]) == 0
    moved = join(rest, match_id, {"name": "Bob", "seat": 1}, key)  # the key is still unused
    assert moved.status == 200 and moved.body["seat"] == 1


@pytest.mark.parametrize("key", ["", "short-key", "x" * 129, "has a space in it ok", "tab\there-0123456789",
                                 "ünïcode-0123456789"])
def test_bad_keys_are_refused_and_change_nothing(rest, db, key):
    match_id = new_match(rest)
    before = snapshot(db, match_id)
    try:
        reply = join(rest, match_id, {"name": "Ann"}, key)
    except UnicodeEncodeError:  # http.client sends header values as Latin-1
        reply = rest.request("POST", f"/v1/matches/{match_id}/seats", {"name": "Ann"},
                             headers={"Idempotency-Key": key.encode().decode("latin-1")})
    assert (reply.status, reply.error) == (400, "INVALID_IDEMPOTENCY_KEY"), reply.body
    assert snapshot(db, match_id) == before


def test_neither_the_key_nor_the_token_is_stored_in_clear(rest, db):
    match_id = new_match(rest, players=2)
    keys_sent = [new_key(), new_key()]
    tokens = [join(rest, match_id, {"name": name}, key).body["token"]
              for name, key in zip(("Ann", "Bob"), keys_sent)]
    stored = stored_bytes(db, match_id)
    for secret in (*keys_sent, *tokens):
        assert secret.encode() not in stored
    assert db.hlen(keys(match_id)[3]) == 2


def test_concurrent_retries_of_one_join_take_one_seat(stack):
    clients = [stack.rest() for _ in range(6)]
    try:
        match_id = new_match(clients[0])
        key = new_key()
        replies = _all_at_once([(lambda c=c: join(c, match_id, {"name": "Ann"}, key)) for c in clients])
        assert all(r.status == 200 for r in replies), [r.body for r in replies]
        assert len({(r.body["seat"], r.body["token"]) for r in replies}) == 1
        view = clients[0].get(f"/v1/matches/{match_id}").body
        assert view["version"] == 1 and [s["joined"] for s in view["seats"]] == [True, False, False]
    finally:
        for c in clients:
            c.close()


def test_over_grpc_the_key_is_a_request_field_and_metadata_is_refused(stub):
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=3))
    request = pb.JoinMatchRequest(match_id=match.match_id, name="Ann", idempotency_key=new_key())
    first = stub.JoinMatch(request)
    assert stub.JoinMatch(request) == first
    with pytest.raises(grpc.RpcError) as refused:
        stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="Bob"),
                       metadata=[("idempotency-key", new_key())])
    assert error_reason(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_IDEMPOTENCY_KEY")
    view = stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id))
    assert view.version == 1 and [s.joined for s in view.seats] == [True, False, False]
