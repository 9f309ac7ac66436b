"""Hi-Fu!!'s strong bot: a plan for the discard, a determinized search for tricks.

The aim is exactly two tricks a round, the second as late as possible (a later
place on the round board scores more), and never a third.

Discard. The bot keeps its two strongest cards, which should win it its two
tricks when it wants them, and removes the highest of the rest: low cards let it
duck every trick it does not want. Its strongest card is judged by how few cards
of its colour can beat it (a 15 none, a 13 with 14 and 15 both out of the game at
four seats none either), then by how many low cards of the colour it holds to
lead under it.

Tricks. For each legal card the bot plays the rest of the round out on SAMPLES
guesses at what it cannot see: the cards it has not seen (in the other hands,
removed, put away or played in tricks already turned face down) dealt to the
other seats by their hand sizes. The others play at random, itself by a simple
rule (win tricks while it needs them, duck once it has two). Every card is tried
on the same guesses and the same random play, so that differences between cards
are not sampling noise. A result is worth the points the round brings it (minus
the back side's penalty for going out); it plays the card with the best total.

It reads only the seat's view, and its draws come from its generator only: the
same view and generator give the same move.

Cost: SAMPLES x (legal cards) playouts of at most nine tricks: up to ~17 ms a
move on one core early in a round, 2-3 ms on average (the discard under 0.1 ms).
"""

from __future__ import annotations

import random
from typing import Any

from ..games.base import Action, Game
from ..games.hi_fu import BOARD, COLOUR_ORDER, COLOURS, HI_FU, HIGHEST_NUMBER, KEEP, MII
from ..games.rng import Rng

SAMPLES = 24


def _code(card: dict[str, Any]) -> int:
    """A card as one int: colour * 16 + number."""
    return COLOUR_ORDER[card["colour"]] * 16 + card["number"]


def choose(game: Game, view: dict[str, Any], legal: list[Action], seat: int,
           rng: Rng) -> Action:
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "discard":
        return _discard(view, legal)
    return _play(view, legal, seat, rng)


# ---- the discard ---------------------------------------------------------------------


def _discard(view: dict[str, Any], legal: list[Action]) -> Action:
    """Removes the highest card outside the two it keeps to win with."""
    highest = HIGHEST_NUMBER[len(view["seats"])]
    hand = [_code(card) for card in view["hand"]]
    by_colour: dict[int, list[int]] = {}
    for code in hand:
        by_colour.setdefault(code >> 4, []).append(code & 15)

    def strength(code: int) -> tuple[int, int, int]:
        colour, number = code >> 4, code & 15
        mine = by_colour[colour]
        beaters = sum(1 for n in range(number + 1, highest + 1) if n not in mine)
        below = sum(1 for n in mine if n < number)
        return (-beaters, below, number)

    winners = set(sorted(hand, key=strength, reverse=True)[:HI_FU])
    rest = [code for code in hand if code not in winners]
    target = max(rest, key=lambda code: (code & 15, -(code >> 4)))
    return next(action for action in legal if _code(action["discard"]["cards"][0]) == target)


# ---- tricks ----------------------------------------------------------------------------


