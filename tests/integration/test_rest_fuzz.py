"""Random requests against the running stack, every game: whatever the body,
headers, ids or query, the answer is one the OpenAPI document describes (never
a 5xx), an error is the contract's error object with a known code, and a
refused request changes nothing stored.

The tables of test_bad_input.py pin the cases we thought of; this draws the
ones we did not: requests built from valid ones with one part replaced by an
arbitrary JSON value (edge values often), arbitrary JSON, raw bytes, odd tokens,
keys, ids and query values. An accepted join or action must have changed just
its match, by one version (a join: the seat asked for, now the caller's)."""

from __future__ import annotations

import dataclasses
import json
import os
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service.games import GAMES

from .fuzzing import Table, stored, version_of

pytestmark = pytest.mark.integration

# Values at the edges of what the API takes come up often, beside arbitrary ones.
edges = st.sampled_from([-1, 0, 1, 5, 15, 2**31 - 1, 2**31, -(2**31) - 1, 2**53 + 1, 1.5, -0.0, "",
                         " ", "0", "1", "-1", "x" * 65])
json_scalars = (edges | st.none() | st.booleans() | st.integers(-(2**70), 2**70)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=8)
# What http.client can send as a header value: Latin-1, no line breaks.
query_value = st.integers(-(2**40), 2**40).map(str) | st.text(max_size=12)
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"),
                      max_size=40)


def _mutated(data, template: dict):
    """The template with one field (at the top or one level down) replaced by
    an arbitrary JSON value, removed, or joined by an unknown one."""
    body = json.loads(json.dumps(template))
    target = body
    inner = [k for k, v in body.items() if isinstance(v, dict) and v]
    if inner and data.draw(st.booleans(), label="go one level down"):
        target = body[data.draw(st.sampled_from(inner), label="field")]
    how = data.draw(st.sampled_from(["replace", "remove", "add"]), label="mutation")
    if how == "add" or not target:
        target[data.draw(st.text(max_size=12), label="new key")] = data.draw(json_values, label="value")
    else:
        key = data.draw(st.sampled_from(sorted(target)), label="field")
        if how == "remove":
            del target[key]
        else:
            target[key] = data.draw(edges | json_values, label="value")
    return body


def _body(data, template: dict) -> tuple[object | None, bytes | None]:
    """(json body, raw bytes): the template mutated, any JSON, or any bytes."""
    kind = data.draw(st.sampled_from(["mutated", "mutated", "json", "bytes"]), label="body kind")
    if kind == "mutated":
        return _mutated(data, template), None
    if kind == "json":
        return data.draw(json_values, label="body"), None
    return None, data.draw(st.binary(max_size=64), label="raw body")


def _headers(data, table: Table) -> dict[str, str]:
    headers = {}
    auth = data.draw(st.sampled_from(["none", "seat", "seat", "junk token", "other scheme", "anything"]),
                     label="authorization")
    if auth == "seat":
        headers["Authorization"] = "Bearer " + data.draw(st.sampled_from(table.tokens), label="token")
    elif auth == "junk token":
        headers["Authorization"] = "Bearer " + data.draw(header_text, label="token")
    elif auth == "other scheme":
        headers["Authorization"] = "Basic " + data.draw(header_text, label="credentials")
    elif auth == "anything":
        headers["Authorization"] = data.draw(header_text, label="authorization value")
    key = data.draw(st.sampled_from(["none", "none", "none", "fitting", "anything"]), label="idempotency key")
    if key == "fitting":
        headers["Idempotency-Key"] = data.draw(st.uuids(), label="key").hex
    elif key == "anything":
        headers["Idempotency-Key"] = data.draw(header_text, label="key")
    return headers


def _match_id(data, table: Table, route: str) -> str:
    usual = "waiting" if route == "join" else "active"  # where the route can succeed
    which = data.draw(st.sampled_from([usual, usual, usual, "active", "waiting", "unknown", "anything"]),
                      label="match")
    if which == "active":
        return table.active
    if which == "waiting":
        return table.waiting
    if which == "unknown":
        return "a" * 24
    return quote(data.draw(st.text(min_size=1, max_size=30), label="match id"), safe="")


