"""Heul doch! Mau Mau: the default move (HeulDoch.default_action) and the strong bot
(bots/heul_doch.py): always legal, deterministic, and blind to what the seat cannot see."""

from __future__ import annotations

import copy
import random

import pytest

from parlor.service.bots import heul_doch as strong
from parlor.service.games import heul_doch
from parlor.service.games.heul_doch import GAME
from parlor.service.games.rng import Rng
from tests.games import harness
from tests.games.test_heul_doch import card, onion, position

PLAYERS = [3, 4, 5, 6]
OPTIONS = [{}, {"special_cards": True}]


def strong_move(state, seat, seed="bot"):
    return strong.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                         Rng.from_seed(seed))


def snapshots(players, options, seed, every=7):
    """Every `every`-th unfinished state of a random playout, copied."""
    states, steps = [], 0

    def keep(state, seat, action, events):
        nonlocal steps
        steps += 1
        if steps % every == 0 and not state["finished"]:
            states.append(copy.deepcopy(state))

    harness.random_playout(GAME, players, options, seed=seed, each_step=keep)
    return states


# ---- the default move ---------------------------------------------------------------

@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_the_default_move_is_always_accepted(players, options):
    for seed in ("a", "b", "c"):
        def each(state, seat, action, events):
            for turn in GAME.to_act(state):
                default = GAME.timeout_action(state, turn, Rng.from_seed(f"{seed}/{turn}"))
                assert default in GAME.legal(state, turn)
                harness.play(GAME, copy.deepcopy(state), turn, default, Rng.from_seed("t"))

        harness.random_playout(GAME, players, options, seed=f"default-{seed}", each_step=each)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_a_match_of_default_moves_ends(players, options):
    state, rng = harness.start(GAME, players, options, seed=f"defaults-{players}")
    for _ in range(len(heul_doch.deck(True))):
        if GAME.outcome(state) is not None:
            break
        (turn,) = GAME.to_act(state)
        harness.play(GAME, state, turn, GAME.timeout_action(state, turn, Rng.from_seed(str(turn))), rng)
    assert GAME.outcome(state) is not None
    assert not any(state["hands"])


def test_the_default_move_lays_a_hand_card_drawn_from_the_seats_generator_as_an_onion():
    """An onion is face down: a fixed choice (the first card in hand order)
    would tell the table something of it, so the card comes from the seat's own
    generator (repeatable, not guessable). An onion gives no seat points, where
    a card face up may have to go to a neighbour."""
    state, _ = position([["red-1"], ["black-6"], ["green-3"]],
                     [["green-1", "blue-7", "red-5", "red-6"], ["orange-2"], ["yellow-3"]])
    laid = {GAME.timeout_action(state, 0, Rng.from_seed(str(n)))["onion"]["card"]["number"] for n in range(40)}
    assert laid == {1, 7, 5, 6}
    assert GAME.timeout_action(state, 0, Rng.from_seed("x")) == GAME.timeout_action(state, 0, Rng.from_seed("x"))
    state, _ = position([["red-1"], ["black-6"], ["green-3"]],
                     [["orange-2"], ["green-6", "blue-6"], ["yellow-3"]], first=1)
    default = GAME.timeout_action(state, 1, Rng.from_seed("y"))
    harness.play(GAME, state, 1, default, Rng.from_seed("t"))
    assert state["piles"][1][-1]["onion"] is True
    assert state["piles"][2] == [{"card": "green-3", "onion": False}], "nothing goes to a neighbour"


def test_the_default_move_may_lay_a_special_card_as_an_onion():
    piles, hands = [["red-1"], ["black-6"], ["green-3"]], [["werewolf"], ["catapult"], []]
    state, _ = position(piles, hands, special=True)
    assert GAME.timeout_action(state, 0, Rng.from_seed("x")) == {"onion": {"card": card("werewolf")}}
    harness.play(GAME, state, 0, GAME.timeout_action(state, 0, Rng.from_seed("x")), Rng.from_seed("t"))


# ---- the strong bot: legal, deterministic ------------------------------------------

@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_move_is_always_legal(players, options):
    for seed in range(3):
        chooser = random.Random(f"{players}{options}{seed}")
        strong_seats = set(chooser.sample(range(players), k=1 + seed % 2))
        state, rng = harness.start(GAME, players, options, seed=f"strong-{seed}")
        version = 0
        while GAME.outcome(state) is None:
            (turn,) = GAME.to_act(state)
            legal = GAME.legal(state, turn)
            if turn in strong_seats:
                view = GAME.view(state, turn)
                action = strong.choose(GAME, view, legal, turn, Rng.from_seed(f"bot{version}"))
                assert action in legal
                assert view == GAME.view(state, turn), "the bot changed the view it was given"
            else:
                action = chooser.choice(legal)
            harness.play(GAME, state, turn, action, rng)
            version += 1


