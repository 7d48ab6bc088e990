// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

import scala.collection.mutable
import scala.reflect.ClassTag

/**
 * A stable error condition, in the style of Spark's error conditions: an UPPER_SNAKE_CASE `id`
 * that starts every message (`[PATH_NOT_FOUND] Path does not exist: ...`), the exception class
 * that carries it, and what it means. Ids are part of the API: callers branch on them, never on
 * message wording, so an id is never renamed or reused once released.
 *
 * The type parameter ties each id to one exception class: `new TableNotFoundException(id, ...)`
 * only compiles with an `ErrorId[TableNotFoundException]`.
 */
final class ErrorId[E <: PyhudiException] private (val id: String, val meaning: String,
    val exceptionClass: Class[_ <: PyhudiException]) extends Serializable {
  override def toString: String = id

  // Exceptions thrown in Spark tasks reach the driver serialized: an exception that cannot be
  // serialized arrives as text only, and its class is lost. Read back, an id is the registered one.
  private def readResolve(): AnyRef = ErrorId.all.find(_.id == id).getOrElse(this)
}

object ErrorId {

  // Filled as the vals below initialize, in order, so every id is listed exactly once.
  private val registry = mutable.ArrayBuffer.empty[ErrorId[_ <: PyhudiException]]

  private def define[E <: PyhudiException](id: String, meaning: String)(implicit tag: ClassTag[E]): ErrorId[E] = {
    val e = new ErrorId[E](id, meaning, tag.runtimeClass.asInstanceOf[Class[_ <: PyhudiException]])
    registry += e
    e
  }

  // Opening a table.
  val PathNotFound: ErrorId[TableNotFoundException] =
    define("PATH_NOT_FOUND", "The table path does not exist.")
  val NotAHudiTable: ErrorId[TableNotFoundException] =
    define("NOT_A_HUDI_TABLE", "The path exists but has no `.hoodie/hoodie.properties`.")
  val UnsupportedTableVersion: ErrorId[InvalidTableException] =
    define("UNSUPPORTED_TABLE_VERSION", "The table's `hoodie.table.version` is one pyhudi does not read or write.")
  val MissingTableProperty: ErrorId[InvalidTableException] =
    define("MISSING_TABLE_PROPERTY", "`hoodie.properties` lacks a key pyhudi needs.")
  val InvalidTableProperty: ErrorId[InvalidTableException] =
    define("INVALID_TABLE_PROPERTY", "A key of `hoodie.properties` has a value pyhudi cannot use.")

  // Options.
  val InvalidOptionValue: ErrorId[InvalidOptionException] =
    define("INVALID_OPTION_VALUE", "An option has an unknown or malformed value.")
  val MissingOption: ErrorId[InvalidOptionException] =
    define("MISSING_OPTION", "An option the read or write needs is not set.")
  val InvalidDatePattern: ErrorId[InvalidOptionException] =
    define("INVALID_DATE_PATTERN", "A date pattern of the timestamp key generator cannot be used.")

  // Key generation.
  val UnsupportedKeyGenerator: ErrorId[InvalidOptionException] =
    define("UNSUPPORTED_KEY_GENERATOR", "The key generator class is not one pyhudi implements.")
  val UnsupportedCustomPartitionFields: ErrorId[InvalidOptionException] =
    define("UNSUPPORTED_CUSTOM_PARTITION_FIELDS",
      "Partition fields use CustomKeyGenerator's `field:type` form, which pyhudi does not implement.")
  val KeyFieldCountMismatch: ErrorId[InvalidOptionException] =
    define("KEY_FIELD_COUNT_MISMATCH", "The key generator takes a different number of key or partition fields.")
  val KeyFieldNotFound: ErrorId[InvalidOptionException] =
    define("KEY_FIELD_NOT_FOUND", "A record key or partition field is not in the data to write.")
  val UnsupportedKeyFieldType: ErrorId[InvalidOptionException] =
    define("UNSUPPORTED_KEY_FIELD_TYPE", "A record key or partition field has a type the key generator cannot use.")

  // Schemas.
  val InvalidAvroSchema: ErrorId[InvalidTableException] =
    define("INVALID_AVRO_SCHEMA", "A stored Avro schema does not parse.")
  val UnsupportedAvroType: ErrorId[InvalidTableException] =
    define("UNSUPPORTED_AVRO_TYPE", "A field has an Avro type pyhudi cannot convert.")
  val IncompatibleAvroField: ErrorId[InvalidTableException] =
    define("INCOMPATIBLE_AVRO_FIELD", "A field was written with a type that cannot be read as the table's type.")
  val AmbiguousAvroField: ErrorId[InvalidTableException] =
    define("AMBIGUOUS_AVRO_FIELD", "A field matches several Avro fields that differ only in case.")

