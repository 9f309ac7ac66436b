"""The game registry: every game this server runs, by id.

Each game's rules live in one module (or small package) of this package, pure
(see base.py), with its rulebook page beside it (`<game id>.md`, served at
/v1/games/<id>/rules). To add a game: write its module (ending in
`GAME = MyGame()`) and its page, its proto file, its fields in parlor.proto's
per-game oneofs, and list it here.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from .base import Game
from .heck import GAME as HECK
from .heul_doch import GAME as HEUL_DOCH
from .hi_fu import GAME as HI_FU
from .what_the_heck import GAME as WHAT_THE_HECK
from .whatever import GAME as WHATEVER

# The engine each game's new matches are created with, by id.
GAMES: dict[str, Game] = {game.id: game for game in (WHAT_THE_HECK, HI_FU, HEUL_DOCH, WHATEVER, HECK)}

# Engines of earlier rules versions, kept while matches created under them may
# still be in play (a match is played to its end under the rules it began with):
# when a game's rules change, its old engine moves here under its old
# rules_version, and leaves once those matches have finished or expired.
RETIRED: tuple[Game, ...] = ()

_BY_VERSION: dict[tuple[str, str], Game] = {
    (game.id, game.rules_version): game for game in (*RETIRED, *GAMES.values())}


def get(game_id: str) -> Game | None:
    """The engine new matches of `game_id` are created with."""
    return GAMES.get(game_id)


def engine(game_id: str, rules_version: str) -> Game | None:
    """The engine of `game_id` under `rules_version`, current or retired."""
    return _BY_VERSION.get((game_id, rules_version))


@cache
def rulebook(game_id: str) -> str:
    """The game's rulebook page (Markdown), `<game id>.md` beside its engine."""
    return resources.files(__name__).joinpath(f"{game_id}.md").read_text(encoding="utf-8")
