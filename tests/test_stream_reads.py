"""Live streams share their reads: those that stand at the same event of the same
match with the same eyes ask Redis once, but never share a read begun before the
latest notice of new events (it may predate them)."""

from __future__ import annotations

import asyncio

from parlor.common.config import Settings
from parlor.service.matches import Matches
from parlor.service.store import EventNotices, keys


async def settle() -> None:
    """Lets every ready task run until it waits (a few loop turns)."""
    for _ in range(5):
        await asyncio.sleep(0)


class Store:
    """What Matches uses of MatchStore for stream reads; each read waits until released."""

    def __init__(self) -> None:
        self.notices = EventNotices(None)
        self.reads: list[tuple[str, int, int | None]] = []
        self.release = asyncio.Event()

    async def events(self, match_id, after, limit, seat, until=None, legacy=False):
        self.reads.append((match_id, after, seat))
        number = len(self.reads)
        await self.release.wait()
        return [b"read %d" % number]


def test_streams_at_the_same_place_share_one_read_until_news_arrives():
    async def scenario():
        store = Store()
        matches = Matches(store, Settings())
        match_id = "a" * 24
        await store.notices.watch(match_id)
        first = [asyncio.ensure_future(matches._stream_events(match_id, 3, None)) for _ in range(5)]
        other_seat = asyncio.ensure_future(matches._stream_events(match_id, 3, 1))
        await settle()
        assert store.reads == [(match_id, 3, None), (match_id, 3, 1)]
        store.notices._wake(keys(match_id)[1].encode())  # news: the reads in flight may predate it
        after_news = asyncio.ensure_future(matches._stream_events(match_id, 3, None))
        await settle()
        assert store.reads[2:] == [(match_id, 3, None)]
        store.release.set()
        assert {tuple(await read) for read in first} == {(b"read 1",)}
        assert await other_seat == [b"read 2"] and await after_news == [b"read 3"]
        assert matches._reads == {}
    asyncio.run(scenario())


def test_a_stream_that_leaves_does_not_cancel_the_shared_read():
    async def scenario():
        store = Store()
        matches = Matches(store, Settings())
        leaving = asyncio.ensure_future(matches._stream_events("b" * 24, 0, None))
        staying = asyncio.ensure_future(matches._stream_events("b" * 24, 0, None))
        await settle()
        leaving.cancel()
        await settle()
        store.release.set()
        assert await staying == [b"read 1"] and len(store.reads) == 1
    asyncio.run(scenario())
