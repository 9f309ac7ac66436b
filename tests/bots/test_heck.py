"""Heck's default move (the engine's default_action) and strong bot (bots/heck.py):
both always legal, the default move as its docstring says, and the bot's move a
repeatable function of the seat's view alone (counterfactual secrecy)."""

from __future__ import annotations

import copy
import random

import pytest

from parlor.service.bots import heck as strong
from parlor.service.games.heck import CRITTERS, GAME, HECK_CARDS, SNAKES
from parlor.service.games.rng import Rng
from tests.bots import support
from tests.games import harness
from tests.games.test_heck import OPTION_SETS, SAFE, bet, critter


def snake(hiss: int, slither: int, chomp: int) -> int:
    """The first snake card with these capacities."""
    return SNAKES.index({"hiss": hiss, "slither": slither, "chomp": chomp})


def strong_move(state, seat: int, seed: str = "bot") -> dict:
    return strong.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                         Rng.from_seed(seed))


# ---- the default move ----------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 6))
def test_the_default_move_is_accepted_for_every_seat_to_act(players):
    def every_seat_to_act(state, *_):
        for seat in GAME.to_act(state):
            action = GAME.timeout_action(state, seat, Rng.from_seed(f"default/{seat}/{state['round']}"))
            assert action in GAME.legal(state, seat)
            harness.play(GAME, copy.deepcopy(state), seat, action, Rng.from_seed("t"))

    for options in OPTION_SETS:
        if options.get("first_seat", 0) < players:
            harness.random_playout(GAME, players, options, seed=f"default/{players}{options}",
                                   each_step=every_seat_to_act)


@pytest.mark.parametrize("players", range(2, 6))
def test_a_match_of_default_moves_only_ends(players):
    state, _ = support.play_default_moves(GAME, players)
    assert state["round"] <= 40


def test_the_default_move_is_a_legal_bet_drawn_from_the_seats_generator():
    """Bets are secret until the reveal and every seat sees a timeout: a fixed
    default (always safe) would tell the others this seat's bet. The bet comes
    from the seat's own generator: repeatable, not guessable."""
    state, rng = harness.start(GAME, 3, {"first_seat": 1}, arrangement={
        "snake_deck": [snake(3, 1, 0), snake(0, 1, 3), snake(0, 3, 1)],
        "green": [5, 3, 1], "supply_brown": 2})
    bets = [GAME.timeout_action(state, 0, Rng.from_seed(str(n))) for n in range(80)]
    assert {tuple(sorted(b.items())) for b in bets} == {tuple(sorted(b.items())) for b in GAME.legal(state, 0)}
    assert SAFE in bets
    assert GAME.timeout_action(state, 0, Rng.from_seed("x")) == GAME.timeout_action(state, 0, Rng.from_seed("x"))
    harness.play(GAME, state, 0, GAME.legal(state, 0)[-1], rng)
    with pytest.raises(ValueError):
        GAME.timeout_action(state, 0, Rng.from_seed("x"))  # it has nothing left to do this round


# ---- the strong bot: legal and repeatable -----------------------------------------------


@pytest.mark.parametrize("players", range(2, 6))
def test_the_strong_bot_always_moves_legally(players):
    support.play_with_strong_seats(GAME, players, f"strong/{players}", {0, players - 1},
                                   chooser=random.Random(players), bot_seed="legal")


def test_the_same_view_and_seed_give_the_same_move_and_leave_the_arguments_alone():
    state, _ = harness.start(GAME, 4, {}, seed="repeat")
    support.assert_repeatable(GAME, strong, state, 2)


def test_the_strong_bot_takes_a_sure_win():
    # Seat 0 has 4 friends and a hiss-3 snake; seat 1 has 1 egg: 2 or more on hiss
    # win the active hiss critter, and with it the game.
    friends = [critter("bleep", "hiss"), critter("bleep", "slither"),
               critter("block", "hiss"), critter("block", "slither")]
    state, _ = harness.start(GAME, 2, {"first_seat": 0}, arrangement={
        "slots": [critter("flip", "hiss"), None, None], "critter_deck": [],
        "snake_deck": [snake(3, 1, 0), snake(2, 2, 0)], "friends": [friends, []],
        "green": [3, 1]})
    for seed in ("a", "b", "c"):
        assert strong_move(state, 0, seed)["hiss"] >= 2


