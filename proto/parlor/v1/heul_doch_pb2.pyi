from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HeulDochOptions(_message.Message):
    __slots__ = ("special_cards", "first_seat")
    SPECIAL_CARDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    special_cards: bool
    first_seat: int
    def __init__(self, special_cards: _Optional[bool] = ..., first_seat: _Optional[int] = ...) -> None: ...

class HeulDochCard(_message.Message):
    __slots__ = ("colour", "number", "special")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    colour: str
    number: int
    special: str
    def __init__(self, colour: _Optional[str] = ..., number: _Optional[int] = ..., special: _Optional[str] = ...) -> None: ...

class HeulDochPileCard(_message.Message):
    __slots__ = ("onion", "card")
    ONION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    onion: bool
    card: HeulDochCard
    def __init__(self, onion: _Optional[bool] = ..., card: _Optional[_Union[HeulDochCard, _Mapping]] = ...) -> None: ...

class HeulDochAction(_message.Message):
    __slots__ = ("face_up", "onion", "catapult", "beach_towel", "carousel", "werewolf")
    class FaceUp(_message.Message):
        __slots__ = ("card", "pile")
        CARD_FIELD_NUMBER: _ClassVar[int]
        PILE_FIELD_NUMBER: _ClassVar[int]
        card: HeulDochCard
        pile: str
        def __init__(self, card: _Optional[_Union[HeulDochCard, _Mapping]] = ..., pile: _Optional[str] = ...) -> None: ...
    class Onion(_message.Message):
        __slots__ = ("card",)
        CARD_FIELD_NUMBER: _ClassVar[int]
        card: HeulDochCard
        def __init__(self, card: _Optional[_Union[HeulDochCard, _Mapping]] = ...) -> None: ...
    class Catapult(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class BeachTowel(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class Carousel(_message.Message):
        __slots__ = ("direction",)
        DIRECTION_FIELD_NUMBER: _ClassVar[int]
        direction: str
        def __init__(self, direction: _Optional[str] = ...) -> None: ...
    class Werewolf(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    ONION_FIELD_NUMBER: _ClassVar[int]
    CATAPULT_FIELD_NUMBER: _ClassVar[int]
    BEACH_TOWEL_FIELD_NUMBER: _ClassVar[int]
    CAROUSEL_FIELD_NUMBER: _ClassVar[int]
    WEREWOLF_FIELD_NUMBER: _ClassVar[int]
    face_up: HeulDochAction.FaceUp
    onion: HeulDochAction.Onion
    catapult: HeulDochAction.Catapult
    beach_towel: HeulDochAction.BeachTowel
    carousel: HeulDochAction.Carousel
    werewolf: HeulDochAction.Werewolf
    def __init__(self, face_up: _Optional[_Union[HeulDochAction.FaceUp, _Mapping]] = ..., onion: _Optional[_Union[HeulDochAction.Onion, _Mapping]] = ..., catapult: _Optional[_Union[HeulDochAction.Catapult, _Mapping]] = ..., beach_towel: _Optional[_Union[HeulDochAction.BeachTowel, _Mapping]] = ..., carousel: _Optional[_Union[HeulDochAction.Carousel, _Mapping]] = ..., werewolf: _Optional[_Union[HeulDochAction.Werewolf, _Mapping]] = ...) -> None: ...

class HeulDochView(_message.Message):
    __slots__ = ("options", "hand", "seats", "draw_pile", "special_pile", "turn", "finished")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_PILE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    options: HeulDochOptions
    hand: _containers.RepeatedCompositeFieldContainer[HeulDochCard]
    seats: _containers.RepeatedCompositeFieldContainer[HeulDochSeat]
    draw_pile: int
    special_pile: _containers.RepeatedCompositeFieldContainer[HeulDochCard]
    turn: int
    finished: bool
    def __init__(self, options: _Optional[_Union[HeulDochOptions, _Mapping]] = ..., hand: _Optional[_Iterable[_Union[HeulDochCard, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[HeulDochSeat, _Mapping]]] = ..., draw_pile: _Optional[int] = ..., special_pile: _Optional[_Iterable[_Union[HeulDochCard, _Mapping]]] = ..., turn: _Optional[int] = ..., finished: _Optional[bool] = ...) -> None: ...

class HeulDochSeat(_message.Message):
    __slots__ = ("seat", "hand_size", "pile_height", "onions", "top", "pile", "score", "devalued", "lost")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    PILE_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    ONIONS_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    DEVALUED_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    pile_height: int
    onions: int
    top: HeulDochPileCard
    pile: _containers.RepeatedCompositeFieldContainer[HeulDochPileCard]
    score: int
    devalued: _containers.RepeatedScalarFieldContainer[int]
    lost: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., pile_height: _Optional[int] = ..., onions: _Optional[int] = ..., top: _Optional[_Union[HeulDochPileCard, _Mapping]] = ..., pile: _Optional[_Iterable[_Union[HeulDochPileCard, _Mapping]]] = ..., score: _Optional[int] = ..., devalued: _Optional[_Iterable[int]] = ..., lost: _Optional[int] = ...) -> None: ...

class HeulDochTop(_message.Message):
    __slots__ = ("seat", "top")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    top: HeulDochPileCard
    def __init__(self, seat: _Optional[int] = ..., top: _Optional[_Union[HeulDochPileCard, _Mapping]] = ...) -> None: ...

class HeulDochSeatCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: HeulDochCard
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeulDochCard, _Mapping]] = ...) -> None: ...

