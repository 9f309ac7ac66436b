"""The OpenAPI document covers every route the gateway serves, and resolves."""

import json
import re

from parlor.common.config import Settings
from parlor.gateway import create_app
from parlor.gateway.openapi import document


def test_every_route_is_documented_and_every_ref_resolves():
    app = create_app(Settings())
    doc = document()
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.startswith("web."):  # (the web client's files, not API)
            continue
        path = re.sub(r"<(\w+)>", lambda m: "{" + {"match_id": "matchId"}.get(m.group(1), m.group(1)) + "}",
                      rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)
    text = json.dumps(doc)
    schemas = doc["components"]["schemas"]
    for chunk in text.split('"$ref": "')[1:]:
        target = chunk.split('"', 1)[0]
        kind, name = target.split("/")[-2:]
        assert name in doc["components"][kind], target
    assert {"Match", "Action", "Event", "WhatTheHeckView", "HeckView"} <= set(schemas)
    operations = {op["operationId"]: op for ops in doc["paths"].values() for op in ops.values()}
    links = doc["paths"]["/v1/matches"]["post"]["responses"]["200"]["links"]
    assert len(links) == 5
    for link in links.values():  # each names an operation, and parameters it has
        parameters = {p["name"] for p in operations[link["operationId"]].get("parameters", [])}
        assert set(link["parameters"]) <= parameters, link


def test_served_by_the_gateway():
    client = create_app(Settings()).test_client()
    reply = client.get("/v1/openapi.json")
    assert reply.status_code == 200 and reply.json["openapi"].startswith("3.1")


def test_match_status_lists_what_a_view_can_carry():
    status = document()["components"]["schemas"]["Match"]["properties"]["status"]
    assert status["enum"] == ["WAITING", "ACTIVE", "FINISHED"]


def test_what_every_view_and_event_carries_is_required_and_always_rendered():
    from parlor.gateway.jsonpb import render
    from parlor.v1 import parlor_pb2 as pb

    schemas = document()["components"]["schemas"]
    waiting = render(pb.Match(match_id="m", game="what_the_heck", status=pb.WAITING,
                              what_the_heck={"options": {"hidden_winnings": False}}))
    assert set(schemas["Match"]["required"]) <= set(waiting)
    assert {"matchId", "game", "rulesVersion", "version", "status", "seats",
            "seedSha256"} <= set(schemas["Match"]["required"])  # what every match view carries
    assert set(schemas["Event"]["required"]) <= set(render(pb.Event(number=1, version=1)))


def test_every_field_a_reply_schema_requires_is_rendered_even_when_unset():
    """`required` tells generated clients what a reply always carries: so an
    empty message of each such type must render every field it names, but for
    the message fields the service always sets (those the conformance test
    holds whole matches' replies to)."""
    from google.protobuf import message_factory

    from parlor.gateway.jsonpb import render
    from parlor.gateway.openapi import _ALWAYS_SENT
    from parlor.v1 import parlor_pb2 as pb

    schemas = document()["components"]["schemas"]
    descriptors, todo = {}, [pb.DESCRIPTOR.message_types_by_name[n] for n in pb.DESCRIPTOR.message_types_by_name]
    while todo:
        desc = todo.pop()
        if desc.full_name not in descriptors:
            descriptors[desc.full_name] = desc
            todo += [f.message_type for f in desc.fields if f.message_type is not None]
    checked = 0
    for full_name, desc in descriptors.items():
        name = full_name.removeprefix("parlor.v1.").replace(".", "_")
        if "required" in schemas.get(name, {}):
            rendered = render(message_factory.GetMessageClass(desc)())
            set_by_the_service = {f.json_name for f in desc.fields if f.full_name in _ALWAYS_SENT}
            assert set(schemas[name]["required"]) - set_by_the_service <= set(rendered), name
            checked += 1
    assert checked > 60
    assert _ALWAYS_SENT <= {field.full_name for desc in descriptors.values() for field in desc.fields}
    assert "match" in schemas["SubmitActionResponse"]["required"]
    # Options require nothing (one left out takes its default); an action's
    # fields are required as legal-action lists write them.
    assert "required" not in schemas["HeckOptions"] and schemas["WhateverAction_Bid"]["required"] == ["amount"]