  // Reading files.
  val CorruptFile: ErrorId[CorruptFileException] =
    define("CORRUPT_FILE", "A data, log or timeline file cannot be decoded.")
  val CorruptLogBlock: ErrorId[CorruptFileException] =
    define("CORRUPT_LOG_BLOCK", "A well-framed log data block does not decode.")
  val UnsupportedLogBlock: ErrorId[InvalidTableException] =
    define("UNSUPPORTED_LOG_BLOCK", "A log file holds a block type pyhudi does not read.")
  val MissingFile: ErrorId[MissingFileException] =
    define("MISSING_FILE", "A file of the latest file slices, written by a completed instant, is gone.")

  // Indexes.
  val UnsupportedBloomFilterType: ErrorId[InvalidTableException] =
    define("UNSUPPORTED_BLOOM_FILTER_TYPE", "A base file's bloom filter has a type code pyhudi does not read.")
  val CorruptBloomFilter: ErrorId[CorruptFileException] =
    define("CORRUPT_BLOOM_FILTER", "A base file's bloom filter does not decode.")

  // Creating tables and writing the timeline.
  val TableAlreadyExists: ErrorId[TableExistsException] =
    define("TABLE_ALREADY_EXISTS", "A table already exists where a new one was to be created.")
  val CannotCreateTable: ErrorId[InvalidTableException] =
    define("CANNOT_CREATE_TABLE", "A new table cannot be created with the given configuration.")
  val InstantFileExists: ErrorId[InstantConflictException] =
    define("INSTANT_FILE_EXISTS", "A timeline file that must be new already exists.")

  // Committing writes and concurrent writers.
  val InvalidTransactionState: ErrorId[InstantStateException] =
    define("INVALID_TRANSACTION_STATE", "A write transaction was asked for a step its state does not allow.")
  val CannotRollBackCompleted: ErrorId[InstantStateException] =
    define("CANNOT_ROLL_BACK_COMPLETED", "A write transaction was asked to roll back a completed instant.")
  val WriteConflict: ErrorId[WriteConflictException] =
    define("WRITE_CONFLICT", "Another writer changed the table while this write planned or wrote.")
  val CompactionConflict: ErrorId[WriteConflictException] =
    define("COMPACTION_CONFLICT", "A compaction could not be scheduled because of a concurrent writer.")
  val ConcurrentWriterActive: ErrorId[WriteConflictException] =
    define("CONCURRENT_WRITER_ACTIVE", "Another writer's instant is pending and its heartbeat is alive.")
  val LockTimeout: ErrorId[WriteConflictException] =
    define("LOCK_TIMEOUT",
      "The table's commit lock (or the lock provider's lock, in all its attempts) was not free in time.")
  val ConcurrentWriteConflict: ErrorId[WriteConflictException] =
    define("CONCURRENT_WRITE_CONFLICT",
      "Under optimistic concurrency control, another write committed to the same file groups (or inserted " +
        "the same new keys) since this write started; this write was rolled back.")
  val CommitFailed: ErrorId[CommitFailedException] =
    define("COMMIT_FAILED", "A write failed before its commit point; nothing was published.")
  val CommitStateUnknown: ErrorId[CommitStateUnknownException] =
    define("COMMIT_STATE_UNKNOWN", "Writing the completed instant file failed; whether it committed is unknown.")
  val RollbackFailed: ErrorId[RollbackFailedException] =
    define("ROLLBACK_FAILED", "A rollback did not finish; the next write resumes it.")

