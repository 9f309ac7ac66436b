"""Heck engine: one scenario per rule (service/games/heck.md), every checked example and
heck card, then properties over random playouts (2-5 players, every option
combination) and counterfactual secrecy."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from google.protobuf import json_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service import wire
from parlor.service.games.base import OptionError, RulesError
from parlor.service.games.heck import CRITTERS, GAME, HECK_CARDS, SNAKES
from parlor.service.games.rng import Rng
from tests.games import harness

# ---- helpers ------------------------------------------------------------------------


def critter(word: str, *traits: str) -> int:
    """The critter of `word` listing exactly these traits ("hiss", "chomp 2")."""
    want = []
    for text in traits:
        name, _, threshold = text.partition(" ")
        want.append({"trait": name, "threshold": int(threshold or 0)})
    return next(c["id"] for c in CRITTERS if c["word"] == word and c["traits"] == want)


def heck_only(word: str) -> list[int]:
    return [c["id"] for c in CRITTERS if c["word"] == word and c["heck_only"]]


def cards(kind: str, word: str = "") -> list[int]:
    return [i for i, c in enumerate(HECK_CARDS) if c == {"kind": kind, "word": word}]


def snake_ids(specs: list[tuple[int, int, int]]) -> list[int]:
    """Distinct snake card ids with these (hiss, slither, chomp) values, in order."""
    used: list[int] = []
    for spec in specs:
        used.append(next(i for i, s in enumerate(SNAKES)
                         if (s["hiss"], s["slither"], s["chomp"]) == spec and i not in used))
    return used


def bet(hiss: int = 0, slither: int = 0, chomp: int = 0, heck: int = 0) -> dict:
    return {"safe": False, "hiss": hiss, "slither": slither, "chomp": chomp, "heck": heck}


SAFE = {"safe": True, "hiss": 0, "slither": 0, "chomp": 0, "heck": 0}
ALL_SNAKE = (2, 1, 1)  # a snake that takes 2 hiss, 1 slither, 1 chomp
DEFAULT_SNAKES = [ALL_SNAKE, ALL_SNAKE, (2, 0, 2), (2, 0, 2), (2, 2, 0)]  # hiss 2 for all


def game(players: int = 2, *, slots=(None, None, None), critter_deck=(), heck_deck=(),
         snakes=None, eggs=None, options=None, **arrangement):
    """A game set up from explicit decks. `snakes` are round 1's, in seat order
    (drawn from first_seat clockwise); `eggs` are per seat (all green). Heck
    deck and discards default to empty, so heck eggs draw nothing."""
    options = {"first_seat": 0, **(options or {})}
    first = options["first_seat"]
    specs = snakes or DEFAULT_SNAKES[:players]
    ids = snake_ids(specs)
    order = [(first + i) % players for i in range(players)]
    arrangement.setdefault("snake_deck", [ids[seat] for seat in order])
    arrangement.update(slots=list(slots), critter_deck=list(critter_deck),
                       heck_deck=list(heck_deck))
    if eggs is not None:
        arrangement["green"] = list(eggs)
    return harness.start(GAME, players, options, arrangement=arrangement)


def play_round(state, rng, *bets) -> list[dict]:
    """Every seat bets (seat order); the public forms of all the events."""
    events = []
    for seat, b in enumerate(bets):
        events += harness.play(GAME, state, seat, b, rng)
    return [e.public for e in events]


def of(events: list[dict], kind: str) -> list[dict]:
    return [e[kind] for e in events if kind in e]


def kinds(events: list[dict]) -> list[str]:
    return [next(iter(e)) for e in events]


def view_critter(cid: int) -> dict:
    """A critter as views and events show it (the loaded card, id included)."""
    return CRITTERS[cid]


# ---- data and options ---------------------------------------------------------------


def test_default_decks_match_the_page():
    combos = Counter((s["hiss"], s["slither"], s["chomp"]) for s in SNAKES)
    assert len(SNAKES) == 24 and len(combos) == 12
    assert all(sum(c) == 4 and max(c) <= 3 and n == 2 for c, n in combos.items())
    assert len(CRITTERS) == 30 and len({c["name"] for c in CRITTERS}) == 30
    for word in ("bleep", "flip", "block"):
        mine = [c for c in CRITTERS if c["word"] == word]
        shapes = sorted(tuple((t["trait"], t["threshold"]) for t in c["traits"]) for c in mine)
        assert shapes == sorted([(), (), (("hiss", 0),), (("slither", 0),), (("chomp", 0),),
                                 (("hiss", 2),), (("slither", 2),), (("chomp", 2),),
                                 (("hiss", 0), ("chomp", 0)), (("slither", 3),)])
    kinds_ = Counter((c["kind"], c["word"]) for c in HECK_CARDS)
    assert kinds_ == {("friendship", "bleep"): 2, ("friendship", "flip"): 2,
                      ("friendship", "block"): 2, ("found_egg", ""): 3,
                      ("cracked_egg", ""): 3, ("runaway", ""): 2, ("shoo", ""): 2,
                      ("stampede", ""): 2}


def test_options_defaults_and_limits():
    assert GAME.resolve_options(3, {}) == {"long_game": False, "max_rounds": 40,
                                           "first_seat": None}
    for bad in ({"max_rounds": 0}, {"first_seat": 3}, {"long_game": 1}, {"colour": "x"}):
        with pytest.raises(OptionError):
            GAME.resolve_options(3, bad)
    with pytest.raises(OptionError):
        GAME.resolve_options(6, {})
    back = wire.options_to_plain(harness.to_message("heck", "options", {"max_rounds": 7}))
    assert back == {"max_rounds": 7}


def test_setup_deals_snakes_from_the_first_player_and_turns_three_critters():
    state, _ = harness.start(GAME, 4, {"first_seat": 2}, seed="setup")
    assert state["first"] == 2 and len(state["critter_deck"]) == 27
    assert all(cid is not None for cid in state["slots"])
    assert state["green"] == [3] * 4 and state["supply_brown"] == 3
    drawn = [state["snakes"][s] for s in (2, 3, 0, 1)]
    assert len(state["snake_deck"]) == 20 and len(set(drawn)) == 4
    events = GAME.opening_events(state)
    assert [next(iter(e.public)) for e in events] == ["slot_refilled"] * 3 + ["round_started"]
    assert events[-1].public == {"round_started": {"round": 1, "first_player": 2}}
    assert events[-1].seen_by(3)["round_started"]["snake"] == SNAKES[state["snakes"][3]]
    # first_seat unset: drawn with the RNG, and shown in the options in force.
    state, _ = harness.start(GAME, 5, {}, seed="drawn")
    assert GAME.view(state, None)["options"]["first_seat"] == state["first"]


def test_snakes_are_drawn_clockwise_from_the_marker_which_moves_each_round():
    ids = snake_ids([(3, 1, 0), (0, 1, 3), (1, 3, 0), (2, 2, 0), (0, 2, 2), (2, 0, 2)])
    state, rng = game(3, options={"first_seat": 1}, eggs=[1, 1, 1],
                      slots=heck_only("bleep") + [None], snake_deck=ids)
    assert state["snakes"] == [ids[2], ids[0], ids[1]]
    events = play_round(state, rng, bet(heck=1), bet(heck=1), bet(heck=1))
    assert of(events, "round_started") == [{"round": 2, "first_player": 2}]
    assert state["snakes"] == [ids[4], ids[5], ids[3]]


# ---- betting -------------------------------------------------------------------------


def test_checked_example_capacity_rejects_a_hiss_bet_on_a_hissless_snake():
    state, rng = game(snakes=[(0, 3, 1), ALL_SNAKE], eggs=[1, 3])
    harness.rejected(GAME, state, 0, bet(hiss=1), rng, "OVER_CAPACITY")
    harness.play(GAME, state, 0, bet(slither=1), rng)


def test_bets_must_place_every_egg_within_capacity():
    state, rng = game(snakes=[(0, 3, 1), ALL_SNAKE])
    harness.rejected(GAME, state, 0, bet(slither=2), rng, "EGGS_UNPLACED")
    harness.rejected(GAME, state, 0, bet(slither=3, heck=1), rng, "NOT_ENOUGH_EGGS")
    harness.rejected(GAME, state, 0, bet(chomp=2, heck=1), rng, "OVER_CAPACITY")
    harness.rejected(GAME, state, 0, {**SAFE, "heck": 3}, rng, "SAFE_BET_HAS_EGGS")
    harness.rejected(GAME, state, 0, bet(), rng, "EGGS_UNPLACED")
    harness.rejected(GAME, state, 0, {}, rng, "EGGS_UNPLACED")  # an empty message: no pass
    harness.rejected(GAME, state, 0, {"safe": False}, rng, "EGGS_UNPLACED")
    harness.rejected(GAME, state, 0, {"hiss": 2**70, "heck": 1}, rng, "OVER_CAPACITY")
    harness.rejected(GAME, state, 0, {"heck": 2**70}, rng, "NOT_ENOUGH_EGGS")
    harness.rejected(GAME, state, 0, bet(slither=-1, heck=4), rng, "NEGATIVE_EGGS")
    for malformed in ("safe", None, [1], {"safe": 1}, {"hiss": "1", "heck": 2},
                      {"heck": True}, {"heck": 3, "pass": 1}, {"heck": 3.0}):
        harness.rejected(GAME, state, 0, malformed, rng, "MALFORMED_ACTION")
    harness.rejected(GAME, state, 7, bet(heck=3), rng, "UNKNOWN_SEAT")
    harness.rejected(GAME, state, "0", bet(heck=3), rng, "UNKNOWN_SEAT")
    harness.play(GAME, state, 0, bet(slither=3), rng)
    harness.rejected(GAME, state, 0, bet(slither=3), rng, "ALREADY_COMMITTED")
    # Missing fields take their proto defaults: {"safe": true} is a safe bet.
    harness.play(GAME, state, 1, {"safe": True}, rng)


def test_legal_bets_are_complete_and_short():
    state, rng = game(snakes=[(2, 1, 1), (0, 3, 1)], eggs=[6, 1])
    legal = GAME.legal(state, 0)
    assert legal[0] == SAFE and len(legal) == 13 and len({str(a) for a in legal}) == 13
    assert all(sum(a[f] for f in ("hiss", "slither", "chomp", "heck")) == 6 for a in legal[1:])
    assert GAME.legal(state, 1) == [SAFE, bet(heck=1), bet(chomp=1), bet(slither=1)]
    harness.assert_wire(GAME, state)


def test_a_seat_with_no_snake_may_bet_only_safe_or_heck():
    state, rng = game(snake_deck=snake_ids([ALL_SNAKE]))
    assert state["snakes"][1] is None
    assert GAME.legal(state, 1) == [SAFE, bet(heck=3)]
    assert "snake" not in wire.to_plain(harness.to_message("heck", "view", GAME.view(state, 1)))


# ---- the reveal: safe, critters, checked examples ----------------------------------


def test_checked_example_threshold_critter_needs_the_most_and_the_threshold():
    target = critter("bleep", "chomp 2")
    state, rng = game(slots=[target, *heck_only("flip")])
    events = play_round(state, rng, bet(chomp=1, hiss=2), bet(chomp=1, hiss=2))
    assert of(events, "critter_unclaimed") == [
        {"slot": 1, "critter": view_critter(target), "reason": "tie"}]
    state, rng = game(slots=[target, *heck_only("flip")])
    events = play_round(state, rng, bet(chomp=1, hiss=2), bet(heck=3))
    assert of(events, "critter_unclaimed") == [
        {"slot": 1, "critter": view_critter(target), "reason": "threshold"}]
    assert state["slots"][0] == target
    state, rng = game(slots=[target, *heck_only("flip")], snakes=[(1, 0, 3), (1, 0, 3)])
    events = play_round(state, rng, bet(chomp=2, hiss=1), bet(chomp=1, hiss=1, heck=1))
    assert of(events, "critter_befriended") == [
        {"seat": 0, "critter": view_critter(target), "slot": 1, "cause": "bet"}]
    assert state["friends"] == [[target], []]


def test_checked_example_tie_for_most_leaves_the_critter():
    target = critter("flip", "hiss")
    state, rng = game(3, slots=[target, None, None], critter_deck=heck_only("block"))
    events = play_round(state, rng, bet(hiss=2, heck=1), bet(hiss=2, heck=1),
                        bet(hiss=1, heck=2))
    assert of(events, "critter_unclaimed")[0]["reason"] == "tie"
    assert state["slots"][0] == target and state["friends"] == [[], [], []]


def test_checked_example_multi_trait_critter_needs_the_most_on_every_trait():
    target = critter("block", "hiss", "chomp")
    state, rng = game(slots=[target, None, None], critter_deck=heck_only("block"),
                      snakes=[(2, 1, 1), (1, 1, 2)])
    events = play_round(state, rng, bet(hiss=2, chomp=1), bet(chomp=2, heck=1))
    assert of(events, "critter_unclaimed") == [
        {"slot": 1, "critter": view_critter(target), "reason": "split"}]
    assert state["slots"][0] == target
    # With the most on both, it is won.
    state, rng = game(slots=[target, None, None], critter_deck=heck_only("block"))
    events = play_round(state, rng, bet(hiss=2, chomp=1), bet(hiss=1, heck=2))
    assert state["friends"][0] == [target]


def test_nobody_betting_an_attribute_is_a_tie_at_zero_and_one_seat_wins_several():
    hiss, slither, chomp = (critter("bleep", "hiss"), critter("flip", "slither"),
                            critter("block", "chomp"))
    state, rng = game(slots=[hiss, slither, chomp], critter_deck=heck_only("bleep"))
    events = play_round(state, rng, bet(hiss=1, slither=1, heck=1), bet(heck=3))
    assert state["friends"][0] == [hiss, slither]
    assert of(events, "critter_unclaimed")[0]["reason"] == "tie"
    assert state["slots"] == [heck_only("bleep")[0], heck_only("bleep")[1], chomp]


def test_heck_only_critters_cannot_be_won_by_bets():
    state, rng = game(slots=heck_only("flip") + [None], critter_deck=[critter("flip", "hiss")])
    events = play_round(state, rng, bet(hiss=2, slither=1), bet(heck=3))
    assert of(events, "critter_befriended") == [] and of(events, "critter_unclaimed") == []


def test_safe_seats_take_supply_eggs_from_the_first_player_while_any_are_left():
    state, rng = game(3, options={"first_seat": 1}, slots=heck_only("flip") + [None],
                      supply_brown=1, supply_green=0)
    events = play_round(state, rng, SAFE, bet(heck=3), SAFE)
    # Seat 0 finds the supply empty: it gets nothing, and no event says otherwise.
    assert of(events, "egg_taken") == [
        {"seat": 2, "cause": "safe", "colour": "brown", "eggs": 4, "supply": 0}]
    assert state["green"][0] == 3 and state["brown"][0] == 0
    assert state["brown"] == [0, 0, 1]
    assert GAME.view(state, 0)["seats"][2] == {
        "seat": 2, "eggs": 4, "brown_eggs": 1, "friends": [], "held": [], "committed": False}


def test_five_safe_seats_share_three_supply_eggs_from_the_first_player_round():
    """Reveal a (safe): one egg each, in seat order from the first player, while any is left."""
    state, rng = game(5, options={"first_seat": 3}, slots=heck_only("flip") + [None])
    assert state["supply_brown"] == 3 and state["supply_green"] == 0
    events = play_round(state, rng, SAFE, SAFE, SAFE, SAFE, SAFE)
    # The marker is on seat 3: seats 3, 4 and 0 get the eggs, seats 1 and 2 find none.
    assert [(e["seat"], e["colour"], e["eggs"], e["supply"]) for e in of(events, "egg_taken")] \
        == [(3, "brown", 4, 2), (4, "brown", 4, 1), (0, "brown", 4, 0)]
    assert state["brown"] == [1, 0, 0, 1, 1] and state["green"] == [3] * 5
    assert [s["eggs"] for s in GAME.view(state, None)["seats"]] == [4, 3, 3, 4, 4]
    assert of(events, "round_started") == [{"round": 2, "first_player": 4}]


def test_safe_seats_take_green_supply_eggs_once_the_brown_ones_run_out():
    """Reveal a (safe) and Players: a supply egg is brown if one is left, else green."""
    state, rng = game(3, options={"first_seat": 1}, slots=heck_only("flip") + [None],
                      supply_brown=1, supply_green=2)
    events = play_round(state, rng, SAFE, SAFE, SAFE)
    assert [(e["seat"], e["colour"], e["supply"]) for e in of(events, "egg_taken")] == [
        (1, "brown", 2), (2, "green", 1), (0, "green", 0)]
    assert state["brown"] == [0, 1, 0] and state["green"] == [4, 3, 4]
    assert (state["supply_brown"], state["supply_green"]) == (0, 0)


def test_the_reveal_shows_every_snake_and_bet_and_then_they_are_public():
    state, rng = game(snakes=[(3, 1, 0), (0, 1, 3)], slots=heck_only("flip") + [None])
    harness.play(GAME, state, 0, bet(hiss=3), rng)
    assert GAME.view(state, 1)["last_reveal"] is None
    assert GAME.view(state, 1)["seats"][0]["committed"] is True
    assert GAME.view(state, 0)["bet"] == bet(hiss=3) and GAME.view(state, 1)["bet"] is None
    events = [e.public for e in harness.play(GAME, state, 1, bet(chomp=3), rng)]
    reveal = {"round": 1, "bets": [
        {"seat": 0, "snake": {"hiss": 3, "slither": 1, "chomp": 0}, **bet(hiss=3)},
        {"seat": 1, "snake": {"hiss": 0, "slither": 1, "chomp": 3}, **bet(chomp=3)}]}
    assert events[1] == {"bets_revealed": reveal}
    assert GAME.view(state, None)["last_reveal"] == reveal


# ---- heck draws ----------------------------------------------------------------------


def test_heck_draw_order_most_eggs_then_fewest_friends_then_seat_order():
    found = cards("found_egg") + cards("cracked_egg")
    state, rng = game(3, eggs=[1, 2, 1], slots=heck_only("flip") + [None],
                      friends=[[critter("bleep", "hiss")], [], []], heck_deck=found)
    events = play_round(state, rng, bet(heck=1), bet(heck=2), bet(heck=1))
    assert [d["seat"] for d in of(events, "heck_card_drawn")] == [1, 1, 2, 0]
    # All tied on eggs and friends: seat order from the first player.
    state, rng = game(3, eggs=[1, 1, 1], options={"first_seat": 2},
                      slots=heck_only("flip") + [None], heck_deck=found)
    events = play_round(state, rng, bet(heck=1), bet(heck=1), bet(heck=1))
    assert [d["seat"] for d in of(events, "heck_card_drawn")] == [2, 0, 1]


def test_heck_draw_order_across_five_seats_wraps_round_from_the_marker():
    """Reveal b (heck): most eggs, then fewest friends, then seat order from the first player."""
    newt = critter("bleep", "hiss")
    deck = cards("found_egg") + cards("cracked_egg") + cards("runaway")[:1]
    state, rng = game(5, options={"first_seat": 3}, eggs=[2, 1, 1, 1, 2],
                      friends=[[], [newt], [], [], []], slots=heck_only("flip") + [None],
                      heck_deck=deck)
    events = play_round(state, rng, bet(heck=2), bet(heck=1), bet(heck=1), bet(heck=1),
                        bet(heck=2))
    # 2 eggs: seats 4 then 0 (seat order from seat 3); 1 egg: seats 3 and 2 (no friends,
    # seat order from seat 3) before seat 1 (one friend). Each seat draws all its cards.
    assert [(d["seat"], d["card"]["kind"]) for d in of(events, "heck_card_drawn")] == [
        (4, "found_egg"), (4, "found_egg"), (0, "found_egg"), (0, "cracked_egg"),
        (3, "cracked_egg"), (2, "cracked_egg"), (1, "runaway")]
    assert [(e["seat"], e["eggs"]) for e in of(events, "egg_taken")] == [(4, 3), (4, 4), (0, 3)]
    assert of(events, "critter_lost") == [
        {"seat": 1, "critter": view_critter(newt), "cause": "runaway", "by_seat": 1}]


def test_friends_for_the_draw_order_are_counted_when_the_heck_step_starts():
    newt = critter("bleep", "hiss")
    found = cards("found_egg")
    state, rng = game(3, eggs=[2, 1, 1], friends=[[], [newt], []],
                      slots=heck_only("flip") + [None], heck_deck=[cards("shoo")[0], *found])
    events = play_round(state, rng, bet(heck=2), bet(heck=1), bet(heck=1))
    # Seat 0's Shoo leaves seats 1 and 2 both friendless, but seat 2 still draws
    # before seat 1: it had fewer friends when the step started.
    assert of(events, "critter_lost")[0]["seat"] == 1
    assert [d["seat"] for d in of(events, "heck_card_drawn")] == [0, 0, 2, 1]


def test_heck_deck_reshuffles_its_discards_when_a_draw_finds_it_empty():
    found = cards("found_egg")
    state, rng = game(eggs=[2, 1], slots=heck_only("flip") + [None], heck_deck=[found[0]],
                      heck_discard=[found[1]])
    events = play_round(state, rng, bet(heck=2), bet(heck=1))
    assert of(events, "deck_reshuffled")[0] == {"deck": "heck", "cards": 2}
    assert [d["card"] for d in of(events, "heck_card_drawn")] == \
        [{"kind": "found_egg", "word": ""}] * 3
    assert sorted(state["heck_discard"]) == sorted(found[:2]) and state["heck_deck"] == []


def test_a_heck_draw_with_deck_and_discards_empty_gives_nothing():
    snail = heck_only("flip")[0]
    friendship = cards("friendship", "flip")[0]
    state, rng = game(eggs=[2, 1], slots=[critter("bleep", "hiss"), critter("block", "slither"),
                                          critter("block", "chomp")],
                      critter_deck=[critter("block", "hiss"), snail], heck_deck=[friendship])
    events = play_round(state, rng, bet(heck=2), bet(hiss=1))
    assert of(events, "heck_card_drawn") == [
        {"seat": 0, "card": {"kind": "friendship", "word": "flip"}}, {"seat": 0, "card": None}]
    assert [r["deck"] for r in of(events, "deck_reshuffled")] == ["snake"]  # round 2's snakes
    assert state["held"] == [[0, friendship]]


def test_snake_deck_reshuffles_its_discards_when_a_draw_finds_it_empty():
    state, rng = game(slots=heck_only("flip") + [None])
    assert state["snake_deck"] == []
    events = play_round(state, rng, bet(heck=3), bet(heck=3))
    assert of(events, "deck_reshuffled") == [{"deck": "snake", "cards": 2}]
    assert None not in state["snakes"]


def test_found_egg_takes_brown_then_green_then_nothing():
    found = cards("found_egg")
    state, rng = game(eggs=[3, 1], slots=heck_only("flip") + [None], heck_deck=found,
                      supply_brown=1, supply_green=1)
    events = play_round(state, rng, bet(heck=3), bet(heck=1))
    assert [(e["seat"], e["colour"], e["eggs"], e["supply"]) for e in of(events, "egg_taken")] \
        == [(0, "brown", 4, 1), (0, "green", 5, 0)]
    # With the supply empty, a Found egg does nothing, and says so.
    assert [(e["seat"], e["card"]["kind"]) for e in of(events, "no_effect")] \
        == [(0, "found_egg"), (1, "found_egg")]
    assert state["green"] == [4, 1] and state["brown"] == [1, 0]


def test_cracked_egg_returns_brown_first_and_never_the_last_egg():
    cracked = cards("cracked_egg")
    state, rng = game(eggs=[1, 1], brown=[1, 0], slots=heck_only("flip") + [None],
                      heck_deck=cracked, supply_brown=0)
    events = play_round(state, rng, bet(heck=2), bet(heck=1))
    assert [(e["seat"], e["colour"], e["eggs"]) for e in of(events, "egg_returned")] == [(0, "brown", 1)]
    # A seat down to its last egg keeps it: the card does nothing, and says so.
    assert [(e["seat"], e["card"]["kind"]) for e in of(events, "no_effect")] \
        == [(0, "cracked_egg"), (1, "cracked_egg")]
    assert state["supply_brown"] == 1 and state["green"] == [1, 1] and state["brown"] == [0, 0]


def test_runaway_sends_your_most_recent_friend_to_the_bottom_of_the_deck():
    first, last = critter("bleep", "hiss"), critter("flip", "chomp 2")
    runaway = cards("runaway")
    state, rng = game(eggs=[1, 1], friends=[[first, last], []], heck_deck=runaway,
                      slots=heck_only("block") + [None], critter_deck=[critter("flip", "hiss")])
    events = play_round(state, rng, bet(heck=1), bet(heck=1))
    assert of(events, "critter_lost") == [
        {"seat": 0, "critter": view_critter(last), "cause": "runaway", "by_seat": 0}]
    assert of(events, "no_effect") == [{"seat": 1, "card": {"kind": "runaway", "word": ""}}]
    assert state["friends"] == [[first], []]
    # The end-of-round refill draws from the top; the runaway went to the bottom.
    assert state["slots"][2] == critter("flip", "hiss") and state["critter_deck"] == [last]


def test_shoo_hits_the_other_seat_with_most_friends_nearest_clockwise_on_ties():
    a, b, c, d, e = (critter("bleep", "hiss"), critter("bleep", "slither"),
                     critter("flip", "hiss"), critter("flip", "slither"),
                     critter("block", "hiss"))
    shoo = cards("shoo")
    # Seat 2 shoos: seats 0 and 1 tie with 2 friends, seat 0 is nearest clockwise.
    state, rng = game(3, eggs=[1, 1, 1], friends=[[a, b], [c, d], [e, *heck_only("bleep")]],
                      heck_deck=shoo[:1], slots=heck_only("block") + [None])
    events = play_round(state, rng, bet(hiss=1), bet(hiss=1), bet(heck=1))
    assert of(events, "critter_lost") == [
        {"seat": 0, "critter": view_critter(b), "cause": "shoo", "by_seat": 2}]
    # Seat 0 shoos: its own 3 friends do not count; seat 1 has the most of the others.
    state, rng = game(3, eggs=[1, 1, 1], friends=[[a, b, c], [d], []],
                      heck_deck=shoo[:1], slots=heck_only("block") + [None])
    events = play_round(state, rng, bet(heck=1), bet(hiss=1), bet(hiss=1))
    assert of(events, "critter_lost")[0]["seat"] == 1 and state["friends"][1] == []
    # Nobody else has a friend: no effect.
    state, rng = game(2, eggs=[1, 1], friends=[[a], []], heck_deck=shoo,
                      slots=heck_only("block") + [None])
    events = play_round(state, rng, bet(heck=1), bet(heck=1))
    assert of(events, "no_effect") == [{"seat": 0, "card": {"kind": "shoo", "word": ""}}]
    assert of(events, "critter_lost")[0] == {"seat": 0, "critter": view_critter(a),
                                             "cause": "shoo", "by_seat": 1}


def test_stampede_replaces_active_critters_and_the_new_ones_can_be_won_this_round():
    bleep_hiss, block_chomp = critter("bleep", "hiss"), critter("block", "chomp")
    flip_slither, block_hiss = critter("flip", "slither"), critter("block", "hiss")
    keeper = heck_only("flip")[0]
    state, rng = game(eggs=[1, 1], slots=[bleep_hiss, keeper, block_chomp],
                      critter_deck=[flip_slither, block_hiss], heck_deck=cards("stampede")[:1])
    events = play_round(state, rng, bet(heck=1), bet(slither=1))
    assert of(events, "stampede") == [{"seat": 0, "critters": [view_critter(bleep_hiss),
                                                              view_critter(block_chomp)]}]
    assert [r["critter"]["id"] for r in of(events, "slot_refilled")][:2] == \
        [flip_slither, block_hiss]
    assert state["friends"] == [[], [flip_slither]]
    # End of round: slot 1 refilled from what the stampede sent to the bottom.
    assert state["slots"] == [bleep_hiss, keeper, block_hiss]
    assert state["critter_deck"] == [block_chomp]


def test_stampede_with_an_empty_deck_brings_the_same_critters_back():
    bleep_hiss = critter("bleep", "hiss")
    state, rng = game(eggs=[1, 1], slots=[bleep_hiss, None, None],
                      heck_deck=cards("stampede")[:1])
    play_round(state, rng, bet(heck=1), bet(hiss=1))
    assert state["friends"] == [[], [bleep_hiss]]
    assert state["finished"] and state["end_reason"] == "no_critters"
    assert GAME.outcome(state).winners == [1]


def test_a_held_card_befriends_a_critter_turned_up_by_a_stampede_refill():
    moth = heck_only("bleep")[0]
    held = cards("friendship", "bleep")[0]
    flip_hiss, block_hiss, bleep_slither, flip_slither, block_chomp = (
        critter("flip", "hiss"), critter("block", "hiss"), critter("bleep", "slither"),
        critter("flip", "slither"), critter("block", "chomp"))
    state, rng = game(eggs=[1, 1], slots=[flip_hiss, block_hiss, bleep_slither],
                      critter_deck=[moth, flip_slither, block_chomp], held=[[0, held]],
                      heck_deck=cards("stampede")[:1])
    events = play_round(state, rng, bet(slither=1), bet(heck=1))
    assert of(events, "critter_befriended") == [
        {"seat": 0, "critter": view_critter(moth), "slot": 1, "cause": "held_friendship"},
        {"seat": 0, "critter": view_critter(flip_slither), "slot": 1, "cause": "bet"}]
    assert [r["critter"]["id"] for r in of(events, "slot_refilled")][:3] == \
        [moth, flip_slither, block_chomp]
    assert state["held"] == [] and state["heck_discard"] == [cards("stampede")[0], held]


def test_stampede_refills_at_once_a_slot_a_friendship_card_emptied_in_the_same_step():
    """Stampede: every empty slot is refilled at once, also one a Friendship card just emptied."""
    moth = heck_only("bleep")[0]
    flip_hiss, block_chomp = critter("flip", "hiss"), critter("block", "chomp")
    new1, new2, new3 = (critter("block", "hiss"), critter("bleep", "slither"),
                        critter("flip", "chomp"))
    state, rng = game(eggs=[2, 1], slots=[flip_hiss, moth, block_chomp],
                      critter_deck=[new1, new2, new3],
                      heck_deck=[cards("friendship", "bleep")[0], cards("stampede")[0]])
    events = play_round(state, rng, bet(heck=2), bet(slither=1))
    assert kinds(events)[3:10] == ["heck_card_drawn", "critter_befriended", "heck_card_drawn",
                                   "stampede", "slot_refilled", "slot_refilled", "slot_refilled"]
    assert of(events, "critter_befriended")[0] == {
        "seat": 0, "critter": view_critter(moth), "slot": 2, "cause": "friendship"}
    assert of(events, "stampede") == [{"seat": 0, "critters": [view_critter(flip_hiss),
                                                              view_critter(block_chomp)]}]
    # Slot 2 (emptied by the Friendship card) is refilled by the Stampede, and its new
    # critter is won this round; the end-of-round refill then takes the stampeded Frog.
    assert [(r["slot"], r["critter"]["id"]) for r in of(events, "slot_refilled")] == [
        (1, new1), (2, new2), (3, new3), (2, flip_hiss)]
    assert of(events, "critter_befriended")[1] == {
        "seat": 1, "critter": view_critter(new2), "slot": 2, "cause": "bet"}
    assert state["friends"] == [[moth], [new2]]
    assert state["slots"] == [new1, flip_hiss, new3] and state["critter_deck"] == [block_chomp]


def test_friendship_befriends_a_heck_only_critter_a_stampede_turned_up_in_the_same_step():
    """Friendship: an active heck-only critter of its word is befriended at once, also one a
    Stampede refill turned up earlier in the heck step (the card is not held)."""
    snail = heck_only("flip")[0]
    old = [critter("bleep", "hiss"), critter("block", "hiss"), critter("block", "chomp")]
    new2, new3 = critter("bleep", "slither"), critter("bleep", "chomp")
    friendship = cards("friendship", "flip")[0]
    state, rng = game(eggs=[1, 1], slots=old, critter_deck=[snail, new2, new3],
                      heck_deck=[cards("stampede")[0], friendship])
    events = play_round(state, rng, bet(heck=1), bet(heck=1))
    # Seat 0 draws the Stampede (snail to slot 1), then seat 1 draws Friendship(flip).
    assert [(d["seat"], d["card"]["kind"]) for d in of(events, "heck_card_drawn")] == [
        (0, "stampede"), (1, "friendship")]
    assert of(events, "card_held") == [] and state["held"] == []
    assert of(events, "critter_befriended") == [
        {"seat": 1, "critter": view_critter(snail), "slot": 1, "cause": "friendship"}]
    assert state["friends"] == [[], [snail]]
    assert state["heck_discard"] == [cards("stampede")[0], friendship]
    # Slot 1 stays empty until the end-of-round refill brings back the first stampeded critter.
    assert [(r["slot"], r["critter"]["id"]) for r in of(events, "slot_refilled")] == [
        (1, snail), (2, new2), (3, new3), (1, old[0])]
    assert state["slots"] == [old[0], new2, new3]


# ---- Friendship ---------------------------------------------------------------------


def test_friendship_befriends_the_lowest_active_heck_only_critter_of_its_word():
    moth, toad = heck_only("bleep")
    refill = critter("flip", "hiss")
    state, rng = game(eggs=[1, 1], slots=[critter("bleep", "hiss"), moth, toad],
                      critter_deck=[refill], heck_deck=cards("friendship", "bleep")[:1])
    events = play_round(state, rng, bet(heck=1), bet(slither=1))
    i = kinds(events).index("critter_befriended")
    assert events[i]["critter_befriended"] == {
        "seat": 0, "critter": view_critter(moth), "slot": 2, "cause": "friendship"}
    # The slot stays empty through the critters step; the end-of-round refill fills it.
    assert of(events, "slot_refilled") == [{"slot": 2, "critter": view_critter(refill)}]
    assert kinds(events).index("slot_refilled") > kinds(events).index("critter_unclaimed")
    assert state["friends"][0] == [moth] and state["heck_discard"] == cards("friendship",
                                                                            "bleep")[:1]


def test_held_card_befriends_at_refill_in_order_of_holding():
    snail, vole = heck_only("flip")
    older, newer = cards("friendship", "flip")
    bleep_hiss, next_up = critter("bleep", "hiss"), critter("block", "slither")
    state, rng = game(eggs=[1, 1], slots=[bleep_hiss, critter("block", "hiss", "chomp"),
                                          critter("block", "chomp")],
                      critter_deck=[snail, next_up, vole], heck_deck=[newer], held=[[1, older]])
    events = play_round(state, rng, bet(heck=1), bet(hiss=1))
    assert of(events, "card_held") == [{"seat": 0, "card": {"kind": "friendship",
                                                           "word": "flip"}}]
    view = GAME.view(state, None)
    assert view["held"] == [{"seat": 0, "card": {"kind": "friendship", "word": "flip"}}]
    assert of(events, "critter_befriended") == [
        {"seat": 1, "critter": view_critter(bleep_hiss), "slot": 1, "cause": "bet"},
        {"seat": 1, "critter": view_critter(snail), "slot": 1, "cause": "held_friendship"}]
    assert [r["critter"]["id"] for r in of(events, "slot_refilled")] == [snail, next_up]
    assert state["friends"] == [[], [bleep_hiss, snail]]
    assert state["held"] == [[0, newer]] and state["heck_discard"] == [older]
    assert view["seats"][0]["held"] == [{"kind": "friendship", "word": "flip"}]


def test_one_refill_turning_up_two_heck_only_critters_serves_two_holders_oldest_first():
    """Friendship: each heck-only critter turned up goes to the longest-held matching card,
    and the slot is refilled again."""
    moth, toad = heck_only("bleep")
    older, newer = cards("friendship", "bleep")
    won, after = critter("flip", "hiss"), critter("block", "slither")
    # Seat 2 has held its card longest, although seat 1 comes first in seat order.
    state, rng = game(3, eggs=[1, 1, 1], slots=[won, critter("block", "chomp"), None],
                      critter_deck=[moth, toad, after], held=[[2, older], [1, newer]])
    events = play_round(state, rng, bet(hiss=1), bet(heck=1), bet(heck=1))
    assert [(r["slot"], r["critter"]["id"]) for r in of(events, "slot_refilled")] == [
        (1, moth), (1, toad), (1, after)]
    assert of(events, "critter_befriended") == [
        {"seat": 0, "critter": view_critter(won), "slot": 1, "cause": "bet"},
        {"seat": 2, "critter": view_critter(moth), "slot": 1, "cause": "held_friendship"},
        {"seat": 1, "critter": view_critter(toad), "slot": 1, "cause": "held_friendship"}]
    assert state["friends"] == [[won], [toad], [moth]]
    assert state["held"] == [] and state["heck_discard"] == [older, newer]
    assert state["slots"] == [after, critter("block", "chomp"), None]


def test_held_cards_are_discarded_once_no_heck_only_critter_of_their_word_is_left():
    snail, vole = heck_only("flip")
    mine, theirs = cards("friendship", "flip")
    state, rng = game(eggs=[1, 1], slots=[critter("bleep", "hiss"), None, None],
                      critter_deck=[snail, critter("block", "hiss")],
                      friends=[[vole], []], held=[[1, theirs], [0, mine]])
    events = play_round(state, rng, bet(hiss=1), bet(heck=1))
    assert of(events, "critter_befriended")[1]["critter"]["id"] == snail
    assert of(events, "held_card_discarded") == [
        {"seat": 0, "card": {"kind": "friendship", "word": "flip"}}]
    assert state["held"] == [] and sorted(state["heck_discard"]) == sorted([mine, theirs])


def test_a_friendship_card_with_no_critter_of_its_word_left_is_discarded_at_once():
    snail, vole = heck_only("flip")
    state, rng = game(eggs=[1, 1], slots=[critter("bleep", "hiss"), None, None],
                      critter_deck=[critter("block", "hiss")], friends=[[snail], [vole]],
                      heck_deck=cards("friendship", "flip")[:1])
    events = play_round(state, rng, bet(heck=1), bet(hiss=1))
    assert kinds(events)[3:6] == ["heck_card_drawn", "card_held", "held_card_discarded"]
    assert state["held"] == []


def test_a_heck_only_critter_back_in_the_deck_keeps_held_cards_alive():
    snail, vole = heck_only("flip")
    friendship = cards("friendship", "flip")[0]
    state, rng = game(eggs=[2, 1], slots=[critter("bleep", "hiss"), critter("block", "slither"),
                                          critter("block", "chomp")],
                      critter_deck=[critter("block", "hiss")], friends=[[snail], [vole]],
                      heck_deck=[cards("runaway")[0], friendship])
    events = play_round(state, rng, bet(heck=2), bet(slither=1))
    assert of(events, "critter_lost")[0]["critter"]["id"] == snail
    assert state["held"] == [[0, friendship]] and state["critter_deck"] == [snail]


# ---- winning -------------------------------------------------------------------------


def test_checked_example_a_clique_of_three_wins_at_once_with_four_friends():
    flips = [critter("flip", "hiss"), critter("flip", "slither")]
    target, later = critter("flip", "chomp"), critter("bleep", "slither")
    state, rng = game(friends=[[*flips, critter("bleep", "hiss")], []],
                      slots=[target, later, None], critter_deck=[critter("block", "hiss")])
    events = play_round(state, rng, bet(chomp=1, heck=2), bet(slither=1, heck=2))
    assert events[-1] == {"game_ended": {"reason": "clique", "winners": [0], "word": "flip"}}
    assert state["finished"] and GAME.to_act(state) == []
    assert state["slots"][1] == later and state["friends"][1] == []  # resolution stopped
    assert state["round"] == 1 and state["first"] == 0
    outcome = GAME.outcome(state)
    assert outcome.scores == [4, 0] and outcome.winners == [0]
    assert GAME.view(state, 1)["end_reason"] == "clique"
    harness.rejected(GAME, state, 0, bet(heck=3), rng, "GAME_OVER")


def test_five_friends_win_at_once_even_mid_heck_step():
    four = [critter("bleep", "hiss"), critter("bleep", "slither"),
            critter("flip", "hiss"), critter("flip", "slither")]
    moth = heck_only("block")[0]
    state, rng = game(eggs=[2, 3], friends=[four, []], slots=[critter("block", "hiss"), moth,
                                                             None],
                      heck_deck=[cards("friendship", "block")[0], cards("found_egg")[0]])
    events = play_round(state, rng, bet(heck=2), bet(hiss=2, heck=1))
    assert events[-1] == {"game_ended": {"reason": "friends", "winners": [0], "word": None}}
    assert len(state["heck_deck"]) == 1 and state["green"] == [2, 3]  # second card never drawn
    assert of(events, "heck_card_drawn") == [
        {"seat": 0, "card": {"kind": "friendship", "word": "block"}}]
    assert state["slots"][0] == critter("block", "hiss")  # the critters step never ran
    assert GAME.outcome(state).scores == [5, 0]


def test_a_win_in_slot_one_stops_the_critters_step():
    four = [critter("bleep", "hiss"), critter("bleep", "slither"),
            critter("flip", "hiss"), critter("flip", "slither")]
    state, rng = game(friends=[four, []], slots=[critter("block", "hiss"),
                                                 critter("block", "slither"), None])
    events = play_round(state, rng, bet(hiss=1, heck=2), bet(slither=1, heck=2))
    assert of(events, "critter_befriended") == [{"seat": 0, "critter": view_critter(
        critter("block", "hiss")), "slot": 1, "cause": "bet"}]
    assert GAME.outcome(state).winners == [0]


def test_a_held_card_can_win_the_game_at_the_refill():
    two_blocks = [critter("block", "hiss"), critter("block", "slither")]
    moth = heck_only("block")[0]
    state, rng = game(friends=[[], two_blocks], held=[[1, cards("friendship", "block")[0]]],
                      slots=[critter("bleep", "hiss"), None, None],
                      critter_deck=[moth, critter("flip", "hiss")])
    events = play_round(state, rng, bet(hiss=1, heck=2), bet(heck=3))
    assert events[-1]["game_ended"] == {"reason": "clique", "winners": [1], "word": "block"}
    assert state["slots"] == [None, None, None] and state["critter_deck"] == [
        critter("flip", "hiss")]


def test_long_game_needs_seven_friends_or_a_clique_of_four():
    flips = [critter("flip", "hiss"), critter("flip", "slither")]
    state, rng = game(options={"long_game": True}, friends=[[*flips], []],
                      slots=[critter("flip", "chomp"), critter("flip", "hiss", "chomp"), None],
                      critter_deck=[critter("bleep", "hiss")],
                      snake_deck=snake_ids([(2, 1, 1), (2, 1, 1), (1, 1, 2), (1, 1, 2)]))
    view = GAME.view(state, None)
    assert (view["friends_to_win"], view["clique_to_win"]) == (7, 4)
    play_round(state, rng, bet(chomp=1, heck=2), bet(heck=3))
    assert not state["finished"] and len(state["friends"][0]) == 3  # 3 flips: no clique
    events = play_round(state, rng, bet(hiss=1, chomp=1, heck=1), bet(heck=3))
    assert events[-1]["game_ended"] == {"reason": "clique", "winners": [0], "word": "flip"}
    assert GAME.outcome(state).scores == [5, 0]  # 5 friends is no win in the long game
    # Seven friends, no clique of four.
    six = [critter(w, t) for w in ("bleep", "flip", "block") for t in ("hiss", "slither")]
    state, rng = game(options={"long_game": True}, friends=[six, []],
                      slots=[critter("bleep", "chomp"), *heck_only("flip")])
    events = play_round(state, rng, bet(chomp=1, heck=2), bet(heck=3))
    assert events[-1]["game_ended"] == {"reason": "friends", "winners": [0], "word": None}


def test_max_rounds_ends_the_game_and_the_most_friends_win_ties_share():
    state, rng = game(options={"max_rounds": 2}, eggs=[1, 1],
                      slots=[critter("bleep", "hiss"), critter("flip", "slither"), None],
                      friends=[[], [critter("block", "hiss")]])
    play_round(state, rng, bet(hiss=1), bet(heck=1))
    assert not state["finished"] and state["round"] == 2
    events = play_round(state, rng, bet(heck=1), bet(heck=1))
    assert events[-1]["game_ended"] == {"reason": "max_rounds", "winners": [0, 1],
                                        "word": None}
    assert GAME.outcome(state).scores == [1, 1]
    assert GAME.view(state, 0)["round"] == 2


def test_long_game_last_round_five_friends_is_no_win_and_the_count_decides():
    """Winning: with long_game, 5 friends in round max_rounds is no instant win; the game
    then ends on max_rounds and the seats with most friends win."""
    four = [critter("bleep", "hiss"), critter("bleep", "slither"),
            critter("flip", "hiss"), critter("flip", "slither")]
    five = [critter("block", "hiss"), critter("block", "slither"), critter("flip", "chomp"),
            critter("bleep", "hiss", "chomp"), critter("flip", "hiss", "chomp")]
    state, rng = game(options={"long_game": True, "max_rounds": 1}, friends=[four, five],
                      slots=[critter("block", "chomp"), None, None],
                      critter_deck=heck_only("block"))
    events = play_round(state, rng, bet(chomp=1, heck=2), bet(heck=3))
    assert of(events, "critter_befriended")[0]["seat"] == 0 and len(state["friends"][0]) == 5
    assert events[-1] == {"game_ended": {"reason": "max_rounds", "winners": [0, 1],
                                         "word": None}}
    assert GAME.outcome(state).scores == [5, 5]


def test_long_game_clique_at_the_last_refill_beats_the_max_rounds_count():
    """Winning: an instant win (long_game clique of 4, here from a held card at the
    end-of-round refill) ends the game before the max_rounds check counts friends."""
    five = [critter("bleep", "hiss"), critter("bleep", "slither"), critter("flip", "hiss"),
            critter("flip", "slither"), critter("flip", "chomp")]
    blocks = [critter("block", "hiss"), critter("block", "slither"), critter("block", "chomp")]
    moth = heck_only("block")[0]
    state, rng = game(options={"long_game": True, "max_rounds": 1}, friends=[five, blocks],
                      held=[[1, cards("friendship", "block")[0]]],
                      slots=[critter("bleep", "chomp"), None, None],
                      critter_deck=[moth, critter("block", "hiss", "chomp")])
    events = play_round(state, rng, bet(chomp=1, heck=2), bet(heck=3))
    assert len(state["friends"][0]) == 6  # more than seat 1: the count would pick seat 0
    assert of(events, "critter_befriended")[-1] == {
        "seat": 1, "critter": view_critter(moth), "slot": 1, "cause": "held_friendship"}
    assert events[-1] == {"game_ended": {"reason": "clique", "winners": [1], "word": "block"}}
    assert kinds(events).count("game_ended") == 1
    assert GAME.outcome(state).scores == [6, 4]


def test_the_game_ends_when_the_critter_deck_and_the_table_are_empty():
    state, rng = game(3, slots=[critter("bleep", "hiss"), None, None])
    events = play_round(state, rng, bet(hiss=1, heck=2), bet(heck=3), bet(heck=3))
    assert events[-1]["game_ended"] == {"reason": "no_critters", "winners": [0], "word": None}
    assert GAME.outcome(state).scores == [1, 0, 0]


# ---- properties ------------------------------------------------------------------------

OPTION_SETS = [{}, {"long_game": True}, {"max_rounds": 3}, {"first_seat": 1},
               {"long_game": True, "max_rounds": 2, "first_seat": 0}]


def check_invariants(state) -> None:
    n = state["players"]
    assert sum(state["green"]) + state["supply_green"] == 3 * n
    assert sum(state["brown"]) + state["supply_brown"] == 3
    assert all(g + b >= 1 for g, b in zip(state["green"], state["brown"]))
    critters = state["critter_deck"] + [c for c in state["slots"] if c is not None]
    critters += [c for f in state["friends"] for c in f]
    assert sorted(critters) == list(range(len(CRITTERS)))
    heck = state["heck_deck"] + state["heck_discard"] + [h for _, h in state["held"]]
    assert sorted(heck) == list(range(len(HECK_CARDS)))
    snakes = state["snake_deck"] + state["snake_discard"]
    snakes += [s for s in state["snakes"] if s is not None]
    assert sorted(snakes) == list(range(len(SNAKES)))
    friends_to_win = 7 if state["long_game"] else 5
    clique = 4 if state["long_game"] else 3
    won = [len(f) >= friends_to_win or
           max(Counter(CRITTERS[c]["word"] for c in f).values(), default=0) >= clique
           for f in state["friends"]]
    outcome = GAME.outcome(state)
    if outcome is None:
        assert not any(won) and state["round"] <= state["max_rounds"]
        assert all(snake is not None for snake in state["snakes"])
    else:
        assert outcome.scores == [len(f) for f in state["friends"]] and outcome.winners
        if state["end_reason"] in ("friends", "clique"):
            assert [s for s, w in enumerate(won) if w] == outcome.winners
        else:
            assert outcome.winners == [s for s, k in enumerate(outcome.scores)
                                       if k == max(outcome.scores)]


def check_event_secrecy(state, seat, action, events) -> None:
    """Only a seat's own snake and bet ever sit in a private form; public forms
    carry neither."""
    for event in events:
        kind, body = next(iter(event.public.items()))
        if kind == "round_started":
            assert set(body) == {"round", "first_player"}
            for owner, private in event.private.items():
                assert private["round_started"] == {
                    **body, "snake": SNAKES[state["snakes"][owner]]}
        elif kind == "bet_committed":
            assert body == {"seat": seat} and set(event.private) == {seat}
            assert event.private[seat]["bet_committed"] == {"seat": seat, "bet": action}
        else:
            assert not event.private


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10**9),
       options=st.sampled_from(OPTION_SETS))
def test_random_playouts_end_and_conserve_eggs_and_cards(players, seed, options):
    if options.get("first_seat", 0) >= players:
        options = {}
    step = [0]

    def each_step(state, seat, action, events):
        check_invariants(state)
        check_event_secrecy(state, seat, action, events)
        step[0] += 1
        if step[0] % 7 == 0 or GAME.outcome(state) is not None:
            harness.assert_wire(GAME, state, events)

    state = harness.random_playout(GAME, players, options, seed=str(seed), each_step=each_step)
    assert GAME.outcome(state) is not None
    check_invariants(state)


def test_every_player_count_and_option_set_plays_to_the_end():
    for players in range(2, 6):
        for options in OPTION_SETS:
            state = harness.random_playout(GAME, players, options, seed=f"{players}{options}",
                                           each_step=lambda s, *_: check_invariants(s))
            assert GAME.outcome(state) is not None


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**6), eggs=st.integers(1, 7),
       action=st.fixed_dictionaries({"safe": st.booleans(), "hiss": st.integers(0, 4),
                                     "slither": st.integers(0, 4),
                                     "chomp": st.integers(0, 4), "heck": st.integers(0, 8)}))
def test_a_bet_is_accepted_exactly_when_it_is_listed(seed, eggs, action):
    state, rng = harness.start(GAME, 2, {}, seed=str(seed), arrangement={"green": [eggs, 3]})
    seat = 0
    legal = GAME.legal(state, seat)
    cap = SNAKES[state["snakes"][seat]]
    placed = action["hiss"] + action["slither"] + action["chomp"] + action["heck"]
    valid = (placed == 0 if action["safe"] else
             placed == eggs and all(action[a] <= cap[a] for a in ("hiss", "slither", "chomp")))
    assert (action in legal) == valid
    if valid:
        harness.play(GAME, state, seat, action, rng)
        assert state["bets"][seat] == action
    else:
        harness.rejected(GAME, state, seat, action, rng)


def counterfactual(state, viewer, keep, chooser: random.Random):
    """A copy differing only in what `viewer` cannot see: other seats' snakes and
    pending bets (except seat `keep`'s), and every deck and discard order."""
    other = copy.deepcopy(state)
    for seat in range(state["players"]):
        if seat in (viewer, keep) or other["snakes"][seat] is None or not other["snake_deck"]:
            continue
        i = chooser.randrange(len(other["snake_deck"]))
        other["snakes"][seat], other["snake_deck"][i] = \
            other["snake_deck"][i], other["snakes"][seat]
        if other["bets"][seat] is not None:
            other["bets"][seat] = None
            other["bets"][seat] = chooser.choice(GAME.legal_actions(other, seat))
    for pile in ("critter_deck", "snake_deck", "heck_deck", "snake_discard", "heck_discard"):
        chooser.shuffle(other[pile])
    return other


def probe_action(chooser: random.Random) -> dict:
    """A bet to try, legal or not: counts -1..7, sometimes a field missing."""
    action = {"safe": chooser.random() < 0.2, **{f: chooser.choice([-1, 0, 0, 1, 2, 3, 7])
                                                 for f in ("hiss", "slither", "chomp", "heck")}}
    if chooser.random() < 0.2:
        del action[chooser.choice(list(action))]
    return action


def attempt(state, seat, action):
    """What `seat` learns from trying `action`: accepted, or the error's reason,
    message and details (nothing changes either way)."""
    try:
        if seat not in GAME.to_act(state):
            raise GAME.turn_error(state, seat)
        GAME.check(state, seat, action)
    except RulesError as exc:
        return exc.reason, exc.message, exc.details
    return "accepted"


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**9))
def test_views_legal_actions_and_events_leak_nothing(players, seed):
    chooser = random.Random(seed)
    state, rng = harness.start(GAME, players, {}, seed=str(seed))
    while GAME.outcome(state) is None:
        to_act = GAME.to_act(state)
        actor = chooser.choice(to_act)
        action = chooser.choice(GAME.legal(state, actor))
        for viewer in [None, *range(players)]:
            keep = actor if len(to_act) > 1 else None
            other = counterfactual(state, viewer, keep, chooser)
            harness.assert_same_for(GAME, viewer, state, other)
            if viewer is not None:  # its errors, too, depend only on what it may see
                probe = probe_action(chooser)
                assert attempt(state, viewer, probe) == attempt(other, viewer, probe)
            if keep is not None:  # a bet that does not trigger the reveal
                # Others cannot tell this bet from any other the actor could make.
                other_action = action if viewer == actor else \
                    chooser.choice(GAME.legal(other, actor))
                a, b = copy.deepcopy(state), other
                events_a = GAME.play(a, actor, action, Rng(rng._key, rng.counter))
                events_b = GAME.play(b, actor, other_action, Rng(rng._key, rng.counter))
                harness.assert_same_for(GAME, viewer, a, b, events_a, events_b)
        GAME.play(state, actor, action, rng)


