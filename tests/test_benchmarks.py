"""The benchmark still runs. It is meant to be run on demand; a short run of
every part of it here (engine, memory, each arm, both transports, the textbook
floor) keeps it from rotting unnoticed. Its figures are not checked: speed is
for the benchmark's reader, not for assertions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_benchmark_run_prints_every_figure():
    run = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.bench", "--seconds", "1", "--repeat", "1",
         "--clients", "1", "--engine-seconds", "0.2", "--sync-floor", "--events-only", "--processes", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert re.search(r"engine: [\d,]+ random 4-player What the Heck\? playouts/s", out), out
    assert re.search(r"redis: [\d.]+ KB per finished 4-player match", out), out
    for transport in ("gRPC", "REST"):
        line = re.search(rf"^{transport} +1 client\(s\): +\d+ actions/s .* floor +\d+/s .* ratio \d+%", out, re.M)
        assert line, out
    assert len(re.findall(r"server CPU per action \(", out)) == 2, out
    assert len(re.findall(r"textbook floor .* ratio \d+%", out)) == 2, out
    assert len(re.findall(r"events only .* actions/s", out)) == 2, out
    assert re.search(r"gRPC 1 client\(s\), 2 service process\(es\): +\d+ actions/s", out), out


def test_a_short_http_workers_run_prints_its_table():
    """tests/benchmarks/http_workers.py: each scenario against both workers,
    a fraction of a second each. Pipelined answers must come in order (that
    is correctness, not speed)."""
    run = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.http_workers", "--seconds", "0.2", "--warm-up", "0.05",
         "--slow", "2", "--silent", "2", "--idle", "2", "--pipelined", "1", "--batch", "4"],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert re.search(r"^scenario +worker +GET /v1/games +POST /v1/matches +answered +adversary$", out, re.M), out
    figure = r"(?:[\d.]+ / \d+ ms|no answer)"
    for scenario in ("baseline", "slow x2", "silent x2", "idle x2", "pipelined x1"):
        for worker in ("parlor", "gthread"):
            line = re.search(rf"^{scenario} +{worker} +{figure} +{figure} +\d+/\d+(?: .*)?$", out, re.M)
            assert line, out
            if scenario == "pipelined x1":
                assert re.search(r"pipelined req/s, ([\d,]+)/\1 answered in order", line.group()), line.group()


def test_a_short_win_rate_run_prints_a_row_for_every_game_and_player_count():
    """tests/benchmarks/winrate.py: two matches per game and player count, the
    strong bot of every game against random ones, to the end."""
    run = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.winrate", "--matches", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = re.findall(r"^\| (\w+) \| (\d) \| 2 \| [\d.]+% \| [\d.]+% \| [\d.]+ \| [\d.]+% \| [\d.]+ \|$",
                      run.stdout, re.M)
    from parlor.service import games
    expected = {(game_id, str(n)) for game_id, game in games.GAMES.items()
                for n in range(game.min_players, game.max_players + 1)}
    assert set(rows) == expected, run.stdout
