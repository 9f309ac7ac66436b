"""The WSGI entry point gunicorn loads: `parlor.gateway.wsgi:app`."""

from parlor.common import logs
from parlor.common.config import Settings

from . import create_app

_settings = Settings.from_env()
logs.setup(_settings.log_level)
app = create_app(_settings)
