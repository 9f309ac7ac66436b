"""JSON in and out, by the proto3 JSON mapping: lowerCamelCase names on output;
input accepts lowerCamelCase and proto field names alike. orjson reads and
writes the JSON text (several times faster than the standard library, and
strict: no NaN, no integers past 64 bits)."""

from __future__ import annotations

import base64
import math
import re
from functools import cache
from typing import Any, TypeVar

import orjson
from flask import current_app, request
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from werkzeug.exceptions import RequestEntityTooLarge

from parlor.common.config import MIN_BODY_BYTES
from parlor.common.errors import MESSAGE_BYTES, clip, lower_camel
from parlor.v1 import parlor_pb2 as pb

from .deadlines import DEADLINES
from .errors import UNREAD_BODY, ApiError

M = TypeVar("M", bound=Message)
# The per-game fields of CreateMatchRequest.options: named after the game ids
# (over REST a game's options go in `options` instead).
OPTION_FIELDS = frozenset(field.name for field in
                          pb.CreateMatchRequest.DESCRIPTOR.oneofs_by_name["options"].fields)


def body_object(raw: bytes | None = None) -> dict[str, Any]:
    """The request body (`raw`, if read_body() has read it) as a JSON object
    (413 past the size limit)."""
    if raw is None:
        raw = read_body()
    try:
        data = orjson.loads(raw) if raw.strip() else None
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("str is not valid UTF-8"):  # orjson's words for any bytes that are not UTF-8
            raise ApiError(400, "INVALID_JSON", "The body is not valid JSON: it is not UTF-8 text "
                           "(JSON is sent as UTF-8, not compressed).") from None
        raise ApiError(400, "INVALID_JSON", f"The body is not valid JSON: {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_JSON", "The body must be a JSON object.")
    return data


def read_body() -> bytes:
    """The request body's bytes; 413 past the size limit, 400 when it cannot
    be read."""
    try:
        raw = request.get_data(cache=False)
        DEADLINES.disarm(request.environ.get("gunicorn.socket"))  # the request is in
        if len(raw) >= MIN_BODY_BYTES and _cut_at_limit(len(raw)):  # (most bodies are far shorter)
            raise RequestEntityTooLarge()
        if _shorter_than_announced(len(raw)):
            raise EOFError()
    except Exception as exc:
        request.environ[UNREAD_BODY] = True  # so the connection closes after the reply
        if isinstance(exc, RequestEntityTooLarge):
            raise
        if BlockingIOError in (type(exc), type(exc.__context__)):  # (Werkzeug's ClientDisconnected)
            # a read on a thread stalled (gunicorn_conf.when_ready): counted and
            # logged as the event loop's cuts are
            DEADLINES.on_stall()
        # the server could not read it: bad chunked encoding, cut short
        raise ApiError(400, "INVALID_HTTP", "The request body could not be read "
                       "(malformed chunked encoding, or shorter than announced).") from None
    return raw


def _shorter_than_announced(read: int) -> bool:
    """Whether the client ended its side of the connection before sending the
    Content-Length it announced (gunicorn then gives what came, without error)."""
    length = request.environ.get("CONTENT_LENGTH")
    return bool(length) and length.isdigit() and read < int(length)


def _cut_at_limit(read: int) -> bool:
    """Whether werkzeug stopped reading a body at the size limit with more to
    come: a chunked body has no length to check up front."""
    environ = request.environ
    return (not environ.get("CONTENT_LENGTH") and read >= current_app.config["MAX_CONTENT_LENGTH"]
            and bool(environ["wsgi.input"].read(1)))


def parse(data: dict[str, Any], message: M) -> M:
    """`data` (a JSON object) parsed into the empty `message`, as
    json_format.ParseDict does it. Plain bodies (known names; ints, bools and
    strings of the right type and range; objects and arrays of them) take a
    fast path, about ten times quicker; anything else (enums, nulls, numbers
    as strings, errors) goes to ParseDict, which also words every error."""
    fields = _fast_fields(data, message.DESCRIPTOR)
    if fields is not None:
        try:
            message.MergeFrom(type(message)(**fields))
            return message
        except (TypeError, ValueError):
            pass  # let ParseDict decide, and explain
    _check_shapes(data, message.DESCRIPTOR, message.DESCRIPTOR.name)
    try:
        return json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise ApiError(400, "INVALID_ARGUMENT", _plain(str(exc))) from None


