"""Bots against the real service: `parlor bot` takes open seats over gRPC, with
only its seats' tokens, and plays them to the end beside people on REST."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import grpc
import pytest

from parlor.service.bots.client import RandomBot, _call, _join_seats
from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth, new_grpc_match
from .test_grpc import error_reason

pytestmark = pytest.mark.integration


def parlor_bot(*args: str) -> list[str]:
    return [sys.executable, "-m", "parlor.service.cli", "bot", *args]


def run_bot(stack, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(parlor_bot(*args), env=stack.process_env(), capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("game, players", [
    ("what_the_heck", 3), ("hi_fu", 4), ("heul_doch", 3), ("whatever", 2), ("heck", 2)])
def test_bots_fill_every_seat_and_play_any_game_to_the_end(stack, stub, game, players):
    match = stub.CreateMatch(pb.CreateMatchRequest(game=game, players=players))
    done = run_bot(stack, match.match_id, "--seed", "bots")
    assert done.returncode == 0, done.stdout + done.stderr
    final = stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id))
    assert final.status == pb.FINISHED and len(final.result.scores) == players
    assert [seat.name for seat in final.seats] == [f"Bot {n + 1}" for n in range(players)]
    assert f"scores {list(final.result.scores)}" in done.stdout


def test_a_person_plays_over_rest_against_bots(stack, rest):
    created = rest.post("/v1/matches", {"game": "what_the_heck", "players": 3})
    match_id = created.body["matchId"]
    token = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Ann"}).body["token"]
    bots = subprocess.Popen(parlor_bot(match_id, "--name", "Robo"), env=stack.process_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        chooser, deadline, status = random.Random(1), time.monotonic() + 120, "WAITING"
        while status != "FINISHED":
            assert time.monotonic() < deadline, "the match did not end"
            actions = rest.get(f"/v1/matches/{match_id}/legal-actions", token=token).body["actions"]
            if actions:
                reply = rest.post(f"/v1/matches/{match_id}/actions", {"action": chooser.choice(actions)},
                                  token=token)
                assert reply.status == 200, reply.body
            else:
                time.sleep(0.02)  # the bots' turn
            status = rest.get(f"/v1/matches/{match_id}").body["status"]
        output, _ = bots.communicate(timeout=60)
    finally:
        bots.kill()
    assert bots.returncode == 0, output
    final = rest.get(f"/v1/matches/{match_id}").body
    assert [seat["name"] for seat in final["seats"]] == ["Ann", "Robo 1", "Robo 2"]
    assert len(final["whatTheHeck"]["seats"][0]["played"]) == 15


def test_a_bot_says_what_went_wrong(stack, stub):
    unknown = run_bot(stack, "a" * 24)
    assert unknown.returncode == 1 and "MATCH_NOT_FOUND" in unknown.stdout
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
    too_many = run_bot(stack, match.match_id, "--seats", "3")
    assert too_many.returncode == 2 and "has 2 open seat(s); asked for 3" in too_many.stdout
    bad_name = run_bot(stack, match.match_id, "--seats", "1", "--name", "")
    assert bad_name.returncode == 1 and "INVALID_NAME" in bad_name.stdout
    assert stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).version == 0  # nobody joined


def test_a_random_bot_chooses_among_the_legal_actions_repeatably():
    actions = [pb.Action(what_the_heck={"bid": n}) for n in range(1, 16)]
    one, other = RandomBot("s"), RandomBot("s")
    picks = [one.choose(actions, pb.Match) for _ in range(20)]
    assert picks == [other.choose(actions, pb.Match) for _ in range(20)]
    assert all(pick in actions for pick in picks) and len({p.what_the_heck.bid for p in picks}) > 1


def test_bots_that_lose_a_seat_to_somebody_else_still_play_theirs(stub):
    """A person may take a seat between the bots' look at the match and their joins."""
    match = stub.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=3))

    class Racing:
        def __getattr__(self, name):
            return getattr(stub, name)

        def GetMatch(self, request, **kwargs):
            view = stub.GetMatch(request, **kwargs)
            stub.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="Eve"))
            return view

    said = []
    code, joined = _join_seats(Racing(), match.match_id, None, "Bot", said.append)
    assert code == 0 and [j.seat for j in joined] == [1, 2]
    assert "Bot 3 could not join: MATCH_FULL" in said[-1]


def test_a_bot_plays_on_across_a_service_restart():
    stack = Stack(env={"PARLOR_DRAIN_SECONDS": "1"}, gateway=False).start()
    bots = None
    try:
        channel = stack.channel()
        person = stack.stub(channel)
        match = person.CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
        token = person.JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name="Ann")).token
        bots = subprocess.Popen(parlor_bot(match.match_id), env=stack.process_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        chooser, played = random.Random(2), 0
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            try:
                listed = person.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                                 metadata=auth(token))
            except grpc.RpcError:
                time.sleep(0.1)  # the service is coming back
                continue
            if listed.actions:
                person.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id,
                                                           action=chooser.choice(listed.actions)),
                                    metadata=auth(token))
                played += 1
                if played == 4:  # mid-match: the service goes away for a while and comes back
                    assert stack.stop_process("service") == 0
                    time.sleep(2)
                    stack.start_service()
            elif person.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).status == pb.FINISHED:
                break
            else:
                time.sleep(0.02)  # the bot's turn
        output, _ = bots.communicate(timeout=60)
        assert bots.returncode == 0, output
        assert played == 12
        channel.close()
    finally:
        if bots is not None:
            bots.kill()
        stack.stop()


def test_a_bot_repeating_an_older_action_waits_out_too_many_replays():
    """A bot repeats an action whose answer it lost (a service restart) after
    the other seats have moved on: answering it re-runs the match, and while the
    service's allowance for that is spent the answer is TOO_MANY_REPLAYS. The
    bot waits and asks again, as for a service that is away."""
    stack = Stack(env={"PARLOR_REPLAY_ACTIONS_PER_SECOND": "20"}, gateway=False).start()
    channel = stack.channel()
    try:
        stub = stack.stub(channel)
        match, tokens = new_grpc_match(stub, "what_the_heck", 3)
        sent = []  # (request, token, first reply), in order
        while len(sent) < 45:
            for token in tokens:
                listed = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                               metadata=auth(token)).actions
                if listed:
                    request = pb.SubmitActionRequest(match_id=match.match_id, action=listed[0],
                                                     idempotency_key=f"action-{len(sent) + 1}")
                    sent.append((request, token, stub.SubmitAction(request, metadata=auth(token))))
        stub.SubmitAction(sent[39][0], metadata=auth(sent[39][1]))  # re-runs 40: the allowance is spent
        request, token, first = sent[29]
        with pytest.raises(grpc.RpcError) as refused:
            stub.SubmitAction(request, metadata=auth(token))
        assert error_reason(refused.value)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_REPLAYS")
        assert _call(stub.SubmitAction, request, auth(token), stop=threading.Event()) == first
    finally:
        channel.close()
        stack.stop()