def _play(view: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    players = len(view["seats"])
    hand = [_code(card) for card in view["hand"]]
    seen = set(hand)
    seen.update(_code(card) for card in view["removed"])
    seen.update(_code(card) for card in view["put_away"])
    trick = [(play["seat"], _code(play["card"])) for play in view["trick"]]
    seen.update(code for _, code in trick)
    if view["last_trick"] is not None:
        seen.update(_code(play["card"]) for play in view["last_trick"]["cards"])
    unseen = [colour * 16 + number for colour in range(len(COLOURS))
              for number in range(1, HIGHEST_NUMBER[players] + 1)
              if colour * 16 + number not in seen]
    sizes = [s["hand_size"] for s in view["seats"]]
    round_board = view["board"][view["round"] - 1]
    table = _Table(
        players=players, seat=seat,
        tricks=[s["tricks"] for s in view["seats"]],
        out=[s["out"] for s in view["seats"]],
        pawns=[[p["seat"], p["standing"]] for p in round_board["pawns"]],
        values=round_board["values"],
        penalty=min(BOARD[view["options"]["board"]]["out_penalty"],
                    view["seats"][seat]["score"]),
        tricks_played=view["tricks_played"],
    )
    moves = [_code(action["play"]) for action in legal]
    totals = [0.0] * len(moves)
    for _ in range(SAMPLES):
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        dealt = 0
        for other in range(players):
            if other == seat:
                hands.append(hand)  # (every playout gets copies of the hands)
            else:
                hands.append(unseen[dealt:dealt + sizes[other]])
                dealt += sizes[other]
        others_seed = rng.below(1 << 62)
        for i, move in enumerate(moves):
            totals[i] += table.play_out([list(h) for h in hands], list(trick), move,
                                        random.Random(others_seed))
    return legal[totals.index(max(totals))]


class _Table:
    """The round as it stands, played out from one guess at the hidden cards."""

    def __init__(self, *, players: int, seat: int, tricks: list[int], out: list[bool],
                 pawns: list[list], values: list[int], penalty: int,
                 tricks_played: int) -> None:
        self.players = players
        self.seat = seat
        self.tricks = tricks
        self.out = out
        self.pawns = pawns
        self.values = values
        self.penalty = penalty
        self.tricks_played = tricks_played

    def play_out(self, hands: list[list[int]], trick: list[tuple[int, int]], move: int,
                 others: random.Random) -> float:
        """The points `seat` ends the round with after playing `move` now."""
        me = self.seat
        players = self.players
        tricks = list(self.tricks)
        out = list(self.out)
        pawns = [list(p) for p in self.pawns]
        played = self.tricks_played
        turn = me
        card = move
        while True:
            hands[turn].remove(card)
            trick.append((turn, card))
            if len(trick) < out.count(False):
                turn = _next_in(out, turn, players)
            else:
                lead = trick[0][1] >> 4
                winner = max((c, s) for s, c in trick if c >> 4 == lead)[1]
                tricks[winner] += 1
                played += 1
                trick = []
                if tricks[winner] == HI_FU:
                    pawns.append([winner, True])
                elif tricks[winner] == MII:
                    for pawn in pawns:
                        if pawn[0] == winner:
                            pawn[1] = False
                    out[winner] = True
                    hands[winner] = []
                    if winner == me:
                        return -self.penalty
                if played == KEEP:
                    break
                turn = winner if not out[winner] else _next_in(out, winner, players)
            card = (_own_card(hands[me], trick, tricks[me]) if turn == me
                    else _random_card(hands[turn], trick, others))
        for place, (pawn_seat, standing) in enumerate(pawns):
            if pawn_seat == me:
                return self.values[place] if standing else -self.penalty
        return 0.0


def _next_in(out: list[bool], seat: int, players: int) -> int:
    for step in range(1, players + 1):
        other = (seat + step) % players
        if not out[other]:
            return other
    raise AssertionError("nobody is left in the round")


def _random_card(hand: list[int], trick: list[tuple[int, int]], rng: random.Random) -> int:
    if trick:
        lead = trick[0][1] >> 4
        following = [c for c in hand if c >> 4 == lead]
        if following:
            return following[int(rng.random() * len(following))]
    return hand[int(rng.random() * len(hand))]


def _own_card(hand: list[int], trick: list[tuple[int, int]], tricks: int) -> int:
    """The bot's own rule in a playout: take tricks while it has fewer than two
    (the highest card it may play), duck once it has two (the highest card that
    does not win, else the lowest)."""
    wanting = tricks < HI_FU
    if not trick:
        return max(hand, key=_number) if wanting else min(hand, key=_number)
    lead = trick[0][1] >> 4
    following = [c for c in hand if c >> 4 == lead]
    if not following:  # any card: it cannot win this trick
        return min(hand, key=_number) if wanting else max(hand, key=_number)
    best = max(c for _, c in trick if c >> 4 == lead)
    if wanting:
        return max(following)
    under = [c for c in following if c < best]
    return max(under) if under else min(following)


def _number(code: int) -> int:
    return code & 15
