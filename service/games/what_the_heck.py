"""What the Heck? (Hol's der Geier / Raj): service/games/what_the_heck.md.

Every round one prize card is turned into the pot and every seat secretly commits
one number card (1-15). Bids played by two or more seats cancel out; of the unique
bids the highest takes a pot worth >= 0, the lowest a pot worth < 0. A pot nobody
takes carries over; in the last round it is out of play.

State (plain JSON):
  players, hidden_winnings, rounds
  hands[seat]     number cards still in hand, ascending (a committed card is out)
  bids[seat]      this round's committed card, or None
  played[seat]    revealed number cards, in play order
  won[seat]       prize cards taken, in the order taken
  prizes          face-down prize pile, next card first
  pot             prize cards in play this round, oldest first
  round           1-based round number (one prize card is turned per round)
  history         resolved rounds: {round, pot, bids, winner}
  discarded       prize cards out of play after a last-round cancellation
  finished        the last pot is resolved
Two-player games also keep `removed` (three number cards per seat) and
`removed_prizes`; no view or event ever shows them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .base import Event, Game, Option, Outcome, RulesError, State
from .rng import Rng

NUMBER_CARDS = tuple(range(1, 16))
PRIZE_CARDS = tuple(range(1, 11)) + tuple(range(-5, 0))  # mice +1..+10, buzzards -1..-5
TWO_PLAYER_REMOVED = 3  # number cards per seat, and prize cards, set aside unseen


class WhatTheHeck(Game):
    id = "what_the_heck"
    title = "What the Heck?"
    min_players = 2
    max_players = 5
    rules_version = "1"
    options = (
        Option("hidden_winnings", "bool", False,
               "Won prize cards are kept face down: views show other seats only how many "
               "prize cards each holds, and no per-round history, until the game ends."),
    )

    def setup(self, players: int, options: dict[str, Any], rng: Rng,
              arrangement: dict[str, Any] | None) -> State:
        """`arrangement` may fix `prizes` (the pile, top first), and with two
        players `removed` (three number cards per seat) and `removed_prizes`
        (three prize cards). Fixed cards must add up to the game's deck:
        ValueError otherwise."""
        arrangement = arrangement or {}
        if players != 2 and {"removed", "removed_prizes"} & arrangement.keys():
            raise ValueError("only a two-player game removes cards")
        given_removed = arrangement.get("removed_prizes")
        if "prizes" in arrangement:
            prizes = list(arrangement["prizes"])
        else:
            prizes = [c for c in PRIZE_CARDS if c not in (given_removed or ())]
            rng.shuffle(prizes)
        hands = [list(NUMBER_CARDS) for _ in range(players)]
        state: State = {"players": players, "hidden_winnings": options["hidden_winnings"]}
        if players == 2:
            if "removed" in arrangement:
                removed = [sorted(cards) for cards in arrangement["removed"]]
                if len(removed) != 2 or any(len(out) != TWO_PLAYER_REMOVED
                                            or not _distinct_cards(out, NUMBER_CARDS) for out in removed):
                    raise ValueError(f"`removed` holds {TWO_PLAYER_REMOVED} distinct number cards per seat")
            else:
                removed = []
                for _ in range(players):
                    cards = list(NUMBER_CARDS)
                    rng.shuffle(cards)
                    removed.append(sorted(cards[:TWO_PLAYER_REMOVED]))
            hands = [[c for c in NUMBER_CARDS if c not in out] for out in removed]
            if given_removed is not None:
                removed_prizes = list(given_removed)
            elif "prizes" in arrangement:
                removed_prizes = [c for c in PRIZE_CARDS if c not in prizes]
            else:
                removed_prizes, prizes = prizes[:TWO_PLAYER_REMOVED], prizes[TWO_PLAYER_REMOVED:]
            if len(removed_prizes) != TWO_PLAYER_REMOVED:
                raise ValueError(f"a two-player game sets {TWO_PLAYER_REMOVED} prize cards aside")
            state["removed"] = removed
            state["removed_prizes"] = removed_prizes
        else:
            removed_prizes = []
        fixed = prizes + removed_prizes
        if len(fixed) != len(PRIZE_CARDS) or not _distinct_cards(fixed, PRIZE_CARDS):
            raise ValueError("the prize pile (and, with two players, the removed prizes) must be "
                             "the 15 prize cards, each once")
        state.update(
            rounds=len(prizes),
            hands=hands,
            bids=[None] * players,
            played=[[] for _ in range(players)],
            won=[[] for _ in range(players)],
            prizes=prizes[1:],
            pot=prizes[:1],
            round=1,
            history=[],
            discarded=[],
            finished=False,
        )
        return state

    def opening_events(self, state: State) -> list[Event]:
        return [_round_started(state)]

    def to_act(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        return [seat for seat, bid in enumerate(state["bids"]) if bid is None]

    def turn_error(self, state: State, seat: int) -> RulesError:
        return RulesError("ALREADY_COMMITTED", "You have already committed a card this round.")

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return [{"bid": card} for card in state["hands"][seat]]

    def default_action(self, state: State, seat: int, rng: Rng) -> dict[str, Any]:
        """A seat whose clock runs out commits a number card from its hand drawn
        at random, whatever the pot: with 3-5 seats every hand is known, so a
        fixed choice (the lowest card) would tell the seats still to bid what
        the timed-out seat committed."""
        return {"bid": rng.choice(state["hands"][seat])}

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        if not isinstance(action, dict) or set(action) != {"bid"} or type(action["bid"]) is not int:
            raise RulesError("MALFORMED_ACTION", 'A bid is {"bid": <number card>}.')
        card = action["bid"]
        if card not in state["hands"][seat]:
            raise RulesError("CARD_NOT_IN_HAND", f"You have no number card {card} in hand.",
                             card=card)

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        card = action["bid"]
        state["hands"][seat].remove(card)
        state["bids"][seat] = card
        events = [Event({"bid_committed": {"seat": seat}},
                        {seat: {"bid_committed": {"seat": seat, "bid": card}}})]
        if all(bid is not None for bid in state["bids"]):
            events.extend(self._reveal(state))
        return events

    def _reveal(self, state: State) -> list[Event]:
        bids: list[int] = state["bids"]
        pot: list[int] = state["pot"]
        counts = Counter(bids)
        unique = [bid for bid in bids if counts[bid] == 1]
        winner = None
        if unique:
            best = max(unique) if sum(pot) >= 0 else min(unique)
            winner = bids.index(best)
            state["won"][winner].extend(pot)
        last_round = not state["prizes"]
        revealed = {
            "round": state["round"],
            "bids": list(bids),
            "pot": list(pot),
            "cancelled": sorted(bid for bid, n in counts.items() if n > 1),
            "winner": winner,
            "carried_over": winner is None and not last_round,
            "discarded": winner is None and last_round,
        }
        state["history"].append({"round": state["round"], "pot": list(pot),
                                 "bids": list(bids), "winner": winner})
        for seat, bid in enumerate(bids):
            state["played"][seat].append(bid)
        state["bids"] = [None] * state["players"]
        if winner is not None:
            state["pot"] = []
        events = [Event({"bids_revealed": revealed})]
        if last_round:
            if winner is None:
                state["discarded"].extend(pot)
                state["pot"] = []
            state["finished"] = True
        else:
            state["pot"].append(state["prizes"].pop(0))
            state["round"] += 1
            events.append(_round_started(state))
        return events

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        secret_tally = state["hidden_winnings"] and not state["finished"]
        seats = []
        for other in range(state["players"]):
            shown = not secret_tally or other == seat
            won = state["won"][other]
            seats.append({
                "seat": other,
                "hand_size": len(state["hands"][other]),
                "played": sorted(state["played"][other]),
                "committed": state["bids"][other] is not None,
                "won": list(won) if shown else [],
                "cards_won": len(won),
                "score": sum(won) if shown else None,
                "bid": state["bids"][other] if other == seat else None,
            })
        return {
            "options": {"hidden_winnings": state["hidden_winnings"]},
            "round": state["round"],
            "rounds": state["rounds"],
            "pot": list(state["pot"]),
            "pot_value": sum(state["pot"]),
            "prizes_left": len(state["prizes"]),
            "hand": list(state["hands"][seat]) if seat is not None else [],
            "seats": seats,
            "history": [] if secret_tally else [
                {"round": r["round"], "pot": r["pot"][:], "bids": r["bids"][:], "winner": r["winner"]}
                for r in state["history"]],
            "discarded": list(state["discarded"]),
        }

    def outcome(self, state: State) -> Outcome | None:
        if not state["finished"]:
            return None
        scores = [sum(won) for won in state["won"]]
        best = max(scores)
        return Outcome(scores, [seat for seat, score in enumerate(scores) if score == best])


def _round_started(state: State) -> Event:
    pot = state["pot"]
    return Event({"round_started": {"round": state["round"], "turned": pot[-1], "pot": list(pot)}})


def _distinct_cards(cards: list[Any], deck: tuple[int, ...]) -> bool:
    """Whether `cards` are distinct cards of `deck` (whole numbers: True is not the 1)."""
    return len(set(cards)) == len(cards) and all(type(c) is int and c in deck for c in cards)


GAME = WhatTheHeck()
