"""Whatever (service/games/whatever.md): scenario tests, one rule each, then properties."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parlor.service import wire
from parlor.service.games.base import OptionError
from parlor.service.games.rng import Rng
from parlor.service.games.whatever import (
    DECK,
    GAME,
    acts_as,
    add_card,
    can_act,
    physical,
    row_total,
    settle,
    whatever_count,
)
from tests.games import harness as h

PASS = {"pass": {}}
SKIP = {"skip": {}}


def bid(amount):
    return {"bid": {"amount": amount}}


def exchange(position):
    return {"exchange": {"position": position}}


def new(players=4, deck=("+1",), rows=None, tokens=None, middle=0, first=0):
    """A game with an explicit deck (top first), rows, tokens and middle."""
    arrangement = {"deck": list(deck), "middle": middle}
    if rows is not None:
        arrangement["rows"] = [list(r) for r in rows]
    if tokens is not None:
        arrangement["tokens"] = list(tokens)
    return h.start(GAME, players, {"first_seat": first}, arrangement=arrangement)


def kinds(events):
    return [next(iter(e.public)) for e in events]


def all_pass(state, rng):
    """Everyone passes: the auctioneer takes the card for free."""
    events, turn = [], state["turn"]
    while state["phase"] == "auction" and state["turn"] == turn:
        events += h.play(GAME, state, state["bidder"], PASS, rng)
    return events


def give(state, rng):
    """The auctioneer takes the card for free, then skips any exchange."""
    events = all_pass(state, rng)
    if state["phase"] == "exchange":
        events += h.play(GAME, state, state["auctioneer"], SKIP, rng)
    return events


def take(row, *cards):
    """Adds cards one by one with the pure row rules."""
    for card in cards:
        row, _ = add_card(row, card)
    return row


# ---- the deck and options -------------------------------------------------------

def test_default_deck_is_the_pages_forty_cards():
    assert Counter(DECK) == {
        "+1": 4, "+2": 4, "+3": 4, "+4": 3, "+5": 3, "-1": 3, "-2": 3, "-3": 2,
        "whatever": 5, "trash": 3, "copy": 3, "upset": 3}


def test_setup_shuffles_the_deck_and_deals_six_tokens():
    state, _ = h.start(GAME, 3, seed="a")
    assert sorted([state["drawn"], *state["deck"]]) == sorted(DECK)
    assert state["tokens"] == [6, 6, 6] and state["middle"] == 0
    other, _ = h.start(GAME, 3, seed="b")
    assert [state["drawn"], *state["deck"]] != [other["drawn"], *other["deck"]]


def test_first_seat_option_and_random_default():
    state, _ = h.start(GAME, 5, {"first_seat": 3})
    assert state["auctioneer"] == 3 and GAME.to_act(state) == [3]
    drawn = {h.start(GAME, 5, seed=f"s{i}")[0]["auctioneer"] for i in range(40)}
    assert drawn == set(range(5))
    assert GAME.view(state, None)["options"] == {"first_seat": 3}
    with pytest.raises(OptionError):
        GAME.resolve_options(4, {"first_seat": 4})
    with pytest.raises(OptionError):
        GAME.resolve_options(7, {})
    with pytest.raises(OptionError):
        GAME.resolve_options(1, {})


def test_opening_event_shows_the_card_to_the_auctioneer_only():
    state, _ = new(3, deck=["+4", "+1"], first=1)
    [event] = GAME.opening_events(state)
    assert event.public == {"card_drawn": {"turn": 1, "auctioneer": 1, "deck_size": 1}}
    assert event.seen_by(1)["card_drawn"]["card"] == {
        "kind": "point", "value": 4, "is_copy": False, "pending": False}
    assert event.seen_by(0) == event.public and event.seen_by(None) == event.public
    assert GAME.view(state, 1)["drawn_card"]["value"] == 4
    assert GAME.view(state, 0)["drawn_card"] is None
    assert GAME.view(state, None)["drawn_card"] is None


# ---- the row: checked examples of the page ---------------------------------------

def test_example_upset_negates_everything_to_its_left():
    row = take(["+3", "+2"], "upset")
    assert row == ["+3", "+2", "upset"] and row_total(row) == -5
    row = take(row, "+4")
    assert row == ["+3", "+2", "upset", "+4"] and row_total(row) == -1


def test_example_upset_on_an_empty_row_waits_for_a_point_card():
    row, effects = add_card([], "upset")
    assert row == ["upset"] and effects == []
    row, effects = add_card(row, "+4")
    assert row == ["+4", "upset"] and row_total(row) == -4
    assert effects == [{"kind": "moved", "position": 1, "cards": ["+4"]}]


def test_example_trash_on_an_empty_row_waits_then_takes_the_point_card():
    row = take([], "trash")
    assert row == ["trash"]
    row, effects = add_card(row, "+5")
    assert row == []
    assert effects == [{"kind": "moved", "position": 1, "cards": ["+5"]},
                       {"kind": "trashed", "position": 1, "cards": ["+5", "trash"]}]


def test_example_copy_wins_with_twelve():
    state, rng = new(2, deck=["copy", "+1"], rows=[["+2", "+5"], []])
    events = all_pass(state, rng)
    assert state["rows"][0] == ["+2", "+5", "copy:+5"]
    assert row_total(state["rows"][0]) == 12
    assert kinds(events)[-1] == "game_ended"
    assert events[-1].public["game_ended"] == {"reason": "points", "winners": [0],
                                                "totals": [12, 0]}
    outcome = GAME.outcome(state)
    assert outcome.scores == [12, 0] and outcome.winners == [0]
    assert GAME.to_act(state) == [] and GAME.legal(state, 0) == []
    h.rejected(GAME, state, 0, PASS, rng, "GAME_OVER")


def test_example_whatever_clears_all_but_whatevers():
    row, effects = add_card(["whatever", "+4", "-1"], "whatever")
    assert row == ["whatever", "whatever"]
    assert effects == [{"kind": "cleared", "position": 3, "cards": ["+4", "-1"]}]


def test_example_copy_of_a_whatever_is_a_whatever():
    row, effects = add_card(["whatever"], "copy")
    assert row == ["whatever", "copy:whatever"] and whatever_count(row) == 2
    assert [e["kind"] for e in effects] == ["copied", "cleared"]


def test_example_two_waiting_copies_become_the_point_card():
    row = take([], "copy", "copy")
    assert row == ["copy", "copy"]
    row, effects = add_card(row, "+3")
    assert row == ["+3", "copy:+3", "copy:+3"] and row_total(row) == 9
    assert [e["kind"] for e in effects] == ["moved", "copied", "copied"]


def test_example_trash_discards_its_left_neighbour_even_a_whatever():
    assert take(["+4"], "trash") == []
    assert take(["whatever"], "trash") == []


def test_example_exchange_then_settle():
    # Seat 0 auctions a -1 that seat 1 wins, then discards its +2 for 2 tokens.
    state, rng = new(2, deck=["-1", "+1"], rows=[["+2", "upset", "+3"], []], middle=2)
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(1), rng)
    assert state["phase"] == "exchange" and GAME.to_act(state) == [0]
    assert GAME.legal(state, 0) == [exchange(0), SKIP]  # the middle holds 2, not 3
    events = h.play(GAME, state, 0, exchange(0), rng)
    assert state["rows"][0] == ["+3", "upset"] and row_total(state["rows"][0]) == -3
    assert state["tokens"] == [6 + 1 + 2, 5] and state["middle"] == 0
    assert kinds(events)[:2] == ["exchanged", "row_changed"]
    assert events[0].public["exchanged"]["tokens"] == 2
    assert events[1].public["row_changed"]["effects"][0]["kind"] == "moved"
    assert state["discarded"] == ["+2"]


def test_example_auction_four_seats():
    state, rng = new(4, deck=["+2", "+1"])
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(2), rng)
    h.play(GAME, state, 2, bid(3), rng)
    h.play(GAME, state, 3, PASS, rng)
    assert state["tokens"] == [6, 4, 3, 6] and state["bids"] == [0, 2, 3, 0]
    events = h.play(GAME, state, 1, PASS, rng)
    assert kinds(events)[:3] == ["passed", "card_won", "row_changed"]
    assert events[0].public == {"passed": {"seat": 1, "returned": 2}}
    assert events[1].public["card_won"] == {
        "seat": 2, "card": {"kind": "point", "value": 2, "is_copy": False, "pending": False},
        "price": 3, "free": False, "paid_to": 0, "to_middle": False}
    assert state["tokens"] == [9, 6, 3, 6] and state["middle"] == 0
    assert state["rows"][2] == ["+2"]


def test_example_auctioneer_wins_its_own_auction_and_pays_the_middle():
    state, rng = new(3, deck=["+2", "+1"])
    h.play(GAME, state, 0, bid(1), rng)
    h.play(GAME, state, 1, PASS, rng)
    events = h.play(GAME, state, 2, PASS, rng)
    card_won = events[1].public["card_won"]
    assert card_won["seat"] == 0 and card_won["to_middle"] and card_won["paid_to"] is None
    assert state["tokens"] == [5, 6, 6] and state["middle"] == 1
    assert state["rows"][0] == ["+2"]


# ---- the auction ------------------------------------------------------------------

def test_nobody_bids_the_auctioneer_takes_the_card_free_and_everyone_sees_it():
    state, rng = new(3, deck=["-2", "+1"], first=2)
    events = all_pass(state, rng)
    assert [e.public["passed"]["seat"] for e in events[:3]] == [2, 0, 1]
    card_won = events[3].public["card_won"]
    assert card_won["free"] and card_won["price"] == 0 and card_won["seat"] == 2
    assert card_won["card"]["value"] == -2
    assert state["rows"][2] == ["-2"] and state["tokens"] == [6, 6, 6]


def test_bid_above_ones_tokens_is_refused():
    state, rng = new(3, tokens=[6, 2, 6])
    h.play(GAME, state, 0, PASS, rng)
    error = h.rejected(GAME, state, 1, bid(3), rng, "NOT_ENOUGH_TOKENS")
    assert error.details["owned"] == 2
    assert GAME.legal(state, 1) == [bid(1), bid(2), PASS]


def test_bid_not_higher_than_the_high_bid_is_refused():
    state, rng = new(3)
    h.play(GAME, state, 0, bid(3), rng)
    h.rejected(GAME, state, 1, bid(3), rng, "BID_TOO_LOW")
    h.rejected(GAME, state, 1, bid(2), rng, "BID_TOO_LOW")
    h.rejected(GAME, state, 1, bid(0), rng, "BID_TOO_LOW")
    h.rejected(GAME, state, 1, bid(-4), rng, "BID_TOO_LOW")
    assert GAME.legal(state, 1) == [bid(4), bid(5), bid(6), PASS]


def test_first_bid_must_be_at_least_one():
    state, rng = new(2)
    h.rejected(GAME, state, 0, bid(0), rng, "BID_TOO_LOW")


def test_a_bid_names_the_total_and_may_use_the_seats_own_bid_tokens():
    state, rng = new(2, tokens=[4, 6])
    h.play(GAME, state, 0, bid(3), rng)
    h.play(GAME, state, 1, bid(4), rng)
    assert state["tokens"] == [1, 2]
    assert GAME.legal(state, 0) == [PASS]  # owns 1 + 3 = 4, cannot beat 4
    h.rejected(GAME, state, 0, bid(5), rng, "NOT_ENOUGH_TOKENS")
    state, rng = new(2, tokens=[5, 6])
    h.play(GAME, state, 0, bid(3), rng)
    h.play(GAME, state, 1, bid(4), rng)
    events = h.play(GAME, state, 0, bid(5), rng)  # 2 in hand + 3 already bid
    assert events[0].public == {"bid_made": {"seat": 0, "amount": 5, "tokens": 0}}
    assert state["tokens"] == [0, 2] and state["bids"] == [5, 4]


def test_a_seat_that_cannot_bid_must_still_pass():
    state, rng = new(2, tokens=[6, 0])
    h.play(GAME, state, 0, bid(1), rng)
    assert GAME.to_act(state) == [1] and GAME.legal(state, 1) == [PASS]
    h.play(GAME, state, 1, PASS, rng)
    assert state["rows"][0] == ["+1"] and state["middle"] == 1


def test_acting_after_passing_is_refused():
    state, rng = new(4)
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(1), rng)
    h.rejected(GAME, state, 0, bid(2), rng, "ALREADY_PASSED")
    h.rejected(GAME, state, 0, PASS, rng, "ALREADY_PASSED")
    h.play(GAME, state, 2, PASS, rng)
    h.play(GAME, state, 3, bid(2), rng)
    # seats that passed are skipped: back to seat 1, not seat 0
    assert GAME.to_act(state) == [1]
    assert GAME.legal(state, 0) == []
    h.rejected(GAME, state, 0, bid(3), rng, "ALREADY_PASSED")


def test_out_of_turn_is_refused():
    state, rng = new(3)
    h.rejected(GAME, state, 1, bid(1), rng, "NOT_YOUR_TURN")
    h.rejected(GAME, state, 9, PASS, rng, "UNKNOWN_SEAT")
    h.rejected(GAME, state, -1, PASS, rng, "UNKNOWN_SEAT")


def test_last_remaining_seat_with_no_bid_must_choose_and_its_pass_gives_the_card_free():
    state, rng = new(3, deck=["+3", "+1"])
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, PASS, rng)
    assert state["phase"] == "auction" and GAME.to_act(state) == [2]
    assert GAME.legal(state, 2)[-1] == PASS and len(GAME.legal(state, 2)) == 7
    events = h.play(GAME, state, 2, PASS, rng)
    assert events[1].public["card_won"]["seat"] == 0
    assert events[1].public["card_won"]["free"]
    assert state["rows"] == [["+3"], [], []]


def test_last_remaining_seat_with_no_bid_may_bid_and_pays_the_auctioneer():
    state, rng = new(3, deck=["+3", "+1"])
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, PASS, rng)
    events = h.play(GAME, state, 2, bid(2), rng)
    assert kinds(events)[:3] == ["bid_made", "card_won", "row_changed"]
    assert events[1].public["card_won"]["paid_to"] == 0
    assert state["tokens"] == [8, 6, 4] and state["rows"] == [[], [], ["+3"]]


def test_auction_six_seats_wraps_clockwise_past_the_last_seat_and_skips_passed_seats():
    """Auction: clockwise, past the last seat back to seat 0; seats that passed are skipped."""
    state, rng = new(6, deck=["+2", "+1"], first=4)
    for seat, action, next_up in [(4, PASS, 5), (5, bid(1), 0),  # wraps from seat 5 to seat 0
                                  (0, PASS, 1), (1, PASS, 2), (2, PASS, 3),
                                  (3, bid(2), 5),                # seat 4 passed: skipped
                                  (5, bid(3), 3)]:               # 0, 1, 2 passed: skipped
        h.play(GAME, state, seat, action, rng)
        assert GAME.to_act(state) == [next_up], (seat, action)
    h.rejected(GAME, state, 4, bid(4), rng, "ALREADY_PASSED")
    h.rejected(GAME, state, 0, PASS, rng, "ALREADY_PASSED")
    events = h.play(GAME, state, 3, PASS, rng)  # only seat 5 is left, holding the high bid
    assert kinds(events)[:3] == ["passed", "card_won", "row_changed"]
    card_won = events[1].public["card_won"]
    assert card_won["seat"] == 5 and card_won["price"] == 3 and card_won["paid_to"] == 4
    assert state["tokens"] == [6, 6, 6, 6, 9, 3] and state["middle"] == 0
    assert state["rows"][5] == ["+2"]


@pytest.mark.parametrize("players", [5, 6])
def test_last_remaining_seat_with_no_bid_must_choose_at_five_and_six_seats(players):
    """Auction decision: the last seat left, with no bid made, must still bid or pass."""
    auctioneer, last = players - 1, players - 2
    state, rng = new(players, deck=["+3", "+1"], first=auctioneer)
    for seat in [auctioneer, *range(last)]:  # seat players-1, then 0, 1, ... pass
        h.play(GAME, state, seat, PASS, rng)
    assert state["phase"] == "auction" and GAME.to_act(state) == [last]
    assert GAME.legal(state, last) == [bid(a) for a in range(1, 7)] + [PASS]
    bidding = copy.deepcopy(state)
    events = h.play(GAME, state, last, PASS, rng)
    card_won = events[1].public["card_won"]
    assert card_won["seat"] == auctioneer and card_won["free"] and card_won["price"] == 0
    assert state["rows"][auctioneer] == ["+3"] and state["tokens"] == [6] * players
    events = h.play(GAME, bidding, last, bid(2), rng)
    assert kinds(events)[:3] == ["bid_made", "card_won", "row_changed"]
    card_won = events[1].public["card_won"]
    assert card_won["seat"] == last and card_won["paid_to"] == auctioneer
    assert bidding["rows"][last] == ["+3"]
    assert bidding["tokens"][auctioneer] == 8 and bidding["tokens"][last] == 4


def test_turn_passes_clockwise_and_a_new_card_is_drawn():
    state, rng = new(3, deck=["+1", "+2", "+3"], first=2)
    events = give(state, rng)
    assert kinds(events)[-1] == "card_drawn"
    assert events[-1].public == {"card_drawn": {"turn": 2, "auctioneer": 0, "deck_size": 1}}
    assert events[-1].seen_by(0)["card_drawn"]["card"]["value"] == 2
    assert state["auctioneer"] == 0 and GAME.to_act(state) == [0]


def test_malformed_actions_are_refused():
    state, rng = new(2)
    for action in [{}, {"bid": 3}, {"bid": {}}, {"bid": {"amount": "3"}},
                   {"bid": {"amount": True}}, {"bid": {"amount": 1, "x": 1}},
                   {"pass": {"amount": 1}}, {"pass": None}, {"fold": {}},
                   {"bid": {"amount": 1}, "pass": {}}, [], None, "pass", {1: {}},
                   {"exchange": {"position": 1.5}}]:
        h.rejected(GAME, state, 0, action, rng, "MALFORMED_ACTION")


def test_actions_of_the_wrong_phase_are_refused():
    state, rng = new(2, rows=[["+1"], []], middle=3)
    h.rejected(GAME, state, 0, SKIP, rng, "WRONG_PHASE")
    h.rejected(GAME, state, 0, exchange(0), rng, "WRONG_PHASE")
    all_pass(state, rng)
    assert state["phase"] == "exchange"
    h.rejected(GAME, state, 0, bid(1), rng, "WRONG_PHASE")
    h.rejected(GAME, state, 0, PASS, rng, "WRONG_PHASE")
    h.rejected(GAME, state, 1, SKIP, rng, "NOT_YOUR_TURN")


# ---- the row through the engine and the rest of the row rules ---------------------

def test_trash_waits_on_an_empty_row_in_a_game():
    state, rng = new(2, deck=["trash", "+2", "+5", "+1"])
    give(state, rng)            # seat 0 takes the Trash
    assert state["rows"][0] == ["trash"]
    assert GAME.view(state, 1)["seats"][0]["row"][0]["pending"]
    give(state, rng)            # seat 1 takes the +2
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, PASS, rng)  # seat 0 takes the +5 for free
    assert state["rows"][0] == []
    assert state["discarded"] == ["+5", "trash"]


def test_copy_of_a_copy():
    row = take(["+2"], "copy")
    assert row == ["+2", "copy:+2"]
    row, effects = add_card(row, "copy")
    assert row == ["+2", "copy:+2", "copy:+2"] and row_total(row) == 6
    assert effects == [{"kind": "copied", "position": 2, "cards": ["copy:+2"]}]
    # a Trash takes the last Copy, the others stay what they became
    assert take(row, "trash") == ["+2", "copy:+2"]


def test_copy_keeps_what_it_became_when_its_original_leaves():
    state, rng = new(2, deck=["-1"], rows=[["+3", "copy:+3", "+1"], []], middle=0,
                     tokens=[6, 6])
    give(state, rng)
    assert state["rows"][0] == ["+3", "copy:+3", "+1", "-1"]
    state, rng = new(2, deck=["-1", "+1"], rows=[["+3", "copy:+3"], []], tokens=[6, 6],
                     middle=3)
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(1), rng)
    h.play(GAME, state, 0, exchange(0), rng)  # discard the original +3
    assert state["rows"][0] == ["copy:+3"] and row_total(state["rows"][0]) == 3
    assert state["tokens"][0] == 6 + 1 + 3


def test_copy_of_an_upset():
    row, effects = add_card(["+3", "upset"], "copy")
    assert row == ["+3", "upset", "copy:upset"] and row_total(row) == 3
    assert effects == [{"kind": "copied", "position": 2, "cards": ["copy:upset"]}]
    # a Copy of a waiting Upset waits in front with it
    row = take([], "upset", "copy")
    assert row == ["upset", "copy:upset"] and row_total(row) == 0
    assert take(row, "+4") == ["+4", "upset", "copy:upset"]


def test_a_lone_copied_upset_at_the_front_counts_as_an_upset_for_settling():
    """Copy counts as what it became for settling: a point card moves in front of it."""
    # Arranged: the Copy's original Upset has left (play cannot get here: only point
    # cards are exchanged, and a Trash can only reach the Upset through the Copy).
    state, rng = new(2, deck=["+1", "+4", "+3"], rows=[["+2", "copy:upset"], []], middle=2)
    assert row_total(state["rows"][0]) == -2
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(1), rng)        # seat 1 takes the +1
    h.play(GAME, state, 0, exchange(0), rng)   # seat 0 discards the +2 in front
    assert state["rows"][0] == ["copy:upset"] and row_total(state["rows"][0]) == 0
    assert GAME.view(state, None)["seats"][0]["row"] == [
        {"kind": "upset", "value": 0, "is_copy": True, "pending": True}]
    h.play(GAME, state, 1, PASS, rng)
    events = h.play(GAME, state, 0, bid(1), rng)  # seat 0 wins the +4
    row_changed = events[kinds(events).index("row_changed")].public["row_changed"]
    assert state["rows"][0] == ["+4", "copy:upset"] and row_changed["total"] == -4
    assert [e["kind"] for e in row_changed["effects"]] == ["moved"]
    assert [c["pending"] for c in row_changed["row"]] == [False, False]


def test_copy_of_a_waiting_trash_trashes_it():
    row, effects = add_card(["trash"], "copy")
    assert row == []
    assert [e["kind"] for e in effects] == ["copied", "trashed"]
    assert effects[1]["cards"] == ["trash", "copy:trash"]
    assert [physical(c) for c in effects[1]["cards"]] == ["trash", "copy"]


def test_trash_next_to_a_whatever():
    assert take(["+2", "whatever"], "trash") == ["+2"]
    assert take(["whatever", "whatever"], "trash") == ["whatever"]
    assert take(["whatever"], "trash", "+3") == ["+3"]
    # a waiting Trash is cleared by a Whatever
    row, effects = add_card(["trash"], "whatever")
    assert row == ["whatever"]
    assert effects == [{"kind": "cleared", "position": 1, "cards": ["trash"]}]
    # after a Whatever a Trash is not pending: it takes the Whatever at once
    state, rng = new(2, deck=["trash", "+1"], rows=[["whatever"], []])
    events = give(state, rng)
    row_changed = events[kinds(events).index("row_changed")].public["row_changed"]
    assert row_changed["row"] == [] and row_changed["whatevers"] == 0
    assert state["discarded"] == ["whatever", "trash"]


def test_two_upsets():
    assert row_total(take(["+3"], "upset", "upset")) == 3
    assert row_total(take(["+3"], "upset", "+2", "upset")) == 1
    row = take([], "upset", "upset")
    assert row == ["upset", "upset"] and row_total(row) == 0
    row = take(row, "-2")
    assert row == ["-2", "upset", "upset"] and row_total(row) == -2


def test_point_card_moves_in_front_of_a_waiting_copy_and_trash():
    row = take([], "copy", "trash")
    assert row == ["copy", "trash"]
    row, effects = add_card(row, "+3")
    assert row == ["+3"]
    assert [e["kind"] for e in effects] == ["moved", "copied", "trashed"]


def test_trash_takes_a_pending_upset():
    """Trash: [Upset] gains Trash -> [] (a pending Upset is taken like any card)."""
    state, rng = new(2, deck=["trash", "+1"], rows=[["upset"], []])
    assert GAME.view(state, None)["seats"][0]["row"][0]["pending"]
    events = give(state, rng)
    row_changed = events[kinds(events).index("row_changed")].public["row_changed"]
    assert state["rows"][0] == [] and row_changed["row"] == []
    assert [e["kind"] for e in row_changed["effects"]] == ["trashed"]
    assert state["discarded"] == ["upset", "trash"]


def test_trash_waits_behind_a_pending_copy_then_takes_what_the_copy_became():
    """Settling rule 1: [Copy] gains Trash -> the Trash waits behind the waiting Copy."""
    state, rng = new(2, deck=["trash", "+1", "+3", "+2"], rows=[["copy"], []])
    give(state, rng)                   # seat 0 takes the Trash
    assert state["rows"][0] == ["copy", "trash"]
    assert [c["pending"] for c in GAME.view(state, None)["seats"][0]["row"]] == [True, True]
    give(state, rng)                   # seat 1 takes the +1
    events = give(state, rng)          # seat 0 takes the +3
    row_changed = events[kinds(events).index("row_changed")].public["row_changed"]
    assert [e["kind"] for e in row_changed["effects"]] == ["moved", "copied", "trashed"]
    assert state["rows"][0] == ["+3"] and row_changed["total"] == 3
    assert state["discarded"] == ["copy", "trash"]


def test_upset_after_a_whatever_is_not_pending():
    row = take(["whatever"], "upset")
    assert row == ["whatever", "upset"]
    assert row_total(take(row, "+4")) == 4


def test_three_whatevers_win_at_once():
    state, rng = new(3, deck=["copy", "+1"], rows=[[], ["whatever", "whatever"], []])
    h.play(GAME, state, 0, PASS, rng)
    h.play(GAME, state, 1, bid(1), rng)
    events = h.play(GAME, state, 2, PASS, rng)
    assert events[-1].public["game_ended"]["reason"] == "whatevers"
    assert GAME.outcome(state).winners == [1]
    assert GAME.view(state, None)["end_reason"] == "whatevers"


def test_instant_win_can_go_to_a_seat_without_the_top_score():
    state, rng = new(2, deck=["whatever", "+1"],
                     rows=[["+4", "+5"], ["whatever", "whatever", "-1"]], first=1)
    h.play(GAME, state, 1, PASS, rng)
    h.play(GAME, state, 0, PASS, rng)
    outcome = GAME.outcome(state)
    assert outcome.scores == [9, 0] and outcome.winners == [1]


def test_negative_totals_are_allowed():
    state, rng = new(2, deck=["-3", "-2", "+1"])
    give(state, rng)
    give(state, rng)
    assert [row_total(r) for r in state["rows"]] == [-3, -2]


# ---- the exchange ----------------------------------------------------------------

def test_exchange_of_a_negative_card_costs_tokens_paid_to_the_middle():
    state, rng = new(2, deck=["+1", "+1"], rows=[["-2", "+4"], []])
    all_pass(state, rng)
    h.play(GAME, state, 0, exchange(0), rng)
    assert state["rows"][0] == ["+4", "+1"] and state["tokens"] == [4, 6]
    assert state["middle"] == 2


def test_exchange_refused_for_want_of_tokens_either_way():
    state, rng = new(2, deck=["+1", "+1"], rows=[["-3", "+4"], []], tokens=[2, 6], middle=3)
    all_pass(state, rng)
    assert GAME.legal(state, 0) == [exchange(2), SKIP]  # only the +1 (middle holds 3)
    error = h.rejected(GAME, state, 0, exchange(0), rng, "NOT_ENOUGH_TOKENS")
    assert error.details["cost"] == 3
    h.rejected(GAME, state, 0, exchange(1), rng, "NOT_ENOUGH_IN_MIDDLE")
    h.rejected(GAME, state, 0, exchange(3), rng, "NO_SUCH_CARD")
    h.rejected(GAME, state, 0, exchange(-1), rng, "NO_SUCH_CARD")


def test_exchange_only_of_point_cards_copied_ones_included():
    state, rng = new(2, deck=["+1", "+1"], rows=[["whatever", "+1", "copy:+1", "upset"], []],
                     middle=5)
    all_pass(state, rng)
    assert state["rows"][0] == ["whatever", "+1", "copy:+1", "upset", "+1"]
    assert GAME.legal(state, 0) == [exchange(1), exchange(2), exchange(4), SKIP]
    h.rejected(GAME, state, 0, exchange(0), rng, "NOT_A_POINT_CARD")
    h.rejected(GAME, state, 0, exchange(3), rng, "NOT_A_POINT_CARD")
    h.play(GAME, state, 0, exchange(2), rng)
    assert state["discarded"] == ["copy"]


def test_no_possible_exchange_skips_the_step():
    state, rng = new(2, deck=["+2", "+1"], rows=[["-1"], []], tokens=[0, 6], middle=1)
    events = all_pass(state, rng)
    assert state["phase"] == "auction" and state["auctioneer"] == 1
    assert "exchange_skipped" not in kinds(events)


def test_skipping_the_exchange():
    state, rng = new(2, deck=["+2", "+1"], middle=2)
    all_pass(state, rng)
    assert state["phase"] == "exchange" and GAME.legal(state, 0) == [exchange(0), SKIP]
    events = h.play(GAME, state, 0, SKIP, rng)
    assert kinds(events) == ["exchange_skipped", "card_drawn"]
    assert state["rows"][0] == ["+2"] and state["auctioneer"] == 1


def test_exchange_can_win():
    state, rng = new(2, deck=["+1", "+1"], rows=[["+5", "+4", "-1"], []])
    all_pass(state, rng)
    assert row_total(state["rows"][0]) == 9
    events = h.play(GAME, state, 0, exchange(2), rng)
    assert events[-1].public["game_ended"] == {"reason": "points", "winners": [0],
                                                "totals": [10, 0]}


def test_exchange_on_the_last_turn_reaching_ten_ends_for_points():
    """Exchange then win check: on the last turn an exchange reaching 10 wins on points."""
    state, rng = new(2, deck=["+1"], rows=[["-1", "+5", "+4"], ["+5"]])
    all_pass(state, rng)
    assert state["phase"] == "exchange" and GAME.view(state, None)["deck_size"] == 0
    events = h.play(GAME, state, 0, exchange(0), rng)
    assert kinds(events) == ["exchanged", "row_changed", "game_ended"]
    assert events[-1].public["game_ended"] == {"reason": "points", "winners": [0],
                                                "totals": [10, 5]}
    assert GAME.view(state, None)["end_reason"] == "points"


def test_exchange_settles_the_row_again():
    state, rng = new(2, deck=["+1", "+1"], rows=[["+2", "upset", "-1"], []], middle=2)
    all_pass(state, rng)
    h.play(GAME, state, 0, exchange(0), rng)  # [upset, -1, +1] -> [-1, upset, +1]
    assert state["rows"][0] == ["-1", "upset", "+1"] and row_total(state["rows"][0]) == 2


# ---- redistribution ----------------------------------------------------------------

def test_redistribution_after_an_exchange_puts_everything_in_the_middle():
    state, rng = new(2, deck=["+1", "+1"], rows=[["-3"], []], tokens=[3, 0], middle=9)
    all_pass(state, rng)
    events = h.play(GAME, state, 0, exchange(0), rng)
    assert "tokens_redistributed" in kinds(events)
    assert events[kinds(events).index("tokens_redistributed")].public == {
        "tokens_redistributed": {"each": 6, "middle": 0}}
    assert state["tokens"] == [6, 6] and state["middle"] == 0


def test_redistribution_when_one_seat_owns_every_token():
    state, rng = new(3, deck=["+1", "+1"], rows=[["+2"], [], []], tokens=[16, 0, 0], middle=2)
    all_pass(state, rng)
    events = h.play(GAME, state, 0, exchange(0), rng)
    assert "tokens_redistributed" in kinds(events)
    assert state["tokens"] == [6, 6, 6] and state["middle"] == 0


def test_redistribution_after_an_auction_without_exchange():
    state, rng = new(2, deck=["+1", "+1"], tokens=[6, 6])
    h.play(GAME, state, 0, PASS, rng)
    events = h.play(GAME, state, 1, bid(6), rng)  # seat 0 is paid 6: owns all 12
    assert "tokens_redistributed" in kinds(events)
    assert state["tokens"] == [6, 6]


def test_no_redistribution_while_tokens_are_spread():
    state, rng = new(3, deck=["+1", "+1"], tokens=[0, 0, 9], middle=9)
    events = give(state, rng)
    assert "tokens_redistributed" not in kinds(events)
    assert state["tokens"] == [0, 0, 9]


def test_redistribution_when_the_auctioneer_pays_its_own_bid_into_the_middle():
    """Redistribution: all tokens in the middle (the auctioneer paid its own bid there)."""
    state, rng = new(3, deck=["+1", "+1"], tokens=[1, 0, 0], middle=17)
    h.play(GAME, state, 0, bid(1), rng)
    h.play(GAME, state, 1, PASS, rng)
    events = h.play(GAME, state, 2, PASS, rng)
    assert events[1].public["card_won"]["to_middle"]
    assert state["tokens"] == [0, 0, 0] and state["middle"] == 18
    assert state["phase"] == "exchange" and "tokens_redistributed" not in kinds(events)
    events = h.play(GAME, state, 0, SKIP, rng)
    assert kinds(events) == ["exchange_skipped", "tokens_redistributed", "card_drawn"]
    assert events[1].public == {"tokens_redistributed": {"each": 6, "middle": 0}}
    assert state["tokens"] == [6, 6, 6] and state["middle"] == 0


# ---- the empty deck ----------------------------------------------------------------

def test_empty_deck_ends_the_game_highest_total_wins():
    state, rng = new(3, deck=["+2"], rows=[[], ["+3"], ["+1"]])
    events = give(state, rng)
    assert kinds(events)[-1] == "game_ended"
    assert events[-1].public["game_ended"] == {"reason": "deck_empty", "winners": [1],
                                                "totals": [2, 3, 1]}
    assert GAME.outcome(state).scores == [2, 3, 1]
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["winners"] == [1] and view["deck_size"] == 0
    assert view["turn"] == 1 and view["auctioneer"] == 0, "the last turn played, not one more"


def test_exchange_is_still_offered_on_the_last_turn_and_the_end_comes_after_it():
    """Draw on an empty deck ends the game: after the last turn's exchange, not before it."""
    state, rng = new(2, deck=["+1"], rows=[["-2", "+4"], ["+4"]])
    all_pass(state, rng)               # seat 0 takes the last card: totals 3 and 4
    assert state["phase"] == "exchange" and GAME.outcome(state) is None
    assert GAME.view(state, None)["deck_size"] == 0
    assert GAME.legal(state, 0) == [exchange(0), SKIP]
    events = h.play(GAME, state, 0, exchange(0), rng)  # discard the -2: total 5
    assert kinds(events) == ["exchanged", "row_changed", "game_ended"]
    assert events[-1].public["game_ended"] == {"reason": "deck_empty", "winners": [0],
                                                "totals": [5, 4]}
    assert state["tokens"] == [4, 6] and state["middle"] == 2


