#!/usr/bin/env python3
"""A second reader of the Millrace compact format, written from docs/compact-format.md with Python's standard library
only, to show that the spec and the vectors beside it are enough to implement it. It decodes the frames of
vectors-v1.json under their schema (with each vector's "limits", if it has some) and checks every verdict: the value,
or the refusal's code, offset and path. For a "canonical" vector it also writes the value and checks the bytes.
Exit 0 when every vector agrees, 1 otherwise (each disagreement on its own line).

    python3 tests/compact-vectors/reader.py [vectors-v1.json]

Covered: frames (version 1, flags, shortest-form type ids), single records and collections, uncompressed and zlib
bodies, key steps, every wire type and every schema type: bool, int32/int64 (zigzag or two's complement), uint32/uint64,
float32/float64, decimal, string, bytes, guid, timestamp, duration, list<T> (lists of lists too), map<string,T>,
records and unions; omitDefault, required fields and kept unknown fields ("$unknown"); depth and every limit. The
JSON forms are the spec's: decimals keep their scale, timestamps are ISO 8601 with "+00:00", durations
[-][d.]hh:mm:ss[.fffffff], guids lowercase text, bytes standard base64; NaN and infinities have none (bad-value).
Not covered: Brotli and zstd bodies (the standard library has neither codec).
"""
import base64
import datetime
import decimal
import json
import math
import os
import re
import struct
import sys
import zlib

VARINT, FIXED32, FIXED64, LENGTH_DELIMITED = 0, 1, 2, 3
SCALAR_WIRE = {"bool": VARINT, "int32": VARINT, "int64": VARINT, "uint32": VARINT, "uint64": VARINT,
               "timestamp": VARINT, "duration": VARINT, "float32": FIXED32, "float64": FIXED64,
               "string": LENGTH_DELIMITED, "bytes": LENGTH_DELIMITED, "decimal": LENGTH_DELIMITED,
               "guid": LENGTH_DELIMITED}
MAX_INDEX = (1 << 31) - 1
DEFAULT_LIMITS = {"maxDepth": 64, "maxCollectionCount": 1_000_000, "maxStringLength": 16 * 1024 * 1024,
                  "maxBodyLength": 64 * 1024 * 1024}
TICKS_PER_SECOND, TICKS_PER_DAY = 10_000_000, 864_000_000_000
EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
TIMESTAMP_MIN, TIMESTAMP_MAX = -621_355_968_000_000_000, 2_534_023_007_999_999_999  # 0001-01-01, 9999-12-31T23:59:59.9999999


class Skipped(Exception):
    """A vector this reader cannot run with the standard library (a Brotli or zstd body)."""


class Refused(Exception):
    def __init__(self, code, offset, where="body", path=""):
        super().__init__(f"{code} at {where} byte {offset}" + (f", path {path}" if path else ""))
        self.code, self.offset, self.where, self.path = code, offset, where, path

    def within(self, segment):
        """The same refusal, its path now under segment (a field's name, a map's key, a case's type name, or [i])."""
        joined = segment if not self.path else segment + (self.path if self.path.startswith("[") else "." + self.path)
        return Refused(self.code, self.offset, self.where, joined)


class Float32:
    """A float32 value (kept apart from float64 values: its JSON number is the shortest text that reads back to it)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Float32({float32_text(self.value)})"


class JsonInt(int):
    """An integer of the vectors' JSON that remembers its text (a decimal -0 and 0 differ)."""

    def __new__(cls, text):
        number = super().__new__(cls, int(text))
        number.text = text
        return number


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
        # A fixed-width value cut short is refused at its first byte, as a cut varint is.
        if count > self.remaining():
            raise Refused("compact.truncated", self.pos)
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


def unzigzag(value):
    return ((value << 1) ^ (value >> 63)) & ((1 << 64) - 1)


def varint_bytes(value):
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def skip(cursor, wire):
    if wire == VARINT:
        cursor.varint()
    elif wire == FIXED32:
        cursor.take(4)
    elif wire == FIXED64:
        cursor.take(8)
    else:
        cursor.length_delimited()


# ---------------------------------------------------------------------------------------------------- JSON forms

def float32_text(value):
    """The shortest decimal text that reads back to this float32 value."""
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    for digits in range(1, 10):
        text = f"{value:.{digits - 1}e}"
        try:
            if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
                return text
        except OverflowError:
            continue
    return repr(value)


def float64_text(value):
    return "-0" if value == 0 and math.copysign(1, value) < 0 else repr(value)


