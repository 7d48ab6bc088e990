# SPDX-License-Identifier: Apache-2.0
"""The benchmark's input, generated once by ``bench/run.py`` and read by every system worker.

Usage: generate.py ROWS PARTITIONS OUT_DIR

Trips: ``trip_id`` is a time-ordered key (a later trip has a larger id and a later
``pickup_time``), ``day`` the partition (``PARTITIONS`` consecutive days, the same number of
trips each), ``ts`` the ordering field, and ten more columns of mixed types. Every value is a
function of the id and a fixed salt, so the data are the same on every run and machine. Written
as parquet folders under OUT_DIR:

- ``table``: ROWS trips; ``small``: every tenth trip (a table a tenth the size, same days);
- ``upsert_1_uniform``, ``upsert_10_uniform``: 1% and 10% of the trips, spread over every day,
  with new values (a later ``ts``, another fare, tip and note);
- ``upsert_1_skewed``, ``upsert_10_skewed``: as many trips, taken from the most recent 10% and
  20% of the days (late-arriving facts);
- ``delete_1``: 1% of the trips (a later ``ts``), none of them in ``upsert_scale``;
- ``upsert_scale``: 1% of the trips of ``small``, the same batch for the table and for small.
"""

import os
import sys


def main() -> int:
    rows, partitions, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("bench-generate")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    day_ms = 86_400_000
    start_ms = 1_767_225_600_000  # 2026-01-01T00:00:00Z
    # the trip's offset in the whole span, so day d holds ids [d*rows/P, (d+1)*rows/P)
    offset = f"cast(id * {partitions * day_ms} / {rows} as bigint)"
    trips = spark.range(0, rows, 1, max(2, rows // 500_000)).selectExpr(
        "id as trip_id",
        f"{start_ms} + {offset} as ts",
        f"timestamp_millis({start_ms} + {offset}) as pickup_time",
        f"date_format(timestamp_millis({start_ms} + {offset}), 'yyyy-MM-dd') as day",
        "cast(pmod(xxhash64(id, 11), 50000) as int) as driver_id",
        "pmod(xxhash64(id, 12), 10000000) as rider_id",
        "element_at(array('acme', 'bolt', 'cabco', 'dash'), cast(pmod(xxhash64(id, 13), 4) as int) + 1) as vendor",
        "element_at(array('card', 'cash', 'wallet'), cast(pmod(xxhash64(id, 14), 3) as int) + 1) as payment",
        "cast(pmod(xxhash64(id, 15), 4) as int) + 1 as passengers",
        "round(pmod(xxhash64(id, 16), 30000) / 1000.0, 3) as distance_km",
        "cast(pmod(xxhash64(id, 17), 9000) / 100.0 + 3 as decimal(10, 2)) as fare",
        "cast(pmod(xxhash64(id, 18), 2000) / 100.0 as float) as tip",
        "pmod(xxhash64(id, 19), 5) = 0 as shared",
        "repeat(concat('note-', cast(pmod(xxhash64(id, 20), 1000) as string), ' '), cast(pmod(id, 4) as int)) as notes",
    )
    write = lambda df, name: df.write.mode("overwrite").parquet(os.path.join(out, name))  # noqa: E731
    write(trips, "table")
    t = spark.read.parquet(os.path.join(out, "table"))

    def changed(df, salt):  # type: ignore[no-untyped-def]
        return df.selectExpr(
            *[c for c in t.columns if c not in ("ts", "fare", "tip", "notes")],
            "ts + 1 as ts",
            f"cast(fare + {salt} as decimal(10, 2)) as fare",
            f"cast(tip + {salt} as float) as tip",
            f"concat(notes, 'u{salt}') as notes",
        ).select(*t.columns)

    recent10 = int(rows * 0.9)
    recent20 = int(rows * 0.8)
    not_scale = "pmod(xxhash64(trip_id, 3), 100) != 0 or pmod(trip_id, 10) != 0"
    write(t.where("pmod(trip_id, 10) = 0"), "small")
    write(changed(t.where("pmod(xxhash64(trip_id, 1), 100) = 0"), 1), "upsert_1_uniform")
    write(changed(t.where("pmod(xxhash64(trip_id, 2), 10) = 0"), 2), "upsert_10_uniform")
    write(changed(t.where(f"trip_id >= {recent10} and pmod(xxhash64(trip_id, 4), 10) = 0"), 3), "upsert_1_skewed")
    write(changed(t.where(f"trip_id >= {recent20} and pmod(xxhash64(trip_id, 5), 2) = 0"), 4), "upsert_10_skewed")
    # a later ts than any upsert gives it, so no ordering field can keep a deleted row
    deletes = t.where(f"pmod(xxhash64(trip_id, 6), 100) = 0 and ({not_scale})")
    write(deletes.withColumn("ts", deletes["ts"] + 1000), "delete_1")
    write(changed(t.where("pmod(trip_id, 10) = 0 and pmod(xxhash64(trip_id, 3), 100) = 0"), 5), "upsert_scale")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
