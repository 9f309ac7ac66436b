"""`parlor bot`: remote players that see only their seat's view, like any client.

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
import secrets
import threading
import time
from typing import Callable, Iterator, Protocol, Sequence

import grpc

from parlor.common.config import CLIENT_CHANNEL_OPTIONS
from parlor.common.errors import error_info
from parlor.v1 import parlor_pb2 as pb
from parlor.v1 import parlor_pb2_grpc

RPC_TIMEOUT = 10.0        # seconds, for every unary call
RETRY_SECONDS = 25.0      # how long a safe call is tried again while the service is unreachable
FIRST_CONTACT_SECONDS = 5.0  # the same for the first call: a service never reached is likely elsewhere
STREAM_RETRIES = 30       # live streams failing in a row (a second apart) before a bot gives up
STREAM_LIVED = 5.0        # seconds a stream must have run for its failure not to count as "in a row"
# What a call meets while the service restarts or drains (CANCELLED: it reached
# a stopping server); a live stream may also be refused for a moment
# (RESOURCE_EXHAUSTED: every client of a restarted replica reconnects at once).
_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)
_TRANSIENT_STREAM = _TRANSIENT + (grpc.StatusCode.RESOURCE_EXHAUSTED,)
_SEAT_GONE = ("SEAT_TAKEN", "MATCH_FULL")  # join refusals after which the seated bots play on


class Policy(Protocol):
    def choose(self, actions: Sequence[pb.Action], view: Callable[[], pb.Match]) -> pb.Action:
        """One of `actions` (never empty). `view()` reads the seat's own view,
        for policies that look at it (a call to the service)."""


class RandomBot:
    """Any legal action, uniformly, from a generator seeded with `seed`."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, actions: Sequence[pb.Action], view: Callable[[], pb.Match]) -> pb.Action:
        return self._random.choice(actions)


class BotError(Exception):
    """A call the bot cannot get past: `code` is the service's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def _bot_error(err: grpc.RpcError) -> BotError:
    """A failed call as a BotError: Parlor's code (else the gRPC status name)
    and the message."""
    if not isinstance(err, grpc.Call):
        return BotError("UNKNOWN", str(err))
    info = error_info(err)
    return BotError(info.reason if info is not None else err.code().name, err.details())


def _transient(err: grpc.RpcError) -> bool:
    if not isinstance(err, grpc.Call):
        return False
    if err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
        info = error_info(err)
        return info is not None and info.reason == "TOO_MANY_REPLAYS"
    return err.code() in _TRANSIENT


def _call(method: Callable, request, metadata=(), stop: threading.Event | None = None,
          give_up_after: float = 0.0):
    """One unary call. With `stop`, the call is one that is safe to repeat (a
    read, or a join or an action under an idempotency key): while the service is
    unreachable (a restart, a drain), or busy answering retries of older actions
    (TOO_MANY_REPLAYS: a repeated action whose first answer was lost), it is
    tried again for RETRY_SECONDS, with waits doubling from 0.25 s to 2 s, unless
    `stop` is set meanwhile (or for `give_up_after` seconds, if given)."""
    give_up = time.monotonic() + (give_up_after or RETRY_SECONDS)
    wait = 0.25
    while True:
        try:
            return method(request, timeout=RPC_TIMEOUT, metadata=metadata)
        except grpc.RpcError as err:
            if stop is None or not _transient(err) or time.monotonic() + wait > give_up or stop.wait(wait):
                raise _bot_error(err) from None
        wait = min(wait * 2, 2.0)


def join(stub: parlor_pb2_grpc.ParlorStub, match_id: str, name: str) -> pb.JoinMatchResponse:
    """Takes the lowest open seat of the match, under an idempotency key of its
    own, so that it is safe to repeat: a join whose answer was lost (a service
    restart) is asked again and gets the same seat and token."""
    request = pb.JoinMatchRequest(match_id=match_id, name=name, idempotency_key=secrets.token_urlsafe(24))
    return _call(stub.JoinMatch, request, stop=threading.Event())


def play_seat(stub: parlor_pb2_grpc.ParlorStub, match_id: str, token: str, policy: Policy,
              stop: threading.Event | None = None) -> pb.Match | None:
    """Plays the token's seat until the match is over and returns the seat's
    last view (None if `stop` was set first). The bot acts whenever its seat
    has legal actions, and otherwise waits on the match's live events."""
    metadata = (("authorization", f"Bearer {token}"),)
    stop = stop or threading.Event()

    def view() -> pb.Match:
        return _call(stub.GetMatch, pb.GetMatchRequest(match_id=match_id), metadata, stop)

    for _ in _news(stub, match_id, metadata, stop):
        while not stop.is_set():
            listed = _call(stub.ListLegalActions, pb.ListLegalActionsRequest(match_id=match_id),
                           metadata, stop)
            if not listed.actions:
                break
            request = pb.SubmitActionRequest(
                match_id=match_id, action=policy.choose(listed.actions, view),
                expected_version=listed.version, idempotency_key=f"bot-{listed.version}")
            try:  # under its key a repeated post is applied at most once
                _call(stub.SubmitAction, request, metadata, stop)
            except BotError as err:
                if err.code not in ("STALE_VERSION", "CONFLICT"):
                    raise
                # another seat acted first: list again
    return None if stop.is_set() else view()


