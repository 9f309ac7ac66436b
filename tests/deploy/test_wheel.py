"""The installable package, built as the container image builds it (`pip wheel`
from the repository's files): every module and data file of the source tree is
in the wheel, and the servers import, load their decks and boards, and describe
their API from an unpacked copy of it rather than from the checkout. (The tests
otherwise run against the editable install, which would not notice a file left
out of the wheel.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_SUFFIXES = {".py", ".json", ".lua", ".proto", ".pyi"}


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know the repository's files")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


def expected_in_wheel(files: list[str]) -> set[str]:
    """Where each package file of the source tree lands in the wheel: service/
    and gateway/ as they are, proto/parlor/ without the proto/ prefix."""
    expected = set()
    for name in files:
        if Path(name).suffix not in PACKAGE_SUFFIXES:
            continue
        if name.startswith(("service/", "gateway/")):
            expected.add(name)
        elif name.startswith("proto/parlor/"):
            expected.add(name.removeprefix("proto/"))
    return expected


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, set[str]]:
    """The wheel built from a copy of the tracked files (so nothing untracked in
    the checkout can stand in for a missing file), unpacked; and what the
    source tree says it must hold."""
    files = tracked_files()
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"),
                            str(src)], capture_output=True, text=True, timeout=240)
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = (tmp / "dist").glob("parlor-*.whl")
    site = tmp / "site"
    with zipfile.ZipFile(found) as archive:
        archive.extractall(site)
    return site, expected_in_wheel(files)


def test_every_module_and_data_file_is_in_the_wheel(wheel):
    site, expected = wheel
    inside = {str(path.relative_to(site)) for path in site.rglob("*") if path.is_file()}
    assert expected, "no package files found in the source tree"
    assert expected <= inside, f"left out of the wheel: {sorted(expected - inside)}"
    assert not {name for name in inside if name.startswith("tests/")}, "the tests are not shipped"


# Run from the unpacked wheel, outside the checkout: imports every module the
# servers load, reads each game's data files (through the registry), builds the
# OpenAPI document and the gateway app, and says where the code came from.
_SMOKE = """
import sys
from pathlib import Path
site = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(site))
import gateway.openapi, gateway.wsgi, service.cli, service.server
from service import games
from service.games.rng import Rng
from parlor.v1 import parlor_pb2
for module in (service.server, gateway.wsgi, games, parlor_pb2):
    assert Path(module.__file__).resolve().is_relative_to(site), module.__file__
assert {"what_the_heck", "hi_fu", "heul_doch", "whatever", "heck"} <= set(games.GAMES), games.GAMES
for game in games.GAMES.values():  # each deals a table from its own data files
    rng = Rng.from_seed("wheel")
    state = game.new_state(game.min_players, game.resolve_options(game.min_players, {}), rng)
    game.view(state, None)
print("ok", len(gateway.openapi.document()["paths"]))
"""


def test_the_servers_run_from_the_wheel(wheel, tmp_path):
    site, _ = wheel
    env = {"PATH": "/usr/bin:/bin", "PARLOR_LOG_LEVEL": "WARNING"}
    ran = subprocess.run([sys.executable, "-c", _SMOKE, str(site)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.startswith("ok ")
