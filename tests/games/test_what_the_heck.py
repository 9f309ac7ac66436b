"""What the Heck?: service/games/what_the_heck.md, rule by rule, then properties."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service.games.what_the_heck import GAME, NUMBER_CARDS, PRIZE_CARDS

from . import harness


# A prize pile whose first cards the tests choose; the rest follows in a fixed order.
def pile(*first: int) -> list[int]:
    return list(first) + [c for c in PRIZE_CARDS if c not in first]


def new(players=4, prizes=(), options=None, **arrangement):
    """A game with the pile starting with `prizes` (two players: exactly the 12 given)."""
    order = list(prizes) if players == 2 else pile(*prizes)
    return harness.start(GAME, players, options, arrangement={"prizes": order, **arrangement})


def bid_all(state, rng, *bids):
    events = []
    for seat, card in enumerate(bids):
        events += harness.play(GAME, state, seat, {"bid": card}, rng)
    return events


def revealed(events):
    return [e.public["bids_revealed"] for e in events if "bids_revealed" in e.public][-1]


# ---- the rulebook's checked examples ------------------------------------------------

def test_mouse_highest_unique_bid_takes_it():
    state, rng = new(prizes=[5])
    result = revealed(bid_all(state, rng, 7, 9, 4, 6))
    assert result["winner"] == 1
    assert state["won"][1] == [5]


def test_buzzard_lowest_unique_bid_takes_it():
    state, rng = new(prizes=[-4])
    assert revealed(bid_all(state, rng, 11, 7, 6, 10))["winner"] == 2
    assert state["won"][2] == [-4]


def test_carried_pot_goes_to_highest_unique_after_cancel():
    state, rng = new(prizes=[3, 4])
    first = revealed(bid_all(state, rng, 1, 1, 1, 1))
    assert first["winner"] is None and first["carried_over"]
    assert state["pot"] == [3, 4]
    result = revealed(bid_all(state, rng, 13, 12, 12, 11))
    assert result["cancelled"] == [12] and result["winner"] == 0
    assert state["won"][0] == [3, 4]


def test_tie_below_the_top_cancels_the_top():
    state, rng = new(prizes=[8])
    assert revealed(bid_all(state, rng, 10, 10, 3, 5))["winner"] == 3


def test_buzzard_with_cancelled_lowest():
    state, rng = new(prizes=[-2])
    assert revealed(bid_all(state, rng, 1, 1, 9, 4))["winner"] == 3


def test_two_players_carry_over_turning_negative():
    state, rng = new(players=2, prizes=[2, -5, 1, 3, 4, 5, 6, 7, 8, 9, 10, -1],
                     removed=[[13, 14, 15], [13, 14, 15]])
    first = revealed(bid_all(state, rng, 6, 6))
    assert first["carried_over"] and state["pot"] == [2, -5]
    result = revealed(bid_all(state, rng, 3, 8))
    assert result["winner"] == 0 and state["won"][0] == [2, -5]
    assert GAME.view(state, 0)["seats"][0]["score"] == -3


# ---- more rules ---------------------------------------------------------------------

def test_zero_sum_pot_uses_mouse_rule():
    state, rng = new(prizes=[3, -3])
    bid_all(state, rng, 2, 2, 2, 2)  # carry: pot 3 + -3 = 0
    assert sum(state["pot"]) == 0
    assert revealed(bid_all(state, rng, 5, 9, 4, 6))["winner"] == 1  # highest


def test_all_bids_equal_pairs_cancel_everything():
    state, rng = new(prizes=[6])
    result = revealed(bid_all(state, rng, 5, 5, 9, 9))
    assert result["winner"] is None and result["cancelled"] == [5, 9]


def test_three_or_more_equal_bids_all_cancel_five_players():
    """Play 3: every bid played by two or more seats cancels, three or four alike too."""
    state, rng = new(players=5, prizes=[6, 7, -3])
    result = revealed(bid_all(state, rng, 12, 12, 12, 9, 3))  # three 12s out: 9 is highest
    assert result["cancelled"] == [12] and result["winner"] == 3
    assert state["won"][3] == [6]
    result = revealed(bid_all(state, rng, 10, 10, 10, 10, 1))  # four 10s out: the lone 1 takes it
    assert result["cancelled"] == [10] and result["winner"] == 4
    assert state["won"][4] == [7]
    result = revealed(bid_all(state, rng, 2, 2, 2, 4, 4))  # three 2s and two 4s: nothing left
    assert result["cancelled"] == [2, 4] and result["winner"] is None and result["carried_over"]
    assert state["pot"][0] == -3 and len(state["pot"]) == 2


def test_three_players_all_equal_carry_then_lone_bid_takes_a_buzzard_pot():
    """Play 3-4: three equal bids carry the pot; a lone unique bid takes a negative pot though highest."""
    state, rng = new(players=3, prizes=[4, -5])
    result = revealed(bid_all(state, rng, 7, 7, 7))
    assert result["cancelled"] == [7] and result["winner"] is None and result["carried_over"]
    assert state["pot"] == [4, -5]  # worth -1: buzzard rule
    result = revealed(bid_all(state, rng, 2, 2, 15))
    assert result["cancelled"] == [2] and result["winner"] == 2
    assert state["won"] == [[], [], [4, -5]]


def test_round_started_tells_the_turned_card_and_the_pot_carried_cards_first():
    """Play 1 and 4: each round turns one prize card into the pot, after any carried cards."""
    state, rng = new(players=3, prizes=[3, -2, 8])
    (opening,) = GAME.opening_events(state)
    assert opening.public == {"round_started": {"round": 1, "turned": 3, "pot": [3]}}
    events = bid_all(state, rng, 5, 5, 5)  # cancelled: 3 carries
    assert events[-1].public == {"round_started": {"round": 2, "turned": -2, "pot": [3, -2]}}
    events = bid_all(state, rng, 1, 2, 3)  # pot worth 1: seat 2 takes it
    assert revealed(events)["winner"] == 2
    assert events[-1].public == {"round_started": {"round": 3, "turned": 8, "pot": [8]}}
    assert GAME.view(state, None)["pot"] == [8]


def test_played_cards_are_out_whether_won_lost_or_cancelled():
    state, rng = new(prizes=[6])
    bid_all(state, rng, 5, 5, 9, 1)
    for seat, card in enumerate([5, 5, 9, 1]):
        assert card not in state["hands"][seat]
        assert state["played"][seat] == [card]
    harness.rejected(GAME, state, 0, {"bid": 5}, rng, "CARD_NOT_IN_HAND")


def test_last_round_cancelling_discards_the_whole_pot():
    state, rng = new()
    for card in range(1, 15):  # seats pair up on equal bids: every round cancels
        result = revealed(bid_all(state, rng, card, card, 16 - card, 16 - card))
        assert result["carried_over"]
    assert state["round"] == 15 and len(state["pot"]) == 15
    result = revealed(bid_all(state, rng, 15, 15, 1, 1))
    assert result["discarded"] and not result["carried_over"] and result["winner"] is None
    assert sorted(state["discarded"]) == sorted(PRIZE_CARDS) and state["pot"] == []
    outcome = GAME.outcome(state)
    assert outcome.scores == [0, 0, 0, 0] and outcome.winners == [0, 1, 2, 3]


def test_only_last_round_cancelled_discards_only_its_pot():
    state, rng = new(players=2, prizes=list(range(1, 11)) + [-1, -2],
                     removed=[[13, 14, 15], [13, 14, 15]])
    for card in range(1, 12):
        assert revealed(bid_all(state, rng, card, 11 if card == 1 else card - 1))["winner"] is not None
    assert state["round"] == 12 and state["pot"] == [-2]
    result = revealed(bid_all(state, rng, 12, 12))
    assert result["discarded"] and state["discarded"] == [-2]
    assert GAME.outcome(state) is not None


def test_last_round_won_with_a_carried_pot_takes_every_card():
    """Play 3-4 and 6: a carried pot won in the last round goes whole to its winner, nothing discarded."""
    state, rng = new(players=2, prizes=[1, 2, 3, 4, 5, 6, 7, 8, -1, -2, 9, 10],
                     removed=[[13, 14, 15], [13, 14, 15]])
    for card in range(1, 10):  # seat 1 bids one higher: mice to seat 1, the buzzard to seat 0
        assert revealed(bid_all(state, rng, card, card + 1))["winner"] is not None
    assert state["hands"] == [[10, 11, 12], [1, 11, 12]]
    assert revealed(bid_all(state, rng, 11, 11))["carried_over"]
    assert revealed(bid_all(state, rng, 12, 12))["carried_over"]
    assert state["round"] == 12 and state["pot"] == [-2, 9, 10] and state["prizes"] == []
    result = revealed(bid_all(state, rng, 10, 1))
    assert result["winner"] == 0 and result["pot"] == [-2, 9, 10]
    assert not result["discarded"] and not result["carried_over"]
    assert state["won"][0] == [-1, -2, 9, 10] and state["discarded"] == [] and state["pot"] == []
    outcome = GAME.outcome(state)
    assert outcome.scores == [16, 36] and outcome.winners == [1]


def test_equal_highest_scores_share_the_win():
    state = harness.random_playout(GAME, 3, seed="tie")
    state["won"] = [[5], [2, 3], [10, -5, -1]]
    outcome = GAME.outcome(state)
    assert outcome.scores == [5, 5, 4] and outcome.winners == [0, 1]


def test_a_tie_for_the_win_reached_by_play_lists_both_winners():
    """End and score (decision): equal highest scores share the win, reached by actual bids."""
    state, rng = new(players=3, prizes=[2, 3, 1, -1, 4, 7])
    # Each cycle of three rounds has every seat play the same cards, so hands stay alike.
    for bids in ([1, 2, 3], [2, 3, 1], [3, 1, 2], [4, 5, 6], [5, 6, 4], [6, 4, 5]):
        assert revealed(bid_all(state, rng, *bids))["winner"] is not None
    assert state["won"] == [[1, -1, 7], [3, 4], [2]]
    for card in range(7, 16):  # the rest all cancel; the last pot is out of play
        bid_all(state, rng, card, card, card)
    outcome = GAME.outcome(state)
    assert outcome.scores == [7, 7, 2] and outcome.winners == [0, 1]


def test_bid_must_be_a_card_in_hand_and_only_once_a_round():
    state, rng = new(prizes=[5])
    harness.rejected(GAME, state, 0, {"bid": 16}, rng, "CARD_NOT_IN_HAND")
    harness.rejected(GAME, state, 0, {"bid": 0}, rng, "CARD_NOT_IN_HAND")
    for malformed in ({}, {"bid": True}, {"bid": 1.0}, {"bid": 5, "x": 1}, ["bid", 5], None):
        harness.rejected(GAME, state, 0, malformed, rng, "MALFORMED_ACTION")
    harness.play(GAME, state, 0, {"bid": 3}, rng)
    harness.rejected(GAME, state, 0, {"bid": 4}, rng, "ALREADY_COMMITTED")
    assert GAME.legal(state, 0) == []
    assert GAME.to_act(state) == [1, 2, 3]


def test_a_seat_outside_the_table_is_refused():
    """Players: only the game's own seats may bid (UNKNOWN_SEAT otherwise)."""
    state, rng = new(players=4, prizes=[5])
    for seat in (4, 5, -1, True, 1.0, "0", None):
        harness.rejected(GAME, state, seat, {"bid": 3}, rng, "UNKNOWN_SEAT")
    two, two_rng = new(players=2, prizes=list(range(1, 11)) + [-1, -2])
    harness.rejected(GAME, two, 2, {"bid": 3}, two_rng, "UNKNOWN_SEAT")


