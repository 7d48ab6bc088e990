# SPDX-License-Identifier: Apache-2.0
"""Shared pieces of the write tests: generated rows with every corpus column type, an
in-memory model of a copy-on-write table, and three-way checks (pyhudi, hudi-rs, model).

The model implements Hudi 0.14 semantics with the default payload
(OverwriteWithLatestAvroPayload): an upsert replaces the stored record of a key whatever
its ordering value; within one batch the record with the largest precombine value wins;
non-global indexes identify a record by (partition path, record key), global ones by the
record key alone (and move a record whose partition changes).
"""

import copy
import datetime as dt
import random
import threading
import time
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import harness
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from pyhudi import errors

LATEST_WINS = {"hoodie.datasource.write.payload.class": "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"}
"""The model's semantics. New tables default to event-time ordering (DefaultHoodieRecordPayload),
so tests of this model choose the payload explicitly."""

KEY_FIELDS = ("k1", "k2")
PARTITION_FIELDS = ("p1", "p2")
PRECOMBINE = "ts"
MODEL_META = ("_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path")

_ARR = StructType([StructField("a1", StringType()), StructField("a2", IntegerType())])
_MAPV = StructType([StructField("m1", DoubleType()), StructField("m2", BooleanType())])
_CHILD = StructType([StructField("c1", DoubleType()), StructField("c2", BooleanType())])
_STRUCT = StructType([StructField("s1", StringType()), StructField("s2", IntegerType()), StructField("child", _CHILD)])

SCHEMA = StructType(
    [
        StructField("k1", StringType()),
        StructField("k2", IntegerType()),
        StructField("p1", StringType()),
        StructField("p2", IntegerType()),
        StructField("ts", LongType()),
        StructField("int_col", IntegerType()),
        StructField("long_col", LongType()),
        StructField("str_col", StringType()),
        StructField("bool_col", BooleanType()),
        StructField("float_col", FloatType()),
        StructField("double_col", DoubleType()),
        StructField("dec_col", DecimalType(10, 5)),
        StructField("date_col", DateType()),
        StructField("ts_col", TimestampType()),
        StructField("bin_col", BinaryType()),
        StructField("arr_col", ArrayType(_ARR)),
        StructField("map_col", MapType(StringType(), _MAPV)),
        StructField("struct_col", _STRUCT),
    ]
)
"""Two key columns, two partition columns, the precombine column, then one column of every
type the corpus tables hold."""

COLUMNS = [f.name for f in SCHEMA.fields]
P1_VALUES = ("north", "south", "east")
P2_VALUES = (1, 2)

Row = Tuple[Any, ...]


