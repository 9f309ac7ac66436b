"""The public protos compile into working code for other languages too: no
field whose name collides with an accessor protoc generates for another (C++
`hand_size()` for a repeated `hand`, Java `getWonCount()` for a repeated `won`)."""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

from parlor.v1 import heck_pb2, heul_doch_pb2, hi_fu_pb2, parlor_pb2, what_the_heck_pb2, whatever_pb2

FILES = [m.DESCRIPTOR for m in (parlor_pb2, what_the_heck_pb2, hi_fu_pb2, heul_doch_pb2, whatever_pb2, heck_pb2)]


def _messages(container):
    for message in container.message_types_by_name.values() if hasattr(container, "message_types_by_name") \
            else container.nested_types:
        yield message
        yield from _messages(message)


def _generated_names(field) -> set[str]:
    """Names protoc's C++ and Java generators derive from a field, as
    snake_case field names they would clash with."""
    name = field.name
    derived = {f"{prefix}_{name}" for prefix in ("has", "clear", "set", "mutable", "add", "release", "get")}
    if field.is_repeated:
        derived |= {f"{name}_size", f"{name}_count", f"{name}_list", f"{name}_map"}
    if field.type == FieldDescriptor.TYPE_STRING:
        derived.add(f"{name}_bytes")
    if field.type == FieldDescriptor.TYPE_ENUM:
        derived.add(f"{name}_value")
    return derived


def test_no_field_name_collides_with_a_generated_accessor():
    clashes = []
    for file in FILES:
        for message in _messages(file):
            names = set(message.fields_by_name) | {f"{o.name}_case" for o in message.oneofs}
            for field in message.fields:
                for clash in sorted(_generated_names(field) & (names - {field.name})):
                    clashes.append(f"{message.full_name}: {field.name} and {clash}")
    assert not clashes, clashes


def test_every_file_names_its_package_for_other_languages():
    for file in FILES:
        options = file.GetOptions()
        assert options.go_package.startswith("parlor.dev/api/parlor/v1;"), file.name
        assert options.java_package == "dev.parlor.api.v1" and options.java_multiple_files, file.name
        assert options.csharp_namespace == "Parlor.V1", file.name


def test_every_field_has_one_name():
    """No json_name that differs from the field's own lowerCamelCase name: many
    tools (proto-loader, code generators) ignore json_name, and would then
    read other names than REST clients."""
    def camel(name: str) -> str:
        head, *rest = name.split("_")
        return head + "".join(part[:1].upper() + part[1:] for part in rest)

    differ = []
    for module in (heck_pb2, heul_doch_pb2, hi_fu_pb2, parlor_pb2, what_the_heck_pb2, whatever_pb2):
        for message in _all_messages(module.DESCRIPTOR.message_types_by_name.values()):
            differ += [f"{message.full_name}.{f.name}" for f in message.fields if f.json_name != camel(f.name)]
    assert not differ, differ


def _all_messages(messages):
    for message in messages:
        yield message
        yield from _all_messages(message.nested_types)


def test_the_error_table_in_parlor_proto_is_the_services():
    import re
    from pathlib import Path

    from parlor.common.errors import CODES

    text = (Path(__file__).resolve().parent.parent / "proto/parlor/v1/parlor.proto").read_text()
    block = text.split("// Error codes (ErrorInfo.reason) and their gRPC status:\n", 1)[1].split("syntax", 1)[0]
    table, pending = {}, []
    for line in block.splitlines():
        body = line.removeprefix("//").strip()
        status = re.search(r"\s{2,}([A-Z_]+)$", body)
        words = body[:status.start()] if status else body
        pending += re.findall(r"\b[A-Z][A-Z_]+[A-Z]\b", re.sub(r"\(.*?\)", "", words))
        if status:
            table.update({code: status.group(1) for code in pending})
            pending = []
    assert table == {code: status.name for code, status in CODES.items()}
