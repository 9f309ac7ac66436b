"""The package's parts keep to their own: the gateway builds on the API
(parlor.v1) and what every process shares (parlor.common), never on the
service's code, so that each can change without the other."""

from __future__ import annotations

import subprocess
import sys

_LOADED = """
import sys
import parlor.gateway.wsgi, parlor.gateway.gunicorn_conf, parlor.gateway.openapi
print(" ".join(sorted(name for name in sys.modules if name.startswith("parlor."))))
"""


def test_the_gateway_loads_no_service_module():
    loaded = subprocess.run([sys.executable, "-c", _LOADED], capture_output=True, text=True, timeout=60,
                            env={"PARLOR_LOG_LEVEL": "WARNING", "PATH": "/usr/bin:/bin"})
    assert loaded.returncode == 0, loaded.stderr
    modules = loaded.stdout.split()
    assert "parlor.gateway.wsgi" in modules and "parlor.common.config" in modules
    assert not [name for name in modules if name.startswith("parlor.service")], modules
