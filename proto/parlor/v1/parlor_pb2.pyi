import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from parlor.v1 import heck_pb2 as _heck_pb2
from parlor.v1 import heul_doch_pb2 as _heul_doch_pb2
from parlor.v1 import hi_fu_pb2 as _hi_fu_pb2
from parlor.v1 import what_the_heck_pb2 as _what_the_heck_pb2
from parlor.v1 import whatever_pb2 as _whatever_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    WAITING: _ClassVar[MatchStatus]
    ACTIVE: _ClassVar[MatchStatus]
    FINISHED: _ClassVar[MatchStatus]
MATCH_STATUS_UNSPECIFIED: MatchStatus
WAITING: MatchStatus
ACTIVE: MatchStatus
FINISHED: MatchStatus

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("id", "title", "min_players", "max_players", "rules_version", "options", "rules_url")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RULES_URL_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    rules_url: str
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., rules_version: _Optional[str] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., rules_url: _Optional[str] = ...) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "type", "description", "default", "choices", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    description: str
    default: _struct_pb2.Value
    choices: _containers.RepeatedScalarFieldContainer[str]
    minimum: int
    maximum: int
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., description: _Optional[str] = ..., default: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., choices: _Optional[_Iterable[str]] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "players", "seed", "bots", "visibility", "turn_seconds", "on_timeout", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    seed: str
    bots: _containers.RepeatedCompositeFieldContainer[BotSeat]
    visibility: str
    turn_seconds: int
    on_timeout: str
    what_the_heck: _what_the_heck_pb2.WhatTheHeckOptions
    hi_fu: _hi_fu_pb2.HiFuOptions
    heul_doch: _heul_doch_pb2.HeulDochOptions
    whatever: _whatever_pb2.WhateverOptions
    heck: _heck_pb2.HeckOptions
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., seed: _Optional[str] = ..., bots: _Optional[_Iterable[_Union[BotSeat, _Mapping]]] = ..., visibility: _Optional[str] = ..., turn_seconds: _Optional[int] = ..., on_timeout: _Optional[str] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckOptions, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuOptions, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochOptions, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverOptions, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckOptions, _Mapping]] = ...) -> None: ...