def _check_shapes(data: dict[str, Any], descriptor, path: str) -> None:
    """Refuses a JSON value of the wrong shape for its field, naming the place:
    an array for a single value, a single value for a repeated field, an object
    for a number or string, anything but an object for a message, and a number
    for an integer field that is not a whole number in its range. ParseDict
    words these in Python's terms ("int() argument must be ..."), or, for an
    empty array or string where a message belongs, reads an empty message, so
    that `{"pass": []}` would pass as `{"pass": {}}`. null is left to it (unset),
    and so are well-known types and maps, which have JSON forms of their own."""
    for key, value in data.items():
        field = _fields_by_either_name(descriptor).get(key)
        if field is None or value is None or _own_json_form(field):
            continue
        where = f"{path}.{field.name}"
        if field.is_repeated and type(value) is not list:
            raise ApiError(400, "INVALID_ARGUMENT", f"{_where(where)} must be an array, not {_json_kind(value)}.")
        for item in value if field.is_repeated else [value]:
            if field.message_type is not None and type(item) is dict:
                _check_shapes(item, field.message_type, where)
            elif field.message_type is not None or type(item) in (list, dict) or _not_its_scalar(field, item):
                each = " in each element" if field.is_repeated else ""
                raise ApiError(400, "INVALID_ARGUMENT", f"{_where(where)} must be {_wanted(field)}{each}, "
                                                        f"not {_json_kind(item)}.")
            elif field.type in _RANGES and type(item) in (bool, int, float):
                _check_whole_number(where, field, item)
            elif field.type in _RANGES and type(item) is str:  # (proto3 JSON takes "12" for 12)
                try:
                    if item != item.strip():  # (int() takes " 12", ParseDict does not)
                        raise ValueError(item)
                    number = int(item)
                except ValueError:
                    raise ApiError(400, "INVALID_ARGUMENT", f"{_where(where)} must be a whole number, "
                                                            f"not {_quoted(item)}.") from None
                _check_whole_number(where, field, number)


def _not_its_scalar(field, value: Any) -> bool:
    """A bool field given anything but true/false, or a string field anything but a string."""
    return (field.type == FieldDescriptor.TYPE_BOOL and type(value) is not bool
            or field.type == FieldDescriptor.TYPE_STRING and type(value) is not str)


def _check_whole_number(where: str, field, value: bool | int | float) -> None:
    """A JSON number for an integer field: whole (2.0 passes, as the proto3
    JSON mapping has it), in the field's range, and not true or false (which
    Python would take for 1 and 0)."""
    if type(value) is bool or (type(value) is float and not value.is_integer()):
        raise ApiError(400, "INVALID_ARGUMENT", f"{_where(where)} must be a whole number, "
                                                f"not {orjson.dumps(value).decode()[:_QUOTED_CHARS]}.")
    low, high = _RANGES[field.type]
    if not low <= value < high:
        raise ApiError(400, "INVALID_ARGUMENT", f"{_where(where)} must be a whole number from {low} "
                                                f"to {high - 1}.")


def _quoted(text: str) -> str:
    """A string the caller sent, as JSON, cut to _QUOTED_CHARS."""
    return orjson.dumps(text if len(text) <= _QUOTED_CHARS else text[:_QUOTED_CHARS - 1] + "\u2026").decode()


def _own_json_form(field) -> bool:
    message = field.message_type
    return message is not None and (message.full_name.startswith("google.protobuf.")
                                    or message.GetOptions().map_entry)


def _wanted(field) -> str:
    if field.message_type is not None:
        return "a JSON object"
    if field.type == FieldDescriptor.TYPE_STRING:
        return "a string"
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "true or false"
    if field.type == FieldDescriptor.TYPE_ENUM:
        return "a name or number"
    if field.type in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        return "a number"
    if field.type == FieldDescriptor.TYPE_BYTES:
        return "a base64 string"
    return "a whole number"


@cache
def _fields_by_either_name(descriptor) -> dict[str, Any]:
    return {**{field.json_name: field for field in descriptor.fields}, **descriptor.fields_by_name}


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    return {list: "an array", str: "a string", bool: "true or false", dict: "an object"}.get(
        type(value), "a number")


