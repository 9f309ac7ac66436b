"""JSON in and out, by the proto3 JSON mapping: lowerCamelCase names on output;
input accepts lowerCamelCase and proto field names alike."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from flask import request
from google.protobuf import json_format
from google.protobuf.message import Message

from .errors import ApiError

M = TypeVar("M", bound=Message)


def body_object() -> dict[str, Any]:
    """The request body as a JSON object (413 past the size limit)."""
    raw = request.get_data(cache=False)
    try:
        data = json.loads(raw) if raw.strip() else None
    except (ValueError, UnicodeDecodeError) as exc:
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
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def _plain(text: str) -> str:
    """ParseError text without the proto package noise."""
    return text.replace('Message type "parlor.v1.', 'Type "').replace("parlor.v1.", "")
