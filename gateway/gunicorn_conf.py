"""gunicorn settings for the gateway, from the same environment variables as
everything else (see the README's configuration table)."""

import errno
import fcntl
import inspect
import io
import os
import queue
import selectors
import shutil
import signal
import socket
import struct
import sys
import tempfile
import time
from functools import partial

import gunicorn
from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.workers import base, gthread

from parlor.common import logs
from parlor.common.config import Settings, host_port
from parlor.gateway import stream_slots, streams
from parlor.gateway.deadlines import DEADLINES
from parlor.gateway.readahead import Request

_settings = Settings.from_env()

# Prometheus multiprocess mode: workers write their metrics here; the directory is
# emptied when gunicorn starts (an emptyDir outlives a container restart).
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip():  # (empty counts as unset)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.path.join(tempfile.gettempdir(),
                                                          f"parlor-gateway-metrics-{_settings.http_port}")

bind = [host_port(_settings.host, _settings.http_port)]
workers = _settings.gateway_workers
threads = _settings.gateway_threads


# How long a client may take to send a whole request (headers and body), however
# it trickles it in; a single stall is cut shorter, at PARLOR_CLIENT_TIMEOUT_SECONDS.
REQUEST_SECONDS = 3 * _settings.client_timeout


SILENT_SECONDS = 5  # how long a new connection may wait before sending anything

ACCEPT_PAUSE_SECONDS = 0.5  # no accepting for this long after running out of file descriptors
IDLE_SHED = 8  # most idle kept-alive connections closed each time it runs out (out_of_files)

READ_SIZE = 64 * 1024  # most bytes one read in the event loop takes
# Most bytes of unfinished requests a worker's event loop holds at once; past it, a
# request goes to a thread as it is, which reads the rest (as gunicorn does it).
READ_AHEAD_BUDGET = 16 * 1024 * 1024

# Closing a connection after an answer with "Connection: close" (RFC 9112 section
# 9.6, as gunicorn's close_graceful does it): the writing side is shut, then what
# the client still sends is read and dropped until it closes too, so that those
# bytes do not reset the connection before the client has read the answer. The
# linger ends once LINGER_SECONDS pass with nothing sent, LINGER_MOST_SECONDS in
# all, or LINGER_DRAIN bytes, whichever comes first; then the connection is
# closed, reset if the client is still sending.
# Many clients (Python's urllib, http.client and requests among them) write a
# whole body before they read anything: one sending a body too large sees its
# 413 only if the gateway takes that body to its end. So the drain takes a few
# MiB, at least a body twice over the limit (gunicorn's drains 64 KiB: such
# clients see a broken pipe), as web servers' lingering closes do; the time
# bound keeps a client that sends on and on from holding the connection.
LINGER_SECONDS = 2
LINGER_MOST_SECONDS = 5
LINGER_DRAIN = max(8 * 1024 * 1024, 2 * _settings.max_body_bytes)


# The gunicorn releases GatewayWorker is tested with, from the first up to (not
# including) the second; pyproject.toml pins the same range. It builds on
# gthread's internals, which gunicorn may change in any release: CI also runs
# the gateway's tests on the newest gunicorn (.ci/run). (26.0 to 27.0.0 have
# all it builds on but fail the gateway's tests elsewhere: once a worker is
# stopping, a request that comes on a kept-alive connection is dropped, not
# answered; 26 also answers a request line over the limit 400, not 414, and
# its drain with live streams open took over 15 s.)
TESTED_GUNICORN = ((27, 0, 1), (28,))


