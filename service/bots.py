"""Bots: players that see only their seat's view, like any client.

A bot takes an open seat of a match through the public gRPC API, with the seat
token it is given, and plays whenever its seat has something to do: it reads
its legal actions and posts one of them back unchanged (the rule that lets any
client play any game without knowing it). It never reads the store and holds no
more than its seat may see.

    parlor bot <match id> [--seats N] [--name NAME] [--seed S]

fills N open seats (all of them by default) of a match on the service at
PARLOR_SERVICE_TARGET and plays them to the end. The policy is `RandomBot`:
uniformly among the legal actions, from its own seeded generator.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Callable, Iterator, Protocol, Sequence

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

RPC_TIMEOUT = 10.0  # seconds, for every unary call
RETRIES = 15  # more tries of a safe call while the service is unreachable (~25 s in all)
STREAM_RETRIES = 30  # live streams cut in a row (a second apart) before a bot gives up
RECONNECT_BACKOFF_MS = (100, 1000)  # first and longest wait between connection attempts
# what a call meets while the service restarts or drains (CANCELLED: it reached a stopping server)
_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


class Policy(Protocol):
    def choose(self, view: pb.Match, actions: Sequence[pb.Action]) -> pb.Action:
        """One of `actions` (never empty), given the seat's own view."""


class RandomBot:
    """Any legal action, uniformly; the same seed makes the same choices."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, view: pb.Match, actions: Sequence[pb.Action]) -> pb.Action:
        return self._random.choice(actions)


class BotError(Exception):
    """A call the bot cannot get past: `code` is the service's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def error_code(err: grpc.RpcError) -> str:
    """The stable code of a Parlor error (google.rpc.ErrorInfo.reason), else
    the gRPC status name."""
    status = rpc_status.from_call(err) if isinstance(err, grpc.Call) else None
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    code = err.code() if isinstance(err, grpc.Call) else None
    return code.name if code is not None else "UNKNOWN"


def _call(method: Callable, request, metadata=(), retry: bool = False):
    """One unary call. `retry`: the call is safe to repeat (a read, or an action
    under an idempotency key), so while the service is unreachable (a restart,
    a drain) it is tried again, for about 25 s in all."""
    for attempt in range(RETRIES + 1 if retry else 1):
        try:
            return method(request, timeout=RPC_TIMEOUT, metadata=metadata)
        except grpc.RpcError as err:
            status = err.code() if isinstance(err, grpc.Call) else None
            if status not in _TRANSIENT or not retry or attempt == RETRIES:
                raise BotError(error_code(err), err.details() if isinstance(err, grpc.Call) else str(err)) from None
        time.sleep(min(0.25 * 2 ** attempt, 2.0))
    raise AssertionError("unreachable")


def join(stub: parlor_pb2_grpc.ParlorStub, match_id: str, name: str) -> pb.JoinMatchResponse:
    """Takes the lowest open seat of the match."""
    return _call(stub.JoinMatch, pb.JoinMatchRequest(match_id=match_id, name=name))


def play_seat(stub: parlor_pb2_grpc.ParlorStub, match_id: str, token: str, policy: Policy,
              stop: threading.Event | None = None) -> pb.Match:
    """Plays the token's seat until the match is over (or `stop` is set) and
    returns the seat's last view. The bot acts whenever its seat has legal
    actions, and otherwise waits on the match's live events."""
    metadata = (("authorization", f"Bearer {token}"),)
    stop = stop or threading.Event()
    for _ in _news(stub, match_id, metadata, stop):
        while not stop.is_set():
            listed = _call(stub.ListLegalActions, pb.ListLegalActionsRequest(match_id=match_id),
                           metadata, retry=True)
            if not listed.actions:
                break
            view = _call(stub.GetMatch, pb.GetMatchRequest(match_id=match_id), metadata, retry=True)
            if view.version != listed.version:
                continue  # somebody acted in between: list again
            request = pb.SubmitActionRequest(
                match_id=match_id, action=policy.choose(view, listed.actions),
                expected_version=listed.version, idempotency_key=f"bot-{listed.version}")
            try:  # under its key a repeated post is applied at most once
                _call(stub.SubmitAction, request, metadata, retry=True)
            except BotError as err:
                if err.code not in ("STALE_VERSION", "CONFLICT"):
                    raise
                # another seat acted first: list again
    return _call(stub.GetMatch, pb.GetMatchRequest(match_id=match_id), metadata, retry=True)


