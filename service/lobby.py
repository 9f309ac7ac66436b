"""The lobby: public matches, found by ListMatches and QuickMatch.

A public match has an entry in its shard's lobby (see store.py's key table):
created-time zsets per status (WAITING, ACTIVE) and per game, its summary, its
open seats and its expiry. Every write of the match updates them in the same
script (lobby_ops, as store.ShardOp), so the lobby never says other than the
matches do: a match that fills leaves the waiting list in the very write that
takes its last seat, a finished one leaves at once, and one that expires is
dropped by the next page that meets it (store.lobby_page, with its expiry). A
private match has no entry at all.

Quick match tables of one configuration (game, player count, options, turn
clock) live in the shard their configuration hashes to, so that one script
can find a table with a seat free and reserve it (store.quick_seat).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import Any

import orjson
from google.protobuf.timestamp_pb2 import Timestamp

from parlor.common.errors import ParlorError
from parlor.v1 import parlor_pb2 as pb

from .record import Record
from .store import SHARDS, ShardOp, quick_key, shard_key

MAX_PAGE = 100
DEFAULT_PAGE = 20
RESERVATION_MS = 10_000  # a quick-match seat reserved and not taken within this is free again
_STATUS = {pb.WAITING: "WAITING", pb.ACTIVE: "ACTIVE"}
_TOKEN = re.compile(r"(WAITING|ACTIVE)\|([a-z_]*)\|([0-9]{1,15})\|([a-z2-7]{24})")


def seats(record: Record) -> list[dict[str, Any]]:
    """The seats as every view and summary shows them."""
    return [{"seat": s, "name": name or "", "joined": name is not None, "bot": record.bot(s) or ""}
            for s, name in enumerate(record.names)]


def summary(record: Record) -> bytes:
    """The match's lobby entry: what a spectator may know before joining
    (nothing of the table itself), serialized. Its age is added when listed."""
    options = {name: value for name, value in record.options.items() if value is not None}
    return pb.MatchSummary(
        match_id=record.match_id, game=record.game, status=record.status, players=record.players,
        open_seats=record.names.count(None), seats=seats(record),
        created_at=_timestamp(record.created_ms), turn_seconds=record.turn_seconds,
        on_timeout=record.on_timeout, **{record.game: options}).SerializeToString()


def listed(data: bytes, now_ms: int) -> pb.MatchSummary:
    """A lobby entry as ListMatches answers it, with its age."""
    entry = pb.MatchSummary.FromString(data)
    entry.age_seconds = max(0, (now_ms - entry.created_at.ToMilliseconds()) // 1000)
    return entry


def lobby_ops(record: Record, before: int, now_ms: int, ttl_seconds: int, lobby_ttl_seconds: int,
              seats_changed: bool) -> list[ShardOp]:
    """The shard updates a write of `record` (whose status was `before`) makes
    to the lobby: none for a private match. `ttl_seconds`: the match's TTL
    from this write; `lobby_ttl_seconds`: the longest a match lives without a
    write (the lobby's keys live as long past their last write)."""
    if record.visibility != "public" or record.legacy:
        return []
    shard, match_id, game = record.match_id[0], record.match_id, record.game

    def key(name: str) -> str:
        return shard_key(shard, name)

    ops = []
    if record.status not in _STATUS:  # finished: out of the lobby
        listed_in = [key(f"lobby:{name}{suffix}") for name in _STATUS.values() for suffix in ("", f":{game}")]
        ops += [ShardOp("ZREM", k, (match_id,)) for k in (*listed_in, key("lobby:exp"))]
        ops += [ShardOp("HDEL", key("lobby:info"), (match_id,)), ShardOp("HDEL", key("lobby:open"), (match_id,))]
        return ops
    name = _STATUS[record.status]
    if before != record.status or seats_changed:
        if before != record.status and before in _STATUS:
            old = _STATUS[before]
            ops += [ShardOp("ZREM", key(f"lobby:{old}{suffix}"), (match_id,)) for suffix in ("", f":{game}")]
        ops += [ShardOp("ZADD", key(f"lobby:{name}{suffix}"), (record.created_ms, match_id))
                for suffix in ("", f":{game}")]
        ops.append(ShardOp("HSET", key("lobby:info"), (match_id, summary(record))))
    open_seats = record.names.count(None)
    if record.status == pb.WAITING:
        ops.append(ShardOp("HSET", key("lobby:open"), (match_id, open_seats)))
    else:
        ops.append(ShardOp("HDEL", key("lobby:open"), (match_id,)))
    if record.quick and (record.status != pb.WAITING or not open_seats):
        ops.append(ShardOp("ZREM", quick_key(shard, record.quick), (match_id,)))  # full: no longer open
    ops.append(ShardOp("ZADD", key("lobby:exp"), (now_ms + ttl_seconds * 1000, match_id)))
    touched = {op.key for op in ops if op.command in ("ZADD", "HSET")}
    ops += [ShardOp("PEXPIRE", k, (lobby_ttl_seconds * 1000,)) for k in sorted(touched)]
    return ops


def quick_config(game: str, players: int, options: dict[str, Any], turn_seconds: int,
                 on_timeout: str) -> tuple[str, str]:
    """A quick-match configuration's shard and key: a match is found for a
    call only if all of these are the same (options with defaults filled in)."""
    canonical = orjson.dumps([game, players, options, turn_seconds, on_timeout], option=orjson.OPT_SORT_KEYS)
    config = hashlib.sha256(canonical).hexdigest()[:24]
    return SHARDS[int(config[:4], 16) % len(SHARDS)], config


def page_token(status: int, game: str, created_ms: int, match_id: str) -> str:
    raw = f"{_STATUS[status]}|{game}|{created_ms}|{match_id}".encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def read_page_token(token: str, status: int, game: str) -> tuple[int, str]:
    """(created ms, match id) of the last entry a page gave; INVALID_PAGE_TOKEN
    for a token this server did not give for this listing."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raw = ""
    found = _TOKEN.fullmatch(raw)
    if found is None or found.group(1) != _STATUS[status] or found.group(2) != game:
        raise ParlorError("INVALID_PAGE_TOKEN", "The page token is not one this listing gave; "
                          "start again without it, or with the same game and status.")
    return int(found.group(3)), found.group(4)


def _timestamp(ms: int) -> Timestamp:
    stamp = Timestamp()
    stamp.FromMilliseconds(ms)
    return stamp
