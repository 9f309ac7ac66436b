"""What the Heck?: the default move and the strong bot."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter

import pytest

from parlor.service import bots
from parlor.service.bots import what_the_heck as strong
from parlor.service.games.rng import Rng
from parlor.service.games.what_the_heck import GAME, NUMBER_CARDS

from ..games import harness
from ..games.test_what_the_heck import new

CONFIGURATIONS = [(players, hidden) for players in range(2, 6) for hidden in (False, True)]


def strong_move(state, seat, seed="move"):
    return bots.choose(GAME, "strong", GAME.view(state, seat), GAME.legal(state, seat), seat,
                       Rng.from_seed(seed))


def play_out(players, hidden, seed, strong_seats=(), each_turn=None):
    """A match to the end: the strong bot at `strong_seats`, random moves elsewhere,
    a random seat of those to act at each step. `each_turn(state, seat)` runs before
    each move."""
    state, rng = harness.start(GAME, players, {"hidden_winnings": hidden}, seed)
    chooser = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = chooser.choice(GAME.to_act(state))
        if each_turn is not None:
            each_turn(state, seat)
        action = (strong_move(state, seat, f"{seed}/{state['round']}") if seat in strong_seats
                  else chooser.choice(GAME.legal(state, seat)))
        harness.play(GAME, state, seat, action, rng)
    return state


# ---- the default move -----------------------------------------------------------------

@pytest.mark.parametrize("players, hidden", CONFIGURATIONS)
def test_default_move_is_accepted_for_every_seat_to_act(players, hidden):
    def check(state, _seat):
        for seat in GAME.to_act(state):
            assert harness.attempt(GAME, state, seat, GAME.timeout_action(state, seat, Rng.from_seed("t"))) == "ok"

    for n in range(3):
        play_out(players, hidden, f"default/{n}", each_turn=check)


@pytest.mark.parametrize("players", range(2, 6))
def test_a_match_of_default_moves_only_ends(players):
    state, rng = harness.start(GAME, players, seed="defaults only")
    for _ in range(players * len(NUMBER_CARDS)):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        harness.play(GAME, state, seat, GAME.timeout_action(state, seat, Rng.from_seed(f"d{seat}")), rng)
    assert GAME.outcome(state) is not None


def test_default_move_is_a_card_of_the_hand_drawn_from_the_seats_generator():
    """With 3-5 seats every hand is known: a fixed default would tell the seats
    still to bid what a timed-out seat committed (every seat sees the timeout).
    The card comes from the seat's own generator: repeatable, not guessable."""
    state, rng = new(prizes=[-5, 10])
    drawn = {GAME.timeout_action(state, 0, Rng.from_seed(f"seat 0/{n}"))["bid"] for n in range(60)}
    assert drawn <= set(state["hands"][0]) and len(drawn) > 5, drawn
    assert GAME.timeout_action(state, 0, Rng.from_seed("x")) == GAME.timeout_action(state, 0, Rng.from_seed("x"))
    harness.play(GAME, state, 1, {"bid": 1}, rng)
    with pytest.raises(ValueError):  # a seat that has committed has nothing to do
        GAME.timeout_action(state, 1, Rng.from_seed("x"))


def test_two_player_default_move_skips_the_removed_cards():
    state, _ = new(players=2, prizes=list(range(1, 11)) + [-1, -2],
                   removed=[[1, 2, 3], [2, 9, 15]])
    for n in range(40):
        assert GAME.timeout_action(state, 0, Rng.from_seed(str(n)))["bid"] not in (1, 2, 3)
        assert GAME.timeout_action(state, 1, Rng.from_seed(str(n)))["bid"] not in (2, 9, 15)


# ---- the strong bot -----------------------------------------------------------------

@pytest.mark.parametrize("players, hidden", CONFIGURATIONS)
def test_strong_moves_are_legal(players, hidden):
    # bots.choose itself refuses a move that is not legal
    for n in range(2):
        final = play_out(players, hidden, f"strong/{n}", strong_seats=range(0, players, 2))
        assert GAME.outcome(final) is not None


def test_same_view_and_generator_give_the_same_move():
    state, rng = harness.start(GAME, 4, seed="same")
    for bids in ([3, 9, 12, 1], [15, 2, 8, 8]):
        for seat, card in enumerate(bids):
            harness.play(GAME, state, seat, {"bid": card}, rng)
    view, legal = GAME.view(state, 2), GAME.legal(state, 2)
    first, again = (strong.choose(GAME, copy.deepcopy(view), copy.deepcopy(legal), 2, Rng.from_seed("s"))
                    for _ in range(2))
    assert first == again
    assert (view, legal) == (GAME.view(state, 2), GAME.legal(state, 2))  # and it changes neither


def test_strong_bot_bids_high_for_the_top_mouse_and_keeps_its_lowest_from_a_buzzard():
    top, _ = new(players=3, prizes=[10])
    assert strong_move(top, 0) == {"bid": 15}
    buzzard, _ = new(players=3, prizes=[-5])
    assert strong_move(buzzard, 0)["bid"] > 5


