"""Requests generated from the served OpenAPI document by a schema-driven
fuzzer (schemathesis, in its positive mode: every body, query and header
fits the document's schemas), sent to the real gateway: whatever the schema
allows, the gateway never answers 5xx, answers only as the document says
(CheckedRest holds each reply to its schema), and never refuses it with a 400
whose reason the schema could have stated.

Such reasons are malformed input (INVALID_JSON, INVALID_ARGUMENT) and the
fields' own checks (UNKNOWN_GAME, INVALID_PLAYER_COUNT, INVALID_OPTION, ...).
The document states them all but for a few that JSON Schema cannot, each
excused below by name: a name's characters outside printable ASCII (the
service refuses some by their Unicode category), a create's bots naming one
seat twice, an Idempotency-Key header that is not the body's
`idempotencyKey`, a join's seat past the match's player count and an action
of another game than the match's (both depend on the match in the path).
Refusals that depend on state (404, an illegal action, a stale version, a
taken seat) are answers the document lists, and fine.

Path ids and seat tokens are the stack's own most of the time (a match in
play, a waiting one, a finished one), so that requests get past the lookup
to where their bodies are read. The stack is this module's own: quick
matches and public creates fill its lobby, not the one other tests read.

200 cases a run (the same in CI: HYPOTHESIS_PROFILE=ci); SCHEMA_FUZZ_EXAMPLES
raises it for a longer hunt."""

from __future__ import annotations

import json
import os
import random
from urllib.parse import urlencode

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from parlor.service.games import GAMES

from ..support import Stack, new_rest_match, play_rest_to_end
from .fuzzing import Table
from .test_openapi_conformance import CheckedRest

pytestmark = pytest.mark.integration

# Refusals the schema could state: a request it allows must not get one.
STATABLE = {"INVALID_JSON", "INVALID_ARGUMENT", "UNKNOWN_GAME", "INVALID_PLAYER_COUNT", "INVALID_OPTION",
            "INVALID_SEED", "INVALID_NAME", "INVALID_SEAT", "INVALID_ACTION", "INVALID_IDEMPOTENCY_KEY",
            "INVALID_BOT", "INVALID_VISIBILITY", "INVALID_TURN_SECONDS", "INVALID_ON_TIMEOUT"}
# The operations that take input (the others are plain GETs).
OPERATIONS = ("createMatch", "joinMatch", "quickMatch", "submitAction", "listLegalActions", "getMatch",
              "listEvents", "leaveMatch", "listMatches", "getReplay", "getRules")


@pytest.fixture(scope="module")
def fuzz_stack():
    """A stack of this module's own (no worker: bots' seats wait, which
    changes no answer here)."""
    stack = Stack(env={"PARLOR_ALLOW_FIXED_SEED": "1"}).start()
    yield stack
    stack.stop()
    for name in ("service", "gateway"):
        logged = stack.log(name)
        assert "Traceback" not in logged and "unhandled error" not in logged, logged[-3000:]


@pytest.fixture(scope="module")
def client(fuzz_stack):
    rest = CheckedRest(fuzz_stack.http_port)
    yield rest
    rest.close()


@pytest.fixture(scope="module")
def tables(client) -> dict[str, Table]:
    """Per game: a match in play (its tokens known) and one waiting."""
    found = {}
    for game in GAMES.values():
        match, tokens = new_rest_match(client, game.id, game.max_players, seed=f"schema-{game.id}")
        waiting = client.post("/v1/matches", {"game": game.id, "players": game.max_players}).body["matchId"]
        found[game.id] = Table(game.id, match["matchId"], tokens, waiting)
    return found


@pytest.fixture(scope="module")
def finished(client) -> str:
    """A finished match's id (for replays)."""
    match, tokens = new_rest_match(client, "what_the_heck", 2, seed="schema-finished")
    play_rest_to_end(client, match["matchId"], tokens, random.Random(1))
    return match["matchId"]


@pytest.fixture(scope="module")
def generated(client):
    """Per operationId: the operation (for its schemas) and schemathesis's
    strategy of cases for it, from the document the gateway serves."""
    schema = schemathesis.openapi.from_dict(json.loads(json.dumps(client.doc)))
    found = {}
    for path, ops in client.doc["paths"].items():
        for method, op in ops.items():
            if op["operationId"] in OPERATIONS:
                found[op["operationId"]] = (op, schema[path][method.upper()].as_strategy())
    assert set(found) == set(OPERATIONS)
    return _Cases(found)


