"""/v1/games and /v1/matches: each route turns one REST call into one gRPC call."""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, g, request

from parlor.common.errors import bearer, clip
from parlor.v1 import parlor_pb2 as pb

from . import streams
from .errors import ApiError, json_response
from .jsonpb import OPTION_FIELDS, body_object, parse, read_body, render

bp = Blueprint("matches", __name__, url_prefix="/v1")

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,20}")  # query numbers: ASCII digits only
# The create body's fields (the message's per-game option fields are not among
# them: over REST a game's options go in `options`).
_CREATE_FIELDS = ("game", "players", "options", "seed", "bots", "visibility", "turnSeconds", "turn_seconds",
                  "onTimeout", "on_timeout")
_QUICK_FIELDS = ("game", "players", "options", "name", "fillWithBotsAfter", "fill_with_bots_after",
                 "turnSeconds", "turn_seconds", "onTimeout", "on_timeout", "idempotencyKey", "idempotency_key")
# The match's own settings, which may also come inside `options` beside the game's.
_TABLE_FIELDS = {"turnSeconds": "turnSeconds", "turn_seconds": "turnSeconds", "onTimeout": "onTimeout",
                 "on_timeout": "onTimeout", "visibility": "visibility"}
# The per-game options field of replies that carry one (over REST: `options`).
_GAME_FIELDS = {name: pb.Match.DESCRIPTOR.fields_by_name[name].json_name for name in OPTION_FIELDS}


def _call(method: str, message, auth: str | None = None, any_replica: bool = False):
    """One gRPC call. `auth`: the Authorization header, on routes that read the
    caller's seat token (the others ignore it). `any_replica`: a call that needs
    no Redis, answered while no replica reaches it (ServiceClient.call_any_replica)."""
    client = current_app.extensions["parlor"]
    call = client.call_any_replica if any_replica else client.call
    return call(method, message, _metadata(auth))


def _metadata(auth: str | None) -> list[tuple[str, str]]:
    metadata = [("x-request-id", g.request_id)]
    if auth is not None:
        if not auth.isascii() or not auth.isprintable():
            raise ApiError(401, "INVALID_TOKEN", "Authorization must be `Bearer <token>`.")
        metadata.append(("authorization", auth))
    return metadata


@bp.get("/games")
def list_games():
    return json_response(render(_call("ListGames", pb.ListGamesRequest(), any_replica=True)))


@bp.get("/games/<game>/rules")
def game_rules(game: str):
    rules = _call("GetRules", pb.GetRulesRequest(game=game), any_replica=True)
    return Response(rules.markdown, content_type="text/markdown; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=300"})


@bp.post("/matches")
def create_match():
    body = _with_options(body_object(), _CREATE_FIELDS, "A match")
    bots = body.get("bots")
    # A count: that many random bots, in the highest seats. (A whole number, as
    # JSON has it: 2.0 is 2, as for every integer field in proto3 JSON.)
    if type(bots) in (int, float) and 0 <= bots <= 64 and bots == int(bots):
        body["bots"] = [{"level": "random"}] * int(bots)
    return json_response(render(_call("CreateMatch", parse(body, pb.CreateMatchRequest()))))


def _with_options(body: dict, fields: tuple[str, ...], what: str) -> dict:
    """A create's (or quick match's) body with its `options` moved to the game's
    own field, as the gRPC request has them; the match's own settings
    (turnSeconds, onTimeout, visibility) may come inside `options` too."""
    stray = next((key for key in body if key not in fields), None)
    if stray is not None:
        raise ApiError(400, "INVALID_ARGUMENT", f"{what} has no field {stray[:64]!r}; its fields are "
                       f"{', '.join(f for f in fields if '_' not in f)} (a game's options go in `options`).")
    options = body.pop("options", None)
    if options is not None:
        if not isinstance(options, dict):
            raise ApiError(400, "INVALID_ARGUMENT", "`options` must be a JSON object.")
        options = dict(options)
        for name, canonical in _TABLE_FIELDS.items():
            if name in options and canonical in fields:  # (fields lists both spellings)
                value = options.pop(name)
                if body.setdefault(canonical, value) != value:
                    raise ApiError(400, "INVALID_ARGUMENT", f"`{canonical}` is given twice, differently "
                                                            "(in `options` and beside it); give it once.")
        game = body.get("game")
        if isinstance(game, str) and game in OPTION_FIELDS:
            body[game] = options
        # An unknown game: leave the options out and let the service name the problem.
    return body


@bp.get("/matches")
def list_matches():
    status = request.args.get("status", "WAITING")
    if status not in ("WAITING", "ACTIVE"):
        raise ApiError(400, "INVALID_ARGUMENT", "`status` is WAITING (matches to join) or ACTIVE (to watch).")
    req = pb.ListMatchesRequest(game=request.args.get("game", ""), status=pb.MatchStatus.Value(status),
                                limit=_query_int("limit", 0), page_token=request.args.get("pageToken", ""))
    reply = render(_call("ListMatches", req))
    for entry in reply["matches"]:
        _options_out(entry)
    return json_response(reply)


@bp.post("/quick-match")
def quick_match():
    body = _with_options(body_object(), _QUICK_FIELDS, "A quick match")
    req = parse(body, pb.QuickMatchRequest())
    _take_idempotency_key(req)
    return json_response(render(_call("QuickMatch", req)))


@bp.get("/matches/<match_id>/replay")
def get_replay(match_id: str):
    return json_response(_options_out(render(_call("GetReplay", pb.GetReplayRequest(match_id=match_id)))))


