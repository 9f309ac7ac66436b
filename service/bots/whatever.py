"""Whatever's strong bot: every move it may make judged one step ahead.

A row's prospects are the expected number of cards its seat must still see
before it wins (`turns_to_win`, a table over the row's total, Whatevers and last
card), and a position is worth the seat's chance to win first: a softmax over
the seats of minus their turns to go, plus a small weight on the tokens each owns
(`Table.share`).

In the auction the bot compares two futures, averaged over the card (its own
card when it is the auctioneer, else every card it has not seen, by count): it
wins the card at the lowest bid it may make, or it passes and the card goes to
another seat still in the auction (likelier to one with more tokens to raise
by; to the auctioneer for free if nobody can bid). It bids that lowest bid while
winning is worth more, and passes otherwise. On the last card of the deck the
final ranking decides instead. At its exchange it makes the discard (or none)
that leaves it best placed, so any discard that wins at once.

It reads only the seat's view and draws nothing from its generator: the same
view gives the same move.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache
from typing import Any

from ..games.base import Action, Game
from ..games.rng import Rng
from ..games.whatever import (DECK, WIN_TOTAL, WIN_WHATEVERS, acts_as, add_card, physical,
                              point_value, row_total, settle, whatever_count)

# A total below this counts as this in the table: such a row is far from winning
# whatever its exact total.
LOWEST = -20
# A seat's chance to win first grows as exp(-TURN_WEIGHT * its turns to go).
TURN_WEIGHT = 0.3
# What a token owned is worth, in turns to go. Small: against bidders that spend
# freely, the bot that buys the cards it needs wins more than one that saves.
TOKEN_TURNS = 0.2
# The price another seat pays when it takes the card, as a share of the tokens it
# owns (a guess; it matters only to the auctioneer, who receives it).
PRICE_SHARE = 0.6


def choose(game: Game, view: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    table = Table(view, seat)
    if view["phase"] == "exchange":
        return _exchange(table, legal)
    return _auction(table, view, legal)


class Table:
    """The position as the seat sees it: the rows as card codes, the tokens each
    seat owns (in hand plus its current bid) and each row's turns to win."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.seat = seat
        self.rows = [[_code(card) for card in s["row"]] for s in view["seats"]]
        self.owned = [s["tokens"] + s["bid"] for s in view["seats"]]
        self.turns = [turns_left(row) for row in self.rows]
        self.last_card = view["deck_size"] == 0  # the game ends with this turn

    def share(self, changed: int, row: list[str], tokens: dict[int, int]) -> float:
        """The seat's chance to win if seat `changed` now has `row` and each seat
        in `tokens` gains (or, negative, pays) that many tokens."""
        if won(row):
            return 1.0 if changed == self.seat else 0.0
        rows = list(self.rows)
        rows[changed] = row
        if self.last_card:
            ranks = [(row_total(r), whatever_count(r)) for r in rows]
            first = [s for s, rank in enumerate(ranks) if rank == max(ranks)]
            return 1 / len(first) if self.seat in first else 0.0
        turns = list(self.turns)
        turns[changed] = turns_left(row)
        weights = [math.exp(-TURN_WEIGHT * (turns[s] - TOKEN_TURNS * (owned + tokens.get(s, 0))))
                   for s, owned in enumerate(self.owned)]
        return weights[self.seat] / sum(weights)


def _exchange(table: Table, legal: list[Action]) -> Action:
    seat = table.seat
    best, best_share = {"skip": {}}, table.share(seat, table.rows[seat], {})
    for action in legal:
        if "exchange" in action:
            row = list(table.rows[seat])
            value = point_value(row.pop(action["exchange"]["position"]))
            row, _ = settle(row)
            share = table.share(seat, row, {seat: value})  # a negative card costs tokens
            if share > best_share:
                best, best_share = action, share
    return best


def _auction(table: Table, view: dict[str, Any], legal: list[Action]) -> Action:
    bids = [action["bid"]["amount"] for action in legal if "bid" in action]
    if not bids:
        return {"pass": {}}
    seat, auctioneer = table.seat, view["auctioneer"]
    high, holder = view["high_bid"], view["high_bidder"]
    if view["drawn_card"] is not None:
        cards = Counter({_code(view["drawn_card"]): 1})
    else:  # (an arranged game's deck may hold cards the default deck has not)
        cards = unseen(view) or Counter(DECK)
    count = sum(cards.values())

    def paid(taker: int, price: int) -> dict[int, int]:
        if taker == auctioneer:  # the auctioneer pays the middle
            return {taker: -price}
        return {taker: -price, auctioneer: price}

    def if_taken_by(taker: int, tokens: dict[int, int]) -> float:
        return sum(n * table.share(taker, add_card(table.rows[taker], card)[0], tokens)
                   for card, n in cards.items()) / count

    # If this seat passes: odds of the others still in that hold the high bid or
    # can raise it, by how far they can raise it.
    odds = {s["seat"]: max(table.owned[s["seat"]] - high, 1) for s in view["seats"]
            if not s["passed"] and s["seat"] != seat
            and (s["seat"] == holder or table.owned[s["seat"]] > high)}
    if odds:
        passing = sum(
            weight * if_taken_by(taker, paid(taker, max(high + (taker != holder),
                                                        int(PRICE_SHARE * table.owned[taker]))))
            for taker, weight in odds.items()) / sum(odds.values())
    else:  # nobody else can bid: the auctioneer takes the card for free
        passing = if_taken_by(auctioneer, {})
    if if_taken_by(seat, paid(seat, bids[0])) > passing:
        return {"bid": {"amount": bids[0]}}
    return {"pass": {}}


