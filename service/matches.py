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

from . import bots, games, lobby, metrics, schedule, wire
from .allowance import Allowance
from .games.base import Event, Game, OptionError, RulesError, shown
from .games.rng import Rng
from .record import Record, RecordCache
from .store import Conflict, DuplicateKey, MatchStore, NewEvent, ShardOp, Stored, quick_key

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 16          # compare-and-set retries before giving up (ABORTED CONFLICT)
MAX_EVENTS_PER_PAGE = 10_000  # a whole match but the longest Heck ones (max_rounds raised)
STREAM_READS = 16          # event-stream reads in flight at once, per process
MAX_SEED_LENGTH = 256
MAX_NAME_LENGTH = 64
MAX_TURN_SECONDS = 86_400  # a turn clock runs 5 s to a day
MIN_TURN_SECONDS = 5
MAX_FILL_SECONDS = 3_600   # quick match: bots fill a table after at most an hour
QUICK_SECONDS = 5.0        # how long a quick match waits for a table being made, at most
MAX_WORK = 10_000          # writes the worker makes for one match in a row (a long match of bots)
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


@functools.lru_cache(maxsize=4096)
def seed_sha256(seed: str) -> str:
    """(Kept: every view shows it, and a match's seed never changes.)"""
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
        game, options = _game_and_options(request)
        table = _table_settings(request.visibility, request.turn_seconds, request.on_timeout)
        seated_bots = _bot_seats(request.bots, request.players)
        if request.HasField("seed"):
            if not self.settings.allow_fixed_seed:
                raise ParlorError("FIXED_SEED_DISABLED",
                                  "This server does not accept fixed seeds (PARLOR_ALLOW_FIXED_SEED is off).")
            if not 1 <= len(request.seed) <= MAX_SEED_LENGTH:
                raise ParlorError("INVALID_SEED", f"A seed is 1 to {MAX_SEED_LENGTH} characters.")
            seed = request.seed
        else:
            seed = secrets.token_urlsafe(24)  # 192 random bits
        record = self._new_record(game, request.players, options, seed, **table)
        events: list[Any] = []
        for seat, level in seated_bots:
            events.append(self._seat_bot(record, seat, level))
        events += self._start_if_full(record, game)
        while True:
            try:
                _, data = await self._commit(record, None, events, before=pb.MATCH_STATUS_UNSPECIFIED)
                break
            except Conflict:
                record.match_id = new_match_id()  # 120-bit ids: a clash is next to impossible
        metrics.match(game.id, "created").inc()
        log.info("match created", extra={"match_id": record.match_id, "game": game.id,
                                         "players": record.players})
        await self._started(record, pb.WAITING)
        view = self._view(record, 0, None)
        self._records.put(record, data, 0)  # last: from here on another call may take it
        return view

    def _new_record(self, game: Game, players: int, options: dict[str, Any], seed: str,
                    match_id: str | None = None, **table: Any) -> Record:
        rng = Rng.from_seed(seed)
        state = game.new_state(players, options, rng)
        return Record(
            match_id=match_id or new_match_id(), game=game.id, rules_version=game.rules_version,
            players=players, options=options, seed=seed, status=pb.WAITING,
            names=[None] * players, token_hashes=[None] * players, rng=rng.counter, last_event=0,
            state=state, bots=[None] * players, created_ms=self.store.now_ms(), **table)

    async def join(self, request: pb.JoinMatchRequest, reservation: str = "",
                   fill_bots_at: int | None = None) -> pb.JoinMatchResponse:
        """Takes a seat for the caller, or for a bot (request.bot). QuickMatch
        passes the seat `reservation` the join uses up, and when bots are to
        fill the match's open seats (the earliest time any caller asked for)."""
        level = request.bot
        if level and level not in bots.LEVELS:
            raise ParlorError("INVALID_BOT", f"A bot is {' or '.join(bots.LEVELS)}, not {shown(level)}.",
                              bot=level[:64])
        name = _checked_name(request.name.strip() or (f"{level.capitalize()} bot" if level else ""))
        asked = request.seat if request.HasField("seat") else None
        key = _checked_join_key(request.idempotency_key)
        idem_fields = (_join_field(request.match_id, key),) if key else ()
        fingerprint = _join_fingerprint(name, asked, level) if key else b""
        for _ in range(MAX_ATTEMPTS):
            stored, record = await self._fetch(request.match_id, idem_fields, reuse=True)
            version = stored.version
            with self._kept_if_refused(record, stored):
                if stored.idempotency is not None:
                    reply = _join_replay(record, key, stored.idempotency, fingerprint)
                    self._records.give_back(record, stored.record, stored.version)  # answered, not changed
                    return reply
                seat = _open_seat(record, asked)
                if level and record.legacy:
                    raise _too_old()
            game = _engine(record)
            if level:
                token, secret = "", bytes(32)
                events: list[Any] = [self._seat_bot(record, seat, level, name)]
            else:
                secret = secrets.token_bytes(32)
                token = _token_text(secret)
                record.names[seat] = name
                record.token_hashes[seat] = token_hash(token)
                events = [{"seat_joined": {"seat": seat, "name": name}}]
            if fill_bots_at is not None and (not record.fill_bots_at or fill_bots_at < record.fill_bots_at):
                record.fill_bots_at = fill_bots_at
            events += self._start_if_full(record, game)
            idem = None
            if key:  # (a bot's seat has no token: nothing sealed)
                sealed = bytes(32) if level else _seal(secret, record.match_id, key)
                idem = (idem_fields[0], _JOIN_RECORD.pack(fingerprint, seat, sealed))
            extra = [ShardOp("ZREM", quick_key(record.match_id[0], record.quick, "resv"),
                             (f"{record.match_id}|{reservation}",))] if reservation and record.quick else []
            try:
                _, data = await self._commit(record, version, events, idempotency=idem, before=pb.WAITING,
                                             seats_changed=True, extra_ops=extra)
            except (Conflict, DuplicateKey):
                # Another join wrote first (with this very key: the re-read replays it).
                continue
            log.info("seat joined", extra={"match_id": record.match_id, "seat": seat})
            await self._started(record, pb.WAITING)
            self._records.put(record, data, version + 1)  # last: from here on another call may take it
            return pb.JoinMatchResponse(seat=seat, token=token, match_id=record.match_id)
        raise _busy()

    @staticmethod
    def _seat_bot(record: Record, seat: int, level: str, name: str | None = None) -> dict[str, Any]:
        """Seats a bot (in the record) and returns the event that says so."""
        name = name or f"{level.capitalize()} bot"
        record.names[seat] = name
        _set_bot(record, seat, level)
        return {"seat_joined": {"seat": seat, "name": name, "bot": level}}

    def _start_if_full(self, record: Record, game: Game) -> list[Any]:
        """Starts play once every seat is taken: the events that show the table."""
        if record.status != pb.WAITING or None in record.names:
            return []
        record.status = pb.ACTIVE
        record.fill_bots_at = None
        schedule.set_deadlines(record, game, self.store.now_ms())
        return [{"match_started": {}}, *game.opening_events(record.state)]

    async def _started(self, record: Record, before: int) -> None:
        """After a write of a match whose status was `before`: if it started
        play, metrics and the active-match index."""
        if record.active and before != pb.ACTIVE:
            metrics.match(record.game, "started").inc()
            await self._index(self.store.mark_started(record.match_id, time.time()))

    # ---- leaving ---------------------------------------------------------------

    async def leave(self, request: pb.LeaveMatchRequest, token: str | None) -> pb.Match:
        """The caller leaves its seat: open again before play starts, a random
        bot's from then on. Its token stops working either way."""
        if not token:
            raise ParlorError("TOKEN_REQUIRED", "Leaving needs the seat's token (Authorization: Bearer ...).")
        digest = token_hash(token)
        for _ in range(MAX_ATTEMPTS):
            stored, record = await self._fetch(request.match_id, reuse=True)
            with self._kept_if_refused(record, stored):
                seat = _seat_of(record, digest)
                if request.seat != seat:
                    raise ParlorError("SEAT_MISMATCH", f"This token is for seat {seat}, not seat {request.seat}.",
                                      seat=request.seat)
                if record.finished:
                    raise ParlorError("MATCH_FINISHED", "The match is over.")
                if record.active and record.legacy:
                    raise _too_old()
            before = record.status
            _revoke_token(record, seat)
            if before == pb.WAITING:
                record.names[seat] = None
                events: list[Any] = [{"seat_left": {"seat": seat}}]
            else:
                _set_bot(record, seat, "random")
                events = [{"seat_left": {"seat": seat, "bot": "random"}}]
                schedule.set_deadlines(record, _engine(record), self.store.now_ms())
            try:
                _, data = await self._commit(record, stored.version, events, before=before, seats_changed=True)
            except Conflict:
                continue
            log.info("seat left", extra={"match_id": record.match_id, "seat": seat})
            view = self._view(record, stored.version + 1, None)
            self._records.put(record, data, stored.version + 1)
            return view
        raise _busy()

    # ---- the lobby ---------------------------------------------------------------

    async def list_matches(self, request: pb.ListMatchesRequest) -> pb.ListMatchesResponse:
        status = request.status or pb.WAITING
        if status not in (pb.WAITING, pb.ACTIVE):
            raise ParlorError("INVALID_ARGUMENT", "`status` is WAITING (matches to join) or ACTIVE "
                                                  "(matches to watch).")
        if request.game and games.get(request.game) is None:
            raise _unknown_game(request.game)
        if not 0 <= request.limit <= lobby.MAX_PAGE:
            raise ParlorError("INVALID_ARGUMENT", f"`limit` is 1 to {lobby.MAX_PAGE} "
                                                  f"(0 or none: {lobby.DEFAULT_PAGE}).")
        limit = request.limit or lobby.DEFAULT_PAGE
        before = lobby.read_page_token(request.page_token, status, request.game) if request.page_token else None
        page, cursor = await self.store.lobby_page(pb.MatchStatus.Name(status), request.game, before, limit)
        now = self.store.now_ms()
        return pb.ListMatchesResponse(
            matches=[lobby.listed(data, now) for _, _, data in page],
            next_page_token=lobby.page_token(status, request.game, *cursor) if cursor else "")

    async def quick(self, request: pb.QuickMatchRequest) -> pb.JoinMatchResponse:
        """A seat at an open public table of the request's configuration, or at
        a new one (see lobby.py): a seat is reserved there in one script, then
        taken with a join like any other."""
        game, options = _game_and_options(request)
        table = _table_settings("public", request.turn_seconds, request.on_timeout)
        if not 0 <= request.fill_with_bots_after <= MAX_FILL_SECONDS:
            raise ParlorError("INVALID_ARGUMENT", f"`fillWithBotsAfter` is 1 to {MAX_FILL_SECONDS} seconds "
                                                  "(0 or none: wait for people).")
        name = _checked_name(request.name.strip())
        key = _checked_join_key(request.idempotency_key)
        shard, config = lobby.quick_config(game.id, request.players, options, table["turn_seconds"],
                                           table["on_timeout"])
        fingerprint = hashlib.sha256(orjson.dumps([name, request.fill_with_bots_after])).hexdigest()[:32]
        idem = (_join_digest(b"quick", config, key).hex()[:32], fingerprint.encode()) if key else None
        reservation = secrets.token_hex(8)
        ttl_ms = self._waiting_ttl * 1000
        fill = request.fill_with_bots_after
        waited_until = time.monotonic() + QUICK_SECONDS
        while time.monotonic() < waited_until:
            kind, found = await self.store.quick_seat(shard, config, reservation, lobby.RESERVATION_MS,
                                                      idem, ttl_ms)
            if kind == "wait":  # another caller is making the next table
                await asyncio.sleep(0.01 + secrets.randbelow(20) / 1000)
                continue
            if kind == "again":
                first, _, match_id = found.decode().partition("|")
                if first != fingerprint:
                    raise ParlorError("IDEMPOTENCY_KEY_REUSED",
                                      "This idempotency key was used for a different quick match.")
            elif kind == "join":
                match_id = found.decode()
            else:
                match_id = await self._new_quick_table(game, request.players, options, table, shard, config,
                                                       reservation, idem)
            fill_at = self.store.now_ms() + fill * 1000 if fill else None
            try:
                return await self.join(pb.JoinMatchRequest(match_id=match_id, name=name, idempotency_key=key),
                                       reservation=reservation, fill_bots_at=fill_at)
            except ParlorError as err:
                if err.code not in ("MATCH_FULL", "SEAT_TAKEN", "MATCH_NOT_FOUND") or kind == "again":
                    raise
                # Taken by somebody who joined it by its id, or expired: another table.
        raise _busy()

    async def _new_quick_table(self, game: Game, players: int, options: dict[str, Any], table: dict[str, Any],
                               shard: str, config: str, reservation: str,
                               idem: tuple[str, bytes] | None) -> str:
        """Creates the next open table of a quick-match configuration, with a
        seat reserved for the caller, in the configuration's shard."""
        record = self._new_record(game, players, options, secrets.token_urlsafe(24),
                                  match_id=shard + new_match_id()[1:], quick=config, **table)
        while True:
            ops = [ShardOp("ZADD", quick_key(shard, config), (record.created_ms, record.match_id)),
                   ShardOp("ZADD", quick_key(shard, config, "resv"),
                           (record.created_ms + lobby.RESERVATION_MS, f"{record.match_id}|{reservation}")),
                   ShardOp("PEXPIRE", quick_key(shard, config), (self._waiting_ttl * 1000,)),
                   ShardOp("PEXPIRE", quick_key(shard, config, "resv"), (self._waiting_ttl * 1000,)),
                   ShardOp("DEL", quick_key(shard, config, "creating"))]
            if idem:
                ops += [ShardOp("HSET", quick_key(shard, config, "idem"),
                                (idem[0], idem[1] + b"|" + record.match_id.encode())),
                        ShardOp("PEXPIRE", quick_key(shard, config, "idem"), (self._waiting_ttl * 1000,))]
            try:
                _, data = await self._commit(record, None, [], before=pb.MATCH_STATUS_UNSPECIFIED, extra_ops=ops)
                break
            except Conflict:
                record.match_id = shard + new_match_id()[1:]
        metrics.match(game.id, "created").inc()
        log.info("match created", extra={"match_id": record.match_id, "game": game.id,
                                         "players": record.players, "quick": config})
        self._records.put(record, data, 0)
        return record.match_id

    # ---- replays and rules ---------------------------------------------------------

    async def replay(self, match_id: str) -> pb.Replay:
        stored, record = await self._fetch(match_id)
        if not record.finished:
            raise ParlorError("MATCH_NOT_FINISHED", "A match's replay is there once it is over "
                              "(its seed is revealed then).")
        game = _engine(record)
        version, seats = stored.version, lobby.seats(record)
        options = {name: value for name, value in record.options.items() if value is not None}
        result = _result(game.outcome(record.state))
        actions = [pb.ReplayAction(seat=seat, action=pb.Action(**{record.game: action}), version=at)
                   for seat, action, at in _logged(await self.store.actions(match_id, -1, record.legacy),
                                                   record.players)]
        return pb.Replay(match_id=record.match_id, game=record.game, rules_version=record.rules_version,
                         players=record.players, seats=seats, seed=record.seed,
                         seed_sha256=seed_sha256(record.seed), actions=actions, result=result,
                         version=version, **{record.game: options})

    @staticmethod
    def rules(request: pb.GetRulesRequest) -> pb.Rules:
        if games.get(request.game) is None:
            raise _unknown_game(request.game)
        return pb.Rules(game=request.game, markdown=games.rulebook(request.game))

    # ---- the worker ---------------------------------------------------------------------

    async def work(self, match_id: str) -> list[str]:
        """Does what the match has due now (schedule.due_work: bots filling its
        seats, a bot's move, a turn clock run out), one write each, through
        the same version-checked writes as every call, for as long as more is
        due at once (a table of bots plays on), at most MAX_WORK writes; then
        sets the match's schedule to what comes next. Returns what it did, by
        kind. A write that loses a race re-reads and decides again, so a move
        is never made twice and one made late is refused."""
        done: list[str] = []
        lost = 0
        while len(done) < MAX_WORK:
            try:
                stored, record = await self._fetch(match_id, reuse=True)
            except ParlorError as err:
                if err.code != "MATCH_NOT_FOUND":
                    raise
                await self.store.release(match_id, None, None)  # expired: off the schedule
                return done
            game = _engine(record)
            now = self.store.now_ms()
            due = schedule.due_work(record, game, now)
            if due is None:
                upcoming = schedule.next_due(record, game, now) if schedule.scheduled(record) else None
                await self.store.release(match_id, stored.version, upcoming, stored.legacy)
                self._records.give_back(record, stored.record, stored.version)
                return done
            kind, seat = due
            before = record.status
            events, action, label = self._do(record, game, kind, seat, stored.version, now)
            try:  # (it goes on at once with what comes due next: it holds the match meanwhile)
                _, data = await self._commit(record, stored.version, events, action=action, before=before,
                                             seats_changed=kind != schedule.BOT,
                                             holding_ms=self.settings.worker_lease * 1000)
            except (Conflict, DuplicateKey):
                lost += 1
                if lost >= MAX_ATTEMPTS:
                    return done
                continue
            await self._started(record, before)
            if record.finished:
                metrics.match(record.game, "finished").inc()
                await self._index(self.store.mark_finished(record.match_id))
            self._records.put(record, data, stored.version + 1)
            done.append(label)
        return done

    def _do(self, record: Record, game: Game, kind: str, seat: int, version: int,
            now: int) -> tuple[list[Any], bytes, str]:
        """Makes the worker's move `kind` on the record: its events, the
        action for the match's log (b"" for none), and what it was (fill,
        bot_random, bot_strong, timeout_default, timeout_bot)."""
        if kind == schedule.FILL:
            events = [self._seat_bot(record, open_seat, "random")
                      for open_seat, name in enumerate(record.names) if name is None]
            return events + self._start_if_full(record, game), b"", "fill"
        events: list[Any] = []
        if kind == schedule.TIMEOUT:
            label = f"timeout_{record.on_timeout}"
            if record.on_timeout == "bot":
                _revoke_token(record, seat)
                _set_bot(record, seat, "random")
                events.append({"turn_timed_out": {"seat": seat, "bot": "random"}})
            else:
                events.append({"turn_timed_out": {"seat": seat}})
        else:
            label = f"bot_{record.bot(seat)}"
        level = record.bot(seat)
        if level:
            action = bots.choose(game, level, game.view(record.state, seat), game.legal(record.state, seat),
                                 seat, bots.bot_rng(record.seed, seat, version))
        else:
            action = game.timeout_action(record.state, seat, bots.bot_rng(record.seed, seat, version))
        rng = Rng.from_seed(record.seed, record.rng)
        events += game.play(record.state, seat, action, rng)
        record.rng = rng.counter
        events += self._finish_if_over(record, game)
        schedule.set_deadlines(record, game, now, actor=seat)
        return events, orjson.dumps([seat, action, version + 1]), label

    @staticmethod
    def _finish_if_over(record: Record, game: Game) -> list[Any]:
        outcome = game.outcome(record.state)
        if outcome is None:
            return []
        record.status = pb.FINISHED
        record.deadlines = None
        return [{"match_finished": {"result": _result(outcome), "seed": record.seed}}]

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
        raw = await self.store.events(record.match_id, request.after, limit, seat, legacy=record.legacy)
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
            raw = await self._stream_events(match_id, after, seat, record.legacy)
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
                    raw = await self._stream_events(match_id, after, seat, record.legacy)
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

    async def _stream_events(self, match_id: str, after: int, seat: int | None,
                             legacy: bool = False) -> list[bytes]:
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
            read = asyncio.ensure_future(self._read_events(match_id, after, seat, legacy))
            self._reads[key] = (epoch, read)
            read.add_done_callback(functools.partial(self._read_done, key))
        return await asyncio.shield(read)  # a stream that leaves does not cancel the others' read

    async def _read_events(self, match_id: str, after: int, seat: int | None, legacy: bool) -> list[bytes]:
        async with self._stream_reads:
            return await self.store.events(match_id, after, MAX_EVENTS_PER_PAGE, seat, legacy=legacy)

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
        if request.reply not in ("", "view", "events"):
            raise ParlorError("INVALID_ARGUMENT", f"`reply` is \"view\" (the default) or \"events\", "
                                                  f"not {shown(request.reply)}.")
        with_view = request.reply != "events"
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
        # The first attempt acts on the record this process kept, if any, without
        # reading Redis: the write checks its version, and one that lost answers
        # with the match as it stands, so an uncontended action costs one round
        # trip. What such a record refuses is decided again on a record read from
        # Redis (with the idempotency record), as it may be out of date.
        unread = self._records.latest(request.match_id) if _MATCH_ID.fullmatch(request.match_id) else None
        current: Stored | None = None
        for _ in range(MAX_ATTEMPTS):
            if unread is not None:
                version, data, record = unread
                stored, unread = Stored(version, data, None, record.legacy), None
                confirmed = False
            elif current is not None:
                stored, current = current, None
                record, confirmed = self._decoded(stored), False
            else:
                stored, record = await self._fetch(request.match_id, idem_fields, reuse=True)
                confirmed = True
            try:
                with self._kept_if_refused(record, stored):
                    seat = _seat_of(record, digest)
                    if request.HasField("seat") and request.seat != seat:
                        raise ParlorError("SEAT_MISMATCH", f"This token is for seat {seat}, "
                                          f"not seat {request.seat}.", seat=request.seat)
                    if stored.idempotency is not None:
                        reply = await self._replay(record, stored.version, seat, stored.idempotency,
                                                   fingerprint, with_view)
                        metrics.action(record.game, "duplicate").inc()
                        self._records.give_back(record, stored.record, stored.version)  # answered, not changed
                        return reply
                    action, engine_events = self._play(record, stored.version, seat, request.action, which,
                                                       expected, count=confirmed)
            except ParlorError:
                if confirmed:
                    raise
                continue  # decided on a record not read from Redis: read it, and decide again
            game = _engine(record)
            events: list[Any] = [*engine_events, *self._finish_if_over(record, game)]
            schedule.set_deadlines(record, game, self.store.now_ms(), actor=seat)
            first = record.last_event + 1
            idem = None
            if key:
                idem = (idem_fields[1], _IDEM_RECORD.pack(fingerprint, stored.version + 1, first,
                                                          first + len(events) - 1))
            try:
                built, data = await self._commit(record, stored.version, events,
                                                 action=orjson.dumps([seat, action, stored.version + 1]),
                                                 idempotency=idem, seat=seat, before=pb.ACTIVE)
            except DuplicateKey:
                continue  # the same request won a race: re-read finds its record and replays it
            except Conflict as lost:
                current = lost.current  # (None: read it again)
                if confirmed:
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
                                            events=built) if with_view else pb.SubmitActionResponse(events=built)
            self._records.put(record, data, stored.version + 1)  # last: from here on another call may take it
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
                self._records.give_back(record, stored.record, stored.version)
            raise

    @staticmethod
    def _play(record: Record, version: int, seat: int, request_action: pb.Action, which: str,
              expected: int | None, count: bool = True) -> tuple[dict[str, Any], list[Event]]:
        """Plays the action on the record in place (state and RNG position):
        the action as an engine dict and the engine's events. A refusal raises
        ParlorError and leaves the record untouched (and is counted in the
        metrics if `count`: a refusal that stands)."""
        if expected is not None and expected != version:
            if count:
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
            if count:
                metrics.action(record.game, "illegal").inc()
            raise ParlorError("ILLEGAL_ACTION", exc.message, reason=exc.reason, **exc.details) from None
        record.rng = rng.counter
        return action, events

    async def _replay(self, record: Record, version: int, seat: int, stored: bytes,
                      fingerprint: bytes, with_view: bool = True) -> pb.SubmitActionResponse:
        """The first response to an idempotent request, rebuilt without writing."""
        first_fingerprint, at_version, first, last = _IDEM_RECORD.unpack(stored)
        if first_fingerprint != fingerprint:
            raise ParlorError("IDEMPOTENCY_KEY_REUSED",
                              "This idempotency key was used for a different request on this match.")
        if at_version != version and with_view:
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
                                      until=last, legacy=record.legacy)
        events = [pb.Event.FromString(data) for data in raw]
        if not with_view:
            return pb.SubmitActionResponse(events=events)
        return pb.SubmitActionResponse(match=self._view_fields(record, at_version, seat), events=events)

    async def _rebuild(self, record: Record, version: int) -> Record:
        """The record as it was at `version` (after every seat joined), re-run
        from the seed and the action log."""
        game = _engine(record)
        rng = Rng.from_seed(record.seed)
        past = copy.copy(record)
        past.state = game.new_state(record.players, record.options, rng)
        # (every action took at least a version: the first `version` hold those up to it)
        for seat, action, at in _logged(await self.store.actions(record.match_id, version, record.legacy),
                                        record.players):
            if at > version:
                break
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
        return stored, self._decoded(stored)

    def _decoded(self, stored: Stored) -> Record:
        """The record of `stored` (as a write's refusal answered it), decoded."""
        metrics.RECORD_MISS.inc()
        record = self._decode(stored.record)
        record.legacy = stored.legacy
        return record

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

    async def _commit(self, record: Record, version: int | None, events: list[Event | dict[str, Any]],
                      action: bytes = b"", idempotency: tuple[str, bytes] | None = None,
                      seat: int | None = None, before: int = pb.ACTIVE, seats_changed: bool = False,
                      extra_ops: list[ShardOp] = (), holding_ms: int = 0) -> tuple[list[pb.Event], bytes]:
        """Numbers and stores the events with the record at version+1 (a new
        match, version None: at 0), together with the shard's updates: the
        match's schedule, its lobby entry (`before`: its status before this
        write; `seats_changed`: who sits where changed) and `extra_ops`. Work
        due at once is announced to the workers, unless the writer is a worker
        going on with it (`holding_ms`: it keeps the match this much longer,
        as its claim would have). Returns the events as `seat` sees them, and
        the record as stored."""
        new_version = 0 if version is None else version + 1
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
        ops: list[ShardOp] = []
        work_now = False
        if not record.legacy:
            now = self.store.now_ms()
            if schedule.scheduled(record):
                due = schedule.next_due(record, _engine(record), now)
                if due is not None and due <= now:
                    if holding_ms:
                        due = now + holding_ms
                    else:
                        work_now = True
                ops += schedule.schedule_ops(record, due)
            ops += lobby.lobby_ops(record, before, now, ttl, self.settings.abandoned_ttl, seats_changed)
            ops += extra_ops
        data = record.encode()
        await self.store.commit(record.match_id, version, data, ttl, stored, action, idempotency, ops,
                                record.legacy, work_now)
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
            version=version, status=record.status, seats=lobby.seats(record),
            seed_sha256=seed_sha256(record.seed), viewer_seat=seat,
            awaiting=game.to_act(record.state) if record.active else [],
            turn_seconds=record.turn_seconds, on_timeout=record.on_timeout, visibility=record.visibility,
            **{game.id: view})
        if record.deadlines and record.active:
            fields["deadlines"] = [{"seat": s, "at": {"seconds": at // 1000, "nanos": at % 1000 * 1_000_000}}
                                   for s, at in enumerate(record.deadlines) if at is not None]
        if record.finished:
            fields["seed"] = record.seed
            fields["result"] = _result(game.outcome(record.state))
        return fields


def _checked_name(name: str) -> str:
    """A seat's name as given (stripped), or INVALID_NAME."""
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable() or not _shows(name):
        raise ParlorError("INVALID_NAME", f"A name is 1 to {MAX_NAME_LENGTH} printable characters, "
                                          "at least one of them visible.")
    return name


def _checked_join_key(key: str) -> str:
    """A join's (or quick match's) idempotency key, or INVALID_IDEMPOTENCY_KEY."""
    if key and not _JOIN_KEY.fullmatch(key):
        raise ParlorError("INVALID_IDEMPOTENCY_KEY",
                          "An idempotency key for a join is 16 to 128 printable ASCII characters, "
                          "no spaces, and hard to guess (a random UUID, say): it gets the seat's "
                          "token again.")
    return key


def _unknown_game(game_id: str) -> ParlorError:
    named = f"There is no game {shown(game_id)}" if game_id else "The request names no game"
    return ParlorError("UNKNOWN_GAME", f"{named}; the games are {', '.join(games.GAMES)}.", game=game_id)


def _game_and_options(request: pb.CreateMatchRequest | pb.QuickMatchRequest) -> tuple[Game, dict[str, Any]]:
    """The game a create (or quick match) names and its options, every one with its value."""
    game = games.get(request.game)
    if game is None:
        raise _unknown_game(request.game)
    if request.players == 0:  # proto3: absent and 0 look alike
        raise ParlorError("INVALID_PLAYER_COUNT", f"The request gives no player count (players); "
                          f"{game.title} is played by {game.min_players} to {game.max_players} players.")
    given = request.WhichOneof("options")
    if given is not None and given != game.id:
        raise ParlorError("INVALID_OPTION", f"Options for {given} do not fit a {game.id} match.")
    try:
        return game, game.resolve_options(
            request.players, wire.options_to_plain(getattr(request, given)) if given else {})
    except OptionError as exc:
        code = "INVALID_OPTION" if exc.option else "INVALID_PLAYER_COUNT"
        raise ParlorError(code, exc.message, option=exc.option) from None


def _table_settings(visibility: str, turn_seconds: int, on_timeout: str) -> dict[str, Any]:
    """A match's own settings (beside the game's options), checked, as Record fields."""
    if visibility not in ("", "private", "public"):
        raise ParlorError("INVALID_VISIBILITY", f"`visibility` is \"public\" or \"private\", not {shown(visibility)}.")
    if turn_seconds and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise ParlorError("INVALID_TURN_SECONDS", f"`turnSeconds` is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} "
                          "(a day), or 0 for no turn clock.", turn_seconds=turn_seconds)
    if on_timeout not in ("", "default", "bot"):
        raise ParlorError("INVALID_ON_TIMEOUT", f"`onTimeout` is \"default\" (the game's default move) or "
                          f"\"bot\" (a bot takes the seat), not {shown(on_timeout)}.")
    return {"visibility": visibility or "private", "turn_seconds": turn_seconds,
            "on_timeout": on_timeout or "default"}


def _bot_seats(asked, players: int) -> list[tuple[int, str]]:
    """The (seat, level) of each bot a create asks for: the seats named, then
    the highest open seats for the bots without one."""
    if len(asked) > players:
        raise ParlorError("INVALID_BOT", f"{len(asked)} bots do not fit {players} seats.")
    named: dict[int, str] = {}
    unnamed = []
    for bot in asked:
        level = bot.level or "random"
        if level not in bots.LEVELS:
            raise ParlorError("INVALID_BOT", f"A bot is {' or '.join(bots.LEVELS)}, not {shown(bot.level)}.",
                              bot=bot.level[:64])
        if not bot.HasField("seat"):
            unnamed.append(level)
        elif not 0 <= bot.seat < players:
            raise ParlorError("INVALID_SEAT", f"Seats are numbered 0 to {players - 1}.", seat=bot.seat)
        elif bot.seat in named:
            raise ParlorError("INVALID_SEAT", f"Seat {bot.seat} is given two bots.", seat=bot.seat)
        else:
            named[bot.seat] = level
    free = [seat for seat in reversed(range(players)) if seat not in named]
    return sorted([*named.items(), *zip(free, unnamed)])


def _logged(entries: list[bytes], players: int) -> Iterator[tuple[int, dict[str, Any], int]]:
    """The action log's entries: (seat, action, the version it brought). An
    entry written before versions were logged has none: those matches took
    one version per seat joined, then one per action."""
    for index, data in enumerate(entries):
        entry = orjson.loads(data)
        yield entry[0], entry[1], entry[2] if len(entry) > 2 else players + index + 1


def _set_bot(record: Record, seat: int, level: str) -> None:
    """Gives `seat` to a bot of `level` (a record from before bots has no
    list of them yet)."""
    if record.bots is None:
        record.bots = [None] * record.players
    record.bots[seat] = level


def _revoke_token(record: Record, seat: int) -> None:
    """Takes the seat's token away, its hash kept in `left` so that the
    token is refused as one whose seat was left (see _seat_of)."""
    record.left = [*(record.left or ()), record.token_hashes[seat]]
    record.token_hashes[seat] = None


def _too_old() -> ParlorError:
    return ParlorError("MATCH_TOO_OLD", "This match was created by an earlier version of the service, which "
                                        "had no bots: it plays on as before, without them.")


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
                       max_players=game.max_players, rules_version=game.rules_version, options=options,
                       rules_url=f"/v1/games/{game.id}/rules")


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
    if record.left and any(hmac.compare_digest(gone, digest) for gone in record.left):
        raise ParlorError("INVALID_TOKEN", "This token's seat was left (or taken over by a bot when its "
                                           "turn clock ran out): the token no longer works.")
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


def _join_fingerprint(name: str, seat: int | None, bot: str = "") -> bytes:
    body = orjson.dumps([name, seat, bot] if bot else [name, seat])
    return hashlib.sha256(body).digest()[:16]


def _join_replay(record: Record, key: str, stored: bytes, fingerprint: bytes) -> pb.JoinMatchResponse:
    """The first answer to a join retried with the same key (a bot's has no token)."""
    first_fingerprint, seat, sealed = _JOIN_RECORD.unpack(stored)
    if first_fingerprint != fingerprint:
        raise ParlorError("IDEMPOTENCY_KEY_REUSED",
                          "This idempotency key was used for a different join of this match.")
    token = "" if not any(sealed) else _token_text(_seal(sealed, record.match_id, key))
    return pb.JoinMatchResponse(seat=seat, token=token, match_id=record.match_id)


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
