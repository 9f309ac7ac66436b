"""What the Heck? end to end over REST, against the real stack."""

from __future__ import annotations

import hashlib
import random

import pytest

from ..support import new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration


def test_games_are_listed_with_player_counts_and_options(rest):
    reply = rest.get("/v1/games")
    assert reply.status == 200
    game = next(g for g in reply.body["games"] if g["id"] == "what_the_heck")
    assert (game["minPlayers"], game["maxPlayers"]) == (2, 5)
    assert game["rulesVersion"]
    option = game["options"][0]
    assert option["name"] == "hidden_winnings" and option["type"] == "bool"
    assert option["default"] is False and option["description"]
    heck = next(g for g in reply.body["games"] if g["id"] == "heck")
    max_rounds = next(o for o in heck["options"] if o["name"] == "max_rounds")
    assert max_rounds["type"] == "int" and max_rounds["default"] == 40
    assert type(max_rounds["default"]) is int, "a whole number, not 40.0"
    first_seat = next(o for o in heck["options"] if o["name"] == "first_seat")
    assert first_seat["default"] is None  # drawn with the match RNG


@pytest.mark.parametrize("players", [2, 4])
def test_full_match(rest, players):
    created = rest.post("/v1/matches", {"game": "what_the_heck", "players": players,
                                        "seed": "full-match"})
    assert created.status == 200
    match = created.body
    match_id = match["matchId"]
    assert match["status"] == "WAITING" and match["version"] == 0 and match["game"] == "what_the_heck"
    assert match["seedSha256"] == hashlib.sha256(b"full-match").hexdigest()
    assert "seed" not in match and "result" not in match
    assert [s["joined"] for s in match["seats"]] == [False] * players
    # nothing of the table (the first prize card) shows until every seat is taken
    waiting = match["whatTheHeck"]
    assert waiting["options"] == {"hiddenWinnings": False}
    assert (waiting["round"], waiting["rounds"], waiting["pot"], waiting["seats"]) == (0, 0, [], [])

    tokens = []
    for seat in range(players):
        joined = rest.post(f"/v1/matches/{match_id}/seats", {"name": f"P{seat}"})
        assert joined.status == 200 and joined.body["seat"] == seat
        tokens.append(joined.body["token"])
        view = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body
        assert view["status"] == ("ACTIVE" if seat == players - 1 else "WAITING")
        if view["status"] == "WAITING":
            assert view["whatTheHeck"]["hand"] == [] and view["whatTheHeck"]["pot"] == []
    started = rest.get(f"/v1/matches/{match_id}").body["whatTheHeck"]
    assert started["rounds"] == (12 if players == 2 else 15) and len(started["pot"]) == 1
    opening = rest.get(f"/v1/matches/{match_id}/events?after=0").body["events"][-1]["whatTheHeck"]
    assert opening["roundStarted"]["pot"] == started["pot"], "the view shows what the events showed"
    assert rest.post(f"/v1/matches/{match_id}/seats", {"name": "late"}).error == "MATCH_FULL"

    spectator = rest.get(f"/v1/matches/{match_id}").body
    assert spectator["version"] == players and "viewerSeat" not in spectator
    assert spectator["whatTheHeck"]["hand"] == []
    own = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body
    assert own["viewerSeat"] == 0 and len(own["whatTheHeck"]["hand"]) == (12 if players == 2 else 15)
    assert own["awaiting"] == list(range(players))

    listed = rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[1]).body
    assert listed["actions"] == [{"whatTheHeck": {"bid": c}} for c in
                                 rest.get(f"/v1/matches/{match_id}", token=tokens[1]).body["whatTheHeck"]["hand"]]
    reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": listed["actions"][0]}, token=tokens[1])
    assert reply.status == 200
    assert reply.body["match"]["version"] == players + 1
    assert reply.body["events"][0]["whatTheHeck"]["bidCommitted"] == {"seat": 1, "bid": listed["actions"][0]["whatTheHeck"]["bid"]}
    others = rest.get(f"/v1/matches/{match_id}/events?after={players}", token=tokens[0]).body
    assert others["events"][-1]["whatTheHeck"]["bidCommitted"] == {"seat": 1}
    assert rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[1]).body["actions"] == []

    final, _ = play_rest_to_end(rest, match_id, tokens, random.Random(players))
    finished = final["match"]
    assert finished["status"] == "FINISHED" and finished["seed"] == "full-match"
    assert len(finished["result"]["scores"]) == players
    top = max(finished["result"]["scores"])
    assert finished["result"]["winners"] == [s for s, v in enumerate(finished["result"]["scores"]) if v == top]
    assert final["events"][-1]["matchFinished"]["seed"] == "full-match"
    won = [sum(seat["won"]) for seat in finished["whatTheHeck"]["seats"]]
    assert won == finished["result"]["scores"]

    events = rest.get(f"/v1/matches/{match_id}/events").body
    numbers = [e["number"] for e in events["events"]]
    assert numbers == list(range(1, len(numbers) + 1)) and events["lastEvent"] == numbers[-1]
    assert events["events"][0]["seatJoined"] == {"seat": 0, "name": "P0", "bot": ""}
    page = rest.get(f"/v1/matches/{match_id}/events?after=2&limit=3").body  # a page of a chosen size
    assert [e["number"] for e in page["events"]] == [3, 4, 5] and page["lastEvent"] == numbers[-1]
    assert rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[0]).body["actions"] == []
    done = rest.post(f"/v1/matches/{match_id}/actions", {"action": listed["actions"][1]}, token=tokens[1])
    assert done.status == 400 and done.error == "MATCH_FINISHED"


