"""gateway/readahead.py: when the gateway's event loop stops reading a request
and hands it to a thread (the servers' side is in tests/integration/test_bad_input.py)."""

import pytest

from gateway.readahead import HEADERS_LIMIT, whole

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
], ids=repr)
def test_an_unfinished_request_is_read_on(received):
    assert not whole(received, LIMIT)


@pytest.mark.parametrize("received", [
    b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /v1/games HTTP/1.0\n\n",
    POST + b"Content-Length: 5\r\n\r\nabcde",
    POST + b"Content-Length: 5\r\n\r\nabcdeGET /v1/games HTTP/1.1\r\n",  # the next one pipelined
    CHUNKED + b"5\r\nhello\r\n0\r\n\r\n",
    CHUNKED + b"5;ext=1\r\nhello\r\n0\r\nTrailer: v\r\n\r\n",
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
], ids=lambda r: repr(r[:90]))
def test_reading_on_is_no_use_so_gunicorn_and_the_app_answer_at_once(received):
    assert whole(received, LIMIT)
