"""The stored form of a match: everything the service keeps about it, secrets
included (seed, deck order, hands, token hashes). Never sent to clients: views
are built from it by service/matches.py and the game's engine.

Encoded as compact JSON (orjson: about ten times faster than the standard
library on this hot path), zlib-compressed when large; the first byte says
which, so the format can evolve without a migration.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from parlor.v1 import parlor_pb2 as pb

_PLAIN, _ZLIB = b"j", b"z"
_COMPRESS_FROM = 4096  # bytes of JSON; below this, compressing costs more CPU than it saves memory


@dataclass
class Record:
    match_id: str
    game: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: str
    status: int                     # pb.MatchStatus value
    names: list[str | None]         # per seat; None while open
    token_hashes: list[str | None]  # per seat: SHA-256 hex of the seat token
    rng: int                        # the match RNG's position
    last_event: int                 # number of the latest event (0: none)
    state: dict[str, Any]           # the engine's state
    # Added with bots, clocks and the lobby; records written before them lack
    # these fields and decode with the defaults (a match as it always was).
    bots: list[str | None] | None = None       # per seat: the bot's level, None for a person or open
    turn_seconds: int = 0                      # the turn clock (0: none)
    on_timeout: str = "default"                # "default" or "bot"
    deadlines: list[int | None] | None = None  # per seat: when its turn clock runs out (epoch ms)
    visibility: str = "private"                # "private" or "public"
    created_ms: int = 0                        # when it was created (epoch ms; 0: not known)
    left: list[str] | None = None              # token hashes of seats left (their tokens are refused)
    fill_bots_at: int | None = None            # quick match: when bots take the open seats (epoch ms)
    quick: str | None = None                   # quick match: the configuration's key (its lobby)
    legacy: bool = False                       # stored under the keys of the first layout (store.keys)

    @property
    def active(self) -> bool:
        return self.status == pb.ACTIVE

    @property
    def finished(self) -> bool:
        return self.status == pb.FINISHED

    def bot(self, seat: int) -> str | None:
        """The level of the bot holding `seat`, None for a person or an open seat."""
        return self.bots[seat] if self.bots else None

    def encode(self) -> bytes:
        raw = orjson.dumps(self.__dict__)
        if len(raw) >= _COMPRESS_FROM:
            return _ZLIB + zlib.compress(raw, 1)
        return _PLAIN + raw

    @classmethod
    def decode(cls, data: bytes) -> "Record":
        kind, body = data[:1], data[1:]
        if kind == _ZLIB:
            body = zlib.decompress(body)
        elif kind != _PLAIN:
            raise ValueError(f"unknown record format {kind!r}")
        return cls(**orjson.loads(body))


class RecordCache:
    """The records this process wrote last (or read, for a call it refused),
    decoded, with their version, so that the next call on a match skips
    decoding it again, and an action skips reading it (latest()).

    An entry is used for a read only for exactly the bytes it was encoded to: a
    record read from Redis is looked up together with those bytes, so a match
    written meanwhile by another replica (or a lost race) simply misses. An
    action may take the entry without reading Redis first (latest()): its
    write is a compare-and-set on the entry's version, so an entry another
    replica has overtaken costs a refused write (answered with the current
    record), never a wrong one. Taking an entry removes it, since the taker
    changes the record in place; it comes back with the next write, or is given
    back unchanged when the call is refused before any engine ran. Reads may
    peek at an entry without taking it. Bounded (PARLOR_RECORD_CACHE_MATCHES; 0
    keeps none): the least recently written go first.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._entries: dict[str, tuple[bytes, Record, int]] = {}

    def take(self, match_id: str, data: bytes) -> Record | None:
        """The record stored as `data`, if it is the one kept, for the caller
        to change (it is no longer kept); None otherwise (and the kept one
        stays: the caller may have read older bytes than it)."""
        found = _same(self._entries.get(match_id), data)
        if found is not None:
            del self._entries[match_id]
        return found

    def peek(self, match_id: str, data: bytes) -> Record | None:
        """As take(), but the record stays kept: the caller only reads it, and
        not across an await (a taker may change it meanwhile)."""
        return _same(self._entries.get(match_id), data)

    def latest(self, match_id: str) -> tuple[int, bytes, Record] | None:
        """The kept record as (version, bytes, record), taken (as take() does),
        without knowing what Redis holds: for a write that checks the version."""
        entry = self._entries.pop(match_id, None)
        return None if entry is None else (entry[2], entry[0], entry[1])

    def put(self, record: Record, data: bytes, version: int) -> None:
        """Keeps `record`, just written as `data` at `version` (and not to be
        changed by the caller any more), unless the one kept for its match is
        as new or newer (written by another call meanwhile)."""
        entries = self._entries
        kept = entries.get(record.match_id)
        if not self.size or (kept is not None and kept[2] >= version and kept[1] is not record):
            return
        entries.pop(record.match_id, None)
        entries[record.match_id] = (data, record, version)
        if len(entries) > self.size:
            del entries[next(iter(entries))]

    # A record its taker left as it was read (`data`: the bytes it was read as)
    # is kept as a written one is.
    give_back = put


def _same(entry: tuple[bytes, Record, int] | None, data: bytes) -> Record | None:
    """The kept record if it was written as exactly `data`."""
    return entry[1] if entry is not None and entry[0] == data else None
