"""The gateway's fast JSON rendering and parsing give exactly what json_format
gives: rendering for every kind of message a response carries, parsing for
every request body, valid or not."""

import random

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

from parlor.common.config import Settings
from parlor.gateway.errors import ApiError
from parlor.gateway.jsonpb import parse, render
from parlor.service.games import GAMES
from parlor.service.matches import Matches
from parlor.service.record import Record
from parlor.v1 import parlor_pb2 as pb

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


def parsed(data, cls):
    """(message, None) or (None, "error") from our parser and from ParseDict."""
    try:
        ours = parse(data, cls()), None
    except ApiError:
        ours = None, "error"
    try:
        theirs = json_format.ParseDict(data, cls()), None
    except json_format.ParseError:
        theirs = None, "error"
    if _not_an_object_for_a_message(data, cls.DESCRIPTOR):
        theirs = None, "error"  # where ParseDict reads [] or "" as an empty message
    return ours, theirs


def _not_an_object_for_a_message(data, descriptor) -> bool:
    """Whether `data` holds something other than an object or null where the
    proto3 JSON mapping wants a message (one message of a repeated field)."""
    if type(data) is not dict:
        return False
    by_name = {**{f.json_name: f for f in descriptor.fields}, **descriptor.fields_by_name}
    for key, value in data.items():
        field = by_name.get(key)
        if field is None or field.message_type is None or value is None:
            continue
        items = value if field.is_repeated and type(value) is list else [value]
        if any(type(item) is not dict or _not_an_object_for_a_message(item, field.message_type)
               for item in items):
            return True
    return False


def test_every_legal_action_parses_as_parsedict_does():
    for game in GAMES.values():
        for players in (game.min_players, game.max_players):
            chooser = random.Random(players)
            state, rng = harness.start(game, players, seed=f"parse-{players}")
            while game.outcome(state) is None:
                seat = chooser.choice(game.to_act(state))
                legal = game.legal(state, seat)
                for action in legal:
                    request = pb.SubmitActionRequest(action=pb.Action(**{game.id: action}),
                                                     expected_version=chooser.randrange(100))
                    for body in (render(request),
                                 json_format.MessageToDict(request, preserving_proto_field_name=True)):
                        ours, theirs = parsed(body, pb.SubmitActionRequest)
                        assert ours == theirs and ours[0] == request
                game.play(state, seat, chooser.choice(legal), rng)


# Request bodies, good and bad: known and unknown names, every JSON type, and
# integers at and past each range's edges.
_NAMES = st.sampled_from(["action", "expectedVersion", "expected_version", "seat", "game", "players",
                          "seed", "name", "whatTheHeck", "what_the_heck", "hiFu", "heck", "bid",
                          "discard", "cards", "hiddenWinnings", "hidden_winnings", "options",
                          "idempotencyKey", "matchId", "bogus", "play", "card"])
_EDGES = [0, 1, -1, 7, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32, 2**63, 2**64]
_SCALARS = (st.none() | st.booleans() | st.sampled_from(_EDGES) | st.integers()
            | st.floats(allow_nan=False) | st.text(max_size=5) | st.sampled_from(["7", "1.5", "what_the_heck"]))
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_NAMES, inner, max_size=3), max_leaves=8)


@pytest.mark.parametrize("cls", [pb.SubmitActionRequest, pb.CreateMatchRequest, pb.JoinMatchRequest])
@settings(max_examples=300, deadline=None)
@given(body=st.dictionaries(_NAMES, _JSON, max_size=4))
def test_any_body_parses_or_fails_as_parsedict_does(cls, body):
    ours, theirs = parsed(body, cls)
    assert ours == theirs


@pytest.mark.parametrize("cls, body, words", [
    (pb.CreateMatchRequest, {"game": "heck", "players": 2, "heck": {"board": "front"}},
     '`options` has no field named "board"; its fields are longGame, maxRounds, firstSeat.'),
    (pb.SubmitActionRequest, {"action": {"heck": {"bogus": 1}}},
     '`action.heck` has no field named "bogus"; '
     "its fields are safe, hiss, slither, chomp, heck."),
    (pb.JoinMatchRequest, {"name": 5}, "`name` must be a string, not a number."),
    (pb.CreateMatchRequest, {"game": "heck", "players": "x"},
     '`players` must be a whole number, not "x".'),
    (pb.CreateMatchRequest, {"game": "what_the_heck", "players": 3, "what_the_heck": {"hidden_winnings": "yes"}},
     "`options.hiddenWinnings` must be true or false, not a string."),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": 1}}, "expected_version": 1, "expectedVersion": 2},
     'The body has the field "expectedVersion" twice (as expected_version and expectedVersion).'),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": 1}, "hiFu": {}}},
     '`action` may have only one of its "game" fields.'),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": "seven"}}},
     '`action.whatTheHeck.bid` must be a whole number, not "seven".'),
    (pb.SubmitActionRequest, {"action": {"whatever": {"pass": []}}},
     "`action.whatever.pass` must be a JSON object, not an array."),
    (pb.SubmitActionRequest, {"action": "bid"}, "`action` must be a JSON object, not a string."),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": [7]}}},
     "`action.whatTheHeck.bid` must be a whole number, not an array."),
    (pb.SubmitActionRequest, {"action": {"hiFu": {"discard": {"cards": {}}}}},
     "`action.hiFu.discard.cards` must be an array, not an object."),
    (pb.JoinMatchRequest, {"name": {"first": "Ada"}}, "`name` must be a string, not an object."),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"z" * 5000: 1}}},
     '`action.whatTheHeck` has no field named "' + "z" * 39
     + '\u2026"; its fields are bid.'),
    (pb.SubmitActionRequest, {"action": {"hiFu": {"discard": {"cards": [[]]}}}},
     "`action.hiFu.discard.cards` must be a JSON object in each element, not an array."),
    (pb.JoinMatchRequest, {"name": "Ada", "seat": 1.5}, "`seat` must be a whole number, not 1.5."),
    (pb.JoinMatchRequest, {"name": "Ada", "seat": True}, "`seat` must be a whole number, not true."),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": 2**31}}},
     "`action.whatTheHeck.bid` must be a whole number from -2147483648 to 2147483647."),
    (pb.CreateMatchRequest, {"game": "heck", "players": 1e300},
     "`players` must be a whole number from -2147483648 to 2147483647."),
    (pb.CreateMatchRequest, {"game": "heck", "players": " 3"}, '`players` must be a whole number, not " 3".'),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": "3 "}}},
     '`action.whatTheHeck.bid` must be a whole number, not "3 ".'),
    (pb.SubmitActionRequest, {"action": {"whatTheHeck": {"bid": 3}}, "expectedVersion": "\t3"},
     '`expectedVersion` must be a whole number, not "\\t3".'),
])
def test_parse_errors_speak_the_apis_language(cls, body, words):
    with pytest.raises(ApiError) as caught:
        parse(body, cls())
    assert (caught.value.code, caught.value.message) == ("INVALID_ARGUMENT", words)