def test_game_ends_after_fifteen_rounds_and_refuses_more():
    state = harness.random_playout(GAME, 3, seed="fifteen")
    assert len(state["history"]) == 15 and state["finished"]
    rng = harness.Rng.from_seed("x")
    harness.rejected(GAME, state, 0, {"bid": 1}, rng, "GAME_OVER")


# ---- two players --------------------------------------------------------------------

def test_two_players_remove_three_number_cards_each_and_three_prizes():
    state, _ = harness.start(GAME, 2, seed="two")
    assert state["rounds"] == 12
    assert len(state["prizes"]) + len(state["pot"]) == 12
    assert sorted(state["prizes"] + state["pot"] + state["removed_prizes"]) == sorted(PRIZE_CARDS)
    for seat in range(2):
        assert len(state["hands"][seat]) == 12 and len(state["removed"][seat]) == 3
        assert sorted(state["hands"][seat] + state["removed"][seat]) == list(NUMBER_CARDS)
    final = harness.random_playout(GAME, 2, seed="two")
    assert len(final["history"]) == 12


def test_removed_cards_never_show():
    """Seat 1's set-aside cards and the set-aside prizes differ between the
    twins (and the pile's order past the cards turned here): seat 0 and
    spectators see the same, at the deal and after rounds played alike."""
    state, rng = new(players=2, prizes=list(range(1, 11)) + [-1, -2],
                     removed=[[1, 2, 3], [4, 5, 6]], removed_prizes=[-3, -4, -5])
    twin, twin_rng = new(players=2, prizes=[1, 2, 3] + list(range(10, 3, -1)) + [-2, -3],
                         removed=[[1, 2, 3], [7, 8, 9]], removed_prizes=[-1, -4, -5])
    for viewer in (0, None):
        harness.assert_same_for(GAME, viewer, state, twin)
    for bids in ([15, 15], [14, 13]):  # both seats hold these in both twins
        events = bid_all(state, rng, *bids)
        twin_events = bid_all(twin, twin_rng, *bids)
        for viewer in (0, None):
            harness.assert_same_for(GAME, viewer, state, twin)
            assert [e.seen_by(viewer) for e in events] == [e.seen_by(viewer) for e in twin_events]