def test_empty_deck_tie_broken_by_most_whatevers():
    state, rng = new(3, deck=["+1"], rows=[["whatever", "+3"], ["+3"], ["+3"]], first=1)
    give(state, rng)  # totals 3, 4, 3
    assert GAME.outcome(state).winners == [1]
    state, rng = new(3, deck=["+1"], rows=[["whatever", "+4"], ["+3"], ["+4"]], first=1)
    give(state, rng)  # totals 4, 4, 4: seat 0 has a Whatever
    assert GAME.outcome(state).winners == [0]


def test_empty_deck_still_tied_is_shared():
    state, rng = new(3, deck=["+1"], rows=[["whatever", "+4"], ["+3"], ["whatever", "+4"]],
                     first=1)
    give(state, rng)
    assert GAME.outcome(state).scores == [4, 4, 4]
    assert GAME.outcome(state).winners == [0, 2]


def test_empty_deck_tie_break_with_negative_totals():
    """Empty deck decision: highest total (-2 beats -3), then most Whatevers, else shared."""
    state, rng = new(3, deck=["+1"], rows=[["-2"], ["whatever", "-2"],
                                           ["whatever", "whatever", "-4"]], first=2)
    give(state, rng)                   # seat 2 takes the +1: totals -2, -2, -3
    assert GAME.outcome(state).scores == [-2, -2, -3]
    assert GAME.outcome(state).winners == [1]
    state, rng = new(3, deck=["+1"], rows=[["whatever", "-2"], ["whatever", "-2"], ["-4"]],
                     first=2)
    give(state, rng)                   # totals -2, -2, -3: still tied
    assert GAME.outcome(state).scores == [-2, -2, -3]
    assert GAME.outcome(state).winners == [0, 1]


