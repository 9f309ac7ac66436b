"""Live tables over REST and gRPC, with the session stack's worker: bots on
demand (at creation and by joining), turn clocks, leaving a seat."""

from __future__ import annotations

import random
import time
from datetime import datetime, timezone

import grpc
import pytest

from parlor.service import verify
from parlor.service.games import GAMES
from parlor.v1 import parlor_pb2 as pb

from ..support import auth, game_field, new_rest_match

pytestmark = pytest.mark.integration

ALL_COUNTS = [(game_id, players) for game_id, game in GAMES.items()
              for players in range(game.min_players, game.max_players + 1)]


def wait_for(rest, match_id: str, check, timeout: float = 30.0, token: str | None = None) -> dict:
    """The match's view once `check(view)` holds."""
    deadline = time.monotonic() + timeout
    while True:
        view = rest.get(f"/v1/matches/{match_id}", token=token)
        assert view.status == 200, view.body
        if check(view.body):
            return view.body
        assert time.monotonic() < deadline, f"not reached within {timeout} s: {view.body['status']}, " \
                                            f"version {view.body['version']}"
        time.sleep(0.05)


def finished(view: dict) -> bool:
    return view["status"] == "FINISHED"


def events_of(rest, match_id: str, token: str | None = None) -> list[dict]:
    reply = rest.get(f"/v1/matches/{match_id}/events", token=token)
    assert reply.status == 200, reply.body
    return reply.body["events"]


@pytest.mark.parametrize("game_id,players", ALL_COUNTS, ids=[f"{g}-{p}" for g, p in ALL_COUNTS])
def test_a_match_of_bots_plays_itself_to_the_end(rest, game_id, players):
    """Every seat a bot (strong in seat 0, random elsewhere): the match starts at
    creation, the worker plays it out, and its replay verifies."""
    bots = [{"seat": 0, "level": "strong"}, *[{"level": "random"}] * (players - 1)]
    created = rest.post("/v1/matches", {"game": game_id, "players": players, "bots": bots})
    assert created.status == 200, created.body
    assert created.body["status"] == "ACTIVE" and created.body["version"] == 0
    assert [(s["bot"], s["joined"]) for s in created.body["seats"]] == \
        [("strong", True)] + [("random", True)] * (players - 1)
    view = wait_for(rest, created.body["matchId"], finished, timeout=60)
    assert len(view["result"]["scores"]) == players
    replay = rest.get(f"/v1/matches/{created.body['matchId']}/replay")
    assert replay.status == 200, replay.body
    assert verify.verify(verify.parse(replay.body)).startswith("OK: ")


def test_a_person_plays_against_bots_over_rest(rest):
    """A person in seat 0, a strong and a random bot: whenever the person has
    moved, the bots' moves follow within a second, and play goes on to the end."""
    created = rest.post("/v1/matches", {"game": "heck", "players": 3,
                                        "bots": [{"seat": 1, "level": "strong"}, {"seat": 2}]}).body
    match_id = created["matchId"]
    assert created["status"] == "WAITING" and [s["bot"] for s in created["seats"]] == ["", "strong", "random"]
    joined = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Ann"})
    assert joined.status == 200 and joined.body["seat"] == 0, joined.body
    token = joined.body["token"]
    chooser = random.Random(3)
    for _ in range(2000):
        view = rest.get(f"/v1/matches/{match_id}", token=token).body
        if view["status"] == "FINISHED":
            break
        actions = rest.get(f"/v1/matches/{match_id}/legal-actions", token=token).body["actions"]
        if not actions:  # the bots' turn: it comes within a second
            started = time.monotonic()
            wait_for(rest, match_id, lambda v: finished(v) or 0 in v["awaiting"], timeout=5, token=token)
            assert time.monotonic() - started < 1.5
            continue
        reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": chooser.choice(actions)}, token=token)
        assert reply.status == 200, reply.body
    else:
        raise AssertionError("the match did not end")
    joined = {e["seatJoined"]["seat"]: e["seatJoined"]["bot"] for e in events_of(rest, match_id) if "seatJoined" in e}
    assert joined == {0: "", 1: "strong", 2: "random"}


def test_a_person_plays_against_bots_over_grpc(stub):
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=4,
                                                   bots=[pb.BotSeat(level="strong")] * 3))
    assert [s.bot for s in match.seats] == ["", "strong", "strong", "strong"]
    joined = stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="Bea"))
    assert joined.seat == 0 and joined.match_id == match.match_id
    meta = auth(joined.token)
    for _ in range(200):
        view = stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id), metadata=meta)
        if view.status == pb.FINISHED:
            break
        actions = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id), metadata=meta).actions
        if actions:
            stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=actions[0]), metadata=meta)
        else:
            time.sleep(0.05)
    assert view.status == pb.FINISHED


