"""When a request has come in whole, for the gateway worker's event loop.

The gateway's gunicorn worker reads each request into memory in its event loop,
one non-blocking read at a time, and hands the connection to a thread only once
the request is whole (gunicorn_conf.GatewayWorker). So a client that trickles its
request in, however slowly, holds no thread meanwhile. `whole` only says when to
stop waiting; gunicorn still parses the request and refuses a malformed one. So
it stops waiting as soon as waiting cannot help: the client waits for
`100 Continue` before it sends its body, or the request is malformed or over the
limits, and gunicorn or the app should refuse it at once.
"""

from __future__ import annotations

# Most bytes of request line and headers read ahead: far more than any request
# to this API needs (gunicorn refuses a line over 4 KiB, a header over 8 KiB).
HEADERS_LIMIT = 16 * 1024


def whole(received: bytes | bytearray, body_limit: int) -> bool:
    """True once `received`, the bytes read so far on a connection, hold a whole
    request (request line, headers and body), or once reading on in the event
    loop is no use (see the module's docstring). `body_limit` is the largest
    body the app accepts (PARLOR_MAX_BODY_BYTES)."""
    end, blank = received.find(b"\r\n\r\n"), 4
    if end < 0:
        end, blank = received.find(b"\n\n"), 2
    if end < 0:
        return len(received) > HEADERS_LIMIT
    if end > HEADERS_LIMIT:
        return True
    body = len(received) - end - blank
    length, chunked = None, False
    for line in bytes(received[:end]).split(b"\n")[1:]:
        name, colon, value = line.partition(b":")
        name = name.lower()
        if not colon or name != name.strip():  # malformed, or a folded line: gunicorn refuses it
            return True
        if name == b"expect":
            return True  # the body comes only after 100 Continue (or a refusal)
        if name == b"transfer-encoding":
            if chunked or value.strip().lower() != b"chunked":
                return True  # another coding, or several: gunicorn decides
            chunked = True
        elif name == b"content-length":
            value = value.strip()
            if length is not None or not value.isdigit():
                return True
            length = int(value)
    if chunked:
        return length is not None or _chunks_done(received, end + blank, body_limit)
    if length is None:
        return True  # no body
    return body >= length or length > body_limit


def _chunks_done(received: bytes | bytearray, at: int, body_limit: int) -> bool:
    """Whether a chunked body starting at `at` has come in to its last chunk and
    the empty line after its trailers, or has framing that gunicorn refuses."""
    total = 0
    while True:
        line_end = received.find(b"\r\n", at)
        if line_end < 0:
            return len(received) - at > HEADERS_LIMIT
        size = bytes(received[at:line_end]).partition(b";")[0].strip()
        if not size or any(c not in b"0123456789abcdefABCDEF" for c in size):
            return True
        total += int(size, 16)
        if total > body_limit:
            return True
        at = line_end + 2
        if int(size, 16) == 0:  # the last chunk: then trailers, if any, and an empty line
            return (received.startswith(b"\r\n", at) or received.find(b"\r\n\r\n", at - 2) >= 0
                    or len(received) - at > HEADERS_LIMIT)
        at += int(size, 16)
        if len(received) < at + 2:
            return False
        if received[at:at + 2] != b"\r\n":
            return True
        at += 2
