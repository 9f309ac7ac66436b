"""When a request has come in whole, for the gateway worker's event loop.

The gateway's gunicorn worker reads each request into memory in its event loop,
one non-blocking read at a time, and hands the connection to a thread only once
the request is whole (gunicorn_conf.GatewayWorker). So a client that trickles its
request in, however slowly, holds no thread meanwhile. `Request` only says when
to stop waiting; gunicorn still parses the request and refuses a malformed one.
So it stops waiting as soon as waiting cannot help: the client waits for
`100 Continue` before it sends its body, or the request is malformed or over the
limits, and gunicorn or the app should refuse it at once.

It runs in the event loop that serves every connection of the worker, so each
read costs time in proportion to the bytes it brings, never to the bytes before
them: a request trickled in a byte (or a one-byte chunk) at a time must not cost
the square of its length.
"""

from __future__ import annotations

# Most bytes of request line and headers read ahead: far more than any request
# to this API needs (gunicorn refuses a line over 4 KiB, a header over 8 KiB).
HEADERS_LIMIT = 16 * 1024
# The longest request line gunicorn reads (its limit_request_line, 4094 bytes by
# default, which the gateway keeps) and its line end.
LINE_LIMIT = 4094 + 2

_HEX = frozenset(b"0123456789abcdefABCDEF")


class Request:
    """What is known so far of one request coming in on a connection."""

    __slots__ = ("body_limit", "lead", "searched", "body_at", "length", "chunked", "at", "total", "last")

    def __init__(self, body_limit: int) -> None:
        self.body_limit = body_limit  # the largest body the app accepts (PARLOR_MAX_BODY_BYTES)
        self.lead = 0           # empty lines before the request line (gunicorn skips them)
        self.searched = 0       # the bytes before this hold no end of the headers
        self.body_at = -1       # where the body starts, once the headers are in
        self.length = 0         # the Content-Length (not chunked)
        self.chunked = False
        self.at = 0             # chunked: where the next chunk's size line (or the trailers) starts
        self.total = 0          # chunked: the chunks' bytes so far
        self.last = False       # chunked: the last chunk is in; trailers, if any, come next

    def whole(self, received: bytes | bytearray) -> bool:
        """True once `received`, every byte read so far on the connection (the
        same buffer, grown), holds a whole request, or once reading on in the
        event loop is no use (see the module's docstring)."""
        if self.body_at < 0:
            headers = self._headers(received)
            if headers is not None:
                return headers
        if self.chunked:
            return self._chunks(received)
        return len(received) - self.body_at >= self.length

    def _headers(self, received: bytes | bytearray) -> bool | None:
        """None once the headers are in and say a body is to come; else whether to stop."""
        while self.lead < len(received) and received[self.lead] in b"\r\n":
            self.lead += 1
        if self.lead == len(received):
            return len(received) > HEADERS_LIMIT
        start = max(self.lead, self.searched - 3)
        end, blank = received.find(b"\r\n\r\n", start), 4
        if end < 0:
            end, blank = received.find(b"\n\n", start), 2
        if end < 0:
            line_too_long = (self.searched <= self.lead + LINE_LIMIT < len(received)  # (looked at once)
                             and received.find(b"\n", self.lead, self.lead + LINE_LIMIT) < 0)
            self.searched = len(received)
            return line_too_long or len(received) > HEADERS_LIMIT
        if end > HEADERS_LIMIT:
            return True
        self.body_at = self.at = end + blank
        length = None
        for line in bytes(received[self.lead:end]).split(b"\n")[1:]:
            name, colon, value = line.partition(b":")
            name = name.lower()
            if not colon or name != name.strip():  # malformed, or a folded line: gunicorn refuses it
                return True
            if name == b"expect":
                return True  # the body comes only after 100 Continue (or a refusal)
            if name == b"transfer-encoding":
                if self.chunked or value.strip().lower() != b"chunked":
                    return True  # another coding, or several: gunicorn decides
                self.chunked = True
            elif name == b"content-length":
                value = value.strip()
                if length is not None or not value.isdigit():
                    return True
                value = value.lstrip(b"0") or b"0"  # (gunicorn takes leading zeros)
                length = int(value) if len(value) <= 18 else self.body_limit + 1  # (int() refuses 4,300 digits)
        if self.chunked:
            return True if length is not None else None
        if length is None:
            return True  # no body
        if length > self.body_limit:
            return True  # for the app to refuse (413) at once
        self.length = length
        return None

    def _chunks(self, received: bytes | bytearray) -> bool:
        """Walks on from where the last read left off: True once the last chunk
        and the empty line after its trailers are in, or at framing gunicorn
        refuses."""
        if len(received) - self.body_at > 2 * self.body_limit + HEADERS_LIMIT:
            return True  # chunk framing (extensions) far beyond the body: for gunicorn to read on
        while not self.last:
            line_end = received.find(b"\r\n", self.at)
            if line_end < 0:
                return len(received) - self.at > HEADERS_LIMIT
            size = bytes(received[self.at:line_end]).partition(b";")[0].strip()
            if not size or not _HEX.issuperset(size):
                return True
            size = size.lstrip(b"0") or b"0"  # (gunicorn takes leading zeros)
            if len(size) > 16:
                return True  # (far over the limit)
            size = int(size, 16)
            if self.total + size > self.body_limit:
                return True
            if size == 0:
                self.last, self.at = True, line_end + 1  # (at its line feed: the trailers' walk starts there)
                break
            data_end = line_end + 2 + size
            if len(received) < data_end + 2:
                return False  # (the next read starts again at this size line)
            if received[data_end:data_end + 2] != b"\r\n":
                return True
            self.total += size  # (counted once its data is in: a read may end inside it)
            self.at = data_end + 2
        # After the last chunk: trailer lines, then an empty line, each line ending in
        # CRLF (gunicorn refuses a bare LF at once). `at` is the last line feed walked.
        while True:
            lf = received.find(b"\n", self.at + 1)
            if lf < 0:
                break
            if received[lf - 1] != 13 or received[lf - 3:lf - 1] == b"\r\n":
                return True  # a bare LF, or the empty line: the end
            self.at = lf
        return len(received) - self.body_at > self.body_limit + HEADERS_LIMIT


def whole(received: bytes | bytearray, body_limit: int) -> bool:
    """Whether `received` holds a whole request (or reading on is no use), all
    at once: Request(body_limit).whole(received)."""
    return Request(body_limit).whole(received)
