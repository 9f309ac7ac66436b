"""Every game, over REST: malformed, mistyped, out-of-turn and mutated actions
get a 4xx with a stable code, never a 5xx, and a refused one changes nothing."""

from __future__ import annotations

import copy
import random

import pytest

from parlor.service.games import GAMES

from ..support import new_rest_match
from .test_bad_input import snapshot

pytestmark = pytest.mark.integration


def camel(game_id: str) -> str:
    head, *rest = game_id.split("_")
    return head + "".join(w.capitalize() for w in rest)


def mutations(action: dict, chooser: random.Random):
    """Variants of a legal action: numbers pushed out of range, strings replaced,
    fields dropped, lists emptied."""
    def walk(node):
        if isinstance(node, dict):
            for key in list(node):
                yield node, key
                yield from walk(node[key])
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)
    for _ in range(6):
        variant = copy.deepcopy(action)
        spots = list(walk(variant))
        if not spots:
            break
        parent, key = chooser.choice(spots)
        value = parent[key]
        if isinstance(value, bool):
            parent[key] = not value
        elif isinstance(value, int):
            parent[key] = chooser.choice([-1, 99, 2**31 - 1])
        elif isinstance(value, str):
            parent[key] = chooser.choice(["", "purple-ish", "x" * 300])
        elif isinstance(value, list):
            parent[key] = []
        else:
            del parent[key]
        yield variant


@pytest.mark.parametrize("game_id", list(GAMES))
def test_bad_actions_are_refused_cleanly(stack, rest, db, game_id):
    game = GAMES[game_id]
    match, tokens = new_rest_match(rest, game_id, game.max_players, seed=f"bad-{game_id}")
    match_id = match["matchId"]
    path = f"/v1/matches/{match_id}/actions"
    other = next(camel(g) for g in GAMES if g != game_id)
    chooser = random.Random(game_id)
    for step in range(12):  # a few moves in, so more of each game's rules are in play
        view = rest.get(f"/v1/matches/{match_id}").body
        if view["status"] != "ACTIVE":
            break
        seat = chooser.choice(view["awaiting"])
        legal = rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[seat]).body["actions"]
        idle = [s for s in range(len(tokens)) if s not in view["awaiting"]]
        bad = [{other: {}}, {camel(game_id): {"noSuchField": 1}}, {camel(game_id): []},
               {camel(game_id): {}}]
        bad += list(mutations(chooser.choice(legal), chooser))
        moved = False
        for action in bad:
            before = snapshot(db, match_id)
            reply = rest.post(path, {"action": action}, token=tokens[seat])
            assert reply.status < 500, (action, reply.body)
            if reply.status == 200:  # a variant that is itself a legal move
                assert action in legal, ("accepted but not listed", action, legal)
                moved = True
                break  # (the seat has moved: its list is stale now)
            else:
                assert reply.error in {"INVALID_ARGUMENT", "INVALID_ACTION", "ILLEGAL_ACTION"}, reply.body
                assert reply.body["error"]["message"]
                assert snapshot(db, match_id) == before, action
        if moved:
            continue
        if idle:  # a seat that is not awaited has nothing to do: any move is refused
            assert rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[idle[0]]).body["actions"] == []
            before = snapshot(db, match_id)
            reply = rest.post(path, {"action": chooser.choice(legal)}, token=tokens[idle[0]])
            assert reply.status == 400 and reply.error == "ILLEGAL_ACTION", reply.body
            assert snapshot(db, match_id) == before
        if rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[seat]).body["actions"]:
            legal = rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[seat]).body["actions"]
            assert rest.post(path, {"action": chooser.choice(legal)}, token=tokens[seat]).status == 200
    assert "unhandled error" not in stack.log("service"), "an action reached a bug, not a rule"
