"""The gateway's fast JSON rendering gives exactly what json_format gives, for
every kind of message a response carries."""

import random

from google.protobuf import json_format

from gateway.jsonpb import render
from parlor.v1 import parlor_pb2 as pb
from service import wire
from service.config import Settings
from service.games import GAMES
from service.matches import Matches
from service.record import Record

from .games import harness


def reference(message):
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def test_game_listing():
    listing = Matches(None, Settings()).list_games()
    assert render(listing) == reference(listing)


def test_views_events_and_actions_of_every_game():
    matches = Matches(None, Settings())
    for game in GAMES.values():
        for players in (game.min_players, game.max_players):
            chooser = random.Random(players)
            state, rng = harness.start(game, players, seed=f"json-{players}")
            record = Record("a" * 24, game.id, game.rules_version, players, {}, "seed", pb.ACTIVE,
                            [f"p{i}" for i in range(players)], [None] * players, 0, 0, state)
            steps = 0
            while game.outcome(state) is None:
                seat = chooser.choice(game.to_act(state))
                events = game.play(state, seat, chooser.choice(game.legal(state, seat)), rng)
                steps += 1
                if steps % 5:
                    continue
                for viewer in (None, seat):
                    match = matches._view(record, steps, viewer)
                    assert render(match) == reference(match)
                    for event in events:
                        msg = pb.Event(number=steps, version=steps,
                                       **{game.id: event.seen_by(viewer)})
                        assert render(msg) == reference(msg)
                listed = pb.ListLegalActionsResponse(
                    actions=[pb.Action(**{game.id: a}) for a in game.legal(state, seat)])
                assert render(listed) == reference(listed)
            record.status = pb.FINISHED
            final = matches._view(record, steps, None)
            assert render(final) == reference(final)