def test_an_empty_deck_at_the_start_ends_at_once():
    state, _ = new(2, deck=[])
    assert GAME.outcome(state).winners == [0, 1]
    assert kinds(GAME.opening_events(state)) == ["game_ended"]


# ---- wire shapes ---------------------------------------------------------------------

def test_legal_actions_survive_the_wire():
    state, rng = new(2, deck=["+2", "+1"], middle=2)
    h.assert_wire(GAME, state, GAME.opening_events(state))
    events = all_pass(state, rng)
    h.assert_wire(GAME, state, events)
    assert wire.to_plain(h.to_message("whatever", "action", PASS)) == PASS
    assert wire.to_plain(h.to_message("whatever", "action", exchange(0))) == exchange(0)
    view = wire.to_plain(h.to_message("whatever", "view", GAME.view(state, 1)))
    assert "drawn_card" not in view and view["phase"] == "exchange"


# ---- properties ---------------------------------------------------------------------

CARDS = ["+1", "+2", "+3", "+5", "-1", "-3", "whatever", "trash", "copy", "upset"]


def recount(row):
    """The page's total, written independently: each Upset negates the sum of
    everything to its left, as it stands."""
    total = 0
    for card in row:
        kind = card.split(":")[-1]
        if kind == "upset":
            total = -total
        elif kind not in ("whatever", "trash", "copy"):
            total += int(kind)
    return total


