"""The OpenAPI document covers every route the gateway serves, and resolves."""

import json
import random
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
    links = [*links.values(), *doc["paths"]["/v1/matches/{matchId}/seats"]["post"]["responses"]["200"]["links"]
             .values()]
    for link in links:  # each names an operation, and parameters it has
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
    assert "match" not in schemas["SubmitActionResponse"]["required"]  # (not with "reply": "events")
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

    code = document()["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]
    assert "enum" not in code and "must accept a code it does not know" in code["description"]  # open
    listed = code["x-known-codes"]
    assert all(re.fullmatch(code["pattern"], known) for known in listed)
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


# Which engine module writes each game's words (by the message's prefix).
_MODULES = {"HiFu": "hi_fu", "HeulDoch": "heul_doch", "Whatever": "whatever", "Heck": "heck"}


def _module_of(full_name: str) -> str:
    message = full_name.removeprefix("parlor.v1.")
    return next(module for prefix, module in _MODULES.items() if message.startswith(prefix))


def test_the_words_a_string_field_takes_are_the_engines():
    """Each closed set of words is the engines': equal to the engine's own
    constant where it has one; else each word is one its engine's source
    writes (a string literal there). The next test plays every game to check
    the other way: the engines emit no word the document does not list."""
    import ast
    import importlib
    import inspect

    from parlor.gateway.openapi import STRING_VALUES
    from parlor.service.games import heck, heul_doch, hi_fu, whatever

    words = {critter["word"] for critter in heck.CRITTERS}
    assert words == {card["word"] for card in heck.HECK_CARDS if card["word"]}
    v1 = "parlor.v1."
    constants = {
        "HiFuOptions.board": hi_fu.BOARD_SIDES,
        "HiFuCard.colour": hi_fu.COLOURS, "HiFuView.lead_colour": hi_fu.COLOURS,
        "HiFuTrick.lead_colour": hi_fu.COLOURS, "HiFuEvent.TrickWon.lead_colour": hi_fu.COLOURS,
        "HeulDochCard.colour": heul_doch.COLOURS, "HeulDochCard.special": heul_doch.SPECIALS,
        "HeulDochEvent.SpecialPlayed.special": heul_doch.SPECIALS,
        "HeulDochAction.FaceUp.pile": heul_doch.PILES,
        "HeulDochAction.Carousel.direction": tuple(heul_doch.DIRECTIONS),
        "HeulDochEvent.SpecialPlayed.direction": tuple(heul_doch.DIRECTIONS),
        "WhateverCard.kind": ("point", *whatever.SPECIALS),
        "HeckCard.kind": heck.HECK_KINDS, "HeckTrait.trait": heck.ATTRIBUTES,
        "HeckCard.word": ("", *words), "HeckCritter.word": tuple(words), "HeckEvent.GameEnded.word": tuple(words),
    }
    for name, expected in constants.items():
        assert sorted(STRING_VALUES[v1 + name]) == sorted(expected), name
    literals = {}
    for module in _MODULES.values():
        tree = ast.parse(inspect.getsource(importlib.import_module(f"parlor.service.games.{module}")))
        literals[module] = {node.value for node in ast.walk(tree)
                            if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    rest = set(STRING_VALUES) - {v1 + name for name in constants}
    assert len(rest) >= 15
    for name in rest:
        assert set(STRING_VALUES[name]) - {""} <= literals[_module_of(name)], name
        assert len(set(STRING_VALUES[name])) == len(STRING_VALUES[name]), name
    schemas = document()["components"]["schemas"]
    assert schemas["HiFuCard"]["properties"]["colour"]["enum"] == [*hi_fu.COLOURS, None]  # (null: in requests)
    assert schemas["HiFuView"]["properties"]["phase"]["enum"] == ["", "discard", "play", "over"]  # ("": WAITING)
    assert schemas["HeckEvent_CritterLost"]["properties"]["cause"]["enum"] == ["runaway", "shoo"]


def test_the_engines_emit_no_word_the_document_does_not_list():
    """Random matches of every game, of the fewest and the most players, with
    and without each game's variants, seen from every seat and a spectator:
    each listed string field of every view and event holds a listed word."""
    from google.protobuf.message import Message

    from parlor.gateway.openapi import STRING_VALUES
    from parlor.service.games import GAMES

    from .games.harness import start, to_message

    seen: dict[str, set[str]] = {name: set() for name in STRING_VALUES}

    def walk(message: Message) -> None:
        for field, value in message.ListFields():
            if field.full_name in seen:
                seen[field.full_name].add(value)
            if field.message_type is not None:
                for item in value if field.is_repeated else [value]:
                    walk(item)

    variants = {"hi_fu": {"board": "back"}, "heul_doch": {"special_cards": True},
                "heck": {"long_game": True}, "what_the_heck": {"hidden_winnings": True}}
    for game in GAMES.values():
        for players in (game.min_players, game.max_players):
            for options in (None, variants.get(game.id)):
                for seed in ("a", "b"):
                    state, rng = start(game, players, options, seed=f"words-{seed}")
                    chooser = random.Random(f"{game.id}-{players}-{seed}")
                    events = game.opening_events(state)
                    while True:
                        for viewer in [None, *range(players)]:
                            walk(to_message(game.id, "view", game.view(state, viewer)))
                            for event in events:
                                walk(to_message(game.id, "event", event.seen_by(viewer)))
                        if game.outcome(state) is not None:
                            break
                        seat = chooser.choice(game.to_act(state))
                        events = game.play(state, seat, chooser.choice(game.legal(state, seat)), rng)
    for name, values in seen.items():
        assert values <= set(STRING_VALUES[name]), (name, values - set(STRING_VALUES[name]))
    assert sum(len(values) for values in seen.values()) > 60  # (most words came up)


def test_the_services_own_words_and_bounds_are_the_services():
    from parlor.gateway.openapi import (MATCH_STRING_VALUES, MAX_NAME_LENGTH, MAX_TURN_SECONDS,
                                        MIN_TURN_SECONDS, OPTION_BOUNDS, SEAT_OPTIONS)
    from parlor.service import bots, matches
    from parlor.service.games import GAMES
    from parlor.v1 import parlor_pb2 as pb

    assert MATCH_STRING_VALUES["parlor.v1.BotSeat.level"] == bots.LEVELS
    assert MATCH_STRING_VALUES["parlor.v1.Seat.bot"] == ("", *bots.LEVELS)
    assert {option.type for game in GAMES.values() for option in game.options} <= \
        set(MATCH_STRING_VALUES["parlor.v1.OptionInfo.type"])
    assert (MIN_TURN_SECONDS, MAX_TURN_SECONDS, MAX_NAME_LENGTH) == \
        (matches.MIN_TURN_SECONDS, matches.MAX_TURN_SECONDS, matches.MAX_NAME_LENGTH)
    bounds, seats = {}, set()
    for game in GAMES.values():
        message = pb.CreateMatchRequest.DESCRIPTOR.fields_by_name[game.id].message_type
        for option in game.options:
            full_name = f"{message.full_name}.{option.name}"
            if option.type == "seat":
                bounds[full_name] = (0, game.max_players - 1)
                seats.add(full_name)
            elif option.type == "int":
                bounds[full_name] = (option.minimum, option.maximum)
    assert OPTION_BOUNDS == bounds and SEAT_OPTIONS == seats


def test_every_example_fits_its_schema_and_every_operation_has_them():
    """Each operation has a tag, a summary, an example reply (and an example
    body, if it takes one; each parameter an example); every example fits its
    schema."""
    import jsonschema

    doc = document()
    components = doc["components"]

    def check(value, schema, what):
        jsonschema.Draft202012Validator({**schema, "components": components}).validate(value)
        return what

    checked = []
    tags = {tag["name"] for tag in doc["tags"]}
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            name = op["operationId"]
            assert op["summary"] and set(op["tags"]) <= tags and len(op["tags"]) == 1, name
            for parameter in op.get("parameters", []):
                checked.append(check(parameter["example"], parameter["schema"], (name, parameter["name"])))
            if "requestBody" in op:
                media = op["requestBody"]["content"]["application/json"]
                assert media["examples"], name
                for example in media["examples"].values():
                    checked.append(check(example["value"], media["schema"], (name, "request")))
            media = next(iter(op["responses"]["200"]["content"].values()))
            assert media["examples"], name
            for example in media["examples"].values():
                checked.append(check(example["value"], media.get("schema", {"type": "string"}), (name, "reply")))
    for response in components["responses"].values():
        media = response["content"]["application/json"]
        for example in media.get("examples", {}).values():
            checked.append(check(example["value"], media["schema"], "error"))
    assert len(checked) > 40
    assert doc["paths"]["/v1/matches/{matchId}/actions"]["post"]["description"]


def test_links_lead_from_a_seat_to_its_operations_with_its_token():
    """A tool that walks links reaches the seat's operations from a join (or a
    quick match) with the match, the seat, and where the token is."""
    doc = document()
    operations = {op["operationId"]: op for ops in doc["paths"].values() for op in ops.values()}
    for path in ("/v1/matches/{matchId}/seats", "/v1/quick-match"):
        links = doc["paths"][path]["post"]["responses"]["200"]["links"]
        assert {link["operationId"] for link in links.values()} == \
            {"getMatch", "listLegalActions", "submitAction", "listEvents", "leaveMatch"}
        for link in links.values():
            target = operations[link["operationId"]]
            assert {p["name"] for p in target["parameters"] if p["in"] == "path"} == set(link["parameters"])
            assert link["x-seat-token"] == "$response.body#/token"
            assert "Authorization: Bearer {$response.body#/token}" in link["description"]
            assert {"seatToken": []} in target["security"]
    assert "Authorization: Bearer <token>" in doc["info"]["description"]


def test_each_proto_name_is_typed_as_its_json_twin():
    """A body may spell a field either way (`first_seat` or `firstSeat`):
    both spellings take the same values, and not both at once."""
    import jsonschema

    doc = document()
    validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/CreateMatchBody",
                                                 "components": doc["components"]})
    create = {"game": "heck", "players": 3}
    for options in ({"first_seat": []}, {"firstSeat": []}, {"max_rounds": "x"}, {"first_seat": 3},
                    {"firstSeat": 1, "first_seat": 1}, {"max_rounds": 0}):
        assert not validator.is_valid({**create, "options": options}), options
    for options in ({"first_seat": 2}, {"firstSeat": None}, {"max_rounds": 1000, "longGame": True}, None):
        assert validator.is_valid({**create, "options": options}), options
    assert not validator.is_valid({**create, "turn_seconds": "60"})
    assert not validator.is_valid({**create, "turnSeconds": 3})  # (1-4 seconds: 400 INVALID_TURN_SECONDS)
    assert validator.is_valid({**create, "turn_seconds": 60, "bots": [{"seat": 2}], "seed": None})
    assert not validator.is_valid({**create, "bots": [{"seat": 3}]})  # (a seat of 3 players is 0-2)
    assert not validator.is_valid({**create, "bots": 4})
    schemas = doc["components"]["schemas"]
    for name, schema in schemas.items():
        for pattern, twin in schema.get("patternProperties", {}).items():
            proto = pattern.strip("^$")
            json_name = re.sub(r"_(\w)", lambda m: m.group(1).upper(), proto)
            assert twin == schema["properties"][json_name], (name, proto)
            assert proto in schema["propertyNames"]["enum"]


def test_the_body_idempotency_key_and_the_header_say_what_the_gateway_does():
    """The header may not be empty (400); in the body "" and null are the
    proto3 JSON default, no key, as the gateway reads them."""
    import jsonschema

    doc = document()
    action = doc["paths"]["/v1/matches/{matchId}/actions"]["post"]
    header = next(p for p in action["parameters"] if p["name"] == "Idempotency-Key")["schema"]
    body = doc["components"]["schemas"]["ActionBody"]["properties"]["idempotencyKey"]
    assert not jsonschema.Draft202012Validator(header).is_valid("")
    for value in ("", None, "k1"):
        assert jsonschema.Draft202012Validator(body).is_valid(value)
    assert not jsonschema.Draft202012Validator(body).is_valid("has space")
    join = doc["components"]["schemas"]["JoinBody"]["properties"]["idempotencyKey"]
    assert jsonschema.Draft202012Validator(join).is_valid("")
    assert not jsonschema.Draft202012Validator(join).is_valid("short")


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
