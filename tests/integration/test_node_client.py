"""A Node.js client, built from proto/ alone, plays a match of every game.

tests/node/play.js loads proto/parlor/v1/parlor.proto at run time with
@grpc/proto-loader (includeDirs: the repository's proto/) and @grpc/grpc-js,
as a Node app integrating over gRPC would; it creates a match of each game
ListGames names, joins every seat, and plays random listed legal actions, each
posted back unchanged, until the match is finished. That checks what a Python
client cannot: that the .proto files load in another toolchain, that metadata
and oneofs work there, and that a legal action decoded by one runtime encodes
back to the same action.

The npm packages are pinned (tests/node/package-lock.json) and installed once
with `npm ci` into tests/node/node_modules (not committed). Skipped, saying so,
only where node or npm is missing; .ci/run installs both from Debian's
packages when the machine lacks them."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

NODE_DIR = Path(__file__).resolve().parent.parent / "node"


def _installed() -> None:
    """`npm ci` unless node_modules already holds what package-lock.json pins
    (a stamp of the lock file's hash, written after a successful install)."""
    lock = (NODE_DIR / "package-lock.json").read_bytes()
    stamp = NODE_DIR / "node_modules" / ".parlor-lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE_DIR,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    stamp.write_text(digest)


def test_a_node_client_plays_a_match_of_every_game(stack):
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not found: the Node gRPC client test needs Node.js and npm "
                    "(.ci/run installs Debian's nodejs and npm packages when they are missing)")
    _installed()
    started = time.monotonic()
    done = subprocess.run(["node", "play.js", f"127.0.0.1:{stack.grpc_port}", "parlor-ci"], cwd=NODE_DIR,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"the Node client failed:\n{done.stdout}\n{done.stderr}"
    from parlor.service.games import GAMES

    lines = done.stdout.splitlines()
    for game in GAMES:  # one finished match per game, with a result line each
        assert any(line.startswith(f"{game}: ") and "winners [" in line for line in lines), done.stdout
    assert time.monotonic() - started < 60, done.stdout