# ---- views --------------------------------------------------------------------------

def test_hidden_winnings_views_show_only_counts_for_others_until_the_end():
    state, rng = new(prizes=[5, 7], options={"hidden_winnings": True})
    bid_all(state, rng, 15, 1, 2, 3)
    view = GAME.view(state, 1)
    assert view["seats"][0]["won"] == [] and view["seats"][0]["score"] is None
    assert view["seats"][0]["cards_won"] == 1
    assert view["history"] == []
    own = GAME.view(state, 0)["seats"][0]
    assert own["won"] == [5] and own["score"] == 5
    # Events still say who took which pot.
    final = harness.random_playout(GAME, 3, {"hidden_winnings": True}, seed="hidden")
    view = GAME.view(final, None)
    assert all(s["score"] is not None for s in view["seats"]) and len(view["history"]) == 15


def test_open_views_keep_the_tally_and_history():
    state, rng = new(prizes=[5, 7])
    bid_all(state, rng, 15, 1, 2, 3)
    view = GAME.view(state, 1)
    assert view["seats"][0]["won"] == [5] and view["seats"][0]["score"] == 5
    assert view["history"] == [{"round": 1, "pot": [5], "bids": [15, 1, 2, 3], "winner": 0}]


def test_view_counts_prizes_left_rounds_and_pot_value():
    """What each seat may see: prize cards still to turn (not the pot), rounds, the pot's sum."""
    state, rng = new(players=4, prizes=[3, -5, 6])
    view = GAME.view(state, 0)
    assert (view["rounds"], view["prizes_left"], view["pot"], view["pot_value"]) == (15, 14, [3], 3)
    bid_all(state, rng, 1, 1, 1, 1)  # carried: -5 joins
    view = GAME.view(state, None)
    assert (view["round"], view["prizes_left"], view["pot"], view["pot_value"]) == (2, 13, [3, -5], -2)
    bid_all(state, rng, 2, 3, 4, 5)  # seat 0 takes it; 6 is turned
    view = GAME.view(state, 1)
    assert (view["round"], view["prizes_left"], view["pot"], view["pot_value"]) == (3, 12, [6], 6)


