"""The installable package, built as the container image builds it (`pip wheel`
from the repository's files): every module and data file of the source tree is
in the wheel, and the servers import, load their decks and boards, and describe
their API from an unpacked copy of it rather than from the checkout. (The tests
otherwise run against the editable install, which would not notice a file left
out of the wheel.)"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from parlor.service.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_SUFFIXES = {".py", ".json", ".lua", ".proto", ".pyi", ".html", ".js", ".css", ".svg"}
# Where each folder of the repository installs (pyproject.toml's package-dir).
INSTALLED_AS = {"proto/parlor/": "parlor/", "service/": "parlor/service/", "gateway/": "parlor/gateway/"}


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know the repository's files")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


def expected_in_wheel(files: list[str]) -> set[str]:
    """Where each package file of the source tree lands in the wheel: under
    parlor/, as INSTALLED_AS maps the folders."""
    expected = set()
    for name in files:
        if Path(name).suffix not in PACKAGE_SUFFIXES:
            continue
        for folder, installed in INSTALLED_AS.items():
            if name.startswith(folder):
                expected.add(installed + name.removeprefix(folder))
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
    return site, expected_in_wheel(files), found


def test_parlor_is_the_only_top_level_package(wheel):
    site, _, _ = wheel
    top = {path.name for path in site.iterdir() if not path.name.endswith(".dist-info")}
    assert top == {"parlor"}, top
    (info,) = site.glob("parlor-*.dist-info")
    top_level = (info / "top_level.txt")
    if top_level.exists():  # (setuptools writes it; the wheel format does not require it)
        assert top_level.read_text().split() == ["parlor"]


def test_every_module_and_data_file_is_in_the_wheel(wheel):
    site, expected, _ = wheel
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
import parlor.gateway.openapi, parlor.gateway.wsgi, parlor.service.cli, parlor.service.server
from parlor.service import games
from parlor.service.games.rng import Rng
from parlor.v1 import parlor_pb2
for module in (parlor.service.server, parlor.gateway.wsgi, games, parlor_pb2):
    assert Path(module.__file__).resolve().is_relative_to(site), module.__file__
assert {"what_the_heck", "hi_fu", "heul_doch", "whatever", "heck"} <= set(games.GAMES), games.GAMES
for game in games.GAMES.values():  # each deals a table from its own data files
    rng = Rng.from_seed("wheel")
    state = game.new_state(game.min_players, game.resolve_options(game.min_players, {}), rng)
    game.view(state, None)
print("ok", len(parlor.gateway.openapi.document()["paths"]))
"""


def test_the_servers_run_from_the_wheel(wheel, tmp_path):
    site, _, _ = wheel
    env = {"PATH": "/usr/bin:/bin", "PARLOR_LOG_LEVEL": "WARNING"}
    ran = subprocess.run([sys.executable, "-c", _SMOKE, str(site)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.startswith("ok ")


def test_parlor_dev_runs_from_the_wheel_in_a_fresh_venv(wheel, tmp_path):
    """The wheel installed, with its dependencies, into a new virtual
    environment outside the checkout: `parlor dev` starts the service, the
    gateway and an embedded Redis, and a match can be created through it."""
    _, _, built = wheel
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    installed = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"{built}[embedded]"],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    ports = {"PARLOR_HTTP_PORT": free_port(), "PARLOR_GRPC_PORT": free_port(),
             "PARLOR_METRICS_PORT": free_port(), "PARLOR_WORKER_PORT": free_port()}
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "PARLOR_LOG_LEVEL": "WARNING",
           **{name: str(port) for name, port in ports.items()}}
    log = open(tmp_path / "dev.log", "w+")
    dev = subprocess.Popen(["parlor", "dev"], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "Parlor is running" not in (tmp_path / "dev.log").read_text():
            assert dev.poll() is None and time.monotonic() < deadline, (tmp_path / "dev.log").read_text()
            time.sleep(0.2)
        base = f"http://127.0.0.1:{ports['PARLOR_HTTP_PORT']}"
        request = urllib.request.Request(f"{base}/v1/matches", method="POST",
                                         data=json.dumps({"game": "heck", "players": 2}).encode())
        with urllib.request.urlopen(request, timeout=10) as reply:
            assert json.load(reply)["status"] == "WAITING"
        site_packages = subprocess.run([str(venv / "bin" / "python"), "-c",
                                        "import parlor.service; print(parlor.service.__file__)"],
                                       cwd=tmp_path, capture_output=True, text=True, check=True).stdout
        assert site_packages.startswith(str(venv)), site_packages
    finally:
        dev.send_signal(signal.SIGINT)
        code = dev.wait(30)
    assert code == 0, (tmp_path / "dev.log").read_text()
