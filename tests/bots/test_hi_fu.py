"""Hi-Fu!!'s default move (the engine's default_action) and strong bot (bots/hi_fu.py):
both always accepted, the default move as its docstring says, and the bot's move a
repeatable function of the seat's view alone (counterfactual secrecy)."""

from __future__ import annotations

import copy
import random

import pytest

from parlor.service.bots import hi_fu as strong
from parlor.service.games.hi_fu import COLOUR_ORDER, GAME, KEEP, deck
from parlor.service.games.rng import Rng
from tests.bots import support
from tests.games import harness
from tests.games.test_hi_fu import card as c  # "r15" is the red 15

OPTION_SETS = [{}, {"board": "back"}, {"first_seat": 1}]


def strong_move(state, seat: int, seed: str = "bot") -> dict:
    return strong.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                         Rng.from_seed(seed))


# ---- the default move ----------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5])
def test_the_default_move_is_accepted_for_every_seat_to_act(players):
    def every_seat_to_act(state, *_):
        for seat in GAME.to_act(state):
            action = GAME.timeout_action(state, seat, Rng.from_seed(f"default/{seat}"))
            harness.play(GAME, copy.deepcopy(state), seat, action, Rng.from_seed("t"))

    for options in OPTION_SETS:
        harness.random_playout(GAME, players, options, seed=f"default/{players}{options}",
                               each_step=every_seat_to_act)


@pytest.mark.parametrize("players", [4, 5])
def test_a_match_of_default_moves_only_ends(players):
    _, n = support.play_default_moves(GAME, players)
    assert n <= 5 * (players + 9 * players)


def test_a_timed_out_discard_removes_every_card_left_to_remove_drawn_at_random():
    """Removed cards are never shown: a fixed choice (always the highest) would
    tell the others what the seat kept. One move ends the seat's discard."""
    state, rng = harness.start(GAME, 5, {"first_seat": 0}, seed="discard")
    hand = state["hands"][2]
    harness.play(GAME, state, 2, {"discard": {"cards": [hand[0]]}}, rng)
    discards = [GAME.timeout_action(state, 2, Rng.from_seed(str(n)))["discard"]["cards"]
                for n in range(60)]
    assert all(len(cards) == len(state["hands"][2]) - KEEP == 2 for cards in discards)
    assert all(card in state["hands"][2] for cards in discards for card in cards)
    assert len({tuple(map(str, cards)) for cards in discards}) > 20
    assert GAME.timeout_action(state, 2, Rng.from_seed("x")) == GAME.timeout_action(state, 2, Rng.from_seed("x"))
    harness.play(GAME, state, 2, {"discard": {"cards": discards[0]}}, rng)
    assert len(state["hands"][2]) == KEEP and 2 not in GAME.to_act(state)


def test_a_timed_out_play_is_one_of_the_legal_cards_drawn_at_random():
    state = in_play({1: ["r2", "r12", "y1"]}, [2, 1, 2, 1], [(0, "r10")], turn=1)
    plays = {GAME.timeout_action(state, 1, Rng.from_seed(str(n)))["play"]["number"]
             for n in range(40)}
    assert plays == {2, 12}


# ---- the strong bot: legal and repeatable -----------------------------------------------


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("board", ["front", "back"])
def test_the_strong_bot_always_moves_legally(players, board):
    support.play_with_strong_seats(GAME, players, f"strong/{players}/{board}", {0, players - 1},
                                   options={"board": board}, chooser=random.Random(players),
                                   bot_seed="legal")


def test_the_same_view_and_seed_give_the_same_move_and_leave_the_arguments_alone():
    state, rng = harness.start(GAME, 5, {"first_seat": 3}, seed="repeat")
    for seat in range(5):
        harness.play(GAME, state, seat, GAME.timeout_action(state, seat, Rng.from_seed("d")), rng)
    support.assert_repeatable(GAME, strong, state, 3)


def test_the_discard_keeps_two_winners_and_removes_the_highest_of_the_rest():
    hand = ["r15", "r3", "y1", "y2", "y12", "y13", "g4", "g11", "g14", "b2", "b5", "b15"]
    state = started_with(5, hand)
    removed = []
    for _ in range(3):
        action = strong_move(state, 0)
        removed.append(action["discard"]["cards"][0])
        harness.play(GAME, state, 0, action, Rng.from_seed("t"))
    # The red and blue 15s win whenever they are played; the rest goes from the top.
    assert removed == [c("g14"), c("y13"), c("y12")]


def test_the_strong_bot_ducks_a_trick_it_does_not_need():
    """Holding two tricks, it follows under the card on the table rather than
    risk a third and going out."""
    state = in_play({1: ["r2", "r12", "y1", "y2", "g1", "g2", "b1"]}, [0, 2, 0, 0],
                    [(0, "r10")], turn=1)
    for seed in ("a", "b", "c"):
        assert strong_move(state, 1, seed) == {"play": c("r2")}