def _news(stub: parlor_pb2_grpc.ParlorStub, match_id: str, metadata, stop: threading.Event) -> Iterator[None]:
    """Yields once at the start and then whenever the seat hears something
    (new events, or a keep-alive), until the match is over or `stop` is set;
    reopens the live stream when the service ends it early."""
    yield None
    after, cuts = 0, 0
    while not stop.is_set():
        stream = stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id, after=after), metadata=metadata)
        watcher = threading.Thread(target=_cancel_on, args=(stop, stream), daemon=True)
        watcher.start()
        try:
            for message in stream:
                cuts = 0
                if message.events:
                    after = message.events[-1].number
                if message.end:
                    return
                yield None
        except grpc.RpcError as err:
            if stop.is_set():
                return
            cuts += 1
            if err.code() not in _TRANSIENT or cuts > STREAM_RETRIES:
                raise BotError(error_code(err), err.details()) from None
            stop.wait(1.0)  # the stream was cut (a restart, a drain): open another soon
        finally:
            stream.cancel()


def _cancel_on(stop: threading.Event, stream) -> None:
    """Ends a blocking live stream once `stop` is set."""
    while not stream.done():
        if stop.wait(0.5):
            stream.cancel()
            return


def run(target: str, match_id: str, seats: int | None, name: str, seed: str | None,
        out: Callable[[str], None] = print) -> int:
    """`parlor bot`: joins `seats` open seats (None: every open one) and plays
    them to the end; returns the exit code (0 when the match is over)."""
    options = [("grpc.initial_reconnect_backoff_ms", RECONNECT_BACKOFF_MS[0]),
               ("grpc.min_reconnect_backoff_ms", RECONNECT_BACKOFF_MS[0]),
               ("grpc.max_reconnect_backoff_ms", RECONNECT_BACKOFF_MS[1])]
    with grpc.insecure_channel(target, options=options) as channel:
        stub = parlor_pb2_grpc.ParlorStub(channel)
        joined = _join_seats(stub, match_id, seats, name, out)
        if isinstance(joined, int):
            return joined
        return _play_seats(stub, match_id, joined, seed, out)


def _join_seats(stub: parlor_pb2_grpc.ParlorStub, match_id: str, seats: int | None, name: str,
                out: Callable[[str], None]) -> list[pb.JoinMatchResponse] | int:
    """The seats the bots took, or an exit code when they took none."""
    try:
        match = _call(stub.GetMatch, pb.GetMatchRequest(match_id=match_id), retry=True)
    except BotError as err:
        out(f"parlor bot: {err}")
        return 1
    open_seats = sum(not seat.joined for seat in match.seats)
    wanted = open_seats if seats is None else seats
    if wanted < 1 or wanted > open_seats:
        out(f"parlor bot: match {match_id} has {open_seats} open seat(s); asked for {wanted}")
        return 2
    joined: list[pb.JoinMatchResponse] = []
    for n in range(wanted):
        label = name if wanted == 1 else f"{name} {n + 1}"
        try:
            joined.append(join(stub, match_id, label))
        except BotError as err:  # e.g. somebody took the seat meanwhile
            out(f"parlor bot: {label} could not join: {err}")
            break  # the bots already seated still play theirs
        out(f"parlor bot: {label} took seat {joined[-1].seat}")
    return joined or 1


def _play_seats(stub: parlor_pb2_grpc.ParlorStub, match_id: str, joined: list[pb.JoinMatchResponse],
                seed: str | None, out: Callable[[str], None]) -> int:
    """Plays every joined seat in a thread of its own, to the end of the match."""
    stop, failures, finals = threading.Event(), [], {}

    def play(seat: int, token: str) -> None:
        try:
            policy = RandomBot(f"{seed}/{seat}" if seed else None)
            finals[seat] = play_seat(stub, match_id, token, policy, stop)
        except BotError as err:
            failures.append(f"seat {seat}: {err}")
            stop.set()  # the others stop too

    threads = [threading.Thread(target=play, args=(j.seat, j.token), daemon=True) for j in joined]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)
    except KeyboardInterrupt:
        stop.set()
        out("parlor bot: stopped")
        return 130
    for failure in failures:
        out(f"parlor bot: {failure}")
    final = next(iter(finals.values()), None)
    if failures or final is None or final.status != pb.FINISHED:
        return 1
    out(f"parlor bot: match over; scores {list(final.result.scores)}, winners {list(final.result.winners)}")
    return 0
