"""Hi-Fu!! (ヒーフー!!): service/games/hi_fu.md.

A must-follow trick-taking game for 4 or 5 players where the aim is exactly two
tricks a round. Five rounds of nine tricks. Each round the cards in play are dealt
out and every seat secretly removes cards down to nine (one at a time or all at
once; each removal final and never shown). A seat's second trick stands its pawn on
the round board in the next free place ("Hi-Fu"), its third knocks the pawn over and
puts the seat out for the round ("Mii"). At the round's end a standing pawn scores
its place's value from the round board (`board.json`, sides `front` and `back`).
The game ends after round 5 or once a total reaches 10.

Cards are {"colour": "red"|"yellow"|"green"|"blue", "number": 1-15}; with four
players the 14s and 15s are out of the game.

State (plain JSON):
  players, board     the seat count and the round board's side ("front" or "back")
  first_leader       the seat that led round 1 (the option, or drawn)
  round              1-5
  phase              "discard" (removing down to 9), "play" (tricks) or "over"
  leader             the seat leading the current trick (in the discard: the first
                     trick's leader)
  turn               the seat to play a card, or None outside the play phase
  hands[seat]        cards in hand, sorted by colour then number
  removed[seat]      cards the seat removed this round (secret to the seat)
  put_away[seat]     cards the seat put away unseen on going out (secret to the seat)
  tricks[seat]       tricks taken this round
  out[seat]          the seat took a third trick and is out of this round
  trick              this trick's cards so far: [{seat, card}], in play order
  tricks_played      finished tricks this round, 0-9
  last_trick         the latest finished trick {number, lead_colour, cards, winner}
                     while it may still be seen (until the next trick's first card),
                     else None
  pawns[round - 1]   that round's board, in place order: [{seat, standing}]
                     (place = index + 1; a knocked-over pawn keeps its place)
  scores[seat]       totals
  deals              arranged deals for the coming rounds (tests, set-ups; secret)
  end_reason         "ten_points" or "five_rounds" once over, else None
  winners            the winning seats once over, else None
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..base import Event, Game, Option, Outcome, RulesError, State, shown
from ..rng import Rng

COLOURS = ("red", "yellow", "green", "blue")
COLOUR_ORDER = {colour: i for i, colour in enumerate(COLOURS)}
HIGHEST_NUMBER = {4: 13, 5: 15}  # four players leave the 14s and 15s in the box
KEEP = 9  # cards kept after the discard, and tricks per round
ROUNDS = 5
TARGET = 10  # a total of this much ends the game after the round's scoring
HI_FU, MII = 2, 3  # the trick counts that stand a pawn and knock it over

BOARD: dict[str, Any] = json.loads((Path(__file__).with_name("board.json")).read_text("utf-8"))
BOARD_SIDES = ("front", "back")


def deck(players: int) -> list[dict[str, Any]]:
    """Every card in play for this many players, sorted."""
    return [{"colour": colour, "number": number}
            for colour in COLOURS for number in range(1, HIGHEST_NUMBER[players] + 1)]


def _sort_key(card: dict[str, Any]) -> tuple[int, int]:
    return COLOUR_ORDER[card["colour"]], card["number"]


def _name(card: dict[str, Any]) -> str:
    return f"{card['colour']} {card['number']}"


class HiFu(Game):
    id = "hi_fu"
    title = "Hi-Fu!!"
    min_players = 4
    max_players = 5
    rules_version = "1"
    options = (
        Option("board", "string", "front",
               "The round board's side. front: a pawn standing on the board at the round's "
               "end scores its place's value. back (harder): the same values, and every "
               "player who took a third trick loses 1 point (never below 0).",
               choices=BOARD_SIDES),
        Option("first_seat", "seat", None,
               "The seat that leads the first trick of round 1. Drawn at random when not "
               "given. Later rounds are led by the winner of the previous round's last trick."),
    )

    # ---- set-up -------------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        """`arrangement` (tests, set-ups) may hold:
          deals   a list of deals for the rounds from the first one played on; each
                  deal is one hand per seat, each hand a list of cards
                  {"colour", "number"} (13 cards each with 4 players, 12 with 5,
                  together exactly the cards in play). Rounds beyond the list are
                  shuffled with the RNG.
          round   the round to start at (default 1), for a set-up mid-game.
          scores  the totals to start with (default all 0).
        """
        arrangement = arrangement or {}
        first = options["first_seat"]
        if first is None:
            first = rng.below(players)
        start_round = arrangement.get("round", 1)
        if not (isinstance(start_round, int) and 1 <= start_round <= ROUNDS):
            raise ValueError(f"arrangement round must be 1-{ROUNDS}")
        scores = list(arrangement.get("scores", [0] * players))
        if len(scores) != players or not all(isinstance(s, int) and s >= 0 for s in scores):
            raise ValueError("arrangement scores must be one total >= 0 per seat")
        deals = [[sorted((dict(card) for card in hand), key=_sort_key) for hand in deal]
                 for deal in arrangement.get("deals", [])]
        for deal in deals:
            _check_deal(players, deal)
        state: State = {
            "players": players,
            "board": options["board"],
            "first_leader": first,
            "round": start_round,
            "phase": "discard",
            "leader": first,
            "turn": None,
            "hands": [],
            "removed": [],
            "put_away": [],
            "tricks": [],
            "out": [],
            "trick": [],
            "tricks_played": 0,
            "last_trick": None,
            "pawns": [[] for _ in range(ROUNDS)],
            "scores": scores,
            "deals": deals,
            "end_reason": None,
            "winners": None,
        }
        _deal(state, rng)
        return state

    def opening_events(self, state: State) -> list[Event]:
        return [_round_started(state)]

    # ---- whose turn -----------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["phase"] == "discard":
            return [seat for seat, hand in enumerate(state["hands"]) if len(hand) > KEEP]
        if state["phase"] == "play":
            return [state["turn"]]
        return []

    def turn_error(self, state: State, seat: int) -> RulesError:
        if state["phase"] == "discard":
            return RulesError("ALREADY_COMMITTED",
                              f"You already hold {KEEP} cards; the others are still removing cards.")
        if state["out"][seat]:
            return RulesError("OUT_OF_ROUND",
                              "You took a third trick and are out until the round ends.")
        return RulesError("NOT_YOUR_TURN",
                          f"It is not seat {seat}'s turn: seat {state['turn']} plays next.")

    # ---- actions --------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        hand = state["hands"][seat]
        if state["phase"] == "discard":
            return [{"discard": {"cards": [dict(card)]}} for card in hand]
        lead = _lead_colour(state)
        following = [card for card in hand if card["colour"] == lead]
        return [{"play": dict(card)} for card in following or hand]

    def default_action(self, state: State, seat: int, rng: Rng) -> dict[str, Any]:
        """A seat whose clock runs out in the discard removes all the cards it
        still has to remove at once (one move, a shorthand legal_actions does not
        list), drawn at random from its hand: removed cards are never shown, so a
        fixed choice (the highest) would tell the others what it kept. In a
        trick it plays one of its legal cards drawn at random: the card is seen,
        but a fixed one (the lowest of the lead colour) would tell the others
        what else the seat holds."""
        hand = state["hands"][seat]
        if state["phase"] == "discard":
            pool = list(hand)
            rng.shuffle(pool)
            return {"discard": {"cards": sorted(pool[:len(hand) - KEEP], key=_sort_key)}}
        return rng.choice(self.legal_actions(state, seat))

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        if not isinstance(action, dict) or len(action) != 1:
            raise RulesError("MALFORMED_ACTION",
                             "An action is exactly one of `discard` or `play`.")
        (kind, body), = action.items()
        hand = state["hands"][seat]
        if kind == "discard":
            if state["phase"] != "discard":
                raise RulesError("WRONG_PHASE", "The discard is over: play a card.")
            if not isinstance(body, dict) or set(body) != {"cards"} \
                    or not isinstance(body["cards"], list) or not body["cards"]:
                raise RulesError("MALFORMED_ACTION",
                                 "A discard is {\"cards\": [...]} with at least one card.")
            cards = body["cards"]
            for card in cards:
                _check_card(state, card)
                if card not in hand:
                    raise RulesError("CARD_NOT_IN_HAND", f"You have no {_name(card)} in hand.",
                                     card=_name(card))
            if any(card in cards[:i] for i, card in enumerate(cards)):
                raise RulesError("DUPLICATE_CARD", "A card is named twice in the discard.")
            excess = len(hand) - KEEP
            if len(cards) > excess:
                raise RulesError("TOO_MANY_CARDS",
                                 f"You may remove only {excess} more card(s): you keep {KEEP}.",
                                 to_remove=excess)
        elif kind == "play":
            if state["phase"] != "play":
                raise RulesError("WRONG_PHASE",
                                 f"Every seat must first remove cards down to {KEEP}.")
            _check_card(state, body)
            if body not in hand:
                raise RulesError("CARD_NOT_IN_HAND", f"You have no {_name(body)} in hand.",
                                 card=_name(body))
            lead = _lead_colour(state)
            if lead is not None and body["colour"] != lead \
                    and any(card["colour"] == lead for card in hand):
                raise RulesError("MUST_FOLLOW_LEAD_COLOUR",
                                 f"You must follow the lead colour, {lead}, while you hold it.",
                                 lead_colour=lead)
        else:
            raise RulesError("MALFORMED_ACTION", f"Unknown action kind {shown(kind)}: "
                             "an action is exactly one of `discard` or `play`.")

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        if "discard" in action:
            return self._discard(state, seat, action["discard"]["cards"])
        return self._play(state, seat, action["play"], rng)

    def _discard(self, state: State, seat: int, cards: list[dict[str, Any]]) -> list[Event]:
        hand = state["hands"][seat]
        removed = [{"colour": card["colour"], "number": card["number"]} for card in cards]
        for card in removed:
            hand.remove(card)
        state["removed"][seat].extend(removed)
        state["removed"][seat].sort(key=_sort_key)
        public = {"seat": seat, "count": len(removed), "to_remove": len(hand) - KEEP}
        events = [Event({"cards_removed": public},
                        {seat: {"cards_removed": {**public, "cards": [dict(c) for c in removed]}}})]
        if all(len(h) == KEEP for h in state["hands"]):
            state["phase"] = "play"
            state["turn"] = state["leader"]
            events.append(Event({"play_started": {"round": state["round"],
                                                  "leader": state["leader"]}}))
        return events

    def _play(self, state: State, seat: int, card: dict[str, Any], rng: Rng) -> list[Event]:
        card = {"colour": card["colour"], "number": card["number"]}
        state["hands"][seat].remove(card)
        state["trick"].append({"seat": seat, "card": card})
        state["last_trick"] = None  # the finished trick is face down from the first card on
        events = [Event({"card_played": {"seat": seat, "card": dict(card),
                                         "trick": state["tricks_played"] + 1}})]
        if len(state["trick"]) < state["out"].count(False):
            state["turn"] = _next_in(state, seat)
            return events
        return events + self._finish_trick(state, rng)

    def _finish_trick(self, state: State, rng: Rng) -> list[Event]:
        trick = state["trick"]
        lead = trick[0]["card"]["colour"]
        winner = max((p for p in trick if p["card"]["colour"] == lead),
                     key=lambda p: p["card"]["number"])["seat"]
        state["tricks"][winner] += 1
        state["tricks_played"] += 1
        number = state["tricks_played"]
        state["last_trick"] = {"number": number, "lead_colour": lead,
                               "cards": trick, "winner": winner}
        state["trick"] = []
        events = []
        pawns = state["pawns"][state["round"] - 1]
        if state["tricks"][winner] == HI_FU:
            pawns.append({"seat": winner, "standing": True})
            place = len(pawns)
            events.append(Event({"hi_fu": {
                "seat": winner, "round": state["round"], "place": place,
                "points": BOARD[state["board"]]["points"][state["round"] - 1][place - 1]}}))
        elif state["tricks"][winner] == MII:
            place = next(i for i, pawn in enumerate(pawns, 1) if pawn["seat"] == winner)
            pawns[place - 1]["standing"] = False
            state["out"][winner] = True
            put_away = state["hands"][winner]
            state["put_away"][winner] = put_away
            state["hands"][winner] = []
            public = {"seat": winner, "round": state["round"], "place": place,
                      "put_away": len(put_away)}
            events.append(Event({"mii": public},
                                {winner: {"mii": {**public, "cards": [dict(c) for c in put_away]}}}))
        round_over = number == KEEP
        if round_over:
            state["leader"] = winner  # leads the next round even if this trick put it out
            state["turn"] = None
        else:
            state["leader"] = winner if not state["out"][winner] else _next_in(state, winner)
            state["turn"] = state["leader"]
        won = {"trick": number, "seat": winner, "lead_colour": lead,
               "cards": [{"seat": p["seat"], "card": dict(p["card"])} for p in trick],
               "tricks": state["tricks"][winner],
               "next_leader": None if round_over else state["leader"]}
        events.insert(0, Event({"trick_won": won}))
        if round_over:
            events += self._end_round(state, rng)
        return events

    def _end_round(self, state: State, rng: Rng) -> list[Event]:
        side = BOARD[state["board"]]
        rnd = state["round"]
        values = side["points"][rnd - 1]
        players = state["players"]
        gains = [0] * players
        for place, pawn in enumerate(state["pawns"][rnd - 1], 1):
            if pawn["standing"]:
                gains[pawn["seat"]] = values[place - 1]
        penalties = [min(side["out_penalty"], state["scores"][seat]) if state["out"][seat] else 0
                     for seat in range(players)]
        for seat in range(players):
            state["scores"][seat] += gains[seat] - penalties[seat]
        events = [Event({"round_scored": {"round": rnd, "gains": gains, "penalties": penalties,
                                          "scores": list(state["scores"])}})]
        reached = max(state["scores"]) >= TARGET
        if not reached and rnd < ROUNDS:
            state["round"] += 1
            _deal(state, rng)
            events.append(_round_started(state))
            return events
        state["phase"] = "over"
        state["end_reason"] = "ten_points" if reached else "five_rounds"
        state["winners"], tie_break = _winners(state)
        events.append(Event({"game_over": {"reason": state["end_reason"],
                                           "scores": list(state["scores"]),
                                           "winners": list(state["winners"]),
                                           "tie_break": tie_break}}))
        return events

    # ---- what each seat sees ----------------------------------------------------------

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = state["players"]
        discarding = state["phase"] == "discard"
        places = {pawn["seat"]: place
                  for place, pawn in enumerate(state["pawns"][state["round"] - 1], 1)}
        seats = []
        for other in range(players):
            hand_size = len(state["hands"][other])
            to_remove = hand_size - KEEP if discarding else 0
            seats.append({
                "seat": other,
                "hand_size": hand_size,
                "to_remove": to_remove,
                "committed": to_remove == 0,
                "tricks": state["tricks"][other],
                "out": state["out"][other],
                "score": state["scores"][other],
                "place": places.get(other),
            })
        board = []
        for rnd, values in enumerate(BOARD[state["board"]]["points"], 1):
            pawns = state["pawns"][rnd - 1] if rnd <= state["round"] else []
            board.append({"round": rnd, "values": list(values),
                          "pawns": [{"seat": p["seat"], "place": place, "standing": p["standing"]}
                                    for place, p in enumerate(pawns, 1)]})
        last = state["last_trick"]
        own = seat is not None
        return {
            "options": {"board": state["board"], "first_seat": state["first_leader"]},
            "round": state["round"],
            "rounds": ROUNDS,
            "phase": state["phase"],
            "tricks_played": state["tricks_played"],
            "leader": state["leader"] if state["phase"] != "over" else None,
            "turn": state["turn"],
            "lead_colour": _lead_colour(state),
            "trick": [{"seat": p["seat"], "card": dict(p["card"])} for p in state["trick"]],
            "last_trick": None if last is None else {
                "number": last["number"], "lead_colour": last["lead_colour"],
                "winner": last["winner"],
                "cards": [{"seat": p["seat"], "card": dict(p["card"])} for p in last["cards"]]},
            "hand": [dict(c) for c in state["hands"][seat]] if own else [],
            "removed": [dict(c) for c in state["removed"][seat]] if own else [],
            "put_away": [dict(c) for c in state["put_away"][seat]] if own else [],
            "seats": seats,
            "board": board,
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        return Outcome(list(state["scores"]), list(state["winners"]))


# ---- helpers ------------------------------------------------------------------------------

def _check_deal(players: int, deal: Any) -> None:
    size = len(deck(players)) // players
    if len(deal) != players or any(len(hand) != size for hand in deal):
        raise ValueError(f"an arranged deal is {players} hands of {size} cards")
    dealt = sorted((card for hand in deal for card in hand), key=_sort_key)
    if dealt != deck(players):
        raise ValueError("an arranged deal must hold every card in play exactly once")


def _deal(state: State, rng: Rng) -> None:
    """Deals the round's cards (an arranged deal if one is left, else shuffled) and
    opens the discard. The previous round's last trick stays visible."""
    players = state["players"]
    if state["deals"]:
        hands = state["deals"].pop(0)
    else:
        cards = deck(players)
        rng.shuffle(cards)
        size = len(cards) // players
        hands = [sorted(cards[i * size:(i + 1) * size], key=_sort_key) for i in range(players)]
    state.update(
        phase="discard",
        turn=None,
        hands=hands,
        removed=[[] for _ in range(players)],
        put_away=[[] for _ in range(players)],
        tricks=[0] * players,
        out=[False] * players,
        trick=[],
        tricks_played=0,
    )