def test_the_strong_bot_takes_its_second_trick_when_it_is_sure_and_late():
    """Two cards left, one trick taken: the red 12 wins this trick for sure; ducking
    leaves the last trick to chance."""
    state = in_play({1: ["r2", "r12"]}, [2, 1, 2, 2], [(2, "r10"), (3, "r4"), (0, "r5")], turn=1)
    for seed in ("a", "b", "c"):
        assert strong_move(state, 1, seed) == {"play": c("r12")}


# ---- the strong bot sees only its seat's view -------------------------------------------


def hidden_twin(state, seat: int, chooser: random.Random):
    """A copy differing only in what `seat` cannot see: the other seats' hands,
    removed and put-away cards are shuffled among themselves (each keeping its
    size), and the arranged deals of later rounds are reversed."""
    twin = copy.deepcopy(state)
    others = [s for s in range(twin["players"]) if s != seat]
    pools = [(s, pile) for s in others for pile in ("hands", "removed", "put_away")]
    cards = [card for s, pile in pools for card in twin[pile][s]]
    chooser.shuffle(cards)
    for s, pile in pools:
        size = len(twin[pile][s])
        twin[pile][s] = sorted(cards[:size], key=lambda k: (k["colour"], k["number"]))
        cards = cards[size:]
    twin["deals"] = twin["deals"][::-1]
    return twin


def assert_same_move(a, b, seat: int, seed: str) -> None:
    harness.assert_same_for(GAME, seat, a, b)
    assert strong_move(a, seat, seed) == strong_move(b, seat, seed)


@pytest.mark.parametrize("players", [4, 5])
def test_the_strong_bot_moves_alike_in_states_its_seat_cannot_tell_apart(players):
    """Through a whole match: discards pending, tricks led and followed, seats out."""
    chooser = random.Random(f"twins/{players}")
    state, rng = harness.start(GAME, players, {}, seed=f"twins/{players}")
    step = 0
    while GAME.outcome(state) is None:
        to_act = GAME.to_act(state)
        if step % 4 == 0:
            seat = chooser.choice(to_act)
            twin = hidden_twin(state, seat, chooser)
            if twin["hands"] != state["hands"] or step % 8 == 0:
                assert_same_move(state, twin, seat, f"twin{step}")
        seat = chooser.choice(to_act)
        harness.play(GAME, state, seat, chooser.choice(GAME.legal(state, seat)), rng)
        step += 1


# ---- set-ups ---------------------------------------------------------------------------------


def started_with(players: int, hand: list[str], seat: int = 0):
    """A deal where `seat` holds `hand` and the rest is dealt in order."""
    mine = [c(t) for t in hand]
    rest = [card for card in deck(players) if card not in mine]
    size = len(deck(players)) // players
    deal = []
    for s in range(players):
        if s == seat:
            deal.append(mine)
        else:
            deal.append(rest[:size])
            rest = rest[size:]
    state, _ = harness.start(GAME, players, {"first_seat": 0}, seed="setup",
                             arrangement={"deals": [deal]})
    return state


def in_play(known: dict[int, list[str]], tricks: list[int], trick: list[tuple[int, str]],
            turn: int):
    """Four seats in round 1's play: the seats in `known` hold those cards, the
    others cards drawn from the rest, as many as a table at this point allows;
    `tricks` taken so far (a seat with two has its pawn on the board), `trick` the
    cards on the table, `turn` the seat to play."""
    state, _ = harness.start(GAME, 4, {"first_seat": 0}, seed="setup")
    in_hand = KEEP - sum(tricks)
    table = [(seat, c(text)) for seat, text in trick]
    used = [c(t) for cards in known.values() for t in cards] + [card for _, card in table]
    rest = [card for card in deck(4) if card not in used]
    random.Random(1).shuffle(rest)
    hands = []
    for seat in range(4):
        size = in_hand - any(s == seat for s, _ in table)
        hand = [c(t) for t in known[seat]] if seat in known else [rest.pop() for _ in range(size)]
        assert len(hand) == size, f"seat {seat} should hold {size} cards"
        hands.append(sorted(hand, key=lambda k: (COLOUR_ORDER[k["colour"]], k["number"])))
    state.update(phase="play", hands=hands, removed=[[] for _ in range(4)], tricks=list(tricks),
                 tricks_played=sum(tricks), trick=[{"seat": s, "card": k} for s, k in table],
                 turn=turn, leader=table[0][0] if table else turn, last_trick=None)
    state["pawns"][0] = [{"seat": s, "standing": True} for s in range(4) if tricks[s] == 2]
    return state