def test_request_bodies_allow_no_names_the_server_refuses():
    """The gateway refuses a body field it does not know (400), so every object
    a request body can hold lists the names it takes (`propertyNames`): a
    client that validates against the document does not send what the server
    refuses."""
    import pytest

    from parlor.gateway.errors import ApiError
    from parlor.gateway.jsonpb import parse
    from parlor.v1 import parlor_pb2 as pb

    doc = document()
    schemas = doc["components"]["schemas"]
    bodies = [op["requestBody"]["content"]["application/json"]["schema"]
              for ops in doc["paths"].values() for op in ops.values() if "requestBody" in op]
    seen, todo = set(), list(bodies)
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo += node
        elif isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"].rsplit("/", 1)[-1]
                if name not in seen:
                    seen.add(name)
                    todo.append(schemas[name])
                continue
            if node.get("type") == "object" and "properties" in node:
                assert set(node["properties"]) <= set(node["propertyNames"]["enum"]), node
            todo += [value for key, value in node.items() if key not in ("propertyNames", "additionalProperties")]
    assert {"CreateMatchBody", "JoinBody", "ActionBody", "Action", "HeckAction", "HiFuOptions"} <= seen
    assert schemas["Action"]["minProperties"] == schemas["Action"]["maxProperties"] == 1  # one game's
    assert "minProperties" not in schemas["HeckAction"]  # (flat: no oneof)
    for message in (pb.CreateMatchRequest(), pb.SubmitActionRequest(), pb.Action(), pb.CreateMatchRequest().heck):
        with pytest.raises(ApiError) as refused:
            parse({"notAField": 1}, message)
        assert refused.value.status == 400
    # the proto names, which GET /v1/games gives for options, are listed and taken
    assert {"max_rounds", "maxRounds"} <= set(schemas["HeckOptions"]["propertyNames"]["enum"])
    assert parse({"max_rounds": 9}, pb.CreateMatchRequest().heck).max_rounds == 9
    assert "matchId" not in schemas["ActionBody"]["propertyNames"]["enum"]  # (the path says it)


def test_schemas_carry_the_proto_comments():
    """Messages and fields are described with their comments in proto/ (via
    comments.json, which proto/generate.py writes and --check keeps current)."""
    schemas = document()["components"]["schemas"]
    assert schemas["Match"]["description"] == ("A match as one caller sees it. At most one of "
                                               "`whatTheHeck`, `hiFu`, `heulDoch`, `whatever`, `heck` is set.")
    assert schemas["Match"]["properties"]["version"]["description"] == \
        "0 at creation, +1 with every change of state."
    assert schemas["WhateverAction_Bid"]["properties"]["amount"]["description"] == \
        "Your new total bid in tokens."
    seed = schemas["Match"]["properties"]["seed"]["description"]
    assert seed.startswith("The seed, revealed when the match is finished. Optional: left out")
    described = [field for schema in schemas.values() for field in schema.get("properties", {}).values()
                 if field.get("description")]
    assert len(described) > 300