def _round_started(state: State) -> Event:
    """The deal: everyone sees its size; each seat also sees its own cards."""
    public = {"round": state["round"], "leader": state["leader"],
              "dealt": len(state["hands"][0]), "keep": KEEP, "hand": []}
    return Event({"round_started": public},
                 {seat: {"round_started": {**public, "hand": [dict(c) for c in hand]}}
                  for seat, hand in enumerate(state["hands"])})


def _check_card(state: State, card: Any) -> None:
    if not isinstance(card, dict) or set(card) != {"colour", "number"}:
        raise RulesError("MALFORMED_ACTION", "A card is {\"colour\": ..., \"number\": ...}.")
    colour, number = card["colour"], card["number"]
    highest = HIGHEST_NUMBER[state["players"]]
    if colour not in COLOURS or isinstance(number, bool) or not isinstance(number, int) \
            or not 1 <= number <= highest:
        raise RulesError("UNKNOWN_CARD",
                         f"No such card in this game: colours are {', '.join(COLOURS)}, "
                         f"numbers 1-{highest}.", card=f"{colour} {number}")


def _lead_colour(state: State) -> str | None:
    trick = state["trick"]
    return trick[0]["card"]["colour"] if trick else None


def _next_in(state: State, seat: int) -> int:
    """The next seat to the left of `seat` that is still in the round."""
    players = state["players"]
    for step in range(1, players + 1):
        other = (seat + step) % players
        if not state["out"][other]:
            return other
    raise AssertionError("nobody is left in the round")


def _winners(state: State) -> tuple[list[int], bool]:
    """The top totals; a tie goes to the tied seat whose pawn stands in the
    highest place of the last round, else all tied seats win. Returns the winners
    and whether the tie-break decided."""
    best = max(state["scores"])
    tied = [seat for seat, score in enumerate(state["scores"]) if score == best]
    if len(tied) == 1:
        return tied, False
    standing = [pawn["seat"] for pawn in state["pawns"][state["round"] - 1]
                if pawn["standing"] and pawn["seat"] in tied]
    if standing:
        return [standing[-1]], True
    return tied, False


GAME = HiFu()
