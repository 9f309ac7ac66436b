"""A per-process allowance for work a caller can ask for far beyond its own
call's cost: re-running a match from its seed to answer a retry of an older
request again (an idempotent replay).

A token bucket: `rate` units a second flow in, and it holds at most one
second's worth. A request for more than it holds is refused; a request for
more than it can ever hold passes when it is full, and leaves it in debt, so
that every request can pass, just not often.
"""

from __future__ import annotations

import time
from typing import Callable


class Allowance:
    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._level = rate
        self._at = clock()

    def take(self, amount: float) -> bool:
        """Takes `amount` if the allowance has it now (True); else takes nothing (False)."""
        now = self._clock()
        self._level = min(self.rate, self._level + (now - self._at) * self.rate)
        self._at = now
        if self._level < min(amount, self.rate):
            return False
        self._level -= amount
        return True
