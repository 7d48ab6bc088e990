# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the integration tests: one local SparkSession and the unzipped corpus.

Run from the repository root with the installed package (it provides the jar)::

    pip install . && python -m pytest integration-tests -q
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

import harness
import pytest

_SCRATCH = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Spark's scratch folders (block managers, user files) of this process and of every process
    it starts go into one folder removed at the end: the tests kill some of those processes on
    purpose, and a killed JVM cannot remove its own. So does each JVM's ``java.io.tmpdir`` (set
    through ``SPARK_SUBMIT_OPTS``, which every JVM started by ``spark-submit`` or PySpark reads):
    Spark's ``spark-*`` and ``artifacts-*`` folders and the native snappy and lz4 libraries the
    JVMs unpack would otherwise stay in the system's temporary folder."""
    scratch = tempfile.mkdtemp(prefix="pyhudi-it-spark-")
    os.environ["SPARK_LOCAL_DIRS"] = scratch
    java_tmp = os.path.join(scratch, "java-tmp")
    os.mkdir(java_tmp)
    options = os.environ.get("SPARK_SUBMIT_OPTS", "")
    os.environ["SPARK_SUBMIT_OPTS"] = f"{options} -Djava.io.tmpdir={java_tmp}".strip()
    config.stash[_SCRATCH] = scratch


def pytest_unconfigure(config: pytest.Config) -> None:
    scratch = config.stash.get(_SCRATCH, None)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """The single SparkSession of the run, with the pyhudi jar on its classpath."""
    from pyspark.sql import SparkSession

    import pyhudi

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _zookeeper_answers(port: int) -> bool:
    """True when the server answers the ``srvr`` four-letter command (ZooKeeper's default
    whitelist), i.e. it serves clients, not merely listens."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"srvr")
            return b"Zookeeper version" in s.recv(4096)
    except OSError:
        return False


@pytest.fixture(scope="session")
def zookeeper() -> Iterator[Tuple[str, int]]:
    """A real ZooKeeper server, a process of its own for the whole run, started from the
    ZooKeeper jars PySpark ships (``ZooKeeperServerMain <port> <data dir>``); yields
    ``(host, port)``. Stopped, and its folder deleted, at the end."""
    import pyspark

    jars = Path(pyspark.__file__).parent / "jars"
    if not list(jars.glob("zookeeper-*.jar")):
        pytest.skip(f"no ZooKeeper jar in {jars}")
    folder = Path(tempfile.mkdtemp(prefix="pyhudi-zookeeper-"))
    port = _free_port()
    java = str(Path(os.environ["JAVA_HOME"]) / "bin" / "java") if "JAVA_HOME" in os.environ else "java"
    command = [
        java,
        "-Xmx128m",
        "-Dzookeeper.admin.enableServer=false",  # else an HTTP admin server takes port 8080
        "-cp",
        f"{jars}/*",
        "org.apache.zookeeper.server.ZooKeeperServerMain",
        str(port),
        str(folder / "data"),
    ]
    with open(folder / "server.log", "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not _zookeeper_answers(port):
            if server.poll() is not None or time.monotonic() > deadline:
                tail = (folder / "server.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"ZooKeeper did not start on port {port}:\n{tail}")
            time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)
