"""gateway/readahead.py: when the gateway's event loop stops reading a request
and hands it to a thread (the servers' side is in tests/integration/test_bad_input.py)."""

import random
import time

import pytest

from parlor.gateway.readahead import HEADERS_LIMIT, LINE_LIMIT, Request, whole

LIMIT = 65_536
POST = b"POST /v1/matches HTTP/1.1\r\nHost: x\r\n"
CHUNKED = POST + b"Transfer-Encoding: chunked\r\n\r\n"


@pytest.mark.parametrize("received", [
    b"",
    b"GET /v1/games HTTP/1.1\r\nHost: x",
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\n",
    POST + b"Content-Length: 5\r\n\r\n",
    POST + b"Content-Length: 5\r\n\r\nabc",
    CHUNKED,
    CHUNKED + b"5\r\nhel",
    CHUNKED + b"5\r\nhello\r\n",
    CHUNKED + b"5\r\nhello\r\n0\r\n",
    CHUNKED + b"5;ext=1\r\nhello\r\n0\r\nTrailer: v\r\n",
    POST + b"Transfer-Encoding: Chunked\r\n\r\n",
    b"\r\n" + POST + b"Content-Length: 24\r\n\r\nab",            # empty lines first: gunicorn skips them
    POST + b"Content-Length: 0000000000000000024\r\n\r\nab",      # leading zeros: gunicorn takes them
    CHUNKED + b"00000000000000018\r\nab",
    b"\r\n\r\n",
    b"GET /" + b"a" * (LINE_LIMIT - 20),                         # a long line, within gunicorn's limit
    b"GET /" + b"a" * 4000 + b" HTTP/1.1\r\nX: " + b"b" * 4000,  # (the limit is the line's, not the headers')
], ids=lambda r: repr(r[:90]))
def test_an_unfinished_request_is_read_on(received):
    assert not whole(received, LIMIT)


@pytest.mark.parametrize("received", [
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /v1/games HTTP/1.0\n\n",
    POST + b"Content-Length: 5\r\n\r\nabcde",
    POST + b"Content-Length: 5\r\n\r\nabcdeGET /v1/games HTTP/1.1\r\n",  # the next one pipelined
    CHUNKED + b"5\r\nhello\r\n0\r\n\r\n",
    CHUNKED + b"5;ext=1\r\nhello\r\n0\r\nTrailer: v\r\n\r\n",
    b"\r\n\n\r\nGET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n",
    POST + b"Content-Length: 0002\r\n\r\nab",
], ids=repr)
def test_a_whole_request_is_handed_over(received):
    assert whole(received, LIMIT)


@pytest.mark.parametrize("received", [
    POST + b"Expect: 100-continue\r\nContent-Length: 5\r\n\r\n",  # its body comes after 100 Continue
    POST + b"Content-Length: %d\r\n\r\nab" % (LIMIT + 1),           # 413 at once
    CHUNKED + b"%x\r\n" % (LIMIT + 1),
    POST + b"Content-Length: x\r\n\r\nab",
    POST + b"Content-Length: 5\r\nContent-Length: 5\r\n\r\nab",
    POST + b"Content-Length : 5\r\n\r\nab",
    POST + b" folded\r\nContent-Length: 5\r\n\r\nab",
    POST + b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nab",
    POST + b"Transfer-Encoding: bogus\r\n\r\n",
    POST + b"Transfer-Encoding: gzip, chunked\r\n\r\n",
    CHUNKED + b"zz\r\n",
    CHUNKED + b"5\r\nhelloXX",
    b"GET / HTTP/1.1\r\nX: " + b"a" * HEADERS_LIMIT,
    b"GET /" + b"a" * LINE_LIMIT,                 # a request line over gunicorn's limit: 400 at once
    CHUNKED + b"5\r\nhello\r\n0\r\nTrailer: v\n",  # a bare LF in the trailers: 400 at once
    CHUNKED + b"5\r\nhello\r\n0\r\n\n",
], ids=lambda r: repr(r[:90]))
def test_reading_on_is_no_use_so_gunicorn_and_the_app_answer_at_once(received):
    assert whole(received, LIMIT)


SAMPLES = [
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n",
    POST + b"Content-Length: 12\r\n\r\n{\"a\": \"bc\"}",
    CHUNKED + b"5;ext=1\r\nhello\r\n3\r\n\r\n\r\n\r\n0\r\nTrailer: v\r\n\r\n",
    CHUNKED + b"2\r\nhi\r\n0\r\n\r\nGET /v1/games HTTP/1.1\r\n\r\n",
    CHUNKED + b"2\r\nhiXX",
    POST + b"Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
    CHUNKED + b"2\r\nhi\r\n0\r\nA: b\r\nTrailer: v\nmore",
    b"GET /" + b"a" * (LINE_LIMIT + 10),
    b"\r\n\r\n" + POST + b"Content-Length: 003\r\n\r\nabc",
    CHUNKED + b"0002\r\nhi\r\n00\r\n\r\n",
]


@pytest.mark.parametrize("request_", SAMPLES, ids=lambda r: repr(r[:60]))
def test_reading_on_from_where_the_last_read_left_off_agrees_with_reading_all_at_once(request_):
    """The worker keeps one Request per connection and asks it after every
    read, however the bytes were split: its answer at each point is the one
    for all the bytes so far read at once."""
    splits = [[1] * len(request_)] + [
        [random.Random(n).randint(1, 9) for _ in range(len(request_))] for n in range(5)]
    for sizes in splits:
        reading, received, at = Request(LIMIT), bytearray(), 0
        for size in sizes:
            if at >= len(request_):
                break
            received += request_[at:at + size]
            at += size
            done = reading.whole(received)
            assert done == whole(bytes(received), LIMIT), (sizes[:10], bytes(received))
            if done:
                break


def test_a_request_trickled_in_tiny_chunks_costs_time_in_proportion_to_its_length():
    """Each read looks only at the bytes it brings: a body of 60,000 one-byte
    chunks, read 6 bytes at a time, takes well under a second (walking the
    body from its first chunk at every read would take many minutes, all of it
    in the event loop that serves every other connection of the worker)."""
    body = b"1\r\nx\r\n" * 60_000 + b"0\r\n\r\n"
    reading, received = Request(1 << 20), bytearray(CHUNKED)  # (a limit the body is under)
    assert not reading.whole(received)
    started = time.process_time()
    for at in range(0, len(body), 6):
        received += body[at:at + 6]
        if reading.whole(received):
            break
    assert len(received) == len(CHUNKED) + len(body)
    assert time.process_time() - started < 10


def test_a_content_length_too_long_for_int_is_handed_over_not_raised():
    """int() refuses strings of over 4,300 digits; raised in the worker's event
    loop, that killed the worker and every connection on it."""
    assert whole(POST + b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n", LIMIT)
    assert whole(CHUNKED + b"f" * 5000 + b"\r\n", LIMIT)


def test_a_chunk_read_in_pieces_counts_once_towards_the_limit():
    """A chunk whose data comes over several reads: its size counted at every
    read made four 16 KiB chunks (a 64 KiB body, within the limit) look past it
    after a few reads, and the request went to a thread half-read."""
    body = b"".join(b"4000\r\n" + b"x" * 0x4000 + b"\r\n" for _ in range(4)) + b"0\r\n\r\n"
    reading, received = Request(LIMIT), bytearray(CHUNKED)
    for at in range(0, len(body), 1000):
        received += body[at:at + 1000]
        assert reading.whole(received) == (at + 1000 >= len(body)), at
