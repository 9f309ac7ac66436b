"""Live events as Server-Sent Events: `GET /v1/matches/{id}/events` with
`Accept: text/event-stream`, relayed from the service's WatchEvents stream.

Each event is one SSE message: `id:` its number, `data:` the same JSON as an
element of the JSON events list. A comment line is sent as a keep-alive when
nothing happened for PARLOR_STREAM_KEEPALIVE_SECONDS. The response ends after
PARLOR_STREAM_SECONDS, when the service or gateway restarts, or when the match
is over and every event was sent; a browser's EventSource then reconnects by
itself with `Last-Event-ID`, which this endpoint reads (it wins over `after`),
so nothing is missed. Once the match is over and nothing is left to send the
answer is 204, which tells EventSource to stop.

An open stream holds one of the worker's threads (gunicorn gthread); a worker
keeps a quarter of its threads (at least one) for other requests, so it serves
at most stream_slots(PARLOR_GATEWAY_THREADS) streams at once (gateway/__init__.py)
and answers 429 TOO_MANY_STREAMS past that. A thread blocked on the service cannot see its client hang up, so
one watcher thread per worker (Hangups) watches the sockets of open streams
and ends a stream as soon as its client is gone, freeing its slot at once
rather than at the next failed write.
"""

from __future__ import annotations

import os
import selectors
import socket
import threading
from typing import Callable, Iterator

import grpc
import orjson
from flask import Response, current_app, request

from parlor.v1 import parlor_pb2 as pb

from .errors import ApiError
from .jsonpb import render

MEDIA_TYPE = "text/event-stream"
RETRY_MS = 1000  # how long EventSource waits before reconnecting
KEEPALIVE = b": keep-alive\n\n"

# The gunicorn worker this process runs as (gunicorn_conf.post_worker_init sets
# it): a stream that opens while it is stopping ends at once.
worker = None

# The streams open in this process (ended at once when the worker stops: end_all).
_open: set["_Relay"] = set()
_open_lock = threading.Lock()


def end_all() -> None:
    """Ends every open stream now (the worker is stopping): each ends as if the
    service had ended it, and its client resumes elsewhere with Last-Event-ID.
    A stream waiting for the match's next event would otherwise hold its thread,
    and the worker's exit, until its next keep-alive message."""
    with _open_lock:
        relays = list(_open)
    for relay in relays:
        relay.replies.cancel()


def end_all_soon() -> None:
    """end_all() on a thread of its own: safe from a signal handler, which
    must not wait for the locks of a gRPC call."""
    threading.Thread(target=end_all, name="end-streams", daemon=True).start()


def wanted() -> bool:
    """Whether the caller asks for an event stream: its Accept header names
    text/event-stream (parameters aside), at least as high as it ranks JSON."""
    accept = request.accept_mimetypes
    named = max((q for value, q in accept if value.partition(";")[0].strip().lower() == MEDIA_TYPE),
                default=0)
    return named > 0 and named >= accept["application/json"]


