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

    @property
    def active(self) -> bool:
        return self.status == pb.ACTIVE

    @property
    def finished(self) -> bool:
        return self.status == pb.FINISHED

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
