# SPDX-License-Identifier: Apache-2.0
"""Python exception classes for the errors the connector raises on the JVM.

Every ``io.pyhudi.errors.<Name>Exception`` has a twin ``pyhudi.errors.<Name>Error`` here (a test
keeps the two lists equal). pyhudi's own helpers (:func:`pyhudi.read` when it resolves the table,
:func:`pyhudi.write`, the table services) raise these classes; code that uses the DataFrame API
directly gets them as well (below), and :func:`translated` does the same for one block.

Since ``import pyhudi`` installs :func:`install`, the DataFrame API raises these classes too::

    try:
        df.write.format("pyhudi").options(**opts).save(path)
    except pyhudi.errors.InvalidOptionError as e:
        ...

The JVM exception may arrive wrapped (a task failure, Spark's own wrappers); the first pyhudi
exception in its cause chain decides the class, and its message is kept word for word.

Every error also carries a stable id, :attr:`PyhudiError.error_id`: an UPPER_SNAKE_CASE name of
the error condition (``PATH_NOT_FOUND``, ``INVALID_OPTION_VALUE``, ``WRITE_CONFLICT``,
``MISSING_FILE``, ...) that also starts the message in brackets (``[PATH_NOT_FOUND] Path does not
exist: ...``). Ids and classes are stable across releases, message wording is not: branch on
them::

    try:
        pyhudi.write(df, path, record_key="id")
    except pyhudi.errors.WriteConflictError as e:
        if e.error_id != "CONCURRENT_WRITER_ACTIVE":
            raise
        ...  # another writer is still running: retry once it is done

``docs/errors.md`` lists every id with its class and meaning; ``INTERNAL_ERROR`` is a bug in
pyhudi (please report it).
"""

import contextlib
import functools
import re
from typing import Any, Dict, Iterator, Optional, Type

__all__ = [
    "PyhudiError",
    "TableNotFoundError",
    "InvalidTableError",
    "InvalidOptionError",
    "CorruptFileError",
    "MissingFileError",
    "TableExistsError",
    "InstantConflictError",
    "CommitFailedError",
    "CommitStateUnknownError",
    "RollbackFailedError",
    "InvalidRecordError",
    "WriteConflictError",
    "InstantStateError",
    "translated",
    "from_java",
    "install",
]

JVM_PACKAGE = "io.pyhudi.errors."

# The id the JVM puts before every message: "[PATH_NOT_FOUND] Path does not exist: ...".
_ID_PREFIX = re.compile(r"^\[([A-Z][A-Z0-9_]*)\] ")