# ---- the strong bot sees only its seat's view -------------------------------------------


def hidden_twin(state, seat: int, chooser: random.Random):
    """A copy differing only in what `seat` cannot see: the other seats' snakes and
    pending bets, which cards lie in the snake and heck decks rather than their
    discards, and the order of every deck and discard pile."""
    twin = copy.deepcopy(state)
    for other in range(twin["players"]):
        if other == seat or twin["snakes"][other] is None or not twin["snake_deck"]:
            continue
        i = chooser.randrange(len(twin["snake_deck"]))
        twin["snakes"][other], twin["snake_deck"][i] = twin["snake_deck"][i], twin["snakes"][other]
        if twin["bets"][other] is not None:
            twin["bets"][other] = chooser.choice(GAME.legal_actions(twin, other))
    for deck in ("snake", "heck"):
        pile, discard = twin[f"{deck}_deck"], twin[f"{deck}_discard"]
        if pile and discard:
            i, j = chooser.randrange(len(pile)), chooser.randrange(len(discard))
            pile[i], discard[j] = discard[j], pile[i]
    for pile in ("critter_deck", "snake_deck", "heck_deck", "snake_discard", "heck_discard"):
        chooser.shuffle(twin[pile])
    return twin


def assert_same_move(a, b, seat: int, seed: str) -> None:
    harness.assert_same_for(GAME, seat, a, b)
    assert strong_move(a, seat, seed) == strong_move(b, seat, seed)


@pytest.mark.parametrize("players", range(2, 6))
def test_the_strong_bot_moves_alike_in_states_its_seat_cannot_tell_apart(players):
    """Through a whole match: round starts, bets pending from other seats, later
    rounds with friends, held cards, brown eggs and reshuffled decks."""
    chooser = random.Random(f"twins/{players}")
    state, rng = harness.start(GAME, players, {}, seed=f"twins/{players}")
    step = 0
    while GAME.outcome(state) is None:
        to_act = GAME.to_act(state)
        if step % 3 == 0:
            seat = chooser.choice(to_act)
            assert_same_move(state, hidden_twin(state, seat, chooser), seat, f"twin{step}")
        seat = chooser.choice(to_act)
        harness.play(GAME, state, seat, chooser.choice(GAME.legal(state, seat)), rng)
        step += 1


def test_the_strong_bot_ignores_the_decks_and_the_others_snakes_and_bets():
    """Two explicit deals that seat 0 cannot tell apart: the critter and heck decks
    lie in opposite orders, and seat 1 holds another snake and has committed
    another bet (all on hiss in one, chomp and heck in the other)."""
    bleep_only = next(c["id"] for c in CRITTERS if c["word"] == "bleep" and c["heck_only"])
    slots = [critter("flip", "hiss"), critter("block", "chomp 2"), bleep_only]
    rest = [cid for cid in range(len(CRITTERS)) if cid not in slots]
    own = snake(2, 1, 1)
    deals = []
    for theirs, heck_deck, critter_deck, their_bet in (
            (snake(3, 0, 1), list(range(len(HECK_CARDS))), rest, bet(hiss=3)),
            (snake(0, 2, 2), list(range(len(HECK_CARDS)))[::-1], rest[::-1],
             bet(chomp=2, heck=1))):
        state, rng = harness.start(GAME, 2, {"first_seat": 1}, arrangement={
            "slots": slots, "critter_deck": critter_deck, "heck_deck": heck_deck,
            "snake_deck": [theirs, own] + [s for s in range(len(SNAKES)) if s not in (theirs, own)]})
        harness.play(GAME, state, 1, their_bet, rng)
        deals.append(state)
    assert deals[0]["snakes"] != deals[1]["snakes"] and deals[0]["bets"] != deals[1]["bets"]
    for seed in ("x", "y"):
        assert_same_move(*deals, 0, seed)
