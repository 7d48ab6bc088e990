# SPDX-License-Identifier: Apache-2.0
"""Hudi's bloom filters from base-file footers: decoding and key tests (hudi-format.md §5.3).

Footer key ``org.apache.hudi.bloomfilter`` holds standard Base64 of Java ``DataOutput`` bytes;
``hoodie_bloom_filter_type_code`` is ``DYNAMIC_V0`` for dynamic filters (absent means SIMPLE).
A row is a header (int32 version -1, int32 hash count, int8 hash type 1 = Murmur, int32 bit count)
then the bits, bit i in byte i/8 at mask ``1 << (i % 8)``. DYNAMIC_V0 is a header, int32 keys per
row, int32 keys in the last row, int32 row count, then that many rows; a key may be in any row.
"""

import base64
import binascii
import struct
from dataclasses import dataclass
from typing import List, Optional, Tuple

BLOOM_FILTER_KEY = "org.apache.hudi.bloomfilter"
LEGACY_BLOOM_FILTER_KEY = "com.uber.hoodie.bloomfilter"
TYPE_CODE_KEY = "hoodie_bloom_filter_type_code"
MIN_RECORD_KEY = "hoodie_min_record_key"
MAX_RECORD_KEY = "hoodie_max_record_key"
SIMPLE = "SIMPLE"
DYNAMIC_V0 = "DYNAMIC_V0"

_M = 0x5BD1E995
_MASK = 0xFFFFFFFF
_ROW_VERSION = -1
_MURMUR = 1


class BloomFilterError(ValueError):
    """A footer filter that does not decode."""


def murmur_hash(data: bytes, seed: int) -> int:
    """Hudi's 32-bit MurmurHash 2 (signed result).

    Unlike the reference C version, the tail bytes are sign-extended and mixed in reverse order
    (the first remaining byte gets the largest shift), and the tail multiply only happens when
    there is a tail: filters that Hudi reads were built this way.
    """
    length = len(data)
    h = (seed ^ length) & _MASK
    chunks = length >> 2
    for i in range(chunks):
        k = int.from_bytes(data[4 * i : 4 * i + 4], "little")
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = ((h * _M) & _MASK) ^ k
    tail = length & 3
    if tail:
        signed = [b - 256 if b > 127 else b for b in data[length - tail :]]
        if tail >= 3:
            h ^= (signed[-3] << 16) & _MASK
        if tail >= 2:
            h ^= (signed[-2] << 8) & _MASK
        h ^= signed[-1] & _MASK
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def bit_positions(key: str, num_hashes: int, vector_size: int) -> List[int]:
    """The bits of a key: hashes chained by seed, each |signed hash rem vector size| (Java ``%``)."""
    data = key.encode("utf-8")
    out = []
    h = 0
    for _ in range(num_hashes):
        h = murmur_hash(data, h)
        rem = abs(h) % vector_size  # Java's remainder takes the dividend's sign; abs() undoes it
        out.append(rem)
    return out


@dataclass(frozen=True)
class BloomRow:
    num_hashes: int
    vector_size: int
    bits: bytes

    def contains(self, positions: List[int]) -> bool:
        bits = self.bits
        return all(bits[p >> 3] & (1 << (p & 7)) for p in positions)


@dataclass(frozen=True)
class BloomFilter:
    """A decoded SIMPLE (one row) or DYNAMIC_V0 filter."""

    type_code: str
    rows: Tuple[BloomRow, ...]

    def might_contain(self, key: str) -> bool:
        if not key:
            return False
        first = self.rows[0]
        positions = bit_positions(key, first.num_hashes, first.vector_size)
        return any(row.contains(positions) for row in self.rows)


class _Input:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise BloomFilterError(f"truncated: {n} bytes needed at offset {self.pos} of {len(self.data)}")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def int32(self) -> int:
        return int(struct.unpack(">i", self.take(4))[0])


def _read_header(inp: _Input) -> Tuple[int, int]:
    version = inp.int32()
    if version != _ROW_VERSION:
        raise BloomFilterError(f"unsupported filter version {version}")
    num_hashes = inp.int32()
    hash_type = inp.take(1)[0]
    if hash_type != _MURMUR:
        raise BloomFilterError(f"hash type {hash_type} is not Murmur")
    vector_size = inp.int32()
    if num_hashes <= 0 or vector_size <= 0:
        raise BloomFilterError(f"bad sizes: {num_hashes} hashes over {vector_size} bits")
    return num_hashes, vector_size


def _read_row(inp: _Input) -> BloomRow:
    num_hashes, vector_size = _read_header(inp)
    return BloomRow(num_hashes, vector_size, inp.take((vector_size + 7) // 8))


def decode(serialized: str, type_code: Optional[str]) -> BloomFilter:
    """Decodes a footer value; ``type_code`` None means SIMPLE."""
    try:
        raw = base64.b64decode(serialized, validate=True)
    except (binascii.Error, ValueError) as e:
        raise BloomFilterError(f"not Base64 ({e})") from e
    inp = _Input(raw)
    code = type_code or SIMPLE
    if code == SIMPLE:
        rows: Tuple[BloomRow, ...] = (_read_row(inp),)
    elif code == DYNAMIC_V0:
        num_hashes, vector_size = _read_header(inp)
        per_row, in_last, count = inp.int32(), inp.int32(), inp.int32()
        if per_row <= 0 or in_last < 0 or count <= 0:
            raise BloomFilterError(f"bad dynamic header: {per_row} keys per row, {in_last} in the last, {count} rows")
        rows = tuple(_read_row(inp) for _ in range(count))
        if any(r.num_hashes != num_hashes or r.vector_size != vector_size for r in rows):
            raise BloomFilterError("rows differ in size from the filter header")
    else:
        raise BloomFilterError(f"unsupported bloom filter type {code!r}")
    if inp.pos != len(raw):
        raise BloomFilterError(f"{len(raw) - inp.pos} bytes left after the filter")
    return BloomFilter(code, rows)
