"""Shared helpers for the bot tests: the checks every game's strong bot must
pass, played the same way for each game."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from types import ModuleType

from parlor.service import bots
from parlor.service.games.base import Game, State
from parlor.service.games.rng import Rng
from tests.games import harness


def play_with_strong_seats(game: Game, players: int, seed: str, strong_seats,
                           *, options: dict | None = None, chooser: random.Random | None = None,
                           bot_seed: str | None = None,
                           each_move: Callable[[State, int], None] | None = None) -> State:
    """A match to its end, every move made through bots.choose as the worker makes
    it: `strong_seats` play the strong bot, the others the random one, each move
    drawn from bot_rng(bot_seed, seat, version) (bot_seed is `seed` unless given).
    The seat to move is `chooser`'s pick among those to act; without a chooser,
    exactly one seat may act at a time. each_move(state, seat) is called before
    every strong move."""
    state, rng = harness.start(game, players, options, seed=seed)
    version = 0
    while game.outcome(state) is None:
        if chooser is not None:
            seat = chooser.choice(game.to_act(state))
        else:
            [seat] = game.to_act(state)
        level = "strong" if seat in strong_seats else "random"
        if level == "strong" and each_move is not None:
            each_move(state, seat)
        legal = game.legal(state, seat)
        action = bots.choose(game, level, game.view(state, seat), legal, seat,
                             bots.bot_rng(seed if bot_seed is None else bot_seed, seat, version))
        assert action in legal
        harness.play(game, state, seat, action, rng)
        version += 1
    return state


def assert_repeatable(game: Game, strong: ModuleType, state: State, seat: int) -> None:
    """The strong bot (module `strong`) makes the same move from the same view and
    generator, draws as much from each, and leaves its arguments as they were."""
    view, legal = game.view(state, seat), game.legal(state, seat)
    before = copy.deepcopy((view, legal))
    first, second = Rng.from_seed("same"), Rng.from_seed("same")
    move = strong.choose(game, view, legal, seat, first)
    assert strong.choose(game, view, legal, seat, second) == move
    assert first.counter == second.counter
    assert (view, legal) == before


def play_default_moves(game: Game, players: int) -> tuple[State, int]:
    """A match where the first seat to act always makes its default move (the
    n-th from a generator seeded n), to the end: the final state and the number
    of moves."""
    state, rng = harness.start(game, players, {}, seed="all-default")
    n = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        harness.play(game, state, seat, game.timeout_action(state, seat, Rng.from_seed(str(n))), rng)
        n += 1
    return state, n
