# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the integration tests: one local SparkSession and the unzipped corpus.

Run from the repository root with the installed package (it provides the jar)::

    pip install . && python -m pytest integration-tests -q
"""

import shutil
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

import harness


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """The single SparkSession of the run, with the pyhudi jar on its classpath."""
    import pyhudi
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName("pyhudi-integration-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
    )
    session = pyhudi.configure_spark(builder).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """Every corpus table unzipped once: ``{"mor/v6_trips_8i1u": <base path>, ...}``.

    Read-only by convention: tests that modify a table work on :func:`table_copy`.
    """
    return harness.extract_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture
def table_copy(corpus: Dict[str, Path], tmp_path: Path) -> Callable[[str], Path]:
    """Copy a corpus table into this test's tmp folder; returns the copy's base path."""

    def copy(name: str) -> Path:
        target = tmp_path / name.replace("/", "_")
        shutil.copytree(corpus[name], target)
        return target

    return copy


@pytest.fixture(scope="session")
def load_expected() -> Callable[[str], Dict[str, Any]]:
    return harness.load_expected


@pytest.fixture
def collect_normalized() -> Callable[[Any], List[Dict[str, Any]]]:
    """Collect a DataFrame into expected-JSON rows."""

    def collect(df: Any) -> List[Dict[str, Any]]:
        return harness.normalize_rows(df.collect(), df.schema)

    return collect

