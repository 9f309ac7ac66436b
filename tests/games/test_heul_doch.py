"""Heul doch! Mau Mau: service/games/heul_doch.md, one rule per scenario, then playouts."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service import wire
from parlor.service.games import heul_doch
from parlor.service.games.base import OptionError, RulesError
from parlor.service.games.heul_doch import GAME
from parlor.service.games.rng import Rng
from tests.games import harness

NUMBER_CARD_COUNT = 98
SPECIAL_CARD_COUNT = 12


# ---- helpers --------------------------------------------------------------------

def card(name: str) -> dict:
    """A card name ("red-5", "werewolf") as the HeulDochCard dict."""
    if "-" in name:
        colour, number = name.split("-")
        return {"colour": colour, "number": int(number)}
    return {"special": name}


def onion(name: str) -> dict:
    """An arrangement pile entry lying face down."""
    return {"card": name, "onion": True}


def up(name: str, pile: str) -> dict:
    return {"face_up": {"card": card(name), "pile": pile}}


def as_onion(name: str) -> dict:
    return {"onion": {"card": card(name)}}


def position(piles, hands, draw=(), first=0, special=False, special_pile=()):
    """A game set to an explicit position (piles bottom first)."""
    return harness.start(GAME, len(piles), {"special_cards": special, "first_seat": first},
                         arrangement={"piles": piles, "hands": hands, "draw": list(draw),
                                      "special_pile": list(special_pile)})


def faces_up(state, seat, name):
    """The piles the legal list lets `name` go face up to."""
    return [a["face_up"]["pile"] for a in GAME.legal(state, seat)
            if "face_up" in a and a["face_up"]["card"] == card(name)]


def top(state, seat):
    pile = state["piles"][seat]
    return pile[-1] if pile else None


def kinds(events):
    return [next(iter(e.public)) for e in events]


def all_cards(state) -> Counter:
    return Counter(state["draw"] + state["special_pile"]
                   + [c for hand in state["hands"] for c in hand]
                   + [e["card"] for pile in state["piles"] for e in pile])


def recount(pile) -> tuple[int, int]:
    """Score and lost points of a final pile, straight from the rules page."""
    n = sum(1 for e in pile if e["onion"])
    devalued = ({7} if n >= 7 else set()) | ({n % 7} if n % 7 else set())
    numbers = [int(e["card"].split("-")[1]) for e in pile
               if not e["onion"] and "-" in e["card"]]
    return (sum(x for x in numbers if x not in devalued), sum(x for x in numbers if x in devalued))


# ---- setup and options --------------------------------------------------------------

def test_components_are_the_rules_pages():
    # 98 number cards: 1-7 twice each in the seven named colours; 12 specials, 3 each.
    assert heul_doch.COLOURS == ("red", "orange", "yellow", "green", "blue", "purple", "black")
    numbers = Counter(heul_doch.deck(False))
    assert sum(numbers.values()) == NUMBER_CARD_COUNT
    assert numbers == Counter({f"{c}-{n}": 2 for c in heul_doch.COLOURS for n in range(1, 8)})
    specials = Counter(heul_doch.deck(True)) - numbers
    assert specials == Counter({"catapult": 3, "beach_towel": 3, "carousel": 3, "werewolf": 3})


def test_player_counts_and_options():
    for players in (2, 7):
        with pytest.raises(OptionError):
            GAME.resolve_options(players, {})
    with pytest.raises(OptionError):
        GAME.resolve_options(3, {"first_seat": 3})
    with pytest.raises(OptionError):
        GAME.resolve_options(3, {"special_cards": "yes"})
    assert GAME.resolve_options(4, {}) == {"special_cards": False, "first_seat": None}


@pytest.mark.parametrize("special", [False, True])
def test_full_deal(special):
    state, _ = harness.start(GAME, 5, {"special_cards": special})
    total = NUMBER_CARD_COUNT + (SPECIAL_CARD_COUNT if special else 0)
    assert all_cards(state) == Counter(heul_doch.deck(special))
    assert sum(all_cards(state).values()) == total
    assert [len(h) for h in state["hands"]] == [4] * 5
    assert all(len(p) == 1 and not p[0]["onion"] and "-" in p[0]["card"] for p in state["piles"])
    assert len(state["draw"]) == total - 25
    assert state["turn"] == state["first_seat"]
    harness.assert_wire(GAME, state, GAME.opening_events(state))


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_the_deal_shows_each_seat_only_its_own_hand(viewer):
    state, _ = harness.start(GAME, 3, {"special_cards": True}, seed="deal")
    other = _counterfactual(state, _hidden_slots(state, viewer), random.Random(1))
    assert other != state
    harness.assert_same_for(GAME, viewer, state, other,
                            GAME.opening_events(state), GAME.opening_events(other))


def test_deal_order_from_a_fixed_deck():
    deck = ["red-1", "red-2", "red-3",  # one face-up start card per seat, seat 0 first
            "blue-1", "blue-2", "blue-3", "blue-4",
            "green-1", "green-2", "green-3", "green-4",
            "black-1", "black-2", "black-3", "black-4",
            "purple-7"]
    state, _ = harness.start(GAME, 3, {"first_seat": 2}, arrangement={"deck": deck})
    assert [p[0]["card"] for p in state["piles"]] == ["red-1", "red-2", "red-3"]
    assert state["hands"][1] == ["green-1", "green-2", "green-3", "green-4"]
    assert state["draw"] == ["purple-7"]
    assert GAME.to_act(state) == [2]
    (dealt,) = GAME.opening_events(state)
    assert dealt.public["dealt"]["hand"] == []
    assert dealt.public["dealt"]["first_seat"] == 2
    assert dealt.public["dealt"]["draw_pile"] == 1
    assert [t["top"]["card"] for t in dealt.public["dealt"]["tops"]] == [
        card("red-1"), card("red-2"), card("red-3")]
    assert dealt.seen_by(1)["dealt"]["hand"] == [card(c) for c in state["hands"][1]]


def test_special_dealt_face_up_goes_back_and_the_pile_is_reshuffled():
    deck = ["red-1", "werewolf", "red-3", "blue-1", "blue-2", "blue-3", "blue-4",
            "green-1", "green-2", "green-3", "green-4", "black-1", "black-2", "black-3",
            "black-4", "red-2"]
    state, rng = harness.start(GAME, 3, {"special_cards": True, "first_seat": 0},
                               arrangement={"deck": deck})
    assert rng.counter > 0  # the reshuffle drew from the match RNG
    assert all(not p[0]["onion"] and "-" in p[0]["card"] for p in state["piles"])
    assert state["piles"][0][0]["card"] == "red-1"
    assert all_cards(state) == Counter(deck)


def test_first_seat_is_drawn_when_not_given():
    seen = {harness.start(GAME, 4, seed=f"s{i}")[0]["first_seat"] for i in range(40)}
    assert seen == {0, 1, 2, 3}
    state, _ = harness.start(GAME, 4, seed="same")
    again, _ = harness.start(GAME, 4, seed="same")
    assert state == again
    assert GAME.view(state, None)["options"] == {"special_cards": False,
                                                  "first_seat": state["first_seat"]}


def test_shuffle_then_deal_then_draw_the_first_seat():
    # The whole deck is shuffled with the match RNG, one face-up card per seat from
    # seat 0, four hand cards each from seat 0, and only then the first seat is drawn.
    players = 4
    state, rng = harness.start(GAME, players, seed="order")
    again = Rng.from_seed("order")
    shuffled = heul_doch.deck(False)
    again.shuffle(shuffled)
    assert [p for p in state["piles"]] == [[{"card": c, "onion": False}]
                                          for c in shuffled[:players]]
    for s in range(players):
        start = players + 4 * s
        assert state["hands"][s] == heul_doch._sorted(shuffled[start:start + 4])
    assert state["draw"] == shuffled[players + 4 * players:]
    assert state["first_seat"] == again.below(players)
    assert rng.counter == again.counter


@pytest.mark.parametrize("arrangement", [
    {"deck": ["red-1", "red-2", "red-3", "blue-1"]},                  # too short to deal
    {"piles": [[], [], []], "hands": [["red-1"] * 1 + ["red-2", "red-3", "red-4", "red-5"],
                                      [], []], "draw": []},            # five hand cards
    {"piles": [[{"onion": True}], [], []], "hands": [[], [], []], "draw": []},
    {"piles": [["red-1"], [], []], "hands": [[], []], "draw": []},     # a hand missing
    {"piles": [[], [], []], "hands": [[], [], []]},                   # no draw pile
    {"piles": "red-1", "hands": [[], [], []], "draw": []},
])
def test_malformed_arrangements_are_refused(arrangement):
    with pytest.raises(ValueError):
        harness.start(GAME, 3, {"first_seat": 0}, arrangement=arrangement)


def test_arrangement_rejects_cards_the_deck_lacks():
    with pytest.raises(ValueError):
        position([["red-1"], ["red-1"], ["red-1"]], [[], [], []])
    with pytest.raises(ValueError):
        position([["red-1"], ["red-2"], ["red-3"]], [["werewolf"], [], []])  # variant off
    with pytest.raises(ValueError):
        position([["red-1"], ["red-2"], ["red-9"]], [[], [], []])


# ---- the neighbour rule ---------------------------------------------------------------

# The rulebook's example: own top red 5, left top blue 4, right top green 2.
RULEBOOK = [["green-2"], ["red-5"], ["blue-4"]]  # seat 1 plays: left = 2, right = 0


@pytest.mark.parametrize("name, where", [
    ("blue-5", "left"), ("red-4", "left"), ("green-5", "right"), ("red-2", "right"),
    ("red-6", "own"), ("red-7", "own")])
def test_rulebook_example_card_by_card(name, where):
    state, rng = position(RULEBOOK, [["orange-1"], [name, "yellow-1"], ["orange-2"]], first=1)
    assert faces_up(state, 1, name) == [where]
    for other in {"own", "left", "right"} - {where}:
        reason = "MUST_GIVE_TO_NEIGHBOUR" if other == "own" else "DOES_NOT_MATCH"
        harness.rejected(GAME, state, 1, up(name, other), rng, reason)
    events = harness.play(GAME, state, 1, up(name, where), rng)
    target = {"own": 1, "left": 2, "right": 0}[where]
    assert events[0].public == {"card_played": {"seat": 1, "card": card(name), "onto": target}}
    assert top(state, target) == {"card": name, "onion": False}
    assert GAME.view(state, 0)["seats"][target]["top"] == {"onion": False, "card": card(name)}


def test_card_matching_both_neighbours_goes_to_either_but_not_own():
    # blue 2 matches left blue 4 (colour) and right green 2 (number), and own blue 5.
    state, rng = position([["green-2"], ["blue-5"], ["blue-4"]],
                          [["orange-1"], ["blue-2"], ["orange-2"]], first=1)
    assert faces_up(state, 1, "blue-2") == ["left", "right"]
    harness.rejected(GAME, state, 1, up("blue-2", "own"), rng, "MUST_GIVE_TO_NEIGHBOUR")
    harness.play(GAME, state, 1, up("blue-2", "right"), rng)
    assert top(state, 0)["card"] == "blue-2"
    assert top(state, 2)["card"] == "blue-4"


def test_card_matching_nothing_can_only_be_an_onion():
    state, rng = position(RULEBOOK, [["orange-1"], ["black-7"], ["orange-2"]], first=1)
    assert GAME.legal(state, 1) == [as_onion("black-7")]
    for pile in ("own", "left", "right"):
        harness.rejected(GAME, state, 1, up("black-7", pile), rng, "DOES_NOT_MATCH")
    events = harness.play(GAME, state, 1, as_onion("black-7"), rng)
    assert kinds(events) == ["onion_laid"]
    assert events[0].public == {"onion_laid": {"seat": 1}} and not events[0].private
    assert top(state, 1) == {"card": "black-7", "onion": True}


def test_neighbours_onion_matches_nothing():
    # Left's onion is a blue 4 underneath: a blue card is still not forced onto it.
    state, rng = position([["green-2"], ["blue-5"], ["blue-4", onion("blue-3")]],
                          [["orange-1"], ["blue-1"], ["orange-2"]], first=1)
    assert faces_up(state, 1, "blue-1") == ["own"]
    harness.rejected(GAME, state, 1, up("blue-1", "left"), rng, "ONION_TABOO")


def test_neighbours_empty_pile_is_taboo():
    state, rng = position([["green-2"], ["red-5"], []],
                          [["orange-1"], ["red-1"], ["orange-2"]], first=1)
    assert faces_up(state, 1, "red-1") == ["own"]
    harness.rejected(GAME, state, 1, up("red-1", "left"), rng, "ONION_TABOO")


@pytest.mark.parametrize("own_pile", [["red-5", onion("red-6")], []])
def test_own_onion_or_empty_pile_accepts_any_number_card(own_pile):
    state, rng = position([["green-2"], own_pile, ["blue-4"]],
                          [["orange-1"], ["black-7", "blue-6"], ["orange-2"]], first=1)
    assert faces_up(state, 1, "black-7") == ["own"]
    # ... but the neighbour rule still comes first.
    assert faces_up(state, 1, "blue-6") == ["left"]
    harness.rejected(GAME, state, 1, up("blue-6", "own"), rng, "MUST_GIVE_TO_NEIGHBOUR")
    harness.play(GAME, state, 1, up("black-7", "own"), rng)
    assert top(state, 1) == {"card": "black-7", "onion": False}


def test_own_pile_must_match():
    state, rng = position(RULEBOOK, [["orange-1"], ["yellow-6"], ["orange-2"]], first=1)
    assert faces_up(state, 1, "yellow-6") == []
    harness.rejected(GAME, state, 1, up("yellow-6", "own"), rng, "DOES_NOT_MATCH")


def test_onion_is_always_allowed_even_on_own_onion_and_with_a_match():
    state, rng = position([["green-2"], ["red-5", onion("red-6")], ["blue-4"]],
                          [["orange-1"], ["red-3", "blue-1"], ["orange-2"]], first=1)
    assert as_onion("red-3") in GAME.legal(state, 1)
    assert as_onion("blue-1") in GAME.legal(state, 1)
    harness.play(GAME, state, 1, as_onion("blue-1"), rng)
    assert [e["onion"] for e in state["piles"][1]] == [False, True, True]


def test_only_adjacent_piles_count():
    # Seat 0 of 5: seats 2 and 3 are not neighbours; their tops never force.
    state, rng = position([["red-5"], ["black-1"], ["blue-3"], ["blue-4"], ["black-2"]],
                          [["blue-6"], [], [], [], []])
    assert faces_up(state, 0, "blue-6") == []
    harness.rejected(GAME, state, 0, {"face_up": {"card": card("blue-6"), "pile": "across"}},
                     rng, "BAD_PILE")


def test_identical_cards_are_listed_once():
    state, _ = position(RULEBOOK, [["orange-1"], ["red-6", "red-6"], ["orange-2"]], first=1)
    assert GAME.legal(state, 1) == [up("red-6", "own"), as_onion("red-6")]
    state, _ = position(RULEBOOK, [["orange-1"], ["beach_towel", "beach_towel"], ["orange-2"]],
                        first=1, special=True)
    assert GAME.legal(state, 1) == [{"beach_towel": {"seat": 0}}, {"beach_towel": {"seat": 2}},
                                    as_onion("beach_towel")]


def test_nothing_goes_face_up_on_a_neighbours_face_up_special():
    # Seat 1's right neighbour (seat 0) shows a Werewolf face up (a Werewolf turned
    # it up): it matches nothing, so it forces nothing and takes nothing.
    state, rng = position([["blue-2", "werewolf"], ["red-5"], ["blue-4"]],
                          [["orange-1"], ["red-3", "green-3"], ["orange-2"]],
                          first=1, special=True)
    assert faces_up(state, 1, "red-3") == ["own"]
    harness.rejected(GAME, state, 1, up("red-3", "right"), rng, "DOES_NOT_MATCH")
    assert faces_up(state, 1, "green-3") == []
    harness.rejected(GAME, state, 1, up("green-3", "right"), rng, "DOES_NOT_MATCH")


def test_a_seat_sees_what_the_page_lists_and_no_more():
    # Own hand; every hand's size; whose turn; every top (onion face down) and
    # height; onion counts; draw pile size; the special pile.
    state, _ = position([["red-5", onion("blue-1"), "blue-2"], ["red-6", onion("green-3")], []],
                        [["red-1", "red-2"], ["yellow-1"], ["purple-1", "purple-2", "purple-3"]],
                        draw=["black-1", "black-2"], first=1, special=True,
                        special_pile=["catapult", "green-7"])
    blank = {"pile": [], "score": None, "devalued": [], "lost": None}
    seats = [
        {"seat": 0, "hand_size": 2, "pile_height": 3, "onions": 1,
         "top": {"onion": False, "card": card("blue-2")}, **blank},
        {"seat": 1, "hand_size": 1, "pile_height": 2, "onions": 1, "top": {"onion": True}, **blank},
        {"seat": 2, "hand_size": 3, "pile_height": 0, "onions": 0, "top": None, **blank}]
    common = {"options": {"special_cards": True, "first_seat": 1}, "seats": seats,
              "draw_pile": 2, "special_pile": [card("catapult"), card("green-7")],
              "turn": 1, "finished": False}
    assert GAME.view(state, 0) == {**common, "hand": [card("red-1"), card("red-2")]}
    assert GAME.view(state, 1) == {**common, "hand": [card("yellow-1")]}
    assert GAME.view(state, None) == {**common, "hand": []}
    harness.assert_wire(GAME, state)


# ---- turns, drawing, the end ---------------------------------------------------------

def test_play_goes_clockwise_and_draws_back_to_four():
    state, rng = position(RULEBOOK, [["orange-1", "orange-3", "orange-4", "orange-5"],
                                     ["red-6", "yellow-1", "yellow-2", "yellow-3"],
                                     ["purple-1", "purple-2", "purple-3", "purple-4"]],
                          draw=["black-1", "black-2"], first=1)
    events = harness.play(GAME, state, 1, up("red-6", "own"), rng)
    assert kinds(events) == ["card_played", "cards_drawn"]
    assert events[1].public == {"cards_drawn": {"seat": 1, "count": 1, "draw_pile": 1,
                                                "cards": []}}
    assert events[1].seen_by(1)["cards_drawn"]["cards"] == [card("black-1")]
    assert events[1].seen_by(0) == events[1].public
    assert "black-1" in state["hands"][1] and len(state["hands"][1]) == 4
    assert GAME.to_act(state) == [2]
    harness.rejected(GAME, state, 1, as_onion("black-1"), rng, "NOT_YOUR_TURN")


def test_three_players_wrap_around_for_turns_and_neighbours():
    """A turn / way 1: with 3 seats, seat 2's left is seat 0 and seat 0's right is seat 2."""
    state, rng = position([["red-5"], ["blue-3"], ["green-1"]],
                          [["green-6", "orange-4"], ["red-3", "orange-5"], ["red-2", "orange-6"]],
                          draw=["black-7"], first=2)
    assert GAME.to_act(state) == [2]
    assert faces_up(state, 2, "red-2") == ["left"]  # seat 0's red 5, across the wrap
    events = harness.play(GAME, state, 2, up("red-2", "left"), rng)
    assert events[0].public == {"card_played": {"seat": 2, "card": card("red-2"), "onto": 0}}
    assert events[1].public["cards_drawn"]["seat"] == 2
    assert GAME.to_act(state) == [0]  # after the last seat comes seat 0
    assert faces_up(state, 0, "green-6") == ["right"]  # seat 2's green 1, across the wrap
    events = harness.play(GAME, state, 0, up("green-6", "right"), rng)
    assert events[0].public["card_played"]["onto"] == 2
    assert GAME.to_act(state) == [1]
    # red 3 matches seat 0's red 2 (right) and its own blue 3: it must give it right.
    assert faces_up(state, 1, "red-3") == ["right"]
    harness.rejected(GAME, state, 1, up("red-3", "own"), rng, "MUST_GIVE_TO_NEIGHBOUR")
    harness.play(GAME, state, 1, up("red-3", "right"), rng)
    assert top(state, 0) == {"card": "red-3", "onion": False}
    assert GAME.to_act(state) == [2]


def test_six_players_turn_order_and_neighbours():
    """A turn / way 1 with 6 seats: seat 5 and seat 0 are neighbours; empty hands are skipped."""
    state, rng = position([["red-1"], ["orange-2"], ["yellow-3"], ["green-4"], ["blue-5"],
                           ["purple-6"]],
                          [["purple-2", "black-3"], [], ["yellow-4"], [], ["purple-1", "black-2"],
                           ["black-1", "black-4"]], first=4)
    assert faces_up(state, 4, "purple-1") == ["left"]  # seat 5's purple 6
    events = harness.play(GAME, state, 4, up("purple-1", "left"), rng)
    assert events[0].public["card_played"]["onto"] == 5
    assert GAME.to_act(state) == [5]
    # black 1 matches seat 0's red 1 (left, across the wrap) and its own purple 1.
    assert faces_up(state, 5, "black-1") == ["left"]
    harness.rejected(GAME, state, 5, up("black-1", "own"), rng, "MUST_GIVE_TO_NEIGHBOUR")
    events = harness.play(GAME, state, 5, up("black-1", "left"), rng)
    assert events[0].public["card_played"]["onto"] == 0
    assert GAME.to_act(state) == [0]
    # purple 2 matches seat 1's orange 2 (left) and seat 5's purple 1 (right): either.
    assert faces_up(state, 0, "purple-2") == ["left", "right"]
    # black 3 ignores seat 2's yellow 3 (not a neighbour) and goes on the own black 1.
    assert faces_up(state, 0, "black-3") == ["own"]
    events = harness.play(GAME, state, 0, up("purple-2", "right"), rng)
    assert events[0].public["card_played"]["onto"] == 5
    assert GAME.to_act(state) == [2]  # seat 1 holds no cards
    harness.play(GAME, state, 2, up("yellow-4", "left"), rng)
    assert top(state, 3) == {"card": "yellow-4", "onion": False}
    assert GAME.to_act(state) == [4]  # seat 3 holds no cards


def test_drawing_stops_when_the_pile_is_empty_and_play_goes_on():
    state, rng = position(RULEBOOK, [["orange-1", "orange-2"], ["yellow-1", "yellow-2"],
                                     ["purple-1"]],
                          draw=["black-1"], first=0)
    events = harness.play(GAME, state, 0, as_onion("orange-1"), rng)
    assert kinds(events) == ["onion_laid", "cards_drawn"] and state["draw"] == []
    assert len(state["hands"][0]) == 2
    events = harness.play(GAME, state, 1, as_onion("yellow-1"), rng)
    assert kinds(events) == ["onion_laid"]  # nothing left to draw
    assert len(state["hands"][1]) == 1
    harness.play(GAME, state, 2, as_onion("purple-1"), rng)
    # seat 2's hand is empty now: it is skipped from here on
    harness.play(GAME, state, 0, as_onion("orange-2"), rng)
    harness.play(GAME, state, 1, as_onion("yellow-2"), rng)
    assert GAME.to_act(state) == [0]
    harness.play(GAME, state, 0, as_onion("black-1"), rng)
    assert GAME.to_act(state) == [] and GAME.outcome(state) is not None
    assert all(h == [] for h in state["hands"])
    harness.rejected(GAME, state, 0, as_onion("black-1"), rng, "GAME_OVER")


def test_last_card_ends_the_game_and_reveals_every_pile():
    state, rng = position([["red-5", onion("blue-1")], ["red-6"], ["green-2"]],
                          [["red-7"], [], []], first=0)
    view_before = GAME.view(state, 0)
    assert view_before["seats"][0]["top"] == {"onion": True}  # not even the owner sees it
    assert view_before["seats"][0]["pile"] == []
    assert view_before["seats"][0]["score"] is None
    events = harness.play(GAME, state, 0, up("red-7", "left"), rng)
    assert kinds(events) == ["card_played", "game_over"]
    over = events[1].public["game_over"]
    assert over["winners"] == [1]
    assert over["results"][0] == {
        "seat": 0, "score": 5, "lost": 0, "onions": 1, "devalued": [1],
        "pile": [{"onion": False, "card": card("red-5")}, {"onion": True, "card": card("blue-1")}]}
    assert over["results"][1]["score"] == 13
    view = GAME.view(state, None)
    assert view["finished"] and view["turn"] is None
    assert view["seats"][0]["pile"] == over["results"][0]["pile"]
    assert view["seats"][0]["top"] == {"onion": True, "card": card("blue-1")}
    assert [s["score"] for s in view["seats"]] == [5, 13, 2]
    harness.assert_wire(GAME, state, events)


# ---- scoring --------------------------------------------------------------------------

SPARE = [f"{c}-{n}" for c in heul_doch.COLOURS[1:] for n in heul_doch.NUMBERS]  # non-red


@pytest.mark.parametrize("onions, devalued, score", [
    (0, [], 28), (5, [5], 23), (7, [7], 21), (9, [2, 7], 19), (14, [7], 21), (15, [1, 7], 20)])
def test_onions_devalue_numbers(onions, devalued, score):
    pile = [f"red-{n}" for n in range(1, 8)] + [onion(c) for c in SPARE[:onions]]
    state, _ = position([pile, ["black-1"], ["black-2"]], [[], [], []])
    view = GAME.view(state, 0)
    assert view["finished"]
    assert view["seats"][0]["devalued"] == devalued
    assert view["seats"][0]["score"] == score
    assert view["seats"][0]["lost"] == 28 - score
    assert view["seats"][0]["onions"] == onions
    assert GAME.outcome(state).scores == [score, 1, 2]


def test_rulebook_scoring_examples():
    # 5 onions: all 5s score 0. 9 onions: the 7s and 2s score 0.
    five = ["red-5", "blue-5", "red-4"] + [onion(c) for c in SPARE[7:12]]
    nine = ["red-7", "blue-7", "red-2", "blue-2", "red-3"] + [onion(c) for c in SPARE[14:23]]
    state, _ = position([five, nine, []], [[], [], []])
    assert GAME.outcome(state).scores == [4, 3, 0]


def test_tie_goes_to_whoever_lost_more_to_onions():
    state, _ = position([["red-5", "red-4", "red-1"],                      # 10, lost 0
                         ["red-6", "black-3", "black-1", "red-4",
                          onion("blue-4"), onion("blue-5"), onion("blue-6"), onion("blue-7")],
                         # 10, lost 4
                         ["red-7", "red-3", "red-2", onion("blue-1"), onion("blue-2")]],
                         # 10, lost 2
                        [[], [], []])
    assert GAME.outcome(state).scores == [10, 10, 10]
    assert GAME.outcome(state).winners == [1]


def test_tie_break_by_losses_never_beats_a_lone_top_score():
    """End and score: 'highest score wins'; the lost-points tie-break only splits a tie for top."""
    state, _ = position([["red-5", "red-1", "blue-1", onion("green-2")],         # 5, lost 2
                         ["orange-5", "orange-1", "yellow-1", onion("green-3")],  # 5, lost 2
                         ["purple-6", "purple-3"]],                               # 9, lost 0
                        [[], [], []])
    view = GAME.view(state, None)
    assert [s["lost"] for s in view["seats"]] == [2, 2, 0]
    assert GAME.outcome(state).scores == [5, 5, 9]
    assert GAME.outcome(state).winners == [2]


def test_tie_with_equal_losses_is_shared():
    state, _ = position([["red-5", "red-4"], ["orange-5", "orange-4"], ["yellow-2"]],
                        [[], [], []])
    assert GAME.outcome(state).winners == [0, 1]


# ---- special cards --------------------------------------------------------------------

def test_special_cards_are_listed_with_their_targets():
    state, _ = position([["red-1"], ["red-2"], ["red-3"], ["red-4"]],
                        [["catapult", "beach_towel", "carousel", "werewolf"], [], [], []],
                        special=True)
    assert GAME.legal(state, 0) == [
        {"catapult": {}}, as_onion("catapult"),
        {"beach_towel": {"seat": 1}}, {"beach_towel": {"seat": 2}},
        {"beach_towel": {"seat": 3}}, as_onion("beach_towel"),
        {"carousel": {"direction": "left"}}, {"carousel": {"direction": "right"}},
        as_onion("carousel"),
        {"werewolf": {}}, as_onion("werewolf")]
    harness.assert_wire(GAME, state)


def test_special_cards_cannot_go_face_up_on_a_pile():
    state, rng = position([[], ["red-2"], ["red-3"]], [["werewolf"], [], []], special=True)
    harness.rejected(GAME, state, 0, {"face_up": {"card": card("werewolf"), "pile": "own"}},
                     rng, "SPECIAL_NOT_FACE_UP")


def test_catapult_discards_every_highest_top_own_included():
    state, rng = position(
        [["red-7"], ["blue-1", "blue-7"], ["green-6"], ["black-7", onion("purple-7")]],
        [["catapult", "red-1"], ["blue-2"], [], []], special=True)
    events = harness.play(GAME, state, 0, {"catapult": {}}, rng)
    played = events[0].public["special_played"]
    assert played["discarded"] == [{"seat": 0, "card": card("red-7")},
                                   {"seat": 1, "card": card("blue-7")}]
    assert state["special_pile"] == ["catapult", "red-7", "blue-7"]
    assert state["piles"][0] == [] and top(state, 1)["card"] == "blue-1"
    assert top(state, 3) == {"card": "purple-7", "onion": True}  # onions are ignored
    assert played["tops"] == [{"seat": 0},
                              {"seat": 1, "top": {"onion": False, "card": card("blue-1")}},
                              {"seat": 2, "top": {"onion": False, "card": card("green-6")}},
                              {"seat": 3, "top": {"onion": True}}]
    assert GAME.view(state, 2)["special_pile"] == [card("catapult"), card("red-7"), card("blue-7")]
    # Seat 1 plays next: seat 0's empty pile is taboo for it (blue 2 is not forced
    # there), and an own empty pile takes anything.
    assert faces_up(state, 1, "blue-2") == ["own"]
    harness.rejected(GAME, state, 1, up("blue-2", "right"), rng, "ONION_TABOO")
    harness.play(GAME, state, 1, as_onion("blue-2"), rng)
    harness.play(GAME, state, 0, up("red-1", "own"), rng)  # own empty pile: anything
    assert state["piles"][0] == [{"card": "red-1", "onion": False}]


def test_catapult_with_no_face_up_number_does_nothing_but_is_spent():
    state, rng = position([[onion("red-7")], [], [onion("werewolf")]],
                          [["catapult"], [], []], special=True)
    before = copy.deepcopy(state["piles"])
    events = harness.play(GAME, state, 0, {"catapult": {}}, rng)
    assert events[0].public["special_played"]["discarded"] == []
    assert state["piles"] == before
    assert state["special_pile"] == ["catapult"] and state["hands"][0] == []


def test_catapult_ignores_face_up_specials():
    state, rng = position([["red-2"], ["werewolf"], ["red-1"]],
                          [["catapult"], [], []], special=True)
    harness.play(GAME, state, 0, {"catapult": {}}, rng)
    assert top(state, 1)["card"] == "werewolf" and state["piles"][0] == []


def test_catapult_uncovering_an_onion_makes_the_pile_taboo():
    """Catapult + matching: a discarded top uncovers an onion, taboo for the neighbours."""
    piles = [["red-1"], [onion("blue-2"), "blue-7"], ["green-5"]]
    hands = [["catapult"], [], ["blue-5"]]
    before, _ = position(piles, hands, first=2, special=True)
    assert faces_up(before, 2, "blue-5") == ["right"]  # seat 1's blue 7 takes it
    state, rng = position(piles, hands, special=True)
    events = harness.play(GAME, state, 0, {"catapult": {}}, rng)
    played = events[0].public["special_played"]
    assert played["discarded"] == [{"seat": 1, "card": card("blue-7")}]
    assert played["tops"][1] == {"seat": 1, "top": {"onion": True}}  # the onion's card unnamed
    assert GAME.view(state, 2)["seats"][1]["top"] == {"onion": True}
    assert GAME.to_act(state) == [2]
    # The blue 2 under the onion does not count: the blue 5 goes on seat 2's own green 5.
    assert faces_up(state, 2, "blue-5") == ["own"]
    harness.rejected(GAME, state, 2, up("blue-5", "right"), rng, "ONION_TABOO")


def test_beach_towel_swaps_tops_keeping_their_side():
    state, rng = position([["red-1", "red-2"], ["blue-1"], ["green-1", onion("green-2")],
                           ["black-1"]],
                          [["beach_towel"], [], [], []], special=True)
    events = harness.play(GAME, state, 0, {"beach_towel": {"seat": 2}}, rng)
    assert state["piles"][0] == [{"card": "red-1", "onion": False},
                                 {"card": "green-2", "onion": True}]
    assert state["piles"][2] == [{"card": "green-1", "onion": False},
                                 {"card": "red-2", "onion": False}]
    played = events[0].public["special_played"]
    assert played["target"] == 2 and "direction" not in played
    assert played["tops"][0] == {"seat": 0, "top": {"onion": True}}  # never the onion's face


def test_beach_towel_with_an_empty_pile_moves_one_card():
    state, rng = position([[], ["blue-1", "blue-2"], ["green-1"]],
                          [["beach_towel", "beach_towel"], [], []], special=True)
    harness.play(GAME, state, 0, {"beach_towel": {"seat": 1}}, rng)
    assert state["piles"][0] == [{"card": "blue-2", "onion": False}]
    assert state["piles"][1] == [{"card": "blue-1", "onion": False}]
    # own top moves across to an empty pile, nothing comes back
    state, rng = position([["red-1"], [], ["green-1"]],
                          [["beach_towel"], [], []], special=True)
    harness.play(GAME, state, 0, {"beach_towel": {"seat": 1}}, rng)
    assert state["piles"][0] == [] and state["piles"][1] == [{"card": "red-1", "onion": False}]
    # both empty: nothing
    state, rng = position([[], [], ["green-1"]], [["beach_towel"], [], []], special=True)
    harness.play(GAME, state, 0, {"beach_towel": {"seat": 1}}, rng)
    assert state["piles"][:2] == [[], []] and state["special_pile"] == ["beach_towel"]


def test_beach_towel_needs_another_existing_seat():
    state, rng = position([["red-1"], ["blue-1"], ["green-1"]],
                          [["beach_towel"], [], []], special=True)
    harness.rejected(GAME, state, 0, {"beach_towel": {"seat": 0}}, rng, "BAD_TARGET")
    harness.rejected(GAME, state, 0, {"beach_towel": {"seat": 3}}, rng, "UNKNOWN_SEAT")
    harness.rejected(GAME, state, 0, {"beach_towel": {"seat": True}}, rng, "UNKNOWN_SEAT")
    harness.rejected(GAME, state, 0, {"beach_towel": {}}, rng, "UNKNOWN_SEAT")


@pytest.mark.parametrize("direction", ["left", "right"])
def test_carousel_moves_every_top_at_once(direction):
    # seat 0: red 1 on top; seat 1: empty; seat 2: an onion on top.
    state, rng = position([["red-1"], [], ["blue-1", onion("green-1")]],
                          [["carousel"], [], []], special=True)
    events = harness.play(GAME, state, 0, {"carousel": {"direction": direction}}, rng)
    tops = [None if not p else (p[-1]["card"], p[-1]["onion"]) for p in state["piles"]]
    if direction == "left":  # s -> s+1: seat 2's onion to seat 0, seat 0's red 1 to seat 1
        assert tops == [("green-1", True), ("red-1", False), ("blue-1", False)]
    else:  # s -> s-1: seat 0's red 1 to seat 2, seat 2's onion to seat 1
        assert tops == [None, ("green-1", True), ("red-1", False)]
    assert events[0].public["special_played"]["direction"] == direction
    assert all_cards(state) == Counter(["red-1", "blue-1", "green-1", "carousel"])


def test_carousel_needs_a_direction():
    state, rng = position([["red-1"], [], ["blue-1"]], [["carousel"], [], []], special=True)
    harness.rejected(GAME, state, 0, {"carousel": {"direction": "up"}}, rng, "BAD_DIRECTION")
    harness.rejected(GAME, state, 0, {"carousel": {}}, rng, "BAD_DIRECTION")
    harness.rejected(GAME, state, 0, {"carousel": {"direction": ["left"]}}, rng, "BAD_DIRECTION")


def test_werewolf_flips_every_top_and_reveals_onions():
    state, rng = position([["red-1"], ["blue-1", onion("blue-6")], [], ["black-1"]],
                          [["werewolf"], [], [], []], special=True)
    events = harness.play(GAME, state, 0, {"werewolf": {}}, rng)
    assert state["piles"][0] == [{"card": "red-1", "onion": True}]
    assert state["piles"][1][-1] == {"card": "blue-6", "onion": False}
    assert state["piles"][2] == []
    assert events[0].public["special_played"]["tops"] == [
        {"seat": 0, "top": {"onion": True}},
        {"seat": 1, "top": {"onion": False, "card": card("blue-6")}},
        {"seat": 2},
        {"seat": 3, "top": {"onion": True}}]
    view = GAME.view(state, 2)
    assert view["seats"][1]["top"] == {"onion": False, "card": card("blue-6")}
    assert view["seats"][1]["onions"] == 0 and view["seats"][0]["onions"] == 1


def test_werewolf_turns_a_face_up_special_back_into_an_onion():
    state, rng = position([["red-1"], ["blue-1", "carousel"], ["green-1"]],
                          [["werewolf"], [], []], special=True)
    events = harness.play(GAME, state, 0, {"werewolf": {}}, rng)
    assert top(state, 1) == {"card": "carousel", "onion": True}
    assert events[0].public["special_played"]["tops"][1] == {"seat": 1, "top": {"onion": True}}
    assert GAME.view(state, 1)["seats"][1]["onions"] == 1


def test_werewolf_turns_a_face_up_number_into_an_onion_that_devalues():
    """Werewolf: a face-up top becomes an onion, hidden, and counts among N at scoring."""
    state, rng = position([["red-1", "red-5", "blue-3"], ["blue-1"], ["green-1"]],
                          [["werewolf"], ["yellow-4"], ["yellow-6"]], special=True)
    events = harness.play(GAME, state, 0, {"werewolf": {}}, rng)
    assert state["piles"][0][-1] == {"card": "blue-3", "onion": True}
    assert events[0].public["special_played"]["tops"][0] == {"seat": 0, "top": {"onion": True}}
    for viewer in (None, 0, 1):
        shown = GAME.view(state, viewer)["seats"][0]
        assert shown["top"] == {"onion": True} and shown["onions"] == 1
    harness.play(GAME, state, 1, as_onion("yellow-4"), rng)
    events = harness.play(GAME, state, 2, as_onion("yellow-6"), rng)
    result = events[-1].public["game_over"]["results"][0]
    # 1 onion devalues the 1s: red 5 scores, red 1 is lost, the blue 3 onion scores nothing.
    assert (result["score"], result["lost"], result["onions"], result["devalued"]) == (5, 1, 1, [1])
    assert result["pile"][-1] == {"onion": True, "card": card("blue-3")}
    assert GAME.outcome(state).scores == [5, 0, 0]


def test_two_werewolves_turn_an_onion_up_then_hide_it_again():
    """Werewolf twice: the onion shows its card, then is an onion again, named to nobody."""
    state, rng = position([["red-1", onion("blue-3")], ["red-2"], ["red-3"]],
                          [["werewolf", "yellow-1"], ["werewolf", "yellow-2"], ["yellow-3"]],
                          special=True)
    events = harness.play(GAME, state, 0, {"werewolf": {}}, rng)
    revealed = {"onion": False, "card": card("blue-3")}
    assert events[0].public["special_played"]["tops"][0] == {"seat": 0, "top": revealed}
    for viewer in (None, 0, 1, 2):
        assert GAME.view(state, viewer)["seats"][0]["top"] == revealed
        assert GAME.view(state, viewer)["seats"][0]["onions"] == 0
    events = harness.play(GAME, state, 1, {"werewolf": {}}, rng)
    assert state["piles"][0] == [{"card": "red-1", "onion": False},
                                 {"card": "blue-3", "onion": True}]
    assert kinds(events) == ["special_played"]
    assert events[0].public["special_played"]["tops"] == [
        {"seat": 0, "top": {"onion": True}},
        {"seat": 1, "top": {"onion": False, "card": card("red-2")}},
        {"seat": 2, "top": {"onion": False, "card": card("red-3")}}]
    for viewer in (None, 0, 1, 2):
        assert events[0].seen_by(viewer) == events[0].public
        shown = GAME.view(state, viewer)["seats"][0]
        assert shown["top"] == {"onion": True} and shown["onions"] == 1


@pytest.mark.parametrize("action", [{"carousel": {"direction": "left"}},
                                    {"carousel": {"direction": "right"}}, {"werewolf": {}}])
def test_carousel_or_werewolf_with_every_pile_empty_is_still_spent(action):
    """Special cards: the card is spent even when it changes nothing; the player draws."""
    (kind,) = action
    state, rng = position([[], [], []], [[kind, "red-1"], ["red-2"], ["red-3"]],
                          draw=["black-5"], special=True)
    events = harness.play(GAME, state, 0, action, rng)
    assert kinds(events) == ["special_played", "cards_drawn"]
    assert events[0].public["special_played"]["tops"] == [{"seat": 0}, {"seat": 1}, {"seat": 2}]
    assert state["piles"] == [[], [], []]
    assert state["special_pile"] == [kind]
    assert state["hands"][0] == ["red-1", "black-5"] and state["draw"] == []
    assert GAME.to_act(state) == [1]


def test_special_laid_as_onion_and_turned_up_matches_nothing_and_scores_nothing():
    state, rng = position([["red-6"], ["red-2"], ["red-3"]],
                          [["carousel", "red-4"], ["werewolf", "blue-2"], ["red-5", "red-6"]],
                          special=True)
    events = harness.play(GAME, state, 0, as_onion("carousel"), rng)
    assert "carousel" not in str([e.public for e in events] + [e.private for e in events])
    harness.play(GAME, state, 1, {"werewolf": {}}, rng)
    assert top(state, 0) == {"card": "carousel", "onion": False}
    view = GAME.view(state, 0)
    assert view["seats"][0]["top"] == {"onion": False, "card": card("carousel")}
    # Seat 2's left neighbour is seat 0: the face-up Carousel forces nothing (seat 1's
    # top is an onion now), so red 5 may go on seat 2's own onion.
    assert faces_up(state, 2, "red-5") == ["own"]
    harness.play(GAME, state, 2, as_onion("red-6"), rng)
    # Its owner may only lay an onion on it.
    assert faces_up(state, 0, "red-4") == []
    harness.rejected(GAME, state, 0, up("red-4", "own"), rng, "DOES_NOT_MATCH")
    harness.play(GAME, state, 0, as_onion("red-4"), rng)
    harness.play(GAME, state, 1, as_onion("blue-2"), rng)
    harness.play(GAME, state, 2, as_onion("red-5"), rng)
    # Seat 0: red 6 face up, the Carousel face up (0 points), red 4 an onion (1 onion).
    assert GAME.outcome(state) is not None
    assert GAME.view(state, None)["seats"][0]["score"] == 6
    assert GAME.view(state, None)["seats"][0]["devalued"] == [1]


def test_beach_towel_moving_a_face_up_special_blocks_the_new_owners_neighbours():
    """Beach Towel + face-up special: on its new pile it matches nothing for neighbours."""
    # 5 seats: seat 2 is not seat 0's neighbour; seat 3's right neighbour is seat 2.
    piles = [["black-4", "werewolf"], ["orange-1"], ["red-5"], ["red-1"], ["yellow-7"]]
    hands = [["beach_towel"], [], [], ["red-3"], []]
    before, _ = position(piles, hands, first=3, special=True)
    assert faces_up(before, 3, "red-3") == ["right"]  # seat 2's red 5 takes it
    state, rng = position(piles, hands, special=True)
    harness.play(GAME, state, 0, {"beach_towel": {"seat": 2}}, rng)
    assert top(state, 2) == {"card": "werewolf", "onion": False}
    assert top(state, 0) == {"card": "red-5", "onion": False}
    assert GAME.view(state, 3)["seats"][2]["top"] == {"onion": False, "card": card("werewolf")}
    assert GAME.to_act(state) == [3]
    assert faces_up(state, 3, "red-3") == ["own"]
    harness.rejected(GAME, state, 3, up("red-3", "right"), rng, "DOES_NOT_MATCH")


def test_carousel_moving_a_face_up_special_onto_an_onion_blocks_its_new_owner():
    """Carousel + face-up special: only onions go on it, by its (new) owner too."""
    state, rng = position([[onion("red-2")], ["purple-6"], ["blue-1", "werewolf"]],
                          [["carousel", "yellow-3"], [], []], special=True)
    assert faces_up(state, 0, "yellow-3") == ["own"]  # the own onion takes anything
    harness.play(GAME, state, 0, {"carousel": {"direction": "left"}}, rng)
    assert state["piles"][0] == [{"card": "werewolf", "onion": False}]
    assert top(state, 1) == {"card": "red-2", "onion": True}
    assert GAME.to_act(state) == [0]
    assert faces_up(state, 0, "yellow-3") == []
    harness.rejected(GAME, state, 0, up("yellow-3", "own"), rng, "DOES_NOT_MATCH")
    harness.play(GAME, state, 0, as_onion("yellow-3"), rng)
    assert state["piles"][0] == [{"card": "werewolf", "onion": False},
                                 {"card": "yellow-3", "onion": True}]


# ---- malformed and refused actions ----------------------------------------------------

@pytest.mark.parametrize("action, reason", [
    ("onion", "MALFORMED_ACTION"),
    ({}, "MALFORMED_ACTION"),
    ({"onion": {"card": card("red-6")}, "werewolf": {}}, "MALFORMED_ACTION"),
    ({"pass": {}}, "MALFORMED_ACTION"),
    ({"onion": None}, "MALFORMED_ACTION"),
    ({"onion": {}}, "BAD_CARD"),
    ({"onion": {"card": "red-6"}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "pink", "number": 6}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "red", "number": 8}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "red", "number": True}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "red", "number": 6, "special": "werewolf"}}}, "BAD_CARD"),
    ({"onion": {"card": {"special": "dragon"}}}, "BAD_CARD"),
    ({"onion": {"card": card("red-1")}}, "CARD_NOT_IN_HAND"),
    ({"werewolf": {}}, "CARD_NOT_IN_HAND"),
    ({"face_up": {"card": card("red-6")}}, "BAD_PILE"),
    ({"face_up": {"card": card("red-6"), "pile": 1}}, "BAD_PILE"),
    ({"face_up": {"card": card("red-6"), "pile": ["own"]}}, "BAD_PILE"),
    ({"face_up": {"card": {"colour": ["red"], "number": 6}, "pile": "own"}}, "BAD_CARD"),
    ({"onion": {"card": {"special": ["werewolf"]}}}, "BAD_CARD"),
    ({"onion": {"card": card("red-6"), "pile": "own"}}, "MALFORMED_ACTION"),
    ({"face_up": {"card": card("red-6"), "pile": "own", "seat": 2}}, "MALFORMED_ACTION"),
    ({"werewolf": {"seat": 1}}, "MALFORMED_ACTION"),
    ({"catapult": {"card": card("red-6")}}, "MALFORMED_ACTION"),
    ({"onion": {"card": {**card("red-6"), "face": "up"}}}, "BAD_CARD"),
    ({"onion": {"card": {**card("red-6"), "special": "werewolf"}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "red"}}}, "BAD_CARD"),
    ({"onion": {"card": {"number": 6}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "red", "number": 6.0}}}, "BAD_CARD"),
    ({"onion": {"card": {"colour": "Red", "number": 6}}}, "BAD_CARD"),
    ({"face_up": {"card": card("red-6"), "pile": ""}}, "BAD_PILE"),
    ({"face_up": {"card": card("red-6"), "pile": None}}, "BAD_PILE"),
    ({"face_up": {"pile": "own"}}, "BAD_CARD"),
    ({"beach_towel": {"seat": 0}}, "CARD_NOT_IN_HAND"),
    ({"carousel": {"direction": "left"}}, "CARD_NOT_IN_HAND"),
])
def test_malformed_actions_are_refused(action, reason):
    state, rng = position(RULEBOOK, [["orange-1"], ["red-6"], ["orange-2"]], first=1)
    harness.rejected(GAME, state, 1, action, rng, reason)


@pytest.mark.parametrize("seat,reason", [(0, "NOT_YOUR_TURN"), (2, "NOT_YOUR_TURN"),
                                         (3, "UNKNOWN_SEAT"), (-1, "UNKNOWN_SEAT"), (99, "UNKNOWN_SEAT")])
def test_seats_not_to_play_are_refused(seat, reason):
    state, rng = position(RULEBOOK, [["orange-1"], ["red-6"], ["orange-2"]], first=1)
    harness.rejected(GAME, state, seat, as_onion("orange-1"), rng, reason)
    assert GAME.legal(state, seat) == []


def test_wire_defaults_are_accepted():
    # An action decoded from the wire carries explicit defaults for unset fields.
    state, rng = position(RULEBOOK, [["orange-1"], ["red-6"], ["orange-2"]], first=1)
    harness.play(GAME, state, 1, {"onion": {"card": {"colour": "red", "number": 6,
                                                     "special": ""}}}, rng)
    state, rng = position(RULEBOOK, [["orange-1"], ["werewolf"], ["orange-2"]], first=1,
                          special=True)
    harness.play(GAME, state, 1, {"onion": {"card": {"colour": "", "number": 0,
                                                     "special": "werewolf"}}}, rng)


def test_wire_decoded_actions_with_fields_left_out_are_refused():
    # From the wire an unset field arrives as its default: a Beach Towel naming no
    # seat must not swap with seat 0, a face-up card naming no pile must not go anywhere.
    state, rng = position([["red-1"], ["blue-1"], ["green-1"]],
                          [["red-6"], ["beach_towel", "carousel", "red-2"], []],
                          first=1, special=True)
    for action, reason in [({"beach_towel": {}}, "UNKNOWN_SEAT"),
                           ({"carousel": {}}, "BAD_DIRECTION"),
                           ({"face_up": {"card": card("red-2")}}, "BAD_PILE"),
                           ({"face_up": {"pile": "own"}}, "BAD_CARD"),
                           ({"onion": {}}, "BAD_CARD"),
                           ({}, "MALFORMED_ACTION")]:
        decoded = wire.to_plain(harness.to_message(GAME.id, "action", action))
        harness.rejected(GAME, state, 1, decoded, rng, reason)
    harness.play(GAME, state, 1, wire.to_plain(harness.to_message(
        GAME.id, "action", {"beach_towel": {"seat": 0}})), rng)
    assert state["piles"][0][-1]["card"] == "blue-1"


def test_error_details_name_only_the_callers_own_card():
    state, rng = position([["red-1", onion("green-5")], ["blue-1"], ["green-1"]],
                          [["red-6"], ["yellow-2"], ["yellow-3"]], draw=["black-4"])
    error = harness.rejected(GAME, state, 0, as_onion("green-5"), rng, "CARD_NOT_IN_HAND")
    assert error.details == {"card": "green-5"}  # the card the caller named, nothing else


# Any JSON a client might send, biased towards the action's own field names and values.
_LEAF = (st.none() | st.booleans() | st.integers(-2, 9) | st.floats(allow_nan=True)
         | st.sampled_from(["", "own", "left", "right", "across", "red", "blue", "Red",
                            "catapult", "beach_towel", "carousel", "werewolf", "dragon"]))
_KEY = st.sampled_from(["face_up", "onion", "catapult", "beach_towel", "carousel", "werewolf",
                        "card", "pile", "seat", "direction", "colour", "number", "special", "x"])
_JUNK = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_KEY, inner, max_size=4), max_leaves=10)
_CARD = st.fixed_dictionaries({}, optional={"colour": _LEAF, "number": _LEAF,
                                            "special": _LEAF, "x": _LEAF})
_BODY = st.fixed_dictionaries({}, optional={"card": _CARD | _JUNK, "pile": _LEAF,
                                            "seat": _LEAF, "direction": _LEAF, "x": _LEAF})
_ACTION = (st.dictionaries(_KEY, _BODY | _JUNK, max_size=2)
           | st.builds(lambda k, b: {k: b}, _KEY, _BODY) | _JUNK)


@settings(max_examples=400, deadline=None)
@given(action=_ACTION)
def test_fuzzed_actions_are_refused_cleanly_or_equal_a_listed_one(action):
    state, rng = position(RULEBOOK, [["orange-1"], ["red-4", "red-6", "beach_towel", "carousel"],
                                     ["orange-2"]], draw=["black-1"], first=1, special=True)
    before = copy.deepcopy(state)
    try:
        harness.play(GAME, state, 1, action, rng)
    except RulesError:
        assert state == before
        return
    # Accepted: it must do exactly what one listed action does.
    outcomes = []
    for listed in GAME.legal(before, 1):
        trial = copy.deepcopy(before)
        GAME.play(trial, 1, listed, Rng.from_seed("test-seed"))
        outcomes.append(trial)
    assert state in outcomes


# ---- properties: random playouts ------------------------------------------------------

def _check_step(state, seat, action, events):
    n = state["players"]
    assert all_cards(state) == Counter(heul_doch.deck(state["special_cards"]))
    for s in range(n):
        assert len(state["hands"][s]) <= 4
        if state["draw"]:
            assert len(state["hands"][s]) == 4
    harness.assert_wire(GAME, state, events)
    _assert_no_onion_face(state, events)


def _assert_no_onion_face(state, events):
    """While the game is on, no view shows an onion's card and only the tops."""
    if state["finished"]:
        return
    for viewer in [None, *range(state["players"])]:
        view = GAME.view(state, viewer)
        for s, shown in enumerate(view["seats"]):
            pile = state["piles"][s]
            assert shown["pile"] == [] and shown["score"] is None
            assert shown["onions"] == sum(e["onion"] for e in pile)
            if pile and pile[-1]["onion"]:
                assert shown["top"] == {"onion": True}
        for event in events:
            seen = event.seen_by(viewer)
            if "onion_laid" in seen:
                assert seen == {"onion_laid": {"seat": event.public["onion_laid"]["seat"]}}
            for t in seen.get("special_played", {}).get("tops", []):
                if t.get("top", {}).get("onion"):
                    assert t["top"] == {"onion": True}


