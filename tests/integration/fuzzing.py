"""What the REST and gRPC fuzz tests share: a checked REST client, a table of
matches per game, the error codes the served document names, and a match's
stored keys. (Loaded as a plugin by tests/conftest.py, so that both test
modules get its fixtures.)"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from parlor.service.games import GAMES

from ..support import new_rest_match
from .test_bad_input import snapshot
from .test_openapi_conformance import CheckedRest


@dataclass
class Table:
    """One game's matches: one in play (its tokens known), one waiting for players."""

    game: str
    active: str
    tokens: list[str]
    waiting: str


@pytest.fixture(scope="module")
def fuzz_client(stack) -> CheckedRest:
    """A REST client that checks every reply against the served OpenAPI document."""
    rest = CheckedRest(stack.http_port)
    yield rest
    rest.close()


@pytest.fixture(scope="module")
def known_codes(fuzz_client) -> set[str]:
    """The error codes the served document lists (as known today: the schema
    leaves `code` open, but each code our own servers send is listed)."""
    error = fuzz_client.doc["components"]["schemas"]["Error"]["properties"]["error"]
    return set(error["properties"]["code"]["x-known-codes"])


@pytest.fixture(scope="module")
def fuzz_tables(fuzz_client) -> dict[str, Table]:
    found = {}
    for game in GAMES.values():
        match, tokens = new_rest_match(fuzz_client, game.id, game.min_players, seed=f"fuzz-{game.id}")
        waiting = fuzz_client.post("/v1/matches", {"game": game.id, "players": game.min_players})
        assert waiting.status == 200, waiting.body
        found[game.id] = Table(game.id, match["matchId"], tokens, waiting.body["matchId"])
    return found


def stored(db, match_ids) -> dict:
    """Every stored key of each match, by match id."""
    return {match_id: snapshot(db, match_id) for match_id in match_ids}


def version_of(stored_match) -> int:
    return int(stored_match[0].partition(b"|")[0])
