"""Heul doch! Mau Mau, with its special-card variant: service/games/heul_doch.md.

Every turn the seat to play puts one hand card face up on a pile it matches (a
neighbour's, when the card matches a neighbour's top: the neighbour rule), face
down on its own pile as an onion, or, in the variant, a special card on the
central special pile; then it draws back up to four while the draw pile lasts.
When every hand is empty, each pile scores its face-up numbers except those its
onions devalue.

Cards are named by strings: "red-5" for a number card (colour-number), and
"catapult", "beach_towel", "carousel", "werewolf" for the special cards. Actions,
views and events show them as {"colour", "number"} or {"special"}.

State (plain JSON):
  players, special_cards, first_seat
  draw            the draw pile, top first
  hands[seat]     hand cards, in canonical order (colour, number, specials last)
  piles[seat]     the seat's pile, bottom first; each entry {"card", "onion"}.
                  An onion's card is kept (it is a real card) but shown to nobody
                  until a Werewolf turns it up or the game ends.
  special_pile    the central pile, bottom first: played special cards and the
                  cards a Catapult discarded (out of the game)
  turn            the seat to play; None once the game is over
  finished        every hand is empty
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .base import Event, Game, Option, Outcome, RulesError, State, shown
from .rng import Rng

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "black")
NUMBERS = tuple(range(1, 8))
SPECIALS = ("catapult", "beach_towel", "carousel", "werewolf")
COPIES_PER_NUMBER_CARD = 2
COPIES_PER_SPECIAL = 3
HAND_SIZE = 4
PILES = ("own", "left", "right")
DIRECTIONS = {"left": 1, "right": -1}  # seat offset the tops move by
ACTION_KINDS = ("face_up", "onion", *SPECIALS)
# The fields each kind of action has (HeulDochAction's messages); no others.
ACTION_FIELDS = {"face_up": {"card", "pile"}, "onion": {"card"}, "catapult": set(),
                 "beach_towel": {"seat"}, "carousel": {"direction"}, "werewolf": set()}
CARD_FIELDS = {"colour", "number", "special"}

NUMBER_CARDS = tuple(f"{colour}-{number}" for colour in COLOURS for number in NUMBERS
                     for _ in range(COPIES_PER_NUMBER_CARD))
SPECIAL_CARDS = tuple(special for special in SPECIALS for _ in range(COPIES_PER_SPECIAL))

# Number card name -> (colour, number); specials are absent.
_NUMBER = {f"{colour}-{number}": (colour, number) for colour in COLOURS for number in NUMBERS}
_ORDER = {name: i for i, name in enumerate([*_NUMBER, *SPECIALS])}  # hand sort order


def deck(special_cards: bool) -> list[str]:
    """Every card in play: 98 number cards, plus the 12 specials in the variant."""
    return list(NUMBER_CARDS) + (list(SPECIAL_CARDS) if special_cards else [])


class HeulDoch(Game):
    id = "heul_doch"
    title = "Heul doch! Mau Mau"
    min_players = 3
    max_players = 6
    rules_version = "1"
    options = (
        Option("special_cards", "bool", False,
               "Shuffle in the 12 special cards (3 each of Catapult, Beach Towel, Carousel "
               "and Werewolf), played face up on a central pile and resolved at once."),
        Option("first_seat", "seat", None,
               "The seat that plays first (the biggest crybaby); drawn at random after "
               "dealing when not given."),
    )

    # ---- setup ------------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        """`arrangement` fixes the cards, by name ("red-5", ..., "werewolf"), in one
        of two shapes:
          {"deck": [...]}: the deck, top first, dealt as the rules say (one face-up
              card per seat from seat 0, then four hand cards each; a special card
              dealt face up goes back and the draw pile is reshuffled with the RNG).
              What is left is the draw pile; cards not listed are out of play.
          {"piles": [...], "hands": [...], "draw": [...], "special_pile": [...]}: a
              position. piles[seat] bottom first, each entry a name (face up) or
              {"card": name, "onion": bool}; hands[seat]; draw top first;
              special_pile optional.
        No card may appear more often than the game's deck holds it. Without an
        arrangement the whole deck is shuffled with `rng` and dealt."""
        special_cards = options["special_cards"]
        arrangement = arrangement or {}
        if "piles" in arrangement:
            piles = [[_entry(item) for item in pile] for pile in _names(arrangement, "piles")]
            hands = [_names({"hand": hand}, "hand") for hand in _names(arrangement, "hands")]
            draw = _names(arrangement, "draw")
            special_pile = _names(arrangement, "special_pile", optional=True)
            if len(piles) != players or len(hands) != players:
                raise ValueError("arrangement needs one pile and one hand per seat")
            if any(len(hand) > HAND_SIZE for hand in hands):
                raise ValueError(f"a hand holds at most {HAND_SIZE} cards")
        else:
            if "deck" in arrangement:
                draw = _names(arrangement, "deck")
                if len(draw) < players * (1 + HAND_SIZE):
                    raise ValueError("the deck is too short to deal every seat")
            else:
                draw = deck(special_cards)
                rng.shuffle(draw)
            piles, hands, special_pile = [], [], []
            for _ in range(players):
                piles.append([{"card": _deal_start(draw, rng), "onion": False}])
            for _ in range(players):
                hands.append(draw[:HAND_SIZE])
                del draw[:HAND_SIZE]
        in_play = (draw + special_pile + [c for hand in hands for c in hand]
                   + [e["card"] for pile in piles for e in pile])
        unknown = [card for card in in_play if not isinstance(card, str) or card not in _ORDER]
        if unknown:
            raise ValueError(f"unknown cards in arrangement: {unknown}")
        if Counter(in_play) - Counter(deck(special_cards)):
            raise ValueError("arrangement holds cards the deck does not (or too many copies)")
        first = options["first_seat"]
        if first is None:
            first = rng.below(players)
        state: State = {
            "players": players,
            "special_cards": special_cards,
            "first_seat": first,
            "draw": draw,
            "hands": [_sorted(hand) for hand in hands],
            "piles": piles,
            "special_pile": special_pile,
            "turn": None,
            "finished": False,
        }
        state["turn"] = _next_with_cards(state, first)
        state["finished"] = state["turn"] is None
        return state

    def opening_events(self, state: State) -> list[Event]:
        public = {
            "tops": _tops(state),
            "first_seat": state["first_seat"],
            "draw_pile": len(state["draw"]),
            "hand": [],
        }
        private = {seat: {**public, "hand": [_card(c) for c in hand]}
                   for seat, hand in enumerate(state["hands"])}
        return [Event({"dealt": public}, {seat: {"dealt": d} for seat, d in private.items()})]

    # ---- whose turn, what is legal ------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["finished"] else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        actions = []
        n = state["players"]
        for card in dict.fromkeys(state["hands"][seat]):  # distinct, in hand order
            if card in _NUMBER:
                for pile in _destinations(state, seat, card):
                    actions.append({"face_up": {"card": _card(card), "pile": pile}})
            elif card == "beach_towel":
                actions.extend({"beach_towel": {"seat": other}}
                               for other in range(n) if other != seat)
            elif card == "carousel":
                actions.extend({"carousel": {"direction": d}} for d in DIRECTIONS)
            else:
                actions.append({card: {}})
            actions.append({"onion": {"card": _card(card)}})
        return actions

    def default_action(self, state: State, seat: int, rng: Rng) -> dict[str, Any]:
        """A seat whose time runs out lays a card of its hand drawn at random face
        down on its own pile, as an onion (a fixed choice, say the first card in
        hand order, would tell the table something of the face-down card)."""
        # An onion is legal for every hand card and gives no seat points.
        return {"onion": {"card": _card(rng.choice(state["hands"][seat]))}}

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        if not isinstance(action, dict) or len(action) != 1:
            raise _malformed()
        (kind, body), = action.items()
        if kind not in ACTION_KINDS or not isinstance(body, dict):
            raise _malformed()
        extra = sorted(map(str, set(body) - ACTION_FIELDS[kind]))
        if extra:
            raise RulesError("MALFORMED_ACTION",
                             f"A {kind} action has no field {', '.join(map(repr, extra))}.")
        hand = state["hands"][seat]
        if kind in ("face_up", "onion"):
            card = _card_name(body.get("card"))
        else:
            card = kind
        if card not in hand:
            raise RulesError("CARD_NOT_IN_HAND", f"You have no {_label(card)} in hand.",
                             card=card)
        if kind == "face_up":
            self._check_face_up(state, seat, card, body.get("pile"))
        elif kind == "beach_towel":
            target = body.get("seat")
            if target is None:
                raise RulesError("UNKNOWN_SEAT", "Name the seat whose pile top the Beach Towel "
                                 "swaps with yours.")
            if not _is_int(target) or not 0 <= target < state["players"]:
                raise RulesError("UNKNOWN_SEAT", f"There is no seat {shown(target)}.")
            if target == seat:
                raise RulesError("BAD_TARGET", "The Beach Towel swaps with another seat's pile.")
        elif kind == "carousel":
            if body.get("direction") not in tuple(DIRECTIONS):
                raise RulesError("BAD_DIRECTION", 'The Carousel turns "left" or "right".')

    def _check_face_up(self, state: State, seat: int, card: str, pile: Any) -> None:
        if pile not in PILES:
            raise RulesError("BAD_PILE",
                             'A face-up card goes to the "own", "left" or "right" pile.')
        if card not in _NUMBER:
            raise RulesError("SPECIAL_NOT_FACE_UP",
                             "A special card is played with its own action, or as an onion.")
        allowed = _destinations(state, seat, card)
        if pile in allowed:
            return
        target = _seat_of(state, seat, pile)
        top = _top(state, target)
        if pile == "own" and allowed:
            raise RulesError("MUST_GIVE_TO_NEIGHBOUR",
                             f"The {_label(card)} matches a neighbour's top: it must go "
                             f"to the {' or '.join(allowed)} pile.")
        if pile != "own" and (top is None or top["onion"]):
            raise RulesError("ONION_TABOO",
                             f"Seat {target}'s pile shows an onion (or nothing): nothing "
                             "may be played on it.")
        raise RulesError("DOES_NOT_MATCH",
                         f"The {_label(card)} does not match the top of the {pile} pile"
                         + (" (the card may only be laid as an onion)." if not allowed else "."))

    # ---- playing ------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        (kind, body), = action.items()
        hand = state["hands"][seat]
        if kind == "face_up":
            card = _card_name(body["card"])
            target = _seat_of(state, seat, body["pile"])
            hand.remove(card)
            state["piles"][target].append({"card": card, "onion": False})
            events = [Event({"card_played": {"seat": seat, "card": _card(card), "onto": target}})]
        elif kind == "onion":
            card = _card_name(body["card"])
            hand.remove(card)
            state["piles"][seat].append({"card": card, "onion": True})
            events = [Event({"onion_laid": {"seat": seat}})]
        else:
            hand.remove(kind)
            state["special_pile"].append(kind)
            events = [Event({"special_played": self._resolve(state, seat, kind, body)})]
        events.extend(self._draw(state, seat))
        state["turn"] = _next_with_cards(state, seat + 1)
        if state["turn"] is None:
            state["finished"] = True
            events.append(self._game_over(state))
        return events

    def _resolve(self, state: State, seat: int, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """Resolves a special card; returns the special_played event's body."""
        piles, n = state["piles"], state["players"]
        played: dict[str, Any] = {"seat": seat, "special": kind, "discarded": []}
        if kind == "catapult":
            tops = {s: _NUMBER[p[-1]["card"]][1] for s, p in enumerate(piles)
                    if p and not p[-1]["onion"] and p[-1]["card"] in _NUMBER}
            high = max(tops.values(), default=None)
            for s in sorted(tops):
                if tops[s] == high:
                    card = piles[s].pop()["card"]
                    state["special_pile"].append(card)
                    played["discarded"].append({"seat": s, "card": _card(card)})
        elif kind == "beach_towel":
            target = body["seat"]
            mine = piles[seat].pop() if piles[seat] else None
            theirs = piles[target].pop() if piles[target] else None
            if mine is not None:
                piles[target].append(mine)
            if theirs is not None:
                piles[seat].append(theirs)
            played["target"] = target
        elif kind == "carousel":
            step = DIRECTIONS[body["direction"]]
            tops = [pile.pop() if pile else None for pile in piles]
            for s, top in enumerate(tops):
                if top is not None:
                    piles[(s + step) % n].append(top)
            played["direction"] = body["direction"]
        else:  # werewolf
            for pile in piles:
                if pile:
                    pile[-1]["onion"] = not pile[-1]["onion"]
        played["tops"] = _tops(state)
        return played

    def _draw(self, state: State, seat: int) -> list[Event]:
        hand, draw = state["hands"][seat], state["draw"]
        count = min(HAND_SIZE - len(hand), len(draw))
        if count <= 0:
            return []
        drawn = draw[:count]
        del draw[:count]
        state["hands"][seat] = _sorted(hand + drawn)
        public = {"seat": seat, "count": count, "draw_pile": len(draw), "cards": []}
        return [Event({"cards_drawn": public},
                      {seat: {"cards_drawn": {**public, "cards": [_card(c) for c in drawn]}}})]

    def _game_over(self, state: State) -> Event:
        results = []
        for seat, pile in enumerate(state["piles"]):
            tally = _tally(pile)
            results.append({"seat": seat, **tally,
                            "pile": [_pile_card(e, reveal=True) for e in pile]})
        return Event({"game_over": {"results": results, "winners": self.outcome(state).winners}})

    # ---- what a seat sees, and the result -------------------------------------

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["finished"]
        seats = []
        for other, pile in enumerate(state["piles"]):
            entry = {
                "seat": other,
                "hand_size": len(state["hands"][other]),
                "pile_height": len(pile),
                "onions": sum(e["onion"] for e in pile),
                "top": _pile_card(pile[-1], reveal=over) if pile else None,
                "pile": [_pile_card(e, reveal=True) for e in pile] if over else [],
                "score": None, "devalued": [], "lost": None,
            }
            if over:
                tally = _tally(pile)
                entry.update(score=tally["score"], devalued=tally["devalued"], lost=tally["lost"])
            seats.append(entry)
        return {
            "options": {"special_cards": state["special_cards"], "first_seat": state["first_seat"]},
            "hand": [_card(c) for c in state["hands"][seat]] if seat is not None else [],
            "seats": seats,
            "draw_pile": len(state["draw"]),
            "special_pile": [_card(c) for c in state["special_pile"]],
            "turn": state["turn"],
            "finished": over,
        }

    def outcome(self, state: State) -> Outcome | None:
        if not state["finished"]:
            return None
        tallies = [_tally(pile) for pile in state["piles"]]
        scores = [t["score"] for t in tallies]
        best = max(scores)
        tied = [seat for seat, score in enumerate(scores) if score == best]
        most_lost = max(tallies[seat]["lost"] for seat in tied)
        return Outcome(scores, [seat for seat in tied if tallies[seat]["lost"] == most_lost])