class HeulDochResult(_message.Message):
    __slots__ = ("seat", "score", "lost", "onions", "devalued", "pile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    ONIONS_FIELD_NUMBER: _ClassVar[int]
    DEVALUED_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    score: int
    lost: int
    onions: int
    devalued: _containers.RepeatedScalarFieldContainer[int]
    pile: _containers.RepeatedCompositeFieldContainer[HeulDochPileCard]
    def __init__(self, seat: _Optional[int] = ..., score: _Optional[int] = ..., lost: _Optional[int] = ..., onions: _Optional[int] = ..., devalued: _Optional[_Iterable[int]] = ..., pile: _Optional[_Iterable[_Union[HeulDochPileCard, _Mapping]]] = ...) -> None: ...

class HeulDochEvent(_message.Message):
    __slots__ = ("dealt", "card_played", "onion_laid", "special_played", "cards_drawn", "game_over")
    class Dealt(_message.Message):
        __slots__ = ("tops", "first_seat", "draw_pile", "hand")
        TOPS_FIELD_NUMBER: _ClassVar[int]
        FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
        DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
        HAND_FIELD_NUMBER: _ClassVar[int]
        tops: _containers.RepeatedCompositeFieldContainer[HeulDochTop]
        first_seat: int
        draw_pile: int
        hand: _containers.RepeatedCompositeFieldContainer[HeulDochCard]
        def __init__(self, tops: _Optional[_Iterable[_Union[HeulDochTop, _Mapping]]] = ..., first_seat: _Optional[int] = ..., draw_pile: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[HeulDochCard, _Mapping]]] = ...) -> None: ...
    class CardPlayed(_message.Message):
        __slots__ = ("seat", "card", "onto")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        ONTO_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HeulDochCard
        onto: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeulDochCard, _Mapping]] = ..., onto: _Optional[int] = ...) -> None: ...
    class OnionLaid(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class SpecialPlayed(_message.Message):
        __slots__ = ("seat", "special", "target", "direction", "discarded", "tops")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SPECIAL_FIELD_NUMBER: _ClassVar[int]
        TARGET_FIELD_NUMBER: _ClassVar[int]
        DIRECTION_FIELD_NUMBER: _ClassVar[int]
        DISCARDED_FIELD_NUMBER: _ClassVar[int]
        TOPS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        special: str
        target: int
        direction: str
        discarded: _containers.RepeatedCompositeFieldContainer[HeulDochSeatCard]
        tops: _containers.RepeatedCompositeFieldContainer[HeulDochTop]
        def __init__(self, seat: _Optional[int] = ..., special: _Optional[str] = ..., target: _Optional[int] = ..., direction: _Optional[str] = ..., discarded: _Optional[_Iterable[_Union[HeulDochSeatCard, _Mapping]]] = ..., tops: _Optional[_Iterable[_Union[HeulDochTop, _Mapping]]] = ...) -> None: ...
    class CardsDrawn(_message.Message):
        __slots__ = ("seat", "count", "draw_pile", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        count: int
        draw_pile: int
        cards: _containers.RepeatedCompositeFieldContainer[HeulDochCard]
        def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., draw_pile: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[HeulDochCard, _Mapping]]] = ...) -> None: ...
    class GameOver(_message.Message):
        __slots__ = ("results", "winners")
        RESULTS_FIELD_NUMBER: _ClassVar[int]
        WINNERS_FIELD_NUMBER: _ClassVar[int]
        results: _containers.RepeatedCompositeFieldContainer[HeulDochResult]
        winners: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, results: _Optional[_Iterable[_Union[HeulDochResult, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...
    DEALT_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    ONION_LAID_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    dealt: HeulDochEvent.Dealt
    card_played: HeulDochEvent.CardPlayed
    onion_laid: HeulDochEvent.OnionLaid
    special_played: HeulDochEvent.SpecialPlayed
    cards_drawn: HeulDochEvent.CardsDrawn
    game_over: HeulDochEvent.GameOver
    def __init__(self, dealt: _Optional[_Union[HeulDochEvent.Dealt, _Mapping]] = ..., card_played: _Optional[_Union[HeulDochEvent.CardPlayed, _Mapping]] = ..., onion_laid: _Optional[_Union[HeulDochEvent.OnionLaid, _Mapping]] = ..., special_played: _Optional[_Union[HeulDochEvent.SpecialPlayed, _Mapping]] = ..., cards_drawn: _Optional[_Union[HeulDochEvent.CardsDrawn, _Mapping]] = ..., game_over: _Optional[_Union[HeulDochEvent.GameOver, _Mapping]] = ...) -> None: ...