def timestamp_text(ticks):
    days, rest = divmod(ticks, TICKS_PER_DAY)
    date = datetime.date.fromordinal(EPOCH_ORDINAL + days)
    seconds, fraction = divmod(rest, TICKS_PER_SECOND)
    text = f"{date.year:04d}-{date.month:02d}-{date.day:02d}T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    if fraction:
        text += "." + f"{fraction:07d}".rstrip("0")
    return text + "+00:00"


def timestamp_ticks(text):
    match = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,7}))?(Z|[+-]\d\d:\d\d)", text)
    if not match:
        raise ValueError(f"not a timestamp: {text!r}")
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    ticks = (datetime.date(year, month, day).toordinal() - EPOCH_ORDINAL) * TICKS_PER_DAY
    ticks += (hour * 3600 + minute * 60 + second) * TICKS_PER_SECOND + int((match.group(7) or "").ljust(7, "0"))
    zone = match.group(8)
    if zone != "Z":
        offset = (int(zone[1:3]) * 60 + int(zone[4:6])) * 60 * TICKS_PER_SECOND
        ticks -= offset if zone[0] == "+" else -offset
    return ticks


def duration_text(ticks):
    days, rest = divmod(abs(ticks), TICKS_PER_DAY)
    seconds, fraction = divmod(rest, TICKS_PER_SECOND)
    text = ("-" if ticks < 0 else "") + (f"{days}." if days else "")
    text += f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return text + (f".{fraction:07d}" if fraction else "")


def duration_ticks(text):
    match = re.fullmatch(r"(-)?(?:(\d+)\.)?(\d\d):(\d\d):(\d\d)(?:\.(\d{1,7}))?", text)
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    sign, days, hours, minutes, seconds, fraction = match.groups()
    ticks = int(days or 0) * TICKS_PER_DAY + (int(hours) * 3600 + int(minutes) * 60 + int(seconds)) * TICKS_PER_SECOND
    ticks += int((fraction or "").ljust(7, "0"))
    return -ticks if sign else ticks


def guid_text(content):
    text = content.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def number_text(value):
    """A JSON number of the vectors as text: a JsonInt keeps its own, a decimal.Decimal (any number with a . or an
    exponent) gives its own."""
    if isinstance(value, bool) or not isinstance(value, (int, decimal.Decimal)):
        raise ValueError(f"not a JSON number: {value!r}")
    return value.text if isinstance(value, JsonInt) else str(value)


DEFAULT_VALUES = {"bool": lambda: False, "int32": lambda: 0, "int64": lambda: 0, "uint32": lambda: 0,
                  "uint64": lambda: 0, "float32": lambda: Float32(0.0), "float64": lambda: 0.0,
                  "decimal": lambda: decimal.Decimal(0), "string": lambda: "", "bytes": lambda: "",
                  "guid": lambda: guid_text(bytes(16)), "timestamp": lambda: timestamp_text(0),
                  "duration": lambda: duration_text(0)}


def default_value(type_name):
    """The value a field that omits its default is read as when absent: the value whose encoding is zeros or empty."""
    if type_name.startswith("list<"):
        return []
    if type_name.startswith("map<string,"):
        return {}
    return DEFAULT_VALUES[type_name]()


def default_encoding(type_name):
    """The bytes of a type's default after its key (None for records and unions, which have no default)."""
    if type_name.startswith(("list<", "map<string,")):
        return b"\x01\x00"
    if type_name in ("decimal", "guid"):
        return b"\x10" + bytes(16)
    if type_name in ("string", "bytes"):
        return b"\x00"
    if type_name in SCALAR_WIRE:
        return {VARINT: b"\x00", FIXED32: bytes(4), FIXED64: bytes(8)}[SCALAR_WIRE[type_name]]
    return None


# ---------------------------------------------------------------------------------------------------- reading

