"""`parlor verify <url-or-file>`: checks a finished match from its replay record.

The record (GET /v1/matches/{id}/replay, or GetReplay over gRPC, saved as JSON)
names the game, its rules version, the seats, the options, the seed and every
action in order, and the result. Verifying re-runs the match with this build's
engine of that rules version:

1. the seed's SHA-256 must be the `seedSha256` published when the match was
   created (so the seed was fixed before the first card was dealt);
2. every action must be legal when it comes, for the seat it names, and the
   versions must rise;
3. the match must end with the last action, with the recorded result.

Exit 0 with a one-line verdict; 1 naming the first thing that differs; 2 when
the record cannot be checked here (unreadable, or a rules version this build
does not have).
"""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.error
import urllib.request
from typing import Any

from google.protobuf import json_format

from parlor.v1 import parlor_pb2 as pb

from . import games, wire
from .games.base import OptionError, RulesError
from .games.rng import Rng


class Refused(Exception):
    """The record cannot be checked (exit 2)."""


class Differs(Exception):
    """The record does not hold up (exit 1)."""


def main(source: str, out=print) -> int:
    try:
        out(verify(read(source)))
        return 0
    except Differs as exc:
        out(f"FAILED: {exc}")
        return 1
    except Refused as exc:
        out(f"cannot verify: {exc}")
        return 2


def read(source: str) -> pb.Replay:
    """The replay record at `source`: an http(s) URL, a file, or - (standard input)."""
    try:
        if source.startswith(("http://", "https://")):
            request = urllib.request.Request(source, headers={"Accept": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as reply:
                text = reply.read().decode("utf-8")
        elif source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as file:
                text = file.read()
    except urllib.error.HTTPError as exc:
        raise Refused(f"{source} answered {exc.code}: {_api_error(exc)}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Refused(f"cannot read {source}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused(f"{source} is not JSON: {exc}") from None
    return parse(data)


def parse(data: Any) -> pb.Replay:
    """A replay record from its JSON, as the REST API gives it (the game's
    options in `options`) or as the proto3 JSON mapping writes it."""
    if not isinstance(data, dict):
        raise Refused("a replay record is a JSON object")
    data = dict(data)
    options = data.pop("options", None)
    game = data.get("game")
    if options is not None and isinstance(game, str) and game in games.GAMES:
        data[pb.Replay.DESCRIPTOR.fields_by_name[game].json_name] = options
    try:
        return json_format.ParseDict(data, pb.Replay(), ignore_unknown_fields=True)
    except json_format.ParseError as exc:
        raise Refused(f"not a replay record: {exc}") from None


def verify(replay: pb.Replay) -> str:
    """Re-runs the match; its one-line verdict, or Differs / Refused."""
    engine = games.engine(replay.game, replay.rules_version)
    if engine is None:
        current = games.get(replay.game)
        if current is None:
            raise Refused(f"this build has no game {replay.game!r}")
        raise Refused(f"this build has no engine for {replay.game} rules version {replay.rules_version!r} "
                      f"(it runs version {current.rules_version}); verify with a build of that version")
    digest = hashlib.sha256(replay.seed.encode("utf-8")).hexdigest()
    if digest != replay.seed_sha256:
        raise Differs(f"the seed's SHA-256 is {digest}, not the seedSha256 published at the start "
                      f"({replay.seed_sha256 or 'none'})")
    given = replay.WhichOneof("options")
    try:
        options = engine.resolve_options(replay.players,
                                         wire.options_to_plain(getattr(replay, given)) if given else {})
    except OptionError as exc:
        raise Differs(f"the options do not fit the game: {exc.message}") from None
    rng = Rng.from_seed(replay.seed)
    state = engine.new_state(replay.players, options, rng)
    last_version = -1
    for number, entry in enumerate(replay.actions, start=1):
        where = f"action {number} (version {entry.version}, seat {entry.seat})"
        if entry.version <= last_version:
            raise Differs(f"{where}: versions must rise, and the one before was {last_version}")
        last_version = entry.version
        if engine.outcome(state) is not None:
            raise Differs(f"{where}: the match was already over after action {number - 1}")
        which = entry.action.WhichOneof("game")
        if which != replay.game:
            raise Differs(f"{where}: not a {replay.game} action")
        action = wire.to_plain(getattr(entry.action, which))
        try:
            engine.play(state, entry.seat, action, rng)
        except RulesError as exc:
            raise Differs(f"{where}: {json.dumps(action)} is not legal there ({exc.reason}: {exc.message})") \
                from None
    outcome = engine.outcome(state)
    if outcome is None:
        raise Differs(f"after the last action ({len(replay.actions)}) the match is not over")
    recorded = (list(replay.result.scores), list(replay.result.winners))
    if (outcome.scores, outcome.winners) != recorded:
        raise Differs(f"the result differs: re-run, scores {outcome.scores} and winners {outcome.winners}; "
                      f"the record says scores {recorded[0]} and winners {recorded[1]}")
    return (f"OK: match {replay.match_id or '(no id)'} ({replay.game}, rules version {replay.rules_version}, "
            f"{replay.players} players): the seed is the one published, all {len(replay.actions)} actions "
            f"are legal, and the result (scores {outcome.scores}, winners {outcome.winners}) comes out again")


def _api_error(exc: urllib.error.HTTPError) -> str:
    try:
        return json.loads(exc.read())["error"]["message"]
    except (ValueError, KeyError, TypeError, OSError):
        return exc.reason or "an error"
