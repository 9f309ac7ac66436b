"""Hi-Fu!! engine: one scenario per rule (service/games/hi_fu.md), then properties over
random playouts (4 and 5 players, both board sides) and counterfactual secrecy."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor.service import wire
from parlor.service.games.base import OptionError, RulesError
from parlor.service.games.hi_fu import BOARD, COLOURS, GAME, KEEP, deck
from parlor.service.games.rng import Rng
from tests.games import harness

COLOUR_OF = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


def card(text: str) -> dict:
    """"r13" -> {"colour": "red", "number": 13}."""
    return {"colour": COLOUR_OF[text[0]], "number": int(text[1:])}


def cards(text: str) -> list[dict]:
    return [card(t) for t in text.split()]


def key(c: dict) -> tuple[str, int]:
    return c["colour"], c["number"]


def full_deal(players: int, kept: list[str]) -> list[list[dict]]:
    """A deal where seat s keeps kept[s] (nine cards) and the rest of the cards in
    play are dealt round the table to fill every hand (they will be removed)."""
    hands = [cards(k) for k in kept]
    assert all(len(h) == KEEP for h in hands)
    used = {key(c) for h in hands for c in h}
    rest = [c for c in deck(players) if key(c) not in used]
    size = len(deck(players)) // players
    seat = 0
    for c in rest:
        while len(hands[seat]) == size:
            seat = (seat + 1) % players
        hands[seat].append(c)
        seat = (seat + 1) % players
    return hands


def started(kept: list[list[str]] | list[str], first_seat: int = 0, board: str = "front",
            round: int = 1, scores: list[int] | None = None):
    """A game whose deals are arranged (one kept-hand list per round, or a single
    one) with the discard done: every seat removes what it does not keep at once."""
    if isinstance(kept[0], str):
        kept = [kept]
    players = len(kept[0])
    arrangement = {"deals": [full_deal(players, k) for k in kept], "round": round}
    if scores is not None:
        arrangement["scores"] = scores
    state, rng = harness.start(GAME, players, {"board": board, "first_seat": first_seat},
                               arrangement=arrangement)
    discard_all(state, rng, kept[0])
    return state, rng


def discard_all(state, rng, kept: list[str]) -> list:
    events = []
    for seat, k in enumerate(kept):
        keep = {key(c) for c in cards(k)}
        extra = [c for c in state["hands"][seat] if key(c) not in keep]
        events += harness.play(GAME, state, seat, {"discard": {"cards": extra}}, rng)
    assert state["phase"] == "play"
    return events


def holder(state, c: dict) -> int:
    return next(seat for seat, hand in enumerate(state["hands"]) if c in hand)


def run(state, rng, tricks: list[str]) -> list:
    """Plays the given cards in order; each must belong to the seat whose turn it is."""
    events = []
    for trick in tricks:
        for text in trick.split():
            c = card(text)
            seat = holder(state, c)
            assert state["turn"] == seat, f"{text} is seat {seat}'s but seat {state['turn']} is to play"
            events += harness.play(GAME, state, seat, {"play": c}, rng)
    return events


def kinds(events, kind: str, seat=None) -> list[dict]:
    return [e.seen_by(seat)[kind] for e in events if kind in e.seen_by(seat)]


# Every card of the largest deck, and two that are in no deck.
ALL_CARDS = deck(5) + [{"colour": "red", "number": 0}, {"colour": "purple", "number": 1}]

# Every seat holds 3 red, 2 yellow, 2 green, 2 blue; seat 0 the top reds, seat 1 the
# top yellows, seat 2 the top greens, seat 3 the top blues: the lead colour picks the
# trick's winner and everyone can always follow.
MIXED = [
    "r11 r12 r13 y1 y2 g1 g2 b1 b2",
    "r1 r2 r3 y12 y13 g3 g4 b3 b4",
    "r4 r5 r6 y3 y4 g12 g13 b5 b6",
    "r7 r8 r9 y5 y6 g5 g6 b12 b13",
]
# Led by seat 0. Winners 0 1 0 1 2 0 2 3 3: seat 0 places first (trick 3) and goes
# out (trick 6), seat 1 places second, seat 2 third, seat 3 fourth with the last trick.
MIXED_A = [
    "r13 r1 r4 r7",
    "y1 y13 y3 y5",
    "r2 r5 r8 r12",
    "y2 y12 y4 y6",
    "g3 g13 g5 g1",
    "r6 r9 r11 r3",
    "g4 g12 g6",
    "b5 b12 b3",
    "b13 b4 b6",
]
# Led by seat 1. Winners 1 1 0 0 0 2 2 3 3: seat 1 places first and stays; seat 0
# places second and is knocked over (trick 5); seats 2 and 3 place third and fourth.
MIXED_B = [
    "y13 y3 y5 y1",
    "y12 y4 y6 y2",
    "r1 r4 r7 r13",
    "r12 r2 r5 r8",
    "r11 r3 r6 r9",
    "g3 g13 g5",
    "g12 g6 g4",
    "b5 b13 b3",
    "b12 b4 b6",
]
# One colour per seat: the leader always wins. Seats 0, 1, 2 take three tricks each
# in turn and go out; seat 2 takes the round's last trick.
SOLID = [
    "r1 r2 r3 r4 r5 r6 r7 r8 r9",
    "y1 y2 y3 y4 y5 y6 y7 y8 y9",
    "g1 g2 g3 g4 g5 g6 g7 g8 g9",
    "b1 b2 b3 b4 b5 b6 b7 b8 b9",
]
SOLID_PLAY = [
    "r9 y1 g1 b1", "r8 y2 g2 b2", "r7 y3 g3 b3",
    "y9 g4 b4", "y8 g5 b5", "y7 g6 b6",
    "g9 b7", "g8 b8", "g7 b9",
]

# Five players, all 60 cards. Seat 0 holds the top reds, seat 1 the top yellows,
# seat 2 the top greens, seat 3 the top blues; seat 4 holds no yellow.
FIVE = [
    "r13 r14 r15 y5 y6 g9 g10 b7 b8",
    "r1 r2 r3 y14 y15 g1 g2 b1 b2",
    "r4 r5 r6 y1 y2 g14 g15 b3 b4",
    "r7 r8 r9 y3 y4 g3 g4 b14 b15",
    "r10 r11 r12 g5 g6 g7 g8 b5 b6",
]
# Led by seat 0. Winners 0 0 0 1 1 2 2 3 3: seat 0 places first and goes out on
# trick 3 (five-card tricks until then, four-card ones after); seats 1, 2, 3 place
# second, third and fourth; seat 4 takes no trick.
FIVE_PLAY = [
    "r15 r1 r4 r7 r10",
    "r14 r2 r5 r8 r11",
    "r13 r3 r6 r9 r12",
    "y15 y1 y3 g5",
    "y14 y2 y4 g6",
    "g1 g15 g3 g7",
    "g14 g4 g8 g2",
    "b3 b15 b5 b1",
    "b14 b6 b2 b4",
]
# Seats 0 and 1 go out (three tricks each), seat 2 stands with two, and seat 3
# takes only the round's last trick.
LAST_ALONE = [
    "r1 r2 r3 r4 r5 r6 r7 r8 r9",
    "y1 y2 y3 y4 y5 y6 y7 y8 y9",
    "g1 g2 g3 g4 g5 g6 g7 g8 b1",
    "b2 b3 b4 b5 b6 b7 b8 b9 b10",
]
LAST_ALONE_PLAY = [
    "r9 y1 g1 b2", "r8 y2 g2 b3", "r7 y3 g3 b4",
    "y9 g4 b5", "y8 g5 b6", "y7 g6 b7",
    "g8 b8", "g7 b9", "b1 b10",
]

# ---- options and set-up ---------------------------------------------------------------

def test_player_counts_and_options():
    for players in (3, 6):
        with pytest.raises(OptionError):
            GAME.resolve_options(players, {})
    with pytest.raises(OptionError):
        GAME.resolve_options(4, {"board": "side"})
    with pytest.raises(OptionError):
        GAME.resolve_options(4, {"first_seat": 4})
    assert GAME.resolve_options(5, {}) == {"board": "front", "first_seat": None}
    assert wire.options_to_plain(harness.to_message("hi_fu", "options", {"board": "back"})) \
        == {"board": "back"}


@pytest.mark.parametrize("players, size, top", [(4, 13, 13), (5, 12, 15)])
def test_deal_uses_the_cards_in_play(players, size, top):
    state, _ = harness.start(GAME, players, seed=f"deal{players}")
    dealt = [c for hand in state["hands"] for c in hand]
    assert all(len(hand) == size for hand in state["hands"])
    assert sorted(map(key, dealt)) == sorted(map(key, deck(players)))
    assert max(c["number"] for c in dealt) == top and len(dealt) == 4 * top
    assert {c["colour"] for c in dealt} == {"red", "yellow", "green", "blue"}
    view = GAME.view(state, None)
    assert [s["score"] for s in view["seats"]] == [0] * players
    assert [s["hand_size"] for s in view["seats"]] == [size] * players
    (opening,) = GAME.opening_events(state)
    assert opening.public == {"round_started": {"round": 1, "leader": state["leader"],
                                                "dealt": size, "keep": 9, "hand": []}}
    for seat in range(players):
        assert opening.seen_by(seat)["round_started"]["hand"] == state["hands"][seat]


def test_first_leader_from_option_or_drawn_and_public_during_discard():
    state, _ = harness.start(GAME, 5, {"first_seat": 3})
    assert GAME.view(state, None)["leader"] == 3
    drawn = {harness.start(GAME, 4, seed=f"lead{i}")[0]["leader"] for i in range(40)}
    assert drawn == {0, 1, 2, 3}
    state, _ = harness.start(GAME, 4, seed="lead0")
    view = GAME.view(state, None)
    assert view["leader"] == state["leader"] == view["options"]["first_seat"]
    assert view["phase"] == "discard" and view["turn"] is None


def test_drawn_leader_is_fixed_before_the_deal():
    # The draw comes first from the match RNG, the shuffle after it: the leader
    # does not depend on the cards.
    for players in (4, 5):
        state, _ = harness.start(GAME, players, seed="fixed")
        rng = Rng.from_seed("fixed")
        assert state["leader"] == rng.below(players)
        cards_ = deck(players)
        rng.shuffle(cards_)
        size = len(cards_) // players
        assert [sorted(map(key, h)) for h in state["hands"]] == \
            [sorted(map(key, cards_[i * size:(i + 1) * size])) for i in range(players)]


# ---- the discard ------------------------------------------------------------------------

def test_discard_one_card_at_a_time_hidden_and_final():
    state, rng = harness.start(GAME, 5, {"first_seat": 0}, seed="discard")
    assert GAME.to_act(state) == [0, 1, 2, 3, 4]
    hand = list(state["hands"][2])
    assert GAME.legal(state, 2) == [{"discard": {"cards": [c]}} for c in hand]
    events = harness.play(GAME, state, 2, {"discard": {"cards": [hand[0]]}}, rng)
    (event,) = events
    assert event.public == {"cards_removed": {"seat": 2, "count": 1, "to_remove": 2}}
    assert event.seen_by(2) == {"cards_removed": {"seat": 2, "count": 1, "to_remove": 2,
                                                  "cards": [hand[0]]}}
    for seat in (None, 0, 1, 3, 4):
        assert event.seen_by(seat) == event.public
        assert GAME.view(state, seat)["removed"] == []
    assert GAME.view(state, 2)["removed"] == [hand[0]]
    assert GAME.view(state, 2)["hand"] == hand[1:]
    seat_view = GAME.view(state, 0)["seats"][2]
    assert (seat_view["hand_size"], seat_view["to_remove"], seat_view["committed"]) == (11, 2, False)
    # Final: the removed card is gone for the round.
    harness.rejected(GAME, state, 2, {"discard": {"cards": [hand[0]]}}, rng, "CARD_NOT_IN_HAND")
    harness.rejected(GAME, state, 2, {"discard": {"cards": hand[1:4]}}, rng, "TOO_MANY_CARDS")
    harness.rejected(GAME, state, 2, {"discard": {"cards": [hand[1], hand[1]]}}, rng,
                     "DUPLICATE_CARD")
    harness.rejected(GAME, state, 2, {"play": hand[1]}, rng, "WRONG_PHASE")
    harness.play(GAME, state, 2, {"discard": {"cards": hand[1:3]}}, rng)
    assert GAME.view(state, 4)["seats"][2]["committed"] is True
    assert 2 not in GAME.to_act(state) and GAME.legal(state, 2) == []
    harness.rejected(GAME, state, 2, {"discard": {"cards": [hand[3]]}}, rng, "ALREADY_COMMITTED")


def test_whole_discard_at_once_and_play_starts_when_all_hold_nine():
    state, rng = harness.start(GAME, 4, {"first_seat": 1}, seed="whole")
    for seat in range(4):
        assert GAME.view(state, seat)["phase"] == "discard"
        events = harness.play(GAME, state, seat, {"discard": {"cards": state["hands"][seat][:4]}}, rng)
        assert events[0].public == {"cards_removed": {"seat": seat, "count": 4, "to_remove": 0}}
    assert events[-1].public == {"play_started": {"round": 1, "leader": 1}}
    assert GAME.to_act(state) == [1] and state["phase"] == "play"
    assert all(len(h) == 9 for h in state["hands"])
    harness.rejected(GAME, state, 1, {"discard": {"cards": [state["hands"][1][0]]}}, rng,
                     "WRONG_PHASE")
    # The shorthand survives the wire like any action.
    shorthand = {"discard": {"cards": cards("r1 y2 b13")}}
    assert wire.to_plain(harness.to_message("hi_fu", "action", shorthand)) == shorthand


def test_malformed_actions_are_rule_errors():
    state, rng = harness.start(GAME, 4, {"first_seat": 0}, seed="bad")
    own = state["hands"][0][0]
    for action in [{}, {"bid": 3}, {"discard": {}}, {"discard": {"cards": []}},
                   {"discard": {"cards": own}}, {"discard": {"cards": [{"colour": "red"}]}},
                   {"discard": {"cards": [own], "x": 1}}, {"discard": {"cards": ["r1"]}},
                   {"discard": own, "play": own}, [own]]:
        harness.rejected(GAME, state, 0, action, rng, "MALFORMED_ACTION")
    for bad in [{"colour": "purple", "number": 3}, {"colour": "red", "number": 14},
                {"colour": "red", "number": 0}, {"colour": "red", "number": True},
                {"colour": "red", "number": "3"}]:
        harness.rejected(GAME, state, 0, {"discard": {"cards": [bad]}}, rng, "UNKNOWN_CARD")
    for seat in (4, -1, "0", None):
        harness.rejected(GAME, state, seat, {"discard": {"cards": [own]}}, rng, "UNKNOWN_SEAT")


def test_a_seat_is_a_plain_seat_number():
    # True and 1.0 compare equal to seat 1 but are not seat numbers: refused as
    # unknown seats (never acting for seat 1, never another exception).
    state, rng = harness.start(GAME, 4, {"first_seat": 0}, seed="bad")
    one = state["hands"][1][0]
    for seat in (True, 1.0, 0.5, [1]):
        harness.rejected(GAME, state, seat, {"discard": {"cards": [one]}}, rng, "UNKNOWN_SEAT")
        harness.rejected(GAME, state, seat, {"bid": 1}, rng, "UNKNOWN_SEAT")
        assert GAME.legal(state, seat) == []
    state, rng = started(MIXED, first_seat=1)
    for seat in (True, 1.0):
        harness.rejected(GAME, state, seat, {"play": card("y13")}, rng, "UNKNOWN_SEAT")
        assert GAME.legal(state, seat) == []


@pytest.mark.parametrize("players", [4, 5])
def test_wire_shaped_malformed_actions(players):
    """What a REST or gRPC client can send that decodes to nonsense: an empty
    oneof, a discard with no cards, a card left at its defaults, a card of another
    player count: each is a RulesError and changes nothing, in either phase."""
    def decoded(action):
        return wire.to_plain(harness.to_message("hi_fu", "action", action))

    state, rng = harness.start(GAME, players, {"first_seat": 0}, seed="wire-bad")
    blank = decoded({"play": {}})
    assert blank == {"play": {"colour": "", "number": 0}}
    cases = [(decoded({}), "MALFORMED_ACTION"), (decoded({"discard": {}}), "MALFORMED_ACTION"),
             (decoded({"discard": {"cards": [{}]}}), "UNKNOWN_CARD"),
             (decoded({"discard": {"cards": [{"colour": "red", "number": -1}]}}), "UNKNOWN_CARD"),
             (decoded({"discard": {"cards": [{"colour": "Red", "number": 1}]}}), "UNKNOWN_CARD"),
             (decoded({"discard": {"cards": [{"colour": "red", "number": 16}]}}), "UNKNOWN_CARD"),
             (blank, "WRONG_PHASE")]
    for action, reason in cases:
        harness.rejected(GAME, state, 0, action, rng, reason)
    for seat, hand in enumerate(state["hands"]):
        harness.play(GAME, state, seat, {"discard": {"cards": hand[:len(hand) - KEEP]}}, rng)
    assert state["phase"] == "play"
    cases = [(decoded({}), "MALFORMED_ACTION"), (blank, "UNKNOWN_CARD"),
             (decoded({"play": {"colour": "purple", "number": 3}}), "UNKNOWN_CARD"),
             (decoded({"play": {"colour": "red", "number": 0}}), "UNKNOWN_CARD"),
             (decoded({"discard": {}}), "WRONG_PHASE"),
             (decoded({"discard": {"cards": [state["hands"][0][0]]}}), "WRONG_PHASE")]
    if players == 4:
        cases.append((decoded({"play": {"colour": "red", "number": 14}}), "UNKNOWN_CARD"))
    for action, reason in cases:
        harness.rejected(GAME, state, 0, action, rng, reason)


# ---- tricks -----------------------------------------------------------------------------

def test_must_follow_the_lead_colour():
    state, rng = started(MIXED)
    run(state, rng, ["r13"])
    assert GAME.view(state, 1)["lead_colour"] == "red"
    error = harness.rejected(GAME, state, 1, {"play": card("y12")}, rng, "MUST_FOLLOW_LEAD_COLOUR")
    assert error.details == {"lead_colour": "red"}
    harness.rejected(GAME, state, 1, {"play": card("r4")}, rng, "CARD_NOT_IN_HAND")
    harness.rejected(GAME, state, 2, {"play": card("r4")}, rng, "NOT_YOUR_TURN")
    assert GAME.legal(state, 1) == [{"play": c} for c in cards("r1 r2 r3")]
    # The leader may lead anything.
    state, rng = started(MIXED)
    assert GAME.legal(state, 0) == [{"play": c} for c in cards(MIXED[0])]


def test_without_the_lead_colour_any_card_may_be_played():
    state, rng = started(SOLID)
    run(state, rng, ["r9"])
    assert GAME.legal(state, 1) == [{"play": c} for c in cards(SOLID[1])]


def test_only_lead_colour_cards_can_win():
    state, rng = started(SOLID)
    # Yellow 8, green 9 and blue 9 beat red 1 in number but not in colour.
    events = run(state, rng, ["r1 y8 g9 b9"])
    (won,) = kinds(events, "trick_won")
    assert won["seat"] == 0 and won["lead_colour"] == "red" and won["next_leader"] == 0
    assert won["cards"] == [{"seat": s, "card": card(t)} for s, t in enumerate("r1 y8 g9 b9".split())]
    assert [s["tricks"] for s in GAME.view(state, None)["seats"]] == [1, 0, 0, 0]


def test_highest_of_the_lead_colour_wins_and_leads_next():
    state, rng = started(MIXED)
    events = run(state, rng, ["r13 r1 r4 r7", "y1 y13 y3 y5"])
    assert [w["seat"] for w in kinds(events, "trick_won")] == [0, 1]
    assert state["turn"] == state["leader"] == 1


def test_second_trick_places_a_pawn_in_arrival_order():
    state, rng = started(MIXED)
    events = run(state, rng, MIXED_A[:3])
    assert kinds(events, "hi_fu") == [{"seat": 0, "round": 1, "place": 1, "points": 1}]
    events = run(state, rng, MIXED_A[3:4])
    assert kinds(events, "hi_fu") == [{"seat": 1, "round": 1, "place": 2, "points": 2}]
    view = GAME.view(state, None)
    assert view["board"][0]["pawns"] == [{"seat": 0, "place": 1, "standing": True},
                                         {"seat": 1, "place": 2, "standing": True}]
    assert [s["place"] for s in view["seats"]] == [1, 2, None, None]


def test_third_trick_knocks_the_pawn_over_and_puts_the_player_out():
    state, rng = started(MIXED)
    run(state, rng, MIXED_A[:5])
    events = run(state, rng, MIXED_A[5:6])
    (mii,) = kinds(events, "mii")
    assert mii == {"seat": 0, "round": 1, "place": 1, "put_away": 3}
    # The rest of the hand is put away unseen: only its owner learns the cards.
    assert kinds(events, "mii", 0)[0]["cards"] == cards("g2 b1 b2")
    for seat in (None, 1, 2, 3):
        assert kinds(events, "mii", seat) == [mii]
        assert GAME.view(state, seat)["put_away"] == []
    own = GAME.view(state, 0)
    assert own["hand"] == [] and own["put_away"] == cards("g2 b1 b2")
    assert own["seats"][0] == {"seat": 0, "hand_size": 0, "to_remove": 0, "committed": True,
                               "tricks": 3, "out": True, "score": 0, "place": 1}
    assert own["board"][0]["pawns"][0] == {"seat": 0, "place": 1, "standing": False}
    # Out: skipped from now on, and the tricks have three cards.
    harness.rejected(GAME, state, 0, {"play": card("g2")}, rng, "OUT_OF_ROUND")
    events = run(state, rng, MIXED_A[6:7])
    assert len(kinds(events, "trick_won")[0]["cards"]) == 3
    assert kinds(events, "hi_fu") == [{"seat": 2, "round": 1, "place": 3, "points": 3}]


def test_trick_led_after_the_leader_went_out():
    state, rng = started(MIXED)
    events = run(state, rng, MIXED_A[:6])
    assert kinds(events, "trick_won")[-1]["next_leader"] == 1
    assert state["leader"] == state["turn"] == 1 and GAME.to_act(state) == [1]
    # With seat 3 out, a trick seat 3 wins is led next by seat 0 (its left, still in).
    state, rng = started(SOLID, first_seat=3)
    events = run(state, rng, ["b9 r1 y1 g1", "b8 r2 y2 g2", "b7 r3 y3 g3"])
    assert kinds(events, "mii")[0]["seat"] == 3
    assert kinds(events, "trick_won")[-1]["next_leader"] == 0 and state["turn"] == 0


def test_next_leader_skips_every_seat_that_is_out():
    # Seat 0 goes out first; then seat 3 takes its third trick on seat 1's lead.
    # Seat 3's left neighbour, seat 0, is out: seat 1 leads.
    state, rng = started(["r1 r2 r3 r4 r5 r6 r7 r8 r9", "y1 y2 y3 y4 y5 y6 b1 b2 b3",
                          "g1 g2 g3 g4 g5 g6 g7 g8 g9", "b4 b5 b6 b7 b8 b9 y7 y8 y9"])
    events = run(state, rng, ["r9 y1 g1 y7", "r8 y2 g2 y8", "r7 y3 g3 y9",
                              "b1 g4 b9", "b8 b2 g5", "b7 b3 g6"])
    assert [m["seat"] for m in kinds(events, "mii")] == [0, 3]
    assert kinds(events, "trick_won")[-1]["seat"] == 3
    assert kinds(events, "trick_won")[-1]["next_leader"] == 1
    assert state["turn"] == 1 and GAME.view(state, None)["leader"] == 1
    events = run(state, rng, ["y4 g7", "y5 g8", "y6 g9"])
    assert [w["seat"] for w in kinds(events, "trick_won")] == [1, 1, 1]
    assert kinds(events, "round_started")[0]["leader"] == 1


def test_five_players_tricks_going_out_and_the_fourth_pawn():
    """Tricks, going out and the round board at 5 players (rules: Tricks, Decisions, Round board)."""
    state, rng = started(FIVE)
    assert [s["hand_size"] for s in GAME.view(state, None)["seats"]] == [9] * 5
    # Must-follow holds for every seat round the table, the fifth one included.
    run(state, rng, ["r15 r1 r4 r7"])
    assert state["turn"] == 4
    harness.rejected(GAME, state, 4, {"play": card("g5")}, rng, "MUST_FOLLOW_LEAD_COLOUR")
    assert GAME.legal(state, 4) == [{"play": c} for c in cards("r10 r11 r12")]
    events = run(state, rng, ["r10"] + FIVE_PLAY[1:2])
    assert [len(w["cards"]) for w in kinds(events, "trick_won")] == [5, 5]
    assert kinds(events, "hi_fu") == [{"seat": 0, "round": 1, "place": 1, "points": 1}]
    # Seat 0's third trick puts it out: its left neighbour, seat 1, leads next.
    events = run(state, rng, FIVE_PLAY[2:3])
    assert kinds(events, "mii") == [{"seat": 0, "round": 1, "place": 1, "put_away": 6}]
    assert kinds(events, "trick_won")[0]["next_leader"] == 1 and state["turn"] == 1
    # Seat 4, with no yellow, may play anything but cannot win.
    run(state, rng, ["y15 y1 y3"])
    assert GAME.legal(state, 4) == [{"play": c} for c in cards("g5 g6 g7 g8 b5 b6")]
    events = run(state, rng, ["g5"] + FIVE_PLAY[4:])
    won = kinds(events, "trick_won")
    assert [w["seat"] for w in won] == [1, 1, 2, 2, 3, 3]
    assert [len(w["cards"]) for w in won] == [4] * 6  # seat 0 is skipped
    assert kinds(events, "hi_fu") == [{"seat": 1, "round": 1, "place": 2, "points": 2},
                                      {"seat": 2, "round": 1, "place": 3, "points": 3},
                                      {"seat": 3, "round": 1, "place": 4, "points": 4}]
    assert GAME.view(state, None)["board"][0]["pawns"] == [
        {"seat": 0, "place": 1, "standing": False}, {"seat": 1, "place": 2, "standing": True},
        {"seat": 2, "place": 3, "standing": True}, {"seat": 3, "place": 4, "standing": True}]
    (scored,) = kinds(events, "round_scored")
    assert scored == {"round": 1, "gains": [0, 2, 3, 4, 0], "penalties": [0] * 5,
                      "scores": [0, 2, 3, 4, 0]}
    assert kinds(events, "round_started")[0]["leader"] == 3


def test_everyone_but_one_out_and_a_round_of_nine_tricks():
    state, rng = started(SOLID)
    events = run(state, rng, SOLID_PLAY)
    assert [m["seat"] for m in kinds(events, "mii")] == [0, 1, 2]
    assert [w["trick"] for w in kinds(events, "trick_won")] == list(range(1, 10))
    assert [len(w["cards"]) for w in kinds(events, "trick_won")] == [4, 4, 4, 3, 3, 3, 2, 2, 2]
    (scored,) = kinds(events, "round_scored")
    assert scored == {"round": 1, "gains": [0, 0, 0, 0], "penalties": [0, 0, 0, 0],
                      "scores": [0, 0, 0, 0]}


def test_last_trick_winner_leads_next_round_even_when_out():
    state, rng = started([SOLID, MIXED])
    events = run(state, rng, SOLID_PLAY)
    last = kinds(events, "trick_won")[-1]
    assert last["seat"] == 2 and last["next_leader"] is None
    (started_) = kinds(events, "round_started")
    assert started_ == [{"round": 2, "leader": 2, "dealt": 13, "keep": 9, "hand": []}]
    assert state["round"] == 2 and state["phase"] == "discard"
    view = GAME.view(state, 1)
    assert view["leader"] == 2 and view["round"] == 2
    assert [s["tricks"] for s in view["seats"]] == [0, 0, 0, 0]
    assert not any(s["out"] for s in view["seats"])
    events = discard_all(state, rng, MIXED)
    assert events[-1].public == {"play_started": {"round": 2, "leader": 2}}
    assert GAME.to_act(state) == [2]


def test_last_trick_winner_leads_next_round_without_scoring():
    """From round 2 the last trick's winner leads "whether or not they scored": here with one trick."""
    # (Nobody can win the last trick with 0 tricks: one trick is the fewest.)
    state, rng = started([LAST_ALONE, MIXED])
    events = run(state, rng, LAST_ALONE_PLAY)
    assert [w["seat"] for w in kinds(events, "trick_won")] == [0, 0, 0, 1, 1, 1, 2, 2, 3]
    (scored,) = kinds(events, "round_scored")
    assert scored["gains"] == [0, 0, 3, 0] and scored["scores"] == [0, 0, 3, 0]
    assert [p["seat"] for p in state["pawns"][0]] == [0, 1, 2]  # seat 3: no pawn
    assert kinds(events, "round_started") == [{"round": 2, "leader": 3, "dealt": 13, "keep": 9,
                                               "hand": []}]
    events = discard_all(state, rng, MIXED)
    assert events[-1].public == {"play_started": {"round": 2, "leader": 3}}
    assert GAME.to_act(state) == [3]


