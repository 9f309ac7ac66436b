"""The rulebook: every registered game has its page beside its engine
(`service/games/<id>.md`), the page has what every page shares, and the REST
gateway serves it and links it from the list of games."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import json_format

from parlor.service import games
from parlor.service.games import GAMES
from parlor.v1 import parlor_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
# The shared rule texts the pages were made from. They are not in the repository:
# a clone has them only where shared/ lies beside it (CI's copy, a developer's).
SHARED_RULES = next((path for path in (ROOT.parent / "shared" / "rules", Path("/work/shared/rules"))
                     if path.is_dir()), None)
SECTIONS = ("## What each seat may see", "## Playing it here")


def decisions(page: str) -> list[str]:
    """The bold spans of a page that mark a decision (`**Decision:**`,
    `**decisions**`, `**Default deck (40), decision:**`, ...)."""
    return [span for span in re.findall(r"\*\*(.+?)\*\*", page, flags=re.S) if "decision" in span.lower()]


def options_message(game_id: str):
    """The game's Options message, as CreateMatchRequest names it."""
    return pb.CreateMatchRequest.DESCRIPTOR.fields_by_name[game_id].message_type


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_its_page(game_id):
    game = GAMES[game_id]
    page = games.rulebook(game_id)
    assert page.startswith(f"# {game.title}"), page.splitlines()[0]
    assert f"`{game_id}`" in page, "the page names the game's id"
    for section in SECTIONS:
        assert re.search(rf"^{re.escape(section)}$", page, flags=re.M), f"no section {section!r}"
    assert page.index(SECTIONS[0]) < page.index(SECTIONS[1]), "Playing it here comes last"
    assert "original/" not in page, "a clone has no original/ texts to point at"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_option_is_named_on_its_page(game_id):
    """Each option by its proto name, and in Playing it here by its JSON name too."""
    page = games.rulebook(game_id)
    playing = page[page.index("## Playing it here"):]
    fields = options_message(game_id).fields_by_name
    assert {option.name for option in GAMES[game_id].options} == set(fields)
    for option in GAMES[game_id].options:
        assert f"`{option.name}`" in page, option.name
        assert f"`{option.name}`" in playing, option.name
        assert f"`{fields[option.name].json_name}`" in playing, fields[option.name].json_name


@pytest.mark.parametrize("game_id", list(GAMES))
def test_example_actions_are_the_games_actions(game_id):
    """Every example body in Playing it here (`{"action": ...}`) decodes as an
    Action of this game, naming no field the proto lacks."""
    playing = games.rulebook(game_id).split("## Playing it here", 1)[1]
    bodies = [json.loads(span) for span in re.findall(r"`(\{\"action\": .+?)`", playing)]
    assert bodies, "Playing it here shows an example action"
    for body in bodies:
        assert set(body) == {"action"}
        action = json_format.ParseDict(body["action"], pb.Action())  # raises on an unknown field
        assert action.WhichOneof("game") == game_id, body


def test_every_page_belongs_to_a_game():
    """No page is left over for a game the registry no longer has."""
    pages = {entry.name.removesuffix(".md") for entry in resources.files(games).iterdir()
             if entry.name.endswith(".md")}
    assert pages == set(GAMES)


@pytest.mark.skipif(SHARED_RULES is None, reason="needs the shared rule texts (shared/rules), not in a clone")
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_shared_decision_is_kept(game_id):
    """The page keeps every point the shared page marks as a decision (and may
    add the engine's own)."""
    shared = decisions((SHARED_RULES / f"{game_id}.md").read_text(encoding="utf-8"))
    assert shared, "the shared page marks its decisions"
    assert len(decisions(games.rulebook(game_id))) >= len(shared)


@pytest.mark.integration
def test_the_gateway_serves_and_links_every_page(rest):
    listed = rest.get("/v1/games")
    assert listed.status == 200, listed.body
    assert [game["id"] for game in listed.body["games"]] == list(GAMES)
    for game in listed.body["games"]:
        assert game["rulesUrl"] == f"/v1/games/{game['id']}/rules"
        reply = rest.get(game["rulesUrl"])
        assert reply.status == 200, reply.body
        assert reply.headers["content-type"].startswith("text/markdown")
        assert reply.body.decode("utf-8") == games.rulebook(game["id"])


@pytest.mark.integration
@pytest.mark.parametrize("game_id", ["no_such_game", "What_The_Heck", "base"])
def test_an_unknown_game_has_no_rules(rest, game_id):
    reply = rest.get(f"/v1/games/{game_id}/rules")
    assert reply.status == 400
    assert reply.error == "UNKNOWN_GAME"
