from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HeckOptions(_message.Message):
    __slots__ = ("long_game", "max_rounds", "first_seat")
    LONG_GAME_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    long_game: bool
    max_rounds: int
    first_seat: int
    def __init__(self, long_game: _Optional[bool] = ..., max_rounds: _Optional[int] = ..., first_seat: _Optional[int] = ...) -> None: ...

class HeckAction(_message.Message):
    __slots__ = ("safe", "hiss", "slither", "chomp", "heck")
    SAFE_FIELD_NUMBER: _ClassVar[int]
    HISS_FIELD_NUMBER: _ClassVar[int]
    SLITHER_FIELD_NUMBER: _ClassVar[int]
    CHOMP_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    safe: bool
    hiss: int
    slither: int
    chomp: int
    heck: int
    def __init__(self, safe: _Optional[bool] = ..., hiss: _Optional[int] = ..., slither: _Optional[int] = ..., chomp: _Optional[int] = ..., heck: _Optional[int] = ...) -> None: ...

class HeckSnake(_message.Message):
    __slots__ = ("hiss", "slither", "chomp")
    HISS_FIELD_NUMBER: _ClassVar[int]
    SLITHER_FIELD_NUMBER: _ClassVar[int]
    CHOMP_FIELD_NUMBER: _ClassVar[int]
    hiss: int
    slither: int
    chomp: int
    def __init__(self, hiss: _Optional[int] = ..., slither: _Optional[int] = ..., chomp: _Optional[int] = ...) -> None: ...

class HeckBet(_message.Message):
    __slots__ = ("safe", "hiss", "slither", "chomp", "heck")
    SAFE_FIELD_NUMBER: _ClassVar[int]
    HISS_FIELD_NUMBER: _ClassVar[int]
    SLITHER_FIELD_NUMBER: _ClassVar[int]
    CHOMP_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    safe: bool
    hiss: int
    slither: int
    chomp: int
    heck: int
    def __init__(self, safe: _Optional[bool] = ..., hiss: _Optional[int] = ..., slither: _Optional[int] = ..., chomp: _Optional[int] = ..., heck: _Optional[int] = ...) -> None: ...

class HeckTrait(_message.Message):
    __slots__ = ("trait", "threshold")
    TRAIT_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    trait: str
    threshold: int
    def __init__(self, trait: _Optional[str] = ..., threshold: _Optional[int] = ...) -> None: ...

class HeckCritter(_message.Message):
    __slots__ = ("id", "name", "word", "traits", "heck_only")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WORD_FIELD_NUMBER: _ClassVar[int]
    TRAITS_FIELD_NUMBER: _ClassVar[int]
    HECK_ONLY_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    word: str
    traits: _containers.RepeatedCompositeFieldContainer[HeckTrait]
    heck_only: bool
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., word: _Optional[str] = ..., traits: _Optional[_Iterable[_Union[HeckTrait, _Mapping]]] = ..., heck_only: _Optional[bool] = ...) -> None: ...

class HeckCard(_message.Message):
    __slots__ = ("kind", "word")
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORD_FIELD_NUMBER: _ClassVar[int]
    kind: str
    word: str
    def __init__(self, kind: _Optional[str] = ..., word: _Optional[str] = ...) -> None: ...

class HeckHeldCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: HeckCard
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeckCard, _Mapping]] = ...) -> None: ...

class HeckSlot(_message.Message):
    __slots__ = ("slot", "critter")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CRITTER_FIELD_NUMBER: _ClassVar[int]
    slot: int
    critter: HeckCritter
    def __init__(self, slot: _Optional[int] = ..., critter: _Optional[_Union[HeckCritter, _Mapping]] = ...) -> None: ...

class HeckRevealedBet(_message.Message):
    __slots__ = ("seat", "snake", "safe", "hiss", "slither", "chomp", "heck")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SNAKE_FIELD_NUMBER: _ClassVar[int]
    SAFE_FIELD_NUMBER: _ClassVar[int]
    HISS_FIELD_NUMBER: _ClassVar[int]
    SLITHER_FIELD_NUMBER: _ClassVar[int]
    CHOMP_FIELD_NUMBER: _ClassVar[int]
    HECK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    snake: HeckSnake
    safe: bool
    hiss: int
    slither: int
    chomp: int
    heck: int
    def __init__(self, seat: _Optional[int] = ..., snake: _Optional[_Union[HeckSnake, _Mapping]] = ..., safe: _Optional[bool] = ..., hiss: _Optional[int] = ..., slither: _Optional[int] = ..., chomp: _Optional[int] = ..., heck: _Optional[int] = ...) -> None: ...

