from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HiFuOptions(_message.Message):
    __slots__ = ("board", "first_seat")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    board: str
    first_seat: int
    def __init__(self, board: _Optional[str] = ..., first_seat: _Optional[int] = ...) -> None: ...

class HiFuCard(_message.Message):
    __slots__ = ("colour", "number")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    colour: str
    number: int
    def __init__(self, colour: _Optional[str] = ..., number: _Optional[int] = ...) -> None: ...

class HiFuPlayedCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: HiFuCard
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HiFuCard, _Mapping]] = ...) -> None: ...

class HiFuAction(_message.Message):
    __slots__ = ("discard", "play")
    class Discard(_message.Message):
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: _containers.RepeatedCompositeFieldContainer[HiFuCard]
        def __init__(self, cards: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ...) -> None: ...
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    discard: HiFuAction.Discard
    play: HiFuCard
    def __init__(self, discard: _Optional[_Union[HiFuAction.Discard, _Mapping]] = ..., play: _Optional[_Union[HiFuCard, _Mapping]] = ...) -> None: ...

class HiFuView(_message.Message):
    __slots__ = ("options", "round", "rounds", "phase", "tricks_played", "leader", "turn", "lead_colour", "trick", "last_trick", "hand", "removed", "put_away", "seats", "board")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TRICKS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    LEAD_COLOUR_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LAST_TRICK_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    PUT_AWAY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    options: HiFuOptions
    round: int
    rounds: int
    phase: str
    tricks_played: int
    leader: int
    turn: int
    lead_colour: str
    trick: _containers.RepeatedCompositeFieldContainer[HiFuPlayedCard]
    last_trick: HiFuTrick
    hand: _containers.RepeatedCompositeFieldContainer[HiFuCard]
    removed: _containers.RepeatedCompositeFieldContainer[HiFuCard]
    put_away: _containers.RepeatedCompositeFieldContainer[HiFuCard]
    seats: _containers.RepeatedCompositeFieldContainer[HiFuSeat]
    board: _containers.RepeatedCompositeFieldContainer[HiFuBoardRound]
    def __init__(self, options: _Optional[_Union[HiFuOptions, _Mapping]] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., phase: _Optional[str] = ..., tricks_played: _Optional[int] = ..., leader: _Optional[int] = ..., turn: _Optional[int] = ..., lead_colour: _Optional[str] = ..., trick: _Optional[_Iterable[_Union[HiFuPlayedCard, _Mapping]]] = ..., last_trick: _Optional[_Union[HiFuTrick, _Mapping]] = ..., hand: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ..., removed: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ..., put_away: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[HiFuSeat, _Mapping]]] = ..., board: _Optional[_Iterable[_Union[HiFuBoardRound, _Mapping]]] = ...) -> None: ...

class HiFuSeat(_message.Message):
    __slots__ = ("seat", "hand_size", "to_remove", "committed", "tricks", "out", "score", "place")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    TO_REMOVE_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    to_remove: int
    committed: bool
    tricks: int
    out: bool
    score: int
    place: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., to_remove: _Optional[int] = ..., committed: _Optional[bool] = ..., tricks: _Optional[int] = ..., out: _Optional[bool] = ..., score: _Optional[int] = ..., place: _Optional[int] = ...) -> None: ...

