"""Shared helpers for engine tests: set-ups, random playouts, wire and secrecy checks."""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

import pytest
from google.protobuf import message_factory
from google.protobuf.message import Message

from parlor.service import wire
from parlor.service.games.base import Event, Game, RulesError, State
from parlor.service.games.rng import Rng
from parlor.v1 import parlor_pb2 as pb

# Which envelope message names each kind of per-game message: the field named
# after the game (the service builds messages as pb.Action(**{game_id: ...})).
_ENVELOPES = {
    "options": pb.CreateMatchRequest,
    "action": pb.Action,
    "view": pb.Match,
    "event": pb.Event,
}


def message_class(game_id: str, kind: str) -> type[Message]:
    """The game's Options, Action, View or Event class (kind: options, action,
    view, event)."""
    field = _ENVELOPES[kind].DESCRIPTOR.fields_by_name.get(game_id)
    if field is None or field.message_type is None:
        raise KeyError(f"no {kind} message for game {game_id!r} in parlor.proto")
    return message_factory.GetMessageClass(field.message_type)


def to_message(game_id: str, kind: str, data: dict) -> Message:
    """An engine dict as the game's message (None values are left unset)."""
    return message_class(game_id, kind)(**data)


def start(game: Game, players: int, options: dict[str, Any] | None = None,
          seed: str = "test-seed", arrangement: dict[str, Any] | None = None) -> tuple[State, Rng]:
    """A new game as the service makes it: options validated, RNG from the seed."""
    rng = Rng.from_seed(seed)
    state = game.new_state(players, game.resolve_options(players, options or {}), rng, arrangement)
    assert_json_state(state)
    return state, rng


def play(game: Game, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
    """game.play, plus the checks every accepted action must pass."""
    events = game.play(state, seat, action, rng)
    assert_json_state(state)
    return events


def rejected(game: Game, state: State, seat: int, action: dict[str, Any], rng: Rng,
             reason: str | None = None) -> RulesError:
    """Asserts the action is refused (with `reason`, if given) and changes nothing."""
    before, counter = copy.deepcopy(state), rng.counter
    with pytest.raises(RulesError) as caught:
        game.play(state, seat, action, rng)
    assert state == before, "a refused action changed the state"
    assert rng.counter == counter, "a refused action drew from the RNG"
    if reason is not None:
        assert caught.value.reason == reason, caught.value.message
    return caught.value


def random_playout(game: Game, players: int, options: dict[str, Any] | None = None,
                   seed: str = "playout", arrangement: dict[str, Any] | None = None,
                   each_step: Callable[[State, int, dict, list[Event]], None] | None = None,
                   max_steps: int = 50_000) -> State:
    """Plays random legal actions (a random seat among those to act) to the end."""
    state, rng = start(game, players, options, seed, arrangement)
    chooser = random.Random(seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return state
        seats = game.to_act(state)
        assert seats, "the game is not over but nobody may act"
        seat = chooser.choice(seats)
        actions = game.legal(state, seat)
        assert actions, f"seat {seat} may act but has no legal action"
        action = chooser.choice(actions)
        events = game.play(state, seat, action, rng)
        if each_step is not None:
            each_step(state, seat, action, events)
    raise AssertionError(f"no end after {max_steps} actions")


def attempt(game: Game, state: State, seat: int, action: dict[str, Any]) -> Any:
    """"ok" when `action` is accepted (tried on a copy), else the error as the
    seat would get it: reason, message and details."""
    trial = copy.deepcopy(state)
    try:
        game.play(trial, seat, action, Rng.from_seed("t"))
    except Exception as exc:  # anything but a RulesError is a bug
        assert type(exc).__name__ == "RulesError", f"{action}: {exc!r}"
        return (exc.reason, exc.message, exc.details)
    return "ok"


def assert_json_state(state: State) -> None:
    assert json.loads(json.dumps(state)) == state, "state does not round-trip through JSON"
    assert isinstance(state.get("players"), int)


def assert_wire(game: Game, state: State, events: list[Event] = ()) -> None:
    """Views, events and legal actions fit the game's messages, and every legal
    action survives the trip to the wire and back unchanged."""
    for seat in [None, *range(state["players"])]:
        to_message(game.id, "view", game.view(state, seat))
        for event in events:
            to_message(game.id, "event", event.seen_by(seat))
    for seat in range(state["players"]):
        for action in game.legal(state, seat):
            back = wire.to_plain(to_message(game.id, "action", action))
            assert back == action, f"legal action {action} comes back from the wire as {back}"


def assert_same_for(game: Game, seat: int | None, a: State, b: State,
                    events_a: list[Event] = (), events_b: list[Event] = ()) -> None:
    """Counterfactual secrecy: two states differing only in what `seat` cannot
    see must give it the same view, legal actions and events."""
    assert game.view(a, seat) == game.view(b, seat)
    if seat is not None:
        assert game.legal(a, seat) == game.legal(b, seat)
    assert [e.seen_by(seat) for e in events_a] == [e.seen_by(seat) for e in events_b]
