"""How matches live in Redis: hash tags, hashed tokens, TTLs, round trips, size."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import math
import re
import signal
import socket
import threading
import time

import pytest
import redis
from redis.crc import key_slot

from parlor.common.config import Settings
from parlor.common.errors import ParlorError
from parlor.service import metrics
from parlor.service.embedded_redis import EmbeddedRedis
from parlor.service.matches import Matches
from parlor.service.store import _NOT_RUN, WRITE_WINDOW_MS, MatchStore, connect, keys
from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth, match_memory, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def match_keys(db, match_id):
    return sorted(k.decode() for k in db.scan_iter(match=f"*{match_id}*"))


def test_keys_share_one_hash_tag_and_tokens_are_hashed(rest, db):
    import random
    match, tokens = new_rest_match(rest, "what_the_heck", 4)
    match_id = match["matchId"]
    path = f"/v1/matches/{match_id}/actions"
    rest.post(path, {"action": {"whatTheHeck": {"bid": 3}}}, token=tokens[0], headers={"Idempotency-Key": "a"})
    found = match_keys(db, match_id)
    assert found == sorted(keys(match_id)), found
    assert all(k.startswith(f"parlor:{{p{match_id[0]}}}:{match_id}:") for k in found)  # its shard's tag
    assert len({key_slot(k.encode()) for k in found}) == 1
    assert key_slot(f"parlor:{{p{match_id[0]}}}:due".encode()) == key_slot(found[0].encode())
    for when in ("while played", "once finished"):
        stored = stored_bytes(db, match_id)
        for token in tokens:
            assert token.encode() not in stored, f"a seat token is stored in clear ({when})"
        assert hashlib.sha256(tokens[0].encode()).hexdigest().encode() in stored
        if when == "while played":
            play_rest_to_end(rest, match_id, tokens, random.Random(0))


def stored_bytes(db, match_id) -> bytes:
    """Every byte stored for a match, decoded as the service reads it (the
    record unpacked), so that a search in it finds what Redis holds."""
    import zlib

    state, events, actions, idem = keys(match_id)
    record = db.get(state).partition(b"|")[2]
    parts = [zlib.decompress(record[1:]) if record[:1] == b"z" else record[1:]]
    parts += [value for _, fields in db.xrange(events) for pair in fields.items() for value in pair]
    parts += db.lrange(actions, 0, -1)
    parts += [value for pair in db.hgetall(idem).items() for value in pair]
    return b"\n".join(parts)


def test_active_matches_expire_when_abandoned_and_finished_ones_later(stack, db, rest):
    import random
    match, tokens = new_rest_match(rest, "what_the_heck", 3)
    match_id = match["matchId"]
    hand = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body["whatTheHeck"]["hand"]
    acted = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": hand[0]}}},
                      token=tokens[0], headers={"Idempotency-Key": "ttl"})
    assert acted.status == 200, acted.body
    assert match_keys(db, match_id) == sorted(keys(match_id)), "every key, the idempotency records too"
    for key in keys(match_id):
        ttl = db.ttl(key)
        assert 604_800 - 60 < ttl <= 604_800, (key, ttl)  # PARLOR_ABANDONED_TTL_SECONDS default
    play_rest_to_end(rest, match_id, tokens, random.Random(1))
    for key in keys(match_id):
        ttl = db.ttl(key)
        assert 86_400 - 60 < ttl <= 86_400, (key, ttl)  # PARLOR_FINISHED_TTL_SECONDS default


def test_ttls_come_from_settings(stack, db):
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        waiting = Matches(store, Settings(abandoned_ttl=120, waiting_ttl=60))
        never_filled = await waiting.create(pb.CreateMatchRequest(game="what_the_heck", players=2))
        assert 50_000 < db.pttl(keys(never_filled.match_id)[0]) <= 60_000  # waiting_ttl
        await waiting.join(pb.JoinMatchRequest(match_id=never_filled.match_id, name="Ann"))
        assert all(50_000 < db.pttl(key) <= 60_000 for key in keys(never_filled.match_id)[:2])
        started_id, _ = await _seated_match(waiting, 2)  # full: the abandoned TTL from here
        assert 110_000 < db.pttl(keys(started_id)[0]) <= 120_000
        matches = Matches(store, Settings(abandoned_ttl=2, finished_ttl=30, waiting_ttl=60,
                                          allow_fixed_seed=True))
        short = await matches.create(pb.CreateMatchRequest(game="what_the_heck", players=2))
        assert 0 < db.pttl(keys(short.match_id)[0]) <= 2000, "never longer than an abandoned match"
        abandoned_id, _ = await _seated_match(matches, 2)
        assert 0 < db.pttl(keys(abandoned_id)[0]) <= 2000
        played_id, tokens = await _seated_match(matches, 2)
        numbers = itertools.count()  # (a key for each action: every record gets its TTL)
        while True:  # every seat bids its first legal card until the match is over
            for token in tokens:
                listed = await matches.legal_actions(played_id, token)
                if listed.actions:
                    reply = await matches.submit(pb.SubmitActionRequest(
                        match_id=played_id, action=listed.actions[0],
                        idempotency_key=f"k{next(numbers)}"), token)
            if reply.match.status == pb.FINISHED:
                break
        for key in keys(played_id):
            assert 20_000 < db.pttl(key) <= 30_000, key  # finished_ttl, not the default day
        await asyncio.sleep(2.3)
        assert await store.load(abandoned_id) is None
        await store.redis.aclose()
    asyncio.run(scenario())


class Monitor:
    """Records every command Redis receives (MONITOR over a raw socket), as
    (client, command) pairs; client is "lua" for commands a script ran."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.settimeout(0.2)
        self.lines: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        buffer = b""
        while not self._stop.is_set():
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            buffer += chunk
            *lines, buffer = buffer.split(b"\r\n")
            self.lines += [line.decode(errors="replace") for line in lines]

    @property
    def commands(self) -> list[tuple[str, str]]:
        """The commands seen, but the worker's: its polls of the shards'
        schedules (scripts on `...:due` keys), its gauges' reads of them
        (ZCOUNT, ZRANGE), and anything its clients send."""
        found, workers = [], set()
        for line in self.lines:
            match = re.match(r'\+\S+ \[\d+ ([^\]]+)\] "(\w+)"', line)
            if match and match.group(2).upper() in ("EVALSHA", "EVAL", "ZCOUNT", "ZRANGE") and ':due"' in line:
                workers.add(match.group(1))
        for line in self.lines:
            match = re.match(r'\+\S+ \[\d+ ([^\]]+)\] "(\w+)"', line)
            if match and match.group(1) not in workers:
                found.append((match.group(1), match.group(2).upper()))
        return found

    def _wait_for(self, text: str) -> None:
        deadline = time.monotonic() + 10
        while not any(text in line for line in self.lines):
            assert time.monotonic() < deadline, f"MONITOR never showed {text!r}"
            time.sleep(0.01)

    def __enter__(self):
        self.sock.sendall(b"MONITOR\r\n")
        self._thread.start()
        self._wait_for("+OK")  # monitoring from here on
        return self

    def __exit__(self, *exc):
        # A marker sent after the calls: once MONITOR shows it, it has shown
        # everything before it.
        marker = f"monitor-end-{time.monotonic_ns()}"
        with socket.create_connection(self.sock.getpeername()) as raw:  # (no client handshake)
            raw.sendall(f"ECHO {marker}\r\n".encode())
            raw.recv(100)
        try:
            self._wait_for(marker)
        finally:
            self._stop.set()
            self._thread.join(5)
            self.sock.close()