class BotSeat(_message.Message):
    __slots__ = ("seat", "level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    level: str
    def __init__(self, seat: _Optional[int] = ..., level: _Optional[str] = ...) -> None: ...

class JoinMatchRequest(_message.Message):
    __slots__ = ("match_id", "name", "seat", "idempotency_key", "bot")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    name: str
    seat: int
    idempotency_key: str
    bot: str
    def __init__(self, match_id: _Optional[str] = ..., name: _Optional[str] = ..., seat: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class JoinMatchResponse(_message.Message):
    __slots__ = ("seat", "token", "match_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    match_id: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ..., match_id: _Optional[str] = ...) -> None: ...

class LeaveMatchRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("game", "status", "limit", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    status: MatchStatus
    limit: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., limit: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ("match_id", "game", "status", "players", "open_seats", "seats", "created_at", "age_seconds", "turn_seconds", "on_timeout", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    AGE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    status: MatchStatus
    players: int
    open_seats: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    created_at: _timestamp_pb2.Timestamp
    age_seconds: int
    turn_seconds: int
    on_timeout: str
    what_the_heck: _what_the_heck_pb2.WhatTheHeckOptions
    hi_fu: _hi_fu_pb2.HiFuOptions
    heul_doch: _heul_doch_pb2.HeulDochOptions
    whatever: _whatever_pb2.WhateverOptions
    heck: _heck_pb2.HeckOptions
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., players: _Optional[int] = ..., open_seats: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., age_seconds: _Optional[int] = ..., turn_seconds: _Optional[int] = ..., on_timeout: _Optional[str] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckOptions, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuOptions, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochOptions, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverOptions, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckOptions, _Mapping]] = ...) -> None: ...

class QuickMatchRequest(_message.Message):
    __slots__ = ("game", "players", "name", "fill_with_bots_after", "idempotency_key", "turn_seconds", "on_timeout", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    FILL_WITH_BOTS_AFTER_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    name: str
    fill_with_bots_after: int
    idempotency_key: str
    turn_seconds: int
    on_timeout: str
    what_the_heck: _what_the_heck_pb2.WhatTheHeckOptions
    hi_fu: _hi_fu_pb2.HiFuOptions
    heul_doch: _heul_doch_pb2.HeulDochOptions
    whatever: _whatever_pb2.WhateverOptions
    heck: _heck_pb2.HeckOptions
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., name: _Optional[str] = ..., fill_with_bots_after: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., turn_seconds: _Optional[int] = ..., on_timeout: _Optional[str] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckOptions, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuOptions, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochOptions, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverOptions, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckOptions, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class Replay(_message.Message):
    __slots__ = ("match_id", "game", "rules_version", "players", "seats", "seed", "seed_sha256", "actions", "result", "version", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_SHA256_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    rules_version: str
    players: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    seed: str
    seed_sha256: str
    actions: _containers.RepeatedCompositeFieldContainer[ReplayAction]
    result: Result
    version: int
    what_the_heck: _what_the_heck_pb2.WhatTheHeckOptions
    hi_fu: _hi_fu_pb2.HiFuOptions
    heul_doch: _heul_doch_pb2.HeulDochOptions
    whatever: _whatever_pb2.WhateverOptions
    heck: _heck_pb2.HeckOptions
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., players: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., seed: _Optional[str] = ..., seed_sha256: _Optional[str] = ..., actions: _Optional[_Iterable[_Union[ReplayAction, _Mapping]]] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., version: _Optional[int] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckOptions, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuOptions, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochOptions, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverOptions, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckOptions, _Mapping]] = ...) -> None: ...

class ReplayAction(_message.Message):
    __slots__ = ("seat", "action", "version")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: Action
    version: int
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., version: _Optional[int] = ...) -> None: ...

class GetRulesRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class Rules(_message.Message):
    __slots__ = ("game", "markdown")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MARKDOWN_FIELD_NUMBER: _ClassVar[int]
    game: str
    markdown: str
    def __init__(self, game: _Optional[str] = ..., markdown: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("actions", "version")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[Action]
    version: int
    def __init__(self, actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., version: _Optional[int] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("match_id", "action", "expected_version", "idempotency_key", "seat", "reply")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    action: Action
    expected_version: int
    idempotency_key: str
    seat: int
    reply: str
    def __init__(self, match_id: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., expected_version: _Optional[int] = ..., idempotency_key: _Optional[str] = ..., seat: _Optional[int] = ..., reply: _Optional[str] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("match", "events")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    match: Match
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class ListEventsRequest(_message.Message):
    __slots__ = ("match_id", "after", "limit")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    after: int
    limit: int
    def __init__(self, match_id: _Optional[str] = ..., after: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListEventsResponse(_message.Message):
    __slots__ = ("events", "last_event")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LAST_EVENT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    last_event: int
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., last_event: _Optional[int] = ...) -> None: ...

class WatchEventsRequest(_message.Message):
    __slots__ = ("match_id", "after")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    after: int
    def __init__(self, match_id: _Optional[str] = ..., after: _Optional[int] = ...) -> None: ...

class WatchEventsResponse(_message.Message):
    __slots__ = ("events", "end")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    end: bool
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., end: _Optional[bool] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("match_id", "game", "rules_version", "version", "status", "seats", "seed_sha256", "seed", "result", "viewer_seat", "awaiting", "deadlines", "turn_seconds", "on_timeout", "visibility", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_SHA256_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    DEADLINES_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    rules_version: str
    version: int
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    seed_sha256: str
    seed: str
    result: Result
    viewer_seat: int
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    deadlines: _containers.RepeatedCompositeFieldContainer[Deadline]
    turn_seconds: int
    on_timeout: str
    visibility: str
    what_the_heck: _what_the_heck_pb2.WhatTheHeckView
    hi_fu: _hi_fu_pb2.HiFuView
    heul_doch: _heul_doch_pb2.HeulDochView
    whatever: _whatever_pb2.WhateverView
    heck: _heck_pb2.HeckView
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., version: _Optional[int] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., seed_sha256: _Optional[str] = ..., seed: _Optional[str] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., viewer_seat: _Optional[int] = ..., awaiting: _Optional[_Iterable[int]] = ..., deadlines: _Optional[_Iterable[_Union[Deadline, _Mapping]]] = ..., turn_seconds: _Optional[int] = ..., on_timeout: _Optional[str] = ..., visibility: _Optional[str] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckView, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuView, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochView, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverView, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckView, _Mapping]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("seat", "name", "joined", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    JOINED_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    joined: bool
    bot: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., joined: _Optional[bool] = ..., bot: _Optional[str] = ...) -> None: ...

class Deadline(_message.Message):
    __slots__ = ("seat", "at")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    at: _timestamp_pb2.Timestamp
    def __init__(self, seat: _Optional[int] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("scores", "winners")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    what_the_heck: _what_the_heck_pb2.WhatTheHeckAction
    hi_fu: _hi_fu_pb2.HiFuAction
    heul_doch: _heul_doch_pb2.HeulDochAction
    whatever: _whatever_pb2.WhateverAction
    heck: _heck_pb2.HeckAction
    def __init__(self, what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckAction, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuAction, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochAction, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverAction, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckAction, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("number", "version", "seat_joined", "match_started", "match_finished", "seat_left", "turn_timed_out", "what_the_heck", "hi_fu", "heul_doch", "whatever", "heck")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_JOINED_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_FINISHED_FIELD_NUMBER: _ClassVar[int]
    SEAT_LEFT_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    WHAT_THE_HECK_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    HEUL_DOCH_FIELD_NUMBER: _ClassVar[int]
    WHATEVER_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    number: int
    version: int
    seat_joined: SeatJoined
    match_started: MatchStarted
    match_finished: MatchFinished
    seat_left: SeatLeft
    turn_timed_out: TurnTimedOut
    what_the_heck: _what_the_heck_pb2.WhatTheHeckEvent
    hi_fu: _hi_fu_pb2.HiFuEvent
    heul_doch: _heul_doch_pb2.HeulDochEvent
    whatever: _whatever_pb2.WhateverEvent
    heck: _heck_pb2.HeckEvent
    def __init__(self, number: _Optional[int] = ..., version: _Optional[int] = ..., seat_joined: _Optional[_Union[SeatJoined, _Mapping]] = ..., match_started: _Optional[_Union[MatchStarted, _Mapping]] = ..., match_finished: _Optional[_Union[MatchFinished, _Mapping]] = ..., seat_left: _Optional[_Union[SeatLeft, _Mapping]] = ..., turn_timed_out: _Optional[_Union[TurnTimedOut, _Mapping]] = ..., what_the_heck: _Optional[_Union[_what_the_heck_pb2.WhatTheHeckEvent, _Mapping]] = ..., hi_fu: _Optional[_Union[_hi_fu_pb2.HiFuEvent, _Mapping]] = ..., heul_doch: _Optional[_Union[_heul_doch_pb2.HeulDochEvent, _Mapping]] = ..., whatever: _Optional[_Union[_whatever_pb2.WhateverEvent, _Mapping]] = ..., heck: _Optional[_Union[_heck_pb2.HeckEvent, _Mapping]] = ...) -> None: ...

class SeatJoined(_message.Message):
    __slots__ = ("seat", "name", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    bot: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class SeatLeft(_message.Message):
    __slots__ = ("seat", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class TurnTimedOut(_message.Message):
    __slots__ = ("seat", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MatchFinished(_message.Message):
    __slots__ = ("result", "seed")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    result: Result
    seed: str
    def __init__(self, result: _Optional[_Union[Result, _Mapping]] = ..., seed: _Optional[str] = ...) -> None: ...
