"""What every registered game must do, checked the same way for all of them:
random playouts to the end for every player count and option, wire round-trips,
JSON state, listed actions all accepted."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from parlor.service.games import GAMES
from parlor.service.games.base import Game, RulesError

from . import harness


def option_sets(game: Game) -> list[dict]:
    """Every combination of bool and string-choice options, plus seat 0 for
    seat options; other options stay at their defaults."""
    axes = []
    for opt in game.options:
        if opt.type == "bool":
            axes.append([(opt.name, False), (opt.name, True)])
        elif opt.type == "string" and opt.choices:
            axes.append([(opt.name, c) for c in opt.choices])
        elif opt.type == "seat":
            axes.append([(opt.name, None), (opt.name, 0)])
    return [{k: v for k, v in combo if v is not None} for combo in itertools.product(*axes)]


CASES = [(game, players, options)
         for game in GAMES.values()
         for players in range(game.min_players, game.max_players + 1)
         for options in option_sets(game)]


@pytest.mark.parametrize("game,players,options", CASES,
                         ids=[f"{g.id}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}"
                              for g, p, o in CASES])
def test_random_playout_to_the_end(game, players, options):
    chooser = random.Random(f"{game.id}{players}{options}")
    steps = 0

    def each_step(state, seat, action, events):
        nonlocal steps
        steps += 1
        if chooser.random() < 0.15:  # a sample of steps keeps this fast
            harness.assert_json_state(state)
            before = copy.deepcopy(state)
            harness.assert_wire(game, state, events)
            assert state == before, "a view or a legal-action list changed the state"
            for viewer in [None, *range(players)]:
                _scribble(game.view(state, viewer))
                if viewer is not None:
                    _scribble(game.legal(state, viewer))
            for event in events:
                _scribble(event.public)
                _scribble(event.private)
            assert state == before, "a view, legal action or event shares a list or dict with the state"
            for s in game.to_act(state):
                for listed in game.legal(state, s)[:8]:
                    trial = copy.deepcopy(state)
                    game.play(trial, s, listed, harness.Rng.from_seed("trial"))
            waiting = set(range(players)) - set(game.to_act(state)) if game.outcome(state) is None else set()
            for s in sorted(waiting):
                with pytest.raises(RulesError) as refused:
                    game.play(copy.deepcopy(state), s, {}, harness.Rng.from_seed("trial"))
                assert refused.value.details.get("seat") == s, "a turn error names the caller's seat"

    state, _ = harness.start(game, players, options, seed="conformance")
    harness.assert_wire(game, state, game.opening_events(state))
    final = harness.random_playout(game, players, options, seed=f"conformance-{players}",
                                   each_step=each_step)
    outcome = game.outcome(final)
    assert len(outcome.scores) == players and outcome.winners
    assert all(0 <= w < players for w in outcome.winners)
    assert game.to_act(final) == [] and all(game.legal(final, s) == [] for s in range(players))
    harness.to_message(game.id, "view", game.view(final, None))


def _scribble(value) -> None:
    """Changes every list and dict inside `value`: what an engine hands out must
    be the caller's own, so that nothing done with it reaches the state."""
    if isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")
    elif isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_metadata(game):
    assert game.id and game.title and 2 <= game.min_players <= game.max_players
    assert game.rules_version
    for kind in ("options", "action", "view", "event"):
        harness.message_class(game.id, kind)
    fields = {f.name for f in harness.message_class(game.id, "options").DESCRIPTOR.fields}
    assert {o.name for o in game.options} == fields, "every option is a field of the Options message"
    for opt in game.options:
        assert opt.description
        field = harness.message_class(game.id, "options").DESCRIPTOR.fields_by_name[opt.name]
        assert field.has_presence, f"option {opt.name} must be `optional` in the proto"


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_an_option_given_as_none_takes_its_default(game):
    players = game.min_players
    given_none = game.resolve_options(players, {opt.name: None for opt in game.options})
    assert given_none == game.resolve_options(players, {})


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_anything_but_a_seat_sees_what_a_spectator_sees(game):
    """-1 would index the last seat's hand; True would pass for seat 1."""
    state, _ = harness.start(game, game.min_players, {}, seed="seats")
    spectator = game.view(state, None)
    for seat in (-1, -game.min_players, game.min_players, True, 1.0, "0", 2**70):
        assert game.view(state, seat) == spectator
    assert game.view(state, 0) != spectator