def test_every_error_code_is_listed_in_the_document_and_the_readme():
    """The service's codes (parlor/common/errors.py) and the gateway's own: in the
    Error schema's enum, and in the README's error table."""
    import re
    from pathlib import Path

    from parlor.common.errors import CODES
    from parlor.gateway.errors import PROTOCOL_ERRORS

    listed = document()["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(CODES) <= set(listed)
    assert {code for code, _ in PROTOCOL_ERRORS.values()} <= set(listed)
    assert len(listed) == len(set(listed))
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    table = set(re.findall(r"`([A-Z][A-Z_]+)`", readme[readme.index("| 400 |"):]))
    assert set(listed) <= table, set(listed) - table


def test_the_player_counts_are_the_games():
    from parlor.gateway.openapi import FEWEST_PLAYERS, MOST_PLAYERS, PLAYERS
    from parlor.service.games import GAMES

    assert PLAYERS == {game.id: (game.min_players, game.max_players) for game in GAMES.values()}
    players = document()["components"]["schemas"]["CreateMatchBody"]["properties"]["players"]
    assert (players["minimum"], players["maximum"]) == (FEWEST_PLAYERS, MOST_PLAYERS) == (2, 6)


def test_the_seed_length_is_the_services():
    from parlor.gateway import openapi
    from parlor.service import matches

    seed = document()["components"]["schemas"]["CreateMatchBody"]["properties"]["seed"]
    assert seed["maxLength"] == openapi.MAX_SEED_LENGTH == matches.MAX_SEED_LENGTH


def test_a_validator_holds_a_create_to_its_games_options():
    import jsonschema

    doc = document()
    validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/CreateMatchBody",
                                                 "components": doc["components"]})
    assert validator.is_valid({"game": "heck", "players": 2, "options": {"maxRounds": 3}})
    assert validator.is_valid({"game": "heck", "players": 2, "options": {"max_rounds": 3}})  # proto name
    assert not validator.is_valid({"game": "heck", "players": 2, "options": {"hiddenWinnings": True}})
    assert not validator.is_valid({"game": "heck", "players": 2, "seed": ""})
    assert not validator.is_valid({"game": "heck", "players": 2, "extra": 1})
    assert not validator.is_valid({"game": "hi_fu", "players": 3})  # (Hi-Fu takes 4-5)
    assert validator.is_valid({"game": "heul_doch", "players": 6})


def test_the_words_a_string_field_takes_are_the_engines():
    from parlor.gateway.openapi import STRING_VALUES
    from parlor.service.games import heul_doch, hi_fu

    assert STRING_VALUES == {
        "parlor.v1.HiFuOptions.board": hi_fu.BOARD_SIDES,
        "parlor.v1.HiFuCard.colour": hi_fu.COLOURS,
        "parlor.v1.HeulDochCard.colour": heul_doch.COLOURS,
        "parlor.v1.HeulDochCard.special": heul_doch.SPECIALS,
        "parlor.v1.HeulDochAction.FaceUp.pile": heul_doch.PILES,
        "parlor.v1.HeulDochAction.Carousel.direction": tuple(heul_doch.DIRECTIONS),
    }
    schemas = document()["components"]["schemas"]
    assert schemas["HiFuCard"]["properties"]["colour"]["enum"] == list(hi_fu.COLOURS)
    assert schemas["HeulDochAction_FaceUp"]["properties"]["pile"]["enum"] == ["own", "left", "right"]


def test_every_name_a_request_schema_lists_is_taken():
    """propertyNames lists JSON and proto names: the gateway's parser takes
    each, with a value of the field's type, in the message the schema is of."""
    from google.protobuf import message_factory
    from google.protobuf.descriptor import FieldDescriptor

    from parlor.gateway.jsonpb import parse
    from parlor.gateway.openapi import _reachable
    from parlor.v1 import parlor_pb2 as pb

    def value(field):
        if field.is_repeated:
            return []
        if field.message_type is not None:
            return {}
        if field.enum_type is not None:
            return field.enum_type.values[-1].name
        return {FieldDescriptor.TYPE_BOOL: True, FieldDescriptor.TYPE_STRING: "x"}.get(field.type, 1)

    schemas = document()["components"]["schemas"]
    options = [f.message_type for f in pb.CreateMatchRequest.DESCRIPTOR.oneofs_by_name["options"].fields]
    checked = 0
    for name, desc in _reachable(pb.Action.DESCRIPTOR, *options).items():
        listed = set(schemas[name]["propertyNames"]["enum"])
        for field in desc.fields:
            assert {field.name, field.json_name} <= listed, (name, field.name)
            for key in (field.name, field.json_name):
                parse({key: value(field)}, message_factory.GetMessageClass(desc)())
                checked += 1
        assert listed == {n for f in desc.fields for n in (f.name, f.json_name)}, name
    assert checked > 50
