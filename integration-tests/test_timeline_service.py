# SPDX-License-Identifier: Apache-2.0
"""The driver's timeline service and timeline-server-based markers (docs/timeline-service.md).

Writes through ``format("pyhudi")`` send their markers to the service by default; the service is
started once per SparkSession and reused. A service that dies in the middle of a write (a fault
injected after a few marker requests) makes the tasks create direct markers: the write still
commits exactly, and the next write starts a new service. ``DIRECT`` markers and
``hoodie.embed.timeline.server=false`` bypass it. (A driver killed mid-write, whose ``MARKERS<n>``
files the next writer rolls back from, is covered in test_write_recovery.py.)
"""

from pathlib import Path
from typing import Any, Dict, List, Tuple

import harness

Row = Tuple[str, str, int, str]
COLUMNS = ("key", "part", "ts", "v")
OPTIONS = {
    "hoodie.table.name": "tls",
    "hoodie.datasource.write.recordkey.field": "key",
    "hoodie.datasource.write.partitionpath.field": "part",
    "hoodie.datasource.write.precombine.field": "ts",
}


def _jvm(spark: Any) -> Any:
    return spark._jvm.io.pyhudi


def _counters(spark: Any) -> Tuple[int, int]:
    markers = _jvm(spark).timelineservice.TimelineServerMarkers
    return int(markers.servedCount()), int(markers.fallbackCount())


def _port(spark: Any) -> int:
    return int(_jvm(spark).spark.services.EmbeddedTimelineService.port())


def _write(spark: Any, path: Path, rows: List[Row], table_type: str, **extra: str) -> None:
    df = spark.createDataFrame(rows, "key string, part string, ts long, v string").repartition(4)
    df.write.format("pyhudi").options(**OPTIONS).option("hoodie.datasource.write.table.type", table_type).options(
        **extra
    ).mode("append").save(str(path))


def _read(spark: Any, path: Path) -> List[Row]:
    return sorted(tuple(r) for r in harness.read_table(spark, path).select(*COLUMNS).collect())


def _rows(n: int, ts: int, tag: str, parts: int = 8) -> List[Row]:
    return [(f"k{i:04d}", f"p{i % parts}", ts, f"{tag}{i}") for i in range(n)]


def _model(*batches: List[Row]) -> List[Row]:
    state: Dict[str, Row] = {}
    for batch in batches:
        for r in batch:
            state[r[0]] = r
    return sorted(state.values())


def test_markers_go_through_one_service_per_session(spark, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    served, fallbacks = _counters(spark)
    load = _rows(200, 1, "a")
    _write(spark, first, load, "COPY_ON_WRITE")
    port = _port(spark)
    assert port > 0
    after_first = _counters(spark)
    # One marker per base file: 8 partitions, 4 tasks.
    assert after_first[0] - served >= 8 and after_first[1] == fallbacks

    # Another table and a merge-on-read append: the same service.
    _write(spark, second, load, "MERGE_ON_READ")
    update = _rows(100, 2, "b")
    _write(spark, second, update, "MERGE_ON_READ")
    assert _port(spark) == port
    assert _counters(spark)[0] > after_first[0] and _counters(spark)[1] == fallbacks
    assert _read(spark, first) == sorted(load)
    assert _read(spark, second) == _model(load, update)
    assert _read(spark, second) == sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(second))
    # The committed writes left no marker folders.
    assert not any((second / ".hoodie" / ".temp").iterdir())