@pytest.mark.parametrize("options", OPTIONS)
def test_the_same_inputs_give_the_same_move(options):
    for state in snapshots(5, options, seed="same"):
        (turn,) = GAME.to_act(state)
        assert strong_move(state, turn, "x") == strong_move(copy.deepcopy(state), turn, "x")


def test_the_strong_bot_plays_its_best_card_on_its_own_pile():
    # The rules' checked example: the red 7 is the only card the own pile takes;
    # the others would feed a neighbour.
    state, _ = position([["red-5"], ["blue-4"], ["green-2"]],
                     [["blue-5", "green-5", "red-2", "red-7"], ["orange-1"], ["orange-2"]])
    assert strong_move(state, 0) == {"face_up": {"card": card("red-7"), "pile": "own"}}


def test_the_strong_bot_catapults_a_neighbours_seven():
    state, _ = position([["red-1"], ["black-7"], ["green-3"]],
                     [["catapult", "orange-4"], ["orange-2"], ["yellow-3"]], special=True)
    assert strong_move(state, 0) == {"catapult": {}}


# ---- the strong bot sees only its seat's view --------------------------------------

def hidden_slots(state, seat):
    """Where lie the cards `seat` cannot see: other hands, the draw pile, every
    onion (its own too), and every pile's face-up cards below the top."""
    slots = [("hands", s, i) for s, hand in enumerate(state["hands"]) if s != seat
             for i in range(len(hand))]
    slots += [("draw", None, i) for i in range(len(state["draw"]))]
    slots += [("piles", s, i) for s, pile in enumerate(state["piles"])
              for i, entry in enumerate(pile) if entry["onion"] or i < len(pile) - 1]
    return slots


def counterfactual(state, seat, chooser):
    """A copy of `state` with the cards `seat` cannot see shuffled among their places."""
    other = copy.deepcopy(state)

    def place(where, s, i):
        """The list and index (or entry and key) a slot's card lies at in `other`."""
        if where == "piles":
            return other["piles"][s][i], "card"
        return (other["draw"] if where == "draw" else other["hands"][s]), i

    places = [place(*slot) for slot in hidden_slots(state, seat)]
    cards = [holder[key] for holder, key in places]
    chooser.shuffle(cards)
    for (holder, key), name in zip(places, cards):
        holder[key] = name
    other["hands"] = [heul_doch._sorted(hand) for hand in other["hands"]]
    return other


def assert_blind(a, b, seat):
    """`seat` sees the same in `a` and `b`, and the bot moves the same in both."""
    harness.assert_same_for(GAME, seat, a, b)
    assert strong_move(a, seat, "blind") == strong_move(b, seat, "blind")


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_move_ignores_what_the_seat_cannot_see(players, options):
    # Snapshots cover the deal, the middle and the play-out after the draw pile is gone.
    chooser = random.Random(players)
    states = snapshots(players, options, seed=f"blind-{players}", every=5)
    assert any(s["draw"] for s in states) and any(not s["draw"] for s in states)
    changed = 0
    for state in states:
        (turn,) = GAME.to_act(state)
        for _ in range(3):
            other = counterfactual(state, turn, chooser)
            changed += other != state
            assert_blind(state, other, turn)
    assert changed >= len(states)


def test_an_explicit_pair_differing_in_hands_draw_and_onions():
    # Seat 0 cannot tell its own onions, the cards below its top, its neighbours'
    # hands or the draw pile apart; a bot that peeked would give away or keep
    # differently here.
    piles_a = [["orange-7", onion("black-7"), "red-5"], ["blue-4"], [onion("green-2")]]
    piles_b = [["orange-1", onion("yellow-1"), "red-5"], ["blue-4"], [onion("purple-7")]]
    hand = ["blue-5", "green-5", "red-2", "red-7"]
    a, _ = position(piles_a, [hand, ["blue-7", "blue-6"], ["red-4", "purple-3"]],
                 draw=["red-6", "red-3", "black-1"])
    b, _ = position(piles_b, [hand, ["orange-2", "purple-1"], ["green-7", "yellow-7"]],
                 draw=["yellow-2", "blue-1", "black-4"])
    assert_blind(a, b, 0)
