"""Whatever: service/games/whatever.md.

The seats take turns as auctioneer. The auctioneer secretly draws the top card and
auctions it clockwise (bid higher or pass for good); the winner pays the auctioneer
(or the middle, when the auctioneer wins its own auction) and adds the card to its
row, where Whatever, Trash, Copy and Upset take effect and the row is settled. Then
the auctioneer may exchange one point card of its row for tokens, and tokens are
redistributed when they have all gathered in one place. A row worth 10 or holding 3
Whatevers wins at once; an empty deck at the draw ends the game.

Cards are short strings: a point card is its signed value ("+3", "-2"), the
specials are "whatever", "trash", "copy" and "upset". In a row, a Copy that became
something is "copy:" plus what it became ("copy:+3", "copy:upset"); a plain "copy"
has not become anything yet. The row rules are the pure functions `add_card`,
`settle` and `row_total` below.

State (plain JSON):
  players, first_seat
  deck            face-down cards, top first (nobody sees them)
  drawn           the card being auctioned (only the auctioneer sees it), or None
  auctioneer      this turn's auctioneer
  turn            1-based turn number
  phase           "auction", "exchange" (the auctioneer's optional exchange) or "over"
  bidder          the seat whose turn it is in the auction, else None
  bids[seat]      tokens the seat has bid this auction (held in escrow), 0 for none
  passed[seat]    the seat is out of this auction
  high_bidder     the seat holding the high bid, or None before any bid
  tokens[seat]    tokens in hand (a current bid not included)
  middle          tokens in the middle of the table
  rows[seat]      the seat's row, left to right, always settled
  discarded       discarded cards, oldest first (a Copy goes back to being a Copy)
  winners, reason set when the game is over: reason "points", "whatevers" or
                  "deck_empty"
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..base import Event, Game, Option, Outcome, RulesError, State
from ..rng import Rng

START_TOKENS = 6
WIN_TOTAL = 10
WIN_WHATEVERS = 3
SPECIALS = ("whatever", "trash", "copy", "upset")
WAITING_KINDS = ("trash", "copy", "upset")  # settling rule 2 moves a point card before these

# The action kinds (WhateverAction's oneof) and the fields each one carries.
ACTION_FIELDS = {"bid": ("amount",), "pass": (), "exchange": ("position",), "skip": ()}


def _load_deck() -> tuple[str, ...]:
    data = json.loads(resources.files(__package__).joinpath("deck.json").read_text("utf-8"))
    cards: list[str] = []
    for entry in data["cards"]:
        if entry["kind"] == "point":
            code = f"{int(entry['value']):+d}"
        elif entry["kind"] in SPECIALS:
            code = entry["kind"]
        else:
            raise ValueError(f"deck.json: unknown card kind {entry['kind']!r}")
        cards.extend([code] * int(entry["count"]))
    return tuple(cards)


DECK = _load_deck()


# ---- cards and rows (pure) ----------------------------------------------------

def acts_as(card: str) -> str:
    """What a row card counts as: a Copy that became something counts as that."""
    return card[5:] if card.startswith("copy:") else card


def is_point(card: str) -> bool:
    return acts_as(card)[0] in "+-"


def point_value(card: str) -> int:
    return int(acts_as(card))


def physical(card: str) -> str:
    """The printed card: a Copy stays a Copy card whatever it became."""
    return "copy" if card.startswith("copy") else card


def is_card(card: Any) -> bool:
    """A valid card code (for arrangements)."""
    if not isinstance(card, str):
        return False
    inner = card[5:] if card.startswith("copy:") else card
    if inner in SPECIALS:
        return not (card.startswith("copy:") and inner == "copy")
    try:
        return inner == f"{int(inner):+d}"
    except ValueError:
        return False


def row_total(row: list[str]) -> int:
    """Left to right: point cards add their value, an Upset negates the running total."""
    total = 0
    for card in row:
        kind = acts_as(card)
        if kind[0] in "+-":
            total += int(kind)
        elif kind == "upset":
            total = -total
    return total


def whatever_count(row: list[str]) -> int:
    return sum(1 for card in row if acts_as(card) == "whatever")


def can_act(row: list[str], i: int) -> bool:
    """A Trash or a Copy that has not become anything can act when its left
    neighbour exists and is not itself a Copy that has not become anything."""
    return (row[i] == "copy" or acts_as(row[i]) == "trash") and i > 0 and row[i - 1] != "copy"


def is_pending(row: list[str], i: int) -> bool:
    """A card waiting in a settled row: a Trash or unbecome Copy, or an Upset
    with nothing to its left."""
    kind = acts_as(row[i])
    return kind in ("trash", "copy") or (kind == "upset" and i == 0)


def _clear(row: list[str], position: int) -> dict[str, Any]:
    """A Whatever's effect: every card except the Whatevers leaves the row."""
    gone = [card for card in row if acts_as(card) != "whatever"]
    row[:] = [card for card in row if acts_as(card) == "whatever"]
    return {"kind": "cleared", "position": position, "cards": gone}