@bp.delete("/matches/<match_id>/seats/<seat>")
def leave_match(match_id: str, seat: str):
    auth = _auth()
    if auth is None:
        raise ApiError(401, "TOKEN_REQUIRED", "Leaving needs the seat's token (Authorization: Bearer ...).")
    req = pb.LeaveMatchRequest(match_id=match_id, seat=_whole_number("The seat", seat))
    return json_response(render(_call("LeaveMatch", req, auth)))


def _options_out(reply: dict) -> dict:
    """A reply's per-game options field (`heck`, ...) as `options`, as a
    create takes them."""
    for name, json_name in _GAME_FIELDS.items():
        if json_name in reply:
            reply["options"] = reply.pop(json_name)
    return reply


@bp.post("/matches/<match_id>/seats")
def join_match(match_id: str):
    req = _for_match(parse(body_object(), pb.JoinMatchRequest()), match_id)
    _take_idempotency_key(req)
    return json_response(render(_call("JoinMatch", req)))


def _take_idempotency_key(req) -> None:
    """The Idempotency-Key header, if sent, into the request (the service checks
    it). The body may carry the key instead, as the gRPC request's field
    `idempotencyKey`; one that differs from the header is refused rather than
    quietly overruled."""
    environ = request.environ
    for name in environ:  # (HTTP_X_IDEMPOTENCY_KEY for X-Idempotency-Key; quicker than .headers)
        if name.endswith("IDEMPOTENCY_KEY") and name != "HTTP_IDEMPOTENCY_KEY":
            # Ignored, a retry the client believes safe would be applied twice.
            header = name.removeprefix("HTTP_").replace("_", "-").title()
            raise ApiError(400, "INVALID_IDEMPOTENCY_KEY", f"Send the key in the Idempotency-Key header; "
                                                           f"{clip(header, 64)} is not read.")
    key = environ.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None:
        if not key:
            raise ApiError(400, "INVALID_IDEMPOTENCY_KEY",
                           "The Idempotency-Key header is empty: send a key, or leave the header out.")
        if req.idempotency_key and req.idempotency_key != key:
            raise ApiError(400, "INVALID_IDEMPOTENCY_KEY", "The body's `idempotencyKey` is not the "
                                                           "Idempotency-Key header's; send the key once.")
        req.idempotency_key = key


def _for_match(req, match_id: str):
    """`req` for the match in the path. The body need not name it; one that
    names another is refused rather than quietly overruled."""
    if req.match_id and req.match_id != match_id:
        raise ApiError(400, "INVALID_ARGUMENT", "The body's `matchId` is not the match in the path; "
                                                "leave it out.")
    req.match_id = match_id
    return req


@bp.get("/matches/<match_id>")
def get_match(match_id: str):
    return json_response(render(_call("GetMatch", pb.GetMatchRequest(match_id=match_id), _auth())))


@bp.get("/matches/<match_id>/legal-actions")
def legal_actions(match_id: str):
    return json_response(render(_call("ListLegalActions", pb.ListLegalActionsRequest(match_id=match_id),
                                      _auth())))


@bp.post("/matches/<match_id>/actions")
def submit_action(match_id: str):
    raw = read_body()  # a body over the limit is 413, whoever sends it
    auth = _auth()
    if auth is None:  # who asks comes before what they ask
        raise ApiError(401, "TOKEN_REQUIRED", "Acting needs the seat's token (Authorization: Bearer ...).")
    bearer(auth)  # a malformed one is INVALID_TOKEN, as the service answers on every route
    body = body_object(raw)
    if "action" not in body:
        raise ApiError(400, "INVALID_ACTION", "The body needs an `action`.")
    req = _for_match(parse(body, pb.SubmitActionRequest()), match_id)
    _take_idempotency_key(req)
    return json_response(render(_call("SubmitAction", req, auth)))


@bp.get("/matches/<match_id>/events")
def list_events(match_id: str):
    if streams.wanted():
        return _watch_events(match_id)
    req = pb.ListEventsRequest(match_id=match_id, after=_query_int("after", 0),
                               limit=_query_int("limit", 0))
    _resumed_after()  # checked as for a stream, though a list reads `after` only
    return json_response(render(_call("ListEvents", req, _auth())))


def _watch_events(match_id: str):
    """Live events as Server-Sent Events (see streams.py)."""
    after = _query_int("after", 0)
    _query_int("limit", 0)  # checked as for the list, though a stream sends every event
    resumed = _resumed_after()
    if resumed is not None:
        after = resumed
    metadata = _metadata(_auth())
    client = current_app.extensions["parlor"]
    return streams.open_stream(lambda req: client.stream("WatchEvents", req, metadata),
                               pb.WatchEventsRequest(match_id=match_id, after=after),
                               current_app.extensions["parlor.streams"])


def _resumed_after() -> int | None:
    """The Last-Event-ID header's event number; None without one (or with an
    empty one, as EventSource means it)."""
    resumed = request.headers.get("Last-Event-ID", "")
    return _whole_number("Last-Event-ID", resumed) if resumed else None


def _auth() -> str | None:
    return request.environ.get("HTTP_AUTHORIZATION")


def _query_int(name: str, default: int) -> int:
    raw = request.args.get(name)
    return default if raw is None else _whole_number(f"`{name}`", raw)


def _whole_number(name: str, raw: str) -> int:
    if not _WHOLE_NUMBER.fullmatch(raw):  # int() would also take " 7", "1_0" and "１"
        raise ApiError(400, "INVALID_ARGUMENT", f"{name} must be a whole number.")
    value = int(raw)
    if not 0 <= value < 2**31:
        raise ApiError(400, "INVALID_ARGUMENT", f"{name} must be between 0 and 2147483647.")
    return value
