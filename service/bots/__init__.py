"""Bots: players the worker seats on request (`"bots"` at creation, a join with
`{"bot": level}`, a seat left or timed out). Two levels per game:

    random   uniformly one of the seat's legal actions
    strong   the game's own policy (a module of this package named after the
             game, e.g. bots/heck.py), a heuristic or a small search

A bot sees exactly what a client of its seat sees: the seat's view (the
engine's view dict, which the API sends as the game's View message) and its
legal actions, never the match state; tests change what the seat cannot see
and check that the move stays the same. Its choices are repeatable: the
generator it draws from comes from the match seed, the seat and the match
version (bot_rng), so a replayed match gets the same bot moves, and nothing a
bot draws tells anyone about the deal (the generator is keyed apart from the
match's own RNG).

`parlor bot` (bots/client.py) is something else: a remote client of the gRPC
API that takes open seats of a match and plays them at random.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from ..games.base import Action, Game
from ..games.rng import Rng

LEVELS = ("random", "strong")


def bot_rng(seed: str, seat: int, version: int) -> Rng:
    """The generator a bot at `seat` draws from for its move at `version`."""
    return Rng.from_seed(f"parlor-bot\x00{seed}\x00{seat}\x00{version}")


def choose(game: Game, level: str, view: dict[str, Any], legal: list[Action], seat: int,
           rng: Rng) -> Action:
    """The bot's move: one of `legal` (never empty), an element as listed, so
    that it is posted back unchanged like any client's."""
    if not legal:
        raise ValueError("a bot moves only when its seat has legal actions")
    if level == "random":
        return rng.choice(legal)
    if level == "strong":
        action = _strong(game.id).choose(game, view, legal, seat, rng)
        if action not in legal:
            raise AssertionError(f"{game.id}'s strong bot chose {action}, which is not legal")
        return action
    raise ValueError(f"unknown bot level {level!r}")


@cache
def _strong(game_id: str):
    return importlib.import_module(f"{__name__}.{game_id}")