def assert_settled(row):
    """No Trash or Copy that could act is left waiting; no point card is left
    behind a waiting card at the front; every card is a real card."""
    for i, card in enumerate(row):
        assert not can_act(row, i), f"{card} at {i} could act in {row}"
        assert card != "copy:copy"
    if row and acts_as(row[0]) in ("trash", "copy", "upset"):
        assert not any(acts_as(c)[0] in "+-" for c in row[1:]), row
    assert settle(row) == (row, [])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), max_size=14))
@example(["copy"] * 6 + ["+1"])  # one card can set off an effect per card in the row
def test_rows_settle_and_their_totals_recount(cards):
    row: list[str] = []
    for card in cards:
        before = Counter([physical(c) for c in row] + [card])
        row, effects = add_card(row, card)
        assert len(effects) <= 3 * sum(before.values())  # a few per card in the row
        assert_settled(row)
        assert row_total(row) == recount(row)
        gone = [physical(c) for e in effects if e["kind"] in ("cleared", "trashed")
                for c in e["cards"]]
        assert Counter([physical(c) for c in row]) + Counter(gone) == before
        assert whatever_count(row) == sum(1 for c in row if c.endswith("whatever"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), max_size=12))
def test_settle_any_row_ends_settled(cards):
    row, effects = settle(cards)
    assert len(effects) <= 3 * len(cards) + 1
    assert_settled(row)