def test_finished_trick_is_shown_only_until_the_next_first_card():
    state, rng = started([SOLID, MIXED])
    run(state, rng, ["r9 y1 g1 b1", "r8"])
    view = GAME.view(state, 3)
    assert view["last_trick"] is None and view["trick"] == [{"seat": 0, "card": card("r8")}]
    run(state, rng, ["y2 g2 b2"])
    view = GAME.view(state, 3)
    assert view["trick"] == [] and view["last_trick"] == {
        "number": 2, "lead_colour": "red", "winner": 0,
        "cards": [{"seat": s, "card": card(t)} for s, t in enumerate("r8 y2 g2 b2".split())]}
    run(state, rng, SOLID_PLAY[2:])
    # The round's last trick stays visible through the next round's discard...
    assert GAME.view(state, None)["last_trick"]["number"] == 9
    discard_all(state, rng, MIXED)
    assert GAME.view(state, None)["last_trick"]["cards"][0]["card"] == card("g7")
    # ...until the next round's first card is led.
    run(state, rng, ["g13"])
    assert GAME.view(state, None)["last_trick"] is None


# ---- scoring and the end ----------------------------------------------------------------

def test_round_scoring_front_side():
    state, rng = started(MIXED)
    events = run(state, rng, MIXED_A)
    (scored,) = kinds(events, "round_scored")
    # Seat 0 went out (knocked over in place 1); seats 1-3 stand in places 2-4.
    assert scored == {"round": 1, "gains": [0, 2, 3, 4], "penalties": [0, 0, 0, 0],
                      "scores": [0, 2, 3, 4]}
    assert GAME.outcome(state) is None and state["round"] == 2
    assert kinds(events, "round_started")[0]["leader"] == 3
    assert [s["score"] for s in GAME.view(state, None)["seats"]] == [0, 2, 3, 4]


