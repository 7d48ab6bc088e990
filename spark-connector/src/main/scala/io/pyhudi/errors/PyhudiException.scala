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

/** A row cannot be written as it is (null record key, partition value that gives no path). */
class InvalidRecordException(message: String) extends PyhudiException(message)