# ---- helpers ------------------------------------------------------------------------

def _deal_start(draw: list[str], rng: Rng) -> str:
    """The next card dealt face up to start a pile: a special goes back, the draw
    pile is reshuffled, and the seat draws again."""
    while True:
        if not any(card in _NUMBER for card in draw):
            raise ValueError("not enough number cards to deal every seat a pile")
        card = draw.pop(0)
        if card in _NUMBER:
            return card
        draw.append(card)
        rng.shuffle(draw)


def _names(arrangement: dict[str, Any], key: str, optional: bool = False) -> list[Any]:
    """An arrangement's list under `key` (a copy); ValueError if it is missing or no list."""
    if key not in arrangement and optional:
        return []
    value = arrangement.get(key)
    if not isinstance(value, list):
        raise ValueError(f"arrangement {key!r} must be a list")
    return list(value)


def _entry(item: Any) -> dict[str, Any]:
    """An arrangement's pile entry: a name (face up) or {"card", "onion"}."""
    if isinstance(item, str):
        return {"card": item, "onion": False}
    if not isinstance(item, dict) or not isinstance(item.get("card"), str):
        raise ValueError(f"a pile entry is a card name or {{card, onion}}, not {item!r}")
    return {"card": item["card"], "onion": bool(item.get("onion", False))}


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def _next_with_cards(state: State, start: int) -> int | None:
    """The first seat from `start` on, clockwise, that still holds cards."""
    n = state["players"]
    for i in range(n):
        seat = (start + i) % n
        if state["hands"][seat]:
            return seat
    return None