def test_round_values_rise_with_the_rounds():
    state, rng = started(MIXED, round=3)
    events = run(state, rng, MIXED_A)
    assert kinds(events, "hi_fu")[0]["points"] == 2
    assert kinds(events, "round_scored")[0]["gains"] == [0, 3, 4, 5]


@pytest.mark.parametrize("round_, values", [(2, [1, 2, 3, 4]), (4, [2, 3, 4, 5])])
def test_round_values_in_play_rounds_two_and_four(round_, values):
    """Round board table: 2R scores like 1R (1-4), 4R like 3R (2-5), place by place."""
    state, rng = started(MIXED, round=round_)
    events = run(state, rng, MIXED_A)
    assert [h["points"] for h in kinds(events, "hi_fu")] == values
    assert [h["round"] for h in kinds(events, "hi_fu")] == [round_] * 4
    (scored,) = kinds(events, "round_scored")
    assert scored["round"] == round_ and scored["gains"] == [0, *values[1:]]
    assert GAME.outcome(state) is None and state["round"] == round_ + 1


def test_back_side_out_penalty_never_below_zero():
    state, rng = started(SOLID, board="back", scores=[3, 0, 1, 2])
    events = run(state, rng, SOLID_PLAY)
    (scored,) = kinds(events, "round_scored")
    assert scored == {"round": 1, "gains": [0, 0, 0, 0], "penalties": [1, 0, 1, 0],
                      "scores": [2, 0, 0, 2]}
    state, rng = started(MIXED, board="back", scores=[4, 0, 0, 0])
    events = run(state, rng, MIXED_A)
    assert kinds(events, "round_scored")[0]["scores"] == [3, 2, 3, 4]


