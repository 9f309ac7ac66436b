"""The stored record's encoding, and the per-process cache of decoded records."""

from parlor.service.record import Record, RecordCache


def record(match_id: str, rng: int = 0) -> Record:
    return Record(match_id=match_id, game="what_the_heck", rules_version="1", players=2,
                  options={}, seed="s", status=1, names=[None, None], token_hashes=[None, None],
                  rng=rng, last_event=0, state={"players": 2})


def test_records_round_trip_plain_and_compressed():
    small = record("a")
    assert Record.decode(small.encode()) == small
    large = record("b")
    large.state["filler"] = list(range(3000))
    assert large.encode()[:1] == b"z"
    assert Record.decode(large.encode()) == large


def test_a_kept_record_is_given_out_once_and_only_for_its_own_bytes():
    cache, kept = RecordCache(), record("a")
    cache.put(kept, kept.encode(), kept.last_event)
    assert cache.take("a", record("a", rng=1).encode()) is None  # other bytes: not this record
    assert cache.take("a", kept.encode()) is kept                 # (still kept for its own)
    assert cache.take("a", kept.encode()) is None                 # taken: the taker changes it


def test_the_cache_keeps_the_most_recently_written():
    cache = RecordCache(size=2)
    records = [record(name) for name in "abc"]
    for r in records:
        cache.put(r, r.encode(), r.last_event)
    cache.put(records[1], records[1].encode(), records[1].last_event)  # b again: now the most recent
    assert cache.take("a", records[0].encode()) is None
    assert cache.take("b", records[1].encode()) is records[1]
    assert cache.take("c", records[2].encode()) is records[2]


def test_a_cache_of_size_zero_keeps_nothing():
    cache, kept = RecordCache(size=0), record("a")
    cache.put(kept, kept.encode(), kept.last_event)
    assert cache.take("a", kept.encode()) is None


def test_a_peek_leaves_the_record_kept():
    cache, kept = RecordCache(), record("a")
    cache.put(kept, kept.encode(), kept.last_event)
    assert cache.peek("a", record("a", rng=1).encode()) is None  # other bytes: not this record
    assert cache.peek("a", kept.encode()) is kept
    assert cache.take("a", kept.encode()) is kept                  # still there after both peeks


def test_a_record_given_back_is_kept_unless_a_newer_one_was_meanwhile():
    cache, older, newer = RecordCache(), record("a"), record("a", rng=1)
    newer.last_event = 1
    cache.give_back(older, older.encode(), older.last_event)
    assert cache.take("a", older.encode()) is older
    cache.put(newer, newer.encode(), newer.last_event)                # written while `older` was out
    cache.give_back(older, older.encode(), older.last_event)
    assert cache.peek("a", newer.encode()) is newer  # the newer one stays
    cache.take("a", newer.encode())
    cache.give_back(older, older.encode(), older.last_event)          # both out; the older comes back first...
    cache.give_back(newer, newer.encode(), newer.last_event)          # ...and gives way to the newer
    assert cache.take("a", newer.encode()) is newer
    assert RecordCache(size=0).give_back(older, older.encode(), 0) is None


def test_a_write_finished_late_does_not_replace_a_newer_record():
    """Two calls on one match: the second writes (and keeps) its record while
    the first, which wrote before it, still has an await to go."""
    cache, first, second = RecordCache(), record("a"), record("a", rng=1)
    first.last_event, second.last_event = 1, 2
    cache.put(second, second.encode(), second.last_event)
    cache.put(first, first.encode(), first.last_event)
    assert cache.take("a", second.encode()) is second


def test_latest_hands_out_the_kept_record_with_its_version_once():
    cache, kept = RecordCache(), record("a")
    cache.put(kept, data := kept.encode(), 7)
    assert cache.latest("a") == (7, data, kept)
    assert cache.latest("a") is None and cache.take("a", data) is None
