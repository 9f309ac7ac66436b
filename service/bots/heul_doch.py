"""The strong bot for Heul doch! Mau Mau: a one-move lookahead on the table as
the seat sees it.

Every legal action is tried on a small model of the visible table (the pile
tops, the onion counts, the own hand) and scored:

  + the points it adds to the own pile: a card face up (nothing if the own
    onions devalue its number), or what a special card's swap or flip brings;
  - the points it adds to other seats' piles, which count as much as the own
    (a Catapult's or Werewolf's losses count the other way);
  - a fixed price for laying an onion (a card that never scores), and the
    points the changed own onion count is expected to devalue;
  + half the points of the cards left in hand that the own pile could take
    next turn (they match neither neighbour, and the own top takes them);
  + a bonus when the own top is a face-up number card, which neighbours must
    feed: a card that matches it may not go on their own piles.

The highest score wins, the first listed on a tie. The bot cannot see its own
pile below the top (nobody can), so the devaluation is an expectation over
numbers spread evenly. It draws nothing from its generator: the move is a pure
function of the view. Against random players it wins about 99% of 3-player
matches and 95% of 6-player ones (tests/benchmarks/winrate.py).
"""

from __future__ import annotations

from typing import Any

from ..games.base import Action, Game
from ..games.heul_doch import DIRECTIONS
from ..games.rng import Rng

# Weights, tuned against random opponents with 3 and 6 players.
GIVEN_WEIGHT = 1.0      # a point on another seat's pile, against one on the own
ONION_PRICE = 3.0       # an onion spends a card that never scores
HELD_WEIGHT = 0.5       # a held card the own pile could take next turn, per point
FED_TOP_BONUS = 3.0     # the own top is a face-up number card: neighbours must feed it
FACE_UP_SHARE = 0.8     # share of the seat's remaining plays expected face up on its pile
MEAN_NUMBER = 4.0       # the expected number of a card nobody has seen

# Pile tops in the model, besides a face-up number card (colour, number):
EMPTY = None            # an empty pile: taboo for neighbours, open to its owner
ONION = "onion"         # a face-down card: the same
BLANK = "blank"         # a face-up special card: matches nothing, scores nothing
UNSEEN = "unseen"       # a card just uncovered, not yet seen (a Catapult's or Werewolf's)


def choose(game: Game, view: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    return max(legal, key=_Table(view, seat).score)  # the first of the best


class _Table:
    """The visible table, from one seat's view."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        seats = view["seats"]
        self.seat = seat
        self.players = len(seats)
        self.left, self.right = (seat + 1) % self.players, (seat - 1) % self.players
        self.tops = [_model_top(s["top"]) for s in seats]
        self.heights = [s["pile_height"] for s in seats]
        self.onions = seats[seat]["onions"]
        self.hand = [_model_card(c) for c in view["hand"]]
        # The own pile's face-up cards at the end, which the onions devalue.
        plays_left = len(self.hand) + view["draw_pile"] / self.players
        self.face_ups = self.heights[seat] - self.onions + FACE_UP_SHARE * plays_left

    def score(self, action: Action) -> float:
        (kind, body), = action.items()
        tops = list(self.tops)
        rest = list(self.hand)
        gains = [0.0] * self.players  # points each pile gains (loses, if negative)
        onions = self.onions
        if kind == "face_up":
            card = _model_card(body["card"])
            rest.remove(card)
            target = {"own": self.seat, "left": self.left, "right": self.right}[body["pile"]]
            gains[target] += 0 if target == self.seat and card[1] in _devalued(onions) else card[1]
            tops[target] = card
        elif kind == "onion":
            rest.remove(_model_card(body["card"]))
            tops[self.seat] = ONION
            onions += 1
        else:
            rest.remove(kind)
            self._special(kind, body, tops, gains)
            onions += (tops[self.seat] == ONION) - (self.tops[self.seat] == ONION)
        score = gains[self.seat] - GIVEN_WEIGHT * (sum(gains) - gains[self.seat])
        if kind == "onion":
            score -= ONION_PRICE
        score -= self._devaluation(onions) - self._devaluation(self.onions)
        score += HELD_WEIGHT * sum(card[1] for card in rest if self._takes(tops, card))
        if isinstance(tops[self.seat], tuple):
            score += FED_TOP_BONUS
        return score

    def _special(self, kind: str, body: dict[str, Any], tops: list, gains: list[float]) -> None:
        """Moves the tops as the special card does, adding to `gains` what it
        does to each pile's score."""
        n = self.players
        if kind == "catapult":
            numbers = {s: top[1] for s, top in enumerate(self.tops) if isinstance(top, tuple)}
            high = max(numbers.values(), default=None)
            for s, number in numbers.items():
                if number == high:
                    tops[s] = self._uncovered(s)
                    gains[s] -= number
        elif kind in ("beach_towel", "carousel"):
            if kind == "beach_towel":
                mine, other = self.seat, body["seat"]
                sources = {mine: other, other: mine}  # seat -> the seat whose top it gets
            else:
                step = DIRECTIONS[body["direction"]]
                sources = {s: (s - step) % n for s in range(n)}
            for s, source in sources.items():
                incoming = self.tops[source]
                tops[s] = self._uncovered(s) if incoming is EMPTY else incoming
                gains[s] += _worth(incoming) - _worth(self.tops[s])
        else:  # werewolf: an onion turns up a card nobody has seen, a face-up card turns down
            for s, top in enumerate(self.tops):
                if top is not EMPTY:
                    tops[s] = UNSEEN if top == ONION else ONION
                    gains[s] += _worth(tops[s]) - _worth(top)

    def _uncovered(self, seat: int) -> Any:
        """`seat`'s top once its top card has gone: the unseen card below, if any."""
        return UNSEEN if self.heights[seat] > 1 else EMPTY

    def _takes(self, tops: list, card: Any) -> bool:
        """Whether the own pile takes `card` face up, the tops being `tops`."""
        if isinstance(card, str):
            return False
        if _matches(card, tops[self.left]) or _matches(card, tops[self.right]):
            return False
        own = tops[self.seat]
        return own in (EMPTY, ONION) or _matches(card, own)

    def _devaluation(self, onions: int) -> float:
        """The points `onions` onions are expected to devalue, numbers being spread evenly."""
        return sum(_devalued(onions)) * self.face_ups / 7


def _model_card(card: dict[str, Any]) -> Any:
    """A view card as (colour, number), or a special card's name."""
    return card["special"] if card.get("special") else (card["colour"], card["number"])


def _model_top(top: dict[str, Any] | None) -> Any:
    if top is None:
        return EMPTY
    if top["onion"]:
        return ONION
    card = _model_card(top["card"])
    return BLANK if isinstance(card, str) else card


def _matches(card: tuple[str, int], top: Any) -> bool:
    return isinstance(top, tuple) and (card[0] == top[0] or card[1] == top[1])


def _worth(top: Any) -> float:
    """What a top scores, as far as the seat knows."""
    if isinstance(top, tuple):
        return top[1]
    return MEAN_NUMBER if top == UNSEEN else 0.0


def _devalued(onions: int) -> set[int]:
    """The numbers a pile with `onions` onions devalues (the rules' End and score)."""
    numbers = {7} if onions >= 7 else set()
    if onions % 7:
        numbers.add(onions % 7)
    return numbers