class RowGen:
    """Seeded generator of :data:`SCHEMA` rows. Keys come from a counter, so every
    :meth:`fresh_key` is new to the table; data values are random, with some nulls."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._next_key = 0

    def fresh_key(self) -> Tuple[str, int]:
        n = self._next_key
        self._next_key += 1
        return f"id{n:05d}", n % 7

    def partition(self) -> Tuple[str, int]:
        return self.rng.choice(P1_VALUES), self.rng.choice(P2_VALUES)

    def ts(self) -> int:
        # Distinct enough that two versions of one key in a batch never tie (the test
        # makes them distinct explicitly anyway).
        return self.rng.randrange(1_000_000_000)

    def row(self, key: Tuple[str, int], part: Tuple[str, int], ts: Optional[int] = None) -> Row:
        r = self.rng

        def maybe(value: Any) -> Any:
            return None if r.random() < 0.08 else value

        base = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
        arr = [(f"e{r.randrange(100)}", r.randrange(-50, 50)) for _ in range(r.randrange(3))]
        mapping = {
            f"m{r.randrange(10)}": (round(r.uniform(-1e3, 1e3), 3), r.random() < 0.5) for _ in range(r.randrange(3))
        }
        struct = (
            f"s{r.randrange(1000)}",
            r.randrange(1000),
            maybe((round(r.uniform(-10, 10), 4), r.random() < 0.5)),
        )
        return (
            key[0],
            key[1],
            part[0],
            part[1],
            self.ts() if ts is None else ts,
            maybe(r.randrange(-(2**31), 2**31)),
            maybe(r.randrange(-(2**62), 2**62)),
            maybe("".join(r.choice("abcdefghij é") for _ in range(r.randrange(12)))),
            maybe(r.random() < 0.5),
            maybe(r.randrange(-4000, 4000) / 4),  # exact in float32
            maybe(round(r.uniform(-1e6, 1e6), 6)),
            maybe(Decimal(r.randrange(-(10**10) + 1, 10**10)).scaleb(-5)),
            maybe(dt.date(1990, 1, 1) + dt.timedelta(days=r.randrange(20000))),
            maybe(base + dt.timedelta(microseconds=r.randrange(-(10**15), 10**15))),
            maybe(bytes(r.randrange(256) for _ in range(r.randrange(8)))),
            maybe(arr),
            maybe(mapping),
            maybe(struct),
        )


def record_key(row: Row) -> str:
    """Complex key of :data:`SCHEMA` rows: ``k1:<v>,k2:<v>``."""
    return f"k1:{row[0]},k2:{row[1]}"


def partition_path(row: Row, hive: bool) -> str:
    if hive:
        return f"p1={row[2]}/p2={row[3]}"
    return f"{row[2]}/{row[3]}"


def data_json(row: Row, schema: StructType = SCHEMA) -> Dict[str, Any]:
    """The data columns of a row in the normalised JSON form of :mod:`harness`."""
    return harness.normalize_value(row, schema)


class TableModel:
    """Expected content of a copy-on-write table of :data:`SCHEMA` rows after each write."""

    def __init__(self, global_index: bool, hive: bool) -> None:
        self.global_index = global_index
        self.hive = hive
        # identity -> {"row": raw row, "commit": instant}
        self.records: Dict[Any, Dict[str, Any]] = {}
        self.history: List[Tuple[str, Dict[Any, Dict[str, Any]]]] = []

    # identity of a record for the index: (partition, key) or key alone
    def ident(self, row: Row) -> Any:
        key = record_key(row)
        return key if self.global_index else (partition_path(row, self.hive), key)

    def _commit(self, instant: str) -> None:
        self.history.append((instant, copy.copy(self.records)))

    def _combine(self, rows: Sequence[Row]) -> List[Row]:
        """In-batch duplicates (same identity) collapse; the largest precombine value wins."""
        best: Dict[Any, Row] = {}
        for row in rows:
            ident = self.ident(row)
            if ident not in best or row[4] > best[ident][4]:
                best[ident] = row
        return list(best.values())

    def _find(self, row: Row) -> Optional[Any]:
        """Identity of the stored record this row addresses, if any."""
        if self.global_index:
            key = record_key(row)
            return key if key in self.records else None
        ident = self.ident(row)
        return ident if ident in self.records else None

    def upsert(self, rows: Sequence[Row], instant: str) -> None:
        for row in self._combine(rows):
            self.records.pop(self._find(row), None)  # global: a moved record leaves its old partition
            self.records[self.ident(row)] = {"row": row, "commit": instant}
        self._commit(instant)

    def insert(self, rows: Sequence[Row], instant: str) -> None:
        for row in rows:
            ident = self.ident(row)
            assert ident not in self.records, f"test bug: insert of existing key {ident}"
            self.records[ident] = {"row": row, "commit": instant}
        self._commit(instant)

    def delete(self, rows: Sequence[Row], instant: str) -> None:
        for row in rows:
            self.records.pop(self._find(row), None)
        self._commit(instant)

    def insert_overwrite(self, rows: Sequence[Row], instant: str) -> None:
        parts = {partition_path(r, self.hive) for r in rows}
        self.records = {i: rec for i, rec in self.records.items() if partition_path(rec["row"], self.hive) not in parts}
        for row in rows:
            ident = self.ident(row)
            assert ident not in self.records, f"test bug: overwrite row {ident} exists elsewhere"
            self.records[ident] = {"row": row, "commit": instant}
        self._commit(instant)

    # ---- expected rows

    def rows_of(self, records: Dict[Any, Dict[str, Any]], begin: str = "", end: str = "~") -> List[Dict[str, Any]]:
        """Model rows (data columns + :data:`MODEL_META`) with commit time in (begin, end]."""
        out = []
        for rec in records.values():
            if not begin < rec["commit"] <= end:
                continue
            row = data_json(rec["row"])
            row["_hoodie_commit_time"] = rec["commit"]
            row["_hoodie_record_key"] = record_key(rec["row"])
            row["_hoodie_partition_path"] = partition_path(rec["row"], self.hive)
            out.append(row)
        return out

    def snapshot(self) -> List[Dict[str, Any]]:
        return self.rows_of(self.records)

    def as_of(self, instant: str) -> List[Dict[str, Any]]:
        """The table at ``instant`` (inclusive): the state after the last write <= it."""
        state: Dict[Any, Dict[str, Any]] = {}
        for at, records in self.history:
            if at <= instant:
                state = records
        return self.rows_of(state)

    def incremental(self, begin: str, end: Optional[str] = None) -> List[Dict[str, Any]]:
        """Records changed in (begin, end]: those of the snapshot at ``end`` written after
        ``begin`` (a copy-on-write incremental read returns the latest version only)."""
        end = end or self.history[-1][0]
        state: Dict[Any, Dict[str, Any]] = {}
        for at, records in self.history:
            if at <= end:
                state = records
        return self.rows_of(state, begin, end)


# --------------------------------------------------------------------------------------------
# Reading a written table three ways


def project(rows: Iterable[Dict[str, Any]], columns: Sequence[str]) -> List[Dict[str, Any]]:
    return [{c: r.get(c, "<absent>") for c in columns} for r in rows]


def pyhudi_rows(spark: Any, path: Path, options: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
    return harness.spark_rows(harness.read_table(spark, path, options))


def assert_same(actual: List[Dict[str, Any]], expected: List[Dict[str, Any]], context: str) -> None:
    """Multiset equality of normalised rows with a readable difference (map pairs in both
    sides are already sorted by the normalisers)."""
    harness.assert_rows_equal(actual, expected, StructType([]), context)


# Options for writers a test kills: their heartbeat expires 1 s (2 x 500 ms) after their last beat.
HEARTBEAT = {"hoodie.client.heartbeat.interval_in_ms": "500"}


def wait_until_dead(path: Path, instant: str, expiry_s: float = 1.0) -> None:
    """Wait until the heartbeat of the killed writer of ``instant`` is older than the expiry of
    :data:`HEARTBEAT`, so that the next writer rolls the instant back instead of refusing to
    run next to a live writer."""
    beat = Path(path) / ".hoodie" / ".heartbeat" / instant
    assert beat.is_file(), f"the writer of {instant} left no heartbeat in {beat.parent}"
    while time.time() - beat.stat().st_mtime <= expiry_s + 0.2:
        time.sleep(0.1)


def assert_readers_agree(spark: Any, path: Path, context: str) -> List[Dict[str, Any]]:
    """pyhudi and hudi-rs snapshot reads are identical, meta columns included; returns the rows."""
    ours = pyhudi_rows(spark, path)
    theirs = harness.hudi_rs_read(path)
    assert_same(ours, theirs, f"{context}: pyhudi (read) vs hudi-rs (expected)")
    return ours


def assert_meta_consistent(rows: List[Dict[str, Any]], path: Path, context: str) -> None:
    """Sequence numbers start with the commit time; file names name existing base files of the
    row's partition (copy-on-write; see :func:`assert_meta_consistent_mor`)."""
    for row in rows:
        commit, seqno = row["_hoodie_commit_time"], row["_hoodie_commit_seqno"]
        assert seqno.startswith(commit + "_"), (
            f"{context}: seqno {seqno} of commit {commit}: {row['_hoodie_record_key']}"
        )
        base = Path(path) / row["_hoodie_partition_path"] / row["_hoodie_file_name"]
        assert row["_hoodie_file_name"].endswith(".parquet") and base.is_file(), (
            f"{context}: _hoodie_file_name {row['_hoodie_file_name']} of "
            f"{row['_hoodie_record_key']} is not a base file in {base.parent}"
        )