class Hangups:
    """Calls a stream's `on_hangup` when its client closes the connection (or
    it breaks): one thread per process, blocked in a selector over the client
    sockets of open streams. A stream's client sends nothing once its request
    is read, so a readable socket means end of file, a reset, or (rarely) bytes
    sent anyway, after which the socket is no longer watched."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = None

    def _start(self) -> None:  # in the process that uses it (gunicorn forks)
        selector = selectors.DefaultSelector()
        try:
            self._wake_r, self._wake_w = socket.socketpair()
        except OSError:
            selector.close()
            raise
        self._selector = selector
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        threading.Thread(target=self._run, name="stream-hangups", daemon=True).start()
        self._pid = os.getpid()

    def start(self) -> None:
        """Starts the watcher in this process, if not yet (gunicorn_conf's
        post_worker_init does it as a worker starts: its selector and wake-up
        pair take three file descriptors, which a worker that has run out of
        them could not open for its first stream)."""
        with self._lock:
            if self._pid != os.getpid():
                self._start()

    def watch(self, sock: socket.socket, on_hangup: Callable[[], None]) -> None:
        """Watches `sock`; if the watcher cannot start (out of file descriptors),
        the stream goes unwatched, and a hang-up is seen at its next write."""
        try:
            self.start()
        except OSError:
            return
        with self._lock:
            self._selector.register(sock, selectors.EVENT_READ, on_hangup)
        self._wake_w.send(b"w")  # the selector thread picks the new socket up

    def forget(self, sock: socket.socket) -> None:
        with self._lock:
            if self._pid != os.getpid():
                return  # this process has watched nothing yet
            try:
                self._selector.unregister(sock)
            except (KeyError, ValueError):  # never watched, or already let go
                pass

    def _run(self) -> None:
        while True:
            ready = self._selector.select()
            with self._lock:
                for key, _ in ready:
                    if key.fileobj is self._wake_r:
                        self._wake_r.recv(4096)
                        continue
                    if self._selector.get_map().get(key.fd) is not key:
                        continue  # forgotten meanwhile
                    self._selector.unregister(key.fileobj)
                    try:
                        gone = not key.fileobj.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                    except BlockingIOError:
                        continue
                    except OSError:  # reset
                        gone = True
                    except ValueError:  # a TLS socket cannot peek: cannot tell
                        continue
                    if gone:
                        key.data()


HANGUPS = Hangups()


def open_stream(call, request_message: pb.WatchEventsRequest,
                slots: threading.BoundedSemaphore) -> Response:
    """Starts `call` (a function making the WatchEvents call) and answers with
    its stream, if one of this worker's `slots` is free. Errors before the
    first message are ordinary JSON errors."""
    if not slots.acquire(blocking=False):
        raise ApiError(429, "TOO_MANY_STREAMS", "Too many live event streams are open here; "
                       "try again shortly, or read events without `Accept: text/event-stream`.")
    replies = None
    try:
        replies = call(request_message)
        first = next(replies, None)
    except BaseException:
        if replies is not None:
            replies.cancel()
        slots.release()
        raise
    if first is None or (first.end and not first.events):
        replies.cancel()
        slots.release()
        nothing = current_app.response_class(status=204)
        del nothing.headers["Content-Type"]
        return nothing
    relay = _Relay(first, replies, slots, request.environ.get("gunicorn.socket"))
    return Response(relay, mimetype=MEDIA_TYPE, direct_passthrough=True,
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


class _Relay:
    """The response body: SSE frames from the service's replies. close() (the
    server calls it however the response ends, even unread) ends the call and
    frees the slot."""

    def __init__(self, first: pb.WatchEventsResponse, replies, slots: threading.BoundedSemaphore,
                 sock: socket.socket | None) -> None:
        self.first, self.replies, self.slots, self.sock = first, replies, slots, sock
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield b"retry: %d\n\n" % RETRY_MS + _frame(self.first)
        if self.first.end:
            return
        if self.sock is not None:  # the headers and first message are out: now watch
            HANGUPS.watch(self.sock, self.replies.cancel)
        with _open_lock:
            _open.add(self)
        if worker is not None and not worker.alive:  # stopping since (end_all may have missed it)
            return
        try:
            for reply in self.replies:
                yield _frame(reply)
                if reply.end or (worker is not None and not worker.alive):
                    return
        except grpc.RpcError:
            return  # the service went away or the stream hit its deadline: the client resumes

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            with _open_lock:
                _open.discard(self)
            try:
                if self.sock is not None:
                    HANGUPS.forget(self.sock)
                self.replies.cancel()
            finally:
                self.slots.release()  # whatever happens, the slot comes back


def _frame(reply: pb.WatchEventsResponse) -> bytes:
    if not reply.events:
        return KEEPALIVE
    return b"".join(b"id: %d\ndata: %s\n\n" % (event.number, orjson.dumps(render(event)))
                    for event in reply.events)
