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
from typing import Any, Iterable

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from parlor.v1 import parlor_pb2 as pb

from .errors import PROTOCOL_ERRORS

# (A 32-bit integer's range is also given as minimum and maximum: `format` is
# only a note to JSON Schema validators, and the gateway refuses a number out
# of range, 400.)
_INT32 = {"type": "integer", "format": "int32", "minimum": -2**31, "maximum": 2**31 - 1}
_UINT32 = {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 2**32 - 1}
_SCALARS = {
    FieldDescriptor.TYPE_INT32: _INT32,
    FieldDescriptor.TYPE_SINT32: _INT32,
    FieldDescriptor.TYPE_SFIXED32: _INT32,
    FieldDescriptor.TYPE_UINT32: _UINT32,
    FieldDescriptor.TYPE_FIXED32: _UINT32,
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


# An error's code: open, so that the list can grow without breaking clients.
ERROR_CODE = {
    "type": "string", "pattern": "^[A-Z][A-Z0-9_]*$",
    "description": "The stable, upper-case error code. The list grows: a client must accept a code it does "
                   "not know, and act on the HTTP status then. `x-known-codes` lists today's (README.md "
                   "says when each comes).",
    "examples": ["ILLEGAL_ACTION", "MATCH_NOT_FOUND", "STALE_VERSION"],
    "x-known-codes": _ERROR_CODES,
}


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

# String fields that take one of a few words (the games' own: colours, card
# kinds, piles, phases, directions, reasons): their schemas list them as an
# enum, in requests and replies alike. They stay strings in proto/ (proto
# enums would change the JSON values the REST contract fixes); a test keeps
# each list equal to what the engines can emit. "" is listed where a field
# without presence is sent empty: a phase, in the view of a WAITING match,
# which shows nothing of the table yet.
_HI_FU_COLOURS = ("red", "yellow", "green", "blue")
_HEUL_DOCH_SPECIALS = ("catapult", "beach_towel", "carousel", "werewolf")
_HECK_WORDS = ("bleep", "flip", "block")
_HECK_ENDS = ("friends", "clique", "no_critters", "max_rounds")
_WHATEVER_ENDS = ("points", "whatevers", "deck_empty")
STRING_VALUES = {
    "parlor.v1.HiFuOptions.board": ("front", "back"),
    "parlor.v1.HiFuCard.colour": _HI_FU_COLOURS,
    "parlor.v1.HiFuView.phase": ("", "discard", "play", "over"),
    "parlor.v1.HiFuView.lead_colour": _HI_FU_COLOURS,
    "parlor.v1.HiFuTrick.lead_colour": _HI_FU_COLOURS,
    "parlor.v1.HiFuEvent.TrickWon.lead_colour": _HI_FU_COLOURS,
    "parlor.v1.HiFuEvent.GameOver.reason": ("ten_points", "five_rounds"),
    "parlor.v1.HeulDochCard.colour": ("red", "orange", "yellow", "green", "blue", "purple", "black"),
    "parlor.v1.HeulDochCard.special": _HEUL_DOCH_SPECIALS,
    "parlor.v1.HeulDochAction.FaceUp.pile": ("own", "left", "right"),
    "parlor.v1.HeulDochAction.Carousel.direction": ("left", "right"),
    "parlor.v1.HeulDochEvent.SpecialPlayed.special": _HEUL_DOCH_SPECIALS,
    "parlor.v1.HeulDochEvent.SpecialPlayed.direction": ("left", "right"),
    "parlor.v1.WhateverCard.kind": ("point", "whatever", "trash", "copy", "upset"),
    "parlor.v1.WhateverView.phase": ("", "auction", "exchange", "over"),
    "parlor.v1.WhateverView.end_reason": ("", *_WHATEVER_ENDS),
    "parlor.v1.WhateverRowEffect.kind": ("copied", "cleared", "trashed", "moved"),
    "parlor.v1.WhateverEvent.GameEnded.reason": _WHATEVER_ENDS,
    "parlor.v1.HeckCard.kind": ("friendship", "found_egg", "cracked_egg", "runaway", "shoo", "stampede"),
    "parlor.v1.HeckCard.word": ("", *_HECK_WORDS),
    "parlor.v1.HeckCritter.word": _HECK_WORDS,
    "parlor.v1.HeckTrait.trait": ("hiss", "slither", "chomp"),
    "parlor.v1.HeckView.end_reason": _HECK_ENDS,
    "parlor.v1.HeckEvent.DeckReshuffled.deck": ("snake", "heck"),
    "parlor.v1.HeckEvent.EggTaken.cause": ("safe", "found_egg"),
    "parlor.v1.HeckEvent.EggTaken.colour": ("brown", "green"),
    "parlor.v1.HeckEvent.EggReturned.colour": ("brown", "green"),
    "parlor.v1.HeckEvent.CritterBefriended.cause": ("bet", "friendship", "held_friendship"),
    "parlor.v1.HeckEvent.CritterUnclaimed.reason": ("tie", "split", "threshold"),
    "parlor.v1.HeckEvent.CritterLost.cause": ("runaway", "shoo"),
    "parlor.v1.HeckEvent.GameEnded.reason": _HECK_ENDS,
    "parlor.v1.HeckEvent.GameEnded.word": _HECK_WORDS,
}
# The bounds of the games' int and seat options (the engines'; a test keeps
# these to them). A seat option is also held below the match's player count
# (CreateMatchBody's oneOf), which only the whole body shows.
OPTION_BOUNDS = {
    "parlor.v1.HiFuOptions.first_seat": (0, 4),
    "parlor.v1.HeulDochOptions.first_seat": (0, 5),
    "parlor.v1.WhateverOptions.first_seat": (0, 5),
    "parlor.v1.HeckOptions.max_rounds": (1, 1000),
    "parlor.v1.HeckOptions.first_seat": (0, 4),
}
# The options that name a seat (below the player count too).
SEAT_OPTIONS = frozenset(name for name in OPTION_BOUNDS if name.endswith(".first_seat"))
# Other bounds of request fields: a seat number is below the most players any game takes.
_BOUNDS = {**OPTION_BOUNDS, "parlor.v1.BotSeat.seat": (0, MOST_PLAYERS - 1)}
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 86_400  # (service.matches', which a test keeps these to)
MAX_NAME_LENGTH = 64  # (the same)
# A name: no control characters, and something besides whitespace. (The
# service also refuses other characters that do not print or show, by their
# Unicode category, which a pattern portable across validators cannot name.)
_NAME_PATTERN = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"

# The match's own settings in a create's body (also taken inside `options`).
_TABLE_PROPERTIES = {
    "visibility": {"type": ["string", "null"], "enum": ["private", "public", None],
                   "description": "public: listed in the lobby (GET /v1/matches) and found by quick match; "
                                  "private (the default): reachable by its id only."},
    "turnSeconds": {"type": ["integer", "null"], "format": "int32", "minimum": 0, "maximum": MAX_TURN_SECONDS,
                    "not": {"type": "integer", "minimum": 1, "maximum": MIN_TURN_SECONDS - 1},
                    "description": f"Turn clock: seconds each seat has to act ({MIN_TURN_SECONDS} to "
                                   f"{MAX_TURN_SECONDS}; 0, the default: none). A seat that lets it run out "
                                   "gets its game's default move, or a bot (onTimeout). Else 400 "
                                   "INVALID_TURN_SECONDS."},
    "onTimeout": {"type": ["string", "null"], "enum": ["default", "bot", None],
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
    "parlor.v1.OptionInfo.type": ("bool", "int", "string", "seat"),
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
        choices = [_choice_note(field.json_name for field in oneof.fields)
                   for oneof in desc.oneofs if _real(oneof)]  # (said once here, not on each field)
        if description := _description(_COMMENTS.get(desc.full_name), *choices):
            out[name]["description"] = description
        required = [field.json_name for field in desc.fields
                    if not field.has_presence or field.full_name in _ALWAYS_SENT]
        if required:
            out[name]["required"] = required
    return {"$ref": f"#/components/schemas/{name}"}


def _choice_note(names: Iterable[str]) -> str:
    """What a message's description says of a oneof, given its fields' JSON
    names (document() takes it out again where REST moves the choices)."""
    return "At most one of " + ", ".join(f"`{name}`" for name in names) + " is set."


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
    names but its fields' (400), each proto name typed as its JSON twin, null
    for a scalar (read as unset, as the proto3 JSON mapping has it), the
    games' bounds on options, and where every field is one choice of a oneof
    (Action, a game's kinds of action), exactly one (none is 400
    INVALID_ACTION). Options require nothing: left out, an option takes its
    default. An action's fields stay `required` as legal-action lists give
    them (each written out): a request may leave one out, read as its zero
    value, but a client posting listed actions back never does.

    The same schemas describe replies (views show options, legal-action lists
    and replays show actions), where null never comes: a client may read the
    `null` in their types as request-only."""
    if options:
        schema.pop("required", None)
    properties = schema["properties"]
    for field in desc.fields:
        name = field.json_name
        if field.full_name in _BOUNDS:
            low, high = _BOUNDS[field.full_name]
            properties[name] = {**properties[name], "minimum": low, "maximum": high}
        if field.message_type is None and not field.is_repeated:
            properties[name] = _or_null(properties[name])
    schema["propertyNames"] = _names(desc)
    _twins(schema, {field.json_name: field.name for field in desc.fields})
    oneofs = {field.containing_oneof for field in desc.fields}
    if len(oneofs) == 1 and all(_in_oneof(field) for field in desc.fields):
        schema["minProperties"] = schema["maxProperties"] = 1


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, taking null too: a request field the gateway reads as unset
    when null (it then takes its default: the proto3 JSON mapping)."""
    types = schema["type"]
    out = {**schema, "type": [*([types] if isinstance(types, str) else types), "null"]}
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def _twins(schema: dict[str, Any], spellings: dict[str, str]) -> None:
    """Types the proto name of each field of `schema` (`first_seat`) as its
    JSON name (`firstSeat`), which `properties` holds: the server takes
    either, with the same values. They go in patternProperties (one anchored
    name each), which validators and Hypothesis's JSON Schema strategies apply
    like `properties`, while client generators, which mostly ignore it, still
    make one member per field. A body may spell a field one way only (the
    server refuses a field with a presence, or a choice of a oneof, given
    twice), so `not` refuses both at once. `spellings`: JSON name to proto
    name."""
    pairs = sorted((json_name, proto) for json_name, proto in spellings.items()
                   if proto != json_name and json_name in schema["properties"])
    if not pairs:
        return
    schema["patternProperties"] = {f"^{proto}$": schema["properties"][json_name] for json_name, proto in pairs}
    both = [{"required": [json_name, proto]} for json_name, proto in pairs]
    schema["not"] = both[0] if len(both) == 1 else {"anyOf": both}


def _for_players(options: Descriptor, count: int) -> dict[str, Any]:
    """A game's options schema for a match of `count` players: each seat
    option below `count` (in both spellings)."""
    ref = {"$ref": f"#/components/schemas/{_schema_name(options)}"}
    fields = [field for field in options.fields if field.full_name in SEAT_OPTIONS]
    if not fields:
        return ref
    below = {"maximum": count - 1}
    return {"allOf": [ref, {"properties": {field.json_name: below for field in fields},
                            "patternProperties": {f"^{field.name}$": below for field in fields}}]}


def _field_schema(field: FieldDescriptor, out: dict[str, Any]) -> dict[str, Any]:
    if field.message_type is not None:
        return _collect(field.message_type, out)
    if field.enum_type is not None:  # (the zero value, *_UNSPECIFIED, is never sent)
        return {"type": "string", "enum": [v.name for v in field.enum_type.values
                                           if not (v.number == 0 and v.name.endswith("_UNSPECIFIED"))]}
    return dict(_SCALARS[field.type])


def _json(schema_ref: dict[str, Any], description: str = "OK",
          examples: dict[str, Any] | None = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": schema_ref}
    if examples:
        media["examples"] = {name: {"value": value} for name, value in examples.items()}
    return {"description": description, "content": {"application/json": media}}


def _error(code: str, message: str, **details: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}


# An example of each documented error status.
_ERROR_EXAMPLES = {
    400: {"illegal action": _error("ILLEGAL_ACTION", "You have no number card 15 in hand.",
                                   reason="CARD_NOT_IN_HAND", seat="0")},
    401: {"no token": _error("TOKEN_REQUIRED", "Acting needs the seat's token (Authorization: Bearer ...).")},
    403: {"another seat": _error("SEAT_MISMATCH", "The token is seat 0's, not seat 2's.", seat="0")},
    404: {"no such match": _error("MATCH_NOT_FOUND", "There is no match q4mzvn3x7k2hj5lwp6rd2tca.")},
    409: {"stale version": _error("STALE_VERSION", "The match is at version 5, not 3.", currentVersion="5")},
    413: {"too large": _error("BODY_TOO_LARGE", "The request body is over 65536 bytes.")},
    429: {"too many streams": _error("TOO_MANY_STREAMS", "Too many live event streams; try again later.")},
    503: {"store down": _error("STORE_UNAVAILABLE", "The match store is unavailable; retry later.")},
}


def _errors(*statuses: int) -> dict[str, Any]:
    """The statuses an operation answers by design, plus `default` for the rest
    any call can meet (500 INTERNAL, 504 TIMEOUT, 414 URL_TOO_LONG, ...)."""
    return {**{str(s): {"$ref": f"#/components/responses/Error{s}"} for s in statuses},
            "default": {"$ref": "#/components/responses/ErrorOther"}}


# Example values (of the shapes the service gives them).
_MATCH_ID = "q4mzvn3x7k2hj5lwp6rd2tca"
_TOKEN = "pG7dV0m2XhQeR4sLkT9yWc1NzA8bUf3JoI6vE5qYrHw"
_SEED_SHA256 = "9f2c4a1e0b7d6c5f8a3e2d1c0b9a8f7e6d5c4b3a2918f7e6d5c4b3a29180f7e6"
_NAMES = ("Ada", "Bo", "Cy")


def _examples() -> dict[str, dict[str, Any]]:
    """One example request and reply (or more) per operation, by operationId:
    {"request": {name: body}, "reply": {name: body}}. The replies are built as
    the service builds its messages and rendered as the gateway renders them
    (jsonpb.render), so that they have the wire's exact shape; a test holds
    each to its schema. The matches are made up: mostly one 3-player What the
    Heck? match, seen by its seat 0."""
    from .jsonpb import render  # (here: jsonpb needs Flask, which a bare import of this module does not)

    seats = [pb.Seat(seat=i, name=name, joined=True) for i, name in enumerate(_NAMES)]
    table = {"match_id": _MATCH_ID, "game": "what_the_heck", "rules_version": "1", "seed_sha256": _SEED_SHA256,
             "on_timeout": "default", "visibility": "private"}
    options = {"hidden_winnings": False}
    waiting = pb.Match(**table, version=0, status=pb.WAITING, seats=[pb.Seat(seat=i) for i in range(3)],
                       what_the_heck={"options": options})

    def wth_seat(seat: int, **kw: Any) -> dict[str, Any]:
        return {"seat": seat, "hand_size": 15, "score": 0, **kw}

    active = pb.Match(**table, version=3, status=pb.ACTIVE, seats=seats, viewer_seat=0, awaiting=[0, 1, 2],
                      what_the_heck={"options": options, "round": 1, "rounds": 15, "pot": [7], "pot_value": 7,
                                     "prizes_left": 14, "hand": list(range(1, 16)),
                                     "seats": [wth_seat(i) for i in range(3)]})
    acted = pb.Match()
    acted.CopyFrom(active)
    acted.version, acted.awaiting[:] = 4, [1, 2]
    acted.what_the_heck.hand.remove(15)
    acted.what_the_heck.seats[0].MergeFrom(pb.Match(what_the_heck={"seats": [
        {"hand_size": 14, "committed": True, "bid": 15}]}).what_the_heck.seats[0])
    joined = [pb.Event(number=i + 1, version=i + 1, seat_joined={"seat": i, "name": name})
              for i, name in enumerate(_NAMES)]
    events = [*joined, pb.Event(number=4, version=3, match_started={}),
              pb.Event(number=5, version=3, what_the_heck={"round_started": {"round": 1, "turned": 7, "pot": [7]}})]
    bid = pb.Action(what_the_heck={"bid": 15})
    left = pb.Match()
    left.CopyFrom(waiting)
    left.version, left.seats[1].name, left.seats[1].joined = 2, "Bo", True
    summary = render(pb.MatchSummary(
        match_id="h3k7m2vq5x4zjw6rt2pnbya5", game="heck", status=pb.WAITING, players=3, open_seats=2,
        seats=[pb.Seat(seat=0, name="Ada", joined=True), pb.Seat(seat=1), pb.Seat(seat=2)],
        created_at={"seconds": 1_796_400_000}, age_seconds=12, turn_seconds=60, on_timeout="default",
        heck={"long_game": False, "max_rounds": 40}))
    summary["options"] = summary.pop("heck")  # (over REST a game's options are in `options`)
    replay = render(pb.Replay(
        match_id=_MATCH_ID, game="what_the_heck", rules_version="1", players=2,
        seats=[pb.Seat(seat=0, name="Ada", joined=True), pb.Seat(seat=1, name="Strong bot", joined=True,
                                                                bot="strong")],
        seed="ZtS1lHGr7D8tNfh1mQ0Kp6wV3bXc2aJe", seed_sha256=_SEED_SHA256,
        actions=[pb.ReplayAction(seat=0, action=bid, version=3),
                 pb.ReplayAction(seat=1, action=pb.Action(what_the_heck={"bid": 9}), version=4)],
        result={"scores": [31, 14], "winners": [0]}, version=26, what_the_heck=options))
    replay["options"] = replay.pop("whatTheHeck")
    heck_options = [
        pb.OptionInfo(name="long_game", type="bool", description="The longer game: win at 7 critter friends "
                      "or a clique of 4 (instead of 5 friends or a clique of 3).", default={"bool_value": False}),
        pb.OptionInfo(name="max_rounds", type="int", description="The game ends after this round if nobody "
                      "has won; the seats with most friends win.", default={"number_value": 40},
                      minimum=1, maximum=1000),
        pb.OptionInfo(name="first_seat", type="seat", description="The seat holding the first-player marker "
                      "in round 1 (default: drawn).", default={"null_value": 0})]
    return {
        "listGames": {"reply": {"games": render(pb.ListGamesResponse(games=[
            pb.GameInfo(id="heck", title="Heck: A Tiny Card Game", min_players=2, max_players=5,
                        rules_version="1", options=heck_options, rules_url="/v1/games/heck/rules")]))}},
        "getRules": {"reply": {"page": "# Heck: A Tiny Card Game\n\nEvery seat is a lonely snake. ...\n"}},
        "createMatch": {"request": {"default options": {"game": "what_the_heck", "players": 3},
                                    "options, a bot and a clock": {
                                        "game": "heck", "players": 3, "options": {"maxRounds": 20},
                                        "bots": [{"seat": 2, "level": "strong"}], "visibility": "public",
                                        "turnSeconds": 60}},
                        "reply": {"created": render(waiting)}},
        "joinMatch": {"request": {"a person": {"name": "Ada"},
                                  "a bot in seat 2": {"bot": "strong", "seat": 2}},
                      "reply": {"seat taken": render(pb.JoinMatchResponse(seat=0, token=_TOKEN,
                                                                          match_id=_MATCH_ID))}},
        "quickMatch": {"request": {"play now": {"game": "heck", "players": 3, "name": "Ada",
                                                "fillWithBotsAfter": 30}},
                       "reply": {"seated": render(pb.JoinMatchResponse(seat=1, token=_TOKEN,
                                                                       match_id="h3k7m2vq5x4zjw6rt2pnbya5"))}},
        "getMatch": {"reply": {"seat 0's view": render(active)}},
        "listLegalActions": {"reply": {"seat 0's bids": render(pb.ListLegalActionsResponse(
            actions=[pb.Action(what_the_heck={"bid": n}) for n in range(1, 16)], version=3))}},
        "submitAction": {"request": {"a listed action": {"action": render(bid), "expectedVersion": 3}},
                         "reply": {"accepted": render(pb.SubmitActionResponse(
                             match=acted, events=[pb.Event(number=6, version=4, what_the_heck={
                                 "bid_committed": {"seat": 0, "bid": 15}})]))}},
        "listEvents": {"reply": {"from the start": render(pb.ListEventsResponse(events=events, last_event=5))}},
        "leaveMatch": {"reply": {"seat 0 open again": render(left)}},
        "listMatches": {"reply": {"one waiting table": {"matches": [summary], "nextPageToken": ""}}},
        "getReplay": {"reply": {"a finished match (actions cut short)": replay}},
        "openapi": {"reply": {"this document": {"openapi": "3.1.0", "info": {"title": "Parlor", "version": "1"},
                                                "paths": {"...": {}}}}},
        "healthz": {"reply": {"alive": {"status": "ok"}}},
        "readyz": {"reply": {"ready": {"status": "ready"}}},
        "metrics": {"reply": {"a counter": "# TYPE parlor_http_requests_total counter\n"
                                           "parlor_http_requests_total{route=\"/v1/games\",status=\"200\"} 3\n"}},
    }


# Each operation's group, for tools that list them so (tags, in this order).
_TAGS = {
    "games": ("The games and their rules.", ("listGames", "getRules")),
    "matches": ("Creating matches, taking and leaving seats, watching, replays.",
                ("createMatch", "joinMatch", "getMatch", "leaveMatch", "getReplay")),
    "play": ("A seat's play: its legal actions, acting, the events (a seat token).",
             ("listLegalActions", "submitAction", "listEvents")),
    "lobby": ("Public matches: the list, and quick match.", ("listMatches", "quickMatch")),
    "operations": ("Health, metrics and this document.", ("openapi", "healthz", "readyz", "metrics")),
}

_INFO = """Small card games as a service: the REST gateway to Parlor's gRPC rules service.

JSON follows the proto3 JSON mapping: lowerCamelCase names in replies; requests may also use the proto \
field names (`max_rounds` for `maxRounds`), with the same values, one spelling per field. null stands for \
a field left out, where one may be.

**Seat tokens.** Taking a seat (joinMatch, quickMatch) answers with the seat's `token`, shown once. The \
seat's operations (listLegalActions, submitAction, leaveMatch; getMatch and listEvents for the seat's own \
view) want it as the header `Authorization: Bearer <token>` (security scheme `seatToken`). OpenAPI links \
carry only parameters and bodies, so the links from joinMatch and quickMatch name the token's place in \
their `x-seat-token` (`$response.body#/token`) and their description: a tool that follows them sends that \
value as the bearer token. Bots' seats have no token (an empty `token`).

**Errors** are `{"error": {"code", "message", "details"}}` with a stable upper-case `code`. The list of \
codes grows: clients must accept a code they do not know and act on the HTTP status then \
(`x-known-codes` on the Error schema lists today's).

**Closed sets of words** (colours, card kinds, piles, phases, directions, reasons, levels) are `enum`s; \
they grow only with a new rules version or a new document."""


@cache
def document() -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    ref = lambda message: _collect(message.DESCRIPTOR, schemas)  # noqa: E731
    option_fields = pb.CreateMatchRequest.DESCRIPTOR.oneofs_by_name["options"].fields
    options = {field.name: _collect(field.message_type, schemas) for field in option_fields}
    null = {"type": "null"}
    seat = {"type": "integer", "format": "int32", "minimum": 0, "maximum": MOST_PLAYERS - 1}
    schemas["CreateMatchBody"] = {
        "type": "object", "required": ["game", "players"],
        "description": "Fields left out, or null, take their defaults.",
        "properties": {
            "game": {"type": "string", "enum": sorted(options),
                     "description": "Game id, from GET /v1/games."},
            "players": {"type": "integer", "format": "int32",
                        "minimum": FEWEST_PLAYERS, "maximum": MOST_PLAYERS,
                        "description": "Number of seats, within the game's minPlayers and "
                                       "maxPlayers (GET /v1/games)."},
            "options": {"description": "The game's options (see GET /v1/games), "
                                       "e.g. {\"hiddenWinnings\": true}.",
                        "anyOf": [*options.values(), null]},
            "seed": {"type": ["string", "null"], "minLength": 1, "maxLength": MAX_SEED_LENGTH,
                     "description": "Fixes every shuffle. Only on servers run "
                     "with PARLOR_ALLOW_FIXED_SEED=1; otherwise 403 FIXED_SEED_DISABLED."},
            "bots": {"description": "Bots to seat at once: a list of {seat?, level?} (a bot without a "
                                    "seat takes the highest open seat; level random by default), or a "
                                    "count of random bots; at most one per seat and no more than the "
                                    "players (else 400 INVALID_SEAT or INVALID_BOT). A match of bots "
                                    "only starts at once and plays itself.",
                     "oneOf": [{"type": "array", "items": ref(pb.BotSeat), "maxItems": MOST_PLAYERS},
                               {"type": "integer", "minimum": 0, "maximum": MOST_PLAYERS}, null]},
            **_TABLE_PROPERTIES,
        },
        # The player count and options are the named game's, a seat named by an
        # option or a bot is below the player count: one branch per game and
        # player count. (Branches of a oneOf, not if/then, which schema-driven
        # generators such as schemathesis cannot produce values for; each
        # branch only narrows the fields above, so generated clients still
        # take their types from `properties`.)
        "oneOf": [{"properties": {
                      "game": {"const": field.name}, "players": {"const": count},
                      "options": {"anyOf": [_for_players(field.message_type, count), null]},
                      "bots": {"maxItems": count, "maximum": count,
                               "items": {"properties": {"seat": {"maximum": count - 1}}}}}}
                  for field in option_fields
                  for count in range(PLAYERS[field.name][0], PLAYERS[field.name][1] + 1)],
    }
    # Idempotency keys: an action's, and a join's (longer: hard to guess). The header
    # is the usual place, where an empty value is refused (400); the body may carry
    # the same value as `idempotencyKey`, where "" (or null), as for any string field
    # in proto3 JSON, is the field's default: no key.
    action_key = {"type": "string", "pattern": "^[\\x21-\\x7e]{1,128}$"}
    join_key = {"type": "string", "pattern": "^[\\x21-\\x7e]{16,128}$"}
    body_key = ("The Idempotency-Key header's value, sent in the body instead (the header "
                "is the usual place). Both may be sent if equal; if they differ, 400 "
                "INVALID_IDEMPOTENCY_KEY. \"\" or null: no key.")

    def in_body(key: dict[str, Any]) -> dict[str, Any]:
        return {"type": ["string", "null"], "pattern": key["pattern"].replace("^", "^(?:").replace("$", ")?$"),
                "description": body_key}

    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": _NAME_PATTERN}
    schemas["JoinBody"] = {
        "type": "object", "description": "A name, or a bot.",
        "anyOf": [{"required": ["name"], "properties": {"name": {"type": "string"}}},
                  {"required": ["bot"], "properties": {"bot": {"type": "string"}}}],
        "properties": {"bot": {"type": ["string", "null"], "enum": ["random", "strong", None],
                               "description": "Seats a bot of this level instead of the caller (the "
                                              "answer has no token); `name` may then be left out."},
                       "name": {**name, "type": ["string", "null"],
                                "description": "Shown to the table: printable characters (no "
                                               "control or format characters, no line breaks), "
                                               "at least one of them visible (not all spaces, "
                                               "fillers or combining marks); whitespace at "
                                               "either end is dropped."},
                       "seat": {**seat, "type": ["integer", "null"],
                                "description": "The seat to take, below the match's player count (else "
                                               "400 INVALID_SEAT); the lowest open seat if omitted or null."},
                       "idempotencyKey": in_body(join_key)},
    }
    schemas["QuickMatchBody"] = {
        "type": "object", "required": ["game", "players", "name"],
        "description": "Fields left out, or null, take their defaults.",
        "properties": {
            "game": schemas["CreateMatchBody"]["properties"]["game"],
            "players": schemas["CreateMatchBody"]["properties"]["players"],
            "options": {**schemas["CreateMatchBody"]["properties"]["options"],
                        "description": "The game's options: a match is found only if its options are "
                                       "exactly these (defaults filled in)."},
            "name": {**name, "description": "The caller's name, as for a join."},
            "fillWithBotsAfter": {"type": ["integer", "null"], "format": "int32", "minimum": 0, "maximum": 3600,
                                  "description": "When the table still has open seats this many seconds "
                                                 "after the call, random bots take them and play starts "
                                                 "(0, the default: wait for people)."},
            "turnSeconds": _TABLE_PROPERTIES["turnSeconds"],
            "onTimeout": _TABLE_PROPERTIES["onTimeout"],
            "idempotencyKey": in_body(join_key),
        },
        "oneOf": schemas["CreateMatchBody"]["oneOf"],
    }
    schemas["ActionBody"] = {
        "type": "object", "required": ["action"],
        "properties": {
            "action": ref(pb.Action),
            "expectedVersion": {"type": ["integer", "null"], "format": "int32", "minimum": 0, "maximum": 2**31 - 1,
                                "description": "If the match is no longer at this version: 409 STALE_VERSION."},
            "seat": {**seat, "type": ["integer", "null"],
                     "description": "Optional; must be the token's seat (else 403 SEAT_MISMATCH)."},
            "idempotencyKey": in_body(action_key),
            "reply": {"type": ["string", "null"], "enum": ["view", "events", None],
                      "description": "view (the default): the answer carries the caller's view and the "
                                     "events; events: the events only (cheaper, for clients that follow "
                                     "the live stream or keep their own state)."},
        },
    }
    schemas["Error"] = {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message", "details"],
                                 "properties": {"code": ERROR_CODE,
                                                "message": {"type": "string"},
                                                "details": {"type": "object",
                                                            "additionalProperties": {"type": "string"}}}}},
    }
    match_id = {"name": "matchId", "in": "path", "required": True, "schema": {"type": "string"},
                "description": "The match's id, as createMatch returned it (24 characters of a-z and 2-7; "
                               "any other is 404 MATCH_NOT_FOUND)."}
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
    # Links from a join's (or quick match's) reply to the seat's operations: the
    # match and seat are parameters; the token, which a link cannot carry (it
    # goes in a header), is named in `x-seat-token` and in words.
    seat_links = {operation: {
        "operationId": operation,
        "parameters": {"matchId": "$response.body#/matchId",
                       **({"seat": "$response.body#/seat"} if operation == "leaveMatch" else {})},
        "description": "As the seat that was taken: send `Authorization: Bearer {$response.body#/token}`.",
        "x-seat-token": "$response.body#/token"}
        for operation in ("getMatch", "listLegalActions", "submitAction", "listEvents", "leaveMatch")}
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
            "responses": {"200": {**_json(ref(pb.JoinMatchResponse)), "links": seat_links},
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
            "responses": {"200": {**_json(ref(pb.JoinMatchResponse)), "links": seat_links},
                          **_errors(400, 404, 409, 413, 503)}}},
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
    paths["/v1/matches/{matchId}/actions"]["post"]["description"] = (
        "Plays one action for the seat whose token is sent, and answers with the seat's view after it and "
        "the seat's view of the events it brought. The action is the match's game's, in the field named "
        "after it (`{\"whatTheHeck\": {\"bid\": 15}}`); any element of listLegalActions may be sent back "
        "unchanged. Refused, nothing changes: 400 ILLEGAL_ACTION (details `reason` says why, e.g. "
        "NOT_YOUR_TURN or CARD_NOT_IN_HAND), 400 INVALID_ACTION (another game's action), MATCH_NOT_STARTED "
        "or MATCH_FINISHED; 403 SEAT_MISMATCH (`seat` is not the token's); 409 STALE_VERSION (with "
        "`expectedVersion`: details `currentVersion`), IDEMPOTENCY_KEY_REUSED or CONFLICT (busy: retry). "
        "With an Idempotency-Key (header or `idempotencyKey`), a retry of the same request returns the "
        "first answer and changes nothing.")
    # Every parameter's example (an example request is the path with these).
    parameter_examples = {"matchId": _MATCH_ID, "game": "heck", "seat": 0, "status": "WAITING", "limit": 20,
                          "pageToken": "djE6V0FJVElORzoxNzk2NDAwMDAwMDAw", "after": 3, "Last-Event-ID": 3,
                          "Idempotency-Key": "3f1c2a4e-8b7d-4c6a-9e5f-0a1b2c3d4e5f"}
    for ops in paths.values():
        for operation in ops.values():
            if "parameters" in operation:
                operation["parameters"] = [{"example": parameter_examples[parameter["name"]], **parameter}
                                           for parameter in operation["parameters"]]
    tags = {operation: tag for tag, (_, operations) in _TAGS.items() for operation in operations}
    examples = _examples()
    for ops in paths.values():
        for operation in ops.values():
            name = operation["operationId"]
            operation["tags"] = [tags[name]]
            found = examples[name]
            if "request" in found:
                media = operation["requestBody"]["content"]["application/json"]
                media["examples"] = {key: {"value": value} for key, value in found["request"].items()}
            media = next(iter(operation["responses"]["200"]["content"].values()))  # (JSON, or the only kind)
            media["examples"] = {key: {"value": value} for key, value in found["reply"].items()}
    # Replies whose game options REST gives in `options` (as a create takes them),
    # not in a field named after the game.
    game_fields = [field.json_name for field in option_fields]
    for name in ("MatchSummary", "Replay"):
        schema = schemas[name]
        schema["properties"] = {key: value for key, value in schema["properties"].items()
                                if key not in game_fields}
        schema["properties"]["options"] = {"anyOf": list(options.values()),
                                           "description": "The game's options, every one with its value "
                                                          "(a first seat left to the draw is left out)."}
        schema["description"] = schema.get("description", "").replace(_choice_note(game_fields), "").strip()
    # The messages a request carries, and the bodies: the names each takes. (The
    # server also takes the proto field names, e.g. `hidden_winnings`, which
    # propertyNames lists and patternProperties types as their twins;
    # `properties` names each field once, as replies write it, so that
    # generated clients get one member per field.)
    for name, desc in _reachable(pb.Action.DESCRIPTOR).items():
        _as_request(schemas[name], desc, options=False)
    for name, desc in _reachable(*(field.message_type for field in option_fields)).items():
        _as_request(schemas[name], desc, options=True)
    _as_request(schemas["BotSeat"], pb.BotSeat.DESCRIPTOR, options=True)
    for name, desc in (("CreateMatchBody", pb.CreateMatchRequest.DESCRIPTOR),
                       ("QuickMatchBody", pb.QuickMatchRequest.DESCRIPTOR),
                       ("JoinBody", pb.JoinMatchRequest.DESCRIPTOR),
                       ("ActionBody", pb.SubmitActionRequest.DESCRIPTOR)):
        schema = schemas[name]
        spellings = {field.json_name: field.name for field in desc.fields if field.json_name in schema["properties"]}
        schema["propertyNames"] = {"enum": sorted({*schema["properties"], *spellings.values()})}
        _twins(schema, spellings)
    # (400 on reads: RULES_VERSION_UNAVAILABLE, a match kept under rules this server lacks)
    statuses = {400: "Bad input", 401: "Missing or invalid seat token", 403: "Not allowed",
                404: "No such match", 409: "Conflict (seat taken, stale version, key reused)",
                413: "Body too large",
                429: "Too many live event streams, or retries of older actions answered again",
                503: "Service or store unavailable"}
    return {
        "openapi": "3.1.0",
        "servers": [{"url": "/", "description": "The gateway that serves this document"}],
        "info": {"title": "Parlor", "version": "1", "description": _INFO},
        "tags": [{"name": tag, "description": text} for tag, (text, _) in _TAGS.items()],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "responses": {**{f"Error{s}": _json({"$ref": "#/components/schemas/Error"}, text,
                                                examples=_ERROR_EXAMPLES.get(s))
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
