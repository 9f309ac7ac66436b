"""JSON-lines logging for both servers. A request id, when one is being served,
is added to every line. Never log tokens, seeds of live matches or hidden cards:
log ids, codes and timings only."""

from __future__ import annotations

import contextvars
import json
import logging
import random
import re
import sys
import time

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def new_request_id() -> str:
    """A fresh correlation id. Not a secret, so no system entropy per request."""
    return f"{random.getrandbits(64):016x}"


def request_id_from(incoming: str | None) -> str:
    """The caller's request id if it is a sane one (letters, digits, `._:-`, at
    most 64), else a fresh one: ids go into logs, so nothing else is taken."""
    return incoming if incoming and _REQUEST_ID.fullmatch(incoming) else new_request_id()

# Attributes every LogRecord has; anything else was passed in `extra` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = request_id.get()
        if rid:
            line["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class UndecodableMetadata(logging.Filter):
    """gRPC logs bytes it cannot decode as UTF-8 (a metadata value, say) as an
    ERROR with a traceback, quoting them: an `authorization` header's token with
    a stray byte would reach the log, and any caller could fill it with
    tracebacks. The line keeps its logger and loses the value. (The call goes
    on: gRPC reads the value as Latin-1, so such a token is simply not valid.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("grpc._cython") and record.getMessage().startswith("Invalid encoding on"):
            record.msg, record.args = "gRPC met bytes that are not UTF-8 (not logged)", ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(UndecodableMetadata())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
