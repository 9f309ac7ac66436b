"""Sequences of REST calls against a model of what each must answer: matches
of every game created, seats joined (with and without idempotency keys, keys
reused, seats asked for that are taken or out of range), actions posted (with
keys, retried later, with a stale expectedVersion), events read from any
point. After every step each match's version and seats are what the model
says; every keyed retry returns its first answer byte for byte, however far
the match has moved on since."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from parlor.service.games import GAMES

from ..support import Rest, game_field

pytestmark = pytest.mark.integration

JOIN_KEYS = [str(uuid.UUID(int=n)) for n in range(3)]  # few, so that they are reused
ACTION_KEYS = ["a", "b"]
NAMES = ["Ann", "Bob"]


@dataclass
class Model:
    game: str
    players: int
    version: int = 0
    names: list = field(default_factory=list)
    tokens: list = field(default_factory=list)
    finished: bool = False
    last_action: dict | None = None              # the body of the last action accepted
    joins: dict = field(default_factory=dict)    # key -> (body, first reply body)
    actions: dict = field(default_factory=dict)  # (seat, key) -> (body, first reply body)

    @property
    def waiting(self) -> bool:
        return None in self.names


class Play(RuleBasedStateMachine):
    port = 0
    matches = Bundle("matches")

    def __init__(self) -> None:
        super().__init__()
        self.rest = Rest(self.port)
        self.models: dict[str, Model] = {}

    def teardown(self) -> None:
        self.rest.close()

    @rule(target=matches, game=st.sampled_from(sorted(GAMES)))
    def create(self, game):
        players = GAMES[game].min_players
        reply = self.rest.post("/v1/matches", {"game": game, "players": players,
                                               "seed": f"stateful-{len(self.models)}"})
        assert reply.status == 200, reply.body
        match_id = reply.body["matchId"]
        self.models[match_id] = Model(game, players, names=[None] * players, tokens=[None] * players)
        return match_id

    @rule(match_id=matches, name=st.sampled_from(NAMES), key=st.sampled_from([None, None, *JOIN_KEYS]),
          seat=st.none() | st.integers(-1, 5))
    def join(self, match_id, name, key, seat):
        model = self.models[match_id]
        body = {"name": name} if seat is None else {"name": name, "seat": seat}
        reply = self.rest.post(f"/v1/matches/{match_id}/seats", body,
                               headers={"Idempotency-Key": key} if key else None)
        if key in model.joins:  # a retry: the first answer, or a refusal for another body
            first_body, first_reply = model.joins[key]
            if body == first_body:
                assert (reply.status, reply.body) == (200, first_reply)
            else:
                assert reply.error == "IDEMPOTENCY_KEY_REUSED", reply.body
            return
        if not model.waiting:
            assert reply.error == "MATCH_FULL", reply.body
        elif seat is not None and not 0 <= seat < model.players:
            assert reply.error == "INVALID_SEAT", reply.body
        elif seat is not None and model.names[seat] is not None:
            assert reply.error == "SEAT_TAKEN", reply.body
        else:
            assert reply.status == 200, reply.body
            taken = model.names.index(None) if seat is None else seat
            assert reply.body["seat"] == taken
            model.names[taken], model.tokens[taken] = name, reply.body["token"]
            model.version += 1
            if key:
                model.joins[key] = (body, reply.body)

    @rule(match_id=matches)
    def fill(self, match_id):
        """Every open seat taken, in order, without keys (play can start)."""
        model = self.models[match_id]
        while model.waiting:
            self.join(match_id, "Cy", None, None)

    @rule(match_id=matches, seat=st.integers(0, 4), pick=st.integers(0, 100),
          key=st.sampled_from([None, None, *ACTION_KEYS]), stale=st.integers(0, 4).map(lambda n: n == 0))
    def act(self, match_id, seat, pick, key, stale):
        model = self.models[match_id]
        seat %= model.players
        token = model.tokens[seat]
        if token is not None and (model.waiting or model.finished):  # acting too early or too late
            field = game_field(model.game)
            body = model.last_action or {"action": {field: {}}}
            reply = self.rest.post(f"/v1/matches/{match_id}/actions", body, token=token)
            assert reply.error == ("MATCH_FINISHED" if model.finished else "MATCH_NOT_STARTED"), reply.body
        if model.waiting or model.finished:
            return
        legal = self.rest.get(f"/v1/matches/{match_id}/legal-actions", token=token).body["actions"]
        if not legal:
            return
        body = {"action": legal[pick % len(legal)]}
        if stale:
            body["expectedVersion"] = model.version - 1
        reply = self.rest.post(f"/v1/matches/{match_id}/actions", body, token=token,
                               headers={"Idempotency-Key": key} if key else None)
        if (seat, key) in model.actions:
            first_body, first_reply = model.actions[(seat, key)]
            if body == first_body:
                assert (reply.status, reply.body) == (200, first_reply)
            else:
                assert reply.error == "IDEMPOTENCY_KEY_REUSED", reply.body
            return
        if stale:
            assert reply.error == "STALE_VERSION", reply.body
            assert reply.body["error"]["details"]["currentVersion"] == str(model.version)
            return
        assert reply.status == 200, reply.body
        model.version += 1
        assert reply.body["match"]["version"] == model.version
        model.finished = reply.body["match"]["status"] == "FINISHED"
        model.last_action = {"action": body["action"]}
        if key:
            model.actions[(seat, key)] = (body, reply.body)

    @rule(match_id=matches, moves=st.integers(1, 40))
    def play_on(self, match_id, moves):
        """Up to `moves` rounds of each seat's first listed action, each under a
        key of its own, so that matches also get to their end and there are
        keyed actions to retry."""
        model = self.models[match_id]
        for _ in range(moves):
            if model.waiting or model.finished:
                return
            for seat in range(model.players):
                self.act(match_id, seat, 0, f"v{model.version}", False)

    @rule(data=st.data())
    def retry_an_action(self, data):
        """A keyed action sent again later: its first answer, as it was."""
        sent = sorted((match_id, seat, key) for match_id, model in self.models.items()
                      for seat, key in model.actions)
        if not sent:
            return
        match_id, seat, key = data.draw(st.sampled_from(sent))
        model = self.models[match_id]
        body, first_reply = model.actions[(seat, key)]
        reply = self.rest.post(f"/v1/matches/{match_id}/actions", body, token=model.tokens[seat],
                               headers={"Idempotency-Key": key})
        assert (reply.status, reply.body) == (200, first_reply)

    @rule(match_id=matches, after=st.integers(0, 200))
    def read_events(self, match_id, after):
        everything = self.rest.get(f"/v1/matches/{match_id}/events").body
        last = everything["lastEvent"]
        assert [e["number"] for e in everything["events"]] == list(range(1, last + 1))
        page = self.rest.get(f"/v1/matches/{match_id}/events?after={after}").body
        assert page["events"] == everything["events"][after:] and page["lastEvent"] == last

    @invariant()
    def matches_are_as_the_model_says(self):
        for match_id, model in self.models.items():
            view = self.rest.get(f"/v1/matches/{match_id}").body
            assert view["version"] == model.version, (match_id, view["version"], model)
            assert [s["name"] if s["joined"] else None for s in view["seats"]] == model.names
            expected = "WAITING" if model.waiting else "FINISHED" if model.finished else "ACTIVE"
            assert view["status"] == expected


def test_call_sequences_match_the_model(stack):
    """20 sequences of up to 40 steps (the same ones in CI); STATEFUL_EXAMPLES=500
    for a longer hunt."""
    Play.port = stack.http_port
    run_state_machine_as_test(Play, settings=settings(
        max_examples=int(os.environ.get("STATEFUL_EXAMPLES", "20")), stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]))