def test_view_before_the_reveal_hides_other_snakes_and_bets():
    state, rng = game(3, snakes=[(3, 1, 0), (0, 1, 3), (1, 3, 0)],
                      slots=heck_only("flip") + [None])
    harness.play(GAME, state, 1, bet(chomp=3), rng)
    spectator = GAME.view(state, None)
    assert spectator["snake"] is None and spectator["bet"] is None
    mine = GAME.view(state, 1)
    assert mine["snake"] == {"hiss": 0, "slither": 1, "chomp": 3} and mine["bet"] == bet(chomp=3)
    theirs = GAME.view(state, 0)
    assert theirs["snake"] == {"hiss": 3, "slither": 1, "chomp": 0} and theirs["bet"] is None
    assert [s["committed"] for s in theirs["seats"]] == [False, True, False]
    text = str(wire.to_plain(harness.to_message("heck", "view", theirs)))
    assert "chomp': 3" not in text


# ---- more rules pinned from explicit arrangements -------------------------------------


def test_eggs_stay_with_their_seat_between_rounds():
    state, rng = game(slots=heck_only("flip") + [None], critter_deck=heck_only("bleep"))
    play_round(state, rng, SAFE, bet(heck=3))
    assert GAME.view(state, None)["seats"][0]["eggs"] == 4 and state["brown"] == [1, 0]
    # Round 2: every listed bet of seat 0 places all 4 of its eggs (both colours alike).
    assert all(sum(a[f] for f in ("hiss", "slither", "chomp", "heck")) == 4
               for a in GAME.legal(state, 0)[1:])
    harness.play(GAME, state, 0, bet(heck=4), rng)


