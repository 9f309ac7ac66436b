"""Whatever's default move (the engine's default_action) and strong bot
(bots/whatever.py): both always legal, the default move as its docstring says,
and the bot's move a repeatable function of the seat's view alone
(counterfactual secrecy)."""

from __future__ import annotations

import copy

import pytest

from parlor.service.bots import whatever as strong
from parlor.service.games.rng import Rng
from parlor.service.games.whatever import GAME
from tests.bots import support
from tests.games import harness
from tests.games.test_whatever import PASS, SKIP, bid, exchange, new

PLAYERS = range(GAME.min_players, GAME.max_players + 1)
OPTION_SETS = [{}, {"first_seat": 0}, {"first_seat": 1}]


def strong_move(state, seat: int, seed: str = "bot") -> dict:
    return strong.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat,
                         Rng.from_seed(seed))


def seat_to_act(state) -> int:
    [seat] = GAME.to_act(state)  # one seat acts at a time in Whatever
    return seat


# ---- the default move ----------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_default_move_is_accepted_for_every_seat_to_act(players):
    def every_seat_to_act(state, *_):
        for seat in GAME.to_act(state):
            harness.play(GAME, copy.deepcopy(state), seat, GAME.timeout_action(state, seat, Rng.from_seed("t")),
                         Rng.from_seed("t"))

    for options in OPTION_SETS:
        for game in range(3):
            harness.random_playout(GAME, players, options,
                                   seed=f"default/{players}{options}/{game}",
                                   each_step=every_seat_to_act)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_match_of_default_moves_only_ends(players):
    # Everyone passes, so each auctioneer takes its card for free and skips its exchange.
    state, rng = harness.start(GAME, players, seed="all-default")
    for _ in range(1000):
        if GAME.outcome(state) is not None:
            break
        seat = seat_to_act(state)
        harness.play(GAME, state, seat, GAME.timeout_action(state, seat, Rng.from_seed("t")), rng)
    assert GAME.outcome(state) is not None
    assert sum(state["tokens"]) == 6 * players and state["middle"] == 0  # nobody ever paid


def test_the_default_move_passes_in_the_auction():
    state, rng = new(3, deck=["+5", "+1"], first=0)
    assert GAME.timeout_action(state, 0, Rng.from_seed("t")) == PASS  # the auctioneer, who sees a +5
    harness.play(GAME, state, 0, bid(2), rng)
    harness.play(GAME, state, 1, bid(3), rng)
    assert GAME.timeout_action(state, 2, Rng.from_seed("t")) == PASS
    harness.play(GAME, state, 2, PASS, rng)
    assert GAME.timeout_action(state, 0, Rng.from_seed("t")) == PASS  # with a bid of its own: it gets it back
    harness.play(GAME, state, 0, PASS, rng)
    assert state["tokens"] == [6 + 3, 3, 6] and state["rows"][1] == ["+5"]


def test_the_default_move_passes_even_when_no_one_bid_and_the_card_goes_free():
    state, rng = new(2, deck=["-3", "+1"], first=1)
    harness.play(GAME, state, 1, GAME.timeout_action(state, 1, Rng.from_seed("t")), rng)
    harness.play(GAME, state, 0, GAME.timeout_action(state, 0, Rng.from_seed("t")), rng)
    assert state["rows"] == [[], ["-3"]] and state["tokens"] == [6, 6]


def test_the_default_move_skips_the_exchange():
    # Seat 0 takes a +1 for free; it could then discard any card of its row.
    state, rng = new(2, deck=["+1", "+2"], rows=[["-2", "+4"], []], middle=4)
    harness.play(GAME, state, 0, PASS, rng)
    harness.play(GAME, state, 1, PASS, rng)
    assert state["phase"] == "exchange"
    assert GAME.legal(state, 0) == [exchange(0), exchange(1), exchange(2), SKIP]
    assert GAME.timeout_action(state, 0, Rng.from_seed("t")) == SKIP
    harness.play(GAME, state, 0, SKIP, rng)
    assert state["rows"][0] == ["-2", "+4", "+1"] and state["auctioneer"] == 1


# ---- the strong bot: legal and repeatable ---------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_move_is_always_legal(players):
    for game in range(4):
        strong_seats = {game % players} if game < 2 else set(range(0, players, 2))
        support.play_with_strong_seats(GAME, players, f"legal/{players}/{game}", strong_seats)


