# SPDX-License-Identifier: Apache-2.0
"""Locating the bundled connector jar and adding it to a ``SparkSession.Builder``."""

import os
import re
import warnings
from typing import Any, List, Tuple

from pyhudi.version import __version__

__all__ = ["jar_path", "configure_spark", "KRYO_REGISTRATOR", "SUPPORTED_PYSPARK"]

JAR_NAME = f"pyhudi-spark4_2.13-{__version__}.jar"

KRYO_REGISTRATOR = "io.pyhudi.spark.PyhudiKryoRegistrator"
"""The connector's Kryo registrator: needed when ``spark.kryo.registrationRequired`` is true."""

_KRYO_SERIALIZER = "org.apache.spark.serializer.KryoSerializer"

SUPPORTED_PYSPARK = ((4, 0, 0), (4, 4, 0))
"""PySpark versions the jar is built and tested for: ``lower <= version < upper``."""


def jar_path() -> str:
    """Return the absolute path of the connector jar shipped inside this package.

    Use it where a session is not built from Python, e.g. with ``spark-submit``::

        spark-submit --jars "$(python -c 'import pyhudi; print(pyhudi.jar_path())')" app.py

    :raises FileNotFoundError: when the package was installed without the jar.
    """
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jars", JAR_NAME)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"pyhudi's connector jar is missing: {path}. This pyhudi installation was built "
            "without it. In a source checkout run `build/sbt connector/assembly`, then "
            "reinstall the package (`pip install .`)."
        )
    return path


def configure_spark(builder: Any) -> Any:
    """Add the connector jar to ``spark.jars`` of a session builder and return the builder.

    A ``spark.jars`` value already set on the builder is kept: the jar is appended to it.
    When the builder sets ``spark.serializer`` to Kryo, the connector's Kryo registrator
    (:data:`KRYO_REGISTRATOR`) is appended the same way to ``spark.kryo.registrator``: with
    ``spark.kryo.registrationRequired`` on, Kryo refuses the classes pyhudi's jobs ship unless
    they are registered. Set the serializer before calling this, or add the registrator yourself.
    Spark reads ``spark.jars`` only when its JVM starts, so call this before the first
    session or context of the process is created.

    >>> from pyspark.sql import SparkSession
    >>> import pyhudi
    >>> spark = pyhudi.configure_spark(SparkSession.builder.master("local[2]")).getOrCreate()
    >>> df = spark.read.format("pyhudi").load("/data/trips")  # doctest: +SKIP

    Values set outside the builder (``spark-defaults.conf``, ``--jars`` in
    ``PYSPARK_SUBMIT_ARGS``) are replaced by the builder's ``spark.jars``; pass the jar
    there instead (see :func:`jar_path`).

    :param builder: a ``pyspark.sql.SparkSession.Builder`` (classic, not Spark Connect).
    :raises RuntimeError: if a SparkContext is already running in this process.
    :raises FileNotFoundError: if the package has no jar (see :func:`jar_path`).
    """
    _check_pyspark_version()
    _check_no_active_context()
    jar = jar_path()
    options = getattr(builder, "_options", None)
    if options is None or not hasattr(builder, "config"):
        raise TypeError(f"configure_spark expects a pyspark.sql.SparkSession.Builder, got {type(builder)!r}")
    jars = _split_list(options.get("spark.jars"))
    if jar not in jars:
        jars.append(jar)
    builder = builder.config("spark.jars", ",".join(jars))
    if str(options.get("spark.serializer", "")).strip() == _KRYO_SERIALIZER:
        registrators = _split_list(options.get("spark.kryo.registrator"))
        if KRYO_REGISTRATOR not in registrators:
            registrators.append(KRYO_REGISTRATOR)
        builder = builder.config("spark.kryo.registrator", ",".join(registrators))
    return builder


def _split_list(value: Any) -> List[str]:
    if value is None:
        return []
    return [j.strip() for j in str(value).split(",") if j.strip()]


def _check_no_active_context() -> None:
    try:
        from pyspark import SparkContext
    except ImportError as e:  # pragma: no cover - pyspark is the user's choice
        raise ImportError("pyhudi needs PySpark: pip install 'pyhudi[spark]'") from e
    if SparkContext._active_spark_context is not None:
        raise RuntimeError(
            "configure_spark must be called before the first SparkSession or SparkContext of "
            "the process is created: spark.jars is only read when Spark's JVM starts, so the "
            "pyhudi jar would not be loaded. Call it on the builder of your first session, or "
            "start the application with `spark-submit --jars <pyhudi.jar_path()>`."
        )


def _parse_version(text: str) -> Tuple[int, int, int]:
    match = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    if match is None:
        raise ValueError(f"Cannot parse version {text!r}")
    major, minor, patch = (int(g) if g else 0 for g in match.groups())
    return major, minor, patch


def _check_pyspark_version() -> None:
    try:
        import pyspark
    except ImportError as e:  # pragma: no cover - pyspark is the user's choice
        raise ImportError("pyhudi needs PySpark: pip install 'pyhudi[spark]'") from e
    version = pyspark.__version__
    lower, upper = SUPPORTED_PYSPARK
    try:
        supported = lower <= _parse_version(version) < upper
    except ValueError:
        supported = False
    if not supported:
        warnings.warn(
            f"pyhudi {__version__} supports PySpark >= {_dotted(lower)}, < {_dotted(upper[:2])}; "
            f"found {version}. The connector may fail to load or misbehave.",
            RuntimeWarning,
            stacklevel=3,
        )


def _dotted(version: Tuple[int, ...]) -> str:
    return ".".join(str(v) for v in version)
