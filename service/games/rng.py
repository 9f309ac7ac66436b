"""The match RNG: every shuffle and random draw of a match comes from here.

SHA-256 in counter mode, keyed by the match seed. Its whole position is one integer
(`counter`), stored with the match, so a match re-runs exactly from its seed and
action log, and nobody who lacks the seed can predict a draw from earlier ones.
"""

from __future__ import annotations

import hashlib
from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_DOMAIN = b"parlor-rng-v1\x00"
_TWO64 = 1 << 64


class Rng:
    __slots__ = ("_key", "counter")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        self._key = key
        self.counter = counter

    @classmethod
    def from_seed(cls, seed: str, counter: int = 0) -> "Rng":
        return cls(hashlib.sha256(_DOMAIN + seed.encode("utf-8")).digest(), counter)

    def _next64(self) -> int:
        block = hashlib.sha256(self._key + self.counter.to_bytes(8, "big")).digest()
        self.counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = _TWO64 - _TWO64 % n  # reject the biased tail
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