def test_back_side_penalty_comes_before_the_end_check():
    # Round 5, seats 0 and 1 reach 9. On the front side they tie (and seat 1 wins
    # the tie-break); on the back, seat 0's penalty for going out is taken first.
    state, rng = started(MIXED, first_seat=1, round=5, scores=[9, 6, 0, 0])
    over = kinds(run(state, rng, MIXED_B), "game_over")
    assert over == [{"reason": "five_rounds", "scores": [9, 9, 5, 6], "winners": [1],
                     "tie_break": True}]
    state, rng = started(MIXED, first_seat=1, round=5, scores=[9, 6, 0, 0], board="back")
    events = run(state, rng, MIXED_B)
    assert kinds(events, "round_scored")[0]["penalties"] == [1, 0, 0, 0]
    assert kinds(events, "game_over") == [{"reason": "five_rounds", "scores": [8, 9, 5, 6],
                                           "winners": [1], "tie_break": False}]


def test_ten_points_end_with_several_past_ten():
    state, rng = started(MIXED, scores=[0, 9, 9, 6])
    events = run(state, rng, MIXED_A)
    assert kinds(events, "game_over") == [{"reason": "ten_points", "scores": [0, 11, 12, 10],
                                           "winners": [2], "tie_break": False}]
    assert GAME.outcome(state).scores == [0, 11, 12, 10] and GAME.outcome(state).winners == [2]
    assert kinds(events, "round_started") == [] and GAME.to_act(state) == []
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["leader"] is None and view["round"] == 1
    for seat in range(4):
        assert GAME.legal(state, seat) == []
    harness.rejected(GAME, state, 3, {"play": card("b1")}, rng, "GAME_OVER")