class Reader:
    def __init__(self, schema, limits=None):
        self.types = {type_["name"]: type_ for type_ in schema["types"]}
        self.by_id = {type_["id"]: type_ for type_ in schema["types"]}
        self.limits = dict(DEFAULT_LIMITS, **(limits or {}))

    def decode(self, frame):
        """The frame's type name and value, or Refused."""
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
        if header.pos - 2 > 5 or type_id > MAX_INDEX or type_id not in self.by_id:
            raise Refused("compact.frame", 2, "frame")
        record = self.by_id[type_id]
        body, limit = frame[header.pos:], self.limits["maxBodyLength"]
        if flags & 0x03 == 0:
            if len(body) > limit:
                raise Refused("compact.limit", header.pos, "frame")
        elif flags & 0x03 == 1:
            body = inflate(body, header.pos, len(frame), limit)
        else:
            raise Skipped("Brotli and zstd are not in Python's standard library")
        if flags & 0x08:
            body = restore_steps(body)
            if len(body) > limit:
                raise Refused("compact.limit", header.pos, "frame")
        if flags & 0x04:
            return record["name"], self.read_collection(Cursor(body), record)
        if "cases" in record:
            # A union frame's body is its one case field, as a union value's bytes are.
            return record["name"], self.read_union(Cursor(body), record, 0)
        return record["name"], self.read_record(Cursor(body), record, 0)

    def read_collection(self, cursor, record):
        count = self.read_count(cursor, LENGTH_DELIMITED)
        records = []
        for i in range(count):
            try:
                start, end = cursor.length_delimited()
                read = self.read_union if "cases" in record else self.read_record
                records.append(read(Cursor(cursor.data, start, end), record, 0))
            except Refused as refused:
                raise refused.within(f"[{i}]")
        if cursor.remaining():
            raise Refused("compact.trailing-bytes", cursor.pos)
        return records

    def read_count(self, cursor, element_wire, extra=0):
        # A count is checked against the bytes that remain, at the least each element can take, then against the limit.
        offset = cursor.pos
        count = cursor.varint()
        least = {FIXED32: 4, FIXED64: 8}.get(element_wire, 1) + extra
        if count * least > cursor.remaining():
            raise Refused("compact.bad-length", offset)
        if count > self.limits["maxCollectionCount"]:
            raise Refused("compact.limit", offset)
        return count

    def read_record(self, cursor, record, depth):
        """A record at depth (its fields' values one deeper), with its defaults, required fields and kept bytes."""
        fields = {field["index"]: field for field in record["fields"]}
        retain = record.get("unknownFields") == "retain"
        value, kept = {}, bytearray()
        while cursor.remaining():
            key_offset = cursor.pos
            key = cursor.varint()
            index, wire = key >> 2, key & 3
            if index == 0 or index > MAX_INDEX:
                raise Refused("compact.bad-key", key_offset)
            field = fields.get(index)
            if field is None:
                skip(cursor, wire)  # an unknown or reserved index: a newer writer's field
                if retain:
                    kept += cursor.data[key_offset:cursor.pos]
                continue
            name = field["name"]
            if name in value:  # checked before the wire type: a field seen twice is refused as such, whatever its type
                raise Refused("compact.repeated", key_offset, path=name)
            if wire != wire_of(field["type"]):
                raise Refused("compact.type-changed", key_offset, path=name)
            try:
                value[name] = self.read_value(cursor, field["type"], field, depth + 1)
            except Refused as refused:
                raise refused.within(name)
        for field in sorted(record["fields"], key=lambda field: field["index"]):
            if field["name"] in value:
                continue
            if field.get("omitDefault"):
                value[field["name"]] = default_value(field["type"])
            elif field.get("required"):
                raise Refused("compact.missing-field", cursor.pos, path=field["name"])
        if kept:
            value["$unknown"] = base64.b64encode(bytes(kept)).decode("ascii")
        return value

    def read_union(self, cursor, union, depth):
        """A union value at depth: exactly one field, its case's record (at depth + 1)."""
        cases = {case["tag"]: case["type"] for case in union["cases"]}
        if not cursor.remaining():
            raise Refused("compact.bad-value", cursor.pos)
        key_offset = cursor.pos
        key = cursor.varint()
        tag, wire = key >> 2, key & 3
        if tag == 0 or tag > MAX_INDEX:
            raise Refused("compact.bad-key", key_offset)
        if tag not in cases:
            raise Refused("compact.bad-value", key_offset)
        case = cases[tag]
        if wire != LENGTH_DELIMITED:
            raise Refused("compact.type-changed", key_offset)
        # Errors inside the case's record are under the case's name; those of the union value itself (its tag, a
        # second field) are the union's own.
        try:
            value = {case: self.read_value(cursor, case, None, depth + 1)}
        except Refused as refused:
            raise refused.within(case)
        if cursor.remaining():
            raise Refused("compact.repeated", cursor.pos)
        return value

    def read_value(self, cursor, type_name, field, depth):
        """One value of type_name; depth is the value's own (it matters for lists, maps, records and unions)."""
        offset = cursor.pos
        encoding = (field or {}).get("encoding")
        if type_name == "bool":
            value = cursor.varint()
            if value > 1:
                raise Refused("compact.bad-value", offset)
            return value == 1
        if type_name in ("int32", "int64"):
            raw = cursor.varint()
            if encoding == "twos-complement":
                value = raw - (1 << 64) if raw >= 1 << 63 else raw
            else:
                value = zigzag(raw)
            if type_name == "int32" and not -(1 << 31) <= value < 1 << 31:
                raise Refused("compact.bad-value", offset)
            return value
        if type_name in ("uint32", "uint64"):
            value = cursor.varint()
            if type_name == "uint32" and value >= 1 << 32:
                raise Refused("compact.bad-value", offset)
            return value
        if type_name == "timestamp":
            ticks = zigzag(cursor.varint())
            if not TIMESTAMP_MIN <= ticks <= TIMESTAMP_MAX:
                raise Refused("compact.bad-value", offset)
            return timestamp_text(ticks)
        if type_name == "duration":
            return duration_text(zigzag(cursor.varint()))
        if type_name in ("float32", "float64"):
            single = type_name == "float32"
            value = struct.unpack("<f" if single else "<d", cursor.take(4 if single else 8))[0]
            if not math.isfinite(value):
                raise Refused("compact.bad-value", offset)  # NaN and infinities are values, but have no JSON
            return Float32(value) if single else value
        container = type_name not in SCALAR_WIRE
        if container and depth > self.limits["maxDepth"]:
            raise Refused("compact.depth", offset)
        start, end = cursor.length_delimited()
        content = cursor.data[start:end]
        if type_name in ("string", "bytes") and end - start > self.limits["maxStringLength"]:
            raise Refused("compact.limit", offset)
        if type_name == "string":
            try:
                return content.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("compact.bad-encoding", start) from None
        if type_name == "bytes":
            return base64.b64encode(content).decode("ascii")
        if type_name == "guid":
            if len(content) != 16:
                raise Refused("compact.bad-encoding", start)
            return guid_text(content)
        if type_name == "decimal":
            if len(content) != 16:
                raise Refused("compact.bad-encoding", start)
            if content[12] or content[13] or content[14] > 28 or content[15] not in (0x00, 0x80):
                raise Refused("compact.bad-value", start)
            coefficient = int.from_bytes(content[:12], "little")
            digits = tuple(int(digit) for digit in str(coefficient))
            return decimal.Decimal((1 if content[15] else 0, digits, -content[14]))
        inner = Cursor(cursor.data, start, end)
        if type_name.startswith("list<"):
            element = type_name[5:-1]
            count = self.read_count(inner, wire_of(element))
            values = []
            for i in range(count):
                try:
                    values.append(self.read_value(inner, element, field, depth + 1))
                except Refused as refused:
                    raise refused.within(f"[{i}]")
            if inner.remaining():
                raise Refused("compact.trailing-bytes", inner.pos)
            return values
        if type_name.startswith("map<string,"):
            element = type_name[11:-1]
            count = self.read_count(inner, wire_of(element), extra=1)
            values, seen = {}, set()
            for _ in range(count):
                key_offset = inner.pos
                key_start = inner.pos
                key = self.read_value(inner, "string", None, depth + 1)
                key_bytes = bytes(inner.data[key_start:inner.pos])
                if key_bytes in seen:  # keys compare as bytes
                    raise Refused("compact.repeated", key_offset, path=key)
                seen.add(key_bytes)
                try:
                    values[key] = self.read_value(inner, element, field, depth + 1)
                except Refused as refused:
                    raise refused.within(key)
            if inner.remaining():
                raise Refused("compact.trailing-bytes", inner.pos)
            return values
        type_ = self.types[type_name]
        if "cases" in type_:
            return self.read_union(inner, type_, depth)
        return self.read_record(inner, type_, depth)