def test_a_bot_joins_a_waiting_match(rest):
    created = rest.post("/v1/matches", {"game": "whatever", "players": 2}).body
    match_id = created["matchId"]
    joined = rest.post(f"/v1/matches/{match_id}/seats", {"bot": "strong"})
    assert joined.status == 200, joined.body
    assert joined.body["seat"] == 0 and not joined.body.get("token")
    view = rest.get(f"/v1/matches/{match_id}").body
    assert view["seats"][0] == {"seat": 0, "name": "Strong bot", "joined": True, "bot": "strong"}
    person = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Cy"}).body
    assert person["seat"] == 1
    wait_for(rest, match_id, lambda v: v["status"] == "ACTIVE")


def test_a_bot_given_a_name_takes_it(rest):
    match_id = rest.post("/v1/matches", {"game": "whatever", "players": 2}).body["matchId"]
    joined = rest.post(f"/v1/matches/{match_id}/seats", {"bot": "random", "name": "Robo"})
    assert joined.status == 200 and not joined.body.get("token"), joined.body
    view = rest.get(f"/v1/matches/{match_id}").body
    assert view["seats"][0] == {"seat": 0, "name": "Robo", "joined": True, "bot": "random"}


@pytest.mark.parametrize("body,code", [
    ({"bots": [{"seat": 3}]}, "INVALID_SEAT"),
    ({"bots": [{"seat": -1}]}, "INVALID_SEAT"),
    ({"bots": [{"seat": 1}, {"seat": 1, "level": "strong"}]}, "INVALID_SEAT"),
    ({"bots": [{"level": "genius"}]}, "INVALID_BOT"),
    ({"bots": 4}, "INVALID_BOT"),
    ({"bots": [{}, {}, {}, {}]}, "INVALID_BOT"),
    ({"bots": "two"}, "INVALID_ARGUMENT"),
    ({"turnSeconds": 4}, "INVALID_TURN_SECONDS"),
    ({"turnSeconds": 86_401}, "INVALID_TURN_SECONDS"),
    ({"turnSeconds": -5}, "INVALID_TURN_SECONDS"),
    ({"onTimeout": "nap"}, "INVALID_ON_TIMEOUT"),
    ({"visibility": "secret"}, "INVALID_VISIBILITY"),
    ({"options": {"turnSeconds": 2}}, "INVALID_TURN_SECONDS"),
    ({"turnSeconds": 30, "options": {"turnSeconds": 60}}, "INVALID_ARGUMENT"),
])
def test_bad_bots_and_clocks_are_refused_and_nothing_is_stored(rest, db, body, code):
    before = db.dbsize()
    reply = rest.post("/v1/matches", {"game": "heck", "players": 3, **body})
    assert reply.status == 400, reply.body
    assert reply.error == code, reply.body
    assert db.dbsize() == before


def test_bad_bot_joins_are_refused(rest):
    match_id = rest.post("/v1/matches", {"game": "heck", "players": 2}).body["matchId"]
    assert rest.post(f"/v1/matches/{match_id}/seats", {"bot": "genius"}).error == "INVALID_BOT"
    taken = rest.post(f"/v1/matches/{match_id}/seats", {"bot": "random", "seat": 1})
    assert taken.status == 200
    assert rest.post(f"/v1/matches/{match_id}/seats", {"bot": "random", "seat": 1}).error == "SEAT_TAKEN"
    assert rest.post(f"/v1/matches/{match_id}/seats", {"bot": "random", "seat": 2}).error == "INVALID_SEAT"
    view = rest.get(f"/v1/matches/{match_id}").body
    assert view["version"] == 1 and [s["joined"] for s in view["seats"]] == [False, True]


def _rfc3339_ms(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc).timestamp() * 1000


def test_a_turn_clock_plays_the_default_move_and_everyone_sees_the_timeout(rest):
    created = rest.post("/v1/matches", {"game": "what_the_heck", "players": 2, "turnSeconds": 5}).body
    assert created["turnSeconds"] == 5 and created["onTimeout"] == "default"
    match_id = created["matchId"]
    tokens = [rest.post(f"/v1/matches/{match_id}/seats", {"name": n}).body["token"] for n in ("A", "B")]
    started = time.time() * 1000
    view = rest.get(f"/v1/matches/{match_id}", token=tokens[0]).body
    assert sorted(d["seat"] for d in view["deadlines"]) == [0, 1]
    for deadline in view["deadlines"]:
        assert 4_000 <= _rfc3339_ms(deadline["at"]) - started <= 6_000, deadline
    hand = view["whatTheHeck"]["hand"]
    # Seat 1 bids in time; seat 0 lets its clock run out and gets the default move.
    other = max(rest.get(f"/v1/matches/{match_id}", token=tokens[1]).body["whatTheHeck"]["hand"])
    assert rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": other}}},
                     token=tokens[1]).status == 200
    view = wait_for(rest, match_id, lambda v: v["whatTheHeck"]["round"] == 2, timeout=10, token=tokens[0])
    assert time.time() * 1000 - started >= 4_500
    for token in (None, *tokens):
        timed_out = [e for e in events_of(rest, match_id, token) if "turnTimedOut" in e]
        assert [e["turnTimedOut"] for e in timed_out] == [{"seat": 0, "bot": ""}], timed_out
    played = view["whatTheHeck"]["history"][0]["bids"]
    assert played[0] in hand and played[1] == other, "the default bid is a card of the seat's hand"
    assert rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[0]).status == 200