def test_no_end_below_ten_before_round_five():
    state, rng = started(MIXED, round=4, scores=[9, 5, 4, 3])
    events = run(state, rng, MIXED_A)
    assert kinds(events, "game_over") == [] and state["round"] == 5
    assert kinds(events, "round_scored")[0]["scores"] == [9, 8, 8, 8]


def test_tie_at_ten_or_more_goes_to_the_later_standing_pawn():
    state, rng = started(MIXED, round=2, scores=[0, 9, 8, 7])
    over = kinds(run(state, rng, MIXED_A), "game_over")
    assert over == [{"reason": "ten_points", "scores": [0, 11, 11, 11], "winners": [3],
                     "tie_break": True}]


def test_tie_after_round_five_goes_to_the_later_standing_pawn():
    state, rng = started(MIXED, round=5, scores=[0, 5, 4, 3])
    over = kinds(run(state, rng, MIXED_A), "game_over")
    assert over == [{"reason": "five_rounds", "scores": [0, 9, 9, 9], "winners": [3],
                     "tie_break": True}]
    assert GAME.outcome(state).winners == [3]


def test_tie_break_ignores_a_knocked_over_pawn():
    # Seat 0 reached two tricks after seat 1 (place 2 against place 1) but took a
    # third: it did not reach exactly two, so seat 1 wins the tie.
    state, rng = started(MIXED, first_seat=1, round=5, scores=[9, 6, 0, 0])
    events = run(state, rng, MIXED_B)
    assert kinds(events, "hi_fu")[:2] == [{"seat": 1, "round": 5, "place": 1, "points": 3},
                                          {"seat": 0, "round": 5, "place": 2, "points": 4}]
    assert kinds(events, "mii")[0]["place"] == 2
    assert GAME.outcome(state).scores == [9, 9, 5, 6] and GAME.outcome(state).winners == [1]