def _check_final(state):
    assert GAME.outcome(state) is not None and GAME.to_act(state) == []
    assert all(hand == [] for hand in state["hands"]) and state["draw"] == []
    outcome = GAME.outcome(state)
    counted = [recount(pile) for pile in state["piles"]]
    assert outcome.scores == [score for score, _ in counted]
    best = max(outcome.scores)
    tied = [s for s, score in enumerate(outcome.scores) if score == best]
    most = max(counted[s][1] for s in tied)
    assert outcome.winners == [s for s in tied if counted[s][1] == most]


@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=12))
def test_random_playouts_end_with_empty_hands(players, special, seed):
    state = harness.random_playout(GAME, players, {"special_cards": special}, seed=seed,
                                   each_step=_check_step)
    _check_final(state)


@pytest.mark.parametrize("special", [False, True])
@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), players=st.integers(3, 6))
def test_legal_list_agrees_with_check(players, special, seed):
    """Every action the list omits (over every hand card, pile and target) is refused."""
    def each(state, seat, action, events):
        if state["finished"]:
            return
        turn = state["turn"]
        listed = GAME.legal(state, turn)
        candidates = []
        for name in dict.fromkeys(state["hands"][turn]):
            candidates += [up(name, p) for p in ("own", "left", "right")] + [as_onion(name)]
        candidates += [{"catapult": {}}, {"werewolf": {}}]
        candidates += [{"beach_towel": {"seat": s}} for s in range(players)]
        candidates += [{"carousel": {"direction": d}} for d in ("left", "right")]
        for candidate in candidates:
            try:
                GAME.check(state, turn, candidate)
                accepted = True
            except RulesError:
                accepted = False
            assert accepted == (candidate in listed), candidate
        assert len(listed) == len({repr(a) for a in listed})
        for other in range(players):
            if other != turn:
                assert GAME.legal(state, other) == []
    harness.random_playout(GAME, players, {"special_cards": special}, seed=seed, each_step=each)


