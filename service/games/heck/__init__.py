"""Heck: A Tiny Card Game: service/games/heck.md.

Every seat is a lonely snake. Each round it draws a secret snake card (a capacity
0-3 for hiss, slither and chomp) and then, simultaneously and hidden, places all
of its eggs: safe in the middle of the snake, or spread over hiss, slither, chomp
(up to the capacities) and the heck space. The reveal runs in order: safe seats
take an egg from the supply, heck bettors draw heck cards (one per egg, most eggs
first), then each active critter goes to the seat with strictly the most eggs on
every trait it lists (and at least its thresholds). 5 friends or a clique of 3
friends sharing a word win at once (long_game: 7 / 4).

The default decks are data (decks.json beside this file, loaded once at import):
  snakes    [{hiss, slither, chomp}]
  critters  [{name, word, traits: [{trait, threshold}]}]; no traits = heck-only
  heck      [{kind, word?}]; kind is one of HECK_KINDS, word only for friendship
A card's id is its index in its list.

A bet is one action, {safe, hiss, slither, chomp, heck}. The legal list names
every bet: the heck count takes whatever the capped attributes leave, so there
are at most (hiss+1)(slither+1)(chomp+1) + 1 bets (13 with the default snakes)
however many eggs a seat holds.

Points the page leaves open, decided here:
  - Cracked egg returns a brown egg if the seat holds one, else a green one.
  - A Friendship card drawn when no heck-only critter of its word is left in the
    deck or on the table is held and at once discarded (two events).
  - A seat whose snake draw found nothing (only possible with a tiny custom snake
    deck) has capacity 0 everywhere: it may bet safe or all on heck.
  - An instant win that is both 5 friends and a clique is reported as "friends".

State (plain JSON):
  players, long_game, max_rounds, first_seat (the seat that started)
  round           1-based
  first           seat holding the first-player marker
  green[seat], brown[seat]      eggs each seat holds, by colour
  supply_green, supply_brown    eggs in the middle (brown ones are taken first)
  snakes[seat]    this round's snake id, or None (snake deck and discards empty)
  bets[seat]      this round's committed bet {safe, hiss, slither, chomp, heck}, or None
  friends[seat]   critter ids, in the order gained
  held            [[seat, heck card id]] held Friendship cards, longest held first
  slots           3 critter ids or None (slot 1 first)
  critter_deck, snake_deck, heck_deck       face-down piles, top first
  snake_discard, heck_discard               discard piles
  last_reveal     {round, bets: [{seat, snake, safe, hiss, slither, chomp, heck}]} or None
  finished, end_reason, end_word, winners
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..base import Event, Game, Option, Outcome, RulesError, State
from ..rng import Rng

ATTRIBUTES = ("hiss", "slither", "chomp")
BET_FIELDS = ("safe", "hiss", "slither", "chomp", "heck")
HECK_KINDS = ("friendship", "found_egg", "cracked_egg", "runaway", "shoo", "stampede")
SLOTS = 3
STARTING_EGGS = 3  # green, per seat
SUPPLY_EGGS = 3  # brown, in the middle
MAX_CAPACITY = 3
WIN_FRIENDS = {False: 5, True: 7}  # by long_game
WIN_CLIQUE = {False: 3, True: 4}


def _load_decks(path: Path) -> tuple[tuple[dict, ...], tuple[dict, ...], tuple[dict, ...]]:
    """Reads and checks the deck file, so a bad publisher list fails at import."""
    data = json.loads(path.read_text(encoding="utf-8"))
    snakes = tuple({a: int(s[a]) for a in ATTRIBUTES} for s in data["snakes"])
    for snake in snakes:
        if not all(0 <= v <= MAX_CAPACITY for v in snake.values()):
            raise ValueError(f"{path.name}: snake capacities are 0-{MAX_CAPACITY}: {snake}")
    critters = []
    for cid, raw in enumerate(data["critters"]):
        traits = [{"trait": str(t["trait"]), "threshold": int(t.get("threshold", 0))}
                  for t in raw.get("traits", [])]
        if any(t["trait"] not in ATTRIBUTES or t["threshold"] < 0 for t in traits) or \
                len({t["trait"] for t in traits}) != len(traits) or not raw.get("word"):
            raise ValueError(f"{path.name}: bad critter {raw}")
        critters.append({"id": cid, "name": str(raw["name"]), "word": str(raw["word"]),
                         "traits": traits, "heck_only": not traits})
    heck = []
    for raw in data["heck"]:
        kind, word = raw["kind"], raw.get("word", "")
        if kind not in HECK_KINDS or (kind == "friendship") != bool(word):
            raise ValueError(f"{path.name}: bad heck card {raw}")
        heck.append({"kind": kind, "word": word})
    if not snakes or len(critters) < SLOTS or not heck:
        raise ValueError(f"{path.name}: a deck is too small")
    return snakes, tuple(critters), tuple(heck)


SNAKES, CRITTERS, HECK_CARDS = _load_decks(Path(__file__).with_name("decks.json"))


class Heck(Game):
    id = "heck"
    title = "Heck: A Tiny Card Game"
    min_players = 2
    max_players = 5
    rules_version = "1"
    options = (
        Option("long_game", "bool", False,
               "The longer game: win at 7 critter friends or a clique of 4 "
               "(instead of 5 friends or a clique of 3)."),
        Option("max_rounds", "int", 40,
               "The game ends after this round if nobody has won; the seats with most "
               "friends win.", minimum=1, maximum=1000),
        Option("first_seat", "seat", None,
               "The seat holding the first-player marker in round 1 (default: drawn)."),
    )

    # ---- setup ------------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        """`arrangement` may fix any of (ids are indexes into decks.json's lists):
          critter_deck   critter ids, top first (default: every critter, shuffled)
          slots          3 critter ids or None (default: the top 3 of critter_deck)
          heck_deck, snake_deck         ids, top first (default: all, shuffled)
          heck_discard, snake_discard   ids (default: empty)
          friends        per seat, critter ids in the order gained (default: none)
          held           [[seat, heck card id]], longest held first (default: none)
          green, brown   per seat, eggs by colour (default: 3 green, 0 brown)
          supply_green, supply_brown    the middle (default: 0 green, 3 brown)
        Round 1's snakes are then drawn from snake_deck, first_seat clockwise."""
        arr = arrangement or {}

        def pile(name: str, size: int) -> list[int]:
            if name in arr:
                return list(arr[name])
            cards = list(range(size))
            rng.shuffle(cards)
            return cards

        critter_deck = pile("critter_deck", len(CRITTERS))
        heck_deck = pile("heck_deck", len(HECK_CARDS))
        snake_deck = pile("snake_deck", len(SNAKES))
        if "slots" in arr:
            slots = list(arr["slots"])
        else:
            slots = critter_deck[:SLOTS] + [None] * (SLOTS - len(critter_deck[:SLOTS]))
            critter_deck = critter_deck[SLOTS:]
        first = options["first_seat"]
        if first is None:
            first = rng.below(players)
        state: State = {
            "players": players,
            "long_game": options["long_game"],
            "max_rounds": options["max_rounds"],
            "first_seat": first,
            "round": 1,
            "first": first,
            "green": list(arr.get("green", [STARTING_EGGS] * players)),
            "brown": list(arr.get("brown", [0] * players)),
            "supply_green": arr.get("supply_green", 0),
            "supply_brown": arr.get("supply_brown", SUPPLY_EGGS),
            "snakes": [None] * players,
            "bets": [None] * players,
            "friends": [list(f) for f in arr.get("friends", [[] for _ in range(players)])],
            "held": [list(h) for h in arr.get("held", [])],
            "slots": slots,
            "critter_deck": critter_deck,
            "snake_deck": snake_deck,
            "snake_discard": list(arr.get("snake_discard", [])),
            "heck_deck": heck_deck,
            "heck_discard": list(arr.get("heck_discard", [])),
            "last_reveal": None,
            "finished": False,
            "end_reason": None,
            "end_word": None,
            "winners": [],
        }
        self._draw_snakes(state, rng, [])
        return state

    def opening_events(self, state: State) -> list[Event]:
        events = [Event({"slot_refilled": {"slot": slot + 1, "critter": _critter(cid)}})
                  for slot, cid in enumerate(state["slots"]) if cid is not None]
        events.append(_round_started(state))
        return events

    # ---- acting -------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        return [seat for seat, bet in enumerate(state["bets"]) if bet is None]

    def turn_error(self, state: State, seat: int) -> RulesError:
        return RulesError("ALREADY_COMMITTED", "You have already placed your eggs this round.")

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        eggs = _eggs(state, seat)
        cap = _capacities(state, seat)
        actions = [{"safe": True, "hiss": 0, "slither": 0, "chomp": 0, "heck": 0}]
        for hiss in range(min(cap["hiss"], eggs) + 1):
            for slither in range(min(cap["slither"], eggs - hiss) + 1):
                for chomp in range(min(cap["chomp"], eggs - hiss - slither) + 1):
                    actions.append({"safe": False, "hiss": hiss, "slither": slither,
                                    "chomp": chomp, "heck": eggs - hiss - slither - chomp})
        return actions

    def default_action(self, state: State, seat: int, rng: Rng) -> dict[str, Any]:
        """A seat whose clock runs out places one of its legal bets drawn at
        random (the safe bet among them): bets are secret until the reveal, and
        every seat sees the timeout, so a fixed choice (always safe) would tell
        the seats still to bet what this one bet."""
        return rng.choice(self.legal_actions(state, seat))

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        bet = _parse_bet(action)
        eggs = _eggs(state, seat)
        if bet["safe"]:
            if any(bet[field] for field in BET_FIELDS[1:]):
                raise RulesError("SAFE_BET_HAS_EGGS",
                                 "A safe bet puts every egg in the middle of your snake: "
                                 "hiss, slither, chomp and heck must all be 0.")
            return
        cap = _capacities(state, seat)
        for attribute in ATTRIBUTES:
            if bet[attribute] > cap[attribute]:
                raise RulesError("OVER_CAPACITY",
                                 f"Your snake takes at most {cap[attribute]} egg(s) on "
                                 f"{attribute} this round, not {bet[attribute]}.",
                                 attribute=attribute, capacity=cap[attribute])
        placed = sum(bet[field] for field in BET_FIELDS[1:])
        if placed > eggs:
            raise RulesError("NOT_ENOUGH_EGGS",
                             f"You placed {placed} eggs but hold only {eggs}.",
                             placed=placed, eggs=eggs)
        if placed < eggs:
            raise RulesError("EGGS_UNPLACED",
                             f"You must place all {eggs} of your eggs (you placed {placed}), "
                             "or bet safe.", placed=placed, eggs=eggs)

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        bet = _parse_bet(action)
        state["bets"][seat] = bet
        events = [Event({"bet_committed": {"seat": seat}},
                        {seat: {"bet_committed": {"seat": seat, "bet": dict(bet)}}})]
        if all(b is not None for b in state["bets"]):
            self._reveal(state, rng, events)
        return events

    # ---- the reveal -------------------------------------------------------------

    def _reveal(self, state: State, rng: Rng, events: list[Event]) -> None:
        n = state["players"]
        bets: list[dict[str, Any]] = state["bets"]
        reveal = {"round": state["round"],
                  "bets": [{"seat": seat, "snake": state["snakes"][seat], **bets[seat]}
                           for seat in range(n)]}
        state["last_reveal"] = reveal
        state["bets"] = [None] * n
        events.append(Event({"bets_revealed": _reveal_view(reveal)}))
        order = _seat_order(state)

        # a. Safe seats take an egg each, from the first player clockwise, while
        # any is left (a safe seat that finds the supply empty gets nothing).
        for seat in order:
            if bets[seat]["safe"] and _supply(state) > 0:
                events.append(_take_egg(state, seat, "safe"))

        # b. Heck draws: most eggs on heck first; fewest friends; seat order.
        friends_now = [len(f) for f in state["friends"]]
        drawers = sorted((seat for seat in order if bets[seat]["heck"] > 0),
                         key=lambda s: (-bets[s]["heck"], friends_now[s], order.index(s)))
        for seat in drawers:
            for _ in range(bets[seat]["heck"]):
                if self._draw_heck_card(state, seat, rng, events):
                    return

        # c. Critters, slot 1 to 3.
        for slot in range(SLOTS):
            if self._resolve_critter(state, slot, bets, events):
                return

        # End of round.
        for seat in range(n):
            if state["snakes"][seat] is not None:
                state["snake_discard"].append(state["snakes"][seat])
        state["snakes"] = [None] * n
        if self._refill(state, events):
            return
        state["first"] = (state["first"] + 1) % n
        if not state["critter_deck"] and all(cid is None for cid in state["slots"]):
            self._end_by_count(state, "no_critters", events)
        elif state["round"] >= state["max_rounds"]:
            self._end_by_count(state, "max_rounds", events)
        else:
            state["round"] += 1
            self._draw_snakes(state, rng, events)
            events.append(_round_started(state))

    def _draw_heck_card(self, state: State, seat: int, rng: Rng,
                        events: list[Event]) -> bool:
        """Draws and resolves one heck card; True when the game ended."""
        hid = _draw(state, "heck", rng, events)
        card = None if hid is None else HECK_CARDS[hid]
        events.append(Event({"heck_card_drawn": {"seat": seat, "card": card and dict(card)}}))
        if card is None:
            return False
        kind = card["kind"]
        if kind == "friendship":
            word = card["word"]
            slot = next((i for i, cid in enumerate(state["slots"]) if cid is not None
                         and CRITTERS[cid]["heck_only"] and CRITTERS[cid]["word"] == word), None)
            if slot is not None:
                state["heck_discard"].append(hid)
                return self._befriend(state, seat, slot, "friendship", events)
            state["held"].append([seat, hid])
            events.append(Event({"card_held": {"seat": seat, "card": dict(card)}}))
            _drop_dead_held_cards(state, word, events)
            return False
        state["heck_discard"].append(hid)
        if kind == "found_egg" and _supply(state) > 0:
            events.append(_take_egg(state, seat, "found_egg"))
        elif kind == "cracked_egg" and _eggs(state, seat) > 1:
            events.append(_return_egg(state, seat))
        elif kind in ("found_egg", "cracked_egg"):  # the supply is empty; the seat's last egg
            events.append(Event({"no_effect": {"seat": seat, "card": dict(card)}}))
        elif kind in ("runaway", "shoo"):
            target = seat if kind == "runaway" else _shoo_target(state, seat)
            if target is None or not state["friends"][target]:
                events.append(Event({"no_effect": {"seat": seat, "card": dict(card)}}))
            else:
                cid = state["friends"][target].pop()
                state["critter_deck"].append(cid)
                events.append(Event({"critter_lost": {"seat": target, "critter": _critter(cid),
                                                      "cause": kind, "by_seat": seat}}))
        elif kind == "stampede":
            moved = [cid for cid in state["slots"]
                     if cid is not None and not CRITTERS[cid]["heck_only"]]
            state["slots"] = [None if cid in moved else cid for cid in state["slots"]]
            state["critter_deck"].extend(moved)
            events.append(Event({"stampede": {"seat": seat,
                                              "critters": [_critter(c) for c in moved]}}))
            return self._refill(state, events)
        return False

    def _resolve_critter(self, state: State, slot: int, bets: list[dict[str, Any]],
                         events: list[Event]) -> bool:
        """The critters step for one slot; True when the game ended."""
        cid = state["slots"][slot]
        if cid is None or CRITTERS[cid]["heck_only"]:
            return False
        leaders = []
        reason = None
        for trait in CRITTERS[cid]["traits"]:
            counts = [bet[trait["trait"]] for bet in bets]
            top = max(counts)
            if counts.count(top) > 1:
                reason = "tie"
                break
            leaders.append(counts.index(top))
        if reason is None and len(set(leaders)) > 1:
            reason = "split"
        if reason is None and any(bets[leaders[0]][t["trait"]] < t["threshold"]
                                  for t in CRITTERS[cid]["traits"]):
            reason = "threshold"
        if reason is not None:
            events.append(Event({"critter_unclaimed": {"slot": slot + 1,
                                                       "critter": _critter(cid),
                                                       "reason": reason}}))
            return False
        return self._befriend(state, leaders[0], slot, "bet", events)

    def _befriend(self, state: State, seat: int, slot: int, cause: str,
                  events: list[Event]) -> bool:
        """`seat` befriends the critter in `slot`; True when that wins the game."""
        cid = state["slots"][slot]
        state["slots"][slot] = None
        state["friends"][seat].append(cid)
        events.append(Event({"critter_befriended": {"seat": seat, "critter": _critter(cid),
                                                    "slot": slot + 1, "cause": cause}}))
        friends = state["friends"][seat]
        target_friends = WIN_FRIENDS[state["long_game"]]
        target_clique = WIN_CLIQUE[state["long_game"]]
        words = Counter(CRITTERS[c]["word"] for c in friends)
        clique = next((w for w, k in words.items() if k >= target_clique), None)
        if len(friends) >= target_friends:
            self._finish(state, "friends", [seat], None, events)
            return True
        if clique is not None:
            self._finish(state, "clique", [seat], clique, events)
            return True
        if CRITTERS[cid]["heck_only"]:
            _drop_dead_held_cards(state, CRITTERS[cid]["word"], events)
        return False

    def _refill(self, state: State, events: list[Event]) -> bool:
        """Fills empty slots from the critter deck, slot 1 first. A heck-only critter
        that turns up goes at once to the longest-held Friendship card of its word,
        and the slot is filled again. True when that wins the game."""
        slots = state["slots"]
        deck = state["critter_deck"]
        for slot in range(SLOTS):
            while slots[slot] is None and deck:
                cid = deck.pop(0)
                slots[slot] = cid
                events.append(Event({"slot_refilled": {"slot": slot + 1,
                                                       "critter": _critter(cid)}}))
                critter = CRITTERS[cid]
                if not critter["heck_only"]:
                    continue
                holder = next((h for h in state["held"]
                               if HECK_CARDS[h[1]]["word"] == critter["word"]), None)
                if holder is None:
                    continue
                state["held"].remove(holder)
                state["heck_discard"].append(holder[1])
                if self._befriend(state, holder[0], slot, "held_friendship", events):
                    return True
        return False

    def _draw_snakes(self, state: State, rng: Rng, events: list[Event]) -> None:
        for seat in _seat_order(state):
            state["snakes"][seat] = _draw(state, "snake", rng, events)

    def _end_by_count(self, state: State, reason: str, events: list[Event]) -> None:
        counts = [len(f) for f in state["friends"]]
        best = max(counts)
        self._finish(state, reason, [s for s, c in enumerate(counts) if c == best], None,
                     events)

    def _finish(self, state: State, reason: str, winners: list[int], word: str | None,
                events: list[Event]) -> None:
        state.update(finished=True, end_reason=reason, end_word=word, winners=winners)
        events.append(Event({"game_ended": {"reason": reason, "winners": list(winners),
                                            "word": word}}))

    # ---- views and results ------------------------------------------------------

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["players"]
        own = seat is not None  # (view() passes a seat of this game, or None)
        snake = state["snakes"][seat] if own else None
        bet = state["bets"][seat] if own else None
        seats = []
        for other in range(n):
            seats.append({
                "seat": other,
                "eggs": _eggs(state, other),
                "brown_eggs": state["brown"][other],
                "friends": [_critter(c) for c in state["friends"][other]],
                "held": [dict(HECK_CARDS[h]) for s, h in state["held"] if s == other],
                "committed": state["bets"][other] is not None,
            })
        return {
            "options": {"long_game": state["long_game"], "max_rounds": state["max_rounds"],
                        "first_seat": state["first_seat"]},
            "round": state["round"],
            "first_player": state["first"],
            "finished": state["finished"],
            "end_reason": state["end_reason"],
            "friends_to_win": WIN_FRIENDS[state["long_game"]],
            "clique_to_win": WIN_CLIQUE[state["long_game"]],
            "supply": _supply(state),
            "supply_brown": state["supply_brown"],
            "slots": [{"slot": i + 1, "critter": None if cid is None else _critter(cid)}
                      for i, cid in enumerate(state["slots"])],
            "critter_deck_size": len(state["critter_deck"]),
            "snake_deck_size": len(state["snake_deck"]),
            "snake_discard_size": len(state["snake_discard"]),
            "heck_deck_size": len(state["heck_deck"]),
            "heck_discard_size": len(state["heck_discard"]),
            "snake": None if snake is None else dict(SNAKES[snake]),
            "bet": None if bet is None else dict(bet),
            "seats": seats,
            "held": [{"seat": s, "card": dict(HECK_CARDS[h])} for s, h in state["held"]],
            "last_reveal": None if state["last_reveal"] is None
            else _reveal_view(state["last_reveal"]),
        }

    def outcome(self, state: State) -> Outcome | None:
        if not state["finished"]:
            return None
        return Outcome([len(f) for f in state["friends"]], list(state["winners"]))


# ---- helpers ----------------------------------------------------------------------


def _parse_bet(action: Any) -> dict[str, Any]:
    """The bet with every field filled in (missing fields take their proto
    defaults); RulesError for anything malformed."""
    if not isinstance(action, dict):
        raise RulesError("MALFORMED_ACTION", "An action is an object of bet fields.")
    unknown = sorted(str(k) for k in action if k not in BET_FIELDS)
    if unknown:
        raise RulesError("MALFORMED_ACTION", f"Unknown bet field(s): {', '.join(unknown)}.",
                         fields=unknown)
    safe = action.get("safe", False)
    if not isinstance(safe, bool):
        raise RulesError("MALFORMED_ACTION", "`safe` must be true or false.")
    bet: dict[str, Any] = {"safe": safe}
    for field in BET_FIELDS[1:]:
        value = action.get(field, 0)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError("MALFORMED_ACTION", f"`{field}` must be a whole number of eggs.")
        if value < 0:
            raise RulesError("NEGATIVE_EGGS", f"`{field}` cannot be negative ({value}).")
        bet[field] = value
    return bet


def _eggs(state: State, seat: int) -> int:
    return state["green"][seat] + state["brown"][seat]


def _capacities(state: State, seat: int) -> dict[str, int]:
    sid = state["snakes"][seat]
    return dict(SNAKES[sid]) if sid is not None else {a: 0 for a in ATTRIBUTES}


def _seat_order(state: State) -> list[int]:
    """Every seat, from the first player clockwise."""
    n = state["players"]
    return [(state["first"] + i) % n for i in range(n)]


def _critter(cid: int) -> dict[str, Any]:
    c = CRITTERS[cid]
    return {"id": cid, "name": c["name"], "word": c["word"],
            "traits": [dict(t) for t in c["traits"]], "heck_only": c["heck_only"]}


def _reveal_view(reveal: dict[str, Any]) -> dict[str, Any]:
    return {"round": reveal["round"],
            "bets": [{**bet, "snake": None if bet["snake"] is None else dict(SNAKES[bet["snake"]])}
                     for bet in reveal["bets"]]}


def _round_started(state: State) -> Event:
    public = {"round": state["round"], "first_player": state["first"]}
    private = {seat: {"round_started": {**public, "snake": dict(SNAKES[sid])}}
               for seat, sid in enumerate(state["snakes"]) if sid is not None}
    return Event({"round_started": public}, private)


def _draw(state: State, deck: str, rng: Rng, events: list[Event]) -> int | None:
    """The top card of the snake or heck deck, reshuffling its discards into it
    when it is empty; None when both are empty."""
    pile, discard = state[f"{deck}_deck"], state[f"{deck}_discard"]
    if not pile and discard:
        pile.extend(discard)
        discard.clear()
        rng.shuffle(pile)
        events.append(Event({"deck_reshuffled": {"deck": deck, "cards": len(pile)}}))
    return pile.pop(0) if pile else None


def _supply(state: State) -> int:
    return state["supply_green"] + state["supply_brown"]


def _take_egg(state: State, seat: int, cause: str) -> Event:
    """One egg from the supply (not empty) to `seat`: brown if any is left, else green."""
    colour = "brown" if state["supply_brown"] > 0 else "green"
    state[f"supply_{colour}"] -= 1
    state[colour][seat] += 1
    return Event({"egg_taken": {"seat": seat, "cause": cause, "colour": colour,
                                "eggs": _eggs(state, seat), "supply": _supply(state)}})


def _return_egg(state: State, seat: int) -> Event:
    """A Cracked egg: one egg back to the supply (brown if the seat holds one),
    from a seat with more than one."""
    colour = "brown" if state["brown"][seat] > 0 else "green"
    state[colour][seat] -= 1
    state[f"supply_{colour}"] += 1
    return Event({"egg_returned": {"seat": seat, "colour": colour,
                                   "eggs": _eggs(state, seat), "supply": _supply(state)}})


def _shoo_target(state: State, seat: int) -> int | None:
    """The other seat with most friends, nearest clockwise from `seat` on a tie;
    None when no other seat has a friend."""
    n = state["players"]
    others = [(seat + k) % n for k in range(1, n)]
    best = max(len(state["friends"][o]) for o in others)
    if best == 0:
        return None
    return next(o for o in others if len(state["friends"][o]) == best)


def _drop_dead_held_cards(state: State, word: str, events: list[Event]) -> None:
    """Discards held Friendship cards of `word` once no heck-only critter of that
    word is left in the critter deck or on the table."""
    alive = any(CRITTERS[cid]["heck_only"] and CRITTERS[cid]["word"] == word
                for cid in [*state["critter_deck"], *state["slots"]] if cid is not None)
    if alive:
        return
    for entry in [h for h in state["held"] if HECK_CARDS[h[1]]["word"] == word]:
        state["held"].remove(entry)
        state["heck_discard"].append(entry[1])
        events.append(Event({"held_card_discarded": {"seat": entry[0],
                                                     "card": dict(HECK_CARDS[entry[1]])}}))


GAME = Heck()
