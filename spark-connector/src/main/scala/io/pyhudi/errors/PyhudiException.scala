// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

/**
 * Base of every error pyhudi raises on purpose. Messages start with the stable id of the error
 * condition ([[ErrorId]]) and name the path, option, instant or value at fault, so that a user
 * can act on them without reading a stack trace. `detail` is the message without the id.
 */
class PyhudiException(val error: ErrorId[_ <: PyhudiException], val detail: String, cause: Throwable = null)
    extends RuntimeException(s"[${error.id}] $detail", cause) {

  /** The stable id of the error condition (`PATH_NOT_FOUND`, ...); Python reads it through py4j. */
  def errorId: String = error.id
}

/** The base path does not exist or does not hold a Hudi table. */
class TableNotFoundException(id: ErrorId[TableNotFoundException], detail: String) extends PyhudiException(id, detail)

/** The table exists but cannot be read by this connector (version, layout, bad properties). */
class InvalidTableException(id: ErrorId[InvalidTableException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/** A user option has an unknown key value, a malformed value or conflicts with another one. */
class InvalidOptionException(id: ErrorId[InvalidOptionException], detail: String) extends PyhudiException(id, detail)

/** A data or timeline file cannot be decoded. */
class CorruptFileException(id: ErrorId[CorruptFileException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/**
 * A file that a completed instant wrote, and that the latest file slice of its group must hold,
 * is gone from storage. Serving the rest would return another version of the group's records.
 */
class MissingFileException(id: ErrorId[MissingFileException], detail: String) extends PyhudiException(id, detail)

/** A table already exists where a new one was to be created; nothing was written. */
class TableExistsException(id: ErrorId[TableExistsException], detail: String) extends PyhudiException(id, detail)

/**
 * A timeline state file that must be new already exists: another writer, or an earlier attempt,
 * used the same instant. This call published nothing.
 */
class InstantConflictException(id: ErrorId[InstantConflictException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/**
 * A write failed before its commit point. Nothing was published: rolling the instant back
 * (`WriteTransaction.abort`) is safe, and so is retrying the write with a new instant.
 */
class CommitFailedException(id: ErrorId[CommitFailedException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/**
 * Writing the completed instant file failed in a way that leaves its outcome unknown. Do not
 * roll back or delete any file: reopen the table and check whether the instant completed.
 */
class CommitStateUnknownException(id: ErrorId[CommitStateUnknownException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/**
 * A rollback did not finish. Its pending rollback instant stays on the timeline and
 * `WriteTransaction.rollbackFailedWrites` resumes it; readers already ignore the target's data.
 */
class RollbackFailedException(id: ErrorId[RollbackFailedException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/** A row cannot be written as it is (null record key, partition value that gives no path). */
class InvalidRecordException(id: ErrorId[InvalidRecordException], detail: String) extends PyhudiException(id, detail)

/**
 * Another writer changed the table while this one planned or wrote, or is writing it now. This
 * write published nothing (its instant, if any, was rolled back); retry it, and run one writer
 * at a time or configure concurrency control.
 */
class WriteConflictException(id: ErrorId[WriteConflictException], detail: String, cause: Throwable = null)
    extends PyhudiException(id, detail, cause)

/**
 * A write transaction or compaction was asked for a step that its instant's state does not
 * allow (committing one that is already completed, rolling back a completed instant). Nothing
 * was changed; reopen the table to see the instant's state.
 */
class InstantStateException(id: ErrorId[InstantStateException], detail: String) extends PyhudiException(id, detail)