def test_service_dying_mid_write_falls_back_to_direct_markers(spark, tmp_path):
    path = tmp_path / "t"
    load = _rows(400, 1, "a")
    _write(spark, path, load, "COPY_ON_WRITE")
    before = _port(spark)
    served, fallbacks = _counters(spark)
    # The service stops after two more marker requests, in the middle of the next write.
    _jvm(spark).spark.services.EmbeddedTimelineService.stopAfterMarkers(2)
    update = _rows(400, 2, "b") + [(f"n{i}", f"p{i % 8}", 2, "new") for i in range(40)]
    _write(spark, path, update, "COPY_ON_WRITE")
    now_served, now_fallbacks = _counters(spark)
    assert now_served - served == 2, "the service should have taken exactly two markers"
    assert now_fallbacks - fallbacks >= 6, "the other tasks should have created direct markers"
    expected = _model(load, update)
    assert _read(spark, path) == expected
    assert sorted(tuple(r[c] for c in COLUMNS) for r in harness.hudi_rs_read(path)) == expected
    assert not any((path / ".hoodie" / ".temp").iterdir())

    # The next write starts a new service and uses it.
    more = _rows(50, 3, "c")
    _write(spark, path, more, "COPY_ON_WRITE")
    assert _port(spark) > 0 and _port(spark) != before or _counters(spark)[0] > now_served
    assert _counters(spark)[1] == now_fallbacks
    assert _read(spark, path) == _model(load, update, more)


def test_direct_markers_and_disabled_service_bypass_it(spark, tmp_path):
    served, fallbacks = _counters(spark)
    a, b = tmp_path / "direct", tmp_path / "off"
    rows = _rows(100, 1, "a")
    _write(spark, a, rows, "MERGE_ON_READ", **{"hoodie.write.markers.type": "DIRECT"})
    _write(spark, a, _rows(30, 2, "b"), "MERGE_ON_READ", **{"hoodie.write.markers.type": "direct"})
    _write(spark, b, rows, "COPY_ON_WRITE", **{"hoodie.embed.timeline.server": "false"})
    assert _counters(spark) == (served, fallbacks)
    assert _read(spark, a) == _model(rows, _rows(30, 2, "b"))
    assert _read(spark, b) == sorted(rows)


def test_bad_marker_options_fail_before_anything_is_written(spark, tmp_path):
    import pytest

    from pyhudi.errors import InvalidOptionError, translated

    path = tmp_path / "bad"
    for key, value in [
        ("hoodie.write.markers.type", "EVERYWHERE"),
        ("hoodie.embed.timeline.server.port", "70000"),
        ("hoodie.markers.timeline_server_based.batch.num_threads", "0"),
    ]:
        with pytest.raises(InvalidOptionError) as err, translated():
            _write(spark, path, _rows(3, 1, "a"), "COPY_ON_WRITE", **{key: value})
        assert key in str(err.value)
        assert not path.exists() or not harness.completed_instants(path)


def test_view_lookups_from_tasks_through_the_service_and_without(spark, tmp_path):
    from hudi import HudiTableBuilder

    path = tmp_path / "view"
    load = _rows(300, 1, "a", parts=12)
    _write(spark, path, load, "MERGE_ON_READ")
    _write(spark, path, _rows(120, 2, "b", parts=12), "MERGE_ON_READ")
    slices = HudiTableBuilder.from_base_uri(str(path)).build().get_file_slices()
    truth = {(s.partition_path, s.file_id): s.base_file_name for s in slices}
    asks = [[p, f] for (p, f) in truth] * 5 + [["p0", "no-such-group"]]
    expected = [truth.get((p, f), "") for p, f in asks]

    lookups = _jvm(spark).spark.services.ViewLookups
    remote, fallbacks = int(lookups.remoteAnswers()), int(lookups.fallbacks())
    assert list(lookups.latestBaseFiles(spark._jsparkSession, str(path), asks, 4, True)) == expected
    assert int(lookups.remoteAnswers()) - remote == len(asks) and int(lookups.fallbacks()) == fallbacks
    assert list(lookups.latestBaseFiles(spark._jsparkSession, str(path), asks, 4, False)) == expected
    assert int(lookups.remoteAnswers()) - remote == len(asks)

    # With the service gone (nothing listens at the address), every task falls back to its own
    # view, once, and answers the same.
    remote = int(lookups.remoteAnswers())
    assert list(lookups.latestBaseFilesVia(spark._jsparkSession, str(path), asks, 4, "127.0.0.1:9")) == expected
    assert int(lookups.fallbacks()) - fallbacks == 4 and int(lookups.remoteAnswers()) == remote
