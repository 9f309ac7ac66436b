"""What the Heck?'s strong bot: plan every card left at once, bid the one planned for
the pot; in the last rounds, search every way the game can end.

Model: every other seat bids a card drawn uniformly from the number cards it has not
played. Against a seat that bids at random this holds in every round to come, not
just this one (a random order of a hand puts each card in each round equally often),
and with two players too, though three cards are removed unseen (each unplayed card
is equally likely to be in hand). So the chances that our card c takes a pot (highest
unique bid for a pot worth >= 0, lowest for < 0), that another seat takes it, or that
every bid cancels are the same in every round, and by linearity of expectation the
best fixed plan is an assignment problem: our cards against this pot and the prize
cards still to come, each pair weighted by what it is worth to us. The bot solves it
exactly (Hungarian method) every round and bids the card the plan gives this pot.

Worth of card c against a prize: its value x (our chance of taking it - rivalry x
the chance another seat does). With two seats a prize the other takes costs as much
as one we take gains; with more, a pot going to one of several opponents costs less.
A cancellation counts as nothing (the cards carried over go to someone later).

Prize cards still to come: the unseen ones (not in the pot, the discard or anyone's
visible winnings). When more are unseen than remain to be turned (two players' three
removed prizes, other seats' face-down winnings), the plan uses the expected sorted
values of that many drawn at random from the unseen.

The plan makes the most points, not the most wins. When the scores are shown and the
rounds left can go few enough ways (SEARCH_COST; the last three rounds with two to four
seats, the last two with five), the bot instead looks at every one of them, under the
same model, and bids for the best expected share of the win: ahead it takes no needless
risk, behind it plays for the cards it needs.

It draws nothing from `rng`: the move is a function of the view alone. Cost: about a
millisecond a move (a table of chances and one assignment of at most 15 x 15), and
up to some 15 ms for the one searched move of a match that has a deep search.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import comb
from typing import Any

from ..games.base import Action, Game
from ..games.rng import Rng
from ..games.what_the_heck import NUMBER_CARDS, PRIZE_CARDS

HIGHEST = NUMBER_CARDS[-1]
SEARCH_COST = 20_000  # the rounds left are searched whole when _search_cost is at most this


def rivalry(players: int) -> float:
    """How much a point another seat takes counts against us (1 with two seats: the
    result is the difference of the two scores)."""
    return 1.0 if players == 2 else 1.0 / (players - 1)


def choose(game: Game, view: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    if len(legal) == 1:
        return legal[0]
    others = [s for s in view["seats"] if s["seat"] != seat]
    unplayed = [tuple(c for c in NUMBER_CARDS if c not in s["played"]) for s in others]
    unseen = _unseen_prizes(view)
    planned = legal[_planned(view, [action["bid"] for action in legal], unplayed, unseen)]
    scores = [s["score"] for s in view["seats"]]
    if None in scores or _search_cost(len(legal), unplayed, len(unseen)) > SEARCH_COST:
        return planned
    return _searched(legal, planned, unplayed, unseen, view["pot_value"],
                     [scores[seat]] + [s["score"] for s in others])


def _planned(view: dict[str, Any], hand: list[int], unplayed: list[tuple[int, ...]],
             unseen: list[int]) -> int:
    """The index in `hand` of the card the best plan bids for this round's pot."""
    take_high, take_low, cancel = _chances(unplayed)
    against = rivalry(len(view["seats"]))

    def worth(card: int, prize: float) -> float:
        ours = take_high[card] if prize >= 0 else take_low[card]
        theirs = 1.0 - ours - cancel[card]
        return prize * (ours - against * theirs)

    # column 0 is this round's pot; a seat holds one card per round left, so the matrix is square
    prizes = [view["pot_value"], *_expected_pile(unseen, view["prizes_left"])]
    return _best_assignment([[worth(card, prize) for prize in prizes] for card in hand])[0]


def _search_cost(rounds: int, unplayed: list[tuple[int, ...]], unseen: int) -> int:
    """How many ways the rounds left can go (our card, every other seat's and the
    prize turned, in each round), times the other seats whose bids each one reads."""
    leaves = len(unplayed)
    for done in range(rounds):
        leaves *= rounds - done
        for cards in unplayed:
            leaves *= len(cards) - done
        if done < rounds - 1:
            leaves *= unseen - done
    return leaves


def _searched(legal: list[Action], planned: Action, unplayed: list[tuple[int, ...]],
              unseen: list[int], pot: int, scores: list[int]) -> Action:
    """The move with the best expected share of the win (scores[0] is ours), by
    looking at every way the rounds left can go: every other seat bids one of its
    unplayed cards at random (in two-player games this draws the removed ones
    too, which is how a random order of an unknown hand falls), and the next prize
    is any unseen card. `planned` stays unless another card does better."""

    @cache
    def best(hand: tuple[int, ...], sets: tuple[tuple[int, ...], ...], unseen: tuple[int, ...],
             pot: int, scores: tuple[int, ...]) -> float:
        return max(after(card, hand, sets, unseen, pot, scores) for card in hand)

    def after(card: int, hand: tuple[int, ...], sets: tuple[tuple[int, ...], ...],
              unseen: tuple[int, ...], pot: int, scores: tuple[int, ...]) -> float:
        rest = tuple(c for c in hand if c != card)
        total = 0.0
        combinations = 0
        for bids in product(*sets):
            combinations += 1
            everyone = (card, *bids)
            unique = [bid for bid in everyone if everyone.count(bid) == 1]
            then, carried = scores, pot
            if unique:
                taker = everyone.index(max(unique) if pot >= 0 else min(unique))
                then = scores[:taker] + (scores[taker] + pot,) + scores[taker + 1:]
                carried = 0
            if not rest:  # the last round: a pot nobody takes is out of play
                total += _share(then)
                continue
            left = tuple(tuple(c for c in cards if c != bid) for cards, bid in zip(sets, bids))
            total += sum(best(rest, left, unseen[:i] + unseen[i + 1:], carried + prize, then)
                         for i, prize in enumerate(unseen)) / len(unseen)
        return total / combinations

    hand = tuple(action["bid"] for action in legal)
    sets, pile = tuple(unplayed), tuple(unseen)
    chances = [after(card, hand, sets, pile, pot, tuple(scores)) for card in hand]
    if chances[legal.index(planned)] >= max(chances) - 1e-9:
        return planned
    return legal[chances.index(max(chances))]