def test_two_player_view_counts_twelve_rounds_and_not_the_removed_prizes():
    """Two-player version: 12 rounds; prizes_left counts neither the pot nor the three removed."""
    state, rng = new(players=2, prizes=list(range(1, 11)) + [-1, -2],
                     removed=[[13, 14, 15], [13, 14, 15]])
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert (view["rounds"], view["prizes_left"], view["pot_value"]) == (12, 11, 1)
    for card in range(1, 12):
        bid_all(state, rng, card, 12 - card if card != 6 else 12)
    view = GAME.view(state, 0)
    assert (view["round"], view["prizes_left"], view["pot"]) == (12, 0, [-2])


def test_hidden_winnings_show_played_cards_as_a_set_and_reveal_all_at_the_end():
    """Options, hidden_winnings: played cards shown ascending (no order of play), and no history,
    until the end reveals every seat's won cards and score."""
    state, rng = new(players=3, prizes=[5, -2, 4], options={"hidden_winnings": True})
    bid_all(state, rng, 15, 1, 2)   # seat 0 takes 5
    bid_all(state, rng, 3, 14, 13)  # seat 0 takes -2 (lowest)
    bid_all(state, rng, 1, 2, 3)    # seat 2 takes 4
    assert state["played"][0] == [15, 3, 1] and state["played"][1] == [1, 14, 2]
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert view["seats"][0]["played"] == [1, 3, 15] and view["seats"][1]["played"] == [1, 2, 14]
        assert view["history"] == []
    view = GAME.view(state, 1)
    assert [s["won"] for s in view["seats"]] == [[], [], []]
    assert [s["cards_won"] for s in view["seats"]] == [2, 0, 1]
    remaining = [list(hand) for hand in state["hands"]]
    for round_bids in zip(*remaining):  # everyone plays its lowest card left, in turn
        bid_all(state, rng, *round_bids)
    assert GAME.outcome(state) is not None
    for viewer in (None, 1):
        view = GAME.view(state, viewer)
        assert [s["won"] for s in view["seats"]] == state["won"]
        assert view["seats"][0]["won"][:2] == [5, -2]
        assert [s["score"] for s in view["seats"]] == [sum(w) for w in state["won"]]
        assert len(view["history"]) == 15