class HiFuTrick(_message.Message):
    __slots__ = ("number", "lead_colour", "cards", "winner")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LEAD_COLOUR_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    number: int
    lead_colour: str
    cards: _containers.RepeatedCompositeFieldContainer[HiFuPlayedCard]
    winner: int
    def __init__(self, number: _Optional[int] = ..., lead_colour: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[HiFuPlayedCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class HiFuBoardRound(_message.Message):
    __slots__ = ("round", "values", "pawns")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    PAWNS_FIELD_NUMBER: _ClassVar[int]
    round: int
    values: _containers.RepeatedScalarFieldContainer[int]
    pawns: _containers.RepeatedCompositeFieldContainer[HiFuPawn]
    def __init__(self, round: _Optional[int] = ..., values: _Optional[_Iterable[int]] = ..., pawns: _Optional[_Iterable[_Union[HiFuPawn, _Mapping]]] = ...) -> None: ...

class HiFuPawn(_message.Message):
    __slots__ = ("seat", "place", "standing")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    STANDING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    standing: bool
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., standing: _Optional[bool] = ...) -> None: ...

class HiFuEvent(_message.Message):
    __slots__ = ("round_started", "cards_removed", "play_started", "card_played", "trick_won", "hi_fu", "mii", "round_scored", "game_over")
    class RoundStarted(_message.Message):
        __slots__ = ("round", "leader", "dealt", "keep", "hand")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        LEADER_FIELD_NUMBER: _ClassVar[int]
        DEALT_FIELD_NUMBER: _ClassVar[int]
        KEEP_FIELD_NUMBER: _ClassVar[int]
        HAND_FIELD_NUMBER: _ClassVar[int]
        round: int
        leader: int
        dealt: int
        keep: int
        hand: _containers.RepeatedCompositeFieldContainer[HiFuCard]
        def __init__(self, round: _Optional[int] = ..., leader: _Optional[int] = ..., dealt: _Optional[int] = ..., keep: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ...) -> None: ...
    class CardsRemoved(_message.Message):
        __slots__ = ("seat", "count", "to_remove", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        TO_REMOVE_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        count: int
        to_remove: int
        cards: _containers.RepeatedCompositeFieldContainer[HiFuCard]
        def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., to_remove: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ...) -> None: ...
    class PlayStarted(_message.Message):
        __slots__ = ("round", "leader")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        LEADER_FIELD_NUMBER: _ClassVar[int]
        round: int
        leader: int
        def __init__(self, round: _Optional[int] = ..., leader: _Optional[int] = ...) -> None: ...
    class CardPlayed(_message.Message):
        __slots__ = ("seat", "card", "trick")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        TRICK_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HiFuCard
        trick: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HiFuCard, _Mapping]] = ..., trick: _Optional[int] = ...) -> None: ...
    class TrickWon(_message.Message):
        __slots__ = ("trick", "seat", "lead_colour", "cards", "tricks", "next_leader")
        TRICK_FIELD_NUMBER: _ClassVar[int]
        SEAT_FIELD_NUMBER: _ClassVar[int]
        LEAD_COLOUR_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        TRICKS_FIELD_NUMBER: _ClassVar[int]
        NEXT_LEADER_FIELD_NUMBER: _ClassVar[int]
        trick: int
        seat: int
        lead_colour: str
        cards: _containers.RepeatedCompositeFieldContainer[HiFuPlayedCard]
        tricks: int
        next_leader: int
        def __init__(self, trick: _Optional[int] = ..., seat: _Optional[int] = ..., lead_colour: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[HiFuPlayedCard, _Mapping]]] = ..., tricks: _Optional[int] = ..., next_leader: _Optional[int] = ...) -> None: ...
    class HiFu(_message.Message):
        __slots__ = ("seat", "round", "place", "points")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        ROUND_FIELD_NUMBER: _ClassVar[int]
        PLACE_FIELD_NUMBER: _ClassVar[int]
        POINTS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        round: int
        place: int
        points: int
        def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., place: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...
    class Mii(_message.Message):
        __slots__ = ("seat", "round", "place", "put_away", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        ROUND_FIELD_NUMBER: _ClassVar[int]
        PLACE_FIELD_NUMBER: _ClassVar[int]
        PUT_AWAY_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        round: int
        place: int
        put_away: int
        cards: _containers.RepeatedCompositeFieldContainer[HiFuCard]
        def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., place: _Optional[int] = ..., put_away: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[HiFuCard, _Mapping]]] = ...) -> None: ...
    class RoundScored(_message.Message):
        __slots__ = ("round", "gains", "penalties", "scores")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        GAINS_FIELD_NUMBER: _ClassVar[int]
        PENALTIES_FIELD_NUMBER: _ClassVar[int]
        SCORES_FIELD_NUMBER: _ClassVar[int]
        round: int
        gains: _containers.RepeatedScalarFieldContainer[int]
        penalties: _containers.RepeatedScalarFieldContainer[int]
        scores: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, round: _Optional[int] = ..., gains: _Optional[_Iterable[int]] = ..., penalties: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...
    class GameOver(_message.Message):
        __slots__ = ("reason", "scores", "winners", "tie_break")
        REASON_FIELD_NUMBER: _ClassVar[int]
        SCORES_FIELD_NUMBER: _ClassVar[int]
        WINNERS_FIELD_NUMBER: _ClassVar[int]
        TIE_BREAK_FIELD_NUMBER: _ClassVar[int]
        reason: str
        scores: _containers.RepeatedScalarFieldContainer[int]
        winners: _containers.RepeatedScalarFieldContainer[int]
        tie_break: bool
        def __init__(self, reason: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., tie_break: _Optional[bool] = ...) -> None: ...
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    PLAY_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WON_FIELD_NUMBER: _ClassVar[int]
    HI_FU_FIELD_NUMBER: _ClassVar[int]
    MII_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    round_started: HiFuEvent.RoundStarted
    cards_removed: HiFuEvent.CardsRemoved
    play_started: HiFuEvent.PlayStarted
    card_played: HiFuEvent.CardPlayed
    trick_won: HiFuEvent.TrickWon
    hi_fu: HiFuEvent.HiFu
    mii: HiFuEvent.Mii
    round_scored: HiFuEvent.RoundScored
    game_over: HiFuEvent.GameOver
    def __init__(self, round_started: _Optional[_Union[HiFuEvent.RoundStarted, _Mapping]] = ..., cards_removed: _Optional[_Union[HiFuEvent.CardsRemoved, _Mapping]] = ..., play_started: _Optional[_Union[HiFuEvent.PlayStarted, _Mapping]] = ..., card_played: _Optional[_Union[HiFuEvent.CardPlayed, _Mapping]] = ..., trick_won: _Optional[_Union[HiFuEvent.TrickWon, _Mapping]] = ..., hi_fu: _Optional[_Union[HiFuEvent.HiFu, _Mapping]] = ..., mii: _Optional[_Union[HiFuEvent.Mii, _Mapping]] = ..., round_scored: _Optional[_Union[HiFuEvent.RoundScored, _Mapping]] = ..., game_over: _Optional[_Union[HiFuEvent.GameOver, _Mapping]] = ...) -> None: ...