def check_invariants(state, seat, action, events):
    n = state["players"]
    assert sum(state["tokens"]) + state["middle"] + sum(state["bids"]) == 6 * n
    assert min(state["tokens"]) >= 0 and state["middle"] >= 0
    cards = [*state["deck"], *([state["drawn"]] if state["drawn"] else []),
             *(physical(c) for row in state["rows"] for c in row), *state["discarded"]]
    assert Counter(cards) == Counter(DECK)
    for row in state["rows"]:
        assert_settled(row)
        assert row_total(row) == recount(row)
    over = GAME.outcome(state) is not None
    if not over:
        assert all(row_total(r) < 10 and whatever_count(r) < 3 for r in state["rows"])
        assert (state["drawn"] is not None) == (state["phase"] == "auction")
    if state["phase"] == "auction":
        hb = state["high_bidder"]
        assert hb is None or not state["passed"][hb]
        assert all(b == 0 for b, out in zip(state["bids"], state["passed"]) if out)
        assert state["bidder"] != hb
        assert not state["passed"][state["bidder"]]
    else:
        assert state["bids"] == [0] * n and state["high_bidder"] is None
    for s in range(n):
        view = GAME.view(state, s)
        shows = view["drawn_card"] is not None
        assert shows == (s == state["auctioneer"] and state["drawn"] is not None)
        for event in events:
            seen = event.seen_by(s)
            if "card_drawn" in seen:
                assert ("card" in seen["card_drawn"]) == (s == seen["card_drawn"]["auctioneer"])
    assert GAME.view(state, None)["drawn_card"] is None
    assert all("card" not in e.public.get("card_drawn", {}) for e in events)
    if over or state["turn"] % 3 == 0:  # a sample of the steps, for speed
        h.assert_wire(GAME, state, events)
        h.assert_json_state(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), first=st.one_of(st.none(), st.integers(0, 5)))