def test_bets_are_fixed_at_the_reveal_eggs_lost_while_drawing_change_no_bet():
    target = critter("bleep", "hiss 2")
    state, rng = game(slots=[target, None, None], critter_deck=heck_only("flip"),
                      heck_deck=cards("cracked_egg")[:1], heck_discard=cards("cracked_egg")[1:])
    events = play_round(state, rng, bet(hiss=2, heck=1), bet(hiss=1, heck=2))
    # Seat 1 draws first (most on heck), then seat 0 drops to 2 eggs: its 2 on hiss still count.
    assert [(e["seat"], e["eggs"]) for e in of(events, "egg_returned")] == [(1, 2), (1, 1), (0, 2)]
    assert of(events, "critter_befriended")[0]["seat"] == 0 and state["friends"][0] == [target]


def test_a_slot_the_critter_deck_cannot_fill_stays_empty():
    won, stays = critter("bleep", "hiss"), heck_only("flip")[0]
    last = critter("block", "chomp")
    state, rng = game(slots=[won, critter("flip", "slither"), stays], critter_deck=[last])
    events = play_round(state, rng, bet(hiss=1, slither=1, heck=1), bet(heck=3))
    assert state["friends"][0] == [won, critter("flip", "slither")]
    assert of(events, "slot_refilled") == [{"slot": 1, "critter": view_critter(last)}]
    assert state["slots"] == [last, None, stays] and not state["finished"]
    assert GAME.view(state, None)["slots"][1] == {"slot": 2, "critter": None}


