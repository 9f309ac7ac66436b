"""JSON in and out, by the proto3 JSON mapping: lowerCamelCase names on output;
input accepts lowerCamelCase and proto field names alike. orjson reads and
writes the JSON text (several times faster than the standard library, and
strict: no NaN, no integers past 64 bits)."""

from __future__ import annotations

import base64
import math
from functools import cache
from typing import Any, TypeVar

import orjson
from flask import request
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .errors import ApiError

M = TypeVar("M", bound=Message)


def body_object() -> dict[str, Any]:
    """The request body as a JSON object (413 past the size limit)."""
    raw = request.get_data(cache=False)
    try:
        data = orjson.loads(raw) if raw.strip() else None
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "INVALID_JSON", f"The body is not valid JSON: {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "INVALID_JSON", "The body must be a JSON object.")
    return data


def parse(data: dict[str, Any], message: M) -> M:
    try:
        return json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise ApiError(400, "INVALID_ARGUMENT", _plain(str(exc))) from None


def render(message: Message) -> dict[str, Any]:
    """The proto3 JSON form of a message, as json_format.MessageToDict(message,
    always_print_fields_with_no_presence=True) gives it, several times faster
    (every response goes through here): a plan per message type, made once."""
    plan = _plan(message.DESCRIPTOR)
    if plan is None:
        return _slow(message)
    by_field, defaults = plan
    out = {}
    for field, value in message.ListFields():
        json_name, convert, repeated = by_field[field.number]
        if convert is None:
            out[json_name] = list(value) if repeated else value
        elif repeated:
            out[json_name] = [convert(v) for v in value]
        else:
            out[json_name] = convert(value)
    for json_name, default in defaults:
        if json_name not in out:
            out[json_name] = [] if default is _EMPTY_LIST else default
    return out


_INT64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64}
_FLOAT = {FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE}
_EMPTY_LIST = object()


@cache
def _plan(descriptor):
    """({field number: (json name, converter or None, repeated)}, [(json name,
    default)] for fields printed when unset); None for messages with map fields,
    which json_format renders."""
    by_field, defaults = {}, []
    for field in descriptor.fields:
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                return None
            # well-known types (google.protobuf.Value, ...) have JSON forms of their own
            slow = field.message_type.full_name.startswith("google.protobuf.")
            convert = _slow if slow else render
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
        by_field[field.number] = (field.json_name, convert, field.is_repeated)
        if field.is_repeated:
            defaults.append((field.json_name, _EMPTY_LIST))
        elif not field.has_presence:
            value = field.default_value
            defaults.append((field.json_name, convert(value) if convert else value))
    return by_field, tuple(defaults)


def _float(value: float):
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _slow(message: Message):
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def _plain(text: str) -> str:
    """ParseError text without the proto package noise."""
    return text.replace('Message type "parlor.v1.', 'Type "').replace("parlor.v1.", "")