# 500 requests a run (the same ones in CI); FUZZ_EXAMPLES=20000 for a longer hunt.
@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "500")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_request_gets_a_documented_answer_and_a_refusal_changes_nothing(
        fuzz_client, fuzz_tables, known_codes, db, data):
    client = fuzz_client
    table = fuzz_tables[data.draw(st.sampled_from(sorted(fuzz_tables)), label="game")]
    route = data.draw(st.sampled_from(["create", "join", "act", "view", "legal", "events"]), label="route")
    if route == "join":  # a match with every seat open (joins that succeed fill them)
        waiting = client.post("/v1/matches", {"game": table.game, "players": GAMES[table.game].max_players})
        table = dataclasses.replace(table, waiting=waiting.body["matchId"])
    watched = {m for t in fuzz_tables.values() for m in (t.active, t.waiting)} | {table.waiting}
    match_id = _match_id(data, table, route)
    headers = _headers(data, table)
    body = raw = None
    if route == "create":
        method, path = "POST", "/v1/matches"
        body, raw = _body(data, {"game": table.game, "players": GAMES[table.game].min_players,
                                 "options": {}, "seed": "s"})
    elif route == "join":
        method, path = "POST", f"/v1/matches/{match_id}/seats"
        body, raw = _body(data, {"name": "fuzz", "seat": 0})
    elif route == "act":
        method, path = "POST", f"/v1/matches/{match_id}/actions"
        legal = []
        for token in table.tokens:
            legal += client.get(f"/v1/matches/{table.active}/legal-actions", token=token).body["actions"]
        # (an index, not sampled_from(legal): a drawn strategy must not depend on
        # the match, which moves on, or Hypothesis cannot replay a failing case)
        pick = data.draw(st.integers(0, 1000), label="legal action")
        action = legal[pick % len(legal)] if legal else {}
        body, raw = _body(data, {"action": action, "expectedVersion": 0, "seat": 0})
    else:
        method = "GET"
        path = f"/v1/matches/{match_id}" + {"view": "", "legal": "/legal-actions", "events": "/events"}[route]
        if route == "events" and data.draw(st.booleans(), label="query"):
            after = quote(data.draw(query_value, label="after"), safe="")
            limit = quote(data.draw(query_value, label="limit"), safe="")
            path += f"?after={after}&limit={limit}"
    if raw is not None:
        headers.setdefault("Content-Type", "application/json")
    before = stored(db, watched)

    # CheckedRest: the status must be documented for the route, and a JSON
    # reply must fit the document's schema for it.
    reply = client.request(method, path, body=body, raw=raw, fits=False, headers=headers)

    seen = (method, path, headers, body if raw is None else raw, reply.status, reply.body)
    assert reply.status < 500, seen
    after = stored(db, watched)
    changed = [match for match in before if after[match] != before[match]]
    if reply.status != 200:
        error = reply.body["error"]
        assert error["code"] in known_codes, seen
        assert isinstance(error["message"], str) and error["message"], seen
        assert all(isinstance(v, str) for v in error["details"].values()), seen
        assert not changed, seen
    elif route in ("act", "join"):
        # One match changed: the one in the path, by one version.
        assert changed == [match_id], (changed, seen)
        assert version_of(after[match_id]) == version_of(before[match_id]) + 1, seen
        if route == "join":  # the seat asked for (or an open one), now the caller's
            asked = body.get("seat") if isinstance(body, dict) else None
            seat = reply.body["seat"]
            view = client.get(f"/v1/matches/{match_id}", token=reply.body["token"]).body
            # (proto3 JSON takes a number or a string of one for an int32: 1, 1.0, "1")
            assert 0 <= seat < len(view["seats"]) and (asked is None or float(asked) == seat), seen
            assert view["viewerSeat"] == seat and view["seats"][seat]["joined"], (view, seen)
        else:
            assert reply.body["match"]["version"] == version_of(after[match_id]), seen
    else:
        assert not changed, seen