def new_instant(path: Path, before: Sequence[Tuple[str, str]], action: str, context: str) -> str:
    """The single completed instant a write added to the timeline; checks its action."""
    after = harness.completed_instants(path)
    added = [i for i in after if i not in set(before)]
    assert len(added) == 1, f"{context}: expected one new completed instant, got {added}"
    instant, got_action = added[0]
    assert got_action == action, f"{context}: instant {instant} is a {got_action}, expected {action}"
    assert all(instant > i for i, _ in before), f"{context}: instant {instant} is not the newest"
    return instant


# --------------------------------------------------------------------------------------------
# Merge-on-read: ordering values that only grow, the model's compaction instants, the
# read-optimized view and the timeline of compactions.

READ_OPTIMIZED = {"hoodie.datasource.query.type": "read_optimized"}


class GrowingTsRowGen(RowGen):
    """A :class:`RowGen` whose precombine values grow with :attr:`floor`: set ``floor`` to the
    write number times :data:`TS_STEP` before generating a batch, and every key's ordering
    value never decreases from one write to the next.

    Merge-on-read tables need that for an unambiguous expected state: among log records of one
    key Java Hudi keeps the larger ordering value, hudi-rs 0.5.0 the later write; with growing
    values both, and the model (latest write wins), agree."""

    TS_STEP = 2_000_000_000

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.floor = 0

    def ts(self) -> int:
        return self.floor + super().ts()