def test_tie_break_looks_only_at_the_tied_seats():
    """Tie-break "among the tied": a later standing pawn of a seat not tied is ignored."""
    # Places: seat 1 second, seat 2 third, seat 3 fourth (standing, but on 6 only).
    state, rng = started(MIXED, round=5, scores=[0, 5, 4, 0])
    over = kinds(run(state, rng, MIXED_A), "game_over")
    assert over == [{"reason": "five_rounds", "scores": [0, 9, 9, 6], "winners": [2],
                     "tie_break": True}]


def test_tie_break_standing_pawn_beats_no_pawn():
    """Tie-break: a tied seat whose pawn stands beats a tied seat that never reached two tricks."""
    # Seat 1 stands in place 2 (4 points in round 5); seat 4 took no trick, no pawn.
    state, rng = started(FIVE, round=5, scores=[0, 5, 0, 0, 9])
    events = run(state, rng, FIVE_PLAY)
    assert kinds(events, "round_scored")[0]["gains"] == [0, 4, 5, 6, 0]
    assert kinds(events, "game_over") == [{"reason": "five_rounds", "scores": [0, 9, 5, 6, 9],
                                           "winners": [1], "tie_break": True}]


def test_tie_with_no_standing_pawn_shares_the_win():
    # Seats 0-2 all went out (knocked over), seat 3 took no trick: all four tie.
    state, rng = started(SOLID, round=5, scores=[4, 4, 4, 4])
    over = kinds(run(state, rng, SOLID_PLAY), "game_over")
    assert over == [{"reason": "five_rounds", "scores": [4, 4, 4, 4], "winners": [0, 1, 2, 3],
                     "tie_break": False}]
    # Only the tied seats share it.
    state, rng = started(SOLID, round=5, scores=[4, 4, 4, 1])
    assert GAME.outcome(state) is None
    run(state, rng, SOLID_PLAY)
    assert GAME.outcome(state).winners == [0, 1, 2]


