"""The OpenAPI 3.1 document served at /v1/openapi.json.

Paths are written here; the schemas of every message are derived from the
protobuf descriptors, so they follow proto/ without a second copy to keep in
step. JSON follows the proto3 mapping (lowerCamelCase names; proto names are
accepted on input too).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from parlor.v1 import parlor_pb2 as pb

from .errors import PROTOCOL_ERRORS

_SCALARS = {
    FieldDescriptor.TYPE_INT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_UINT32: {"type": "integer", "format": "uint32", "minimum": 0},
    FieldDescriptor.TYPE_FIXED32: {"type": "integer", "format": "uint32", "minimum": 0},
    # 64-bit integers are strings in proto3 JSON.
    FieldDescriptor.TYPE_INT64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_SINT64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_SFIXED64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_UINT64: {"type": "string", "format": "uint64"},
    FieldDescriptor.TYPE_FIXED64: {"type": "string", "format": "uint64"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_STRING: {"type": "string"},
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"},
    FieldDescriptor.TYPE_FLOAT: {"type": "number"},
    FieldDescriptor.TYPE_BYTES: {"type": "string", "format": "byte"},
}
_WELL_KNOWN = {"google.protobuf.Value": {"description": "Any JSON value."},
               "google.protobuf.Timestamp": {"type": "string", "format": "date-time",
                                             "description": "RFC 3339, in UTC (e.g. \"2026-12-04T15:04:05.250Z\")."}}

_ERROR_CODES = [
    "INVALID_JSON", "INVALID_ARGUMENT", "UNKNOWN_GAME", "INVALID_PLAYER_COUNT", "INVALID_OPTION",
    "INVALID_SEED", "INVALID_NAME", "INVALID_SEAT", "INVALID_ACTION", "INVALID_IDEMPOTENCY_KEY",
    "ILLEGAL_ACTION", "MATCH_NOT_STARTED", "MATCH_FINISHED", "RULES_VERSION_UNAVAILABLE",
    "TOKEN_REQUIRED", "INVALID_TOKEN", "FIXED_SEED_DISABLED", "SEAT_MISMATCH", "MATCH_NOT_FOUND",
    "NOT_FOUND", "METHOD_NOT_ALLOWED", "SEAT_TAKEN", "MATCH_FULL", "IDEMPOTENCY_KEY_REUSED",
    "STALE_VERSION", "CONFLICT", "TOO_MANY_STREAMS", "TOO_MANY_REPLAYS", "BODY_TOO_LARGE", "STORE_UNAVAILABLE",
    "INVALID_BOT", "INVALID_VISIBILITY", "INVALID_TURN_SECONDS", "INVALID_ON_TIMEOUT", "INVALID_PAGE_TOKEN",
    "MATCH_NOT_FINISHED", "MATCH_TOO_OLD",
    "SERVICE_UNAVAILABLE", "TIMEOUT", "RESOURCE_EXHAUSTED", "HTTP_ERROR", "INTERNAL",
    *(code for code, _ in PROTOCOL_ERRORS.values()),
]


def _schema_name(desc: Descriptor) -> str:
    return desc.full_name.removeprefix("parlor.v1.").replace(".", "_")


# Each message's and field's comment in proto/, by full name (proto/generate.py
# writes it beside the generated modules).
_COMMENTS: dict[str, str] = json.loads(
    resources.files("parlor.v1").joinpath("comments.json").read_text(encoding="utf-8"))

# The fewest and the most players each game takes (the gateway holds no game;
# a test keeps these to the service's registry).
PLAYERS = {"what_the_heck": (2, 5), "hi_fu": (4, 5), "heul_doch": (3, 6), "whatever": (2, 6),
           "heck": (2, 5)}
FEWEST_PLAYERS = min(fewest for fewest, _ in PLAYERS.values())
MOST_PLAYERS = max(most for _, most in PLAYERS.values())
MAX_SEED_LENGTH = 256  # (service.matches', which a test keeps this to)

# Fields that hold a message and are set in every reply that carries their
# message (the rest hold one only when it applies). Replies list them as
# `required`; the conformance test holds every reply of whole matches to it.
_ALWAYS_SENT = frozenset({
    "parlor.v1.MatchFinished.result",
    "parlor.v1.OptionInfo.default",
    "parlor.v1.WhatTheHeckView.options", "parlor.v1.HiFuView.options", "parlor.v1.HeulDochView.options",
    "parlor.v1.WhateverView.options", "parlor.v1.HeckView.options",
    "parlor.v1.HiFuEvent.CardPlayed.card", "parlor.v1.HeulDochEvent.CardPlayed.card",
})

# String fields that take one of a few words (the games' own; a test keeps
# these to the engines'): their schemas list them as an enum, in requests and
# replies alike.
STRING_VALUES = {
    "parlor.v1.HiFuOptions.board": ("front", "back"),
    "parlor.v1.HiFuCard.colour": ("red", "yellow", "green", "blue"),
    "parlor.v1.HeulDochCard.colour": ("red", "orange", "yellow", "green", "blue", "purple", "black"),
    "parlor.v1.HeulDochCard.special": ("catapult", "beach_towel", "carousel", "werewolf"),
    "parlor.v1.HeulDochAction.FaceUp.pile": ("own", "left", "right"),
    "parlor.v1.HeulDochAction.Carousel.direction": ("left", "right"),
}

# The match's own settings in a create's body (also taken inside `options`).
_TABLE_PROPERTIES = {
    "visibility": {"type": "string", "enum": ["private", "public"],
                   "description": "public: listed in the lobby (GET /v1/matches) and found by quick match; "
                                  "private (the default): reachable by its id only."},
    "turnSeconds": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 86_400,
                    "description": "Turn clock: seconds each seat has to act (5 to 86400; 0, the default: "
                                   "none). A seat that lets it run out gets its game's default move, or a "
                                   "bot (onTimeout). Else 400 INVALID_TURN_SECONDS."},
    "onTimeout": {"type": "string", "enum": ["default", "bot"],
                  "description": "default (the game's default move) or bot (a random bot takes the seat "
                                 "for the rest of the match; the seat's token stops working)."},
}
# The same for the match's own settings (the service's words, not a game's).
MATCH_STRING_VALUES = {
    "parlor.v1.BotSeat.level": ("random", "strong"),
    "parlor.v1.Seat.bot": ("", "random", "strong"),
    "parlor.v1.SeatJoined.bot": ("", "random", "strong"),
    "parlor.v1.SeatLeft.bot": ("", "random"),
    "parlor.v1.TurnTimedOut.bot": ("", "random"),
    "parlor.v1.Match.visibility": ("private", "public"),
    "parlor.v1.Match.on_timeout": ("default", "bot"),
    "parlor.v1.MatchSummary.on_timeout": ("default", "bot"),
}

_OPTIONAL = ("Optional: left out when it has no value (it does not apply, or is not shown "
             "to the caller); left out is not the same as a zero value.")


def _collect(desc: Descriptor, out: dict[str, Any]) -> dict[str, Any]:
    """Adds `desc` (and every message it refers to) to `out`; returns a $ref.
    A schema lists as `required` the fields without presence (plain scalars,
    lists, maps), which replies always carry, zero values included, and the
    message fields of _ALWAYS_SENT."""
    if desc.full_name in _WELL_KNOWN:
        return _WELL_KNOWN[desc.full_name]
    name = _schema_name(desc)
    if name not in out:
        out[name] = {}  # placeholder against recursion
        properties = {}
        for field in desc.fields:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                value = field.message_type.fields_by_name["value"]
                item = _field_schema(value, out)
                schema: dict[str, Any] = {"type": "object", "additionalProperties": item}
            else:
                schema = _field_schema(field, out)
                words = STRING_VALUES.get(field.full_name) or MATCH_STRING_VALUES.get(field.full_name)
                if words:
                    schema["enum"] = list(words)
                if field.is_repeated:
                    schema = {"type": "array", "items": schema}
            optional = field.has_presence and field.message_type is None and not _in_oneof(field)
            if description := _description(_COMMENTS.get(field.full_name), optional and _OPTIONAL):
                schema = {**schema, "description": description}
            properties[field.json_name] = schema
        out[name] = {"type": "object", "properties": properties}
        choices = ["At most one of " + ", ".join(f"`{f.json_name}`" for f in oneof.fields) + " is set."
                   for oneof in desc.oneofs if _real(oneof)]  # (said once here, not on each field)
        if description := _description(_COMMENTS.get(desc.full_name), *choices):
            out[name]["description"] = description
        required = [field.json_name for field in desc.fields
                    if not field.has_presence or field.full_name in _ALWAYS_SENT]
        if required:
            out[name]["required"] = required
    return {"$ref": f"#/components/schemas/{name}"}


def _description(*notes: str | None | bool) -> str:
    """The notes that say something, as one description ("" for none)."""
    return " ".join(note for note in notes if note)


def _real(oneof) -> bool:
    """Whether `oneof` is a choice between fields, not proto3's `optional`
    (a oneof of its own, named `_<field>`, around one field)."""
    return not oneof.name.startswith("_")


def _in_oneof(field: FieldDescriptor) -> bool:
    """Whether `field` is one choice of a (real) oneof."""
    return field.containing_oneof is not None and _real(field.containing_oneof)


def _reachable(*roots: Descriptor) -> dict[str, Descriptor]:
    """`roots` and every message their fields hold, however deep, by schema name."""
    seen: dict[str, Descriptor] = {}
    todo = list(roots)
    while todo:
        desc = todo.pop()
        if _schema_name(desc) not in seen:
            seen[_schema_name(desc)] = desc
            todo += [field.message_type for field in desc.fields if field.message_type is not None]
    return seen


def _names(desc: Descriptor) -> dict[str, Any]:
    """A schema's `propertyNames`: the names a request may give `desc`'s fields
    (the JSON names, and the proto names, which the server also takes); any
    other is refused (400). Not `match_id`: a body leaves the match to the
    path (the server takes one only if it names the path's match)."""
    fields = [field for field in desc.fields if field.name != "match_id"]
    return {"enum": sorted({field.json_name for field in fields} | {field.name for field in fields})}


def _as_request(schema: dict[str, Any], desc: Descriptor, options: bool) -> None:
    """Makes `schema` (of `desc`) say what the server takes in a request: no
    names but its fields' (400), and where every field is one choice of a
    oneof (Action, a game's kinds of action), exactly one (none is 400
    INVALID_ACTION). Options require nothing: left out, an option takes its
    default. An action's fields stay `required` as legal-action lists give
    them (each written out): a request may leave one out, read as its zero
    value, but a client posting listed actions back never does."""
    if options:
        schema.pop("required", None)
    schema["propertyNames"] = _names(desc)
    oneofs = {field.containing_oneof for field in desc.fields}
    if len(oneofs) == 1 and all(_in_oneof(field) for field in desc.fields):
        schema["minProperties"] = schema["maxProperties"] = 1


def _field_schema(field: FieldDescriptor, out: dict[str, Any]) -> dict[str, Any]:
    if field.message_type is not None:
        return _collect(field.message_type, out)
    if field.enum_type is not None:  # (the zero value, *_UNSPECIFIED, is never sent)
        return {"type": "string", "enum": [v.name for v in field.enum_type.values
                                           if not (v.number == 0 and v.name.endswith("_UNSPECIFIED"))]}
    return dict(_SCALARS[field.type])


def _json(schema_ref: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema_ref}}}