def _news(stub: parlor_pb2_grpc.ParlorStub, match_id: str, metadata, stop: threading.Event) -> Iterator[None]:
    """Yields once at the start and then whenever the seat hears something
    (new events, or a keep-alive), until the match is over or `stop` is set.
    Reopens the live stream when the service ends it early (after a short
    wait) or cuts it (a second later; STREAM_RETRIES failures in a row, each
    within STREAM_LIVED of its opening, give up)."""
    yield None
    after, failures = 0, 0
    while not stop.is_set():
        opened = time.monotonic()
        stream = stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id, after=after), metadata=metadata)
        watcher = threading.Thread(target=_cancel_on, args=(stop, stream), daemon=True)
        watcher.start()
        pause = 0.1 + random.random() * 0.2  # spread the reopens of many bots
        try:
            for message in stream:
                if message.events:
                    after = message.events[-1].number
                if message.end:
                    return
                yield None
        except grpc.RpcError as err:
            if stop.is_set():
                return
            failures = failures + 1 if time.monotonic() - opened < STREAM_LIVED else 1
            if err.code() not in _TRANSIENT_STREAM or failures > STREAM_RETRIES:
                raise _bot_error(err) from None
            pause = 1.0
        finally:
            stream.cancel()
        stop.wait(pause)


def _cancel_on(stop: threading.Event, stream) -> None:
    """Ends a blocking live stream once `stop` is set."""
    while not stream.done():
        if stop.wait(0.5):
            stream.cancel()
            return


def run(target: str, match_id: str, seats: int | None, name: str, seed: str | None,
        out: Callable[[str], None] = print) -> int:
    """`parlor bot`: joins `seats` open seats (None: every open one) and plays
    them to the end; returns the exit code: 0 when the match is over, 1 when a
    call failed (or a join failed and left a seat it may hold unplayed), 2
    without enough open seats, 130 when interrupted."""
    with grpc.insecure_channel(target, options=CLIENT_CHANNEL_OPTIONS) as channel:
        stub = parlor_pb2_grpc.ParlorStub(channel)
        code, joined = _join_seats(stub, match_id, seats, name, out, target)
        if code:
            return code
        return _play_seats(stub, match_id, joined, seed, out)


def _join_seats(stub: parlor_pb2_grpc.ParlorStub, match_id: str, seats: int | None, name: str,
                out: Callable[[str], None], target: str = "") -> tuple[int, list[pb.JoinMatchResponse]]:
    """(0, the seats the bots took), or (an exit code, [])."""
    try:
        match = _call(stub.GetMatch, pb.GetMatchRequest(match_id=match_id), stop=threading.Event(),
                      give_up_after=FIRST_CONTACT_SECONDS)
    except BotError as err:
        if err.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
            out(f"parlor bot: no Parlor service answers at {target} ({err.code}): set PARLOR_SERVICE_TARGET "
                "to its gRPC address (host:port), or start `parlor dev`")
        else:
            out(f"parlor bot: {err}")
        return 1, []
    open_seats = sum(not seat.joined for seat in match.seats)
    wanted = open_seats if seats is None else seats
    if wanted < 1 or wanted > open_seats:
        out(f"parlor bot: match {match_id} has {open_seats} open seat(s); asked for {wanted}")
        return 2, []
    joined: list[pb.JoinMatchResponse] = []
    for n in range(wanted):
        label = name if wanted == 1 else f"{name} {n + 1}"
        try:
            joined.append(join(stub, match_id, label))
        except BotError as err:
            out(f"parlor bot: {label} could not join: {err}")
            if joined and err.code in _SEAT_GONE:
                break  # somebody took the seat meanwhile: the bots already seated play theirs
            if joined:  # (another failure may have taken a seat whose token was lost)
                out(f"parlor bot: seats {[j.seat for j in joined]} were taken and are not played")
            return 1, []
        out(f"parlor bot: {label} took seat {joined[-1].seat}")
    return 0, joined


def _play_seats(stub: parlor_pb2_grpc.ParlorStub, match_id: str, joined: list[pb.JoinMatchResponse],
                seed: str | None, out: Callable[[str], None]) -> int:
    """Plays every joined seat in a thread of its own, to the end of the match;
    when one seat fails, the others stop."""
    stop, failures, finals = threading.Event(), [], {}

    def play(seat: int, token: str) -> None:
        try:
            policy = RandomBot(f"{seed}/{seat}" if seed else None)
            finals[seat] = play_seat(stub, match_id, token, policy, stop)
        except Exception as err:  # noqa: BLE001 (any failure ends the run, with its reason)
            failures.append(f"seat {seat}: {err if isinstance(err, BotError) else repr(err)}")
            stop.set()

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
