"""Regenerate the Python modules beside the .proto files under proto/.

    python proto/generate.py          # rewrite proto/parlor/v1/*_pb2*.py(i)
    python proto/generate.py --check  # exit 1 if the checked-in output is stale

The generated modules are checked in (so installing Parlor needs no protoc); the
test suite runs --check, so a .proto edit without regeneration fails CI. Needs
grpcio-tools at the version pinned in pyproject.toml (the `test` extra).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent
SERVICE_PROTOS = {"parlor/v1/parlor.proto"}  # the files that define services


def _protoc(args: list[str]) -> None:
    from grpc_tools import protoc

    include = str(resources.files("grpc_tools") / "_proto")
    code = protoc.main(["protoc", f"-I{PROTO_ROOT}", f"-I{include}", *args])
    if code != 0:
        raise SystemExit(f"protoc failed ({code}) on {args[-1]}")


def generate(out: Path) -> list[Path]:
    """Writes every generated module under `out`; returns their relative paths."""
    protos = sorted(p.relative_to(PROTO_ROOT).as_posix() for p in PROTO_ROOT.rglob("*.proto"))
    for proto in protos:
        flags = [f"--python_out={out}", f"--pyi_out={out}"]
        if proto in SERVICE_PROTOS:
            flags.append(f"--grpc_python_out={out}")
        _protoc([*flags, proto])
    return sorted(p.relative_to(out) for p in out.rglob("*_pb2*.py*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    check = parser.parse_args().check
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        current = sorted(p.relative_to(PROTO_ROOT) for p in PROTO_ROOT.rglob("*_pb2*.py*"))
        stale = [str(p) for p in sorted(set(fresh) | set(current))
                 if p not in fresh or p not in current
                 or not filecmp.cmp(Path(tmp) / p, PROTO_ROOT / p, shallow=False)]
        if check:
            if stale:
                print("generated code is stale; run `python proto/generate.py`:", *stale, sep="\n  ")
                return 1
            print("generated code is up to date")
            return 0
        for rel in current:
            if rel not in fresh:
                (PROTO_ROOT / rel).unlink()
        for rel in map(Path, stale):
            if rel in fresh:  # only what changed, so concurrent runs never rewrite the same file
                shutil.copyfile(Path(tmp) / rel, PROTO_ROOT / rel)
        print(f"wrote {len(fresh)} modules" + (f" ({len(stale)} changed)" if stale else " (no change)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
