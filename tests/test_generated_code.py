"""The checked-in generated modules match proto/ (regenerate: python proto/generate.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "proto" / "generate.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