def test_board_values_are_the_rules_table():
    # service/games/hi_fu.md, "Round board": front 1R, 2R: 1-5; 3R, 4R: 2-6; 5R: 3-7. The
    # back has the same values and a 1-point loss for going out.
    table = [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6], [3, 4, 5, 6, 7]]
    for side in ("front", "back"):
        assert BOARD[side]["points"] == table
        view = GAME.view(harness.start(GAME, 5, {"board": side})[0], 2)
        assert view["board"] == [{"round": r, "values": table[r - 1], "pawns": []}
                                 for r in range(1, 6)]
        assert view["options"]["board"] == side


def test_board_data_has_both_sides():
    assert set(BOARD) >= {"front", "back"}
    for side in ("front", "back"):
        points = BOARD[side]["points"]
        assert len(points) == 5 and all(len(row) == 5 for row in points)
        assert all(row == sorted(row) for row in points)
    assert BOARD["front"]["out_penalty"] == 0 and BOARD["back"]["out_penalty"] == 1
    view = GAME.view(harness.start(GAME, 4, {"board": "back"})[0], None)
    assert [r["values"] for r in view["board"]] == BOARD["back"]["points"]


# ---- properties -------------------------------------------------------------------------

class Invariants:
    """Checks the game's invariants after every action of a playout."""

    def __init__(self, players: int, board: str, wire_every: int = 0) -> None:
        self.players = players
        self.values = BOARD[board]["points"]
        self.penalty = BOARD[board]["out_penalty"]
        self.played: list[dict] = []
        self.scores = [0] * players
        self.steps = 0
        self.wire_every = wire_every
        self.rounds_scored = 0

    def __call__(self, state, seat, action, events) -> None:
        self.steps += 1
        for event in events:
            public = event.public
            if "round_started" in public:
                self.played = []
            if "card_played" in public:
                self.played.append(public["card_played"]["card"])
            if "round_scored" in public:
                self.check_scoring(state, public["round_scored"])
        n = state["players"]
        # Every card in play is dealt, removed, put away or played exactly once.
        pile = [c for seat_ in range(n) for part in ("hands", "removed", "put_away")
                for c in state[part][seat_]] + self.played
        assert sorted(map(key, pile)) == sorted(map(key, deck(n)))
        # Nobody holds more than three tricks; three tricks is out; nine a round.
        assert all(0 <= t <= 3 for t in state["tricks"])
        assert [t == 3 for t in state["tricks"]] == state["out"]
        assert sum(state["tricks"]) == state["tricks_played"] <= 9
        # Everyone still in holds the same number of cards (less one once played
        # to the current trick); the out hold none.
        if state["phase"] == "play":
            in_trick = {p["seat"] for p in state["trick"]}
            for s in range(n):
                expected = 0 if state["out"][s] else 9 - state["tricks_played"] - (s in in_trick)
                assert len(state["hands"][s]) == expected
            assert not state["out"][state["turn"]] and state["turn"] not in in_trick
        elif state["phase"] == "discard":
            assert all(len(h) >= 9 for h in state["hands"])
        # A pawn for exactly those who reached two tricks this round, in the order reached.
        pawns = state["pawns"][state["round"] - 1]
        assert sorted(p["seat"] for p in pawns) == [s for s in range(n) if state["tricks"][s] >= 2]
        assert [p["standing"] for p in pawns] == [not state["out"][p["seat"]] for p in pawns]
        if self.wire_every and self.steps % self.wire_every == 0:
            harness.assert_wire(GAME, state, events)

    def check_scoring(self, state, scored) -> None:
        rnd = scored["round"]
        pawns = state["pawns"][rnd - 1]
        standing = {p["seat"]: place for place, p in enumerate(pawns, 1) if p["standing"]}
        knocked = {p["seat"] for p in pawns if not p["standing"]}
        # service/games/hi_fu.md: "place 5 can never be reached"; "At 4 players ... someone
        # goes out every round" (a knocked-over pawn is a third trick).
        assert len(pawns) <= 4
        assert knocked or self.players == 5
        for seat in range(self.players):
            gain, loss = scored["gains"][seat], scored["penalties"][seat]
            if seat in standing:
                assert gain == self.values[rnd - 1][standing[seat] - 1] and loss == 0
            else:
                assert gain == 0
                assert loss == (min(self.penalty, self.scores[seat]) if seat in knocked else 0)
            assert scored["scores"][seat] == self.scores[seat] + gain - loss
        self.scores = list(scored["scores"])
        self.rounds_scored += 1


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("board", ["front", "back"])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_random_playouts_end_and_keep_invariants(players, board, seed):
    check = Invariants(players, board, wire_every=7)
    state = harness.random_playout(GAME, players, {"board": board}, seed=f"p{seed}",
                                   each_step=check)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == check.scores
    assert check.rounds_scored == state["round"]
    assert state["round"] == 5 or max(outcome.scores) >= 10
    best = max(outcome.scores)
    assert outcome.winners and all(outcome.scores[w] == best for w in outcome.winners)
    if board == "front":
        assert all(score >= 0 for score in outcome.scores)
    harness.assert_wire(GAME, state)


def test_whole_playout_through_the_wire():
    harness.random_playout(GAME, 5, {"board": "back"}, seed="wire",
                           each_step=lambda s, seat, a, ev: harness.assert_wire(GAME, s, ev))


def _hidden_shuffle(state, viewer, chooser: random.Random, keep_hand=None):
    """A copy of `state` where every card `viewer` cannot see (other seats' hands,
    removed and put-away cards; for a spectator, everyone's) is dealt out again
    among those places, each keeping its size (seat `keep_hand`'s hand excepted),
    and arranged future deals differ."""
    other = copy.deepcopy(state)
    hidden = [s for s in range(state["players"]) if s != viewer]
    places = [(part, s) for s in hidden for part in ("hands", "removed", "put_away")
              if (part, s) != ("hands", keep_hand)]
    _redeal([other[part][s] for part, s in places], chooser)
    for deal in other["deals"]:
        _redeal([deal[s] for s in hidden], chooser)
    return other


def _redeal(piles: list[list], chooser: random.Random) -> None:
    """Deals the cards of `piles` out again among them, in place, sizes kept."""
    pool = [c for pile in piles for c in pile]
    chooser.shuffle(pool)
    for pile in piles:
        size = len(pile)
        pile[:] = sorted(pool[:size], key=lambda c: (COLOURS.index(c["colour"]), c["number"]))
        pool = pool[size:]


def _refusals(state, seat, actions: list) -> list:
    """What `seat` is told for those of `actions` that are refused: reason,
    message and details."""
    listed = GAME.legal(state, seat)
    told = []
    for action in actions:
        if action not in listed:
            with pytest.raises(RulesError) as caught:
                GAME.play(state, seat, action, Rng.from_seed("refusal"))
            error = caught.value
            told.append((repr(action), error.reason, error.message, error.details))
    return told