def test_an_uncontended_action_costs_one_round_trip(stack, stub):
    """The process that wrote a match last keeps its record (RecordCache), so
    its next action there is one script, which checks the version; with an
    idempotency key too (the script checks for the key's record)."""
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    tokens = [stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=n)).token for n in "ab"]
    card = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                 metadata=auth(tokens[0])).actions[0]
    stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id))  # warm the script cache
    with Monitor(stack.redis.port) as mon:
        stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=card),
                          metadata=auth(tokens[0]))
    background = {"PING", "TIME", "ZREMRANGEBYSCORE", "ZCARD", "ECHO"}  # health, gauge, Monitor's marker
    from_service = [cmd for client, cmd in mon.commands if client != "lua" and cmd not in background]
    assert from_service == ["EVALSHA"], mon.lines
    card = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                 metadata=auth(tokens[1])).actions[0]
    with Monitor(stack.redis.port) as mon:
        stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=card, idempotency_key="k"),
                          metadata=auth(tokens[1]))
    seen = [cmd for client, cmd in mon.commands if client != "lua" and cmd not in background]
    assert seen == ["EVALSHA"], mon.lines


def test_an_action_on_a_match_another_process_wrote_reads_it_first(stack, stub):
    """Without the match's record kept (another replica made it), an action
    reads the match (with the idempotency key's record, in one round trip),
    then writes; a retry of an action made elsewhere since is answered from its
    record, though this process kept an older one."""
    background = {"PING", "TIME", "ZREMRANGEBYSCORE", "ZCARD", "ECHO"}
    other = Stack.on_redis_of(stack, gateway=False)
    other.start_service()
    try:
        with other.channel() as channel:
            elsewhere = other.stub(channel)
            match = elsewhere.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
            tokens = [elsewhere.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=n)).token
                      for n in "ab"]
            stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id))  # warm the script cache
            card = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                         metadata=auth(tokens[1])).actions[0]
            with Monitor(stack.redis.port) as mon:
                stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=card,
                                                         idempotency_key="k1"), metadata=auth(tokens[1]))
            seen = [(client, cmd) for client, cmd in mon.commands if client != "lua" and cmd not in background]
            assert [cmd for _, cmd in seen] == ["GET", "HGET", "HGET", "EVALSHA"], mon.lines
            assert seen[0][0] == seen[1][0] == seen[2][0], "the read's commands go out together, on one connection"

            card = elsewhere.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                              metadata=auth(tokens[0])).actions[0]
            first = elsewhere.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=card,
                                                                  idempotency_key="k0"), metadata=auth(tokens[0]))
        with Monitor(stack.redis.port) as mon:  # the same request, retried at this process
            again = stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=card,
                                                             idempotency_key="k0"), metadata=auth(tokens[0]))
        assert again == first
        seen = [cmd for client, cmd in mon.commands if client != "lua" and cmd not in background]
        # its kept record is out of date: the script answers with the match as it
        # stands, where the bid is in (refused), so the match is read with the key's
        # record, and the first answer is given again
        assert seen == ["EVALSHA", "GET", "HGET", "HGET", "XRANGE"], mon.lines  # (XRANGE: its events)
    finally:
        other.stop()


