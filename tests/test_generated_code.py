"""The checked-in generated modules match proto/ (regenerate: python proto/generate.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "proto" / "generate.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bytecode_caches_of_the_modules_are_not_generated_files(tmp_path):
    """Python writes __pycache__/*_pb2.cpython-*.pyc beside the modules (unless
    PYTHONDONTWRITEBYTECODE is set); --check must not count them as stale."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate", ROOT / "proto" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    package = tmp_path / "parlor" / "v1"
    (package / "__pycache__").mkdir(parents=True)
    for name in ("x_pb2.py", "x_pb2.pyi", "comments.json", "__pycache__/x_pb2.cpython-311.pyc"):
        (package / name).write_text("")
    assert [p.as_posix() for p in generate._outputs(tmp_path)] == [
        "parlor/v1/comments.json", "parlor/v1/x_pb2.py", "parlor/v1/x_pb2.pyi"]
