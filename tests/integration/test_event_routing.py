"""Who gets which form of an event, end to end, every game. An event's stream
entry holds its public form (`p`) and, for the seats that may see more, a
fuller one (`s<seat>`). Over REST and gRPC, listed, live (every viewer's
stream woken by the same commits) and in each action's reply, a seat must get
its own form where it has one and the public form otherwise, a spectator
always the public form: never another seat's.

The engines' secrecy is tested counterfactually in tests/games/; this tests
the wiring after them (the commit, the store's read, the gateway)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from parlor.gateway.jsonpb import render
from parlor.service.games import GAMES
from parlor.service.store import keys
from parlor.v1 import parlor_pb2 as pb

from ..support import auth, new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def _follow(stub, match_id: str, token: str | None) -> list[pb.Event]:
    """The viewer's live stream (WatchEvents), from the first event to the end."""
    events = []
    while True:  # (a stream also ends when its time is up: then it is resumed)
        after = events[-1].number if events else 0
        for reply in stub.WatchEvents(pb.WatchEventsRequest(match_id=match_id, after=after),
                                      metadata=auth(token) if token else (), timeout=60):
            events += reply.events
            if reply.end:
                return events


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_viewer_gets_its_own_or_the_public_form_of_every_event(rest, stub, db, game_id):
    players = GAMES[game_id].max_players  # the most seats: the most private forms
    match, tokens = new_rest_match(rest, game_id, players, seed=f"routing-{game_id}")
    match_id = match["matchId"]
    # Every viewer follows live from the start: one commit wakes all their
    # streams at once, and streams that want the same page share one read.
    with ThreadPoolExecutor(players + 1) as pool:
        followed = {viewer: pool.submit(_follow, stub, match_id, tokens[viewer] if viewer is not None else None)
                    for viewer in [None, *range(players)]}
        replies = []
        play_rest_to_end(rest, match_id, tokens, random.Random(7), replies=replies)
        live = {viewer: future.result(timeout=60) for viewer, future in followed.items()}

    entries = {int(entry_id.split(b"-")[0]): fields for entry_id, fields in db.xrange(keys(match_id)[1])}
    assert sorted(entries) == list(range(1, len(entries) + 1))
    assert any(len(fields) > 1 for fields in entries.values()), f"{game_id} never showed a seat more"
    for fields in entries.values():
        assert set(fields) <= {b"p"} | {b"s%d" % seat for seat in range(players)}

    seen_by = {}
    for viewer in [None, *range(players)]:
        own = b"s%d" % viewer if viewer is not None else None
        expected = [pb.Event.FromString(entries[n].get(own) or entries[n][b"p"]) for n in sorted(entries)]
        seen_by[viewer] = expected
        token = tokens[viewer] if viewer is not None else None
        listed = stub.ListEvents(pb.ListEventsRequest(match_id=match_id),
                                 metadata=auth(token) if token else ()).events
        assert list(listed) == expected, f"gRPC, viewer {viewer}"
        over_rest = rest.get(f"/v1/matches/{match_id}/events", token=token).body["events"]
        assert over_rest == [render(event) for event in expected], f"REST, viewer {viewer}"
        assert live[viewer] == expected, f"live, viewer {viewer}"

    for seat, reply in replies:
        assert reply["events"], "every action makes at least one event"
        for event in reply["events"]:
            assert event == render(seen_by[seat][event["number"] - 1]), (seat, event)