  // Table services.
  val CompactionRejected: ErrorId[CommitFailedException] =
    define("COMPACTION_REJECTED", "A compaction cannot be scheduled or committed as asked.")
  val InvalidCompactionState: ErrorId[InstantStateException] =
    define("INVALID_COMPACTION_STATE", "A compaction instant is not in the state the requested step needs.")
  val CompactionFileMissing: ErrorId[CorruptFileException] =
    define("COMPACTION_FILE_MISSING", "A file named by a compaction plan no longer exists.")
  val ArchivalFailed: ErrorId[CommitFailedException] =
    define("ARCHIVAL_FAILED",
      "An archival wrote its archive file but could not remove an archived instant from the active timeline; " +
        "the next archival finishes it.")
  val ClusteringRejected: ErrorId[CommitFailedException] =
    define("CLUSTERING_REJECTED", "A clustering cannot be scheduled or committed as asked.")
  val ClusteringConflict: ErrorId[WriteConflictException] =
    define("CLUSTERING_CONFLICT", "A clustering could not be scheduled because of a concurrent writer.")
  val InvalidClusteringState: ErrorId[InstantStateException] =
    define("INVALID_CLUSTERING_STATE", "A clustering instant is not in the state the requested step needs.")
  val ClusteringFileMissing: ErrorId[CorruptFileException] =
    define("CLUSTERING_FILE_MISSING", "A file named by a clustering plan no longer exists.")
  val UpdateUnderClustering: ErrorId[WriteConflictException] =
    define("UPDATE_UNDER_CLUSTERING",
      "A write would update or delete records of file groups that a pending clustering rewrites.")

  // Savepoints, rollback and restore.
  val SavepointNotFound: ErrorId[InstantStateException] =
    define("SAVEPOINT_NOT_FOUND", "No completed savepoint has the given name or instant.")
  val SavepointNameTaken: ErrorId[InstantStateException] =
    define("SAVEPOINT_NAME_TAKEN", "Another savepoint of the table already has this name.")
  val CannotSavepoint: ErrorId[InstantStateException] =
    define("CANNOT_SAVEPOINT",
      "The instant is not a completed commit, deltacommit or replacecommit, or is savepointed already.")
  val InstantSavepointed: ErrorId[InstantStateException] =
    define("INSTANT_SAVEPOINTED",
      "A rollback or restore would remove a savepointed instant; delete the savepoint first.")
  val CannotRollBackInstant: ErrorId[InstantStateException] =
    define("CANNOT_ROLL_BACK_INSTANT", "The instant is not the latest completed write, or later instants are pending.")

  // Rows to write.
  val NullOrEmptyRecordKey: ErrorId[InvalidRecordException] =
    define("NULL_OR_EMPTY_RECORD_KEY", "A row to write has a null or empty record key.")
  val NullInNonNullableField: ErrorId[InvalidRecordException] =
    define("NULL_IN_NON_NULLABLE_FIELD", "A row to write has a null where the table's schema allows none.")
  val InvalidPartitionValue: ErrorId[InvalidRecordException] =
    define("INVALID_PARTITION_VALUE", "A partition field's value gives no partition path.")
  val PartitionPathTraversal: ErrorId[InvalidRecordException] =
    define("PARTITION_PATH_TRAVERSAL", "A partition path has a `..` segment and would leave the table.")
  val RecordKeyPartWithoutValue: ErrorId[InvalidRecordException] =
    define("RECORD_KEY_PART_WITHOUT_VALUE",
      "A record key that the bucket index reads as `field:value` pairs has a part without a value.")

  // Writing.
  val TableExistsForSaveMode: ErrorId[InvalidOptionException] =
    define("TABLE_EXISTS_FOR_SAVE_MODE", "A table exists at the path and the save mode is ErrorIfExists.")
  val ConflictingTableConfig: ErrorId[InvalidOptionException] =
    define("CONFLICTING_TABLE_CONFIG", "An option contradicts what the table's `hoodie.properties` records.")
  val ColumnNotFound: ErrorId[InvalidOptionException] =
    define("COLUMN_NOT_FOUND", "A column named by an option is not in the input.")
  val MissingTableColumns: ErrorId[InvalidOptionException] =
    define("MISSING_TABLE_COLUMNS", "The input lacks columns of the table.")
  val IncompatibleColumnType: ErrorId[InvalidOptionException] =
    define("INCOMPATIBLE_COLUMN_TYPE", "An input column's type cannot be safely cast to the table's type.")
  val UnsupportedWrite: ErrorId[InvalidOptionException] =
    define("UNSUPPORTED_WRITE", "The write asks for something pyhudi does not support yet.")

  // Bugs.
  val InternalError: ErrorId[PyhudiException] =
    define("INTERNAL_ERROR", "An internal invariant of pyhudi does not hold: a bug, please report it.")

  /** Every id, in the order of `docs/errors.md`. */
  val all: Seq[ErrorId[_ <: PyhudiException]] = registry.toList
}
