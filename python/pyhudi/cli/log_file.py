# SPDX-License-Identifier: Apache-2.0
"""Log file framing: the blocks of a ``#HUDI#`` log file (hudi-format.md §6.1–6.7).

A block is ``#HUDI#``, int64 ``blockSize`` (bytes after this field), int32 format version (1),
int32 block type, header map, int64 content length, content, footer map, and an int64 trailing
length equal to ``blockSize + 6``. Maps are int32 count then per entry int32 key, int32 length,
UTF-8 value. All integers are big-endian. A frame that does not add up is reported as corrupt with
the reason; Hudi's readers would skip such a block and scan to the next magic.
"""

import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional

MAGIC = b"#HUDI#"
FORMAT_VERSION = 1
#: magic + blockSize
FRAME_PREFIX = len(MAGIC) + 8
#: version, type, empty header, content length, empty footer, trailing length
MIN_BLOCK_SIZE = 4 + 4 + 4 + 8 + 4 + 8

BLOCK_TYPES = {
    0: "COMMAND",
    1: "DELETE",
    2: "CORRUPT",
    3: "AVRO_DATA",
    4: "HFILE_DATA",
    5: "PARQUET_DATA",
    6: "CDC_DATA",
}
HEADER_KEYS = {
    0: "INSTANT_TIME",
    1: "TARGET_INSTANT_TIME",
    2: "SCHEMA",
    3: "COMMAND_BLOCK_TYPE",
    4: "COMPACTED_BLOCK_TIMES",
    5: "RECORD_POSITIONS",
    6: "BLOCK_IDENTIFIER",
    7: "IS_PARTIAL",
    8: "BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS",
}
_PARQUET_MAGIC = b"PAR1"


@dataclass
class LogBlock:
    """One block: where it starts, its total length, type and header; ``problem`` set when corrupt."""

    offset: int
    length: int
    block_type: str = "CORRUPT"
    header: Dict[str, str] = field(default_factory=dict)
    records: Optional[int] = None
    problem: Optional[str] = None

    @property
    def instant_time(self) -> Optional[str]:
        return self.header.get("INSTANT_TIME")


class _Malformed(Exception):
    pass


class _Reader:
    def __init__(self, data: bytes, pos: int, end: int) -> None:
        self.data, self.pos, self.end = data, pos, end

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.end:
            raise _Malformed(f"field of {n} bytes at offset {self.pos} runs past the block end {self.end}")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def int32(self) -> int:
        return int(struct.unpack(">i", self.take(4))[0])

    def int64(self) -> int:
        return int(struct.unpack(">q", self.take(8))[0])

    def map(self, what: str) -> Dict[str, str]:
        count = self.int32()
        if count < 0 or count > (self.end - self.pos) // 8:
            raise _Malformed(f"{what} of {count} entries does not fit in the block")
        out: Dict[str, str] = {}
        for _ in range(count):
            key = self.int32()
            length = self.int32()
            try:
                out[HEADER_KEYS.get(key, str(key))] = self.take(length).decode("utf-8")
            except UnicodeDecodeError as e:
                raise _Malformed(f"{what} value of key {key} is not UTF-8") from e
        return out


def read_blocks(data: bytes) -> List[LogBlock]:
    """Every block of a log file's bytes; after a corrupt block, reading resumes at the next magic."""
    blocks: List[LogBlock] = []
    pos = 0
    while pos < len(data):
        block = _block_at(data, pos)
        blocks.append(block)
        pos += block.length
    return blocks


def _next_magic(data: bytes, start: int) -> int:
    at = data.find(MAGIC, start + 1)
    return len(data) if at < 0 else at


def _block_at(data: bytes, start: int) -> LogBlock:
    remaining = len(data) - start
    if remaining < FRAME_PREFIX:
        return LogBlock(start, remaining, problem=f"truncated block: only {remaining} bytes at offset {start}")
    if data[start : start + len(MAGIC)] != MAGIC:
        return LogBlock(start, _next_magic(data, start) - start, problem=f"no #HUDI# block magic at offset {start}")
    block_size = int(struct.unpack(">q", data[start + len(MAGIC) : start + FRAME_PREFIX])[0])
    if block_size < MIN_BLOCK_SIZE or block_size > remaining - FRAME_PREFIX:
        return LogBlock(
            start,
            _next_magic(data, start) - start,
            problem=f"block at offset {start} announces {block_size} bytes but {remaining - FRAME_PREFIX} remain "
            "(truncated or corrupt block)",
        )
    end = start + FRAME_PREFIX + block_size
    trailing = int(struct.unpack(">q", data[end - 8 : end])[0])
    if trailing != block_size + len(MAGIC):
        return LogBlock(
            start,
            _next_magic(data, start) - start,
            problem=f"block at offset {start}: trailing length {trailing} does not match blockSize {block_size}",
        )
    block = LogBlock(start, end - start)
    try:
        _parse_frame(_Reader(data, start + FRAME_PREFIX, end - 8), block)
    except _Malformed as e:
        block.problem = f"block at offset {start}: {e}"
    return block


def _parse_frame(r: _Reader, block: LogBlock) -> None:
    version = r.int32()
    if version != FORMAT_VERSION:
        raise _Malformed(f"unsupported log format version {version}")
    type_code = r.int32()
    if type_code not in BLOCK_TYPES or type_code == 2:
        raise _Malformed(f"unknown block type {type_code}")
    block.block_type = BLOCK_TYPES[type_code]
    block.header = r.map("header")
    content_length = r.int64()
    content = r.take(content_length)
    r.map("footer")
    if r.pos != r.end:
        raise _Malformed(f"{r.end - r.pos} unexplained bytes before the trailing length")
    block.records = _check_content(block.block_type, content)


def _check_content(block_type: str, content: bytes) -> Optional[int]:
    """Checks a block's content framing; returns its record count when the framing tells it."""
    if block_type == "COMMAND":
        if content:
            raise _Malformed(f"command block with {len(content)} content bytes")
        return None
    if block_type == "PARQUET_DATA":
        if len(content) < 12 or not content.startswith(_PARQUET_MAGIC) or not content.endswith(_PARQUET_MAGIC):
            raise _Malformed("parquet data block content is not a parquet file (PAR1 ... PAR1)")
        return None
    r = _Reader(content, 0, len(content))
    if block_type == "AVRO_DATA":
        version = r.int32()
        count = r.int32() if version >= 2 else None
        records = 0
        while r.pos < r.end and (count is None or records < count):
            r.take(r.int32())
            records += 1
        if (count is not None and records != count) or r.pos != r.end:
            raise _Malformed(f"avro data block announces {count} records, its content holds {records}")
        return records
    if block_type == "DELETE":
        version = r.int32()
        length = r.int32() if version >= 2 else r.end - r.pos
        r.take(length)
        if r.pos != r.end:
            raise _Malformed(f"delete block content has {r.end - r.pos} bytes after its record list")
        return None
    return None


def avro_record_bytes(data: bytes, block: LogBlock) -> List[bytes]:
    """The encoded records of a well-formed AVRO_DATA block (content version 2 or later), each to be
    decoded with the block's ``SCHEMA`` header."""
    if block.block_type != "AVRO_DATA" or block.problem is not None:
        return []
    r = _Reader(data, block.offset + FRAME_PREFIX, block.offset + block.length - 8)
    r.int32()  # format version
    r.int32()  # block type
    r.map("header")
    length = r.int64()
    content = _Reader(r.take(length), 0, length)
    if content.int32() < 2:
        return []
    return [content.take(content.int32()) for _ in range(content.int32())]
