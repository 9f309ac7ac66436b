"""The contract every game engine implements.

An engine is pure: no I/O, no clock, no global RNG. Its state is a dict of plain
JSON types (dict, list, str, int, bool, None) that the framework stores as it is
and hands back on the next call, so state must round-trip through JSON unchanged
(no tuples, no sets, no int dict keys). Every state has `players` (the seat count). Randomness comes only from the `Rng`
passed in, whose position the framework stores beside the state.

Actions, views and events are plain dicts shaped like the game's protobuf
messages (keys are proto field names), e.g. `{"bid": 7}`. A legal action lists
every field of its message, defaults included, so that an action decoded from the
wire compares equal to the listed one.

The framework calls the public methods of `Game` (`resolve_options`,
`new_state`, `play`, `legal`, `timeout_action`, `view`; all but `new_state`, which takes options
resolve_options returned, check their arguments), and the
read-only hooks `opening_events`, `to_act` and `outcome`; a game fills in the
hooks below them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .rng import Rng

State = dict[str, Any]
Action = dict[str, Any]


class RulesError(Exception):
    """An illegal action. Nothing changed; `reason` is a stable upper-case code
    (NOT_YOUR_TURN, CARD_NOT_IN_HAND, ...) and `message` is for people."""

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.details = details


class OptionError(ValueError):
    """Options or player count that a game does not accept."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.option = option


@dataclass(frozen=True)
class Event:
    """Something the table saw. `public` is what every seat and spectator sees;
    `private` maps a seat to a fuller version only that seat sees (its own bid).
    Every event has a public form, so event numbers have no gaps for anyone."""

    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return self.public
        return self.private.get(seat, self.public)


@dataclass(frozen=True)
class Option:
    """One option of a game. `type` is "bool", "int", "string" or "seat" (a seat
    number, 0..players-1). A default of None means "drawn with the match RNG"."""

    name: str
    type: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Outcome:
    """A finished game: one score per seat, in seat order, and the winning seats."""

    scores: list[int]
    winners: list[int]