def test_on_timeout_bot_hands_the_seat_to_a_bot(rest):
    created = rest.post("/v1/matches", {"game": "heck", "players": 2,
                                        "options": {"turnSeconds": 5, "onTimeout": "bot"}}).body
    match_id = created["matchId"]
    assert created["onTimeout"] == "bot"
    tokens = [rest.post(f"/v1/matches/{match_id}/seats", {"name": n}).body["token"] for n in ("A", "B")]
    view = wait_for(rest, match_id, lambda v: all(s["bot"] for s in v["seats"]), timeout=12)
    assert [s["bot"] for s in view["seats"]] == ["random", "random"]
    gone = rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[0])
    assert gone.status == 401 and gone.error == "INVALID_TOKEN"
    wait_for(rest, match_id, finished, timeout=30)
    taken = [e["turnTimedOut"] for e in events_of(rest, match_id) if "turnTimedOut" in e]
    assert sorted(t["seat"] for t in taken) == [0, 1] and {t["bot"] for t in taken} == {"random"}


def test_leaving_before_the_start_opens_the_seat_again(rest):
    match_id = rest.post("/v1/matches", {"game": "heck", "players": 3}).body["matchId"]
    ann = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Ann"}).body
    bob = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Bob"}).body
    assert rest.request("DELETE", f"/v1/matches/{match_id}/seats/0", token=bob["token"]).error == "SEAT_MISMATCH"
    left = rest.request("DELETE", f"/v1/matches/{match_id}/seats/0", token=ann["token"])
    assert left.status == 200, left.body
    assert left.body["seats"][0] == {"seat": 0, "name": "", "joined": False, "bot": ""}
    assert "viewerSeat" not in left.body
    again = rest.request("DELETE", f"/v1/matches/{match_id}/seats/0", token=ann["token"])
    assert again.status == 401 and again.error == "INVALID_TOKEN", again.body
    assert rest.get(f"/v1/matches/{match_id}", token=ann["token"]).status == 401
    assert rest.post(f"/v1/matches/{match_id}/seats", {"name": "Cy"}).body["seat"] == 0
    events = events_of(rest, match_id)
    assert {"seatLeft": {"seat": 0, "bot": ""}} in [{k: v for k, v in e.items() if k == "seatLeft"} for e in events]


def test_leaving_during_play_hands_the_seat_to_a_bot(rest):
    match, tokens = new_rest_match(rest, "what_the_heck", 3, seed=None)
    match_id = match["matchId"]
    assert rest.request("DELETE", f"/v1/matches/{match_id}/seats/1").error == "TOKEN_REQUIRED"
    assert rest.request("DELETE", f"/v1/matches/{match_id}/seats/x", token=tokens[1]).status == 400
    left = rest.request("DELETE", f"/v1/matches/{match_id}/seats/1", token=tokens[1])
    assert left.status == 200, left.body
    assert left.body["seats"][1]["bot"] == "random" and left.body["seats"][1]["name"] == "player 1"
    assert rest.post(f"/v1/matches/{match_id}/actions", {"action": {"whatTheHeck": {"bid": 1}}},
                     token=tokens[1]).status == 401
    for token in (None, tokens[0]):
        left_events = [e["seatLeft"] for e in events_of(rest, match_id, token) if "seatLeft" in e]
        assert left_events == [{"seat": 1, "bot": "random"}]
    chooser = random.Random(1)  # the two people play on; the bot plays seat 1
    while not finished(rest.get(f"/v1/matches/{match_id}").body):
        for seat in (0, 2):
            actions = rest.get(f"/v1/matches/{match_id}/legal-actions", token=tokens[seat]).body["actions"]
            if actions:
                rest.post(f"/v1/matches/{match_id}/actions", {"action": chooser.choice(actions)}, token=tokens[seat])
        time.sleep(0.01)
    assert rest.request("DELETE", f"/v1/matches/{match_id}/seats/0",
                        token=tokens[0]).error == "MATCH_FINISHED"
    replay = rest.get(f"/v1/matches/{match_id}/replay").body
    assert verify.verify(verify.parse(replay)).startswith("OK: ")


def test_leaving_over_grpc(stub):
    match = stub.CreateMatch(pb.CreateMatchRequest(game="heck", players=2))
    token = stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="Ann")).token
    with pytest.raises(grpc.RpcError) as caught:
        stub.LeaveMatch(pb.LeaveMatchRequest(match_id=match.match_id, seat=1), metadata=auth(token))
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    view = stub.LeaveMatch(pb.LeaveMatchRequest(match_id=match.match_id, seat=0), metadata=auth(token))
    assert not view.seats[0].joined and not view.HasField("viewer_seat")
    with pytest.raises(grpc.RpcError) as caught:
        stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id), metadata=auth(token))
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_views_name_the_game_field_and_the_match_settings(rest):
    created = rest.post("/v1/matches", {"game": "hi_fu", "players": 4, "visibility": "public",
                                        "turnSeconds": 60}).body
    assert created["visibility"] == "public" and created["turnSeconds"] == 60
    assert game_field("hi_fu") in created and "deadlines" not in created or created["deadlines"] == []