def inflate(body, header_length, frame_length, limit):
    # One whole zlib stream (RFC 1950, Adler-32 checked), ending exactly where the frame does, within the body limit.
    if len(body) < 6:
        raise Refused("compact.compression", frame_length, "frame")
    inflater = zlib.decompressobj()
    try:
        inflated = inflater.decompress(body, limit + 1)
    except zlib.error:
        raise Refused("compact.compression", header_length, "frame") from None
    if len(inflated) > limit:
        raise Refused("compact.limit", header_length, "frame")
    if not inflater.eof:
        raise Refused("compact.compression", frame_length, "frame")
    if inflater.unused_data:
        raise Refused("compact.compression", frame_length - len(inflater.unused_data), "frame")
    return inflated


def restore_steps(stepped):
    """The body with its keys' indices restored: each key's index is the sum of the steps so far. Values are copied
    as they are (nested records, lists and maps were never stepped)."""
    cursor, restored, index = Cursor(stepped), bytearray(), 0
    while cursor.remaining():
        key_offset = cursor.pos
        key = cursor.varint()
        step, wire = key >> 2, key & 3
        if step == 0 or index + step > MAX_INDEX:
            raise Refused("compact.bad-key", key_offset)
        index += step
        restored += varint_bytes((index << 2) | wire)
        start = cursor.pos
        skip(cursor, wire)
        restored += stepped[start:cursor.pos]
    return bytes(restored)


