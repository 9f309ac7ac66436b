"""Every registered game, played to the end over REST by clients that know
nothing of its rules: they only post back what legal-actions lists."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from parlor.service.games import GAMES

from ..support import game_field, new_rest_match, open_when_free, play_rest_to_end

pytestmark = pytest.mark.integration

CASES = [(game_id, players) for game_id, game in GAMES.items()
         for players in sorted({game.min_players, game.max_players})]


@pytest.mark.parametrize("game_id,players", CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_play_to_the_end_over_rest(stack, rest, game_id, players):
    field = game_field(game_id)
    match, tokens = new_rest_match(rest, game_id, players, seed=f"e2e-{game_id}-{players}")
    match_id = match["matchId"]
    assert field in match, "the game's view sits in a field named after the game"
    live = open_when_free(stack, f"/v1/matches/{match_id}/events", token=tokens[0])  # seat 0 follows live
    assert live.status == 200, live.body()
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
        assert numbers == list(range(1, events["lastEvent"] + 1))  # one page holds a whole match
        view = rest.get(f"/v1/matches/{match_id}", token=viewer).body
        assert view["status"] == "FINISHED" and field in view

    listed, page = [], {"events": [{"number": 0}]}
    while page["events"]:  # every page of seat 0's events
        page = rest.get(f"/v1/matches/{match_id}/events?after={page['events'][-1]['number']}",
                        token=tokens[0]).body
        listed += page["events"]
    assert live.rest_of_it() == listed, "the live stream is the events list, as it happened"
    live.close()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_waiting_match_shows_only_its_options(rest, game_id):
    """Nothing of the table shows before the last seat is taken; then the
    views and the opening events show it together."""
    field = game_field(game_id)
    players = GAMES[game_id].min_players
    match = rest.post("/v1/matches", {"game": game_id, "players": players, "seed": "waiting"}).body
    path = f"/v1/matches/{match['matchId']}"
    tokens = [rest.post(f"{path}/seats", {"name": f"p{s}"}).body["token"] for s in range(players - 1)]
    for viewer in [None, *tokens]:
        view = rest.get(path, token=viewer).body
        assert view["status"] == "WAITING" and "options" in view[field]
        shown = {k: v for k, v in view[field].items() if k != "options" and v not in (0, "", False, [], {})}
        assert shown == {}, f"a waiting {game_id} match shows {shown}"
        assert rest.get(f"{path}/events", token=viewer).body["events"][-1].keys() == {"number", "version", "seatJoined"}
    # The options as the creator gave them: not a first seat drawn at creation
    # (a joiner could pick it), nor anything else that differs with the seed.
    others = [rest.post("/v1/matches", {"game": game_id, "players": players, "seed": f"waiting-{n}"}).body
              for n in range(4)]
    assert all(other[field] == match[field] for other in others), [o[field] for o in others]
    if "first_seat" in {option.name for option in GAMES[game_id].options}:
        chosen = rest.post("/v1/matches", {"game": game_id, "players": players, "seed": "waiting",
                                           "options": {"firstSeat": 1}}).body
        assert "firstSeat" not in match[field]["options"] and chosen[field]["options"]["firstSeat"] == 1
    tokens.append(rest.post(f"{path}/seats", {"name": "last"}).body["token"])
    started = rest.get(path, token=tokens[0]).body
    assert started["status"] == "ACTIVE"
    assert any(v not in (0, "", False, [], {}) for k, v in started[field].items() if k != "options")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_seed_stays_hidden_until_the_end(rest, game_id):
    """The seed fixes every shuffle: no view, event list, legal-action list or
    error shows it before the match is over (then the view does), while every
    view carries its SHA-256 from the start."""
    seed = f"do-not-show-{game_id}-7f3a"
    digest = hashlib.sha256(seed.encode()).hexdigest()
    players = GAMES[game_id].min_players
    match, tokens = new_rest_match(rest, game_id, players, seed=seed)
    path = f"/v1/matches/{match['matchId']}"
    chooser = random.Random(0)

    def look(finished: bool) -> None:
        for viewer in [None, *tokens]:
            view = rest.get(path, token=viewer)
            assert view.body["seedSha256"] == digest
            shown = [view, rest.get(f"{path}/events", token=viewer)]
            if viewer is not None:
                shown.append(rest.get(f"{path}/legal-actions", token=viewer))
            shown.append(rest.post(f"{path}/actions", {"action": {"nope": {}}}, token=viewer))
            for reply in shown:
                if not finished or reply is not shown[0] and reply is not shown[1]:
                    assert seed not in json.dumps(reply.body), (viewer, reply.body)
        assert ("seed" in view.body) == finished

    look(finished=False)
    for step in range(10_000):
        token = next(t for t in tokens
                     if rest.get(f"{path}/legal-actions", token=t).body["actions"])
        action = chooser.choice(rest.get(f"{path}/legal-actions", token=token).body["actions"])
        reply = rest.post(f"{path}/actions", {"action": action}, token=token)
        assert reply.status == 200, reply.body
        if reply.body["match"]["status"] == "FINISHED":
            break
        assert seed not in json.dumps(reply.body)
        if step < 12 or step % 15 == 0:
            look(finished=False)
    look(finished=True)
    assert rest.get(path).body["seed"] == seed
