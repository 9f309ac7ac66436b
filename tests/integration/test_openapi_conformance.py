"""The served OpenAPI document tells the truth: every request these clients
send and every reply the gateway gives, over whole matches of every game and a
catalogue of refusals, fits the document's schema for that route and status.

Checked strictly: object schemas here also refuse properties they do not name,
so a field the gateway sends but the document lacks (which a generated client
would silently drop) fails too."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import jsonschema
import pytest

from parlor.service.games import GAMES

from ..support import Reply, Rest, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def _strict(node: Any) -> Any:
    """`node` with additionalProperties: false on every object schema that
    names its properties and says nothing of others. (Not on the parts of
    one, such as an `if` or an anyOf branch that names a property or two: a
    part has no `type`.)"""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    strict = {key: _strict(value) for key, value in node.items()}
    if (node.get("type") == "object" and isinstance(node.get("properties"), dict)
            and "additionalProperties" not in node):
        strict["additionalProperties"] = False
    return strict


class CheckedRest(Rest):
    """A REST client that checks each JSON request body and reply against the
    document served by the same gateway, and counts what it checked."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.doc = Rest.request(self, "GET", "/v1/openapi.json").body
        self.strict = _strict(self.doc)
        self.routes = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), ops)
                       for path, ops in self.doc["paths"].items()]
        self.checked: set[tuple[str, str, int]] = set()  # (operationId, part, status)

    def request(self, method: str, path: str, body: Any = None, fits: bool = True, **kw) -> Reply:
        """`fits`: the body is meant to fit the request schema (and is checked)."""
        operation = self._operation(method, path)
        if fits and body is not None and "requestBody" in operation:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            self._validate(body, schema, f"{method} {path} request body")
            self.checked.add((operation["operationId"], "request", 0))
        reply = super().request(method, path, body=body, **kw)
        responses = operation["responses"]
        response = self._resolve(responses.get(str(reply.status)) or responses.get("default"))
        assert response is not None, f"{method} {path} answered {reply.status}, which is not documented"
        if isinstance(reply.body, (dict, list)):
            content = response.get("content", {})
            assert "application/json" in content, f"{method} {path} {reply.status}: JSON not documented"
            self._validate(reply.body, content["application/json"]["schema"],
                           f"{method} {path} {reply.status} reply")
            self.checked.add((operation["operationId"], "reply", reply.status))
        return reply

    def _operation(self, method: str, path: str) -> dict[str, Any]:
        bare = path.partition("?")[0]
        for pattern, ops in self.routes:
            if pattern.match(bare) and method.lower() in ops:
                return ops[method.lower()]
        raise AssertionError(f"{method} {bare} is not in the document")

    def _resolve(self, node: dict[str, Any] | None) -> dict[str, Any] | None:
        while node is not None and "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def _validate(self, instance: Any, schema: dict[str, Any], what: str) -> None:
        # The document's components travel with the schema, so that its
        # "#/components/..." references resolve.
        rooted = {**schema, "components": self.strict["components"]}
        try:
            jsonschema.Draft202012Validator(_strict(rooted)).validate(instance)
        except jsonschema.ValidationError as exc:
            place = "/".join(str(p) for p in exc.absolute_path)
            raise AssertionError(f"{what} does not fit the OpenAPI document at /{place}: "
                                 f"{exc.message}") from None


@pytest.fixture
def checked(stack):
    client = CheckedRest(stack.http_port)
    yield client
    client.close()


def test_listing_games_fits(checked):
    checked.get("/v1/games")
    assert ("listGames", "reply", 200) in checked.checked


def test_health_replies_fit(checked):
    checked.get("/healthz")
    checked.get("/readyz")
    checked.get("/v1/openapi.json")
    assert {("healthz", "reply", 200), ("readyz", "reply", 200), ("openapi", "reply", 200)} <= checked.checked


