"""The lobby: public matches listed (ListMatches), quick match (QuickMatch),
over REST and gRPC, with real processes."""

from __future__ import annotations

import collections
import threading
import time
import uuid

import grpc
import pytest

from parlor.v1 import parlor_pb2 as pb

from ..support import Rest, Stack, auth

pytestmark = pytest.mark.integration


def create(rest, game: str = "heck", players: int = 3, **body) -> dict:
    reply = rest.post("/v1/matches", {"game": game, "players": players, **body})
    assert reply.status == 200, reply.body
    return reply.body


def listed(rest, query: str = "") -> list[dict]:
    reply = rest.get(f"/v1/matches{query}")
    assert reply.status == 200, reply.body
    return reply.body["matches"]


def listed_ids(rest, query: str = "") -> list[str]:
    return [m["matchId"] for m in listed(rest, query)]


def test_public_waiting_matches_are_listed_newest_first_and_private_ones_never(rest):
    private = create(rest, "whatever", 3)
    public = [create(rest, "whatever", 3, visibility="public", options={"first_seat": 1}) for _ in range(3)]
    ids = listed_ids(rest, "?game=whatever&limit=100")
    mine = [m["matchId"] for m in public]
    assert [i for i in ids if i in mine] == mine[::-1], "newest first"
    assert private["matchId"] not in ids
    entry = next(m for m in listed(rest, "?game=whatever&limit=100") if m["matchId"] == mine[0])
    assert entry["game"] == "whatever" and entry["players"] == 3 and entry["openSeats"] == 3
    assert entry["status"] == "WAITING" and entry["options"] == {"firstSeat": 1}
    assert [s["joined"] for s in entry["seats"]] == [False] * 3
    assert entry["ageSeconds"] >= 0 and entry["createdAt"].endswith("Z")
    assert set(entry) == {"matchId", "game", "status", "players", "openSeats", "seats", "createdAt",
                          "ageSeconds", "turnSeconds", "onTimeout", "options"}


def test_listing_filters_by_game_and_pages_with_a_token(rest):
    made = [create(rest, "hi_fu", 4, visibility="public")["matchId"] for _ in range(5)]
    assert not set(made) & set(listed_ids(rest, "?game=heck&limit=100"))
    seen, token = [], ""
    for _ in range(20):
        reply = rest.get(f"/v1/matches?game=hi_fu&limit=2{'&pageToken=' + token if token else ''}").body
        assert len(reply["matches"]) <= 2
        seen += [m["matchId"] for m in reply["matches"]]
        token = reply["nextPageToken"]
        if not token:
            break
    assert [i for i in seen if i in made] == made[::-1] and len(seen) == len(set(seen)), "each once, in order"


def test_a_match_that_fills_leaves_the_waiting_list_and_is_listed_to_watch(rest):
    match_id = create(rest, "heck", 2, visibility="public")["matchId"]
    assert match_id in listed_ids(rest, "?game=heck&limit=100")
    ann = rest.post(f"/v1/matches/{match_id}/seats", {"name": "Ann"}).body
    entry = next(m for m in listed(rest, "?game=heck&limit=100") if m["matchId"] == match_id)
    assert entry["openSeats"] == 1 and entry["seats"][0]["name"] == "Ann"
    rest.post(f"/v1/matches/{match_id}/seats", {"name": "Bob"})
    assert match_id not in listed_ids(rest, "?game=heck&limit=100")
    assert match_id in listed_ids(rest, "?game=heck&status=ACTIVE&limit=100")
    assert ann["token"] not in str(listed(rest, "?game=heck&status=ACTIVE&limit=100"))


def test_a_finished_match_is_never_listed(rest):
    match_id = create(rest, "what_the_heck", 2, visibility="public", bots=2)["matchId"]
    deadline = time.monotonic() + 20
    while rest.get(f"/v1/matches/{match_id}").body["status"] != "FINISHED":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    for status in ("WAITING", "ACTIVE"):
        assert match_id not in listed_ids(rest, f"?status={status}&limit=100")