def test_the_same_view_and_seed_give_the_same_move():
    def twice(state, seat):
        view, legal = GAME.view(state, seat), GAME.legal(state, seat)
        given = copy.deepcopy((view, legal))
        moves = [strong.choose(GAME, view, legal, seat, Rng.from_seed("same")) for _ in range(2)]
        assert moves[0] == moves[1]
        assert (view, legal) == given  # and it leaves its arguments as they were

    for players in (2, 4, 6):
        support.play_with_strong_seats(GAME, players, f"repeat/{players}", {0, 1}, each_move=twice)


# ---- the strong bot sees only its seat's view ----------------------------------------


def hidden_changed(state, seat: int, shuffle: Rng) -> dict:
    """A copy of `state` that differs only in what `seat` cannot see: the order of the
    deck and, unless `seat` is the auctioneer, which card is up for auction."""
    other = copy.deepcopy(state)
    hidden = list(other["deck"])
    sees_drawn = other["drawn"] is None or seat == other["auctioneer"]
    if not sees_drawn:
        hidden.append(other["drawn"])
    shuffle.shuffle(hidden)
    if not sees_drawn:
        other["drawn"] = hidden.pop()
    other["deck"] = hidden
    return other


def assert_same_move(a, b, seat: int) -> None:
    harness.assert_same_for(GAME, seat, a, b)
    assert strong_move(a, seat, "secret") == strong_move(b, seat, "secret")


@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_move_does_not_depend_on_the_deck_or_anothers_drawn_card(players):
    shuffle = Rng.from_seed(f"counterfactual/{players}")
    phases = set()

    def compare(state, seat):
        phases.add((state["phase"], seat == state["auctioneer"]))
        for _ in range(2):
            other = hidden_changed(state, seat, shuffle)
            assert_same_move(state, other, seat)

    for game in range(2):
        support.play_with_strong_seats(GAME, players, f"secret/{players}/{game}", set(range(players)),
                                       each_move=compare)
    # the auction seen by the auctioneer and by the others, and the exchange
    assert phases == {("auction", True), ("auction", False), ("exchange", True)}


def test_a_bidder_cannot_tell_a_winning_card_from_a_ruinous_one():
    # Seat 1 (total 9) would win with the +5 and fall to 0 with the Whatever, but
    # only seat 0, the auctioneer, knows which one is up.
    rows = [["+1"], ["+4", "+5"], ["-2"]]
    for first_move in (PASS, bid(1), bid(4)):
        states = []
        for card in ("+5", "whatever"):
            state, rng = new(3, deck=[card, "+2", "-1"], rows=rows)
            harness.play(GAME, state, 0, first_move, rng)
            states.append(state)
        assert_same_move(*states, seat=1)


def test_the_strong_move_is_the_same_whatever_the_deck_holds():
    # Both decks are three cards, different ones; at the exchange and in the next auction.
    rows = [["-2", "+4"], ["+3"]]
    states = []
    for deck in (["+1", "+5", "whatever", "copy"], ["+1", "-3", "trash", "upset"]):
        state, rng = new(2, deck=deck, rows=rows, middle=4)
        harness.play(GAME, state, 0, PASS, rng)
        harness.play(GAME, state, 1, PASS, rng)
        states.append((state, rng))
    assert states[0][0]["phase"] == "exchange"
    assert_same_move(states[0][0], states[1][0], seat=0)
    for state, rng in states:  # seat 1 auctions a card seat 0 cannot see, and passes
        harness.play(GAME, state, 0, SKIP, rng)
        harness.play(GAME, state, 1, PASS, rng)
    assert_same_move(states[0][0], states[1][0], seat=0)


# ---- the strong bot's play in clear cases ---------------------------------------------


def test_the_strong_bot_bids_for_the_card_that_wins_it_the_game():
    state, _ = new(3, deck=["+5", "+1"], rows=[["+3", "+4"], [], []])
    assert strong_move(state, 0) == bid(1)


def test_the_strong_bot_exchanges_a_negative_card_when_that_wins():
    # Seat 0 takes the +1 for free: [+4, -2, +5, +1] = 8; discarding the -2 makes 10.
    state, rng = new(2, deck=["+1", "+2"], rows=[["+4", "-2", "+5"], []])
    harness.play(GAME, state, 0, PASS, rng)
    harness.play(GAME, state, 1, PASS, rng)
    assert strong_move(state, 0) == exchange(1)


def test_the_strong_bot_lets_a_whatever_go_rather_than_clear_its_nine_points():
    state, _ = new(3, deck=["whatever", "+1"], rows=[["+4", "+5"], [], []])
    assert strong_move(state, 0) == PASS


def test_the_strong_bot_bids_for_the_whatever_that_would_win_another_seat_the_game():
    state, _ = new(3, deck=["whatever", "+1"], rows=[["+2"], ["whatever", "whatever"], []])
    assert strong_move(state, 0) == bid(1)