class PyhudiError(Exception):
    """Base of the errors pyhudi raises on purpose (``io.pyhudi.errors.PyhudiException``).

    :ivar message: the JVM message, word for word (it starts with ``[<error_id>] ``).
    :ivar java_class: the JVM exception's class name.
    :ivar error_id: the stable id of the error condition (``PATH_NOT_FOUND``, ...; see
        ``docs/errors.md``), or None when neither the JVM exception nor the message names one.
    """

    java_class: str = JVM_PACKAGE + "PyhudiException"

    def __init__(self, message: str, java_class: Optional[str] = None, error_id: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        if java_class is not None:
            self.java_class = java_class
        if error_id is None:
            prefix = _ID_PREFIX.match(message)
            error_id = prefix.group(1) if prefix else None
        self.error_id: Optional[str] = error_id


class TableNotFoundError(PyhudiError):
    """The base path does not exist or does not hold a Hudi table."""


class InvalidTableError(PyhudiError):
    """The table exists but cannot be read by this connector (version, layout, bad properties)."""


class InvalidOptionError(PyhudiError):
    """An option has an unknown or malformed value, or conflicts with another one."""


class CorruptFileError(PyhudiError):
    """A data or timeline file cannot be decoded."""


class MissingFileError(PyhudiError):
    """A file that a completed instant wrote, and that the query or write needs, is gone."""


class TableExistsError(PyhudiError):
    """A table already exists where a new one was to be created; nothing was written."""


class InstantConflictError(PyhudiError):
    """A timeline file that must be new already exists; this call published nothing."""


class CommitFailedError(PyhudiError):
    """A write failed before its commit point; nothing was published."""


class CommitStateUnknownError(PyhudiError):
    """Whether the write committed is unknown: reopen the table and check the instant."""


class RollbackFailedError(PyhudiError):
    """A rollback did not finish; the next write resumes it."""


class InvalidRecordError(PyhudiError):
    """A row cannot be written as it is (a null record key, say)."""


class WriteConflictError(PyhudiError):
    """Another writer changed or is writing the table; this write published nothing. Retry it."""


class InstantStateError(PyhudiError):
    """A write or compaction step that its instant's state does not allow (e.g. committing twice)."""


def _classes() -> Dict[str, Type[PyhudiError]]:
    """JVM simple class name -> Python class, for every class defined in this module."""
    out: Dict[str, Type[PyhudiError]] = {}
    for value in list(globals().values()):
        if isinstance(value, type) and issubclass(value, PyhudiError):
            out[value.__name__[: -len("Error")] + "Exception"] = value
    return out


def from_java(java_exception: Any) -> Optional[PyhudiError]:
    """The Python error for a py4j ``JavaObject`` throwable, or None when no pyhudi exception is in
    its cause chain."""
    classes = _classes()
    seen = 0
    current = java_exception
    while current is not None and seen < 20:
        name = current.getClass().getName()
        if name.startswith(JVM_PACKAGE):
            cls = classes.get(name[len(JVM_PACKAGE) :], PyhudiError)
            return cls(str(current.getMessage()), java_class=name, error_id=_error_id(current))
        current = current.getCause()
        seen += 1
    return None


def _error_id(java_exception: Any) -> Optional[str]:
    """``errorId()`` of a JVM ``PyhudiException``; None for a JVM class without it (the message
    prefix is then parsed instead)."""
    try:
        value = java_exception.errorId()
    except Exception:  # py4j raises when the method does not exist
        return None
    return str(value) if value is not None else None


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Re-raise a JVM pyhudi exception raised inside the block as its Python class (chained to the
    original, which keeps the JVM stack trace)."""
    try:
        yield
    except Exception as e:  # py4j's Py4JJavaError, or PySpark's wrappers of it
        java = getattr(e, "java_exception", None)
        if java is None:
            java = getattr(getattr(e, "_origin", None), "java_exception", None)
        error = from_java(java) if java is not None else None
        if error is None:
            raise
        raise error from e


def _translating(get_return_value: Any) -> Any:
    """Wraps py4j's ``get_return_value``: a JVM exception with a pyhudi exception in its cause chain
    leaves as its Python class (chained to py4j's error); every other one as before."""
    if getattr(get_return_value, "_pyhudi_translating", False):
        return get_return_value
    from py4j.protocol import Py4JJavaError  # type: ignore[import-untyped]

    @functools.wraps(get_return_value)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return get_return_value(*args, **kwargs)
        except Py4JJavaError as e:
            error = from_java(e.java_exception)
            if error is None:
                raise
            raise error from e

    call._pyhudi_translating = True  # type: ignore[attr-defined]
    return call


def install() -> None:
    """Makes every py4j call (the DataFrame API included) raise pyhudi's classes for pyhudi's JVM
    exceptions. Idempotent; ``import pyhudi`` calls it.

    py4j calls the JVM through ``py4j.java_gateway.get_return_value``, which PySpark replaces, each
    time a SparkSession is made, with its own translator around ``py4j.protocol.get_return_value``.
    Wrapping the latter puts this translation inside PySpark's, for sessions made later; wrapping
    the former covers a session that exists already. PySpark's translator only handles py4j's
    error, so a pyhudi error passes through it unchanged."""
    try:
        import py4j.java_gateway  # type: ignore[import-untyped]
        import py4j.protocol
    except ImportError:  # the CLI runs without PySpark
        return
    py4j.protocol.get_return_value = _translating(py4j.protocol.get_return_value)
    py4j.java_gateway.get_return_value = _translating(py4j.java_gateway.get_return_value)
