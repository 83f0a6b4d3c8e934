#!/usr/bin/env python3
"""A second reader of the Millrace compact format, written from docs/compact-format.md with Python's standard library
only, to show that the spec and the vectors beside it are enough to implement it. It decodes the frames of
vectors-v1.json under their schema and checks every verdict: the value, or the refusal's code, offset and path.
Exit 0 when every vector agrees, 1 otherwise (each disagreement on its own line).

    python3 tests/compact-vectors/reader.py [vectors-v1.json]

Covered: frames (version 1, flags, shortest-form type ids), uncompressed and zlib bodies, every wire type, and the
schema types bool, int32/int64 (zigzag or two's complement), uint32/uint64, float64, string, bytes, list<T>,
map<string,T> and records. Not covered yet: float32, decimal, guid, timestamp, duration, Brotli and zstd bodies, key
steps, collections, unions.
"""
import base64
import json
import math
import os
import struct
import sys
import zlib

VARINT, FIXED32, FIXED64, LENGTH_DELIMITED = 0, 1, 2, 3
SCALAR_WIRE = {"bool": VARINT, "int32": VARINT, "int64": VARINT, "uint32": VARINT, "uint64": VARINT,
               "float32": FIXED32, "float64": FIXED64, "string": LENGTH_DELIMITED, "bytes": LENGTH_DELIMITED}


class Refused(Exception):
    def __init__(self, code, offset, where="body", path=""):
        super().__init__(f"{code} at {where} byte {offset}" + (f", path {path}" if path else ""))
        self.code, self.offset, self.where, self.path = code, offset, where, path

    def within(self, segment):
        """The same refusal, its path now under segment (a field's name, or an element's [i])."""
        joined = segment if not self.path else segment + (self.path if self.path.startswith("[") else "." + self.path)
        return Refused(self.code, self.offset, self.where, joined)


class Cursor:
    """Bytes of a body with an absolute offset: nested values keep counting from the body's first byte."""

    def __init__(self, data, start=0, end=None):
        self.data, self.pos, self.end = data, start, len(data) if end is None else end

    def remaining(self):
        return self.end - self.pos

    def varint(self):
        # Unsigned LEB128, at most 10 bytes, in its shortest form (a last byte of 00 after the first is refused).
        start, value = self.pos, 0
        for i in range(10):
            if self.pos >= self.end:
                raise Refused("compact.truncated", start)
            byte = self.data[self.pos]
            self.pos += 1
            if i == 9 and byte > 1:
                raise Refused("compact.bad-encoding", start)
            value |= (byte & 0x7F) << (7 * i)
            if byte < 0x80:
                if i > 0 and byte == 0:
                    raise Refused("compact.bad-encoding", start)
                return value
        raise Refused("compact.bad-encoding", start)

    def take(self, count):
        if count > self.remaining():
            raise Refused("compact.truncated", self.end)
        chunk = self.data[self.pos:self.pos + count]
        self.pos += count
        return chunk

    def length_delimited(self):
        """The start and end of a length-delimited value's bytes (the length checked against what remains)."""
        start = self.pos
        length = self.varint()
        if length > self.remaining():
            raise Refused("compact.bad-length", start)
        self.pos += length
        return self.pos - length, self.pos


def wire_of(type_name):
    return SCALAR_WIRE.get(type_name, LENGTH_DELIMITED)


def zigzag(value):
    return (value >> 1) ^ -(value & 1)


def read_value(cursor, type_name, field, types):
    offset = cursor.pos
    if type_name == "bool":
        value = cursor.varint()
        if value > 1:
            raise Refused("compact.bad-value", offset)
        return value == 1
    if type_name in ("int32", "int64"):
        raw = cursor.varint()
        value = raw - (1 << 64) if field.get("encoding") == "twos-complement" and raw >= 1 << 63 else raw
        value = value if field.get("encoding") == "twos-complement" else zigzag(raw)
        if type_name == "int32" and not -(1 << 31) <= value < 1 << 31:
            raise Refused("compact.bad-value", offset)
        return value
    if type_name in ("uint32", "uint64"):
        value = cursor.varint()
        if type_name == "uint32" and value >= 1 << 32:
            raise Refused("compact.bad-value", offset)
        return value
    if type_name == "float64":
        value = struct.unpack("<d", cursor.take(8))[0]
        if not math.isfinite(value):
            raise Refused("compact.bad-value", offset)
        return value
    start, end = cursor.length_delimited()
    content = cursor.data[start:end]
    if type_name == "string":
        try:
            return content.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("compact.bad-encoding", start) from None
    if type_name == "bytes":
        return base64.b64encode(content).decode("ascii")
    inner = Cursor(cursor.data, start, end)
    if type_name.startswith("list<"):
        element = type_name[5:-1]
        items = read_count(inner, wire_of(element))
        values = []
        for i in range(items):
            try:
                values.append(read_value(inner, element, field, types))
            except Refused as refused:
                raise refused.within(f"[{i}]")
        if inner.remaining():
            raise Refused("compact.trailing-bytes", inner.pos)
        return values
    if type_name.startswith("map<string,"):
        element = type_name[11:-1]
        entries = read_count(inner, wire_of(element), extra=1)
        values = {}
        for _ in range(entries):
            key_offset = inner.pos
            key = read_value(inner, "string", field, types)
            if key in values:
                raise Refused("compact.repeated", key_offset, path=key)
            try:
                values[key] = read_value(inner, element, field, types)
            except Refused as refused:
                raise refused.within(key)
        if inner.remaining():
            raise Refused("compact.trailing-bytes", inner.pos)
        return values
    return read_record(inner, types[type_name], types)