# ---------------------------------------------------------------------------------------------------- writing

class Writer:
    """Writes a JSON value of the vectors (numbers as JsonInt or decimal.Decimal) the one way the spec allows."""

    def __init__(self, schema):
        self.types = {type_["name"]: type_ for type_ in schema["types"]}

    def frame(self, type_name, value):
        record = self.types[type_name]
        header = bytes([1, 0x04 if isinstance(value, list) else 0x00]) + varint_bytes(record["id"])
        if isinstance(value, list):
            write = self.union if "cases" in record else self.record
            records = (self.length_delimited(write(item, record)) for item in value)
            return header + varint_bytes(len(value)) + b"".join(records)
        return header + (self.union(value, record) if "cases" in record else self.record(value, record))

    def union(self, value, type_):
        """A union value's bytes: its one case field."""
        if len(value) != 1:
            raise ValueError(f"a {type_['name']} holds exactly one case")
        (case, record), = value.items()
        tag = next(c["tag"] for c in type_["cases"] if c["type"] == case)
        return varint_bytes((tag << 2) | LENGTH_DELIMITED) + self.length_delimited(self.record(record, self.types[case]))

    @staticmethod
    def length_delimited(content):
        return varint_bytes(len(content)) + content

    def record(self, value, record):
        fields = {field["name"]: field for field in record["fields"]}
        extra = set(value) - set(fields) - {"$unknown"}
        if extra or ("$unknown" in value and record.get("unknownFields") != "retain"):
            raise ValueError(f"{record['name']} has no member {sorted(extra) or '$unknown'}")
        out = bytearray()
        for field in sorted(record["fields"], key=lambda field: field["index"]):
            if value.get(field["name"]) is None:
                continue  # absent (null) fields are not written
            encoded = self.value(value[field["name"]], field["type"], field)
            if field.get("omitDefault") and encoded == default_encoding(field["type"]):
                continue
            out += varint_bytes((field["index"] << 2) | wire_of(field["type"])) + encoded
        if "$unknown" in value:
            out += base64.b64decode(value["$unknown"], validate=True)  # kept fields, after the type's own
        return bytes(out)

    def value(self, value, type_name, field):
        """A value's bytes as they follow its key (or stand as a list's element)."""
        encoding = (field or {}).get("encoding")
        if type_name == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"not a bool: {value!r}")
            return b"\x01" if value else b"\x00"
        if type_name in ("int32", "int64", "uint32", "uint64"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"not an integer: {value!r}")
            bits = 32 if type_name.endswith("32") else 64
            low, high = (-(1 << bits - 1), (1 << bits - 1) - 1) if type_name[0] == "i" else (0, (1 << bits) - 1)
            if not low <= value <= high:
                raise ValueError(f"{value} is not an {type_name}")
            if type_name[0] == "i":
                return varint_bytes(value & ((1 << 64) - 1) if encoding == "twos-complement" else unzigzag(value))
            return varint_bytes(value)
        if type_name == "float32":
            return struct.pack("<f", float(decimal.Decimal(number_text(value))))
        if type_name == "float64":
            return struct.pack("<d", float(decimal.Decimal(number_text(value))))
        if type_name == "timestamp":
            return varint_bytes(unzigzag(timestamp_ticks(value)))
        if type_name == "duration":
            return varint_bytes(unzigzag(duration_ticks(value)))
        if type_name == "string":
            return self.length_delimited(value.encode("utf-8"))  # a lone surrogate raises: refused, not replaced
        if type_name == "bytes":
            return self.length_delimited(base64.b64decode(value, validate=True))
        if type_name == "guid":
            if not re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", value):
                raise ValueError(f"not a guid: {value!r}")
            return self.length_delimited(bytes.fromhex(value.replace("-", "")))
        if type_name == "decimal":
            sign, digits, exponent = decimal.Decimal(number_text(value)).as_tuple()
            coefficient = int("".join(map(str, digits))) * 10 ** max(exponent, 0)
            scale = max(-exponent, 0)
            if scale > 28 or coefficient >= 1 << 96:
                raise ValueError(f"{number_text(value)} is not a decimal")
            return self.length_delimited(coefficient.to_bytes(12, "little") + bytes([0, 0, scale, 0x80 if sign else 0]))
        if type_name.startswith("list<"):
            element = type_name[5:-1]
            if any(item is None for item in value):
                raise ValueError("a list has no null")
            items = b"".join(self.value(item, element, field) for item in value)
            return self.length_delimited(varint_bytes(len(value)) + items)
        if type_name.startswith("map<string,"):
            element = type_name[11:-1]
            out = bytearray(varint_bytes(len(value)))
            for key, item in value.items():
                if item is None:
                    raise ValueError("a map has no null")
                out += self.value(key, "string", None) + self.value(item, element, field)
            return self.length_delimited(bytes(out))
        type_ = self.types[type_name]
        return self.length_delimited(self.union(value, type_) if "cases" in type_ else self.record(value, type_))


