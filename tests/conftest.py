from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import redis
from hypothesis import settings

from .support import Stack, log_root

# Fixtures the REST and gRPC fuzz tests share.
pytest_plugins = ["tests.integration.fuzzing"]

# HYPOTHESIS_PROFILE=ci (set by .ci/run): the same examples on every run, so a
# merge gate never fails on a case it has not seen before. Locally the default
# profile draws fresh examples each run and keeps exploring.
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def certificates(tmp_path_factory) -> Path:
    """A folder with a private CA (ca.crt), a server certificate for 127.0.0.1
    and a client certificate it signed (server.crt/.key, client.crt/.key), and
    a key of nothing (other.key). Made with openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("needs openssl")
    work = tmp_path_factory.mktemp("tls")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=work, check=True, capture_output=True, timeout=60)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Parlor test CA",
            "-keyout", "ca.key", "-out", "ca.crt")
    (work / "server.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for name in ("server", "client"):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}",
                "-keyout", f"{name}.key", "-out", f"{name}.csr")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", f"{name}.crt", *(["-extfile", "server.ext"] if name == "server" else []))
    openssl("genrsa", "-out", "other.key", "2048")
    return work


@pytest.fixture(scope="session")
def stack():
    """The whole product, for real, with fixed seeds allowed (tests need them):
    Redis, the service, the gateway and a worker (bots' turns reach it at once;
    it looks for run-out turn clocks every 200 ms)."""
    s = Stack(env={"PARLOR_ALLOW_FIXED_SEED": "1", "PARLOR_WORKER_POLL_MS": "200"}).start()
    try:
        s.start_worker()
    except BaseException:
        s.stop()
        raise
    yield s
    s.stop()


@pytest.fixture
def rest(stack):
    client = stack.rest()
    yield client
    client.close()


@pytest.fixture
def stub(stack):
    channel = stack.channel()
    yield stack.stub(channel)
    channel.close()


@pytest.fixture
def db(stack):
    """A plain Redis client on the stack's Redis, to look at what is stored."""
    client = redis.Redis.from_url(stack.redis.url)
    yield client
    client.close()


@pytest.fixture(autouse=True)
def no_server_errors_logged(request):
    """For every test on the shared stack: neither server logged a traceback
    or an unhandled error while it ran (so the test that caused one is named,
    not whichever test reads the log next)."""
    if "stack" not in request.fixturenames:
        yield
        return
    stack = request.getfixturevalue("stack")
    sizes = {name: len(stack.log(name)) for name in ("service", "gateway", "worker")}
    yield
    for name, size in sizes.items():
        logged = stack.log(name)[size:]
        assert "Traceback" not in logged and "unhandled error" not in logged, \
            f"the {name} logged an error during this test:\n{logged[-3000:]}"



def pytest_sessionfinish(session, exitstatus):
    """Server logs are removed after a run that passed, and kept (and named at
    the end of the report) after one that did not."""
    root = log_root()
    if exitstatus == 0 and root is not None:
        shutil.rmtree(root, ignore_errors=True)


def pytest_terminal_summary(terminalreporter, exitstatus):
    root = log_root()
    if exitstatus != 0 and root is not None and root.exists():
        terminalreporter.write_line(f"server logs of this run: {root}")
