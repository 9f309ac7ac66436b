"""Error messages and details stay small, whatever the caller sent."""

from __future__ import annotations

from parlor.common.errors import DETAIL_BYTES, MESSAGE_BYTES, ParlorError, clip
from parlor.service.games.base import shown


def test_clip_cuts_on_a_character_boundary_and_says_so():
    assert clip("short", 10) == "short"
    cut = clip("\u00e9" * 100, 21)  # two bytes each
    assert cut == "\u00e9" * 9 + "..." and len(cut.encode()) <= 21
    assert clip("\U0001F0A1" * 10, 10) == "\U0001F0A1" + "..."  # four bytes each


def test_an_error_keeps_its_message_and_details_small():
    err = ParlorError("UNKNOWN_GAME", "x" * 5000, game="g" * 5000)
    assert len(err.message.encode()) <= MESSAGE_BYTES and err.message.endswith("...")
    assert len(err.details["game"].encode()) <= DETAIL_BYTES
    status = err.to_status()
    assert sum(len(k) + len(v) for k, v in status.trailing_metadata) < 4096


def test_shown_quotes_values_as_json_and_cuts_long_ones():
    assert shown("red") == '"red"'
    assert shown(None) == "null" and shown(7) == "7"
    assert shown("r" * 100) == '"' + "r" * 38 + "\u2026"
    assert len(shown("r" * 100)) == 40


def test_store_failures_are_logged_at_most_once_a_second_each(caplog, monkeypatch):
    """In an outage every call fails: one line a second per operation, with a count."""
    import logging

    from parlor.service import store

    clock = [100.0]
    monkeypatch.setattr(store.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(store, "_warned", {})
    with caplog.at_level(logging.WARNING, logger="parlor.service.store"):
        for _ in range(50):
            store._warn("redis unavailable", "load", "Connection refused")
        store._warn("redis unavailable", "commit", "Connection refused")
        clock[0] += 1.0
        store._warn("redis unavailable", "load", "Connection refused")
    lines = [(r.op, getattr(r, "not_logged", 0)) for r in caplog.records]
    assert lines == [("load", 0), ("commit", 0), ("load", 49)]