def test_held_cards_are_not_reshuffled_into_the_heck_deck():
    snail = heck_only("flip")[0]
    held = cards("friendship", "flip")[0]
    found = cards("found_egg")[0]
    state, rng = game(eggs=[1, 1], slots=[critter("bleep", "hiss"), critter("flip", "hiss"),
                                          critter("block", "hiss")],
                      critter_deck=[snail], held=[[1, held]], heck_discard=[found])
    events = play_round(state, rng, bet(heck=1), bet(heck=1))
    assert of(events, "deck_reshuffled")[0] == {"deck": "heck", "cards": 1}
    assert state["held"] == [[1, held]] and held not in state["heck_deck"] + state["heck_discard"]
    assert GAME.view(state, 0)["seats"][1]["held"] == [{"kind": "friendship", "word": "flip"}]


def test_runaway_takes_the_friend_gained_last_by_any_means():
    first, moth = critter("flip", "hiss"), heck_only("bleep")[0]
    refill = critter("block", "hiss")
    state, rng = game(eggs=[2, 1], friends=[[first], []],
                      slots=[moth, critter("bleep", "slither 2"), critter("flip", "chomp 2")],
                      critter_deck=[refill],
                      heck_deck=[cards("friendship", "bleep")[0], cards("runaway")[0]])
    events = play_round(state, rng, bet(heck=2), bet(heck=1))
    assert of(events, "critter_lost") == [
        {"seat": 0, "critter": view_critter(moth), "cause": "runaway", "by_seat": 0}]
    assert state["friends"][0] == [first] and state["critter_deck"] == [moth]
    assert state["slots"] == [refill, critter("bleep", "slither 2"), critter("flip", "chomp 2")]


