"""Settings from the environment: defaults, and a clear stop for bad values."""

from __future__ import annotations

import os

import pytest

from service.config import Settings

# Every whole-number variable with its smallest accepted value.
NUMBERS = {
    "PARLOR_GRPC_PORT": 0, "PARLOR_HTTP_PORT": 0, "PARLOR_METRICS_PORT": 0,
    "PARLOR_FINISHED_TTL_SECONDS": 1, "PARLOR_ABANDONED_TTL_SECONDS": 1,
    "PARLOR_MAX_BODY_BYTES": 1024, "PARLOR_RPC_TIMEOUT_MS": 1,
    "PARLOR_GATEWAY_WORKERS": 1, "PARLOR_GATEWAY_THREADS": 1,
    "PARLOR_CLIENT_TIMEOUT_SECONDS": 1, "PARLOR_DRAIN_SECONDS": 0,
    "PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS": 1, "PARLOR_STREAM_SECONDS": 1,
    "PARLOR_STREAM_KEEPALIVE_SECONDS": 1, "PARLOR_MAX_STREAMS": 1,
    "PARLOR_RECORD_CACHE_MATCHES": 0, "PARLOR_REDIS_MAX_CONNECTIONS": 1,
}


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    for name in os.environ:
        if name.startswith("PARLOR_") or name == "REDIS_URL":
            monkeypatch.delenv(name)


def test_defaults():
    settings = Settings.from_env()
    assert settings == Settings()
    assert (settings.grpc_port, settings.http_port, settings.redis_max_connections) == (50051, 8080, 64)
    assert settings.allow_fixed_seed is False


@pytest.mark.parametrize("name", NUMBERS)
def test_a_number_that_is_not_one_stops_with_the_variables_name(monkeypatch, name):
    monkeypatch.setenv(name, "ten")
    with pytest.raises(SystemExit, match=f"^{name} must be an integer, not 'ten'$"):
        Settings.from_env()


@pytest.mark.parametrize("name,minimum", NUMBERS.items())
def test_a_number_below_its_minimum_stops_with_the_variables_name(monkeypatch, name, minimum):
    monkeypatch.setenv(name, str(minimum - 1))
    with pytest.raises(SystemExit, match=f"^{name} must be at least {minimum}, not {minimum - 1}$"):
        Settings.from_env()
    monkeypatch.setenv(name, f" {minimum} ")
    Settings.from_env()


@pytest.mark.parametrize("raw,value", [("1", True), ("true", True), ("on", True), ("0", False),
                                       ("no", False), ("", False)])
def test_switches(monkeypatch, raw, value):
    monkeypatch.setenv("PARLOR_ALLOW_FIXED_SEED", raw)
    assert Settings.from_env().allow_fixed_seed is value


def test_a_switch_that_is_neither_stops(monkeypatch):
    monkeypatch.setenv("PARLOR_ALLOW_FIXED_SEED", "maybe")
    with pytest.raises(SystemExit, match="PARLOR_ALLOW_FIXED_SEED must be 1 or 0"):
        Settings.from_env()