_NOT_PLAIN = object()
_RANGES = {
    FieldDescriptor.TYPE_INT32: (-2**31, 2**31), FieldDescriptor.TYPE_SINT32: (-2**31, 2**31),
    FieldDescriptor.TYPE_SFIXED32: (-2**31, 2**31), FieldDescriptor.TYPE_UINT32: (0, 2**32),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32), FieldDescriptor.TYPE_INT64: (-2**63, 2**63),
    FieldDescriptor.TYPE_SINT64: (-2**63, 2**63), FieldDescriptor.TYPE_SFIXED64: (-2**63, 2**63),
    FieldDescriptor.TYPE_UINT64: (0, 2**64), FieldDescriptor.TYPE_FIXED64: (0, 2**64),
}


def _fast_fields(data: dict[str, Any], descriptor) -> dict[str, Any] | None:
    """Keyword arguments for the message's constructor, or None if `data` is
    not plain enough to be sure they mean what ParseDict would make of it."""
    plan = _parse_plan(descriptor)
    if plan is None:
        return None
    out: dict[str, Any] = {}
    oneofs = set()
    for key, value in data.items():
        entry = plan.get(key)
        if entry is None:
            return None
        name, kind, repeated, oneof = entry
        if name in out or (oneof is not None and oneof in oneofs):
            return None  # the same field twice, or two members of a oneof
        if oneof is not None:
            oneofs.add(oneof)
        if repeated:
            if type(value) is not list:
                return None
            converted = [_fast_value(item, kind) for item in value]
            if any(item is _NOT_PLAIN for item in converted):
                return None
        else:
            converted = _fast_value(value, kind)
            if converted is _NOT_PLAIN:
                return None
        out[name] = converted
    return out


def _fast_value(value: Any, kind: Any) -> Any:
    if kind is str or kind is bool:
        return value if type(value) is kind else _NOT_PLAIN
    if type(kind) is tuple:  # an integer type's [low, high)
        return value if type(value) is int and kind[0] <= value < kind[1] else _NOT_PLAIN
    if kind is None or type(value) is not dict:
        return _NOT_PLAIN
    fields = _fast_fields(value, kind)
    return _NOT_PLAIN if fields is None else fields


@cache
def _parse_plan(descriptor):
    """{JSON name and proto name: (proto name, kind, repeated, oneof name)}, where
    kind is str, bool, an integer range, a message descriptor, or None for
    what only ParseDict handles; None for messages that are not plain."""
    if descriptor.full_name.startswith("google.protobuf.") or descriptor.GetOptions().map_entry:
        return None
    plan = {}
    for field in descriptor.fields:
        if field.message_type is not None:
            kind = field.message_type
        elif field.type == FieldDescriptor.TYPE_STRING:
            kind = str
        elif field.type == FieldDescriptor.TYPE_BOOL:
            kind = bool
        else:
            kind = _RANGES.get(field.type)  # None: enums, floats, bytes
        oneof = field.containing_oneof.name if field.containing_oneof is not None else None
        entry = (field.name, kind, field.is_repeated, oneof)
        plan[field.json_name] = plan[field.name] = entry
    return plan


def render(message: Message) -> dict[str, Any]:
    """The proto3 JSON form of a message, as json_format.MessageToDict(message,
    always_print_fields_with_no_presence=True) gives it, several times faster
    (every response goes through here): a plan per message type, made once."""
    steps = _plan(message.DESCRIPTOR)
    return _slow(message) if steps is None else _render(message, steps)


def _render(message: Message, steps) -> dict[str, Any]:
    out = {}
    for name, json_name, presence, convert, repeated in steps:
        if presence and not message.HasField(name):
            continue  # unset optional field or sub-message: left out
        value = getattr(message, name)
        if convert is None:
            out[json_name] = value[:] if repeated else value  # [:] copies to a list, 4x faster than list()
        elif repeated:
            out[json_name] = [convert(v) for v in value]
        else:
            out[json_name] = convert(value)
    return out


_INT64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64}
_FLOAT = {FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE}


@cache
def _plan(descriptor):
    """Per field, in field-number order: (name, JSON name, has presence,
    converter or None, repeated); None for messages with map fields, which
    json_format renders. Fields without presence are always printed, with
    their defaults, as always_print_fields_with_no_presence asks."""
    steps = []
    for field in sorted(descriptor.fields, key=lambda f: f.number):
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                return None
            if field.message_type.full_name == "google.protobuf.Value":
                convert = _value
            elif field.message_type.full_name.startswith("google.protobuf."):
                convert = _slow  # well-known types have JSON forms of their own
            else:
                convert = _renderer(field.message_type)
        elif field.enum_type is not None:
            names = {v.number: v.name for v in field.enum_type.values}
            convert = lambda v, names=names: names.get(v, v)  # noqa: E731
        elif field.type in _INT64:
            convert = str
        elif field.type == FieldDescriptor.TYPE_BYTES:
            convert = lambda v: base64.b64encode(v).decode()  # noqa: E731
        elif field.type in _FLOAT:
            convert = _float
        else:
            convert = None  # ints, bools, strings: as they are
        presence = field.has_presence and not field.is_repeated
        steps.append((field.name, field.json_name, presence, convert, field.is_repeated))
    return tuple(steps)