def _missing_machinery(worker) -> list[str]:
    """What of gthread's internals GatewayWorker builds on this gunicorn lacks,
    or has in another shape (nothing: it reads requests in its event loop)."""
    missing = [name for name in ("pending_conns", "keepalived_conns", "poller", "nr_conns")
               if not hasattr(worker, name)]
    missing += [f"ThreadWorker.{name}" for name in ("enqueue_req", "on_pending_socket_readable",
                                                    "on_client_socket_readable", "murder_pending",
                                                    "set_accept_enabled")
                if not hasattr(gthread.ThreadWorker, name)]  # (not the worker: it has its own)
    for owner, name, parameters in ((gthread.ThreadWorker, "accept", ["listener"]),
                                    (gthread.ThreadWorker, "finish_request", ["conn", "fs"]),
                                    (gthread.TConn, "close", ["graceful"])):
        try:
            shape = list(inspect.signature(getattr(owner, name)).parameters)[1:]  # (past self)
        except (AttributeError, TypeError, ValueError):
            shape = None
        # (gunicorn passes accept's and finish_request's by position, close's by name)
        if shape is None or (shape != parameters if name == "close" else len(shape) != len(parameters)):
            missing.append(f"{owner.__name__}.{name}({', '.join(parameters)})")
    return missing


def _release(version: tuple) -> str:
    return ".".join(str(part) for part in version)


def _leading_numbers(version) -> tuple:
    """(27, 1) of (27, 1, "rc1"): comparable with TESTED_GUNICORN."""
    numbers = []
    for part in version:
        if not isinstance(part, int):
            break
        numbers.append(part)
    return tuple(numbers)