def test_finished_match_memory_is_small(rest, db):
    import random
    match, tokens = new_rest_match(rest, "what_the_heck", 4)
    match_id = match["matchId"]
    chooser = random.Random(2)
    play_rest_to_end(rest, match_id, tokens, chooser)
    used = match_memory(db, match_id)
    assert used < 16 * 1024, used


@pytest.mark.parametrize("kept", [1024, 0])
def test_replicas_never_act_on_a_record_another_wrote_since(stack, kept):
    """Each process keeps the records it wrote last (RecordCache). Two
    replicas taking turns on one match must play exactly as one process does:
    a replica's kept record is only reused while Redis still holds it."""
    async def play(replicas, seed):
        store = MatchStore(connect(stack.redis.url))
        settings = Settings(allow_fixed_seed=True, record_cache=kept)
        matches = [Matches(store, settings) for _ in range(replicas)]
        match = await matches[0].create(pb.CreateMatchRequest(game="what_the_heck", players=3, seed=seed))
        tokens = [(await matches[i % replicas].join(pb.JoinMatchRequest(match_id=match.match_id, name=f"p{i}"))).token
                  for i in range(3)]
        replies = []
        for n in range(45):
            seat = n % 3
            actions = await matches[0].legal_actions(match.match_id, tokens[seat])
            request = pb.SubmitActionRequest(match_id=match.match_id, action=actions.actions[n % len(actions.actions)])
            reply = await matches[(n * 7 // 3) % replicas].submit(request, tokens[seat])
            reply.match.match_id = ""
            replies.append(reply)
        await store.redis.aclose()
        return replies

    async def scenario():
        before = {r: metrics.RECORDS.labels(r)._value.get() for r in ("hit", "miss")}
        alone, together = await play(1, "cache-check"), await play(2, "cache-check")
        assert alone[-1].match.status == pb.FINISHED
        assert together == alone
        counted = {r: metrics.RECORDS.labels(r)._value.get() - before[r] for r in before}
        assert counted["miss"] > 0 and (counted["hit"] > 0) == (kept > 0), counted
    asyncio.run(scenario())


class PausedAfterFirstRead:
    """A MatchStore whose first load() returns only when `go` is set: the
    caller's write then races whatever was written meanwhile."""

    def __init__(self, store: MatchStore) -> None:
        self._store, self.read, self.go, self._first = store, asyncio.Event(), asyncio.Event(), True

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def load(self, *args, **kwargs):
        stored = await self._store.load(*args, **kwargs)
        if self._first:
            self._first = False
            self.read.set()
            await self.go.wait()
        return stored


@pytest.mark.parametrize("meanwhile", ["another seat", "the same seat"])
def test_a_write_that_lost_the_race_is_read_and_checked_again(stack, db, meanwhile):
    """Two replicas act on one match at once; the one whose compare-and-set
    loses re-reads the match and validates its action again: applied after
    the other (another seat's bid), or refused if it no longer holds (the same
    seat has committed meanwhile). Nothing is lost or doubled."""
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        settings = Settings(allow_fixed_seed=True)
        paused = PausedAfterFirstRead(store)
        slow, fast = Matches(paused, settings), Matches(store, settings)
        match = await fast.create(pb.CreateMatchRequest(game="what_the_heck", players=3, seed="race"))
        match_id = match.match_id
        tokens = [(await fast.join(pb.JoinMatchRequest(match_id=match_id, name=f"p{i}"))).token
                  for i in range(3)]

        def bid(card):
            return pb.SubmitActionRequest(match_id=match_id, action={"what_the_heck": {"bid": card}})
        conflicts = metrics.action("what_the_heck", "conflict")._value.get()
        racing = asyncio.ensure_future(slow.submit(bid(5), tokens[0]))
        await paused.read.wait()  # the slow one has read version 3
        other_seat = 1 if meanwhile == "another seat" else 0
        first = await fast.submit(bid(7), tokens[other_seat])
        assert first.match.version == 4
        paused.go.set()
        if meanwhile == "another seat":
            second = await racing
            assert second.match.version == 5  # applied after the other, on the record it re-read
            assert [s.committed for s in second.match.what_the_heck.seats] == [True, True, False]
            assert len(db.lrange(keys(match_id)[2], 0, -1)) == 2
        else:
            with pytest.raises(ParlorError) as refused:
                await racing
            assert (refused.value.code, refused.value.details.get("reason")) == ("ILLEGAL_ACTION", "ALREADY_COMMITTED")
            assert (await fast.get(match_id, tokens[0])).what_the_heck.seats[0].bid == 7  # the first one stands
            assert len(db.lrange(keys(match_id)[2], 0, -1)) == 1
        assert metrics.action("what_the_heck", "conflict")._value.get() == conflicts + 1
        await store.redis.aclose()
    asyncio.run(scenario())


def test_a_refused_action_leaves_the_record_kept(stack):
    """A stale expectedVersion, a replayed request or a join of a full match
    changes nothing, so the decoded record stays kept for the next call. After
    an engine's refusal (an illegal move) it is decoded afresh. (An action
    first acts on the kept record without reading Redis, uncounted: a refusal
    there is decided again on the match read from Redis, counted.)"""
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        matches = Matches(store, Settings(allow_fixed_seed=True))
        match_id, tokens = await _seated_match(matches, 2, seed="refusals")
        hand = list((await matches.get(match_id, tokens[0])).what_the_heck.hand)

        def bid(card, **fields):
            return pb.SubmitActionRequest(match_id=match_id, action={"what_the_heck": {"bid": card}},
                                          **fields)
        await matches.submit(bid(hand[0], idempotency_key="k"), tokens[0])
        refusals = [bid(hand[1], expected_version=0),                # stale
                    bid(hand[0], idempotency_key="k")]               # a replay: answered, not applied
        calls = [lambda request=request: matches.submit(request, tokens[0]) for request in refusals]
        calls.append(lambda: matches.join(pb.JoinMatchRequest(match_id=match_id, name="late")))  # full
        calls.append(lambda: matches.submit(bid(99), tokens[0]))   # illegal: the engine refused it...
        calls.append(lambda: matches.submit(bid(hand[1]), tokens[0]))
        try:
            for n, call in enumerate(calls):
                before = {r: metrics.RECORDS.labels(r)._value.get() for r in ("hit", "miss")}
                try:
                    await call()
                except ParlorError:
                    pass
                counted = {r: metrics.RECORDS.labels(r)._value.get() - before[r] for r in before}
                # the replay and the illegal bid: refused by the engine on the kept record, read afresh;
                # the last bid: the record was not kept after the illegal one
                expected = {"hit": 0, "miss": 1} if n in (1, 3, 4) else {"hit": 1, "miss": 0}
                assert counted == expected, (n, counted)
        finally:
            await store.redis.aclose()
    asyncio.run(scenario())


async def _seated_match(matches: Matches, players: int, seed: str | None = None) -> tuple[str, list[str]]:
    """A What the Heck? match with every seat taken: its id and the seats' tokens."""
    match = await matches.create(pb.CreateMatchRequest(game="what_the_heck", players=players, seed=seed))
    tokens = [(await matches.join(pb.JoinMatchRequest(match_id=match.match_id, name=f"p{seat}"))).token
              for seat in range(players)]
    return match.match_id, tokens


def _bid(match_id: str, card: int) -> pb.SubmitActionRequest:
    return pb.SubmitActionRequest(match_id=match_id, action={"what_the_heck": {"bid": card}})


def test_ping_measures_redis_clock_against_ours(stack):
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        assert await store.ping()
        assert abs(store.clock_offset_ms) < 250  # the same machine's clock, less the round trip
        await store.redis.aclose()
    asyncio.run(scenario())


@pytest.mark.parametrize("off_by", [-10.0, 10.0])
def test_writes_are_made_whichever_way_the_services_clock_is_off(stack, off_by):
    """The window is set on Redis's clock, so a service clock 10 s behind or
    ahead of Redis's changes nothing once a health check measured it."""
    async def scenario():
        store = MatchStore(connect(stack.redis.url), clock=lambda: time.time() + off_by)
        matches = Matches(store, Settings())
        await store.ping()  # (the service's first health check comes before it serves)
        assert abs(store.clock_offset_ms + off_by * 1000) < 250
        match_id, tokens = await _seated_match(matches, 3)
        assert (await matches.submit(_bid(match_id, 7), tokens[0])).match.version == 4
        await store.redis.aclose()
    asyncio.run(scenario())


def test_a_write_that_reaches_redis_after_its_window_is_not_made(stack, db):
    """The window is on Redis's clock: seen from a service whose clock is
    10 s ahead, every write arrives too late, and none is made."""
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        matches = Matches(store, Settings())
        match_id, tokens = await _seated_match(matches, 3)
        before = db.get(keys(match_id)[0])
        store.clock_offset_ms = -10_000
        with pytest.raises(ParlorError) as refused:
            await matches.submit(_bid(match_id, 7), tokens[0])
        assert refused.value.code == "STORE_UNAVAILABLE"
        assert "was not made" in refused.value.message
        assert db.get(keys(match_id)[0]) == before and db.xlen(keys(match_id)[1]) == 5
        await store.ping()  # measures the clock again
        reply = await matches.submit(_bid(match_id, 7), tokens[0])
        assert reply.match.version == 4
        await store.redis.aclose()
    asyncio.run(scenario())


def test_a_late_write_whose_retry_was_made_answers_with_the_retrys_result(stack, db):
    """A write held up past its window (a slow network, say) while the
    client's retry with the same Idempotency-Key, through another replica, was
    made: when the held write reaches Redis it answers with the action that
    stands (the first result, replayed), not "too slow, not made"."""
    async def scenario():
        late_store, other_store = MatchStore(connect(stack.redis.url)), MatchStore(connect(stack.redis.url))
        late, other = Matches(late_store, Settings()), Matches(other_store, Settings())
        match_id, tokens = await _seated_match(late, 3)
        request = _bid(match_id, 7)
        request.idempotency_key = "bid-7"
        commit = late_store.commit
        retried = []

        async def held_up_while_the_retry_is_made(*args, **kwargs):
            if not retried:
                retried.append(await other.submit(request, tokens[0]))
                late_store.clock_offset_ms = -10_000  # this write arrives after its window
            return await commit(*args, **kwargs)

        late_store.commit = held_up_while_the_retry_is_made
        reply = await late.submit(request, tokens[0])
        assert reply == retried[0] and reply.match.version == 4
        assert db.xlen(keys(match_id)[1]) == len(reply.events) + 5, "made once"
        await late_store.redis.aclose()
        await other_store.redis.aclose()
    asyncio.run(scenario())


def test_a_write_held_up_in_a_frozen_redis_is_not_made_when_it_wakes():
    """Redis freezes (SIGSTOP, as a stalled VM or a long fork would) as a write
    goes out: the service gives up on it (STORE_UNAVAILABLE, saying it may or
    may not have been made). When Redis wakes after the write's window, it
    still reads and runs the script from its socket buffer, which then writes
    nothing: so the caller's retry is played, not refused as ALREADY_COMMITTED."""
    with EmbeddedRedis() as server:
        async def scenario():
            client = connect(server.url)
            client.connection_pool.connection_kwargs["socket_timeout"] = 1  # (5 s in service)
            store = MatchStore(client)
            matches = Matches(store, Settings())
            match_id, tokens = await _seated_match(matches, 3)
            await store.ping()
            commit = store.commit

            sent = math.inf

            async def freeze_then_commit(*args, **kwargs):
                nonlocal sent
                server.process.send_signal(signal.SIGSTOP)
                sent = time.monotonic()
                return await commit(*args, **kwargs)

            store.commit = freeze_then_commit
            try:
                with pytest.raises(ParlorError) as failed:
                    await matches.submit(_bid(match_id, 7), tokens[0])
                assert failed.value.code == "STORE_UNAVAILABLE"
                assert "may or may not have been made" in failed.value.message
                await asyncio.sleep(WRITE_WINDOW_MS / 1000 + 0.5 - (time.monotonic() - sent))
            finally:
                server.process.send_signal(signal.SIGCONT)
            store.commit = commit
            await asyncio.sleep(0.5)  # Redis runs what it had read
            stored = await store.load(match_id)
            assert stored.version == 3, "the write was made after the service gave up on it"
            reply = await matches.submit(_bid(match_id, 7), tokens[0])
            assert reply.match.version == 4
            await client.aclose()
        asyncio.run(scenario())


def test_refused_calls_go_to_redis_again_when_the_refusal_runs_out_or_a_call_is_answered(stack):
    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        match_id = "a" * 24
        store.refuse_for(10, "Error 111 connecting to 127.0.0.1:1. Connection refused.")
        with pytest.raises(ParlorError) as refused:
            await store.load(match_id)
        assert refused.value.code == "STORE_UNAVAILABLE"
        # (the log says why, as the health check saw it)
        assert "Connection refused" in str(refused.value.__cause__)
        with pytest.raises(ParlorError) as refused:
            await store.commit(match_id, 0, b"record", 60)
        assert refused.value.message == _NOT_RUN, "refused before it was sent: surely not made"
        store.refuse_for(0.2)  # the checks stopped renewing it
        await asyncio.sleep(0.3)
        assert await store.load(match_id) is None
        # A call in flight when the check gives up on Redis, and then answered:
        # Redis does answer, so the refusal ends with it.
        get = store.redis.get

        async def get_while_the_check_gives_up(*args, **kwargs):
            store.refuse_for(10)
            return await get(*args, **kwargs)

        store.redis.get = get_while_the_check_gives_up
        assert await store.load(match_id) is None
        store.redis.get = get
        assert await store.load(match_id) is None
        await store.redis.aclose()
    asyncio.run(scenario())


@pytest.mark.parametrize("error,sent", [
    (redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused."), False),
    (redis.ConnectionError("Error -2 connecting to nowhere.invalid:6379. Name or service not known."), False),
    (redis.ConnectionError("Connection closed by server."), True),
    (redis.ConnectionError("Error while reading from 127.0.0.1:6379 : (104, 'Connection reset by peer')"), True),
    (redis.TimeoutError("Timeout reading from 127.0.0.1:6379"), True),
    (redis.TimeoutError("Timeout connecting to server"), False),  # (the socket never opened)
])
def test_which_failed_writes_may_have_been_made(error, sent):
    from parlor.service.store import _maybe_sent
    assert _maybe_sent(error) is sent


@pytest.mark.parametrize("url", ["redis://127.0.0.1:1/0", "unix:///tmp/parlor-none.sock",
                                 "redis+sentinel://127.0.0.1:1/main", "redis+cluster://127.0.0.1:1"])
def test_no_client_retries_a_command_by_itself(url):
    """The store decides what is safe to retry: a write retried by the client
    after its answer was lost could be made twice, or be reported not made."""
    client = connect(url)
    retry = getattr(client, "retry", None) or client.connection_pool.connection_kwargs["retry"]
    assert retry.get_retries() == 0


def test_a_match_is_played_under_the_rules_it_began_with(stack, monkeypatch):
    """A server that lacks the rules version a stored match began under refuses
    the match (RULES_VERSION_UNAVAILABLE) rather than play it under other rules;
    with that version's engine retired beside the current one (games.RETIRED),
    the match plays on under it, while new matches take the current rules."""
    from parlor.service import games
    from parlor.service.record import Record

    current = games.GAMES["what_the_heck"]

    class Earlier(type(current)):
        rules_version = "0"
        played = 0

        def play(self, state, seat, action, rng):
            Earlier.played += 1
            return super().play(state, seat, action, rng)

    async def scenario():
        store = MatchStore(connect(stack.redis.url))
        matches = Matches(store, Settings(allow_fixed_seed=True))
        match_id, tokens = await _seated_match(matches, 2, seed="rules")
        state_key = keys(match_id)[0]  # as a server of the earlier rules would have written it
        version, _, data = (await store.redis.get(state_key)).partition(b"|")
        record = Record.decode(data)
        record.rules_version = "0"
        await store.redis.set(state_key, version + b"|" + record.encode())
        other = Matches(store, Settings())  # (keeps no decoded record of it)
        try:
            for call in (lambda: other.get(match_id, tokens[0]),
                         lambda: other.legal_actions(match_id, tokens[0])):
                with pytest.raises(ParlorError) as refused:
                    await call()
                assert refused.value.code == "RULES_VERSION_UNAVAILABLE"
                assert refused.value.details == {"rulesVersion": "0"}
            monkeypatch.setitem(games._BY_VERSION, ("what_the_heck", "0"), Earlier())
            view = await other.get(match_id, tokens[0])
            assert view.rules_version == "0" and view.status == pb.ACTIVE
            await other.submit(_bid(match_id, view.what_the_heck.hand[0]), tokens[0])
            assert Earlier.played == 1
            assert (await store.redis.get(state_key)).partition(b"|")[0] == b"3"
            new = await other.create(pb.CreateMatchRequest(game="what_the_heck", players=2))
            assert new.rules_version == current.rules_version
        finally:
            await store.redis.aclose()
    asyncio.run(scenario())