def _refusable(state, seat, chooser: random.Random) -> list:
    """A sample of actions to try: cards of every kind played or removed, a card
    named twice, more cards than may go."""
    own = state["hands"][seat]
    candidates = [a for c in ALL_CARDS for a in ({"play": c}, {"discard": {"cards": [c]}})]
    return chooser.sample(candidates, 24) + [
        {"discard": {"cards": own[:1] * 2}}, {"discard": {"cards": own + own}},
        {"discard": {"cards": [*own[:1], *ALL_CARDS[:1]]}}]


def _split(players, chooser):
    pool = deck(players)
    chooser.shuffle(pool)
    size = len(pool) // players
    return [pool[i * size:(i + 1) * size] for i in range(players)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([4, 5]))
def test_views_leak_nothing(seed, players):
    """At random points of a playout, a twin state that differs only in what one
    seat (or a spectator) cannot see gives it the same view, legal actions, errors
    for refused actions and events: for its own action, for another seat's hidden discard (of any card),
    and for another seat's play."""
    chooser = random.Random(seed)
    board = chooser.choice(["front", "back"])
    arranged = {"deals": [_split(players, chooser), _split(players, chooser)]}
    state, rng = harness.start(GAME, players, {"board": board}, seed=f"s{seed}",
                               arrangement=arranged)
    for viewer in [None, *range(players)]:
        # The first deal: each seat sees its own cards, nobody else's.
        other = copy.deepcopy(arranged)
        _redeal([hand for s, hand in enumerate(other["deals"][0]) if s != viewer], chooser)
        twin, _ = harness.start(GAME, players, {"board": board}, seed=f"s{seed}",
                                arrangement=other)
        harness.assert_same_for(GAME, viewer, state, twin,
                                GAME.opening_events(state), GAME.opening_events(twin))
    checked = 0
    while GAME.outcome(state) is None:
        acting = GAME.to_act(state)
        round_ends = state["phase"] == "play" and state["tricks_played"] == 8 \
            and len(state["trick"]) == state["out"].count(False) - 1
        if round_ends or chooser.random() < 0.2:
            checked += 1
            viewer = chooser.choice([None, *range(players)])
            mover = viewer if viewer in acting else chooser.choice(acting)
            playing = state["phase"] == "play"
            twin = _hidden_shuffle(state, viewer, chooser, keep_hand=mover if playing else None)
            harness.assert_same_for(GAME, viewer, state, twin)
            if viewer is not None:  # errors tell nothing of others' cards or the deck
                tried, before = _refusable(state, viewer, chooser), copy.deepcopy(state)
                assert _refusals(state, viewer, tried) == _refusals(twin, viewer, tried)
                assert state == before
            a_state, b_state = copy.deepcopy(state), twin
            a_rng, b_rng = Rng.from_seed(f"s{seed}", rng.counter), Rng.from_seed(f"s{seed}", rng.counter)
            a_action = chooser.choice(GAME.legal(a_state, mover))
            b_action = a_action if mover == viewer or playing \
                else chooser.choice(GAME.legal(b_state, mover))
            a_events = GAME.play(a_state, mover, a_action, a_rng)
            b_events = GAME.play(b_state, mover, b_action, b_rng)
            harness.assert_same_for(GAME, viewer, a_state, b_state, a_events, b_events)
        seat = chooser.choice(acting)
        GAME.play(state, seat, chooser.choice(GAME.legal(state, seat)), rng)
    assert checked > 0


def test_arranged_deal_must_be_complete():
    with pytest.raises(ValueError):
        harness.start(GAME, 4, arrangement={"deals": [[cards("r1 r2")] * 4]})
    deal = full_deal(4, MIXED)
    deal[0][0] = deal[1][0]
    with pytest.raises(ValueError):
        harness.start(GAME, 4, arrangement={"deals": [deal]})


# ---- legal actions against check(), by brute force -----------------------------------------

def _accepted(state, seat, action, expected: bool) -> bool:
    """Whether `seat` may play `action` now. Tried on a copy when `expected` (an
    accepted action changes the state), else on `state` itself (the caller checks
    that refusals left it as it was)."""
    trial = copy.deepcopy(state) if expected else state
    try:
        GAME.play(trial, seat, action, Rng.from_seed("trial"))
    except RulesError:
        return False
    assert expected, f"{action} for seat {seat} was accepted but is not listed"
    return True


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([4, 5]))
def test_legal_actions_are_exactly_the_accepted_ones(seed, players):
    """At sampled points of a playout, every seat's listed actions are distinct and
    are exactly the single-card actions check() accepts (every card of the largest
    deck and two that exist in no deck, as a play and as a one-card discard); a
    discard of several cards is accepted exactly when they are distinct cards of the
    hand and no more than the seat still has to remove."""
    chooser = random.Random(seed)
    state, rng = harness.start(GAME, players, {"board": chooser.choice(["front", "back"])},
                               seed=f"b{seed}")
    sampled = 0
    while GAME.outcome(state) is None:
        if chooser.random() < 0.1:
            sampled += 1
            acting = GAME.to_act(state)
            before = json.dumps(state, sort_keys=True)
            for seat in range(players):
                listed = GAME.legal(state, seat)
                assert len({repr(a) for a in listed}) == len(listed), "duplicate legal actions"
                assert bool(listed) == (seat in acting)
                accepted = [a for c in ALL_CARDS for a in ({"play": c}, {"discard": {"cards": [c]}})
                            if _accepted(state, seat, a, a in listed)]
                assert sorted(map(repr, accepted)) == sorted(map(repr, listed))
                if state["phase"] == "discard" and seat in acting:
                    hand = state["hands"][seat]
                    excess = len(hand) - KEEP
                    for _ in range(6):
                        size = chooser.randint(2, excess + 1)
                        picked = [chooser.choice(hand + ALL_CARDS[:4]) for _ in range(size)]
                        ok = all(c in hand for c in picked) and size <= excess \
                            and len({key(c) for c in picked}) == size
                        assert _accepted(state, seat, {"discard": {"cards": picked}}, ok) == ok
            assert json.dumps(state, sort_keys=True) == before, "a refused action changed the state"
        seat = chooser.choice(GAME.to_act(state))
        GAME.play(state, seat, chooser.choice(GAME.legal(state, seat)), rng)
    assert sampled
