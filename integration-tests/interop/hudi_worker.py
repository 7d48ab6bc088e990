# SPDX-License-Identifier: Apache-2.0
"""An Apache Hudi Spark process that the interop tests drive over stdin/stdout.

Runs under PySpark 3.5 with Apache Hudi's Spark 3.5 bundle (no Spark 4 bundle is published), in
its own JVM, with Hudi's default settings (metadata table on) unless a command's options say
otherwise. One JSON command per input line; one JSON answer per command on stdout, on a line
that starts with ``@@hudi`` (Spark may print other lines).

Commands: ``{"op": "write", "path", "schema" (DDL), "rows" (JSON objects), "options", "mode"}``,
``{"op": "read", "path", "options"}`` -> ``{"rows": [...]}``, ``{"op": "archived", "path"}`` ->
``{"instants": [[time, action, state], ...], "details": {time: commit JSON}}`` (the archived
timeline as Apache Hudi loads it), ``{"op": "stop"}``.
Usage: ``python hudi_worker.py HUDI_VERSION``.
"""

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rows import frame, normalize_rows  # noqa: E402

PREFIX = "@@hudi "


def session(version: str):  # type: ignore[no-untyped-def]
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName(f"apache-hudi-{version}")
        .config("spark.jars.packages", f"org.apache.hudi:hudi-spark3.5-bundle_2.12:{version}")
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", "1g")
    )
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def handle(spark, cmd):  # type: ignore[no-untyped-def]
    op = cmd["op"]
    if op == "write":
        df = frame(spark, cmd["schema"], cmd["rows"])
        options = {"hoodie.write.table.version": "6", **cmd.get("options", {})}
        df.write.format("hudi").options(**options).mode(cmd.get("mode", "append")).save(cmd["path"])
        return {}
    if op == "read":
        df = spark.read.format("hudi").options(**cmd.get("options", {})).load(cmd["path"])
        return {"rows": normalize_rows(df.collect())}
    if op == "avro":
        return {"record": read_timeline_avro(spark, cmd["file"], cmd["record"])}
    if op == "archived":
        return archived_timeline(spark, cmd["path"])
    raise ValueError(f"unknown op {op}")


def read_timeline_avro(spark, file, record):  # type: ignore[no-untyped-def]
    """A timeline Avro file read into Apache Hudi's generated class ``record`` (its reader schema),
    as the JSON of the record's ``toString``."""
    jvm = spark._jvm
    loader = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    cls = jvm.java.lang.Class.forName(f"org.apache.hudi.avro.model.{record}", True, loader)
    with open(file, "rb") as f:
        data = bytearray(f.read())
    reader = jvm.org.apache.avro.file.DataFileReader(
        jvm.org.apache.avro.file.SeekableByteArrayInput(data), jvm.org.apache.avro.specific.SpecificDatumReader(cls)
    )
    try:
        return json.loads(reader.next().toString())
    finally:
        reader.close()


def archived_timeline(spark, path):  # type: ignore[no-untyped-def]
    """The archived timeline (layout 1) as Apache Hudi's meta client loads it, with the details of
    its completed instants (commit metadata as JSON)."""
    jvm = spark._jvm
    conf = jvm.org.apache.hudi.hadoop.fs.HadoopFSUtils.getStorageConfWithCopy(spark._jsc.hadoopConfiguration())
    client = jvm.org.apache.hudi.common.table.HoodieTableMetaClient.builder().setConf(conf).setBasePath(path).build()
    archived = client.getArchivedTimeline()
    archived.loadCompletedInstantDetailsInMemory()
    instants, details = [], {}
    for i in archived.getInstants():
        time = i.requestedTime() if hasattr(i, "requestedTime") and version_is_1(i) else i.getTimestamp()
        instants.append([str(time), str(i.getAction()), str(i.getState().toString())])
        try:
            raw = archived.getInstantDetails(i)
            if raw.isPresent():
                details[str(time)] = bytes(raw.get()).decode("utf-8")
        except Exception:  # Apache Hudi 1.x reads details through other methods
            pass
    return {"instants": instants, "details": details}


def version_is_1(instant):  # type: ignore[no-untyped-def]
    try:
        instant.requestedTime()
        return True
    except Exception:
        return False


def main() -> None:
    version = sys.argv[1]
    spark = session(version)
    out = sys.stdout
    out.write(PREFIX + json.dumps({"ok": True, "ready": spark.version}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        cmd = json.loads(line)
        if cmd["op"] == "stop":
            break
        try:
            answer = {"ok": True, **handle(spark, cmd)}
        except Exception as e:  # reported to the test, which fails with it
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}"[:4000], "trace": traceback.format_exc()[-4000:]}
        out.write(PREFIX + json.dumps(answer) + "\n")
        out.flush()
    spark.stop()


if __name__ == "__main__":
    main()
