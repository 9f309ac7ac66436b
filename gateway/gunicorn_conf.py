"""gunicorn settings for the gateway, from the same environment variables as
everything else (see the README's configuration table)."""

from service.config import Settings

_settings = Settings.from_env()

bind = [f"{_settings.host}:{_settings.http_port}"]
workers = _settings.gateway_workers
threads = _settings.gateway_threads
worker_class = "gthread"
graceful_timeout = _settings.drain_seconds
timeout = 30
keepalive = 5
preload_app = False  # gRPC channels must be created after the fork, in each worker
control_socket_disable = True  # no admin socket (and none to write under a read-only root)
accesslog = None     # the app logs one JSON line per request
errorlog = "-"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "service.logs.JsonFormatter"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "json",
                            "stream": "ext://sys.stdout"}},
    "root": {"level": _settings.log_level, "handlers": ["stdout"]},
    "loggers": {
        "gunicorn.error": {"level": _settings.log_level, "handlers": ["stdout"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": ["stdout"], "propagate": False},
    },
}