class MorTableModel(TableModel):
    """:class:`TableModel` of a merge-on-read table: compactions are instants that change no
    record (commit times are preserved), and the model knows which records are certainly in
    base files, i.e. what a read_optimized query must return at least.

    ``in_base`` maps identities to the commit whose version of the record a base file surely
    holds: every record after a compaction, and rows that went to base files: inserts (new file
    groups, or small base files without log files, which are rewritten) and insert_overwrite
    rows. With the BUCKET index, inserts into existing buckets go to log files, so only the
    inserts into an empty table count. An update or delete makes the record's base state
    unknown (the change goes to a log file, or into a rewritten small file)."""

    def __init__(self, global_index: bool, hive: bool, bucket_index: bool = False) -> None:
        super().__init__(global_index, hive)
        self.bucket_index = bucket_index
        self.in_base: Dict[Any, str] = {}
        self.compactions: List[str] = []

    def _inserts_to_base(self) -> bool:
        return not self.bucket_index or not self.records

    def upsert(self, rows: Sequence[Row], instant: str) -> None:
        to_base = self._inserts_to_base()
        fresh = []
        for row in self._combine(rows):
            found = self._find(row)
            if found is None:
                fresh.append(row)
            else:
                self.in_base.pop(found, None)
            self.in_base.pop(self.ident(row), None)
        super().upsert(rows, instant)
        if to_base:
            self.in_base.update({self.ident(r): instant for r in fresh})

    def insert(self, rows: Sequence[Row], instant: str) -> None:
        to_base = self._inserts_to_base()
        super().insert(rows, instant)
        if to_base:
            self.in_base.update({self.ident(r): instant for r in rows})

    def delete(self, rows: Sequence[Row], instant: str) -> None:
        for row in rows:
            found = self._find(row)
            if found is not None:
                self.in_base.pop(found, None)
        super().delete(rows, instant)

    def insert_overwrite(self, rows: Sequence[Row], instant: str) -> None:
        parts = {partition_path(r, self.hive) for r in rows}
        self.in_base = {
            i: c
            for i, c in self.in_base.items()
            if i in self.records and partition_path(self.records[i]["row"], self.hive) not in parts
        }
        super().insert_overwrite(rows, instant)
        self.in_base.update({self.ident(r): instant for r in rows})

    def compaction(self, instant: str) -> None:
        """A completed compaction: every record is in a base file, with its commit time."""
        self.compactions.append(instant)
        self.in_base = {i: rec["commit"] for i, rec in self.records.items()}
        self._commit(instant)

    def versions(self) -> set:
        """Canonical JSON of every record version the table has held at a completed instant
        (data + :data:`MODEL_META`): each read_optimized row must be one of them."""
        seen = set()
        for _, records in self.history:
            for row in self.rows_of(records):
                seen.add(harness.canonical_json(row))
        return seen

    def base_rows(self) -> List[Dict[str, Any]]:
        """Model rows of the records known to be in base files with their current version."""
        known = {i: rec for i, rec in self.records.items() if self.in_base.get(i) == rec["commit"]}
        return self.rows_of(known)


def read_optimized_rows(spark: Any, path: Path) -> List[Dict[str, Any]]:
    return pyhudi_rows(spark, path, READ_OPTIMIZED)


def hudi_rs_read_optimized(path: Path) -> List[Dict[str, Any]]:
    """The read_optimized view (base files of the latest completed slices) by hudi-rs."""
    from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder

    table = HudiTableBuilder.from_base_uri(str(path)).build()
    options = (
        HudiReadOptions()
        .with_query_type(HudiQueryType.Snapshot)
        .with_hudi_option("hoodie.read.use.read_optimized.mode", "true")
    )
    return harness.normalize_arrow(table.read(options))


