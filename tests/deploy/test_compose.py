"""deploy/compose.yaml: parses, runs Redis with AOF on a volume, the service, the
gateway and the worker, each with a healthcheck, started in dependency order."""

from __future__ import annotations

from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML is needed (it comes with kubernetes-validate)")

COMPOSE = Path(__file__).resolve().parents[2] / "deploy" / "compose.yaml"
PARLOR = ("service", "gateway", "worker")  # the processes of the one image


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def command(service: dict) -> list[str]:
    cmd = service.get("command", [])
    return cmd.split() if isinstance(cmd, str) else cmd


def test_has_redis_service_gateway_and_worker(services):
    assert set(services) == {"redis", *PARLOR}


def test_redis_keeps_an_aof_on_a_volume(services):
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    args = " ".join(command(redis))
    assert "--appendonly yes" in args and "--appendfsync everysec" in args
    assert "--maxmemory-policy noeviction" in args
    top = yaml.safe_load(COMPOSE.read_text())
    volume, _, path = redis["volumes"][0].partition(":")
    assert path == "/data" and volume in top["volumes"]


def test_every_container_has_a_healthcheck_that_compiles(services):
    for name, service in services.items():
        test = service["healthcheck"]["test"]
        assert test[0] in ("CMD", "CMD-SHELL"), name
        if test[1:3] == ["python", "-c"]:
            compile(test[3], f"{name} healthcheck", "exec")


def test_start_order_waits_for_health(services):
    assert services["service"]["depends_on"] == {"redis": {"condition": "service_healthy"}}
    assert services["gateway"]["depends_on"] == {"service": {"condition": "service_healthy"}}
    assert services["worker"]["depends_on"] == {"redis": {"condition": "service_healthy"}}


def test_worker_is_healthy_when_its_readyz_answers(services):
    """The image has no curl: Python's urllib asks /readyz on the worker's port."""
    worker = services["worker"]
    port = worker["environment"].get("PARLOR_WORKER_PORT", "9096")
    test = worker["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    assert "urllib.request" in test[3] and f"http://localhost:{port}/readyz" in test[3]
    assert "ports" not in worker, "nothing outside calls the worker"

def test_servers_run_the_one_image_with_the_right_command(services):
    for name in PARLOR:
        server = services[name]
        assert server["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (COMPOSE.parent / server["build"]["context"] / "pyproject.toml").is_file()
        assert command(server) == [name]
    assert services["service"]["environment"]["REDIS_URL"].startswith("redis://redis:6379")
    assert services["worker"]["environment"]["REDIS_URL"] == services["service"]["environment"]["REDIS_URL"]
    assert "REDIS_URL" not in services["gateway"]["environment"]
    assert services["gateway"]["environment"]["PARLOR_SERVICE_TARGET"] == "dns:///service:50051"
    assert "127.0.0.1:8080:8080" in services["gateway"]["ports"]  # (not the whole LAN)


def test_servers_run_hardened(services):
    for name in PARLOR:
        server = services[name]
        assert server["read_only"] is True
        assert "/tmp" in server["tmpfs"]
        assert server["cap_drop"] == ["ALL"]
        assert "no-new-privileges:true" in server["security_opt"]
        assert server["stop_grace_period"] == "30s"
        assert int(server["environment"]["PARLOR_DRAIN_SECONDS"]) < 30
