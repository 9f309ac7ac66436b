"""Heck's strong bot: a determinized look-ahead over one reveal.

Bets are simultaneous and a round is decided at its reveal, so the bot looks
exactly one reveal ahead. It draws SAMPLES guesses at what its seat cannot see,
each consistent with its view: the other seats' snakes (among the cards it has
not seen), their bets (uniformly among the bets their snake and eggs allow: it
knows nothing of how they choose) and the order of the critter and heck decks.
On every guess it plays the reveal of each of its legal bets with the engine,
the same guess for every bet so that their differences are not sampling noise,
and scores the result as its chance to win: 1 or 0 when the reveal ends the
game, else a logit over what every seat has (friends, eggs, ...). It bets the
best total.

Cost: SAMPLES x (at most 13 bets) reveals, about 11 ms a move on one core.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..games.base import Action, Game, State
from ..games.heck import CRITTERS, HECK_CARDS, SNAKES
from ..games.rng import Rng

SAMPLES = 12

# The logit's weights, fitted on 12,000 random playouts (2-5 seats) to who won
# from each round's start. A seat's score is the sum of the weights of its
# features (see _features); its chance is softmax over the seats.
WEIGHTS = (
    0.20, 0.43, 0.73, 1.19,   # 1, 2, 3, 4+ friends (0 is the base)
    0.19, 0.04,               # a word held twice or more; words held twice or more
    -0.98, -0.51,             # 1 egg, 2 eggs (3 is the base)
    0.38, 0.56, 0.71,         # 4, 5, 6+ eggs
    0.31,                     # held Friendship cards that can still befriend
)


def choose(game: Game, view: dict[str, Any], legal: list[Action], seat: int,
           rng: Rng) -> Action:
    """The legal bet with the best total chance over SAMPLES guesses (the first
    listed of equals)."""
    if len(legal) == 1:
        return legal[0]
    totals = [0.0] * len(legal)
    for _ in range(SAMPLES):
        guess = _guess(game, view, seat, rng)
        reshuffles = str(rng.below(1 << 62))  # for a deck that runs out mid-reveal
        for i, bet in enumerate(legal):
            state = _copy(guess)
            game.play(state, seat, bet, Rng.from_seed(reshuffles))
            totals[i] += _chance(state, seat)
    return legal[totals.index(max(totals))]


def _guess(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> State:
    """A full state that gives `seat` exactly `view`, with every bet but its own
    placed: what the view hides is drawn from `rng`."""
    n = len(view["seats"])
    order = [(view["first_player"] + k) % n for k in range(n)]

    own = view["snake"]
    own_id = None if own is None else SNAKES.index(own)
    unseen_snakes = [i for i in range(len(SNAKES)) if i != own_id]
    # Snakes are dealt from the first player on: seats past the deck's end hold none.
    holding = len(SNAKES) - view["snake_deck_size"] - view["snake_discard_size"]
    others = [s for s in order[:holding] if s != seat]
    rng.shuffle(unseen_snakes)
    snakes: list[int | None] = [None] * n
    snakes[seat] = own_id
    for other, sid in zip(others, unseen_snakes):
        snakes[other] = sid
    snake_deck, snake_discard = _split(unseen_snakes[len(others):], view["snake_deck_size"],
                                       view["snake_discard_size"])

    friends = [[c["id"] for c in s["friends"]] for s in view["seats"]]
    slots = [None if s["critter"] is None else s["critter"]["id"] for s in view["slots"]]
    seen = {cid for cids in friends for cid in cids} | {cid for cid in slots if cid is not None}
    unseen_critters = [cid for cid in range(len(CRITTERS)) if cid not in seen]
    rng.shuffle(unseen_critters)

    # Held cards of one kind and word are alike, so any such ids will do.
    unseen_heck = list(range(len(HECK_CARDS)))
    held = []
    for entry in view["held"]:
        hid = next(h for h in unseen_heck if HECK_CARDS[h] == entry["card"])
        unseen_heck.remove(hid)
        held.append([entry["seat"], hid])
    rng.shuffle(unseen_heck)
    heck_deck, heck_discard = _split(unseen_heck, view["heck_deck_size"], view["heck_discard_size"])

    state = {
        "players": n,
        "long_game": view["options"]["long_game"],
        "max_rounds": view["options"]["max_rounds"],
        "first_seat": view["options"]["first_seat"],
        "round": view["round"],
        "first": view["first_player"],
        "green": [s["eggs"] - s["brown_eggs"] for s in view["seats"]],
        "brown": [s["brown_eggs"] for s in view["seats"]],
        "supply_green": view["supply"] - view["supply_brown"],
        "supply_brown": view["supply_brown"],
        "snakes": snakes,
        "bets": [None] * n,
        "friends": friends,
        "held": held,
        "slots": slots,
        "critter_deck": unseen_critters[:view["critter_deck_size"]],
        "snake_deck": snake_deck,
        "snake_discard": snake_discard,
        "heck_deck": heck_deck,
        "heck_discard": heck_discard,
        "last_reveal": None,
        "finished": False,
        "end_reason": None,
        "end_word": None,
        "winners": [],
    }
    for other in range(n):
        if other != seat:
            state["bets"][other] = rng.choice(game.legal_actions(state, other))
    return state


def _split(cards: list[int], deck: int, discard: int) -> tuple[list[int], list[int]]:
    """A deck of `deck` cards and a discard pile of `discard` cards, in that order."""
    return cards[:deck], cards[deck:deck + discard]


def _copy(state: State) -> State:
    """A copy the engine may play on (cheaper than deepcopy: it knows the shape)."""
    copied = dict(state)
    for key in ("green", "brown", "snakes", "bets", "slots", "critter_deck", "snake_deck",
                "heck_deck", "snake_discard", "heck_discard"):
        copied[key] = list(state[key])
    copied["friends"] = [list(f) for f in state["friends"]]
    copied["held"] = [list(h) for h in state["held"]]
    return copied


def _chance(state: State, seat: int) -> float:
    """`seat`'s chance to win from `state`: its share of a finished game, else
    softmax over the seats' scores."""
    if state["finished"]:
        return 1 / len(state["winners"]) if seat in state["winners"] else 0.0
    alive = {CRITTERS[cid]["word"] for cid in [*state["critter_deck"], *state["slots"]]
             if cid is not None and CRITTERS[cid]["heck_only"]}
    scores = [sum(w * x for w, x in zip(WEIGHTS, _features(state, s, alive)))
              for s in range(state["players"])]
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    return weights[seat] / sum(weights)


def _features(state: State, seat: int, alive: set[str]) -> list[int]:
    """What the logit scores (WEIGHTS, in order). `alive`: the words that still
    have a heck-only critter in the deck or on the table."""
    friends = state["friends"][seat]
    words = Counter(CRITTERS[cid]["word"] for cid in friends).values()
    count = len(friends)
    eggs = state["green"][seat] + state["brown"][seat]
    return [count == 1, count == 2, count == 3, count >= 4,
            max(words, default=0) >= 2, sum(1 for k in words if k >= 2),
            eggs <= 1, eggs == 2, eggs == 4, eggs == 5, eggs >= 6,
            sum(1 for s, hid in state["held"] if s == seat and HECK_CARDS[hid]["word"] in alive)]