@pytest.mark.parametrize("query,code", [
    ("?game=chess", "UNKNOWN_GAME"),
    ("?limit=101", "INVALID_ARGUMENT"),
    ("?limit=-1", "INVALID_ARGUMENT"),
    ("?limit=ten", "INVALID_ARGUMENT"),
    ("?status=FINISHED", "INVALID_ARGUMENT"),
    ("?pageToken=bm90IGEgdG9rZW4", "INVALID_PAGE_TOKEN"),
    ("?pageToken=%25%25", "INVALID_PAGE_TOKEN"),
])
def test_bad_listings_are_refused(rest, query, code):
    reply = rest.get(f"/v1/matches{query}")
    assert reply.status == 400 and reply.error == code, reply.body


def test_a_page_token_is_for_its_own_listing(rest):
    for _ in range(3):
        create(rest, "heck", 5, visibility="public")
    token = rest.get("/v1/matches?game=heck&limit=1").body["nextPageToken"]
    assert token
    assert rest.get(f"/v1/matches?game=whatever&limit=1&pageToken={token}").error == "INVALID_PAGE_TOKEN"


@pytest.mark.parametrize("body,code", [
    ({"game": "chess", "players": 2, "name": "Ann"}, "UNKNOWN_GAME"),
    ({"game": "heck", "players": 9, "name": "Ann"}, "INVALID_PLAYER_COUNT"),
    ({"game": "heck", "players": 2, "name": ""}, "INVALID_NAME"),
    ({"game": "heck", "players": 2, "name": "Ann", "options": {"long_game": "yes"}}, "INVALID_ARGUMENT"),
    ({"game": "heck", "players": 2, "name": "Ann", "fillWithBotsAfter": 3601}, "INVALID_ARGUMENT"),
    ({"game": "heck", "players": 2, "name": "Ann", "turnSeconds": 1}, "INVALID_TURN_SECONDS"),
    ({"game": "heck", "players": 2, "name": "Ann", "seat": 1}, "INVALID_ARGUMENT"),
])
def test_bad_quick_matches_are_refused_and_nothing_is_stored(rest, db, body, code):
    before = db.dbsize()
    reply = rest.post("/v1/quick-match", body)
    assert reply.status == 400 and reply.error == code, reply.body
    assert db.dbsize() == before


def test_quick_match_seats_callers_together_and_retries_are_safe(rest):
    options = {"maxRounds": 7}  # a configuration of this test's own
    first = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Ann", "options": options},
                      headers={"Idempotency-Key": (key := str(uuid.uuid4()))})
    assert first.status == 200, first.body
    assert set(first.body) == {"matchId", "seat", "token"}
    again = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Ann", "options": options},
                      headers={"Idempotency-Key": key})
    assert again.body == first.body
    other = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Ann", "options": options},
                      headers={"Idempotency-Key": key})
    assert other.body == first.body
    reused = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Bob", "options": options},
                       headers={"Idempotency-Key": key})
    assert reused.status == 409 and reused.error == "IDEMPOTENCY_KEY_REUSED"
    second = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Bob", "options": options})
    assert second.body["matchId"] == first.body["matchId"] and second.body["seat"] == 1
    view = rest.get(f"/v1/matches/{first.body['matchId']}", token=second.body["token"]).body
    assert view["status"] == "ACTIVE" and view["visibility"] == "public"
    third = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Cy", "options": options})
    assert third.body["matchId"] != first.body["matchId"], "a full table is not found again"


def test_quick_match_with_another_configuration_gets_another_table(rest):
    a = rest.post("/v1/quick-match", {"game": "heck", "players": 3, "name": "A", "options": {"maxRounds": 8}})
    b = rest.post("/v1/quick-match", {"game": "heck", "players": 3, "name": "B", "options": {"maxRounds": 9}})
    c = rest.post("/v1/quick-match", {"game": "heck", "players": 3, "name": "C",
                                      "options": {"maxRounds": 9, "turnSeconds": 30}})
    assert len({a.body["matchId"], b.body["matchId"], c.body["matchId"]}) == 3


def test_bots_fill_a_quick_match_table_when_nobody_came(rest):
    reply = rest.post("/v1/quick-match", {"game": "what_the_heck", "players": 3, "name": "Ann",
                                          "fillWithBotsAfter": 1, "options": {"hiddenWinnings": True}})
    assert reply.status == 200, reply.body
    match_id = reply.body["matchId"]
    assert rest.get(f"/v1/matches/{match_id}").body["status"] == "WAITING"
    deadline = time.monotonic() + 10
    while (view := rest.get(f"/v1/matches/{match_id}").body)["status"] == "WAITING":
        assert time.monotonic() < deadline, "no bots came"
        time.sleep(0.1)
    assert [s["bot"] for s in view["seats"]] == ["", "random", "random"]


