"""How many live event streams a gateway worker keeps open at once: each holds a
thread, and a quarter of the threads (at least one) stay for other requests (the
limit at work is tested in tests/integration/test_live_events.py)."""

import pytest

from parlor.gateway import stream_slots


@pytest.mark.parametrize("threads, slots", [(1, 0), (2, 1), (3, 2), (4, 3), (7, 6), (8, 6),
                                            (64, 48), (1024, 768)])
def test_a_quarter_of_the_threads_at_least_one_stays_for_other_requests(threads, slots):
    assert stream_slots(threads) == slots