def _share(scores: tuple[int, ...]) -> float:
    """Our share of the win (scores[0] is ours); equal highest scores share it."""
    top = max(scores)
    return 1.0 / scores.count(top) if scores[0] == top else 0.0


def _unseen_prizes(view: dict[str, Any]) -> list[int]:
    """Prize cards in no pot, discard or visible winnings, ascending: the pile and
    whatever else is face down (two players' removed prizes, hidden winnings)."""
    seen = set(view["pot"]) | set(view["discarded"])
    for s in view["seats"]:
        seen.update(s["won"])
    return [c for c in sorted(PRIZE_CARDS) if c not in seen]


def _expected_pile(unseen: list[int], count: int) -> list[float]:
    """The `count` prize cards still to be turned, as values: exact when every unseen
    card is in the pile, else the expected sorted values of a random draw of `count`."""
    if len(unseen) == count:
        return [float(c) for c in unseen]
    ways = comb(len(unseen), count)
    # the i-th smallest drawn (from 0) is unseen[j] when it, i of the j smaller and
    # count-1-i of the larger ones are drawn
    return [sum(value * comb(j, i) * comb(len(unseen) - j - 1, count - i - 1)
                for j, value in enumerate(unseen)) / ways
            for i in range(count)]


def _chances(unplayed: list[tuple[int, ...]]) -> tuple[list[float], list[float], list[float]]:
    """For each card c we might bid, indexed by c: the chance that it is the highest
    unique bid, that it is the lowest, and that no bid is unique, when each other
    seat bids uniformly one of its unplayed cards (`unplayed[seat]`).

    A set of other seats (a bit per seat) is "grouped" over a range of cards when
    each of them bids a card in the range and no card there is bid by exactly one of
    them. Card c is the highest unique bid when the seats bidding above c are grouped
    there and the rest bid below c; the lowest, mirrored. No bid is unique when some
    seats bid c too and the rest are grouped below and above c."""
    full = (1 << len(unplayed)) - 1
    odds = [[1.0 / len(cards) if c in cards else 0.0 for c in range(HIGHEST + 1)]
            for cards in unplayed]
    together = []  # together[v][seats]: every seat of `seats` bids v
    for v in range(HIGHEST + 1):
        row = [1.0] * (full + 1)
        for seats in range(1, full + 1):
            lowest = seats & -seats
            row[seats] = row[seats ^ lowest] * odds[lowest.bit_length() - 1][v]
        together.append(row)
    groups = [seats for seats in range(full + 1) if seats & (seats - 1) or not seats]  # not one alone

    def grouped(cards: range) -> list[list[float]]:
        """grouped(cards)[k][seats]: `seats` are grouped over the first k of `cards`."""
        table = [[1.0] + [0.0] * full]
        for v in cards:
            last, row = table[-1], [0.0] * (full + 1)
            for seats, p in enumerate(last):
                if p:
                    for group in groups:
                        if not group & seats:
                            row[seats | group] += p * together[v][group]
            table.append(row)
        return table

    below = grouped(range(1, HIGHEST + 1))          # below[c]: grouped over cards 1..c
    above = grouped(range(HIGHEST, 0, -1))[::-1]    # above[c]: grouped over cards c+1..15
    take_high, take_low, cancel = ([0.0] * (HIGHEST + 1) for _ in range(3))
    for c in range(1, HIGHEST + 1):
        under = [sum(o[1:c]) for o in odds]
        over = [sum(o[c + 1:]) for o in odds]
        for seats in range(full + 1):
            rest = full ^ seats
            take_high[c] += above[c][seats] * _joint(under, rest)
            take_low[c] += below[c - 1][seats] * _joint(over, rest)
            if rest:  # `rest` bid c too; `seats` split into grouped below and grouped above
                cancel[c] += together[c][rest] * sum(below[c - 1][low] * above[c][seats ^ low]
                                                     for low in _subsets(seats))
    return take_high, take_low, cancel


def _joint(chance: list[float], seats: int) -> float:
    """The chance that every one of `seats` does what chance[seat] is the chance of."""
    p = 1.0
    seat = 0
    while seats:
        if seats & 1:
            p *= chance[seat]
        seats >>= 1
        seat += 1
    return p


def _subsets(seats: int) -> list[int]:
    subsets = [seats]
    sub = seats
    while sub:
        sub = (sub - 1) & seats
        subsets.append(sub)
    return subsets


def _best_assignment(worth: list[list[float]]) -> list[int]:
    """For a square matrix worth[row][column], the row given to each column in an
    assignment of greatest total worth (Hungarian method, O(n^3))."""
    n = len(worth)
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    row_of = [0] * (n + 1)  # 1-based rows by 1-based column; column 0 is the one being placed
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        row_of[0] = i
        j0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = row_of[j0]
            cost = worth[i0 - 1]
            delta, j1 = inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = -cost[j - 1] - u[i0] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if not row_of[j0]:
                break
        while j0:
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    return [row - 1 for row in row_of[1:]]
