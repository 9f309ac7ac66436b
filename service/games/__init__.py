"""The game registry: every game this server runs, by id.

Each game's rules live in one module of this package, pure (see base.py). To add a
game: write its module (ending in `GAME = MyGame()`), its proto file, its fields
in parlor.proto's per-game oneofs, and list it here.
"""

from __future__ import annotations

from .base import Game
from .heck import GAME as HECK
from .heul_doch import GAME as HEUL_DOCH
from .hi_fu import GAME as HI_FU
from .what_the_heck import GAME as WHAT_THE_HECK
from .whatever import GAME as WHATEVER

GAMES: dict[str, Game] = {game.id: game for game in (WHAT_THE_HECK, HI_FU, HEUL_DOCH, WHATEVER, HECK)}


def get(game_id: str) -> Game | None:
    return GAMES.get(game_id)