class _Cases(dict):
    def __repr__(self) -> str:  # (Hypothesis prints a failing test's arguments)
        return f"<cases of {len(self)} operations>"


def _validator(client, schema):
    return jsonschema.Draft202012Validator({**schema, "components": client.doc["components"]})


def _excused(code: str, name: str, body, headers: dict[str, str], players: int, game: str) -> bool:
    """Whether a statable refusal is one of those JSON Schema cannot state."""
    body = body if isinstance(body, dict) else {}
    if code == "INVALID_IDEMPOTENCY_KEY":  # the body's key is not the header's (a schema sees one or the other)
        key = body.get("idempotencyKey") or body.get("idempotency_key")
        return bool(key) and "Idempotency-Key" in headers and headers["Idempotency-Key"] != key
    if code == "INVALID_NAME":  # a character the service refuses by its Unicode category
        given = body.get("name")
        return isinstance(given, str) and not given.strip().isascii()
    if code == "INVALID_SEAT" and name == "createMatch":  # one seat named twice among the bots
        bots = body.get("bots") if isinstance(body.get("bots"), list) else []
        named = [bot.get("seat") for bot in bots if bot.get("seat") is not None]
        return len(named) != len(set(named))
    if code == "INVALID_SEAT" and name == "joinMatch":  # a seat past the match's player count
        return isinstance(body.get("seat"), (int, float)) and body["seat"] >= players
    if code == "INVALID_ACTION" and name == "submitAction":  # an action of another game than the match's
        action = body.get("action") or {}
        own = {game, "".join(part.title() if i else part for i, part in enumerate(game.split("_")))}
        return not own & set(action)
    return False


# (No shrinking: each step costs requests to the servers, and a failure names its
# whole request and answer anyway.)
@settings(max_examples=int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "200")), deadline=None,
          phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data())
def test_what_the_schema_allows_is_never_refused_for_its_shape(client, tables, finished, generated, data):
    name = data.draw(st.sampled_from(OPERATIONS), label="operation")
    operation, cases = generated[name]
    case = data.draw(cases, label="case")
    table = tables[data.draw(st.sampled_from(sorted(tables)), label="game")]
    path_parameters = dict(case.path_parameters or {})
    headers = {key: value for key, value in (case.headers or {}).items() if key.lower() != "authorization"}
    players = GAMES[table.game].max_players
    game = table.game
    # The match in the path: the stack's own, mostly, where the route can get
    # past the lookup; else whatever the fuzzer made of it (404).
    if "matchId" in path_parameters and data.draw(st.integers(0, 9), label="own match") < 8:
        if name == "joinMatch":  # a match with every seat open (joins that succeed fill them)
            path_parameters["matchId"] = client.post("/v1/matches", {"game": game, "players": players}).body[
                "matchId"]
        elif name == "getReplay" and data.draw(st.booleans(), label="finished"):
            path_parameters["matchId"], game = finished, "what_the_heck"
        else:
            path_parameters["matchId"] = table.active
    # The seat token: one of the match's, mostly.
    seat = data.draw(st.integers(0, players - 1), label="seat")
    if any("seatToken" in need for need in operation.get("security", [])) and data.draw(
            st.integers(0, 9), label="token") < 8:
        headers["Authorization"] = f"Bearer {table.tokens[seat]}"
        if name == "leaveMatch" and data.draw(st.booleans(), label="own seat"):
            path_parameters["seat"] = seat
    path = operation_path = next(p for p, ops in client.doc["paths"].items()
                                 if any(op["operationId"] == name for op in ops.values()))
    for key, value in path_parameters.items():
        path = path.replace("{" + key + "}", str(value))
    if case.query:
        path += "?" + urlencode(case.query, doseq=True)
    body = case.body if isinstance(case.body, (dict, list, str, int, float, bool)) or case.body is None else None
    if "requestBody" in operation:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert _validator(client, schema).is_valid(body), ("the fuzzer made a body the schema refuses", body)
    method = next(m for m, op in client.doc["paths"][operation_path].items() if op["operationId"] == name)

    reply = client.request(method.upper(), path, body=body, fits=False, headers=headers)

    seen = json.dumps({"operation": name, "request": f"{method.upper()} {path}", "headers": headers, "body": body,
                       "status": reply.status, "reply": reply.body}, default=repr)
    assert reply.status < 500, seen
    if reply.status == 400 and reply.error in STATABLE:
        assert _excused(reply.error, name, body, headers, players, game), seen