def test_random_playouts_end_and_keep_the_invariants(players, seed, first):
    options = {} if first is None else {"first_seat": first % players}
    state = h.random_playout(GAME, players, options, seed=f"w{seed}",
                             each_step=check_invariants, max_steps=5000)
    outcome = GAME.outcome(state)
    assert outcome.scores == [row_total(r) for r in state["rows"]]
    assert outcome.winners
    if state["reason"] == "deck_empty":
        assert not state["deck"]
        best = max(outcome.scores)
        assert all(outcome.scores[w] == best for w in outcome.winners)
    else:
        [winner] = outcome.winners
        row = state["rows"][winner]
        assert row_total(row) >= 10 or whatever_count(row) >= 3


def _counterfactual(state, viewer, shuffle):
    """`state` with what `viewer` cannot see changed: the deck order, and the
    drawn card unless the viewer is the auctioneer."""
    other = copy.deepcopy(state)
    shuffle.shuffle(other["deck"])
    swapped = False
    if state["drawn"] is not None and viewer != state["auctioneer"]:
        different = [i for i, c in enumerate(other["deck"]) if c != other["drawn"]]
        if different:
            i = shuffle.choice(different)
            other["drawn"], other["deck"][i] = other["deck"][i], other["drawn"]
            swapped = True
    return other, swapped


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_views_and_events_hide_the_drawn_card_and_the_deck(seed, players):
    chooser = random.Random(seed)

    def each_step(state, seat, action, events):
        if GAME.outcome(state) is not None or chooser.random() > 0.3:
            return
        for viewer in [None, *range(players)]:
            other, swapped = _counterfactual(state, viewer, chooser)
            h.assert_same_for(GAME, viewer, state, other)
            # one action further, the same action in both worlds
            actor = GAME.to_act(state)[0]
            action = chooser.choice(GAME.legal(state, actor))
            a, b = copy.deepcopy(state), copy.deepcopy(other)
            events_a = GAME.play(a, actor, action, Rng.from_seed("x"))
            events_b = GAME.play(b, actor, action, Rng.from_seed("x"))
            revealed = swapped and "card_won" in kinds(events_a)
            drew_own = "card_drawn" in kinds(events_a) and a["auctioneer"] == viewer
            if not revealed and not drew_own:
                h.assert_same_for(GAME, viewer, a, b, events_a, events_b)

    h.random_playout(GAME, players, seed=f"secret{seed}", each_step=each_step)