class Game:
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str] = "1"
    options: ClassVar[tuple[Option, ...]] = ()

    # ---- public API (checks its arguments, then calls the hooks) ---------------

    def resolve_options(self, players: int, given: dict[str, Any]) -> dict[str, Any]:
        """Validates the player count and the options given; returns every option
        with defaults filled in. Raises OptionError."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}")
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                raise OptionError(f"{self.title} has no option {shown(name)}", name)
        resolved = {}
        for opt in self.options:
            value = given.get(opt.name)
            if value is None:  # not given (an explicit None too): the default
                value = opt.default
            if value is not None:
                _check_option(opt, value, players)
            resolved[opt.name] = value
        return resolved

    def new_state(self, players: int, options: dict[str, Any], rng: Rng,
                  arrangement: dict[str, Any] | None = None) -> State:
        """A fresh game. `options` must come from resolve_options. `arrangement`
        fixes what would be random (deck order, removed cards), for tests and
        set-ups; its shape is the game's own."""
        return self.setup(players, options, rng, arrangement)

    def play(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Applies one action for `seat`, mutating `state`, or raises RulesError
        and leaves `state` untouched."""
        if not is_seat(state, seat):
            raise RulesError("UNKNOWN_SEAT", f"There is no seat {shown(seat)}.")
        if self.outcome(state) is not None:
            raise RulesError("GAME_OVER", "The game is over.")
        if seat not in self.to_act(state):
            error = self.turn_error(state, seat)
            error.details.setdefault("seat", seat)  # every game's turn errors name the caller's seat
            raise error
        self.check(state, seat, action)
        events = self.apply(state, seat, action, rng)
        if not events:
            raise AssertionError(f"{self.id}: an accepted action must produce an event")
        return events

    def legal(self, state: State, seat: int) -> list[Action]:
        """Every distinct legal action of `seat` now; empty when it has nothing to do."""
        if not is_seat(state, seat) or self.outcome(state) is not None or seat not in self.to_act(state):
            return []
        return self.legal_actions(state, seat)

    def timeout_action(self, state: State, seat: int, rng: Rng) -> Action:
        """The default move of `seat` (see default_action), which must be able
        to act now; `rng` is the seat's own generator for this move."""
        if not is_seat(state, seat) or self.outcome(state) is not None or seat not in self.to_act(state):
            raise ValueError(f"seat {seat} has nothing to do")
        return self.default_action(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see, shaped like the game's View.
        Anything that is not a seat of this game sees what a spectator sees (as
        it has no legal actions): -1 would otherwise index the last seat's hand."""
        return self.seat_view(state, seat if is_seat(state, seat) else None)

    # ---- hooks a game implements ----------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        raise NotImplementedError

    def opening_events(self, state: State) -> list[Event]:
        """Events the table sees when play starts (first card turned, ...)."""
        return []

    def to_act(self, state: State) -> list[int]:
        """Seats that may act now, ascending. Public information."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Called only for a seat in to_act of an unfinished game."""
        raise NotImplementedError

    def turn_error(self, state: State, seat: int) -> RulesError:
        """The error for a real seat that may not act now (override for a precise
        reason, e.g. ALREADY_COMMITTED). play() adds the seat to its details."""
        return RulesError("NOT_YOUR_TURN", f"It is not seat {seat}'s turn.")

    def check(self, state: State, seat: int, action: Action) -> None:
        """Called only for a real seat that may act now. Raises RulesError unless `action` is legal for `seat`. The default
        looks the action up in legal_actions; games override it for a precise
        reason or for shorthand actions that are not listed."""
        if action not in self.legal_actions(state, seat):
            raise RulesError("ILLEGAL_ACTION", "That action is not legal now.")

    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Applies an action that passed check(); returns at least one event."""
        raise NotImplementedError

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Called only with a seat of this game, or None for a spectator."""
        raise NotImplementedError

    def default_action(self, state: State, seat: int, rng: Rng) -> Action:
        """The move a seat makes when its turn clock runs out (match option
        turnSeconds). Called only for a seat in to_act of an unfinished game;
        always legal (play() accepts it) and decided from what the seat may see.
        It may be a shorthand that legal_actions does not list (Hi-Fu's whole
        discard at once), so that a timed-out turn ends in one move.

        Every seat sees that a seat timed out, so a move that puts down
        something hidden (a secret bid, bet or discard, a face-down card) is
        drawn from `rng`, the seat's own generator (keyed by the match seed,
        the seat and the version, and apart from the deal's): a fixed choice
        would give it away. A public move is a fixed, neutral one, and draws
        nothing."""
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else None."""
        raise NotImplementedError


def shown(value: Any, limit: int = 40) -> str:
    """A value the caller sent, for an error message: as JSON writes it (a
    string in double quotes, null), cut to about `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def is_seat(state: State, seat: Any) -> bool:
    """A seat number of this game: a plain int in range (not True or 1.0, which
    compare equal to 1)."""
    return type(seat) is int and 0 <= seat < state["players"]


def _check_option(opt: Option, value: Any, players: int) -> None:
    if opt.type == "bool":
        ok = isinstance(value, bool)
    elif opt.type in ("int", "seat"):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif opt.type == "string":
        ok = isinstance(value, str)
    else:
        raise AssertionError(f"unknown option type {opt.type}")
    if not ok:
        raise OptionError(f"option {opt.name!r} must be a {opt.type}", opt.name)
    if opt.choices and value not in opt.choices:
        raise OptionError(f"option {opt.name!r} must be one of {', '.join(opt.choices)}", opt.name)
    low = 0 if opt.type == "seat" else opt.minimum
    high = players - 1 if opt.type == "seat" else opt.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        raise OptionError(f"option {opt.name!r} must be between {low} and {high}", opt.name)