def test_in_the_last_rounds_the_bot_plays_for_the_win_not_the_points():
    """Round 14 of 15, the pot a 5, the 3 still to come; seat 0 (9 points, holding 3
    and 15) trails seat 1 (15) and needs both pots. Its 15 takes the 5 for sure but
    leaves a 3 that cannot take the last pot: a sure loss, though the most points.
    Its 3 wins when both others bid their 3 too: all cancel, and the 15 takes 5 + 3."""
    state, _ = harness.start(GAME, 3, seed="endgame")
    state.update(
        hands=[[3, 15], [3, 4], [3, 13]],
        won=[[9, 2, -2], [10, 4, 1], [8, 7, 6, -1, -3, -4, -5]],
        prizes=[3], pot=[5], round=14, history=[])  # (the bot reads no history)
    state["played"] = [[c for c in NUMBER_CARDS if c not in hand] for hand in state["hands"]]
    others = [(3, 4), (3, 13)]
    planned = strong._planned(GAME.view(state, 0), [3, 15], others, [3])
    assert planned == 1  # the plan alone would bid the 15
    assert strong_move(state, 0) == {"bid": 3}


def test_chances_agree_with_every_combination_of_bids():
    unplayed = [[1, 4, 5, 9, 15], [2, 4, 5, 12], [1, 4, 6, 9]]
    take_high, take_low, cancel = strong._chances(unplayed)
    each = 1 / (5 * 4 * 4)
    for card in NUMBER_CARDS:
        high = low = none = 0.0
        for bids in itertools.product(*unplayed):
            counts = Counter([*bids, card])
            unique = [bid for bid, n in counts.items() if n == 1]
            high += each * (bool(unique) and max(unique) == card)
            low += each * (bool(unique) and min(unique) == card)
            none += each * (not unique)
        assert (take_high[card], take_low[card], cancel[card]) == pytest.approx((high, low, none))


# ---- counterfactual secrecy: what the seat cannot see does not move the bot ---------

def assert_same_move(a, b, seat):
    assert a != b
    harness.assert_same_for(GAME, seat, a, b)
    assert strong_move(a, seat, "twin") == strong_move(b, seat, "twin")


def midgame(players, hidden, rounds, seed):
    """A state after `rounds` random rounds, then seats 1.. committed (seat 0 to act)."""
    state, rng = harness.start(GAME, players, {"hidden_winnings": hidden}, seed)
    chooser = random.Random(seed)
    for _ in range(rounds * players + players - 1):
        seat = GAME.to_act(state)[-1]  # seat 0 last, so it is the one left to act
        harness.play(GAME, state, seat, chooser.choice(GAME.legal(state, seat)), rng)
    assert GAME.to_act(state) == [0]
    return state


def other_pending_bid(state, seat):
    """A twin where `seat` committed another card of its hand."""
    twin = copy.deepcopy(state)
    committed, instead = twin["bids"][seat], twin["hands"][seat][0]
    twin["bids"][seat] = instead
    twin["hands"][seat] = sorted([c for c in twin["hands"][seat] if c != instead] + [committed])
    return twin


def other_pile_order(state):
    twin = copy.deepcopy(state)
    twin["prizes"].reverse()
    return twin


def other_removed_cards(state, seat):
    """Two players: a twin where `seat` set aside another card, and another prize is set aside."""
    twin = copy.deepcopy(state)
    out, kept = twin["removed"][seat][0], twin["hands"][seat][-1]
    twin["removed"][seat] = sorted([c for c in twin["removed"][seat] if c != out] + [kept])
    twin["hands"][seat] = sorted([c for c in twin["hands"][seat] if c != kept] + [out])
    if twin["prizes"]:
        twin["prizes"][0], twin["removed_prizes"][0] = twin["removed_prizes"][0], twin["prizes"][0]
    return twin


def other_hidden_winnings(state, seat):
    """hidden_winnings: a twin where `seat` took the pile's next card instead of its first."""
    twin = copy.deepcopy(state)
    twin["won"][seat][0], twin["prizes"][0] = twin["prizes"][0], twin["won"][seat][0]
    return twin


@pytest.mark.parametrize("players", range(3, 6))
@pytest.mark.parametrize("rounds", [0, 6, 12])
def test_pending_bids_and_the_pile_order_do_not_move_the_bot(players, rounds):
    state = midgame(players, False, rounds, f"secret/{players}/{rounds}")
    for seat in range(1, players):
        assert_same_move(state, other_pending_bid(state, seat), 0)
    assert_same_move(state, other_pile_order(state), 0)


@pytest.mark.parametrize("rounds", [0, 5, 9])
def test_two_player_removed_cards_do_not_move_the_bot(rounds):
    state = midgame(2, False, rounds, f"secret/2/{rounds}")
    assert_same_move(state, other_removed_cards(state, 1), 0)
    assert_same_move(state, other_pending_bid(state, 1), 0)
    assert_same_move(state, other_pile_order(state), 0)


@pytest.mark.parametrize("players", [2, 4])
def test_face_down_winnings_do_not_move_the_bot(players):
    for seed in range(20):
        state = midgame(players, True, 7, f"hidden/{players}/{seed}")
        if state["won"][1]:
            assert_same_move(state, other_hidden_winnings(state, 1), 0)
            return
    raise AssertionError("no seat 1 with winnings in 20 games")