# ---- review: pins, brute force, robustness, secrecy of errors, proto ------------------

def test_example_upset_pending_in_a_game_then_a_point_card_moves_in_front():
    state, rng = new(2, deck=["upset", "+2", "+4", "+1"])
    give(state, rng)                     # seat 0 takes the Upset into an empty row
    upset = GAME.view(state, None)["seats"][0]["row"]
    assert upset == [{"kind": "upset", "value": 0, "is_copy": False, "pending": True}]
    assert GAME.view(state, None)["seats"][0]["total"] == 0
    give(state, rng)                     # seat 1 takes the +2
    events = give(state, rng)            # seat 0 takes the +4
    row_changed = events[kinds(events).index("row_changed")].public["row_changed"]
    assert state["rows"][0] == ["+4", "upset"]
    assert row_changed["total"] == -4
    assert [c["pending"] for c in row_changed["row"]] == [False, False]
    assert row_changed["effects"] == [{"kind": "moved", "position": 1, "cards": [
        {"kind": "point", "value": 4, "is_copy": False, "pending": False}]}]


def test_an_upset_behind_a_waiting_copy_is_not_pending():
    # "an Upset with nothing to its left" waits; a waiting Copy is something.
    row = take([], "copy", "upset")
    assert row == ["copy", "upset"] and row_total(row) == 0
    state, rng = new(2, deck=["+1"], rows=[row, []])
    assert [c["pending"] for c in GAME.view(state, None)["seats"][0]["row"]] == [True, False]
    assert take(row, "+2") == ["+2", "copy:+2", "upset"]
    assert row_total(take(row, "+2")) == -4


