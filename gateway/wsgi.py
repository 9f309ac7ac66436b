"""The WSGI entry point gunicorn loads: `gateway.wsgi:app`."""

from service import logs
from service.config import Settings

from . import create_app

_settings = Settings.from_env()
logs.setup(_settings.log_level)
app = create_app(_settings)
