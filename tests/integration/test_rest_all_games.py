"""Every registered game, played to the end over REST by clients that know
nothing of its rules: they only post back what legal-actions lists."""

from __future__ import annotations

import hashlib
import random

import pytest

from service.games import GAMES

from ..support import new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration

CASES = [(game_id, players) for game_id, game in GAMES.items()
         for players in sorted({game.min_players, game.max_players})]


@pytest.mark.parametrize("game_id,players", CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_play_to_the_end_over_rest(rest, game_id, players):
    field = "".join(w.capitalize() if i else w for i, w in enumerate(game_id.split("_")))
    match, tokens = new_rest_match(rest, game_id, players, seed=f"e2e-{game_id}-{players}")
    match_id = match["matchId"]
    assert field in match, "the game's view sits in a field named after the game"
    final, actions = play_rest_to_end(rest, match_id, tokens, random.Random(players))
    finished = final["match"]
    assert finished["status"] == "FINISHED"
    assert finished["seed"] == f"e2e-{game_id}-{players}"
    assert hashlib.sha256(finished["seed"].encode()).hexdigest() == match["seedSha256"]
    assert len(finished["result"]["scores"]) == players
    assert finished["result"]["winners"] and set(finished["result"]["winners"]) <= set(range(players))
    assert finished["version"] == players + actions

    for viewer in [None, *tokens]:
        events = rest.get(f"/v1/matches/{match_id}/events", token=viewer).body
        numbers = [e["number"] for e in events["events"]]
        assert numbers == list(range(1, events["lastEvent"] + 1)) or len(numbers) == 1000
        view = rest.get(f"/v1/matches/{match_id}", token=viewer).body
        assert view["status"] == "FINISHED" and field in view