def test_a_whatever_copied_by_a_waiting_copy_chain():
    # [] gains Copy, Whatever: the Whatever clears the waiting Copy.
    assert take([], "copy", "whatever") == ["whatever"]
    # Copy of a Copy that became a Whatever is a Whatever too.
    row = take(["whatever"], "copy", "copy")
    assert row == ["whatever", "copy:whatever", "copy:whatever"]
    assert whatever_count(row) == 3


def test_every_seat_sees_the_public_table():
    state, rng = new(3, deck=["+5", "+1"], rows=[["+2"], ["upset"], []],
                     tokens=[6, 5, 6], middle=1, first=1)
    h.play(GAME, state, 1, bid(2), rng)
    h.play(GAME, state, 2, PASS, rng)
    for viewer in [None, 0, 2]:
        view = GAME.view(state, viewer)
        assert view["drawn_card"] is None
        assert view["phase"] == "auction" and view["auctioneer"] == 1 and view["bidder"] == 0
        assert view["high_bid"] == 2 and view["high_bidder"] == 1
        assert view["middle"] == 1 and view["deck_size"] == 1 and view["turn"] == 1
        assert [(s["tokens"], s["bid"], s["passed"]) for s in view["seats"]] == [
            (6, 0, False), (3, 2, False), (6, 0, True)]
        assert [s["total"] for s in view["seats"]] == [2, 0, 0]
        assert view["seats"][0]["row"] == [
            {"kind": "point", "value": 2, "is_copy": False, "pending": False}]
    assert GAME.view(state, 1)["drawn_card"] == {
        "kind": "point", "value": 5, "is_copy": False, "pending": False}
    # once won, the card is public, in the event and in the row
    events = h.play(GAME, state, 0, PASS, rng)
    assert events[1].public["card_won"]["card"]["value"] == 5
    assert GAME.view(state, None)["seats"][1]["row"][0]["value"] == 5


def candidates(state, seat):
    """Every action worth trying for `seat`: all bid amounts around the range,
    pass, skip and every exchange position around the row."""
    n = state["players"]
    top = max(state["tokens"][s] + state["bids"][s] for s in range(n)) + 2
    longest = max(len(row) for row in state["rows"]) + 2
    return ([bid(a) for a in range(-1, top + 1)] + [PASS, SKIP]
            + [exchange(p) for p in range(-1, longest + 1)])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_legal_actions_are_exactly_the_accepted_ones_and_errors_keep_secrets(seed, players):
    chooser = random.Random(seed)

    def each_step(state, seat, action, events):
        if GAME.outcome(state) is not None or chooser.random() > 0.25:
            return
        for s in range(players):
            listed = GAME.legal(state, s)
            assert len({repr(a) for a in listed}) == len(listed), "duplicate legal actions"
            tried = {repr(a): h.attempt(GAME, state, s, a) for a in candidates(state, s)}
            accepted = [a for a in candidates(state, s) if tried[repr(a)] == "ok"]
            assert sorted(map(repr, accepted)) == sorted(map(repr, listed))
            # the same errors in a world that differs only in what seat s cannot see
            other, _ = _counterfactual(state, s, chooser)
            for a in candidates(state, s):
                assert h.attempt(GAME, other, s, a) == tried[repr(a)], a

    h.random_playout(GAME, players, seed=f"brute{seed}", each_step=each_step)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["bid", "pass", "exchange", "skip", "amount", "position", "x"])
        | st.text(max_size=3), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(action=JUNK | st.dictionaries(
    st.sampled_from(["bid", "pass", "exchange", "skip"]),
    st.dictionaries(st.sampled_from(["amount", "position", "x"]), JUNK, max_size=2),
    min_size=1, max_size=2),
    exchange_phase=st.booleans())
def test_junk_actions_raise_rules_errors_and_change_nothing(action, exchange_phase):
    state, rng = new(2, deck=["+1", "+1"], rows=[["+2", "-1"], []], middle=3)
    if exchange_phase:
        all_pass(state, rng)
        assert state["phase"] == "exchange"
    seat = GAME.to_act(state)[0]
    if action in GAME.legal(state, seat):
        return
    h.rejected(GAME, state, seat, action, rng)


def test_seats_that_are_not_plain_numbers_are_refused():
    state, rng = new(2, deck=["+1", "+2"], first=1)
    for seat in [True, 1.0, "1", None, -1, 2, 0.0, False]:
        h.rejected(GAME, state, seat, bid(1), rng)
        h.rejected(GAME, state, seat, PASS, rng)
        assert GAME.legal(state, seat) == []
    all_pass(state, rng)
    state, rng = new(2, deck=["+1", "+2"], rows=[["+2"], []], middle=3)
    all_pass(state, rng)
    assert state["phase"] == "exchange"
    for seat in [False, 0.0, "0"]:
        h.rejected(GAME, state, seat, SKIP, rng)
        assert GAME.legal(state, seat) == []


def test_proto_comments_every_message_and_field():
    import pathlib
    import re
    text = pathlib.Path(__file__).parents[2].joinpath(
        "proto/parlor/v1/whatever.proto").read_text("utf-8").splitlines()
    declaration = re.compile(r"^\s*(message \w+ \{|(optional |repeated )?[\w.]+ \w+ = \d+;)")
    missing = []
    for i, line in enumerate(text):
        if declaration.match(line) and not text[i - 1].strip().startswith("//"):
            missing.append(line.strip())
    assert not missing, f"uncommented: {missing}"