class HeckReveal(_message.Message):
    __slots__ = ("round", "bets")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BETS_FIELD_NUMBER: _ClassVar[int]
    round: int
    bets: _containers.RepeatedCompositeFieldContainer[HeckRevealedBet]
    def __init__(self, round: _Optional[int] = ..., bets: _Optional[_Iterable[_Union[HeckRevealedBet, _Mapping]]] = ...) -> None: ...

class HeckSeat(_message.Message):
    __slots__ = ("seat", "eggs", "brown_eggs", "friends", "held", "committed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EGGS_FIELD_NUMBER: _ClassVar[int]
    BROWN_EGGS_FIELD_NUMBER: _ClassVar[int]
    FRIENDS_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eggs: int
    brown_eggs: int
    friends: _containers.RepeatedCompositeFieldContainer[HeckCritter]
    held: _containers.RepeatedCompositeFieldContainer[HeckCard]
    committed: bool
    def __init__(self, seat: _Optional[int] = ..., eggs: _Optional[int] = ..., brown_eggs: _Optional[int] = ..., friends: _Optional[_Iterable[_Union[HeckCritter, _Mapping]]] = ..., held: _Optional[_Iterable[_Union[HeckCard, _Mapping]]] = ..., committed: _Optional[bool] = ...) -> None: ...

class HeckView(_message.Message):
    __slots__ = ("options", "round", "first_player", "finished", "end_reason", "friends_to_win", "clique_to_win", "supply", "supply_brown", "slots", "critter_deck_size", "snake_deck_size", "snake_discard_size", "heck_deck_size", "heck_discard_size", "snake", "bet", "seats", "held", "last_reveal")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    FRIENDS_TO_WIN_FIELD_NUMBER: _ClassVar[int]
    CLIQUE_TO_WIN_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_BROWN_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    CRITTER_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    SNAKE_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    SNAKE_DISCARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    HECK_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    HECK_DISCARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    SNAKE_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    LAST_REVEAL_FIELD_NUMBER: _ClassVar[int]
    options: HeckOptions
    round: int
    first_player: int
    finished: bool
    end_reason: str
    friends_to_win: int
    clique_to_win: int
    supply: int
    supply_brown: int
    slots: _containers.RepeatedCompositeFieldContainer[HeckSlot]
    critter_deck_size: int
    snake_deck_size: int
    snake_discard_size: int
    heck_deck_size: int
    heck_discard_size: int
    snake: HeckSnake
    bet: HeckBet
    seats: _containers.RepeatedCompositeFieldContainer[HeckSeat]
    held: _containers.RepeatedCompositeFieldContainer[HeckHeldCard]
    last_reveal: HeckReveal
    def __init__(self, options: _Optional[_Union[HeckOptions, _Mapping]] = ..., round: _Optional[int] = ..., first_player: _Optional[int] = ..., finished: _Optional[bool] = ..., end_reason: _Optional[str] = ..., friends_to_win: _Optional[int] = ..., clique_to_win: _Optional[int] = ..., supply: _Optional[int] = ..., supply_brown: _Optional[int] = ..., slots: _Optional[_Iterable[_Union[HeckSlot, _Mapping]]] = ..., critter_deck_size: _Optional[int] = ..., snake_deck_size: _Optional[int] = ..., snake_discard_size: _Optional[int] = ..., heck_deck_size: _Optional[int] = ..., heck_discard_size: _Optional[int] = ..., snake: _Optional[_Union[HeckSnake, _Mapping]] = ..., bet: _Optional[_Union[HeckBet, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[HeckSeat, _Mapping]]] = ..., held: _Optional[_Iterable[_Union[HeckHeldCard, _Mapping]]] = ..., last_reveal: _Optional[_Union[HeckReveal, _Mapping]] = ...) -> None: ...

class HeckEvent(_message.Message):
    __slots__ = ("round_started", "deck_reshuffled", "bet_committed", "bets_revealed", "egg_taken", "egg_returned", "heck_card_drawn", "card_held", "held_card_discarded", "critter_befriended", "critter_unclaimed", "critter_lost", "no_effect", "stampede", "slot_refilled", "game_ended")
    class RoundStarted(_message.Message):
        __slots__ = ("round", "first_player", "snake")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
        SNAKE_FIELD_NUMBER: _ClassVar[int]
        round: int
        first_player: int
        snake: HeckSnake
        def __init__(self, round: _Optional[int] = ..., first_player: _Optional[int] = ..., snake: _Optional[_Union[HeckSnake, _Mapping]] = ...) -> None: ...
    class DeckReshuffled(_message.Message):
        __slots__ = ("deck", "cards")
        DECK_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        deck: str
        cards: int
        def __init__(self, deck: _Optional[str] = ..., cards: _Optional[int] = ...) -> None: ...
    class BetCommitted(_message.Message):
        __slots__ = ("seat", "bet")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        BET_FIELD_NUMBER: _ClassVar[int]
        seat: int
        bet: HeckBet
        def __init__(self, seat: _Optional[int] = ..., bet: _Optional[_Union[HeckBet, _Mapping]] = ...) -> None: ...
    class BetsRevealed(_message.Message):
        __slots__ = ("round", "bets")
        ROUND_FIELD_NUMBER: _ClassVar[int]
        BETS_FIELD_NUMBER: _ClassVar[int]
        round: int
        bets: _containers.RepeatedCompositeFieldContainer[HeckRevealedBet]
        def __init__(self, round: _Optional[int] = ..., bets: _Optional[_Iterable[_Union[HeckRevealedBet, _Mapping]]] = ...) -> None: ...
    class EggTaken(_message.Message):
        __slots__ = ("seat", "cause", "colour", "eggs", "supply")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CAUSE_FIELD_NUMBER: _ClassVar[int]
        COLOUR_FIELD_NUMBER: _ClassVar[int]
        EGGS_FIELD_NUMBER: _ClassVar[int]
        SUPPLY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cause: str
        colour: str
        eggs: int
        supply: int
        def __init__(self, seat: _Optional[int] = ..., cause: _Optional[str] = ..., colour: _Optional[str] = ..., eggs: _Optional[int] = ..., supply: _Optional[int] = ...) -> None: ...
    class EggReturned(_message.Message):
        __slots__ = ("seat", "colour", "eggs", "supply")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COLOUR_FIELD_NUMBER: _ClassVar[int]
        EGGS_FIELD_NUMBER: _ClassVar[int]
        SUPPLY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        colour: str
        eggs: int
        supply: int
        def __init__(self, seat: _Optional[int] = ..., colour: _Optional[str] = ..., eggs: _Optional[int] = ..., supply: _Optional[int] = ...) -> None: ...
    class HeckCardDrawn(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HeckCard
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeckCard, _Mapping]] = ...) -> None: ...
    class CardHeld(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HeckCard
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeckCard, _Mapping]] = ...) -> None: ...
    class HeldCardDiscarded(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HeckCard
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeckCard, _Mapping]] = ...) -> None: ...
    class CritterBefriended(_message.Message):
        __slots__ = ("seat", "critter", "slot", "cause")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CRITTER_FIELD_NUMBER: _ClassVar[int]
        SLOT_FIELD_NUMBER: _ClassVar[int]
        CAUSE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        critter: HeckCritter
        slot: int
        cause: str
        def __init__(self, seat: _Optional[int] = ..., critter: _Optional[_Union[HeckCritter, _Mapping]] = ..., slot: _Optional[int] = ..., cause: _Optional[str] = ...) -> None: ...
    class CritterUnclaimed(_message.Message):
        __slots__ = ("slot", "critter", "reason")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        CRITTER_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        slot: int
        critter: HeckCritter
        reason: str
        def __init__(self, slot: _Optional[int] = ..., critter: _Optional[_Union[HeckCritter, _Mapping]] = ..., reason: _Optional[str] = ...) -> None: ...
    class CritterLost(_message.Message):
        __slots__ = ("seat", "critter", "cause", "by_seat")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CRITTER_FIELD_NUMBER: _ClassVar[int]
        CAUSE_FIELD_NUMBER: _ClassVar[int]
        BY_SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        critter: HeckCritter
        cause: str
        by_seat: int
        def __init__(self, seat: _Optional[int] = ..., critter: _Optional[_Union[HeckCritter, _Mapping]] = ..., cause: _Optional[str] = ..., by_seat: _Optional[int] = ...) -> None: ...
    class NoEffect(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: HeckCard
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[HeckCard, _Mapping]] = ...) -> None: ...
    class Stampede(_message.Message):
        __slots__ = ("seat", "critters")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CRITTERS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        critters: _containers.RepeatedCompositeFieldContainer[HeckCritter]
        def __init__(self, seat: _Optional[int] = ..., critters: _Optional[_Iterable[_Union[HeckCritter, _Mapping]]] = ...) -> None: ...
    class SlotRefilled(_message.Message):
        __slots__ = ("slot", "critter")
        SLOT_FIELD_NUMBER: _ClassVar[int]
        CRITTER_FIELD_NUMBER: _ClassVar[int]
        slot: int
        critter: HeckCritter
        def __init__(self, slot: _Optional[int] = ..., critter: _Optional[_Union[HeckCritter, _Mapping]] = ...) -> None: ...
    class GameEnded(_message.Message):
        __slots__ = ("reason", "winners", "word")
        REASON_FIELD_NUMBER: _ClassVar[int]
        WINNERS_FIELD_NUMBER: _ClassVar[int]
        WORD_FIELD_NUMBER: _ClassVar[int]
        reason: str
        winners: _containers.RepeatedScalarFieldContainer[int]
        word: str
        def __init__(self, reason: _Optional[str] = ..., winners: _Optional[_Iterable[int]] = ..., word: _Optional[str] = ...) -> None: ...
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    DECK_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    BET_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    BETS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    EGG_TAKEN_FIELD_NUMBER: _ClassVar[int]
    EGG_RETURNED_FIELD_NUMBER: _ClassVar[int]
    HECK_CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    CARD_HELD_FIELD_NUMBER: _ClassVar[int]
    HELD_CARD_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    CRITTER_BEFRIENDED_FIELD_NUMBER: _ClassVar[int]
    CRITTER_UNCLAIMED_FIELD_NUMBER: _ClassVar[int]
    CRITTER_LOST_FIELD_NUMBER: _ClassVar[int]
    NO_EFFECT_FIELD_NUMBER: _ClassVar[int]
    STAMPEDE_FIELD_NUMBER: _ClassVar[int]
    SLOT_REFILLED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    round_started: HeckEvent.RoundStarted
    deck_reshuffled: HeckEvent.DeckReshuffled
    bet_committed: HeckEvent.BetCommitted
    bets_revealed: HeckEvent.BetsRevealed
    egg_taken: HeckEvent.EggTaken
    egg_returned: HeckEvent.EggReturned
    heck_card_drawn: HeckEvent.HeckCardDrawn
    card_held: HeckEvent.CardHeld
    held_card_discarded: HeckEvent.HeldCardDiscarded
    critter_befriended: HeckEvent.CritterBefriended
    critter_unclaimed: HeckEvent.CritterUnclaimed
    critter_lost: HeckEvent.CritterLost
    no_effect: HeckEvent.NoEffect
    stampede: HeckEvent.Stampede
    slot_refilled: HeckEvent.SlotRefilled
    game_ended: HeckEvent.GameEnded
    def __init__(self, round_started: _Optional[_Union[HeckEvent.RoundStarted, _Mapping]] = ..., deck_reshuffled: _Optional[_Union[HeckEvent.DeckReshuffled, _Mapping]] = ..., bet_committed: _Optional[_Union[HeckEvent.BetCommitted, _Mapping]] = ..., bets_revealed: _Optional[_Union[HeckEvent.BetsRevealed, _Mapping]] = ..., egg_taken: _Optional[_Union[HeckEvent.EggTaken, _Mapping]] = ..., egg_returned: _Optional[_Union[HeckEvent.EggReturned, _Mapping]] = ..., heck_card_drawn: _Optional[_Union[HeckEvent.HeckCardDrawn, _Mapping]] = ..., card_held: _Optional[_Union[HeckEvent.CardHeld, _Mapping]] = ..., held_card_discarded: _Optional[_Union[HeckEvent.HeldCardDiscarded, _Mapping]] = ..., critter_befriended: _Optional[_Union[HeckEvent.CritterBefriended, _Mapping]] = ..., critter_unclaimed: _Optional[_Union[HeckEvent.CritterUnclaimed, _Mapping]] = ..., critter_lost: _Optional[_Union[HeckEvent.CritterLost, _Mapping]] = ..., no_effect: _Optional[_Union[HeckEvent.NoEffect, _Mapping]] = ..., stampede: _Optional[_Union[HeckEvent.Stampede, _Mapping]] = ..., slot_refilled: _Optional[_Union[HeckEvent.SlotRefilled, _Mapping]] = ..., game_ended: _Optional[_Union[HeckEvent.GameEnded, _Mapping]] = ...) -> None: ...
