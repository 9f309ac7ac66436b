"""Win rate of one `strong` bot against `random` opponents, per game and player count.

    python -m tests.benchmarks.winrate [--matches 1000] [--games heck,whatever] [--players 3]
                                       [--jobs 2]

Each match is played with the engines directly, as the worker plays bots: every
seat that may act gets its view (game.view, what a client of the seat sees) and
its legal actions, and parlor.service.bots.choose picks its move, from the
generator of the seat and the match version (bots.bot_rng). Match m of a
configuration has the seed "winrate/<game>/<players>/<m>" (so the run repeats
exactly), default options, and the strong bot at seat m % players, so that
every seat holds it equally often.

A match's win goes to its winners in equal shares (a tie of two: half each), so
the shares of a match add up to 1 and the fair share of a seat is 1/n. It
prints, per configuration, the strong bot's share beside 1/n, their ratio, how
often it won or tied, and its thinking time per move (one core).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import dataclass

from parlor.service import bots, games
from parlor.service.games.rng import Rng

MAX_STEPS = 100_000


@dataclass
class Tally:
    matches: int = 0
    share: float = 0.0        # sum over matches of the strong seat's share of the win
    won_or_tied: int = 0
    strong_moves: int = 0
    strong_seconds: float = 0.0

    def add(self, other: "Tally") -> None:
        self.matches += other.matches
        self.share += other.share
        self.won_or_tied += other.won_or_tied
        self.strong_moves += other.strong_moves
        self.strong_seconds += other.strong_seconds


def play_match(game_id: str, players: int, index: int, strong_level: str = "strong") -> Tally:
    """One seeded match: the strong bot at seat index % players, random bots elsewhere."""
    game = games.get(game_id)
    seed = f"winrate/{game_id}/{players}/{index}"
    rng = Rng.from_seed(seed)
    state = game.new_state(players, game.resolve_options(players, {}), rng)
    strong_seat = index % players
    tally = Tally(matches=1)
    version = players  # (as the service counts: one version per seat taken, then one per action)
    for _ in range(MAX_STEPS):
        outcome = game.outcome(state)
        if outcome is not None:
            if strong_seat in outcome.winners:
                tally.won_or_tied = 1
                tally.share = 1 / len(outcome.winners)
            return tally
        seat = game.to_act(state)[0]
        legal = game.legal(state, seat)
        view = game.view(state, seat)
        level = strong_level if seat == strong_seat else "random"
        started = time.perf_counter()
        action = bots.choose(game, level, view, legal, seat, bots.bot_rng(seed, seat, version))
        if seat == strong_seat:
            tally.strong_seconds += time.perf_counter() - started
            tally.strong_moves += 1
        game.play(state, seat, action, rng)
        version += 1
    raise AssertionError(f"{seed}: no end after {MAX_STEPS} moves")


def _run(job: tuple[str, int, int, int, str]) -> Tally:
    game_id, players, first, count, level = job
    tally = Tally()
    for index in range(first, first + count):
        tally.add(play_match(game_id, players, index, level))
    return tally


def measure(game_id: str, players: int, matches: int, jobs: int = 1, level: str = "strong") -> Tally:
    chunk = max(1, matches // (jobs * 8))
    work = [(game_id, players, first, min(chunk, matches - first), level)
            for first in range(0, matches, chunk)]
    total = Tally()
    if jobs <= 1:
        for job in work:
            total.add(_run(job))
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for part in pool.imap_unordered(_run, work):
                total.add(part)
    return total


def row(game_id: str, players: int, tally: Tally) -> str:
    share = tally.share / tally.matches
    fair = 1 / players
    per_move = tally.strong_seconds / tally.strong_moves * 1000 if tally.strong_moves else 0.0
    return (f"| {game_id} | {players} | {tally.matches:,} | {share:.1%} | {fair:.1%} | {share / fair:.2f} | "
            f"{tally.won_or_tied / tally.matches:.1%} | {per_move:.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches per game and player count")
    parser.add_argument("--games", default=",".join(games.GAMES), help="comma-separated game ids")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: every one)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play matches in")
    parser.add_argument("--level", default="strong", choices=bots.LEVELS,
                        help="the level measured against random (random: a check of the harness, ~1/n)")
    args = parser.parse_args(argv)
    wanted = {int(p) for p in args.players.split(",") if p}
    print("| game | players | matches | strong bot's share of wins | fair share (1/n) | ratio "
          "| won or tied | ms per strong move |")
    print("|---|---|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        game = games.get(game_id)
        if game is None:
            parser.error(f"no game {game_id!r}")
        for players in range(game.min_players, game.max_players + 1):
            if wanted and players not in wanted:
                continue
            print(row(game_id, players, measure(game_id, players, args.matches, args.jobs, args.level)),
                  flush=True)


if __name__ == "__main__":
    main()