def _errors(*statuses: int) -> dict[str, Any]:
    """The statuses an operation answers by design, plus `default` for the rest
    any call can meet (500 INTERNAL, 504 TIMEOUT, 414 URL_TOO_LONG, ...)."""
    return {**{str(s): {"$ref": f"#/components/responses/Error{s}"} for s in statuses},
            "default": {"$ref": "#/components/responses/ErrorOther"}}


@cache
def document() -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    ref = lambda message: _collect(message.DESCRIPTOR, schemas)  # noqa: E731
    option_fields = pb.CreateMatchRequest.DESCRIPTOR.oneofs_by_name["options"].fields
    options = {field.name: _collect(field.message_type, schemas) for field in option_fields}
    schemas["CreateMatchBody"] = {
        "type": "object", "required": ["game", "players"],
        "properties": {
            "game": {"type": "string", "enum": sorted(options),
                     "description": "Game id, from GET /v1/games."},
            "players": {"type": "integer", "format": "int32",
                        "minimum": FEWEST_PLAYERS, "maximum": MOST_PLAYERS,
                        "description": "Number of seats, within the game's minPlayers and "
                                       "maxPlayers (GET /v1/games)."},
            "options": {"description": "The game's options (see GET /v1/games), "
                                       "e.g. {\"hiddenWinnings\": true}.",
                        "anyOf": list(options.values())},
            "seed": {"type": "string", "minLength": 1, "maxLength": MAX_SEED_LENGTH,
                     "description": "Fixes every shuffle. Only on servers run "
                     "with PARLOR_ALLOW_FIXED_SEED=1; otherwise 403 FIXED_SEED_DISABLED."},
            "bots": {"description": "Bots to seat at once: a list of {seat?, level?} (a bot without a "
                                    "seat takes the highest open seat; level random by default), or a "
                                    "count of random bots. At most one per seat (else 400 INVALID_BOT); "
                                    "a match of bots only starts at once and plays itself.",
                     "oneOf": [{"type": "array", "items": ref(pb.BotSeat)},
                               {"type": "integer", "minimum": 0, "maximum": MOST_PLAYERS}]},
            **_TABLE_PROPERTIES,
        },
        # (for validators: the player count and options are the named game's)
        "allOf": [{"if": {"required": ["game"], "properties": {"game": {"const": game}}},
                   "then": {"properties": {
                       "options": schema,
                       "players": {"minimum": PLAYERS[game][0], "maximum": PLAYERS[game][1]}}}}
                  for game, schema in options.items()],
    }
    # Idempotency keys: an action's, and a join's (longer: hard to guess). The header
    # is the usual place; the body may carry the same value as `idempotencyKey`.
    action_key = {"type": "string", "pattern": "^[\\x21-\\x7e]{1,128}$"}
    join_key = {"type": "string", "pattern": "^[\\x21-\\x7e]{16,128}$"}
    body_key = ("The Idempotency-Key header's value, sent in the body instead (the header "
                "is the usual place). Both may be sent if equal; if they differ, 400 "
                "INVALID_IDEMPOTENCY_KEY.")
    schemas["JoinBody"] = {
        "type": "object", "anyOf": [{"required": ["name"]}, {"required": ["bot"]}],
        "properties": {"bot": {"type": "string", "enum": ["random", "strong"],
                               "description": "Seats a bot of this level instead of the caller (the "
                                              "answer has no token); `name` may then be left out."},
                       "name": {"type": "string", "minLength": 1, "maxLength": 64,
                                "description": "Shown to the table: printable characters (no "
                                               "control or format characters, no line breaks), "
                                               "at least one of them visible (not all spaces, "
                                               "fillers or combining marks); whitespace at "
                                               "either end is dropped."},
                       "seat": {"type": "integer", "format": "int32",
                                "description": "The seat to take; the lowest open seat if omitted."},
                       "idempotencyKey": {**join_key, "description": body_key}},
    }
    schemas["QuickMatchBody"] = {
        "type": "object", "required": ["game", "players", "name"],
        "properties": {
            "game": schemas["CreateMatchBody"]["properties"]["game"],
            "players": schemas["CreateMatchBody"]["properties"]["players"],
            "options": {**schemas["CreateMatchBody"]["properties"]["options"],
                        "description": "The game's options: a match is found only if its options are "
                                       "exactly these (defaults filled in)."},
            "name": {"type": "string", "minLength": 1, "maxLength": 64,
                     "description": "The caller's name, as for a join."},
            "fillWithBotsAfter": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 3600,
                                  "description": "When the table still has open seats this many seconds "
                                                 "after the call, random bots take them and play starts "
                                                 "(0, the default: wait for people)."},
            "turnSeconds": _TABLE_PROPERTIES["turnSeconds"],
            "onTimeout": _TABLE_PROPERTIES["onTimeout"],
            "idempotencyKey": {**join_key, "description": body_key},
        },
        "allOf": schemas["CreateMatchBody"]["allOf"],
    }
    schemas["ActionBody"] = {
        "type": "object", "required": ["action"],
        "properties": {
            "action": ref(pb.Action),
            "expectedVersion": {"type": "integer", "format": "int32",
                                "description": "If the match is no longer at this version: 409 STALE_VERSION."},
            "seat": {"type": "integer", "format": "int32",
                     "description": "Optional; must be the token's seat (else 403 SEAT_MISMATCH)."},
            "idempotencyKey": {**action_key, "description": body_key},
            "reply": {"type": "string", "enum": ["view", "events"],
                      "description": "view (the default): the answer carries the caller's view and the "
                                     "events; events: the events only (cheaper, for clients that follow "
                                     "the live stream or keep their own state)."},
        },
    }
    schemas["Error"] = {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message", "details"],
                                 "properties": {"code": {"type": "string", "enum": _ERROR_CODES},
                                                "message": {"type": "string"},
                                                "details": {"type": "object",
                                                            "additionalProperties": {"type": "string"}}}}},
    }
    match_id = {"name": "matchId", "in": "path", "required": True, "schema": {"type": "string"}}
    idem = {"name": "Idempotency-Key", "in": "header", "required": False,
            "schema": action_key,
            "description": "1 to 128 printable ASCII characters, no spaces. Scoped to the match "
                           "and seat and kept as long as the match: a retry with the same key and "
                           "body returns the first response and changes nothing; the same key with "
                           "another body is 409 IDEMPOTENCY_KEY_REUSED. A retry of a request "
                           "older than the match's latest action may be 429 TOO_MANY_REPLAYS "
                           "for a few seconds."}
    join_idem = {"name": "Idempotency-Key", "in": "header", "required": False,
                 "schema": join_key,
                 "description": "16 to 128 printable ASCII characters, no spaces, hard to guess (a "
                                "random UUID, say). Scoped to the match and kept as long as it: a "
                                "retry with the same key and body returns the first answer (the same "
                                "seat and token) and changes nothing, even once the match is full; "
                                "the same key with another body is 409 IDEMPOTENCY_KEY_REUSED."}
    # The operations a created match's id leads to (OpenAPI links: tools that
    # follow them can walk from a create to the rest).
    match_links = {operation: {"operationId": operation,
                               "parameters": {"matchId": "$response.body#/matchId"}}
                   for operation in ("getMatch", "joinMatch", "listLegalActions", "submitAction",
                                     "listEvents")}
    # Health replies: {"status"} (and when not ready, an `error` as in Error).
    status = {"type": "object", "required": ["status"],
              "properties": {"status": {"type": "string", "enum": ["ok", "ready", "unavailable"]},
                             "error": schemas["Error"]["properties"]["error"]}}
    seat_auth = [{"seatToken": []}]
    optional_auth = [{"seatToken": []}, {}]
    paths = {
        "/v1/games": {"get": {
            "summary": "The games, their player counts and options", "operationId": "listGames",
            "security": [],
            "responses": {"200": _json(ref(pb.ListGamesResponse)), **_errors(503)}}},
        "/v1/games/{game}/rules": {"get": {
            "summary": "A game's rulebook page", "operationId": "getRules", "security": [],
            "parameters": [{"name": "game", "in": "path", "required": True,
                            "schema": {"type": "string", "enum": sorted(options)}}],
            "responses": {"200": {"description": "The page (CommonMark)",
                                  "content": {"text/markdown": {"schema": {"type": "string"}}}},
                          **_errors(400, 503)}}},
        "/v1/quick-match": {"post": {
            "summary": "Play now: a seat at an open public match of this game, player count and "
                       "options, or at a new one", "operationId": "quickMatch", "security": [],
            "description": "Answers like a join, with the match's id.",
            "parameters": [join_idem],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/QuickMatchBody"}}}},
            "responses": {"200": {**_json(ref(pb.JoinMatchResponse)), "links": match_links},
                          **_errors(400, 409, 413, 503)}}},
        "/v1/matches/{matchId}/replay": {"get": {
            "summary": "A finished match's replay record (see `parlor verify`)", "operationId": "getReplay",
            "security": [], "parameters": [match_id],
            "description": "The seed, the options (in `options`), every action in order and the result: "
                           "enough to re-run the match and check it. 400 MATCH_NOT_FINISHED before the end.",
            "responses": {"200": _json(ref(pb.Replay)), **_errors(400, 404, 503)}}},
        "/v1/matches/{matchId}/seats/{seat}": {"delete": {
            "summary": "Leave the caller's seat", "operationId": "leaveMatch", "security": seat_auth,
            "description": "Before play starts the seat opens again; during play a random bot takes it "
                           "over. The token stops working. Returns the spectator's view.",
            "parameters": [match_id, {"name": "seat", "in": "path", "required": True,
                                      "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}}],
            "responses": {"200": _json(ref(pb.Match)), **_errors(400, 401, 403, 404, 409, 503)}}},
        "/v1/matches": {"get": {
            "summary": "Public matches: waiting for players, or being played", "operationId": "listMatches",
            "security": [],
            "description": "Newest first, a page at a time (`nextPageToken`). Private matches are never "
                           "listed. Each entry's game options are in `options`.",
            "parameters": [
                {"name": "game", "in": "query", "schema": {"type": "string", "enum": sorted(options)},
                 "description": "Only this game's."},
                {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["WAITING", "ACTIVE"]},
                 "description": "WAITING (the default: to join) or ACTIVE (to watch)."},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 100},
                 "description": "At most this many (default 20)."},
                {"name": "pageToken", "in": "query", "schema": {"type": "string"},
                 "description": "The previous page's nextPageToken."}],
            "responses": {"200": _json(ref(pb.ListMatchesResponse)), **_errors(400, 503)}},
            "post": {
            "summary": "Create a match", "operationId": "createMatch", "security": [],
            "description": "Returns the spectator's view. The match is WAITING until every seat is taken.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/CreateMatchBody"}}}},
            "responses": {"200": {**_json(ref(pb.Match)), "links": match_links},
                          **_errors(400, 403, 413, 503)}}},
        "/v1/matches/{matchId}": {"get": {
            "summary": "The caller's view of a match", "operationId": "getMatch",
            "description": "A seat's view with its token, else a spectator's. `result` and `seed` "
                           "appear once the match is FINISHED.",
            "parameters": [match_id], "security": optional_auth,
            "responses": {"200": _json(ref(pb.Match)), **_errors(400, 401, 404, 503)}}},
        "/v1/matches/{matchId}/seats": {"post": {
            "summary": "Take a seat", "operationId": "joinMatch", "security": [],
            "description": "Returns the seat and its token (shown once; again only to a retry with "
                           "the same Idempotency-Key). A taken seat or a full match is 409.",
            "parameters": [match_id, join_idem],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/JoinBody"}}}},
            "responses": {"200": _json(ref(pb.JoinMatchResponse)), **_errors(400, 404, 409, 413, 503)}}},
        "/v1/matches/{matchId}/legal-actions": {"get": {
            "summary": "The caller's legal actions", "operationId": "listLegalActions",
            "description": "Complete; each element can be posted back unchanged as `action`. "
                           "Empty when the seat has nothing to do.",
            "parameters": [match_id], "security": seat_auth,
            "responses": {"200": _json(ref(pb.ListLegalActionsResponse)), **_errors(400, 401, 404, 503)}}},
        "/v1/matches/{matchId}/actions": {"post": {
            "summary": "Act for the caller's seat", "operationId": "submitAction",
            "parameters": [match_id, idem], "security": seat_auth,
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ActionBody"}}}},
            "responses": {"200": _json(ref(pb.SubmitActionResponse)),
                          **_errors(400, 401, 403, 404, 409, 413, 429, 503)}}},
        "/v1/matches/{matchId}/events": {"get": {
            "summary": "The caller's view of the events after a number; live with "
                       "Accept: text/event-stream", "operationId": "listEvents",
            "description": "With `Accept: text/event-stream`, Server-Sent Events: the events after "
                           "`after` (or after `Last-Event-ID`, which wins), then each new one as it "
                           "happens, one message each (`id:` its number, `data:` the event's JSON); "
                           "`: keep-alive` comments when nothing happens. The stream ends after a "
                           "while, on restarts, and when the match is over; reconnect with "
                           "`Last-Event-ID`. 204 once a finished match has nothing left to send.",
            "parameters": [match_id,
                           {"name": "after", "in": "query",
                            "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
                            "description": "Return events numbered after this (default 0)."},
                           {"name": "limit", "in": "query",
                            "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
                            "description": "At most this many; 0 or absent means 10000, the "
                                           "most one page holds (a larger limit gives 10000). "
                                           "Not used by event streams."},
                           {"name": "Last-Event-ID", "in": "header",
                            "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
                            "description": "Event streams: resume after this event number. (Checked, "
                                           "but not used, by a plain list.)"}],
            "security": optional_auth,
            "responses": {"200": {"description": "OK", "content": {
                              "application/json": {"schema": ref(pb.ListEventsResponse)},
                              "text/event-stream": {"schema": {"type": "string"}}}},
                          "204": {"description": "Event stream of a finished match: nothing more"},
                          **_errors(400, 401, 404, 429, 503)}}},
        "/v1/openapi.json": {"get": {"summary": "This document", "operationId": "openapi", "security": [],
                                     "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1")}}},
        "/healthz": {"get": {"summary": "Liveness (never depends on the service or Redis)",
                             "operationId": "healthz", "security": [],
                             "responses": {"200": _json(status, "alive: {\"status\": \"ok\"}")}}},
        "/readyz": {"get": {"summary": "Readiness: the service and its Redis are reachable",
                            "operationId": "readyz", "security": [],
                            "responses": {"200": _json(status, "ready: {\"status\": \"ready\"}"),
                                          "503": _json(status, "not ready: {\"status\": "
                                                               "\"unavailable\", \"error\": {...}}")}}},
        "/metrics": {"get": {"summary": "Prometheus metrics", "operationId": "metrics",
                             "security": [],
                             "responses": {"200": {"description": "text exposition format",
                                                   "content": {"text/plain": {}}}}}},
    }
    # Replies whose game options REST gives in `options` (as a create takes them),
    # not in a field named after the game.
    for name in ("MatchSummary", "Replay"):
        schema = schemas[name]
        game_fields = {field.json_name for field in option_fields}
        schema["properties"] = {key: value for key, value in schema["properties"].items()
                                if key not in game_fields}
        schema["properties"]["options"] = {"anyOf": list(options.values()),
                                           "description": "The game's options, every one with its value "
                                                          "(a first seat left to the draw is left out)."}
        schema["description"] = schema.get("description", "").replace(
            "At most one of " + ", ".join(f"`{f}`" for f in sorted(game_fields, key=list(
                f.json_name for f in option_fields).index)) + " is set.", "").strip()
    # The messages a request carries, and the bodies: the names each takes. (The
    # server also takes the proto field names, e.g. `hidden_winnings`, which
    # propertyNames lists; `properties` names each field once, as replies write
    # it, so that generated clients get one member per field.)
    for name, desc in _reachable(pb.Action.DESCRIPTOR).items():
        _as_request(schemas[name], desc, options=False)
    for name, desc in _reachable(*(field.message_type for field in option_fields)).items():
        _as_request(schemas[name], desc, options=True)
    _as_request(schemas["BotSeat"], pb.BotSeat.DESCRIPTOR, options=True)
    schemas["CreateMatchBody"]["propertyNames"] = {"enum": sorted(
        {*schemas["CreateMatchBody"]["properties"], "turn_seconds", "on_timeout"})}
    schemas["JoinBody"]["propertyNames"] = _names(pb.JoinMatchRequest.DESCRIPTOR)
    schemas["QuickMatchBody"]["propertyNames"] = {"enum": sorted(
        {*schemas["QuickMatchBody"]["properties"], "fill_with_bots_after", "turn_seconds", "on_timeout",
         "idempotency_key"})}
    schemas["ActionBody"]["propertyNames"] = _names(pb.SubmitActionRequest.DESCRIPTOR)
    # (400 on reads: RULES_VERSION_UNAVAILABLE, a match kept under rules this server lacks)
    statuses = {400: "Bad input", 401: "Missing or invalid seat token", 403: "Not allowed",
                404: "No such match", 409: "Conflict (seat taken, stale version, key reused)",
                413: "Body too large",
                429: "Too many live event streams, or retries of older actions answered again",
                503: "Service or store unavailable"}
    return {
        "openapi": "3.1.0",
        "servers": [{"url": "/", "description": "The gateway that serves this document"}],
        "info": {"title": "Parlor", "version": "1",
                 "description": "Small card games as a service. Errors are "
                                "{\"error\": {\"code\", \"message\", \"details\"}} with a stable code."},
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "responses": {**{f"Error{s}": _json({"$ref": "#/components/schemas/Error"}, text)
                             for s, text in statuses.items()},
                          "ErrorOther": _json({"$ref": "#/components/schemas/Error"},
                                              "Any other error, in the same shape: 500 INTERNAL, "
                                              "504 TIMEOUT, 405 METHOD_NOT_ALLOWED, or a request "
                                              "refused before it was read (400 INVALID_HTTP, "
                                              "414 URL_TOO_LONG, ...)")},
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "The token JoinMatch returned for the seat."}},
        },
    }