def _seat_of(state: State, seat: int, pile: str) -> int:
    n = state["players"]
    return {"own": seat, "left": (seat + 1) % n, "right": (seat - 1) % n}[pile]


def _top(state: State, seat: int) -> dict[str, Any] | None:
    pile = state["piles"][seat]
    return pile[-1] if pile else None


def _matches(card: str, top: dict[str, Any] | None) -> bool:
    """A number card matches a pile whose top is a face-up number card of the same
    colour or number. Onions, empty piles and face-up specials match nothing."""
    if top is None or top["onion"] or top["card"] not in _NUMBER:
        return False
    colour, number = _NUMBER[card]
    top_colour, top_number = _NUMBER[top["card"]]
    return colour == top_colour or number == top_number


def _destinations(state: State, seat: int, card: str) -> list[str]:
    """Where a number card may go face up: the matching neighbours if any (the
    neighbour rule), else the own pile if it takes the card, else nowhere."""
    forced = [pile for pile in ("left", "right")
              if _matches(card, _top(state, _seat_of(state, seat, pile)))]
    if forced:
        return forced
    own = _top(state, seat)
    if own is None or own["onion"] or _matches(card, own):
        return ["own"]
    return []


def _tally(pile: list[dict[str, Any]]) -> dict[str, Any]:
    """A pile's score: N onions devalue the 7s (N >= 7) and the number N mod 7
    (unless 0); every other face-up number card scores its number."""
    onions = sum(e["onion"] for e in pile)
    devalued = set()
    if onions >= 7:
        devalued.add(7)
    if onions % 7:
        devalued.add(onions % 7)
    score = lost = 0
    for e in pile:
        if not e["onion"] and e["card"] in _NUMBER:
            number = _NUMBER[e["card"]][1]
            if number in devalued:
                lost += number
            else:
                score += number
    return {"score": score, "lost": lost, "onions": onions, "devalued": sorted(devalued)}


