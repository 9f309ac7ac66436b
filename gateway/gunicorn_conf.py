"""gunicorn settings for the gateway, from the same environment variables as
everything else (see the README's configuration table)."""

import os
import shutil
import tempfile

from gunicorn.glogging import Logger

from service.config import Settings

_settings = Settings.from_env()

# Prometheus multiprocess mode: workers write their metrics here; the directory is
# emptied when gunicorn starts (an emptyDir outlives a container restart).
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR",
                      os.path.join(tempfile.gettempdir(), f"parlor-gateway-metrics-{_settings.http_port}"))

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


class _Logger(Logger):
    """gunicorn's logger without the access log, which the app replaces. (Given
    a logging config, gunicorn builds every request's access-log fields even
    when its access logger would drop them.)"""

    def access(self, resp, req, environ, request_time):
        pass


logger_class = _Logger
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


def on_starting(server):
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)


def child_exit(server, worker):
    from prometheus_client import multiprocess
    multiprocess.mark_process_dead(worker.pid)
