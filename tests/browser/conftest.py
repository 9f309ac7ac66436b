"""The web client in a real headless Chromium (Debian's `chromium` package),
driven by Playwright for Python against the session's stack.

Browser tests are marked `browser` and skip, saying why, when Chromium or
Playwright is missing. Screenshots of each game's table go to
$PARLOR_TEST_ARTIFACTS (default: a new temporary directory), named at the end
of the run."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# Headless, and nothing the browser would do on its own (updates, sync,
# first-run pages, background fetches) to slow a test or reach the network.
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]

_artifacts: Path | None = None


def artifacts_dir() -> Path:
    global _artifacts
    if _artifacts is None:
        chosen = os.environ.get("PARLOR_TEST_ARTIFACTS")
        _artifacts = Path(chosen) if chosen else Path(tempfile.mkdtemp(prefix="parlor-browser-"))
        _artifacts.mkdir(parents=True, exist_ok=True)
    return _artifacts


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the package's tests (each test opens its own contexts).
    Package-scoped, so that Playwright's event loop is gone before other tests run."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("needs Playwright for Python (pip install playwright; its own browsers are not used)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir()


def pytest_terminal_summary(terminalreporter):
    if _artifacts is not None and _artifacts.exists() and any(_artifacts.iterdir()):
        terminalreporter.write_line(f"browser test screenshots: {_artifacts}")


def pytest_sessionfinish(session, exitstatus):
    # A temporary directory with nothing in it (every browser test skipped) is not kept.
    if _artifacts is not None and not os.environ.get("PARLOR_TEST_ARTIFACTS") and not any(_artifacts.iterdir()):
        shutil.rmtree(_artifacts, ignore_errors=True)