# Each game's options away from their defaults (Heul doch's special cards, say,
# bring fields of their own), the first seat given where a game takes one.
_VARIANTS = {"what_the_heck": {"hiddenWinnings": True}, "hi_fu": {"board": "back", "firstSeat": 1},
             "heul_doch": {"specialCards": True, "firstSeat": 1}, "whatever": {"firstSeat": 1},
             "heck": {"longGame": True, "maxRounds": 12, "firstSeat": 1}}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_whole_matches_fit(checked, game_id):
    """The fewest players of the game with default options, and the most with
    options away from their defaults, each played to the end by its seats, with
    every view, legal-action list and event list along the way."""
    game = GAMES[game_id]
    for players, options in [(game.min_players, None), (game.max_players, _VARIANTS[game_id])]:
        match, tokens = new_rest_match(checked, game_id, players, options, seed=f"openapi-{players}")
        match_id = match["matchId"]
        chooser = random.Random(players)
        play_rest_to_end(checked, match_id, tokens, chooser)
        for viewer in [None, *tokens]:
            checked.get(f"/v1/matches/{match_id}", token=viewer)
            checked.get(f"/v1/matches/{match_id}/events?after=0&limit=5", token=viewer)
            checked.get(f"/v1/matches/{match_id}/events", token=viewer)
    assert {("createMatch", "reply", 200), ("joinMatch", "reply", 200), ("getMatch", "reply", 200),
            ("listLegalActions", "reply", 200), ("submitAction", "request", 0),
            ("submitAction", "reply", 200), ("listEvents", "reply", 200)} <= checked.checked


def test_refusals_fit(checked):
    """Errors of every kind a route documents, in the documented shape."""
    match, tokens = new_rest_match(checked, "what_the_heck", 3, seed="openapi-refusals")
    path = f"/v1/matches/{match['matchId']}"
    legal = checked.get(f"{path}/legal-actions", token=tokens[0]).body["actions"]
    asked = [
        ("POST", "/v1/matches", {"game": "chess", "players": 2}, {}),
        ("POST", "/v1/matches", {"game": "what_the_heck", "players": 9}, {}),
        ("POST", "/v1/matches", {"game": "what_the_heck", "players": 3,
                                 "options": {"hiddenWinnings": "yes"}}, {}),
        ("POST", f"{path}/seats", {"name": "late"}, {}),
        ("POST", f"{path}/seats", {"name": ""}, {}),
        ("POST", f"{path}/seats", {"name": "late"}, {"headers": {"Idempotency-Key": "short"}}),
        ("POST", f"{path}/seats", {"name": "late"}, {"headers": {"Idempotency-Key": "k" * 32}}),
        ("GET", "/v1/matches/" + "a" * 24, None, {}),
        ("GET", f"{path}/legal-actions", None, {}),
        ("GET", f"{path}/legal-actions", None, {"token": "not-a-token"}),
        ("GET", f"{path}/events?after=-1", None, {}),
        ("POST", f"{path}/actions", {"action": legal[0]}, {}),
        ("POST", f"{path}/actions", {"action": {"whatTheHeck": {"bid": 99}}}, {"token": tokens[0]}),
        ("POST", f"{path}/actions", {"action": legal[0], "expectedVersion": 1}, {"token": tokens[0]}),
        ("POST", f"{path}/actions", {"action": legal[0], "seat": 2}, {"token": tokens[0]}),
        ("POST", f"{path}/actions", {"action": legal[0]},
         {"token": tokens[0], "headers": {"Idempotency-Key": "k1"}}),
        ("POST", f"{path}/actions", {"action": legal[1]},
         {"token": tokens[0], "headers": {"Idempotency-Key": "k1"}}),
    ]
    statuses = set()
    for method, route, body, kw in asked:
        reply = checked.request(method, route, body=copy.deepcopy(body), fits=False, **kw)
        statuses.add(reply.status)
    # Bodies the request schema itself refuses still get a documented error.
    for raw in (b"{", b"[]", b'{"game": 5}', b"x" * 2_000_000):
        reply = checked.request("POST", "/v1/matches", raw=raw, headers={"Content-Type": "application/json"})
        statuses.add(reply.status)
    assert {400, 401, 403, 404, 409, 413} <= statuses


def test_idempotency_keys_in_the_body_fit(checked):
    """The key may come in the body (`idempotencyKey`) instead of the header."""
    match = checked.post("/v1/matches", {"game": "what_the_heck", "players": 2}).body
    path = f"/v1/matches/{match['matchId']}"
    first = checked.post(f"{path}/seats", {"name": "a", "idempotencyKey": "join-key-" + "a" * 16}).body
    again = checked.post(f"{path}/seats", {"name": "a", "idempotencyKey": "join-key-" + "a" * 16}).body
    assert again == first
    second = checked.post(f"{path}/seats", {"name": "b"}).body
    action = checked.get(f"{path}/legal-actions", token=first["token"]).body["actions"][0]
    played = checked.post(f"{path}/actions", {"action": action, "idempotencyKey": "bid-1"}, token=first["token"])
    replayed = checked.post(f"{path}/actions", {"action": action, "idempotencyKey": "bid-1"}, token=first["token"])
    assert played.status == replayed.status == 200 and replayed.body == played.body
    assert second["seat"] != first["seat"]
    assert ("joinMatch", "request", 0) in checked.checked
