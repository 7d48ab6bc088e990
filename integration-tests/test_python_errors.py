# SPDX-License-Identifier: Apache-2.0
"""pyhudi.errors: every JVM exception class has a Python twin, and pyhudi's helpers and the
DataFrame API (once pyhudi is imported) raise those classes."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import pyhudi
from pyhudi import errors

REPO = Path(__file__).resolve().parents[1]
ERRORS_SOURCE = REPO / "spark-connector/src/main/scala/io/pyhudi/errors"
ERRORS_DOC = REPO / "docs/errors.md"


def test_every_jvm_exception_class_has_a_python_class():
    scala = set()
    for source in ERRORS_SOURCE.glob("*.scala"):
        scala |= set(re.findall(r"^(?:final )?class (\w+Exception)\b", source.read_text(), re.M))
    assert "PyhudiException" in scala
    assert scala == set(errors._classes()), "pyhudi/errors.py and io.pyhudi.errors differ"
    for name, cls in errors._classes().items():
        assert issubclass(cls, errors.PyhudiError) and cls.__name__ in errors.__all__, name


def test_every_error_id_maps_to_twin_classes():
    # docs/errors.md is generated from io.pyhudi.errors.ErrorId (a Scala suite keeps it fresh).
    rows = re.findall(
        r"^\| `([A-Z0-9_]+)` \| `pyhudi\.errors\.(\w+)` \| `io\.pyhudi\.errors\.(\w+)` \|", ERRORS_DOC.read_text(), re.M
    )
    scala_ids = set(re.findall(r'define\("([A-Z0-9_]+)"', (ERRORS_SOURCE / "ErrorId.scala").read_text()))
    assert len(rows) > 40 and {r[0] for r in rows} == scala_ids
    for error_id, python_class, java_class in rows:
        assert errors._classes()[java_class] is getattr(errors, python_class), error_id


def test_error_id_is_parsed_from_the_message_prefix():
    e = errors.MissingFileError("[MISSING_FILE] File /t/a.parquet, written by completed instant 001, ...")
    assert e.error_id == "MISSING_FILE" and e.message.startswith("[MISSING_FILE] File")
    assert errors.PyhudiError("no id here").error_id is None
    assert errors.PyhudiError("[X] m", error_id="WRITE_CONFLICT").error_id == "WRITE_CONFLICT"


def test_reading_a_missing_path_raises_table_not_found(spark, tmp_path):
    with pytest.raises(errors.TableNotFoundError) as caught:
        pyhudi.read(spark, tmp_path / "nothing-here")
    assert caught.value.java_class == "io.pyhudi.errors.TableNotFoundException"
    assert caught.value.error_id == "PATH_NOT_FOUND"
    assert str(tmp_path / "nothing-here") in caught.value.message


def test_writing_a_null_key_raises_invalid_record(spark, tmp_path):
    df = spark.createDataFrame([(None, "a", 1)], "id string, part string, ts long")
    with pytest.raises(errors.InvalidRecordError) as caught:
        pyhudi.write(df, tmp_path / "t", table_name="t", record_key="id", partition_by="part", precombine="ts")
    assert caught.value.error_id == "NULL_OR_EMPTY_RECORD_KEY"
    assert not (tmp_path / "t").exists()


def test_translated_maps_errors_of_the_dataframe_api(spark, tmp_path):
    df = spark.createDataFrame([("k", "a", 1)], "id string, part string, ts long")
    with pytest.raises(errors.InvalidOptionError) as caught:
        with errors.translated():
            (
                df.write.format("pyhudi")
                .option("hoodie.table.name", "t")
                .option("hoodie.datasource.write.recordkey.field", "id")
                .option("hoodie.datasource.write.operation", "no_such_operation")
                .mode("append")
                .save(str(tmp_path / "t"))
            )
    assert caught.value.error_id == "INVALID_OPTION_VALUE"
    assert "no_such_operation" in caught.value.message
    with errors.translated():  # errors that are not pyhudi's pass through unchanged
        with pytest.raises(ZeroDivisionError):
            1 / 0  # noqa: B018


def test_import_and_jar_path_work_without_pyspark():
    code = "import sys; sys.modules['pyspark'] = None\nimport pyhudi, pyhudi.errors; print(pyhudi.jar_path())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith(".jar")


def test_the_dataframe_api_raises_pyhudi_classes_and_leaves_other_errors_alone(spark, tmp_path):
    from pyspark.errors import AnalysisException

    df = spark.createDataFrame([("a", "p", 1)], "id string, part string, ts long")
    with pytest.raises(errors.InvalidOptionError) as caught:
        df.write.format("pyhudi").options(
            **{
                "hoodie.table.name": "t",
                "hoodie.datasource.write.recordkey.field": "id",
                "hoodie.datasource.write.operation": "upsertt",
            }
        ).save(str(tmp_path / "t"))
    assert caught.value.error_id == "INVALID_OPTION_VALUE" and "upsertt" in caught.value.message
    assert caught.value.__cause__ is not None, "chained to py4j's error, which keeps the JVM stack"
    assert not (tmp_path / "t").exists()
    with pytest.raises(errors.TableNotFoundError):
        spark.read.format("pyhudi").load(str(tmp_path / "nothing-here")).collect()
    # Spark's own errors keep PySpark's classes.
    with pytest.raises(AnalysisException) as other:
        spark.read.parquet(str(tmp_path / "no-parquet-here")).collect()
    assert not isinstance(other.value, errors.PyhudiError)
    # A session made after the import (PySpark installs its handler again) keeps the translation.
    other_session = spark.newSession()
    with pytest.raises(errors.TableNotFoundError):
        other_session.read.format("pyhudi").load(str(tmp_path / "nothing-here")).collect()