def test_pending_bid_is_seen_only_by_its_seat():
    state, rng = new(prizes=[5])
    events = harness.play(GAME, state, 2, {"bid": 9}, rng)
    assert events[0].seen_by(2)["bid_committed"] == {"seat": 2, "bid": 9}
    for seat in (None, 0, 1, 3):
        assert events[0].seen_by(seat)["bid_committed"] == {"seat": 2}
        assert GAME.view(state, seat)["seats"][2]["bid"] is None
        assert GAME.view(state, seat)["seats"][2]["committed"] is True
    assert GAME.view(state, 2)["seats"][2]["bid"] == 9
    assert GAME.view(state, 2)["seats"][2]["hand_size"] == 14


def test_options_are_validated():
    from parlor.service.games.base import OptionError
    with pytest.raises(OptionError):
        GAME.resolve_options(4, {"hidden_winnings": "yes"})
    with pytest.raises(OptionError):
        GAME.resolve_options(6, {})
    with pytest.raises(OptionError):
        GAME.resolve_options(4, {"no_such_option": True})


# ---- properties ---------------------------------------------------------------------

players = st.integers(min_value=2, max_value=5)
seeds = st.text(min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(players=players, hidden=st.booleans(), seed=seeds)
def test_random_playouts_conserve_cards_and_end(players, hidden, seed):
    dealt = {}

    def each_step(state, seat, action, events):
        prizes = state["prizes"] + state["pot"] + state["discarded"] + sum(state["won"], [])
        assert sorted(prizes) == sorted(dealt["prizes"])
        for s in range(players):
            held = state["hands"][s] + state["played"][s]
            if state["bids"][s] is not None:
                held.append(state["bids"][s])
            assert sorted(held) == dealt["hands"][s]
        harness.assert_wire(GAME, state, events)

    start, _ = harness.start(GAME, players, {"hidden_winnings": hidden}, seed)
    dealt["prizes"] = start["prizes"] + start["pot"]
    dealt["hands"] = [sorted(h) for h in start["hands"]]
    final = harness.random_playout(GAME, players, {"hidden_winnings": hidden}, seed,
                                   each_step=each_step)
    rounds = 12 if players == 2 else 15
    assert len(final["history"]) == rounds
    assert all(sorted(final["played"][s]) == dealt["hands"][s] for s in range(players))
    assert all(len(final["hands"][s]) == 0 for s in range(players))
    # Every round again from its bids and pot, by the rules page rather than the engine.
    taken = [[] for _ in range(players)]
    for number, past in enumerate(final["history"], start=1):
        assert past["round"] == number
        unique = [b for b in past["bids"] if past["bids"].count(b) == 1]
        if not unique:
            expected = None
        else:
            best = max(unique) if sum(past["pot"]) >= 0 else min(unique)
            expected = past["bids"].index(best)
        assert past["winner"] == expected, past
        if expected is not None:
            taken[expected] += past["pot"]
    last = final["history"][-1]
    assert final["discarded"] == ([] if last["winner"] is not None else last["pot"])
    assert final["won"] == taken
    outcome = GAME.outcome(final)
    assert outcome.scores == [sum(w) for w in taken]
    assert outcome.winners == [s for s in range(players) if outcome.scores[s] == max(outcome.scores)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=players, hidden=st.booleans(), seed=seeds, data=st.data())
def test_a_seat_never_sees_pending_bids_or_the_pile(players, hidden, seed, data):
    """Counterfactual: change another seat's pending bid and the prize pile
    order; the seat's view, legal actions and events must not change."""
    state, rng = harness.start(GAME, players, {"hidden_winnings": hidden}, seed)
    chooser = random.Random(seed)
    for _ in range(data.draw(st.integers(0, players * 15 - 1), label="steps")):
        seat = chooser.choice(GAME.to_act(state))
        GAME.play(state, seat, chooser.choice(GAME.legal(state, seat)), rng)
        if GAME.outcome(state):
            return
    movers = GAME.to_act(state)
    if len(movers) < 2:
        return
    bidder, viewer = movers[0], data.draw(st.sampled_from([None, *range(players)]), label="viewer")
    if viewer == bidder:
        return
    hand = state["hands"][bidder]
    if len(hand) < 2:
        return
    card_a, card_b = chooser.sample(hand, 2)
    twin = copy.deepcopy(state)
    chooser.shuffle(twin["prizes"])
    rng_twin = copy.copy(rng)
    events_a = GAME.play(state, bidder, {"bid": card_a}, rng)
    events_b = GAME.play(twin, bidder, {"bid": card_b}, rng_twin)
    if "bids_revealed" in events_a[-1].public or any("bids_revealed" in e.public for e in events_a):
        return  # that bid completed the round: everything is revealed now, as it should be
    harness.assert_same_for(GAME, viewer, state, twin, events_a, events_b)


@pytest.mark.parametrize("players, arrangement", [
    (2, {"removed_prizes": [-3, -4, -5]}),                  # the rest shuffled: 12 rounds
    (2, {"prizes": list(range(1, 11)) + [-1, -2]}),         # the other three set aside
])
def test_a_partly_fixed_two_player_deal_sets_the_rest_aside(players, arrangement):
    state, _ = harness.start(GAME, players, arrangement=arrangement)
    assert state["rounds"] == 12 and len(state["prizes"]) + len(state["pot"]) == 12
    assert sorted(state["prizes"] + state["pot"] + state["removed_prizes"]) == sorted(PRIZE_CARDS)
    final = harness.random_playout(GAME, players, arrangement=arrangement)
    assert GAME.outcome(final) is not None and len(final["history"]) == 12


@pytest.mark.parametrize("players, arrangement", [
    (2, {"prizes": list(PRIZE_CARDS)}),                                  # nothing set aside
    (2, {"prizes": list(range(1, 11)) + [-1, -2], "removed_prizes": [-3, -4, -1]}),
    (2, {"removed": [[1, 2, 3], [4, 5]]}),
    (2, {"removed": [[1, 2, 3], [4, 4, 5]]}),
    (2, {"removed": [[1, 2, 16], [4, 5, 6]]}),
    (2, {"removed": [[1, 2, 3], [4, 5, 6, 6]]}),
    (2, {"removed": [[True, 2, 3], [4, 5, 6]]}),
    (3, {"prizes": [1, 2, 3]}),                                           # a short pile
    (3, {"prizes": list(PRIZE_CARDS[:-1]) + [1]}),                        # a card twice
    (3, {"prizes": [True] + list(PRIZE_CARDS[1:])}),                      # not a card
    (4, {"removed_prizes": [-3, -4, -5]}),                                # only two players remove
    (4, {"removed": [[1, 2, 3]] * 4}),
])
def test_a_fixed_deal_that_is_not_the_games_deck_is_refused(players, arrangement):
    with pytest.raises(ValueError):
        harness.start(GAME, players, arrangement=arrangement)


def _hidden_from(state, seat, chooser):
    """A twin of `state` that differs only in what `seat` cannot see: the prize
    pile's order; which card each other seat has committed; with two players,
    which cards were set aside (each seat's own, and the prizes); with
    hidden_winnings, before the end, which prize cards the other seats took
    (their counts stay)."""
    twin = copy.deepcopy(state)
    others = [t for t in range(state["players"]) if t != seat]
    for t in others:
        if twin["bids"][t] is not None and twin["hands"][t]:
            i = chooser.randrange(len(twin["hands"][t]))
            twin["bids"][t], twin["hands"][t][i] = twin["hands"][t][i], twin["bids"][t]
        if twin.get("removed") and twin["removed"][t] and twin["hands"][t]:
            i, j = chooser.randrange(len(twin["hands"][t])), chooser.randrange(len(twin["removed"][t]))
            twin["hands"][t][i], twin["removed"][t][j] = twin["removed"][t][j], twin["hands"][t][i]
            twin["hands"][t].sort()
    if twin.get("removed_prizes") and twin["prizes"]:
        i, j = chooser.randrange(len(twin["prizes"])), chooser.randrange(len(twin["removed_prizes"]))
        twin["prizes"][i], twin["removed_prizes"][j] = twin["removed_prizes"][j], twin["prizes"][i]
    chooser.shuffle(twin["prizes"])
    if state["hidden_winnings"] and not state["finished"]:
        taken = [c for t in others for c in twin["won"][t]]
        chooser.shuffle(taken)
        for t in others:
            twin["won"][t], taken = taken[:len(twin["won"][t])], taken[len(twin["won"][t]):]
    return twin


@settings(max_examples=25, deadline=None)
@given(players=players, hidden=st.booleans(), seed=seeds)
def test_legal_actions_are_exactly_the_accepted_ones_and_errors_keep_secrets(players, hidden, seed):
    """At sampled steps of a random playout, for every seat: the legal list is
    exactly the bids play() accepts, and a twin differing only in what the
    seat cannot see gives it the same view, legal list and errors."""
    chooser = random.Random(seed)
    candidates = [{"bid": b} for b in range(-1, 18)]
    checked = 0

    def each_step(state, seat, action, events):
        nonlocal checked
        if chooser.random() > 0.3:
            return
        checked += 1
        for s in range(players):
            listed = GAME.legal(state, s)
            tried = [harness.attempt(GAME, state, s, a) for a in candidates]
            assert [a for a, t in zip(candidates, tried) if t == "ok"] == sorted(listed, key=lambda a: a["bid"])
            twin = _hidden_from(state, s, chooser)
            harness.assert_same_for(GAME, s, state, twin)
            assert [harness.attempt(GAME, twin, s, a) for a in candidates] == tried

    harness.random_playout(GAME, players, {"hidden_winnings": hidden}, seed, each_step=each_step)
    assert checked, "no step was checked"
