package io.pyhudi.errors

/**
 * Base of every error pyhudi raises on purpose. Messages name the path, option, instant or
 * value at fault, so that a user can act on them without reading a stack trace.
 */
class PyhudiException(message: String, cause: Throwable = null)
    extends RuntimeException(message, cause)

/** The base path does not exist or does not hold a Hudi table. */
class TableNotFoundException(message: String) extends PyhudiException(message)

/** The table exists but cannot be read by this connector (version, layout, bad properties). */
class InvalidTableException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/** A user option has an unknown key value, a malformed value or conflicts with another one. */
class InvalidOptionException(message: String) extends PyhudiException(message)

/** A data or timeline file cannot be decoded. */
class CorruptFileException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/**
 * A file that a completed instant wrote, and that the latest file slice of its group must hold,
 * is gone from storage. Serving the rest would return another version of the group's records.
 */
class MissingFileException(message: String) extends PyhudiException(message)

/** A table already exists where a new one was to be created; nothing was written. */
class TableExistsException(message: String) extends PyhudiException(message)

/**
 * A timeline state file that must be new already exists: another writer, or an earlier attempt,
 * used the same instant. This call published nothing.
 */
class InstantConflictException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/**
 * A write failed before its commit point. Nothing was published: rolling the instant back
 * (`WriteTransaction.abort`) is safe, and so is retrying the write with a new instant.
 */
class CommitFailedException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/**
 * Writing the completed instant file failed in a way that leaves its outcome unknown. Do not
 * roll back or delete any file: reopen the table and check whether the instant completed.
 */
class CommitStateUnknownException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/**
 * A rollback did not finish. Its pending rollback instant stays on the timeline and
 * `WriteTransaction.rollbackFailedWrites` resumes it; readers already ignore the target's data.
 */
class RollbackFailedException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)

/** A row cannot be written as it is (null record key, partition value that gives no path). */
class InvalidRecordException(message: String) extends PyhudiException(message)

/**
 * Another writer changed the table while this one planned or wrote, or is writing it now. This
 * write published nothing (its instant, if any, was rolled back); retry it, and run one writer
 * at a time or configure concurrency control.
 */
class WriteConflictException(message: String, cause: Throwable = null)
    extends PyhudiException(message, cause)
