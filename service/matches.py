"""Matches: ties seat credentials, the store and the game engines together.

Methods take protobuf messages (or a match id) and return protobuf messages
(the servicer only adds transport: metadata in, status out). Methods that touch Redis are coroutines;
the engines are plain functions, run between two awaits. Every write is read, validate, then one
compare-and-set on the version; a loser of a race re-reads and re-validates.
Nothing here keeps state between calls beyond the open event streams (their
count, the reads they share, the draining flag) and the records this process
last wrote or refused to change (RecordCache), which are used only while Redis
still holds exactly those bytes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import functools
import hashlib
import hmac
import logging
import re
import secrets
import struct
import time
import unicodedata
from typing import Any, AsyncIterator, Awaitable, Iterator

import orjson

from parlor.common.config import Settings
from parlor.common.errors import ParlorError
from parlor.v1 import parlor_pb2 as pb

from . import games, metrics, wire
from .allowance import Allowance
from .games.base import Event, Game, OptionError, RulesError, shown
from .games.rng import Rng
from .record import Record, RecordCache
from .store import Conflict, DuplicateKey, MatchStore, NewEvent, Stored

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 16          # compare-and-set retries before giving up (ABORTED CONFLICT)
MAX_EVENTS_PER_PAGE = 10_000  # a whole match but the longest Heck ones (max_rounds raised)
STREAM_READS = 16          # event-stream reads in flight at once, per process
MAX_SEED_LENGTH = 256
MAX_NAME_LENGTH = 64
_MATCH_ID = re.compile(r"[a-z2-7]{24}")
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")
# An idempotency record: request fingerprint, version after, first and last event.
_IDEM_RECORD = struct.Struct(">16sIII")
# A join's: request fingerprint, seat, the token's 32 bytes encrypted under the key.
_JOIN_RECORD = struct.Struct(">16sI32s")
_JOIN_KEY = re.compile(r"[\x21-\x7e]{16,128}")


def new_match_id() -> str:
    return base64.b32encode(secrets.token_bytes(15)).decode().lower()


# Letters and symbols that print as nothing: Hangul fillers, the blank Braille
# pattern, the musical null notehead. (Combining marks, format characters and
# spaces are no letter or symbol: _shows passes over them anyway.)
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


def _shows(name: str) -> bool:
    """Whether `name` has a character other players see: a letter, digit,
    punctuation mark or symbol that is not blank (a name of combining marks
    alone, or of fillers, would show as an empty seat)."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seed_sha256(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Matches:
    def __init__(self, store: MatchStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.streams = 0                  # event streams open in this process
        self.draining = asyncio.Event()   # set on SIGTERM: open streams end at once
        # One commit wakes every stream on its match at once: their re-reads take
        # turns, so that they never crowd out play on the Redis connection pool.
        self._stream_reads = asyncio.Semaphore(STREAM_READS)
        # Event-stream reads in flight, by (match id, after, seat), with the notice
        # epoch they began in: streams that want the same page share one read.
        self._reads: dict[tuple[str, int, int | None], tuple[object, asyncio.Future]] = {}
        # Decoded records this process last wrote (or refused to change), for the next call.
        self._records = RecordCache(settings.record_cache)
        # Actions re-run to answer retries of older requests again (see _replay).
        self._rebuilds = Allowance(settings.replay_rate)

    # ---- games ---------------------------------------------------------------

    def list_games(self) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(games=[_game_info(game) for game in games.GAMES.values()])

    # ---- create and join -------------------------------------------------------

    async def create(self, request: pb.CreateMatchRequest) -> pb.Match:
        game = games.get(request.game)
        if game is None:
            named = f"There is no game {shown(request.game)}" if request.game else "The request names no game"
            raise ParlorError("UNKNOWN_GAME", f"{named}; the games are {', '.join(games.GAMES)}.",
                              game=request.game)
        if request.players == 0:  # proto3: absent and 0 look alike
            raise ParlorError("INVALID_PLAYER_COUNT", f"The request gives no player count (players); "
                              f"{game.title} is played by {game.min_players} to {game.max_players} players.")
        given = request.WhichOneof("options")
        if given is not None and given != game.id:
            raise ParlorError("INVALID_OPTION", f"Options for {given} do not fit a {game.id} match.")
        try:
            options = game.resolve_options(
                request.players, wire.options_to_plain(getattr(request, given)) if given else {})
        except OptionError as exc:
            code = "INVALID_OPTION" if exc.option else "INVALID_PLAYER_COUNT"
            raise ParlorError(code, exc.message, option=exc.option) from None
        if request.HasField("seed"):
            if not self.settings.allow_fixed_seed:
                raise ParlorError("FIXED_SEED_DISABLED",
                                  "This server does not accept fixed seeds (PARLOR_ALLOW_FIXED_SEED is off).")
            if not 1 <= len(request.seed) <= MAX_SEED_LENGTH:
                raise ParlorError("INVALID_SEED", f"A seed is 1 to {MAX_SEED_LENGTH} characters.")
            seed = request.seed
        else:
            seed = secrets.token_urlsafe(24)  # 192 random bits
        rng = Rng.from_seed(seed)
        state = game.new_state(request.players, options, rng)
        record = Record(
            match_id=new_match_id(), game=game.id, rules_version=game.rules_version,
            players=request.players, options=options, seed=seed, status=pb.WAITING,
            names=[None] * request.players, token_hashes=[None] * request.players,
            rng=rng.counter, last_event=0, state=state)
        while not await self.store.create(record.match_id, data := record.encode(), self._waiting_ttl):
            record.match_id = new_match_id()  # 120-bit ids: a clash is next to impossible
        metrics.match(game.id, "created").inc()
        log.info("match created", extra={"match_id": record.match_id, "game": game.id,
                                         "players": record.players})
        view = self._view(record, 0, None)
        self._records.put(record, data)  # last: from here on another call may take it
        return view

    async def join(self, request: pb.JoinMatchRequest) -> pb.JoinMatchResponse:
        name = request.name.strip()
        if not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable() or not _shows(name):
            raise ParlorError("INVALID_NAME", f"A name is 1 to {MAX_NAME_LENGTH} printable characters, "
                                              "at least one of them visible.")
        asked = request.seat if request.HasField("seat") else None
        key = request.idempotency_key
        if key and not _JOIN_KEY.fullmatch(key):
            raise ParlorError("INVALID_IDEMPOTENCY_KEY",
                              "An idempotency key for a join is 16 to 128 printable ASCII characters, "
                              "no spaces, and hard to guess (a random UUID, say): it gets the seat's "
                              "token again.")
        idem_fields = (_join_field(request.match_id, key),) if key else ()
        fingerprint = _join_fingerprint(name, asked) if key else b""
        for _ in range(MAX_ATTEMPTS):
            stored, record = await self._fetch(request.match_id, idem_fields, reuse=True)
            version = stored.version
            with self._kept_if_refused(record, stored):
                if stored.idempotency is not None:
                    reply = _join_replay(record.match_id, key, stored.idempotency, fingerprint)
                    self._records.give_back(record, stored.record)  # answered, not changed
                    return reply
                seat = _open_seat(record, asked)
            secret = secrets.token_bytes(32)
            token = _token_text(secret)
            record.names[seat] = name
            record.token_hashes[seat] = token_hash(token)
            events: list[Any] = [{"seat_joined": {"seat": seat, "name": name}}]
            game = _engine(record)
            if None not in record.names:
                record.status = pb.ACTIVE
                events.append({"match_started": {}})
                events.extend(game.opening_events(record.state))
            idem = None
            if key:
                sealed = _seal(secret, record.match_id, key)
                idem = (idem_fields[0], _JOIN_RECORD.pack(fingerprint, seat, sealed))
            try:
                _, data = await self._commit(record, version, events, idempotency=idem)
            except (Conflict, DuplicateKey):
                # Another join wrote first (with this very key: the re-read replays it).
                continue
            log.info("seat joined", extra={"match_id": record.match_id, "seat": seat})
            if record.active:
                metrics.match(record.game, "started").inc()
                await self._index(self.store.mark_started(record.match_id, time.time()))
            self._records.put(record, data)  # last: from here on another call may take it
            return pb.JoinMatchResponse(seat=seat, token=token)
        raise _busy()

    # ---- reads -------------------------------------------------------------------

    async def get(self, match_id: str, token: str | None) -> pb.Match:
        version, record = await self._load(match_id)
        return self._view(record, version, self._seat(record, token, required=False))

    async def legal_actions(self, match_id: str, token: str | None) -> pb.ListLegalActionsResponse:
        version, record = await self._load(match_id)
        seat = self._seat(record, token, required=True)
        actions = []
        if record.active:
            game = _engine(record)
            actions = [pb.Action(**{game.id: a}) for a in game.legal(record.state, seat)]
        return pb.ListLegalActionsResponse(actions=actions, version=version)

    async def events(self, request: pb.ListEventsRequest, token: str | None) -> pb.ListEventsResponse:
        if request.after < 0:
            raise ParlorError("INVALID_ARGUMENT", "`after` is an event number, 0 or more.")
        if request.limit < 0:
            raise ParlorError("INVALID_ARGUMENT", f"`limit` is 0 (the default, {MAX_EVENTS_PER_PAGE}) or more.")
        limit = min(request.limit or MAX_EVENTS_PER_PAGE, MAX_EVENTS_PER_PAGE)
        _, record = await self._load(request.match_id)
        seat = self._seat(record, token, required=False)
        last_event = record.last_event  # (read before the next await: see _fetch)
        raw = await self.store.events(record.match_id, request.after, limit, seat)
        events = [pb.Event.FromString(data) for data in raw]
        if events:  # (events written between the two reads come too)
            last_event = max(last_event, events[-1].number)
        return pb.ListEventsResponse(events=events, last_event=last_event)

    async def watch(self, request: pb.WatchEventsRequest,
                    token: str | None) -> AsyncIterator[pb.WatchEventsResponse]:
        """The caller's view of the events after `request.after`, then of new
        ones as they are written (see WatchEvents in parlor.proto). The first
        message goes out at once; then each commit's notice (store.EventNotices)
        brings a re-read, and so does every quiet keep-alive interval."""
        if request.after < 0:
            raise ParlorError("INVALID_ARGUMENT", "`after` is an event number, 0 or more.")
        _, record = await self._load(request.match_id)
        seat = self._seat(record, token, required=False)
        if self.streams >= self.settings.max_streams:
            raise ParlorError("TOO_MANY_STREAMS", "Too many live event streams are open here; "
                              "try again shortly, or read the list of events instead.")
        if record.finished and request.after >= record.last_event:
            yield pb.WatchEventsResponse(end=True)
            return
        self.streams += 1
        metrics.STREAMS.inc()
        match_id, notice = record.match_id, None
        try:
            notice = await self.store.notices.watch(match_id)  # before the first read: nothing slips by
            loop = asyncio.get_running_loop()
            ends = loop.time() + self.settings.stream_seconds
            after = request.after
            notice.clear()  # (as before every read: the read covers all news until now)
            raw = await self._stream_events(match_id, after, seat)
            while True:
                events = [pb.Event.FromString(data) for data in raw]
                end = bool(events) and events[-1].HasField("match_finished")
                yield pb.WatchEventsResponse(events=events, end=end)
                if events:
                    after = events[-1].number
                if end:
                    return
                while True:  # until there are events to send (keep-alives go out meanwhile)
                    left = ends - loop.time()
                    if self.draining.is_set() or left <= 0:
                        return
                    if len(raw) != MAX_EVENTS_PER_PAGE:  # (a long backlog: the next page at once)
                        woke = await self._notified(notice, min(self.settings.stream_keepalive, left))
                        if self.draining.is_set():
                            return
                        if not woke:  # a quiet interval: the keep-alive goes out before
                            yield pb.WatchEventsResponse()  # Redis is asked (it may hang)
                    notice.clear()  # before reading: a notice from now on means more to read
                    raw = await self._stream_events(match_id, after, seat)
                    if raw:
                        break
                    # Nothing new: a quiet interval, or news before `after` (a stream
                    # begun past the end). Is the match still there? Over?
                    async with self._stream_reads:
                        _, record = await self._fetch(match_id)
                    if record.finished and after >= record.last_event:
                        yield pb.WatchEventsResponse(end=True)
                        return
        finally:
            if notice is not None:
                self.store.notices.unwatch(match_id, notice)
            self.streams -= 1
            metrics.STREAMS.dec()

    async def _stream_events(self, match_id: str, after: int, seat: int | None) -> list[bytes]:
        """The events after `after` as `seat` sees them, for a live stream. One
        commit wakes every stream of its match at once, and those that stand at
        the same event with the same eyes (the spectators, say) share one read,
        so Redis is asked once per page rather than once per stream. A read
        begun before the latest notice is not shared: it may predate the news."""
        key = (match_id, after, seat)
        epoch = self.store.notices.epoch(match_id)
        shared = self._reads.get(key)
        if shared is not None and shared[0] is epoch:
            read = shared[1]
        else:
            read = asyncio.ensure_future(self._read_events(match_id, after, seat))
            self._reads[key] = (epoch, read)
            read.add_done_callback(functools.partial(self._read_done, key))
        return await asyncio.shield(read)  # a stream that leaves does not cancel the others' read

    async def _read_events(self, match_id: str, after: int, seat: int | None) -> list[bytes]:
        async with self._stream_reads:
            return await self.store.events(match_id, after, MAX_EVENTS_PER_PAGE, seat)

    def _read_done(self, key: tuple[str, int, int | None], read: asyncio.Future) -> None:
        shared = self._reads.get(key)
        if shared is not None and shared[1] is read:
            del self._reads[key]
        if not read.cancelled():
            read.exception()  # retrieved: a failure whose streams all left is not reported as lost

    async def _notified(self, notice: asyncio.Event, seconds: float) -> bool:
        """Whether `notice` came within `seconds` (returns early, False, when
        the service starts draining)."""
        if notice.is_set():
            return True
        waits = (asyncio.ensure_future(notice.wait()), asyncio.ensure_future(self.draining.wait()))
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        return notice.is_set()

    # ---- actions -------------------------------------------------------------------

    async def submit(self, request: pb.SubmitActionRequest, token: str | None) -> pb.SubmitActionResponse:
        if not token:  # who asks comes before what they ask (as over REST)
            raise ParlorError("TOKEN_REQUIRED", "Acting needs the seat's token (Authorization: Bearer ...).")
        key = request.idempotency_key
        if key and not _IDEMPOTENCY_KEY.fullmatch(key):
            raise ParlorError("INVALID_IDEMPOTENCY_KEY",
                              "An idempotency key is 1 to 128 printable ASCII characters, no spaces.")
        which = request.action.WhichOneof("game")
        if which is None:
            raise ParlorError("INVALID_ACTION", "The request names no action.")
        digest = token_hash(token)
        # The record's field: hex digits of the token's hash, then the key. It
        # is written with 8 digits (two seats of a match sharing them, and a
        # key, is a 1 in 10^9 chance) and read with 16, then 8: a migration in
        # two releases, so that no retry is applied twice while replicas of two
        # versions serve side by side (or after a rollback). The next release
        # writes 16 (1 in 10^18); the one after stops reading 8, once matches
        # with such records have expired (PARLOR_ABANDONED_TTL_SECONDS).
        idem_fields = (f"{digest[:16]}:{key}", f"{digest[:8]}:{key}") if key else ()
        fingerprint = _fingerprint(request) if key else b""
        expected = request.expected_version if request.HasField("expected_version") else None
        for _ in range(MAX_ATTEMPTS):
            stored, record = await self._fetch(request.match_id, idem_fields, reuse=True)
            with self._kept_if_refused(record, stored):
                seat = _seat_of(record, digest)
                if request.HasField("seat") and request.seat != seat:
                    raise ParlorError("SEAT_MISMATCH", f"This token is for seat {seat}, not seat {request.seat}.",
                                      seat=request.seat)
                if stored.idempotency is not None:
                    reply = await self._replay(record, stored.version, seat, stored.idempotency,
                                               fingerprint)
                    metrics.action(record.game, "duplicate").inc()
                    self._records.give_back(record, stored.record)  # answered, not changed
                    return reply
                action, engine_events = self._play(record, stored.version, seat, request.action, which,
                                                   expected)
            game = _engine(record)
            outcome = game.outcome(record.state)
            events: list[Any] = list(engine_events)
            if outcome is not None:
                record.status = pb.FINISHED
                events.append({"match_finished": {"result": _result(outcome), "seed": record.seed}})
            first = record.last_event + 1
            idem = None
            if key:
                idem = (idem_fields[1], _IDEM_RECORD.pack(fingerprint, stored.version + 1, first,
                                                          first + len(events) - 1))
            try:
                built, data = await self._commit(record, stored.version, events,
                                                 action=orjson.dumps([seat, action]),
                                                 idempotency=idem, seat=seat)
            except DuplicateKey:
                continue  # the same request won a race: re-read finds its record and replays it
            except Conflict:
                metrics.action(record.game, "conflict").inc()
                # Somebody else wrote first: re-read, re-validate. With an
                # expectedVersion the re-read answers STALE_VERSION, unless the
                # writer was this very request, retried: then it finds the
                # idempotency record and replays the first answer.
                continue
            metrics.action(record.game, "accepted").inc()
            if record.finished:
                metrics.match(record.game, "finished").inc()
                await self._index(self.store.mark_finished(record.match_id))
            reply = pb.SubmitActionResponse(match=self._view_fields(record, stored.version + 1, seat),
                                            events=built)
            self._records.put(record, data)  # last: from here on another call may take it
            return reply
        raise _busy()

    @contextlib.contextmanager
    def _kept_if_refused(self, record: Record, stored: Stored) -> Iterator[None]:
        """Around the checks of a write that took `record` from the cache: a
        refusal gives it back, as read, so the next call need not decode it.
        Except after an engine's refusal (ILLEGAL_ACTION): engines leave their
        state untouched when they refuse, but should one ever leave a change
        behind, a kept record would carry it into the next write."""
        try:
            yield
        except ParlorError as err:
            if err.code != "ILLEGAL_ACTION":
                self._records.give_back(record, stored.record)
            raise

    @staticmethod
    def _play(record: Record, version: int, seat: int, request_action: pb.Action, which: str,
              expected: int | None) -> tuple[dict[str, Any], list[Event]]:
        """Plays the action on the record in place (state and RNG position):
        the action as an engine dict and the engine's events. A refusal raises
        ParlorError and leaves the record untouched."""
        if expected is not None and expected != version:
            metrics.action(record.game, "stale").inc()
            raise _stale(expected, version)
        if which != record.game:
            raise ParlorError("INVALID_ACTION", f"This match plays {record.game}, not {which}.")
        if record.status == pb.WAITING:
            raise ParlorError("MATCH_NOT_STARTED", "The match starts when every seat is taken.")
        if record.finished:
            raise ParlorError("MATCH_FINISHED", "The match is over.")
        action = wire.to_plain(getattr(request_action, which))
        rng = Rng.from_seed(record.seed, record.rng)
        try:
            events = _engine(record).play(record.state, seat, action, rng)
        except RulesError as exc:
            metrics.action(record.game, "illegal").inc()
            raise ParlorError("ILLEGAL_ACTION", exc.message, reason=exc.reason, **exc.details) from None
        record.rng = rng.counter
        return action, events

    async def _replay(self, record: Record, version: int, seat: int, stored: bytes,
                      fingerprint: bytes) -> pb.SubmitActionResponse:
        """The first response to an idempotent request, rebuilt without writing."""
        first_fingerprint, at_version, first, last = _IDEM_RECORD.unpack(stored)
        if first_fingerprint != fingerprint:
            raise ParlorError("IDEMPOTENCY_KEY_REUSED",
                              "This idempotency key was used for a different request on this match.")
        if at_version != version:
            # The answer to an older request needs the match as it was then, re-run
            # from the seed: up to thousands of actions for one call. A process
            # re-runs at most PARLOR_REPLAY_ACTIONS_PER_SECOND, so that retries of
            # old requests, however many, cannot crowd out play.
            if not self._rebuilds.take(at_version - record.players):
                raise ParlorError("TOO_MANY_REPLAYS",
                                  "Too many repeated requests are being answered again right now; "
                                  "try again in a few seconds.")
            record = await self._rebuild(record, at_version)
        raw = await self.store.events(record.match_id, first - 1, last - first + 1, seat,
                                      until=last)
        return pb.SubmitActionResponse(match=self._view_fields(record, at_version, seat),
                                       events=[pb.Event.FromString(data) for data in raw])

    async def _rebuild(self, record: Record, version: int) -> Record:
        """The record as it was at `version` (after every seat joined), re-run
        from the seed and the action log."""
        game = _engine(record)
        rng = Rng.from_seed(record.seed)
        past = copy.copy(record)
        past.state = game.new_state(record.players, record.options, rng)
        for data in await self.store.actions(record.match_id, version - record.players):
            seat, action = orjson.loads(data)
            game.play(past.state, seat, action, rng)
        past.rng = rng.counter
        past.status = pb.FINISHED if game.outcome(past.state) is not None else pb.ACTIVE
        return past

    # ---- helpers ---------------------------------------------------------------------

    @staticmethod
    async def _index(update: Awaitable[None]) -> None:
        """Keeps the active-match index. It runs after the write it follows was
        made, so no failure of its own may fail the call: Redis unavailable,
        or an error reply (a Redis user not allowed ZADD)."""
        try:
            await update
        except ParlorError:
            log.warning("active-match index not updated")  # (the store logged why)
        except Exception as exc:  # noqa: BLE001
            log.warning("active-match index not updated", extra={"error": str(exc)})

    async def _load(self, match_id: str) -> tuple[int, Record]:
        stored, record = await self._fetch(match_id)
        return stored.version, record

    async def _fetch(self, match_id: str, idempotency_fields: tuple[str, ...] = (),
                     reuse: bool = False) -> tuple[Stored, Record]:
        """The stored match (and an idempotency record) with its decoded record,
        which may be the one this process wrote last (RecordCache). `reuse`: the
        caller changes the record, so it gets one of its own; otherwise it may
        share the kept one, and reads it only until its next await."""
        stored = await self.store.load(_checked_id(match_id), idempotency_fields)
        if stored is None:
            raise _not_found(match_id)
        kept = (self._records.take if reuse else self._records.peek)(match_id, stored.record)
        if kept is not None:
            metrics.RECORD_HIT.inc()
            return stored, kept
        metrics.RECORD_MISS.inc()
        return stored, self._decode(stored.record)

    def _decode(self, data: bytes) -> Record:
        record = Record.decode(data)
        if games.engine(record.game, record.rules_version) is None:
            raise ParlorError(
                "RULES_VERSION_UNAVAILABLE",
                f"This match is played under {record.game} rules version {record.rules_version}, "
                "which this server does not run.", rules_version=record.rules_version)
        return record

    def _seat(self, record: Record, token: str | None, required: bool) -> int | None:
        if not token:
            if required:
                raise ParlorError("TOKEN_REQUIRED",
                                  "This needs a seat token (Authorization: Bearer <token>).")
            return None
        return _seat_of(record, token_hash(token))

    async def _commit(self, record: Record, version: int, events: list[Event | dict[str, Any]],
                      action: bytes = b"", idempotency: tuple[str, bytes] | None = None,
                      seat: int | None = None) -> tuple[list[pb.Event], bytes]:
        """Numbers and stores the events with the record at version+1; returns
        the events as `seat` sees them, and the record as stored."""
        new_version = version + 1
        stored, seen = [], []
        number = record.last_event
        for event in events:
            number += 1
            if isinstance(event, Event):
                public = pb.Event(number=number, version=new_version, **{record.game: event.public})
                private = {s: pb.Event(number=number, version=new_version, **{record.game: data})
                           for s, data in event.private.items()}
            else:
                public, private = pb.Event(number=number, version=new_version, **event), {}
            stored.append(NewEvent(number, public.SerializeToString(),
                                   {s: msg.SerializeToString() for s, msg in private.items()}))
            seen.append(private.get(seat, public) if seat is not None else public)
        record.last_event = number
        ttl = (self.settings.finished_ttl if record.finished
               else self._waiting_ttl if record.status == pb.WAITING
               else self.settings.abandoned_ttl)
        data = record.encode()
        await self.store.commit(record.match_id, version, data, ttl, stored, action, idempotency)
        return seen, data

    @property
    def _waiting_ttl(self) -> int:
        """A waiting match's TTL: never longer than an abandoned one's."""
        return min(self.settings.waiting_ttl, self.settings.abandoned_ttl)

    def _view(self, record: Record, version: int, seat: int | None) -> pb.Match:
        return pb.Match(**self._view_fields(record, version, seat))

    @staticmethod
    def _view_fields(record: Record, version: int, seat: int | None) -> dict[str, Any]:
        """The fields of `seat`'s view (None: a spectator's), for a Match built
        in place, e.g. inside a response, rather than built and then copied.
        While the match waits for players the game's view holds only its
        options, as the creator gave them: the table is set at creation (a
        first seat the creator left open is drawn then), but nothing of it is
        shown until play starts, when the opening events show it to everybody
        at once. (Shown earlier, a drawn first seat would let a joiner pick it.)"""
        game = _engine(record)
        view = game.view(record.state, seat)
        if record.status == pb.WAITING:
            view = {"options": {name: record.options[name] for name in view["options"]}}
        fields = dict(
            match_id=record.match_id, game=record.game, rules_version=record.rules_version,
            version=version, status=record.status,
            seats=[{"seat": s, "name": name or "", "joined": name is not None}
                   for s, name in enumerate(record.names)],
            seed_sha256=seed_sha256(record.seed), viewer_seat=seat,
            awaiting=game.to_act(record.state) if record.active else [],
            **{game.id: view})
        if record.finished:
            fields["seed"] = record.seed
            fields["result"] = _result(game.outcome(record.state))
        return fields


def _engine(record: Record) -> Game:
    """The engine of the rules `record` is played under (a decoded record's
    rules are ones this server runs: see _decode)."""
    game = games.engine(record.game, record.rules_version)
    assert game is not None, (record.game, record.rules_version)
    return game


def _game_info(game: Game) -> pb.GameInfo:
    options = []
    for opt in game.options:
        info = pb.OptionInfo(name=opt.name, type=opt.type, description=opt.description,
                             choices=opt.choices, minimum=opt.minimum, maximum=opt.maximum)
        if opt.default is None:
            info.default.null_value = 0
        elif isinstance(opt.default, bool):
            info.default.bool_value = opt.default
        elif isinstance(opt.default, int):
            info.default.number_value = opt.default
        else:
            info.default.string_value = opt.default
        options.append(info)
    return pb.GameInfo(id=game.id, title=game.title, min_players=game.min_players,
                       max_players=game.max_players, rules_version=game.rules_version, options=options)


def _open_seat(record: Record, asked: int | None) -> int:
    """The seat a join takes: `asked`, or the lowest open one."""
    if record.status != pb.WAITING:
        raise ParlorError("MATCH_FULL", "Every seat of this match is taken.")
    if asked is None:
        return record.names.index(None)
    if not 0 <= asked < record.players:
        raise ParlorError("INVALID_SEAT", f"Seats are numbered 0 to {record.players - 1}.", seat=asked)
    if record.names[asked] is not None:
        raise ParlorError("SEAT_TAKEN", f"Seat {asked} is taken.", seat=asked)
    return asked


def _result(outcome) -> dict[str, list[int]]:
    return {"scores": list(outcome.scores), "winners": list(outcome.winners)}


def _seat_of(record: Record, digest: str) -> int:
    """The seat whose token hashes to `digest`; INVALID_TOKEN if none."""
    for seat, stored in enumerate(record.token_hashes):
        if stored is not None and hmac.compare_digest(stored, digest):
            return seat
    raise ParlorError("INVALID_TOKEN", "The token is not valid for this match.")


def _join_digest(purpose: bytes, match_id: str, key: str) -> bytes:
    return hashlib.sha256(b"parlor-join-" + purpose + b"\x00" + match_id.encode() + b"\x00"
                          + key.encode()).digest()


def _join_field(match_id: str, key: str) -> str:
    """A join's idempotency record's field: a hash of the match id and key
    (the key, with the match id, decrypts the token, so it is not stored; and
    a key used in two matches is not seen to be the same). Action records'
    fields start with hex digits, so the two never meet."""
    return "join:" + _join_digest(b"key", match_id, key).hex()[:32]


def _seal(secret: bytes, match_id: str, key: str) -> bytes:
    """A token's 32 bytes encrypted (XOR) with a pad from the match id and key,
    or, given the encrypted ones, the token's: only a caller holding the key
    can have the token back."""
    return bytes(a ^ b for a, b in zip(secret, _join_digest(b"token", match_id, key)))


def _token_text(secret: bytes) -> str:
    """A seat token as handed out: its 32 bytes in URL-safe base64, unpadded."""
    return base64.urlsafe_b64encode(secret).rstrip(b"=").decode()


def _join_fingerprint(name: str, seat: int | None) -> bytes:
    body = orjson.dumps([name, seat])
    return hashlib.sha256(body).digest()[:16]


def _join_replay(match_id: str, key: str, stored: bytes, fingerprint: bytes) -> pb.JoinMatchResponse:
    """The first answer to a join retried with the same key."""
    first_fingerprint, seat, sealed = _JOIN_RECORD.unpack(stored)
    if first_fingerprint != fingerprint:
        raise ParlorError("IDEMPOTENCY_KEY_REUSED",
                          "This idempotency key was used for a different join of this match.")
    return pb.JoinMatchResponse(seat=seat, token=_token_text(_seal(sealed, match_id, key)))


def _fingerprint(request: pb.SubmitActionRequest) -> bytes:
    """What makes two requests "the same body" for idempotency."""
    body = request.action.SerializeToString(deterministic=True)
    expected = str(request.expected_version) if request.HasField("expected_version") else "-"
    return hashlib.sha256(body + b"|" + expected.encode()).digest()[:16]


def _checked_id(match_id: str) -> str:
    if not _MATCH_ID.fullmatch(match_id):
        raise _not_found(match_id)
    return match_id


def _not_found(match_id: str) -> ParlorError:
    return ParlorError("MATCH_NOT_FOUND", "There is no such match (or it has expired).",
                       match_id=match_id[:64])


def _stale(expected: int, current: int) -> ParlorError:
    return ParlorError("STALE_VERSION", f"The match is at version {current}, not {expected}; "
                       "re-read it and decide again.",
                       expected_version=expected, current_version=current)


def _busy() -> ParlorError:
    return ParlorError("CONFLICT", "The match is too busy right now; try again.")
