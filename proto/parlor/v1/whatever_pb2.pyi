from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WhateverOptions(_message.Message):
    __slots__ = ("first_seat",)
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    first_seat: int
    def __init__(self, first_seat: _Optional[int] = ...) -> None: ...

class WhateverAction(_message.Message):
    __slots__ = ("bid", "exchange", "skip")
    class Bid(_message.Message):
        __slots__ = ("amount",)
        AMOUNT_FIELD_NUMBER: _ClassVar[int]
        amount: int
        def __init__(self, amount: _Optional[int] = ...) -> None: ...
    class Pass(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Exchange(_message.Message):
        __slots__ = ("position",)
        POSITION_FIELD_NUMBER: _ClassVar[int]
        position: int
        def __init__(self, position: _Optional[int] = ...) -> None: ...
    class Skip(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    BID_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    bid: WhateverAction.Bid
    exchange: WhateverAction.Exchange
    skip: WhateverAction.Skip
    def __init__(self, bid: _Optional[_Union[WhateverAction.Bid, _Mapping]] = ..., exchange: _Optional[_Union[WhateverAction.Exchange, _Mapping]] = ..., skip: _Optional[_Union[WhateverAction.Skip, _Mapping]] = ..., **kwargs) -> None: ...

class WhateverCard(_message.Message):
    __slots__ = ("kind", "value", "is_copy", "pending")
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    IS_COPY_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    kind: str
    value: int
    is_copy: bool
    pending: bool
    def __init__(self, kind: _Optional[str] = ..., value: _Optional[int] = ..., is_copy: _Optional[bool] = ..., pending: _Optional[bool] = ...) -> None: ...

class WhateverSeat(_message.Message):
    __slots__ = ("seat", "tokens", "bid", "passed", "row", "total", "whatevers")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    WHATEVERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tokens: int
    bid: int
    passed: bool
    row: _containers.RepeatedCompositeFieldContainer[WhateverCard]
    total: int
    whatevers: int
    def __init__(self, seat: _Optional[int] = ..., tokens: _Optional[int] = ..., bid: _Optional[int] = ..., passed: _Optional[bool] = ..., row: _Optional[_Iterable[_Union[WhateverCard, _Mapping]]] = ..., total: _Optional[int] = ..., whatevers: _Optional[int] = ...) -> None: ...

class WhateverView(_message.Message):
    __slots__ = ("options", "turn", "auctioneer", "phase", "deck_size", "drawn_card", "bidder", "high_bid", "high_bidder", "middle", "seats", "discarded", "winners", "end_reason")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    AUCTIONEER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DRAWN_CARD_FIELD_NUMBER: _ClassVar[int]
    BIDDER_FIELD_NUMBER: _ClassVar[int]
    HIGH_BID_FIELD_NUMBER: _ClassVar[int]
    HIGH_BIDDER_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    options: WhateverOptions
    turn: int
    auctioneer: int
    phase: str
    deck_size: int
    drawn_card: WhateverCard
    bidder: int
    high_bid: int
    high_bidder: int
    middle: int
    seats: _containers.RepeatedCompositeFieldContainer[WhateverSeat]
    discarded: _containers.RepeatedCompositeFieldContainer[WhateverCard]
    winners: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, options: _Optional[_Union[WhateverOptions, _Mapping]] = ..., turn: _Optional[int] = ..., auctioneer: _Optional[int] = ..., phase: _Optional[str] = ..., deck_size: _Optional[int] = ..., drawn_card: _Optional[_Union[WhateverCard, _Mapping]] = ..., bidder: _Optional[int] = ..., high_bid: _Optional[int] = ..., high_bidder: _Optional[int] = ..., middle: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[WhateverSeat, _Mapping]]] = ..., discarded: _Optional[_Iterable[_Union[WhateverCard, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class WhateverRowEffect(_message.Message):
    __slots__ = ("kind", "position", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    position: int
    cards: _containers.RepeatedCompositeFieldContainer[WhateverCard]
    def __init__(self, kind: _Optional[str] = ..., position: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[WhateverCard, _Mapping]]] = ...) -> None: ...

class WhateverEvent(_message.Message):
    __slots__ = ("card_drawn", "bid_made", "passed", "card_won", "row_changed", "exchanged", "exchange_skipped", "tokens_redistributed", "game_ended")
    class CardDrawn(_message.Message):
        __slots__ = ("turn", "auctioneer", "deck_size", "card")
        TURN_FIELD_NUMBER: _ClassVar[int]
        AUCTIONEER_FIELD_NUMBER: _ClassVar[int]
        DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        turn: int
        auctioneer: int
        deck_size: int
        card: WhateverCard
        def __init__(self, turn: _Optional[int] = ..., auctioneer: _Optional[int] = ..., deck_size: _Optional[int] = ..., card: _Optional[_Union[WhateverCard, _Mapping]] = ...) -> None: ...
    class BidMade(_message.Message):
        __slots__ = ("seat", "amount", "tokens")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        AMOUNT_FIELD_NUMBER: _ClassVar[int]
        TOKENS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        amount: int
        tokens: int
        def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., tokens: _Optional[int] = ...) -> None: ...
    class Passed(_message.Message):
        __slots__ = ("seat", "returned")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        RETURNED_FIELD_NUMBER: _ClassVar[int]
        seat: int
        returned: int
        def __init__(self, seat: _Optional[int] = ..., returned: _Optional[int] = ...) -> None: ...
    class CardWon(_message.Message):
        __slots__ = ("seat", "card", "price", "free", "paid_to", "to_middle")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        PRICE_FIELD_NUMBER: _ClassVar[int]
        FREE_FIELD_NUMBER: _ClassVar[int]
        PAID_TO_FIELD_NUMBER: _ClassVar[int]
        TO_MIDDLE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: WhateverCard
        price: int
        free: bool
        paid_to: int
        to_middle: bool
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[WhateverCard, _Mapping]] = ..., price: _Optional[int] = ..., free: _Optional[bool] = ..., paid_to: _Optional[int] = ..., to_middle: _Optional[bool] = ...) -> None: ...
    class RowChanged(_message.Message):
        __slots__ = ("seat", "effects", "row", "total", "whatevers")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        EFFECTS_FIELD_NUMBER: _ClassVar[int]
        ROW_FIELD_NUMBER: _ClassVar[int]
        TOTAL_FIELD_NUMBER: _ClassVar[int]
        WHATEVERS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        effects: _containers.RepeatedCompositeFieldContainer[WhateverRowEffect]
        row: _containers.RepeatedCompositeFieldContainer[WhateverCard]
        total: int
        whatevers: int
        def __init__(self, seat: _Optional[int] = ..., effects: _Optional[_Iterable[_Union[WhateverRowEffect, _Mapping]]] = ..., row: _Optional[_Iterable[_Union[WhateverCard, _Mapping]]] = ..., total: _Optional[int] = ..., whatevers: _Optional[int] = ...) -> None: ...
    class Exchanged(_message.Message):
        __slots__ = ("seat", "position", "card", "tokens")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        POSITION_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        TOKENS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        position: int
        card: WhateverCard
        tokens: int
        def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ..., card: _Optional[_Union[WhateverCard, _Mapping]] = ..., tokens: _Optional[int] = ...) -> None: ...
    class ExchangeSkipped(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class TokensRedistributed(_message.Message):
        __slots__ = ("each", "middle")
        EACH_FIELD_NUMBER: _ClassVar[int]
        MIDDLE_FIELD_NUMBER: _ClassVar[int]
        each: int
        middle: int
        def __init__(self, each: _Optional[int] = ..., middle: _Optional[int] = ...) -> None: ...
    class GameEnded(_message.Message):
        __slots__ = ("reason", "winners", "totals")
        REASON_FIELD_NUMBER: _ClassVar[int]
        WINNERS_FIELD_NUMBER: _ClassVar[int]
        TOTALS_FIELD_NUMBER: _ClassVar[int]
        reason: str
        winners: _containers.RepeatedScalarFieldContainer[int]
        totals: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, reason: _Optional[str] = ..., winners: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    BID_MADE_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    CARD_WON_FIELD_NUMBER: _ClassVar[int]
    ROW_CHANGED_FIELD_NUMBER: _ClassVar[int]
    EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_SKIPPED_FIELD_NUMBER: _ClassVar[int]
    TOKENS_REDISTRIBUTED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    card_drawn: WhateverEvent.CardDrawn
    bid_made: WhateverEvent.BidMade
    passed: WhateverEvent.Passed
    card_won: WhateverEvent.CardWon
    row_changed: WhateverEvent.RowChanged
    exchanged: WhateverEvent.Exchanged
    exchange_skipped: WhateverEvent.ExchangeSkipped
    tokens_redistributed: WhateverEvent.TokensRedistributed
    game_ended: WhateverEvent.GameEnded
    def __init__(self, card_drawn: _Optional[_Union[WhateverEvent.CardDrawn, _Mapping]] = ..., bid_made: _Optional[_Union[WhateverEvent.BidMade, _Mapping]] = ..., passed: _Optional[_Union[WhateverEvent.Passed, _Mapping]] = ..., card_won: _Optional[_Union[WhateverEvent.CardWon, _Mapping]] = ..., row_changed: _Optional[_Union[WhateverEvent.RowChanged, _Mapping]] = ..., exchanged: _Optional[_Union[WhateverEvent.Exchanged, _Mapping]] = ..., exchange_skipped: _Optional[_Union[WhateverEvent.ExchangeSkipped, _Mapping]] = ..., tokens_redistributed: _Optional[_Union[WhateverEvent.TokensRedistributed, _Mapping]] = ..., game_ended: _Optional[_Union[WhateverEvent.GameEnded, _Mapping]] = ...) -> None: ...