def test_a_win_that_is_both_five_friends_and_a_clique_is_reported_as_friends():
    four = [critter("bleep", "hiss"), critter("bleep", "slither"),
            critter("flip", "hiss"), critter("flip", "slither")]
    state, rng = game(friends=[four, []], slots=[critter("bleep", "chomp"), None, None],
                      critter_deck=heck_only("block"))
    events = play_round(state, rng, bet(chomp=1, heck=2), bet(heck=3))
    assert events[-1] == {"game_ended": {"reason": "friends", "winners": [0], "word": None}}


def test_the_game_ends_after_the_last_round_with_the_marker_moved():
    state, rng = game(options={"max_rounds": 1}, slots=heck_only("flip") + [None])
    events = play_round(state, rng, SAFE, SAFE)
    assert kinds(events)[-1] == "game_ended" and "round_started" not in kinds(events)
    assert state["snakes"] == [None, None] and len(state["snake_discard"]) == 2
    view = GAME.view(state, 0)
    assert (view["round"], view["first_player"], view["snake"]) == (1, 1, None)


# ---- robustness ----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, -1, 2, None, "1", [0], 2**70])
def test_seats_that_are_not_seat_numbers_are_rejected(seat):
    state, rng = game()
    harness.rejected(GAME, state, seat, SAFE, rng, "UNKNOWN_SEAT")
    assert GAME.legal(state, seat) == []
    assert GAME.view(state, seat) == GAME.view(state, None)