# ---- secrecy, counterfactually --------------------------------------------------------

def _hidden_slots(state, seat, keep_hand=None, keep_draw_top=False, keep_top_onions=False):
    """Where the cards `seat` cannot see lie: other hands, the draw pile, onions."""
    slots = []
    for s, hand in enumerate(state["hands"]):
        if s not in (seat, keep_hand):
            slots += [("hands", s, i) for i in range(len(hand))]
    slots += [("draw", None, i) for i in range(1 if keep_draw_top else 0, len(state["draw"]))]
    for s, pile in enumerate(state["piles"]):
        for i, entry in enumerate(pile):
            if entry["onion"] and not (keep_top_onions and i == len(pile) - 1):
                slots.append(("piles", s, i))
    return slots


def _counterfactual(state, slots, chooser):
    """A copy of `state` with the cards in `slots` permuted."""
    other = copy.deepcopy(state)

    def get(where, s, i):
        if where == "draw":
            return other["draw"][i]
        if where == "hands":
            return other["hands"][s][i]
        return other["piles"][s][i]["card"]

    cards = [get(*slot) for slot in slots]
    chooser.shuffle(cards)
    for (where, s, i), name in zip(slots, cards):
        if where == "draw":
            other["draw"][i] = name
        elif where == "hands":
            other["hands"][s][i] = name
        else:
            other["piles"][s][i]["card"] = name
    other["hands"] = [heul_doch._sorted(hand) for hand in other["hands"]]
    return other