class GatewayWorker(gthread.ThreadWorker):
    """gunicorn's gthread worker, except that a connection takes a thread only
    once its request is in, whole.

    A new connection waits in the worker's poller until it sends something, as a
    kept-alive one does, rather than on a thread: gunicorn 27 hands each new
    connection to a thread that waits up to 5 s for its first bytes, so a few
    dozen silent connections (a port scan, browsers' pre-connects) stalled
    everyone. A new connection that stays silent is closed after SILENT_SECONDS
    (or the keep-alive time, if shorter): a long keep-alive, for a proxy's pooled
    connections, is no reason to let silent strangers wait as long.

    Then the event loop reads the request (new and kept-alive connections alike)
    with non-blocking reads until it is whole (gateway/readahead.py), and hands
    it to a thread with the bytes read: a client trickling its request in holds
    no thread, however many such clients there are. One that stalls for
    PARLOR_CLIENT_TIMEOUT_SECONDS, or has not sent its whole request within
    REQUEST_SECONDS, is cut off: its connection's reading side is shut, and a
    thread answers what came as gunicorn answers a request cut short (nothing
    for unfinished headers, 400 for an unfinished body). The rest of a request
    pipelined behind another, cut short by the end of a read, is read in the
    event loop the same way (finish_request). Bodies sent after `100 Continue`,
    requests past READ_AHEAD_BUDGET and requests on a stopping worker are read
    by the thread, as gunicorn does it, under the same limits
    (gateway/deadlines.py).

    Closing a connection after its last answer lingers until the client closes
    its side too (see LINGER_SECONDS); in gunicorn's worker that wait blocked the
    event loop, so a few clients that never close stalled everyone. Here the
    event loop waits for them beside everything else.

    With a gunicorn whose worker lacks that machinery (or that serves TLS or
    HTTP/2, which this gateway does not configure), connections are accepted
    and read as gunicorn does it, and a warning says so: every request still
    has REQUEST_SECONDS to come in whole (handle), but it waits on a thread
    meanwhile, as do silent new connections. A gunicorn outside TESTED_GUNICORN
    that has all of it is used as the tested ones are, with a warning."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading_conns: set = set()
        self.lingering_conns: set = set()
        self.quitting = False  # (handle_quit)
        self.accept_paused_until = 0.0  # (out_of_files)
        self.files_warned_at = -10.0
        self.read_ahead_bytes = 0
        missing = _missing_machinery(self)
        self.reads_ahead = (not missing and not self.cfg.is_ssl
                            and getattr(self.cfg, "http2_cleartext", "off") == "off")
        from parlor.gateway.metrics import CONNECTIONS_CUT, CUT_REASONS  # (PROMETHEUS_MULTIPROC_DIR is set by now)

        for reason in CUT_REASONS:
            CONNECTIONS_CUT.labels(reason)  # shown from the start, at 0
        DEADLINES.on_cut = partial(_log_cut, self.log, "too_slow")
        DEADLINES.on_stall = partial(_log_cut, self.log, "stalled")
        tested = (f"gunicorn {_release(TESTED_GUNICORN[0])} up to, not including, "
                  f"{_release(TESTED_GUNICORN[1])}")
        if missing:
            self.log.warning("gunicorn %s's gthread worker lacks what the gateway's worker builds on (%s; "
                             "it is tested with %s): requests are read on threads, as gunicorn does it, "
                             "so slow clients can hold them", gunicorn.__version__, ", ".join(missing), tested)
        elif not TESTED_GUNICORN[0] <= _leading_numbers(gunicorn.version_info) < TESTED_GUNICORN[1]:
            self.log.warning("the gateway's worker is tested with %s, not %s; it runs as with those",
                             tested, gunicorn.__version__)

    # ---- stopping: open event streams end at once (gateway/streams.py) ----

    def init_signals(self):
        """gunicorn's, then the stops the master sent while this worker was
        starting. Until now the worker ran the master's signal handlers,
        inherited through the fork, which only queue a signal (in this
        process's copy of the master's queue: pre_fork, post_fork): a SIGTERM
        or SIGINT that came then was lost, and the worker served on until the
        master killed it after PARLOR_DRAIN_SECONDS."""
        super().init_signals()
        queued = getattr(self, "master_signals", None)
        if queued is None:
            return
        came = []
        try:
            for _ in range(getattr(self, "signals_queued_at_fork", 0)):
                queued.get_nowait()  # the master's own, queued before the fork
            while True:
                came.append(queued.get_nowait())
        except queue.Empty:
            pass
        if signal.SIGINT in came or signal.SIGQUIT in came:
            self.handle_quit(signal.SIGQUIT, None)
        elif signal.SIGTERM in came:
            self.handle_exit(signal.SIGTERM, None)

    def handle_exit(self, sig, frame):  # SIGTERM: drain
        super().handle_exit(sig, frame)
        streams.end_all_soon()

    def handle_quit(self, sig, frame):  # SIGINT, SIGQUIT: stop now
        """gunicorn's worker's quick stop, but only once, and without its
        tpool.shutdown(). Ctrl-C in a terminal reaches a worker twice (SIGINT
        from the terminal, SIGQUIT from the master); a second handler run
        inside the first one's tpool.shutdown() waited for ever for the pool's
        lock (as would any run while the loop was in tpool.submit()), until the
        master killed the worker after PARLOR_DRAIN_SECONDS. The interpreter's
        exit shuts the pool down anyway."""
        if self.quitting:
            return
        self.quitting = True
        self.alive = False  # (before end_all: a stream opening meanwhile sees it and ends)
        streams.end_all_soon()
        base.Worker.handle_quit(self, sig, frame)

    def handle_request(self, req, conn):
        alive = self.alive
        try:
            return super().handle_request(req, conn)
        finally:
            if alive and not self.alive:  # its last request (gunicorn's max_requests): stopping
                streams.end_all_soon()

    def accept(self, *args):
        if not self.reads_ahead:
            return super().accept(*args)  # (in whatever shape this gunicorn's takes)
        (listener,) = args
        try:
            client, address = listener.accept()
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE):
                self.out_of_files()
                return
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = _Conn(self, self.cfg, client, address, listener.getsockname())  # non-blocking
        conn.timeout = time.monotonic() + min(self.cfg.keepalive, SILENT_SECONDS)
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ,
                             partial(self.on_pending_socket_readable, conn))

    def out_of_files(self):
        """accept() found the worker's limit on open files reached (gunicorn's
        worker ends there, with every connection it holds). The longest idle
        kept-alive connections are closed (up to IDLE_SHED of them; a client,
        or a proxy's pool, opens another when it needs one), and the waiting
        connection is accepted at the loop's next turn; with none idle, new
        connections wait in the listen backlog for ACCEPT_PAUSE_SECONDS, while
        those open finish and close. (A worker whose files are held by idle
        kept-alive connections made new clients wait out the keep-alive time.)
        Only connections with nothing come on them are closed: one whose
        request (or end) has come is left to its event, which may be in this
        very turn of the loop (closed here, it found its socket gone)."""
        now = time.monotonic()
        shed = 0
        for conn in list(self.keepalived_conns):  # (the oldest first)
            if shed >= IDLE_SHED:
                break
            try:
                conn.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                continue  # something came: not idle
            except BlockingIOError:
                pass
            except OSError:
                continue
            self.keepalived_conns.remove(conn)
            self.poller.unregister(conn.sock)
            self.nr_conns -= 1
            conn.close()
            shed += 1
        if not shed:
            self.accept_paused_until = now + ACCEPT_PAUSE_SECONDS
            super().set_accept_enabled(False)
        if now >= self.files_warned_at + 10:  # (at most a line every 10 s)
            self.files_warned_at = now
            self.log.warning("out of file descriptors (%d connections open): %s; raise the limit on "
                             "open files (ulimit -n)", self.nr_conns,
                             f"closed {shed} idle kept-alive connections" if shed else
                             f"not accepting for {ACCEPT_PAUSE_SECONDS:.1f} s")

    def set_accept_enabled(self, enabled):
        if enabled and time.monotonic() < self.accept_paused_until:
            return  # (gunicorn's loop asks again at its next turn)
        super().set_accept_enabled(enabled)

    def handle(self, conn):
        # Log lines about this request, before the app names it, carry no request
        # id (not the id of whatever request this thread served before).
        logs.request_id.set("")
        # The whole request must be in within REQUEST_SECONDS (see gateway/deadlines.py).
        sock = conn.sock
        DEADLINES.arm(sock, REQUEST_SECONDS)
        try:
            received = getattr(conn, "read_ahead", b"")
            if received:  # read in the event loop: gunicorn's parser reads these bytes first
                conn.read_ahead = b""
                sock.setblocking(True)
                conn.init()  # (a plain HTTP/1 connection: nothing to read for it)
                conn.parser.unreader.chunk = _ReadAhead(conn.parser.unreader, received)
            keepalive = super().handle(conn)
            if getattr(conn, "cut", False):
                # Cut off in the event loop (murder_pending): the reading side was shut,
                # but Linux still delivers what the client sends after that, such as
                # the rest of a body the thread took for ended. Those bytes must not
                # be read as a next request: the connection closes after this answer.
                return False
            return keepalive
        finally:
            DEADLINES.disarm(sock)
            unreader = getattr(conn.parser, "unreader", None)
            if unreader is not None and isinstance(unreader.__dict__.get("chunk"), _ReadAhead):
                # What is left (requests pipelined behind this one) goes where gunicorn
                # looks for it, after what its parser read and gave back (unread() would
                # put it first), and the socket is the source again.
                leftover = unreader.__dict__.pop("chunk").rest()
                if leftover:
                    unreader.buf.seek(0, io.SEEK_END)
                    unreader.buf.write(leftover)

    # ---- reading requests in the event loop (see the class's docstring) ----

    def on_pending_socket_readable(self, conn, client):
        if not self.reads_ahead:
            return super().on_pending_socket_readable(conn, client)
        conn.data_ready = True
        self.start_reading(conn, self.pending_conns)

    def on_client_socket_readable(self, conn, client):
        if not self.reads_ahead:
            return super().on_client_socket_readable(conn, client)
        self.start_reading(conn, self.keepalived_conns)

    def start_reading(self, conn, waiting):
        """Reads on a connection that has become readable, taken off the poller
        and out of `waiting` (new or kept-alive connections). Most requests come
        whole in this first read and go to a thread at once; the others wait in
        the poller for more."""
        self.poller.unregister(conn.sock)
        waiting.remove(conn)
        self.read_on(conn)

    def read_on(self, conn, received: bytes = b""):
        """Reads a request in the event loop, `received` (bytes of it already
        read) first; hands it to a thread once it is whole."""
        now = time.monotonic()
        conn.received = bytearray(received)
        self.read_ahead_bytes += len(received)
        conn.request = Request(_settings.max_body_bytes)
        conn.polled = False
        conn.read_due = now + REQUEST_SECONDS
        conn.stall_due = now + _settings.client_timeout
        self.reading_conns.add(conn)
        if self.on_request_bytes(conn, conn.sock):
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_request_bytes, conn))
            conn.polled = True

    def finish_request(self, *args):
        """As gunicorn's, except for a connection kept alive with more already
        read (pipelined behind the request answered). The rest of a request cut
        short by the end of a read is read in the event loop: gunicorn hands it
        to a thread at once, which a client sending the rest slowly held. A
        whole request goes to a thread at once, as gunicorn 27 does it (26 put
        the connection back in the poller, where it waited for bytes that had
        already come)."""
        if not self.reads_ahead:
            return super().finish_request(*args)  # (gunicorn 23 passes the future alone)
        conn, fs = args
        if self.alive and not fs.cancelled() and fs.exception() is None and fs.result() is True:
            unreader = conn.parser.unreader
            buffered = unreader.buf.getvalue()
            if buffered:
                if self.whole(Request(_settings.max_body_bytes), buffered):
                    self.enqueue_req(conn)
                else:
                    unreader.buf = io.BytesIO()  # (taken out: read on from here)
                    conn.sock.setblocking(False)
                    self.read_on(conn, buffered)
                return
        return super().finish_request(conn, fs)

    def on_request_bytes(self, conn, sock) -> bool:
        """Reads what has come; True while the request is still coming."""
        try:
            data = sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:  # reset by the client
            data = None
        if not data and not conn.received:  # closed (or reset) without sending anything
            self.stop_reading(conn)
            self.nr_conns -= 1
            conn.close()
            return False
        if data:
            conn.received += data
            self.read_ahead_bytes += len(data)
            conn.stall_due = time.monotonic() + _settings.client_timeout
            if not (self.whole(conn.request, conn.received) or self.read_ahead_bytes > READ_AHEAD_BUDGET):
                return True
        self.hand_over(conn)  # whole, or the client has stopped sending: gunicorn answers
        return False

    def whole(self, request: Request, received) -> bool:
        """request.whole(received); an error in it (a bug of ours) must not end
        the event loop: the request goes to gunicorn as it is, which decides."""
        try:
            return request.whole(received)
        except Exception:  # noqa: BLE001
            self.log.exception("reading a request ahead failed; handing it over as it is")
            return True

    def stop_reading(self, conn):
        if conn.polled:
            self.poller.unregister(conn.sock)
        self.reading_conns.discard(conn)
        self.read_ahead_bytes -= len(conn.received)

    def hand_over(self, conn):
        self.stop_reading(conn)
        conn.read_ahead, conn.received = bytes(conn.received), bytearray()
        self.enqueue_req(conn)

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c in self.lingering_conns if min(c.linger_due, c.quiet_due) <= now]:
            self.end_linger(conn)
        for conn in [c for c in self.reading_conns if min(c.read_due, c.stall_due) <= now]:
            if conn.stall_due <= now:
                _log_cut(self.log, "stalled")
            else:
                _log_cut(self.log, "too_slow")
            conn.cut = True  # (closed after its answer: handle)
            try:
                conn.sock.shutdown(socket.SHUT_RD)  # the thread reads what came, then the end
            except OSError:
                pass
            self.hand_over(conn)

    # ---- closing connections (see LINGER_SECONDS) ----

    def linger(self, conn):
        sock = conn.sock
        try:
            sock.setblocking(False)
            sock.shutdown(socket.SHUT_WR)  # the client sees the end of the answer now
        except OSError:
            util.close(sock)
            return
        now = time.monotonic()
        conn.linger_due, conn.quiet_due = now + LINGER_MOST_SECONDS, now + LINGER_SECONDS
        conn.drained = 0
        self.lingering_conns.add(conn)
        self.poller.register(sock, selectors.EVENT_READ, partial(self.on_lingering_bytes, conn))
        self.nr_conns += 1  # counted again, as gunicorn's blocking linger was: a stopping worker waits for it

    def on_lingering_bytes(self, conn, sock):
        try:
            data = sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        conn.drained += len(data)
        conn.quiet_due = time.monotonic() + LINGER_SECONDS
        if not data or conn.drained >= LINGER_DRAIN:
            self.end_linger(conn)

    def end_linger(self, conn):
        self.poller.unregister(conn.sock)
        self.lingering_conns.discard(conn)
        self.nr_conns -= 1
        util.close(conn.sock)


class _Conn(gthread.TConn):
    """gunicorn's connection, whose closing linger runs in the worker's event
    loop (GatewayWorker.linger) rather than blocking it."""

    def __init__(self, worker, *args) -> None:
        super().__init__(*args)
        self.worker = worker

    def close(self, graceful=False):
        if graceful:
            self.worker.linger(self)
        else:
            super().close()


class _ReadAhead:
    """Serves the bytes the event loop read to gunicorn's parser in the pieces a
    socket read would give (its `chunk`), then reads the socket again. Handed to
    it in one piece (unread), they made its chunked-body parser copy the rest of
    them for every chunk: a body of many small chunks cost the square of its
    length."""

    def __init__(self, unreader, data: bytes) -> None:
        self.data, self.at, self.source = memoryview(data), 0, unreader.chunk

    def __call__(self, size_hint=None):
        if self.at >= len(self.data):
            return self.source(size_hint) if size_hint is not None else self.source()  # (gunicorn < 26: no hint)
        size = max(8192, min(size_hint or 0, 1024 * 1024))  # as gunicorn's SocketUnreader sizes reads
        piece = bytes(self.data[self.at:self.at + size])
        self.at += len(piece)
        return piece

    def rest(self) -> bytes:
        return bytes(self.data[self.at:])


worker_class = GatewayWorker
graceful_timeout = _settings.drain_seconds
timeout = 30
keepalive = _settings.gateway_keepalive  # an idle kept-alive connection, then closed
preload_app = False  # gRPC channels must be created after the fork, in each worker
control_socket_disable = True  # no admin socket (and none to write under a read-only root)
accesslog = None     # the app logs one JSON line per request


class _Logger(Logger):
    """gunicorn's logger without the access log, which the app replaces. (Given
    a logging config, gunicorn builds every request's access-log fields even
    when its access logger would drop them.)"""

    def access(self, resp, req, environ, request_time):
        pass

    def exception(self, msg, *args, **kwargs):
        if isinstance(sys.exc_info()[1], BlockingIOError):  # SO_RCVTIMEO/SO_SNDTIMEO ran out (when_ready)
            _log_cut(self, "stalled")
            return
        super().exception(msg, *args, **kwargs)


def _log_cut(log, reason: str) -> None:
    """A connection closed because its client was too slow: logged and counted."""
    from parlor.gateway.metrics import connection_cut

    if reason == "stalled":
        log.info("closed a connection that stalled for %d s", _settings.client_timeout)
    else:
        log.info("closed a connection that did not send its whole request within %d s", REQUEST_SECONDS)
    connection_cut(reason)


logger_class = _Logger

# Requests gunicorn refuses before the app sees them (not HTTP, a URL or headers
# past its limits) get the API's error shape too, not gunicorn's HTML page.
# gunicorn's workers answer these through util.write_error (a test guards it).
# The messages are fixed: gunicorn's own would echo parts of the request.


def _write_json_error(sock, status: int, _reason: str, _message: str) -> None:
    # Imported when first needed, in a worker (which has loaded the app). The
    # master loads the gateway package too (for DEADLINES), and so grpc: harmless,
    # as no gRPC channel is made before the fork (each worker makes its own).
    # (gunicorn's reason can be wrong for the status, "501 Bad Request": not used.)
    from parlor.gateway.errors import protocol_error

    status_line, body = protocol_error(status)
    head = (f"HTTP/1.1 {status_line}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin1") + body)


util.write_error = _write_json_error
errorlog = "-"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "parlor.common.logs.JsonFormatter"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "json",
                            "stream": "ext://sys.stdout"}},
    "root": {"level": _settings.log_level, "handlers": ["stdout"]},
    "loggers": {
        "gunicorn.error": {"level": _settings.log_level, "handlers": ["stdout"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": ["stdout"], "propagate": False},
    },
}


# The metrics directory's lock, held by the gunicorn master that emptied the
# directory at its start, for as long as it runs: a second gateway given the same
# directory (started by mistake on the same port, say) must not empty it under
# the first one's workers.
_METRICS_LOCK = ".gateway.lock"
_held_lock = None


def on_starting(server):
    global _held_lock
    if stream_slots(_settings.gateway_threads) == 0:
        server.log.warning("PARLOR_GATEWAY_THREADS=%d leaves no thread for live event streams: "
                           "every stream request is answered 429 TOO_MANY_STREAMS", _settings.gateway_threads)
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    try:
        os.makedirs(directory, exist_ok=True)
        lock = open(os.path.join(directory, _METRICS_LOCK), "a")
    except OSError as exc:
        sys.exit(f"PROMETHEUS_MULTIPROC_DIR {directory}: {exc.strerror or exc}; "
                 "it must be a writable directory (see the README's configuration table)")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        with open(os.path.join(directory, _METRICS_LOCK)) as held:
            owner = held.read().strip()  # (the running gateway's address, written below)
        sys.exit(f"PROMETHEUS_MULTIPROC_DIR {directory} belongs to a gateway that is running"
                 f"{f' (on {owner})' if owner else ''}; give this one another directory")
    lock.truncate(0)
    lock.write(" ".join(server.cfg.bind))  # (GUNICORN_CMD_ARGS may have changed it)
    lock.flush()
    _held_lock = lock
    _empty(directory)


def _empty(directory: str) -> None:
    """Removes the metrics files of an earlier run (an emptyDir outlives a
    container restart), not the lock."""
    for entry in os.scandir(directory):
        if entry.name != _METRICS_LOCK:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)


def when_ready(server):
    # A client that stops sending in the middle of its request (headers or body)
    # would hold a worker thread for good: gunicorn reads a started request with
    # no timeout, and a handful of such connections would take every thread.
    # A receive timeout on the listening sockets, which accepted connections
    # inherit, ends each read that waits longer than PARLOR_CLIENT_TIMEOUT_SECONDS.
    # (Idle keep-alive connections wait in gunicorn's poller, not in a read.)
    # The same for writes: a client that stops reading its answer (or a live
    # stream) for that long loses the connection instead of holding a thread.
    timeout = struct.pack("ll", _settings.client_timeout, 0)
    for listener in server.LISTENERS:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeout)


def on_exit(server):
    if _held_lock is not None:  # (only the gateway that emptied it)
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def pre_fork(server, worker):
    # The signals the master has queued and not yet handled (copied into the
    # worker by the fork; GatewayWorker.init_signals skips them).
    queued = getattr(server, "SIG_QUEUE", None)
    worker.signals_queued_at_fork = queued.qsize() if hasattr(queued, "qsize") else 0


def post_fork(server, worker):
    # In the worker: the master's signal handlers, still in place, queue here.
    queued = getattr(server, "SIG_QUEUE", None)
    worker.master_signals = queued if hasattr(queued, "get_nowait") else None


def post_worker_init(worker):
    # Open event streams end once this worker shuts down (GatewayWorker.handle_exit).
    streams.worker = worker
    streams.HANGUPS.start()


def child_exit(server, worker):
    from prometheus_client import multiprocess
    multiprocess.mark_process_dead(worker.pid)