def _renderer(descriptor):
    """render() for one message type, its plan looked up on first use (message
    types may refer to each other, or to themselves) and kept."""
    plan = []

    def convert(message):
        if not plan:
            plan.append(_plan(descriptor))
        steps = plan[0]
        return _slow(message) if steps is None else _render(message, steps)
    return convert


def _float(value: float):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _slow(message: Message):
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def _value(message: Message):
    """A google.protobuf.Value; whole numbers as integers (json_format writes
    40.0 for an int option's default 40, which typed clients reject as an int)."""
    value = _slow(message)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _plain(text: str) -> str:
    """ParseError text in the API's words: no proto package names, no Python
    wording. Text that fits none of the patterns passes unchanged."""
    text = text.replace('Message type "parlor.v1.', 'Type "').replace("parlor.v1.", "")
    text = _FIELDS_LISTED.sub(lambda m: "; its fields are " + ", ".join(
        name.strip(" '") for name in m.group(1).split(",")) + ".", text)
    text = text.replace("expected string or bytes-like object, got 'int'", "expected a string, got a number")
    text = _ONEOF_TWICE.sub(_oneof_twice, text)
    text = _TYPE_AT.sub(lambda m: f"{_where(m.group(2))} {m.group(1)}", text)
    text = _NOT_AN_INT.sub(lambda m: f"expected a whole number, got {m.group(1)}", text)
    text = _QUOTED.sub(_cut_quote, text)
    inner = _PARSING_FIELD.sub("", text)
    if "`" in inner or inner.startswith("The body"):  # it names the place itself
        text = inner
    return clip(_FULL_STOPS.sub(".", text), MESSAGE_BYTES)  # one stop per nested level, before


# A value the caller sent, quoted in a message: at most _QUOTED_CHARS of it (as
# the service quotes values, service.games.base.shown).
_QUOTED_CHARS = 40
_QUOTED = re.compile(r""""[^"]*(?:"|$)|'[^']*(?:'|$)""")  # ParseDict may have cut the end off


def _cut_quote(match: re.Match) -> str:
    quoted = match.group(0)
    mark, inner = quoted[0], quoted[1:].rstrip(quoted[0])
    return quoted if len(inner) <= _QUOTED_CHARS else f"{mark}{inner[:_QUOTED_CHARS - 1]}\u2026{mark}"


def _where(path: str) -> str:
    """A message path in ParseError ("SubmitActionRequest.action.heck") as the
    place in the JSON body (`action.heck`; the body itself for the top). Over
    REST a game's options sit in `options`, not in a field named after it."""
    parts = path.split(".")
    if parts[0] == "CreateMatchRequest" and parts[1:2] and parts[1] in OPTION_FIELDS:
        parts[1] = "options"
    inner = [lower_camel(part) for part in parts[1:]]
    return "`" + ".".join(inner) + "`" if inner else "The body"


_TYPE_AT = re.compile(r'Type "\w+" (.*?) at "([\w.]+)"')
_FIELDS_LISTED = re.compile(r"\.?\n Available Fields\(except extensions\): \"\[(.*)\]\"")
_ONEOF_TWICE = re.compile(r'should not have multiple "(\w+)" oneof fields')


def _oneof_twice(match: re.Match) -> str:
    name = match.group(1)
    if name.startswith("_"):  # the hidden oneof of an optional field: it came in both spellings
        field = name[1:]
        return f'has the field "{lower_camel(field)}" twice (as {field} and {lower_camel(field)})'
    return f'may have only one of its "{name}" fields'


_FULL_STOPS = re.compile(r"\.\.+$")
_PARSING_FIELD = re.compile(r"^(?:Failed to parse \w+ field: )+")  # ParseDict's, once per level
_NOT_AN_INT = re.compile(r"invalid literal for int\(\) with base 10: ('.*)")  # the end may be cut off
