"""Verifiable replays: GET /v1/matches/{id}/replay (GetReplay), and `parlor
verify`, which re-runs a finished match from that record and checks the seed
against the hash published at the start, every action, and the result."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from parlor.service import verify
from parlor.service.games import GAMES
from parlor.v1 import parlor_pb2 as pb

from ..support import new_rest_match, play_rest_to_end

pytestmark = pytest.mark.integration
PARLOR = str(Path(sys.executable).with_name("parlor"))


@pytest.fixture(scope="module")
def finished(stack) -> dict[str, dict]:
    """A finished match of every game, played over REST: its replay record."""
    rest = stack.rest()
    replays = {}
    for game_id, game in GAMES.items():
        match, tokens = new_rest_match(rest, game_id, game.min_players, seed=f"replay-{game_id}")
        play_rest_to_end(rest, match["matchId"], tokens, random.Random(game_id))
        reply = rest.get(f"/v1/matches/{match['matchId']}/replay")
        assert reply.status == 200, reply.body
        replays[game_id] = reply.body
    rest.close()
    return replays


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_finished_match_verifies(finished, game_id):
    replay = finished[game_id]
    assert replay["seed"] == f"replay-{game_id}"
    assert replay["seedSha256"] == hashlib.sha256(replay["seed"].encode()).hexdigest()
    assert [a["version"] for a in replay["actions"]] == sorted({a["version"] for a in replay["actions"]})
    assert replay["actions"][-1]["version"] == replay["version"]
    verdict = verify.verify(verify.parse(replay))
    assert verdict.startswith("OK: ") and "\n" not in verdict


def _fails(replay: dict, says: str) -> None:
    with pytest.raises(verify.Differs) as caught:
        verify.verify(verify.parse(replay))
    assert says in str(caught.value), str(caught.value)


def test_a_changed_seed_fails(finished):
    replay = copy.deepcopy(finished["heck"])
    replay["seed"] += "x"
    _fails(replay, "not the seedSha256 published at the start")


def test_a_changed_seed_and_hash_fail_on_the_deal(finished):
    """A forger who changes the seed and its hash deals other cards: the
    recorded actions stop fitting, or the result differs."""
    replay = copy.deepcopy(finished["what_the_heck"])
    replay["seed"] = "forged"
    replay["seedSha256"] = hashlib.sha256(b"forged").hexdigest()
    with pytest.raises(verify.Differs):
        verify.verify(verify.parse(replay))


def test_a_changed_action_fails_naming_it(finished):
    replay = copy.deepcopy(finished["what_the_heck"])
    first = replay["actions"][0]
    first["action"]["whatTheHeck"]["bid"] = 99
    _fails(replay, f"action 1 (version {first['version']}, seat {first['seat']})")


def test_reordered_actions_fail(finished):
    replay = copy.deepcopy(finished["whatever"])
    actions = replay["actions"]
    actions[0], actions[1] = actions[1], actions[0]
    _fails(replay, "action 1 (version")  # the first that differs: the second, moved up, is not legal there


def test_an_action_for_another_seat_fails(finished):
    replay = copy.deepcopy(finished["heul_doch"])
    replay["actions"][0]["seat"] = (replay["actions"][0]["seat"] + 1) % replay["players"]
    _fails(replay, "action 1")


def test_a_changed_result_fails(finished):
    replay = copy.deepcopy(finished["hi_fu"])
    replay["result"]["scores"][0] += 1
    _fails(replay, "the result differs")


def test_a_missing_last_action_fails(finished):
    replay = copy.deepcopy(finished["heck"])
    replay["actions"].pop()
    _fails(replay, "the match is not over")


def test_an_unknown_rules_version_is_refused_clearly(finished):
    replay = copy.deepcopy(finished["heck"])
    replay["rulesVersion"] = "0"
    with pytest.raises(verify.Refused) as caught:
        verify.verify(verify.parse(replay))
    assert "no engine for heck rules version '0'" in str(caught.value)


def test_parlor_verify_from_a_url_and_from_files(stack, finished, tmp_path):
    match_id = finished["heck"]["matchId"]
    url = f"http://127.0.0.1:{stack.http_port}/v1/matches/{match_id}/replay"
    ok = subprocess.run([PARLOR, "verify", url], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("OK: match " + match_id) and ok.stdout.count("\n") == 1
    bad = copy.deepcopy(finished["heck"])
    bad["result"]["winners"] = [9]
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(bad))
    failed = subprocess.run([PARLOR, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert failed.returncode == 1 and failed.stdout.startswith("FAILED: the result differs"), failed.stdout
    older = dict(finished["heck"], rulesVersion="0")
    path.write_text(json.dumps(older))
    refused = subprocess.run([PARLOR, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "cannot verify" in refused.stdout, refused.stdout
    path.write_text("not json")
    assert subprocess.run([PARLOR, "verify", str(path)], capture_output=True, timeout=60).returncode == 2


def test_a_replay_before_the_end_is_refused(rest, stub):
    match, _ = new_rest_match(rest, "heck", 2)
    reply = rest.get(f"/v1/matches/{match['matchId']}/replay")
    assert reply.status == 400 and reply.error == "MATCH_NOT_FINISHED", reply.body
    assert rest.get(f"/v1/matches/{'a' * 24}/replay").status == 404
    with pytest.raises(grpc.RpcError) as caught:
        stub.GetReplay(pb.GetReplayRequest(match_id=match["matchId"]))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_the_replay_over_grpc_is_the_rest_one(stub, finished):
    replay = finished["whatever"]
    over_grpc = stub.GetReplay(pb.GetReplayRequest(match_id=replay["matchId"]))
    assert verify.verify(over_grpc).startswith("OK: ")
    assert [a.version for a in over_grpc.actions] == [a["version"] for a in replay["actions"]]
