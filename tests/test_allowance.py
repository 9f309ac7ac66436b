"""The per-process allowance for re-running matches (service/allowance.py)."""

from __future__ import annotations

from parlor.service.allowance import Allowance


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_it_starts_full_refills_at_its_rate_and_holds_one_seconds_worth():
    clock = Clock()
    allowance = Allowance(100, clock)
    assert allowance.take(60) and allowance.take(40)
    assert not allowance.take(1)
    clock.now += 0.25
    assert not allowance.take(26) and allowance.take(25)
    clock.now += 60  # idle for a minute: still one second's worth, no more
    assert allowance.take(100) and not allowance.take(1)


def test_a_refused_request_takes_nothing():
    clock = Clock()
    allowance = Allowance(10, clock)
    assert allowance.take(8)
    assert not allowance.take(5)
    assert allowance.take(2)


def test_more_than_it_can_hold_passes_when_full_and_leaves_it_in_debt():
    clock = Clock()
    allowance = Allowance(10, clock)
    assert allowance.take(35)  # a re-run longer than a second's worth is never refused for good
    clock.now += 2.4  # 24 in: still 1 in debt
    assert not allowance.take(1)
    clock.now += 1.1  # full again
    assert allowance.take(10)
    assert not allowance.take(35)  # not full
