"""Regenerate the Python modules beside the .proto files under proto/.

    python proto/generate.py          # rewrite proto/parlor/v1/*_pb2*.py(i), comments.json
    python proto/generate.py --check  # exit 1 if the checked-in output is stale

The generated modules are checked in (so installing Parlor needs no protoc); the
test suite runs --check, so a .proto edit without regeneration fails CI. Needs
grpcio-tools at the version pinned in pyproject.toml (the `test` extra).

Beside them, comments.json holds each message's and field's comment by full
name (the compiled modules keep none): the gateway's OpenAPI document describes
its schemas with them.
"""

from __future__ import annotations

import argparse
import filecmp
import json
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


def _outputs(root: Path) -> list[Path]:
    """The generated files under `root` (not the bytecode Python caches of them)."""
    return sorted(p.relative_to(root) for pattern in ("*_pb2*.py*", "comments.json")
                  for p in root.rglob(pattern) if "__pycache__" not in p.parts)


def generate(out: Path) -> list[Path]:
    """Writes every generated file under `out`; returns their relative paths."""
    protos = sorted(p.relative_to(PROTO_ROOT).as_posix() for p in PROTO_ROOT.rglob("*.proto"))
    by_package: dict[Path, dict[str, str]] = {}
    descriptors = out / "descriptors.binpb"  # (with the comments; read, then removed)
    for proto in protos:
        flags = [f"--python_out={out}", f"--pyi_out={out}",
                 "--include_source_info", f"--descriptor_set_out={descriptors}"]
        if proto in SERVICE_PROTOS:
            flags.append(f"--grpc_python_out={out}")
        _protoc([*flags, proto])
        by_package.setdefault(Path(proto).parent, {}).update(_comments(descriptors.read_bytes()))
        descriptors.unlink()
    for package, comments in by_package.items():
        text = json.dumps(dict(sorted(comments.items())), indent=1, ensure_ascii=False)
        (out / package / "comments.json").write_text(text + "\n", encoding="utf-8")
    return _outputs(out)


def _comments(descriptor_set: bytes) -> dict[str, str]:
    """Each commented message's and field's comment (leading, then trailing),
    by full name, from a descriptor set compiled with source info."""
    from google.protobuf import descriptor_pb2

    (file,) = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set).file
    names: dict[tuple[int, ...], str] = {}

    def walk(messages, path: tuple[int, ...], prefix: str) -> None:
        for i, message in enumerate(messages):
            name = f"{prefix}.{message.name}"
            names[(*path, i)] = name
            for j, field in enumerate(message.field):
                names[(*path, i, 2, j)] = f"{name}.{field.name}"
            walk(message.nested_type, (*path, i, 3), name)

    walk(file.message_type, (4,), file.package)
    found = {}
    for location in file.source_code_info.location:
        name = names.get(tuple(location.path))
        text = "\n".join(c for c in (location.leading_comments, location.trailing_comments) if c)
        if name and text.strip():
            lines = [line.removeprefix(" ").rstrip() for line in text.strip("\n").splitlines()]
            found[name] = " ".join(lines).strip()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    check = parser.parse_args().check
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        current = _outputs(PROTO_ROOT)
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
        print(f"wrote {len(fresh)} files" + (f" ({len(stale)} changed)" if stale else " (no change)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