# ---------------------------------------------------------------------------------------------------- comparing

def same(expected, actual):
    """Whether the vector's JSON value (numbers as JsonInt or decimal.Decimal) is the value read, member order aside."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(actual, (Float32, float)):
        try:
            wanted = decimal.Decimal(number_text(expected))
        except ValueError:
            return False
        text = float32_text(actual.value) if isinstance(actual, Float32) else float64_text(actual)
        got = decimal.Decimal(text)
        return wanted == got and wanted.is_signed() == got.is_signed()
    if isinstance(actual, decimal.Decimal):
        try:
            return decimal.Decimal(number_text(expected)).as_tuple() == actual.as_tuple()  # the scale and sign too
        except ValueError:
            return False
    if isinstance(actual, int):
        return isinstance(expected, int) and expected == actual
    if isinstance(actual, str):
        return isinstance(expected, str) and expected == actual
    if isinstance(actual, list):
        return isinstance(expected, list) and len(expected) == len(actual) and all(map(same, expected, actual))
    if isinstance(actual, dict):
        return isinstance(expected, dict) and set(expected) == set(actual) and all(same(expected[k], actual[k]) for k in actual)
    return False


def plain(value):
    """A value read, printable as JSON-like text for a disagreement's line."""
    if isinstance(value, Float32):
        return float32_text(value.value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def check(vector, schema):
    """None when the vector agrees, else why not."""
    frame = bytes.fromhex(vector["hex"])
    try:
        type_name, value = Reader(schema, vector.get("limits")).decode(frame)
    except Refused as refused:
        got = {"code": refused.code, "offset": refused.offset, "in": refused.where, "path": refused.path}
        if "error" not in vector:
            return f"expected {plain(vector['value'])!r}, refused: {got}"
        wanted = dict(vector["error"])
        wanted.setdefault("in", "body")
        wanted.setdefault("path", "")
        return None if wanted == got else f"expected {vector['error']}, refused: {got}"
    if "error" in vector:
        return f"expected {vector['error']}, read {vector.get('type', type_name)} {plain(value)!r}"
    if type_name != vector["type"] or not same(vector["value"], value):
        return f"expected {vector['type']} {plain(vector['value'])!r}, read {type_name} {plain(value)!r}"
    if vector.get("canonical"):
        written = Writer(schema).frame(vector["type"], vector["value"])
        if written != frame:
            return f"canonical: the value writes {written.hex()}"
    return None


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors-v1.json")
    with open(path, encoding="utf-8") as file:
        document = json.load(file, parse_int=JsonInt, parse_float=decimal.Decimal)
    failures, skipped = 0, []
    for vector in document["vectors"]:
        try:
            problem = check(vector, document["schema"])
        except Skipped as reason:
            skipped.append(str(reason))
            continue
        except Exception as error:  # a vector this reader cannot run, or a bug: a disagreement either way
            problem = f"{type(error).__name__}: {error}"
        if problem:
            failures += 1
            print(f"{vector['name']}: {problem}")
    ran = len(document["vectors"]) - len(skipped)
    print(f"{ran - failures} of {ran} vectors agree" + (f" ({len(skipped)} skipped: {skipped[0]})" if skipped else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