def test_hidden_winnings_over_rest(rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 3, {"hiddenWinnings": True}, seed="hidden")
    match_id = match["matchId"]
    assert match["whatTheHeck"]["options"] == {"hiddenWinnings": True}
    for seat, card in enumerate([15, 1, 2]):
        bid = rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": card}}},
                        token=tokens[seat])
        assert bid.status == 200, bid.body
    view = rest.get(f"/v1/matches/{match_id}", token=tokens[1]).body["whatTheHeck"]
    assert view["history"] == []
    assert sum(s["cardsWon"] for s in view["seats"]) == 1, "somebody took the round's pot: its count shows"
    assert view["seats"][0]["won"] == [] and view["seats"][2]["won"] == []  # others' cards do not
    assert "score" not in view["seats"][0] and "score" in view["seats"][1]
    # Proto field names work as option names too.
    created = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2,
                                        "options": {"hidden_winnings": True}})
    assert created.status == 200 and created.body["whatTheHeck"]["options"]["hiddenWinnings"] is True


def test_choose_a_seat_and_taken_seat_conflicts(rest):
    match = rest.post("/v1/matches", {"game": "what_the_heck", "players": 3}).body
    path = f"/v1/matches/{match['matchId']}/seats"
    assert rest.post(path, {"name": "Cy", "seat": 2}).body["seat"] == 2
    taken = rest.post(path, {"name": "Dee", "seat": 2})
    assert taken.status == 409 and taken.error == "SEAT_TAKEN"
    assert rest.post(path, {"name": "Ed"}).body["seat"] == 0


def test_match_replies_are_not_stored_by_caches(rest):
    """A seat's view (its hand), a token, events: no cache may keep them."""
    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    path = f"/v1/matches/{match['matchId']}"
    for reply in (rest.get(path, token=tokens[0]), rest.get(f"{path}/legal-actions", token=tokens[0]),
                  rest.get(f"{path}/events?after=0", token=tokens[0]), rest.get(path),
                  rest.post(f"{path}/seats", {"name": "late"})):  # (an error too: 409)
        assert reply.headers["cache-control"] == "no-store", reply.status
        assert reply.headers["x-content-type-options"] == "nosniff"
    assert "cache-control" not in rest.get("/v1/games").headers  # (the same for everybody)


def test_live_events_are_not_stored_by_caches(stack, rest):
    from ..support import Sse

    match, tokens = new_rest_match(rest, "what_the_heck", 2, seed=None)
    stream = Sse(stack.http_port, f"/v1/matches/{match['matchId']}/events", token=tokens[0])
    try:
        assert stream.status == 200
        assert stream.headers["cache-control"] == "no-store"
        assert stream.headers["x-content-type-options"] == "nosniff"
    finally:
        stream.close()


def test_an_action_may_ask_for_the_events_only(rest):
    """`"reply": "events"`: the answer carries the events, not the view (a
    cheaper answer for clients that follow the live stream); a retry with the
    same key may ask for either shape and gets the same events."""
    match, tokens = new_rest_match(rest, "what_the_heck", 2)
    path = f"/v1/matches/{match['matchId']}/actions"
    card = rest.get(f"/v1/matches/{match['matchId']}", token=tokens[0]).body["whatTheHeck"]["hand"][0]
    lean = rest.post(path, {"action": {"whatTheHeck": {"bid": card}}, "reply": "events"}, token=tokens[0],
                     headers={"Idempotency-Key": "lean"})
    assert lean.status == 200, lean.body
    assert set(lean.body) == {"events"} and lean.body["events"][0]["whatTheHeck"]["bidCommitted"]["bid"] == card
    full = rest.post(path, {"action": {"whatTheHeck": {"bid": card}}}, token=tokens[0],
                     headers={"Idempotency-Key": "lean"})
    assert full.status == 200 and full.body["events"] == lean.body["events"] and "match" in full.body
    bad = rest.post(path, {"action": {"whatTheHeck": {"bid": 14}}, "reply": "everything"}, token=tokens[1])
    assert bad.status == 400 and bad.error == "INVALID_ARGUMENT"