@pytest.mark.parametrize("special", [False, True])
@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), players=st.integers(3, 6))
def test_views_legal_actions_and_events_leak_nothing(players, special, seed):
    chooser = random.Random(seed)

    def each(state, seat, action, events):
        if state["finished"] or chooser.random() > 0.3:
            return
        viewer = chooser.choice([None, *range(players)])
        # what the viewer sees now
        b = _counterfactual(state, _hidden_slots(state, viewer), chooser)
        assert all_cards(b) == all_cards(state)
        harness.assert_same_for(GAME, viewer, state, b)
        # and the events of the next action, whoever plays it
        turn = state["turn"]
        slots = _hidden_slots(state, viewer, keep_hand=turn, keep_draw_top=(turn == viewer),
                              keep_top_onions=True)
        b = _counterfactual(state, slots, chooser)
        action = chooser.choice(GAME.legal(state, turn))
        a = copy.deepcopy(state)
        events_a = GAME.play(a, turn, action, Rng.from_seed("x"))
        events_b = GAME.play(b, turn, action, Rng.from_seed("x"))
        if not a["finished"]:
            harness.assert_same_for(GAME, viewer, a, b, events_a, events_b)

    harness.random_playout(GAME, players, {"special_cards": special}, seed=seed, each_step=each)


