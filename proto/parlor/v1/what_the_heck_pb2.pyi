from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WhatTheHeckOptions(_message.Message):
    __slots__ = ("hidden_winnings",)
    HIDDEN_WINNINGS_FIELD_NUMBER: _ClassVar[int]
    hidden_winnings: bool
    def __init__(self, hidden_winnings: _Optional[bool] = ...) -> None: ...

class WhatTheHeckAction(_message.Message):
    __slots__ = ("bid",)
    BID_FIELD_NUMBER: _ClassVar[int]
    bid: int
    def __init__(self, bid: _Optional[int] = ...) -> None: ...

class WhatTheHeckView(_message.Message):
    __slots__ = ("options", "round", "rounds", "pot", "pot_value", "prizes_left", "hand", "seats", "history", "discarded")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    POT_VALUE_FIELD_NUMBER: _ClassVar[int]
    PRIZES_LEFT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    options: WhatTheHeckOptions
    round: int
    rounds: int
    pot: _containers.RepeatedScalarFieldContainer[int]
    pot_value: int
    prizes_left: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[WhatTheHeckSeat]
    history: _containers.RepeatedCompositeFieldContainer[WhatTheHeckRound]
    discarded: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, options: _Optional[_Union[WhatTheHeckOptions, _Mapping]] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., pot: _Optional[_Iterable[int]] = ..., pot_value: _Optional[int] = ..., prizes_left: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[WhatTheHeckSeat, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[WhatTheHeckRound, _Mapping]]] = ..., discarded: _Optional[_Iterable[int]] = ...) -> None: ...

class WhatTheHeckSeat(_message.Message):
    __slots__ = ("seat", "hand_size", "played", "committed", "won", "cards_won", "score", "bid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    CARDS_WON_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    played: _containers.RepeatedScalarFieldContainer[int]
    committed: bool
    won: _containers.RepeatedScalarFieldContainer[int]
    cards_won: int
    score: int
    bid: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., played: _Optional[_Iterable[int]] = ..., committed: _Optional[bool] = ..., won: _Optional[_Iterable[int]] = ..., cards_won: _Optional[int] = ..., score: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class WhatTheHeckRound(_message.Message):
    __slots__ = ("round", "pot", "bids", "winner")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    round: int
    pot: _containers.RepeatedScalarFieldContainer[int]
    bids: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    def __init__(self, round: _Optional[int] = ..., pot: _Optional[_Iterable[int]] = ..., bids: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...

class WhatTheHeckEvent(_message.Message):
    __slots__ = ("round_started", "bid_committed", "bids_revealed")
    class RoundStarted(_message.Message):
        __slots__ = ("round", "turned", "pot")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        TURNED_FIELD_NUMBER: _ClassVar[int]
        POT_FIELD_NUMBER: _ClassVar[int]
        round: int
        turned: int
        pot: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, round: _Optional[int] = ..., turned: _Optional[int] = ..., pot: _Optional[_Iterable[int]] = ...) -> None: ...
    class BidCommitted(_message.Message):
        __slots__ = ("seat", "bid")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        BID_FIELD_NUMBER: _ClassVar[int]
        seat: int
        bid: int
        def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...
    class BidsRevealed(_message.Message):
        __slots__ = ("round", "bids", "pot", "cancelled", "winner", "carried_over", "discarded")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        BIDS_FIELD_NUMBER: _ClassVar[int]
        POT_FIELD_NUMBER: _ClassVar[int]
        CANCELLED_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        CARRIED_OVER_FIELD_NUMBER: _ClassVar[int]
        DISCARDED_FIELD_NUMBER: _ClassVar[int]
        round: int
        bids: _containers.RepeatedScalarFieldContainer[int]
        pot: _containers.RepeatedScalarFieldContainer[int]
        cancelled: _containers.RepeatedScalarFieldContainer[int]
        winner: int
        carried_over: bool
        discarded: bool
        def __init__(self, round: _Optional[int] = ..., bids: _Optional[_Iterable[int]] = ..., pot: _Optional[_Iterable[int]] = ..., cancelled: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., carried_over: _Optional[bool] = ..., discarded: _Optional[bool] = ...) -> None: ...
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    BID_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    BIDS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    round_started: WhatTheHeckEvent.RoundStarted
    bid_committed: WhatTheHeckEvent.BidCommitted
    bids_revealed: WhatTheHeckEvent.BidsRevealed
    def __init__(self, round_started: _Optional[_Union[WhatTheHeckEvent.RoundStarted, _Mapping]] = ..., bid_committed: _Optional[_Union[WhatTheHeckEvent.BidCommitted, _Mapping]] = ..., bids_revealed: _Optional[_Union[WhatTheHeckEvent.BidsRevealed, _Mapping]] = ...) -> None: ...