def _card(name: str) -> dict[str, Any]:
    """A card as the HeulDochCard message."""
    if name in _NUMBER:
        colour, number = _NUMBER[name]
        return {"colour": colour, "number": number}
    return {"special": name}


def _card_name(card: Any) -> str:
    """A HeulDochCard dict from an action as a card name; RulesError if malformed."""
    if not isinstance(card, dict) or not set(card) <= CARD_FIELDS:
        raise RulesError("BAD_CARD", "Name the card as {colour, number} or {special}.")
    special, colour, number = card.get("special"), card.get("colour"), card.get("number")
    if special not in (None, ""):
        if colour not in (None, "") or number not in (None, 0):
            raise RulesError("BAD_CARD", "A card has a colour and number, or is a special card.")
        if special not in SPECIALS:
            raise RulesError("BAD_CARD", f"There is no special card {shown(special)}.")
        return special
    if colour in (None, "") and number in (None, 0):
        raise RulesError("BAD_CARD", "Name the card as {colour, number} or {special}.")
    if colour not in COLOURS or not _is_int(number) or number not in NUMBERS:
        raise RulesError("BAD_CARD", f"There is no card with colour {shown(colour)} and number "
                         f"{shown(number)}: colours are {', '.join(COLOURS)}, numbers 1-7.")
    return f"{colour}-{number}"


def _malformed() -> RulesError:
    return RulesError("MALFORMED_ACTION",
                      f"An action has exactly one of: {', '.join(ACTION_KINDS)}.")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _label(name: str) -> str:
    return name.replace("-", " ").replace("_", " ")


def _pile_card(entry: dict[str, Any], reveal: bool = False) -> dict[str, Any]:
    """A pile entry as HeulDochPileCard: an onion's card only when `reveal`."""
    if entry["onion"] and not reveal:
        return {"onion": True}
    return {"onion": entry["onion"], "card": _card(entry["card"])}


def _tops(state: State) -> list[dict[str, Any]]:
    """Every pile's top as HeulDochTop, in seat order (no top: an empty pile)."""
    return [{"seat": seat, **({"top": _pile_card(pile[-1])} if pile else {})}
            for seat, pile in enumerate(state["piles"])]


GAME = HeulDoch()