def _answers(state, seat):
    """What check() says (accepted, or reason, message and details) to every
    candidate action of `seat`, over every card of the deck and every target."""
    names = list(dict.fromkeys(heul_doch.deck(True)))
    candidates = [a for name in names
                  for a in (*(up(name, p) for p in heul_doch.PILES), as_onion(name))]
    candidates += [{"catapult": {}}, {"werewolf": {}}]
    candidates += [{"beach_towel": {"seat": s}} for s in range(-1, state["players"] + 1)]
    candidates += [{"carousel": {"direction": d}} for d in ("left", "right", "up")]
    answers = []
    for candidate in candidates:
        try:
            GAME.check(state, seat, candidate)
            answers.append(None)
        except RulesError as error:
            answers.append((error.reason, error.message, error.details))
    return answers


@pytest.mark.parametrize("special", [False, True])
@settings(max_examples=10, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), players=st.integers(3, 6))
def test_errors_leak_nothing(players, special, seed):
    """Refusals (reason, message, details) of the seat to play are the same whatever
    lies where it cannot see: other hands, the draw pile, the onions."""
    chooser = random.Random(seed)

    def each(state, seat, action, events):
        if state["finished"] or chooser.random() > 0.15:
            return
        turn = state["turn"]
        other = _counterfactual(state, _hidden_slots(state, turn), chooser)
        assert _answers(state, turn) == _answers(other, turn)

    harness.random_playout(GAME, players, {"special_cards": special}, seed=seed, each_step=each)