def assert_read_optimized_agree(spark: Any, path: Path, context: str) -> List[Dict[str, Any]]:
    """pyhudi and hudi-rs read_optimized reads are identical; returns the rows."""
    ours = read_optimized_rows(spark, path)
    assert_same(ours, hudi_rs_read_optimized(path), f"{context}: pyhudi read_optimized vs hudi-rs read_optimized")
    return ours


def assert_meta_consistent_mor(rows: List[Dict[str, Any]], path: Path, context: str) -> None:
    """As :func:`assert_meta_consistent` for merge-on-read tables, where a record read from a
    log file names its file group (the file id) rather than a base file."""
    for row in rows:
        commit, seqno = row["_hoodie_commit_time"], row["_hoodie_commit_seqno"]
        assert seqno.startswith(commit + "_"), (
            f"{context}: seqno {seqno} of commit {commit}: {row['_hoodie_record_key']}"
        )
        name = row["_hoodie_file_name"]
        folder = Path(path) / row["_hoodie_partition_path"]
        if name.endswith(".parquet"):
            ok = (folder / name).is_file()
        else:  # a file id: some base or log file of that group exists in the partition
            ok = any(p.name.startswith(name + "_") or p.name.startswith("." + name + "_") for p in folder.iterdir())
        assert ok, (
            f"{context}: _hoodie_file_name {name} of {row['_hoodie_record_key']} is neither a base "
            f"file nor a file group in {folder}"
        )


def new_instants(path: Path, before: Sequence[Tuple[str, str]], context: str) -> List[Tuple[str, str]]:
    """Completed instants added since ``before`` (oldest first); each newer than all of ``before``."""
    known = set(before)
    added = [i for i in harness.completed_instants(path) if i not in known]
    for instant, _ in added:
        assert all(instant > i for i, _ in before), f"{context}: instant {instant} is not newer than the timeline"
    return added


def commit_metadata(path: Path, instant: str, action: str) -> Dict[str, Any]:
    import json

    with open(Path(path) / ".hoodie" / f"{instant}.{action}", encoding="utf-8") as f:
        return json.load(f)


def assert_compaction_instant(path: Path, instant: str, context: str) -> None:
    """``instant`` is a completed compaction: ``<T>.commit`` with ``compacted: true`` after
    ``compaction.requested`` and ``compaction.inflight``."""
    names = set(harness.timeline_files(path))
    for suffix in ("commit", "compaction.requested", "compaction.inflight"):
        assert f"{instant}.{suffix}" in names, f"{context}: no {instant}.{suffix} in .hoodie: {sorted(names)}"
    meta = commit_metadata(path, instant, "commit")
    assert meta.get("compacted") is True, f"{context}: {instant}.commit has compacted={meta.get('compacted')!r}"
    assert meta.get("operationType") == "COMPACT", (
        f"{context}: {instant}.commit operationType={meta.get('operationType')!r}"
    )