def settle(row: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """Settles a row (the page's algorithm, one change at a time) and returns the
    new row and the changes in order. Each change is {kind, position, cards}:
    "copied" (the Copy at position became cards[0]), "cleared" (a Whatever at
    position discarded cards), "trashed" (the Trash at position discarded cards,
    its left neighbour and itself) or "moved" (the point card at position went
    to the front)."""
    row = list(row)
    effects: list[dict[str, Any]] = []
    while True:
        ready = next((i for i in range(len(row)) if can_act(row, i)), None)
        if ready is not None:
            if row[ready] == "copy":
                became = "copy:" + acts_as(row[ready - 1])
                row[ready] = became
                effects.append({"kind": "copied", "position": ready, "cards": [became]})
                if acts_as(became) == "whatever":
                    effects.append(_clear(row, ready))
            else:
                gone = row[ready - 1:ready + 1]
                del row[ready - 1:ready + 1]
                effects.append({"kind": "trashed", "position": ready, "cards": gone})
            continue
        if row and acts_as(row[0]) in WAITING_KINDS:
            point = next((i for i in range(1, len(row)) if is_point(row[i])), None)
            if point is not None:
                row.insert(0, row.pop(point))
                effects.append({"kind": "moved", "position": point, "cards": [row[0]]})
                continue
        return row, effects


def add_card(row: list[str], card: str) -> tuple[list[str], list[dict[str, Any]]]:
    """A card joins the right end of a row: a Whatever clears the row, then the
    row is settled (where Trash and Copy act)."""
    row = [*row, card]
    effects = []
    if acts_as(card) == "whatever":
        effects.append(_clear(row, len(row) - 1))
    row, settled = settle(row)
    return row, effects + settled


def discards(effects: list[dict[str, Any]]) -> list[str]:
    """The cards that changes sent to the discard pile, as printed cards."""
    return [physical(card) for effect in effects if effect["kind"] in ("cleared", "trashed")
            for card in effect["cards"]]


# ---- the game -------------------------------------------------------------------

class Whatever(Game):
    id = "whatever"
    title = "Whatever"
    min_players = 2
    max_players = 6
    rules_version = "1"
    options = (
        Option("first_seat", "seat", None,
               "The first auctioneer; the turn then passes clockwise. "
               "Default: drawn at random."),
    )

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        """`arrangement` may fix `deck` (card codes, top first: "+3", "-2",
        "whatever", "trash", "copy", "upset"), `rows` (one list of card codes per
        seat, taken as given, so give settled rows; a Copy that became X is
        "copy:X"), `tokens` (per seat, in hand) and `middle`. Redistribution deals
        the token total out evenly (6 each by default; a remainder stays in the
        middle)."""
        arrangement = arrangement or {}
        first = options["first_seat"]
        if first is None:
            first = rng.below(players)
        if "deck" in arrangement:
            deck = list(arrangement["deck"])
        else:
            deck = list(DECK)
            rng.shuffle(deck)
        rows = [list(row) for row in arrangement.get("rows", [[]] * players)]
        tokens = list(arrangement.get("tokens", [START_TOKENS] * players))
        middle = arrangement.get("middle", 0)
        if (not all(is_card(card) for card in deck + [c for row in rows for c in row])
                or len(rows) != players or len(tokens) != players
                or not all(isinstance(t, int) and t >= 0 for t in [*tokens, middle])):
            raise ValueError("arrangement: bad deck, rows, tokens or middle")
        state: State = {
            "players": players,
            "first_seat": first,
            "deck": deck,
            "drawn": None,
            "auctioneer": first,
            "turn": 1,
            "phase": "auction",
            "bidder": None,
            "bids": [0] * players,
            "passed": [False] * players,
            "high_bidder": None,
            "tokens": tokens,
            "middle": middle,
            "rows": rows,
            "discarded": [],
            "winners": [],
            "reason": None,
        }
        self._start_turn(state)
        return state

    def opening_events(self, state: State) -> list[Event]:
        if state["phase"] == "over":
            return [_game_ended(state)]
        return [_card_drawn(state)]

    def to_act(self, state: State) -> list[int]:
        if state["phase"] == "auction":
            return [state["bidder"]]
        if state["phase"] == "exchange":
            return [state["auctioneer"]]
        return []

    def turn_error(self, state: State, seat: int) -> RulesError:
        if state["phase"] == "auction" and state["passed"][seat]:
            return RulesError("ALREADY_PASSED",
                              "You passed: you are out of this auction.")
        if state["phase"] == "exchange":
            return RulesError("NOT_YOUR_TURN",
                              f"Only the auctioneer, seat {state['auctioneer']}, "
                              "may act now (its exchange).")
        return RulesError("NOT_YOUR_TURN",
                          f"It is seat {state['bidder']}'s turn to bid or pass.")

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state["phase"] == "auction":
            owned = state["tokens"][seat] + state["bids"][seat]
            bids = [{"bid": {"amount": amount}}
                    for amount in range(_high_bid(state) + 1, owned + 1)]
            return [*bids, {"pass": {}}]
        return [*({"exchange": {"position": i}} for i in _exchangeable(state)), {"skip": {}}]

    def default_action(self, state: State, seat: int, rng: Rng) -> dict[str, Any]:
        """A timed-out seat passes in the auction (it is out of this auction, and
        any bid it made goes back to it) and, as the auctioneer, skips its
        exchange. (Both are public moves: nothing drawn.)"""
        return {"pass": {}} if state["phase"] == "auction" else {"skip": {}}

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        kind, body = _parse(action)
        phase = state["phase"]
        if kind in ("bid", "pass"):
            if phase != "auction":
                raise RulesError("WRONG_PHASE",
                                 "The auction is over: the auctioneer may exchange a "
                                 "point card or skip.")
            if kind == "bid":
                amount, high = body["amount"], _high_bid(state)
                if amount <= high:
                    raise RulesError("BID_TOO_LOW",
                                     f"A bid must be at least {high + 1}.", minimum=high + 1)
                owned = state["tokens"][seat] + state["bids"][seat]
                if amount > owned:
                    raise RulesError("NOT_ENOUGH_TOKENS",
                                     f"You own {owned} tokens: you cannot bid {amount}.",
                                     owned=owned)
            return
        if phase != "exchange":
            raise RulesError("WRONG_PHASE",
                             "The auction is on: bid or pass. The exchange comes after it.")
        if kind == "exchange":
            row, position = state["rows"][seat], body["position"]
            if not 0 <= position < len(row):
                raise RulesError("NO_SUCH_CARD",
                                 f"Your row has no card at position {position}.",
                                 position=position)
            if not is_point(row[position]):
                raise RulesError("NOT_A_POINT_CARD",
                                 "Only a point card can be exchanged.", position=position)
            value = point_value(row[position])
            if value < 0 and state["tokens"][seat] < -value:
                raise RulesError("NOT_ENOUGH_TOKENS",
                                 f"Discarding a {value} costs {-value} tokens; you have "
                                 f"{state['tokens'][seat]}.", cost=-value)
            if value > 0 and state["middle"] < value:
                raise RulesError("NOT_ENOUGH_IN_MIDDLE",
                                 f"Discarding a +{value} takes {value} tokens from the "
                                 f"middle, which holds {state['middle']}.", needed=value)

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        kind, body = _parse(action)
        if kind == "bid":
            return self._bid(state, seat, body["amount"])
        if kind == "pass":
            return self._pass(state, seat)
        if kind == "exchange":
            return self._exchange(state, seat, body["position"])
        events = [Event({"exchange_skipped": {"seat": seat}})]
        return events + self._end_turn(state)

    # ---- the auction ----

    def _bid(self, state: State, seat: int, amount: int) -> list[Event]:
        state["tokens"][seat] -= amount - state["bids"][seat]
        state["bids"][seat] = amount
        state["high_bidder"] = seat
        events = [Event({"bid_made": {"seat": seat, "amount": amount,
                                      "tokens": state["tokens"][seat]}})]
        if _in_auction(state) == [seat]:
            return events + self._auction_won(state, seat)
        state["bidder"] = _next_in_auction(state, seat)
        return events

    def _pass(self, state: State, seat: int) -> list[Event]:
        returned = state["bids"][seat]
        state["tokens"][seat] += returned
        state["bids"][seat] = 0
        state["passed"][seat] = True
        events = [Event({"passed": {"seat": seat, "returned": returned}})]
        left = _in_auction(state)
        if not left:  # nobody bid: the auctioneer takes the card for free
            return events + self._auction_won(state, state["auctioneer"], free=True)
        if len(left) == 1 and state["high_bidder"] == left[0]:
            return events + self._auction_won(state, left[0])
        state["bidder"] = _next_in_auction(state, seat)
        return events

    def _auction_won(self, state: State, winner: int, free: bool = False) -> list[Event]:
        auctioneer, card = state["auctioneer"], state["drawn"]
        price = 0 if free else state["bids"][winner]
        state["bids"][winner] = 0
        to_middle = not free and winner == auctioneer
        if to_middle:
            state["middle"] += price
        elif not free:
            state["tokens"][auctioneer] += price
        state.update(drawn=None, bidder=None, high_bidder=None,
                     passed=[False] * state["players"])
        events = [Event({"card_won": {
            "seat": winner, "card": _card(card), "price": price, "free": free,
            "paid_to": None if free or to_middle else auctioneer, "to_middle": to_middle,
        }})]
        row, effects = add_card(state["rows"][winner], card)
        events.append(self._set_row(state, winner, row, effects))
        if self._won(state, winner):
            return events + [_game_ended(state)]
        if _exchangeable(state):
            state["phase"] = "exchange"
            return events
        return events + self._end_turn(state)

    # ---- the exchange and the end of a turn ----

    def _exchange(self, state: State, seat: int, position: int) -> list[Event]:
        row = list(state["rows"][seat])
        card = row.pop(position)
        value = point_value(card)  # a negative card costs tokens, a positive one earns them
        state["tokens"][seat] += value
        state["middle"] -= value
        state["discarded"].append(physical(card))
        events = [Event({"exchanged": {"seat": seat, "position": position,
                                       "card": _card(card), "tokens": value}})]
        row, effects = settle(row)
        events.append(self._set_row(state, seat, row, effects))
        if self._won(state, seat):
            return events + [_game_ended(state)]
        return events + self._end_turn(state)

    def _set_row(self, state: State, seat: int, row: list[str],
                 effects: list[dict[str, Any]]) -> Event:
        state["rows"][seat] = row
        state["discarded"].extend(discards(effects))
        return Event({"row_changed": {
            "seat": seat,
            "effects": [{"kind": e["kind"], "position": e["position"],
                         "cards": [_card(c) for c in e["cards"]]} for e in effects],
            "row": _row_view(row),
            "total": row_total(row),
            "whatevers": whatever_count(row),
        }})

    def _won(self, state: State, seat: int) -> bool:
        row = state["rows"][seat]
        if whatever_count(row) >= WIN_WHATEVERS:
            reason = "whatevers"
        elif row_total(row) >= WIN_TOTAL:
            reason = "points"
        else:
            return False
        state.update(phase="over", winners=[seat], reason=reason, bidder=None)
        return True

    def _end_turn(self, state: State) -> list[Event]:
        events = []
        n = state["players"]
        total = sum(state["tokens"]) + state["middle"]
        each = total // n
        gathered = state["middle"] == total or total in state["tokens"]
        if total and gathered and state["tokens"] != [each] * n:
            state["tokens"] = [each] * n
            state["middle"] = total - each * n
            events.append(Event({"tokens_redistributed": {"each": each,
                                                          "middle": state["middle"]}}))
        if state["deck"]:  # else the game ends with the turn just played
            state["auctioneer"] = (state["auctioneer"] + 1) % n
            state["turn"] += 1
        return events + self._start_turn(state)

    def _start_turn(self, state: State) -> list[Event]:
        if not state["deck"]:
            totals = [row_total(row) for row in state["rows"]]
            ranks = [(totals[s], whatever_count(state["rows"][s])) for s in range(state["players"])]
            best = max(ranks)
            state.update(phase="over", reason="deck_empty", bidder=None,
                         winners=[s for s, rank in enumerate(ranks) if rank == best])
            return [_game_ended(state)]
        state.update(drawn=state["deck"].pop(0), phase="auction", bidder=state["auctioneer"],
                     bids=[0] * state["players"], passed=[False] * state["players"],
                     high_bidder=None)
        return [_card_drawn(state)]

    # ---- views and results ----

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        rows = state["rows"]
        shown = state["drawn"] is not None and seat == state["auctioneer"]
        return {
            "options": {"first_seat": state["first_seat"]},
            "turn": state["turn"],
            "auctioneer": state["auctioneer"],
            "phase": state["phase"],
            "deck_size": len(state["deck"]),
            "drawn_card": _card(state["drawn"]) if shown else None,
            "bidder": state["bidder"],
            "high_bid": _high_bid(state),
            "high_bidder": state["high_bidder"],
            "middle": state["middle"],
            "seats": [{
                "seat": s,
                "tokens": state["tokens"][s],
                "bid": state["bids"][s],
                "passed": state["passed"][s],
                "row": _row_view(rows[s]),
                "total": row_total(rows[s]),
                "whatevers": whatever_count(rows[s]),
            } for s in range(state["players"])],
            "discarded": [_card(card) for card in state["discarded"]],
            "winners": list(state["winners"]),
            "end_reason": state["reason"] or "",
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        return Outcome([row_total(row) for row in state["rows"]], list(state["winners"]))


# ---- helpers ----------------------------------------------------------------------

def _parse(action: Any) -> tuple[str, dict[str, Any]]:
    """The action's kind and body, or RulesError for anything malformed."""
    if isinstance(action, dict) and len(action) == 1:
        (kind, body), = action.items()
        fields = ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
        if (fields is not None and isinstance(body, dict) and set(body) == set(fields)
                and all(isinstance(body[f], int) and not isinstance(body[f], bool)
                        for f in fields)):
            return kind, body
    raise RulesError("MALFORMED_ACTION",
                     'An action is one of {"bid": {"amount": N}}, {"pass": {}}, '
                     '{"exchange": {"position": N}} or {"skip": {}}.')


def _high_bid(state: State) -> int:
    high = state["high_bidder"]
    return 0 if high is None else state["bids"][high]


def _in_auction(state: State) -> list[int]:
    return [s for s, out in enumerate(state["passed"]) if not out]


def _next_in_auction(state: State, seat: int) -> int:
    n = state["players"]
    return next(s for s in ((seat + k) % n for k in range(1, n + 1)) if not state["passed"][s])


def _exchangeable(state: State) -> list[int]:
    """Positions of the auctioneer's point cards it may exchange now."""
    seat = state["auctioneer"]
    positions = []
    for i, card in enumerate(state["rows"][seat]):
        if is_point(card):
            value = point_value(card)
            if (value < 0 and state["tokens"][seat] >= -value) or \
                    (value >= 0 and state["middle"] >= value):
                positions.append(i)
    return positions


def _card(card: str) -> dict[str, Any]:
    kind = acts_as(card)
    if kind[0] in "+-":
        kind, value = "point", int(kind)
    else:
        value = 0
    return {"kind": kind, "value": value, "is_copy": card.startswith("copy"), "pending": False}


def _row_view(row: list[str]) -> list[dict[str, Any]]:
    return [{**_card(card), "pending": is_pending(row, i)} for i, card in enumerate(row)]


def _card_drawn(state: State) -> Event:
    public = {"turn": state["turn"], "auctioneer": state["auctioneer"],
              "deck_size": len(state["deck"])}
    return Event({"card_drawn": public},
                 {state["auctioneer"]: {"card_drawn": {**public, "card": _card(state["drawn"])}}})


def _game_ended(state: State) -> Event:
    return Event({"game_ended": {
        "reason": state["reason"],
        "winners": list(state["winners"]),
        "totals": [row_total(row) for row in state["rows"]],
    }})


GAME = Whatever()