# ---- rows --------------------------------------------------------------------------

def won(row: list[str]) -> bool:
    return whatever_count(row) >= WIN_WHATEVERS or row_total(row) >= WIN_TOTAL


def turns_left(row: list[str]) -> float:
    """The expected number of cards the row's seat must still see to win."""
    if won(row):
        return 0.0
    total, whatevers, last = _abstract(row)
    table = turns_to_win()
    return table.get((total, whatevers, last), table[(total, whatevers, None)])


def _abstract(row: list[str]) -> tuple[int, int, Any]:
    """A row as what decides what the next card does to it: (total, Whatevers,
    last card). The last card is a point value, "whatever", "upset",
    "alone-upset" (an Upset waiting alone in the row) or None (no card, or a
    Trash or Copy still waiting)."""
    last: Any = None
    if row:
        kind = acts_as(row[-1])
        if kind[0] in "+-":
            last = int(kind)
        elif kind == "whatever":
            last = "whatever"
        elif kind == "upset":
            last = "alone-upset" if len(row) == 1 else "upset"
    return max(LOWEST, row_total(row)), whatever_count(row), last


def _after(total: int, whatevers: int, last: Any, card: str) -> tuple[int, int, Any] | None:
    """The abstract row after `card` joins it, or None for a win. The card a Trash
    uncovers is not known here: the row's last card becomes None."""
    if card[0] in "+-":
        if last == "alone-upset":  # the point card moves in front of the Upset
            total, last = -int(card), "upset"
        else:
            total, last = total + int(card), int(card)
    elif card == "whatever":
        total, whatevers, last = 0, whatevers + 1, "whatever"
    elif card == "upset":
        if last is None and total == 0:
            last = "alone-upset"
        else:
            total, last = -total, "upset"
    elif card == "trash":
        if isinstance(last, int):
            total, last = total - last, None
        elif last == "whatever":
            whatevers, last = max(0, whatevers - 1), None
        elif last == "upset":
            total, last = -total, None
    elif card == "copy":
        if isinstance(last, int):
            total += last
        elif last == "whatever":
            total, whatevers = 0, whatevers + 1
        elif last == "upset":
            total = -total
    if whatevers >= WIN_WHATEVERS or total >= WIN_TOTAL:
        return None
    return max(LOWEST, total), whatevers, last


@cache
def turns_to_win() -> dict[tuple[int, int, Any], float]:
    """The expected number of cards a seat must see before it wins, per abstract
    row, if each card is drawn from the full deck and the seat takes it exactly
    when it brings the seat closer. Value iteration, once per process (about
    0.4 s)."""
    deck = Counter(DECK)
    cards = [(card, n / len(DECK)) for card, n in deck.items()]
    lasts = [None, "whatever", "upset", "alone-upset",
             *sorted({int(card) for card in deck if card[0] in "+-"})]
    states = [(total, whatevers, last) for total in range(LOWEST, WIN_TOTAL)
              for whatevers in range(WIN_WHATEVERS) for last in lasts]
    index = {state: i for i, state in enumerate(states)}
    moves = [[(p, None if (after := _after(*state, card)) is None else index[after])
              for card, p in cards] for state in states]
    turns = [10.0] * len(states)
    for _ in range(200):
        change = 0.0
        for i, options in enumerate(moves):
            # turns = 1 + the sum over cards of p * min(turns, turns after the card),
            # solved for this state with the others as they stand
            better = [(p, 0.0 if j is None else turns[j]) for p, j in options
                      if j is None or turns[j] < turns[i]]
            taken = sum(p for p, _ in better)
            if taken:
                new = (1 + sum(p * t for p, t in better)) / taken
                change = max(change, abs(new - turns[i]))
                turns[i] = new
        if change < 1e-4:
            break
    return {state: turns[i] for state, i in index.items()}


# ---- the view's cards --------------------------------------------------------------

def _code(card: dict[str, Any]) -> str:
    """A card of the view as the engine's card code ("+3", "copy:+3", "copy")."""
    kind = card["kind"]
    code = f"{card['value']:+d}" if kind == "point" else kind
    return "copy:" + code if card["is_copy"] and kind != "copy" else code


def unseen(view: dict[str, Any]) -> Counter:
    """The cards the seat has not seen, by count: the deck's and, unless the seat
    is the auctioneer, the card up for auction."""
    pool = Counter(DECK)
    seen = [card for s in view["seats"] for card in s["row"]] + view["discarded"]
    if view["drawn_card"] is not None:
        seen.append(view["drawn_card"])
    for card in seen:
        pool[physical(_code(card))] -= 1
    return +pool  # a deck arranged apart from DECK may leave counts below zero