def _concurrent(calls: int, call) -> list:
    """`call(i)` from `calls` threads released at once."""
    barrier = threading.Barrier(calls)
    out = [None] * calls

    def run(i):
        barrier.wait()
        try:
            out[i] = call(i)
        except BaseException as exc:  # noqa: BLE001 (reported below, in the test's thread)
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    failed = [result for result in out if isinstance(result, BaseException)]
    assert not failed, failed[:3]
    return out


def _check_fifty(results: list[tuple[str, int, str]], players: int = 4) -> None:
    """50 callers of a 4-player game: 13 tables (12 full, one with 2), nobody
    seated twice, no table over-full."""
    tables = collections.defaultdict(list)
    for match_id, seat, token in results:
        tables[match_id].append(seat)
    assert len(results) == 50 and len({token for _, _, token in results}) == 50
    sizes = sorted(len(seats) for seats in tables.values())
    assert sizes == [2] + [4] * 12, sizes
    for seats in tables.values():
        assert len(set(seats)) == len(seats) and set(seats) <= set(range(players))


def test_fifty_quick_match_callers_at_once_over_rest(stack):
    options = {"maxRounds": 11}
    clients = [Rest(stack.http_port) for _ in range(50)]

    def call(i):
        reply = clients[i].post("/v1/quick-match", {"game": "heck", "players": 4, "name": f"p{i}",
                                                    "options": options})
        assert reply.status == 200, reply.body
        return reply.body["matchId"], reply.body["seat"], reply.body["token"]

    try:
        results = _concurrent(50, call)
    finally:
        for client in clients:
            client.close()
    _check_fifty(results)
    rest = stack.rest()
    for match_id in {r[0] for r in results}:
        view = rest.get(f"/v1/matches/{match_id}").body
        assert sum(s["joined"] for s in view["seats"]) in (2, 4)


def test_fifty_quick_match_callers_at_once_over_grpc(stack):
    channels = [stack.channel() for _ in range(5)]
    stubs = [stack.stub(channel) for channel in channels]

    def call(i):
        reply = stubs[i % 5].QuickMatch(pb.QuickMatchRequest(game="heck", players=4, name=f"g{i}",
                                                              heck={"max_rounds": 12}), timeout=30)
        return reply.match_id, reply.seat, reply.token

    try:
        results = _concurrent(50, call)
    finally:
        for channel in channels:
            channel.close()
    _check_fifty(results)


def test_the_lobby_over_grpc(stub):
    match = stub.CreateMatch(pb.CreateMatchRequest(game="whatever", players=2, visibility="public"))
    page = stub.ListMatches(pb.ListMatchesRequest(game="whatever", limit=100))
    assert match.match_id in [m.match_id for m in page.matches]
    with pytest.raises(grpc.RpcError) as caught:
        stub.ListMatches(pb.ListMatchesRequest(limit=500))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    joined = stub.QuickMatch(pb.QuickMatchRequest(game="whatever", players=2, name="Q"))
    view = stub.GetMatch(pb.GetMatchRequest(match_id=joined.match_id), metadata=auth(joined.token))
    assert view.viewer_seat == joined.seat


def test_an_expired_match_leaves_the_lobby():
    stack = Stack(env={"PARLOR_WAITING_TTL_SECONDS": "2"}).start()
    try:
        rest = stack.rest()
        match_id = rest.post("/v1/matches", {"game": "heck", "players": 2, "visibility": "public"}).body["matchId"]
        assert match_id in listed_ids(rest)
        quick = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Ann"}).body
        time.sleep(2.5)
        assert rest.get(f"/v1/matches/{match_id}").status == 404
        assert not listed(rest), "expired matches are dropped from the lobby"
        again = rest.post("/v1/quick-match", {"game": "heck", "players": 2, "name": "Bob"}).body
        assert again["matchId"] != quick["matchId"] and again["seat"] == 0
    finally:
        stack.stop()
