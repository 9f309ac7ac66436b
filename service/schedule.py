"""Turn clocks and the worker's schedule: what a match has due, and when.

A match needs the worker when a bot is to move, when a person's turn clock
(match option turnSeconds) runs out, or when a quick-match table is to be
filled with bots. Every write of a match computes its next due time here and
writes it to its shard's schedule in the same script (store.ShardOp), so no
action is written without its schedule; the worker claims what is due
(store.claim) and does it through the same version-checked writes as any call
(Matches.work). Times are epoch ms on Redis's clock (store.now_ms).
"""

from __future__ import annotations

from parlor.v1 import parlor_pb2 as pb

from .games.base import Game
from .record import Record
from .store import ShardOp, shard_key

# What the worker does for a match, by kind (also the label of its metric).
FILL, BOT, TIMEOUT = "fill", "bot", "timeout"


def scheduled(record: Record) -> bool:
    """Whether the match ever needs the worker (and so has a place in its
    shard's schedule): it has bots, a turn clock, or bots to fill it."""
    return not record.legacy and bool((record.bots and any(record.bots)) or record.turn_seconds
                                      or record.fill_bots_at)


def set_deadlines(record: Record, game: Game, now_ms: int, actor: int | None = None) -> None:
    """Each seat a person holds that may act now gets a deadline turnSeconds
    from now, unless it already had one (a simultaneous choice the others
    have made); the seat that just acted (`actor`), still to act, starts
    afresh. Seats that may not act, and bots, have none."""
    if not record.turn_seconds:
        return
    old = record.deadlines or [None] * record.players
    awaiting = set(game.to_act(record.state)) if record.active else set()
    record.deadlines = [
        None if seat not in awaiting or record.bot(seat)
        else now_ms + record.turn_seconds * 1000 if old[seat] is None or seat == actor
        else old[seat]
        for seat in range(record.players)]


def next_due(record: Record, game: Game, now_ms: int) -> int | None:
    """When the worker next has something to do for the match (ms; now for a
    bot's move), None for nothing."""
    if record.status == pb.WAITING:
        return record.fill_bots_at if record.fill_bots_at and None in record.names else None
    if not record.active:
        return None
    awaiting = game.to_act(record.state)
    if any(record.bot(seat) for seat in awaiting):
        return now_ms
    deadlines = [record.deadlines[seat] for seat in awaiting
                 if record.deadlines and record.deadlines[seat] is not None]
    return min(deadlines) if deadlines else None


def due_work(record: Record, game: Game, now_ms: int) -> tuple[str, int] | None:
    """What the worker does now, if anything: (FILL, -1) bots take the open
    seats; (BOT, seat) a bot moves; (TIMEOUT, seat) a seat's clock ran out
    (the lowest such seat first: one seat per write)."""
    if record.status == pb.WAITING:
        if record.fill_bots_at and record.fill_bots_at <= now_ms and None in record.names:
            return FILL, -1
        return None
    if not record.active:
        return None
    awaiting = game.to_act(record.state)
    for seat in awaiting:
        if record.bot(seat):
            return BOT, seat
    for seat in awaiting:
        deadline = record.deadlines[seat] if record.deadlines else None
        if deadline is not None and deadline <= now_ms:
            return TIMEOUT, seat
    return None


def schedule_ops(record: Record, due: int | None) -> list[ShardOp]:
    """The shard updates that set the match's schedule to `due` (None:
    nothing due) with a write, and clear the count of its claims."""
    if not scheduled(record):
        return []
    shard, match_id = record.match_id[0], record.match_id
    due_key = shard_key(shard, "due")
    return [ShardOp("ZADD", due_key, (due, match_id)) if due is not None else ShardOp("ZREM", due_key, (match_id,)),
            ShardOp("HDEL", shard_key(shard, "claims"), (match_id,))]