def read_count(cursor, element_wire, extra=0):
    # A count is checked against the bytes that remain, at the least each element can take, before anything is read.
    offset = cursor.pos
    count = cursor.varint()
    least = {FIXED32: 4, FIXED64: 8}.get(element_wire, 1) + extra
    if count * least > cursor.remaining():
        raise Refused("compact.bad-length", offset)
    return count


def skip(cursor, wire):
    if wire == VARINT:
        cursor.varint()
    elif wire == FIXED32:
        cursor.take(4)
    elif wire == FIXED64:
        cursor.take(8)
    else:
        cursor.length_delimited()


def read_record(cursor, record, types):
    fields = {field["index"]: field for field in record["fields"]}
    value = {}
    while cursor.remaining():
        key_offset = cursor.pos
        key = cursor.varint()
        index, wire = key >> 2, key & 3
        if index == 0 or index > 0x7FFFFFFF:
            raise Refused("compact.bad-key", key_offset)
        field = fields.get(index)
        if field is None:
            skip(cursor, wire)  # an unknown or reserved index: a newer writer's field
            continue
        name = field["name"]
        if wire != wire_of(field["type"]):
            raise Refused("compact.type-changed", key_offset, path=name)
        if name in value:
            raise Refused("compact.repeated", key_offset, path=name)
        try:
            value[name] = read_value(cursor, field["type"], field, types)
        except Refused as refused:
            raise refused.within(name)
    return value


def decode(frame, schema):
    types = {record["name"]: record for record in schema["types"]}
    by_id = {record["id"]: record for record in schema["types"]}
    if len(frame) < 3:
        raise Refused("compact.truncated", len(frame), "frame")
    if frame[0] != 1:
        raise Refused("compact.frame", 0, "frame")
    flags = frame[1]
    if flags & 0xF0 or (flags & 0x08 and (flags & 0x03 == 0 or flags & 0x04)):
        raise Refused("compact.frame", 1, "frame")
    header = Cursor(frame, 2)
    try:
        type_id = header.varint()
    except Refused:
        raise Refused("compact.frame", 2, "frame") from None
    if header.pos - 2 > 5 or type_id > 0x7FFFFFFF:
        raise Refused("compact.frame", 2, "frame")
    if type_id not in by_id:
        raise Refused("compact.frame", 2, "frame")
    body = frame[header.pos:]
    if flags & 0x03 == 1:
        body = inflate(body, header.pos, len(frame))
    elif flags & 0x03:
        raise NotImplementedError("Brotli and zstd bodies are not covered by this reader yet")
    return read_record(Cursor(body), by_id[type_id], types)


def inflate(body, header_length, frame_length):
    # One whole zlib stream (RFC 1950, Adler-32 checked), ending exactly where the frame does.
    if len(body) < 6:
        raise Refused("compact.compression", frame_length, "frame")
    inflater = zlib.decompressobj()
    try:
        inflated = inflater.decompress(body)
    except zlib.error:
        raise Refused("compact.compression", header_length, "frame") from None
    if inflater.unused_data:
        raise Refused("compact.compression", frame_length - 1, "frame")
    if not inflater.eof:
        raise Refused("compact.compression", frame_length, "frame")
    return inflated


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors-v1.json")
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    failures = 0
    for vector in document["vectors"]:
        frame = bytes.fromhex(vector["hex"])
        try:
            value = decode(frame, document["schema"])
            verdict = ("value", value)
        except Refused as refused:
            verdict = ("error", {"code": refused.code, "offset": refused.offset, "in": refused.where, **({"path": refused.path} if refused.path else {})})
        expected = ("value", vector["value"]) if "value" in vector else ("error", vector["error"])
        if verdict != expected:
            failures += 1
            print(f"{vector['name']}: expected {expected}, read {verdict}")
    print(f"{len(document['vectors']) - failures} of {len(document['vectors'])} vectors agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
