"""A deadline for receiving each request, for gunicorn's gthread workers.

The gateway's worker reads most requests whole in its event loop before a thread
takes them (gunicorn_conf.GatewayWorker); a thread still reads what that leaves
(a body sent after `100 Continue`, a request past the worker's read-ahead
budget, one on a stopping worker). A worker thread reads with blocking reads, and a
client that trickles its request a byte at a time never lets one of them time
out (SO_RCVTIMEO bounds each read, see gunicorn_conf.when_ready), so it could
hold the thread for hours. Each request's socket is armed when a thread starts
on it and disarmed once the request is in: at the app's door for a request
without a body, after the body is read for one with. A watcher thread shuts
down the sockets still armed past their deadline, which ends their reads at
once (end of file) and frees the thread.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import Callable

TICK_SECONDS = 0.5


class ReadDeadlines:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: dict[socket.socket, float] = {}
        self._pid: int | None = None
        self.on_cut: Callable[[], None] = lambda: None  # called for each socket shut
        # called when a thread's read of a body stalled (SO_RCVTIMEO ran out): jsonpb
        self.on_stall: Callable[[], None] = lambda: None

    def arm(self, sock: socket.socket, seconds: float) -> None:
        with self._lock:
            if self._pid != os.getpid():  # in the process that uses it (gunicorn forks)
                self._pid = os.getpid()
                self._due.clear()
                threading.Thread(target=self._run, name="read-deadlines", daemon=True).start()
            self._due[sock] = time.monotonic() + seconds

    def disarm(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._due.pop(sock, None)

    def _run(self) -> None:
        while True:
            time.sleep(TICK_SECONDS)
            now = time.monotonic()
            cut = 0
            with self._lock:  # (shut under the lock: a socket disarmed meanwhile has moved on)
                for sock in [sock for sock, due in self._due.items() if due <= now]:
                    del self._due[sock]
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                        cut += 1
                    except OSError:  # already closed
                        pass
            for _ in range(cut):
                self.on_cut()


DEADLINES = ReadDeadlines()