def test_every_candidate_bet_is_accepted_exactly_when_listed():
    """Brute force: every snake, 1-7 eggs (and no snake at all), every combination
    of safe and 0-4 eggs per attribute, 0-8 on heck."""
    candidates = [{"safe": safe, "hiss": h, "slither": s, "chomp": c, "heck": k}
                  for safe in (False, True) for h in range(5) for s in range(5)
                  for c in range(5) for k in range(9)]
    shapes = sorted({(s["hiss"], s["slither"], s["chomp"]) for s in SNAKES})
    for spec in [*shapes, None]:
        for eggs in range(1, 8):
            state, _ = game(snakes=[spec or ALL_SNAKE, ALL_SNAKE], eggs=[eggs, 3])
            if spec is None:
                state["snake_deck"].append(state["snakes"][0])
                state["snakes"][0] = None
            legal = GAME.legal(state, 0)
            assert len({str(a) for a in legal}) == len(legal), "duplicates"
            accepted = []
            for action in candidates:
                try:
                    GAME.check(state, 0, action)
                except RulesError:
                    continue
                accepted.append(action)
            assert sorted(map(str, accepted)) == sorted(map(str, legal)), (spec, eggs)


def test_proto_field_names_map_to_lower_camel_case_json():
    state, rng = game(slots=[critter("bleep", "chomp 2"), *heck_only("flip")])
    harness.play(GAME, state, 0, bet(hiss=2, chomp=1), rng)
    view = json_format.MessageToDict(harness.to_message("heck", "view", GAME.view(state, 0)),
                                     always_print_fields_with_no_presence=True)
    assert {"firstPlayer", "friendsToWin", "cliqueToWin", "supplyBrown", "critterDeckSize",
            "snakeDeckSize", "snakeDiscardSize", "heckDeckSize", "heckDiscardSize"} <= set(view)
    assert view["bet"] == {"safe": False, "hiss": 2, "slither": 0, "chomp": 1, "heck": 0}
    assert view["critterDeckSize"] == 0 and view["snakeDeckSize"] == 0
    assert view["slots"][0]["critter"]["traits"] == [{"trait": "chomp", "threshold": 2}]
    assert view["slots"][1]["critter"]["heckOnly"] is True
    assert view["seats"][0]["committed"] is True and view["seats"][0]["brownEggs"] == 0
    spectator = json_format.MessageToDict(harness.to_message("heck", "view", GAME.view(state, None)))
    assert "snake" not in spectator and "bet" not in spectator


def test_every_proto_message_and_field_has_a_comment():
    path = Path(__file__).resolve().parents[2] / "proto" / "parlor" / "v1" / "heck.proto"
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    declaration = re.compile(r"^(message \w+ \{|oneof \w+ \{|(optional |repeated )?[\w.]+ \w+ = \d+;)")
    missing = [line for i, line in enumerate(lines)
               if declaration.match(line) and not lines[i - 1].startswith("//")]
    assert missing == []