class Batches:
    """Write batches for the differential tests, drawn from the model's stored records.

    Mixed into a sequence class that sets ``rng``, ``gen`` (a row generator), ``model`` and
    ``index``; ``UPSERT_UPDATES`` is the range of stored records an upsert updates.
    """

    UPSERT_UPDATES: Tuple[int, int] = (5, 10)

    rng: random.Random
    gen: Any
    model: Any
    index: Any

    def _stored_rows(self) -> List[Row]:
        return [rec["row"] for rec in self.model.records.values()]

    def _fresh_rows(self, n: int) -> List[Row]:
        return [self.gen.row(self.gen.fresh_key(), self.gen.partition()) for _ in range(n)]

    def batch_insert(self, n: int) -> List[Row]:
        return self._fresh_rows(n)

    def batch_upsert(self) -> List[Row]:
        stored = self._stored_rows()
        rng = self.rng
        rows: List[Row] = []
        for old in rng.sample(stored, min(len(stored), rng.randrange(*self.UPSERT_UPDATES))):
            part = (old[2], old[3])
            # Global indexes: some updates move the record to another partition. Non-global:
            # an occasional "move" is an insert into the new partition (the old row stays).
            if rng.random() < (0.35 if self.index.is_global else 0.1):
                part = self._other_partition(part)
            rows.append(self.gen.row((old[0], old[1]), part))
        rows += self._fresh_rows(rng.randrange(3, 7))
        # In-batch duplicates with distinct precombine values; the largest must win, whatever
        # its position in the batch. Global: a duplicate may carry another partition.
        for original in rng.sample(rows, min(len(rows), 4)):
            part = (original[2], original[3])
            if self.index.is_global and rng.random() < 0.5:
                part = self._other_partition(part)
            used = {r[4] for r in rows if record_key(r) == record_key(original)}
            ts = self.gen.ts()
            while ts in used:
                ts += 1
            rows.append(self.gen.row((original[0], original[1]), part, ts))
        rng.shuffle(rows)
        return rows

    def batch_delete(self) -> List[Row]:
        stored = self._stored_rows()
        rng = self.rng
        rows = list(rng.sample(stored, min(len(stored), rng.randrange(3, 7))))
        if self.index.is_global and rows:
            # Global indexes find the key whatever partition the delete row names.
            victim = rows.pop()
            rows.append(self.gen.row((victim[0], victim[1]), self._other_partition((victim[2], victim[3]))))
        rows += self._fresh_rows(3)  # unknown keys: ignored
        rng.shuffle(rows)
        return rows

    def batch_insert_overwrite(self) -> List[Row]:
        rng = self.rng
        partitions = sorted({(r[2], r[3]) for r in self._stored_rows()})
        chosen = rng.sample(partitions, min(len(partitions), rng.randrange(1, 3)))
        rows: List[Row] = []
        for part in chosen:
            # Keys currently in the overwritten partition may come back; all others are fresh.
            inside = [r for r in self._stored_rows() if (r[2], r[3]) == part]
            for old in rng.sample(inside, min(len(inside), 2)):
                rows.append(self.gen.row((old[0], old[1]), part))
            rows += [self.gen.row(self.gen.fresh_key(), part) for _ in range(rng.randrange(2, 5))]
        return rows

    def _other_partition(self, part: Tuple[str, int]) -> Tuple[str, int]:
        while True:
            other = self.gen.partition()
            if other != part:
                return other


# ---- writers held before their commit (scripted interleavings of concurrent writers)

PAUSE = "pyhudi.test.pause"


def wait_for(path: Path, what: str, writer: Optional[Any] = None) -> None:
    """Wait (up to 240 s) until ``path`` exists, failing early when ``writer`` ended first."""
    deadline = time.monotonic() + 240
    while not path.exists():
        assert time.monotonic() < deadline, f"{what} never happened"
        if writer is not None:
            assert writer.is_alive(), f"the writer ended before {what}: {writer.outcome}"
        time.sleep(0.05)


class PausedWriter(threading.Thread):
    """Writes ``rows`` of ``schema`` in its own thread of the session's Spark, held before its
    commit (``io.pyhudi.table.PausePoint``, a gate file named by the thread's Spark local property
    ``pyhudi.test.pause``) until :meth:`commit`."""

    def __init__(
        self, spark: Any, path: Path, gate: Path, options: Dict[str, str], rows: List[Any], schema: str
    ) -> None:
        super().__init__(daemon=True)
        self.spark, self.path, self.gate, self.options, self.rows = spark, path, gate, options, rows
        self.schema = schema
        self.outcome: Any = None
        Path(str(gate) + ".before-commit").write_text("closed")

    def run(self) -> None:
        self.spark.sparkContext.setLocalProperty(PAUSE, str(self.gate))
        try:
            with errors.translated():
                df = self.spark.createDataFrame(self.rows, self.schema)
                df.write.format("pyhudi").options(**self.options).mode("append").save(str(self.path))
            self.outcome = "committed"
        except Exception as e:  # judged by the test
            self.outcome = e
        finally:
            self.spark.sparkContext.setLocalProperty(PAUSE, None)

    def started(self) -> "PausedWriter":
        self.start()
        wait_for(Path(str(self.gate) + ".before-commit.reached"), "the writer reached its commit", self)
        return self

    def commit(self) -> Any:
        Path(str(self.gate) + ".before-commit").unlink()
        self.join(timeout=240)
        assert not self.is_alive(), "the writer did not finish"
        return self.outcome
