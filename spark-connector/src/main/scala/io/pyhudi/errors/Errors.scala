// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

import io.pyhudi.config.{ReadConfig, WriteConfig}
import io.pyhudi.read.MissingFilesMode
import io.pyhudi.table.HoodieTable

/**
 * Error factories grouped by the phase in which they surface. Each message starts with its
 * stable [[ErrorId]] (`[PATH_NOT_FOUND] ...`), which `docs/errors.md` lists.
 */
object Errors {

  // Opening a table.

  def pathNotFound(path: String): TableNotFoundException =
    new TableNotFoundException(ErrorId.PathNotFound, s"Path does not exist: $path")

  def notAHudiTable(path: String): TableNotFoundException =
    new TableNotFoundException(ErrorId.NotAHudiTable,
      s"Not a Hudi table: $path (no ${HoodieTable.MetaFolder}/${HoodieTable.PropertiesFile} found under it)")

  def unsupportedTableVersion(path: String, found: String, supported: Seq[Int]): InvalidTableException =
    new InvalidTableException(ErrorId.UnsupportedTableVersion,
      s"Unsupported Hudi table version $found at $path; pyhudi supports table version(s) " +
        supported.mkString(", "))

  def missingTableProperty(path: String, key: String): InvalidTableException =
    new InvalidTableException(ErrorId.MissingTableProperty, s"Table $path: ${HoodieTable.PropertiesFile} has no '$key'")

  def badTableProperty(path: String, key: String, value: String, why: String): InvalidTableException =
    new InvalidTableException(ErrorId.InvalidTableProperty,
      s"Table $path: ${HoodieTable.PropertiesFile} has $key=$value: $why")

  // Analysing a query.

  def invalidEnumOption(key: String, value: String, valid: Seq[String]): InvalidOptionException =
    new InvalidOptionException(ErrorId.InvalidOptionValue,
      s"Invalid value '$value' for option $key; valid values: ${valid.mkString(", ")}")

  def invalidOption(key: String, value: String, why: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.InvalidOptionValue, s"Invalid value '$value' for option $key: $why")

  /** A pattern of the timestamp key generator that cannot be compiled; `why` names the problem. */
  def invalidDatePattern(why: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.InvalidDatePattern, why)

  def invalidHeartbeat(intervalMs: Long, tolerableMisses: Int): InvalidOptionException =
    new InvalidOptionException(ErrorId.InvalidOptionValue,
      s"Heartbeat interval $intervalMs ms (${WriteConfig.HeartbeatInterval.key}) and tolerable misses " +
        s"$tolerableMisses (${WriteConfig.HeartbeatTolerableMisses.key}) must both be positive")

  def missingOption(key: String, why: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.MissingOption, s"Option $key is required $why")

  // Configuring key generation (write options, table config and the input schema).

  def unsupportedKeyGenerator(key: String, value: String, supported: Seq[String]): InvalidOptionException =
    new InvalidOptionException(ErrorId.UnsupportedKeyGenerator,
      s"Key generator '$value' (option $key) is not supported yet; supported: ${supported.mkString(", ")}")

  def customPartitionFields(key: String, value: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.UnsupportedCustomPartitionFields,
      s"Partition fields '$value' (option $key) use the field:type form of Hudi's " +
        "CustomKeyGenerator, which is not supported yet")

  def keyFieldCount(
      generator: String, role: String, key: String, fields: Seq[String], expected: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.KeyFieldCountMismatch,
      s"Key generator $generator takes $expected $role field(s) (option $key); got " +
        (if (fields.isEmpty) "none" else fields.mkString(",")))

  /** `scope` is `columns` for a top-level miss, else e.g. `fields of a`. */
  def keyFieldNotFound(role: String, field: String, scope: String, available: Seq[String]): InvalidOptionException =
    new InvalidOptionException(ErrorId.KeyFieldNotFound,
      s"The $role field '$field' is not in the data to write; available $scope: " +
        (if (available.isEmpty) "none" else available.mkString(", ")))

  def unsupportedKeyFieldType(role: String, field: String, dataType: String, why: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.UnsupportedKeyFieldType,
      s"The $role field '$field' has type $dataType, which $why")

  // Resolving schemas.

  def invalidAvroSchema(json: String, cause: Throwable): InvalidTableException =
    new InvalidTableException(ErrorId.InvalidAvroSchema,
      s"Cannot parse Avro schema: ${cause.getMessage}; schema starts with: ${json.take(200)}", cause)

  def unsupportedAvroType(field: String, avroType: String, why: String): InvalidTableException =
    new InvalidTableException(ErrorId.UnsupportedAvroType, s"Field '$field' has unsupported Avro type $avroType: $why")

  def incompatibleAvroField(field: String, writerType: String, readType: String): InvalidTableException =
    new InvalidTableException(ErrorId.IncompatibleAvroField,
      s"Field '$field' was written as Avro $writerType, which cannot be read as Spark $readType")

  def ambiguousAvroField(field: String, candidates: Seq[String]): InvalidTableException =
    new InvalidTableException(ErrorId.AmbiguousAvroField,
      s"Field '$field' matches several Avro fields that differ only in case: ${candidates.mkString(", ")}")

  // Reading files.

  def corruptFile(path: String, why: String, cause: Throwable = null): CorruptFileException =
    new CorruptFileException(ErrorId.CorruptFile, s"Corrupt file $path: $why", cause)

  /** A well-framed log data block whose content does not decode (e.g. a damaged parquet footer). */
  def corruptLogBlock(path: String, offset: Long, blockType: String, cause: Throwable): CorruptFileException = {
    val where = if (path.isEmpty) "<in-memory log block>" else path
    val at = if (offset >= 0) s" at offset $offset" else ""
    new CorruptFileException(ErrorId.CorruptLogBlock,
      s"Corrupt file $where: $blockType block$at does not decode: ${rootMessage(cause)}", cause)
  }

  private def rootMessage(e: Throwable): String = {
    var t = e
    while (t.getCause != null && t.getCause != t) t = t.getCause
    val own = Option(e.getMessage).getOrElse(e.getClass.getName)
    val root = Option(t.getMessage).map(m => s"${t.getClass.getSimpleName}: $m").getOrElse(t.getClass.getName)
    if ((t eq e) || own.contains(String.valueOf(t.getMessage))) own else s"$own (caused by $root)"
  }

  def unsupportedLogBlock(path: String, offset: Long, blockType: String, instant: String): InvalidTableException =
    new InvalidTableException(ErrorId.UnsupportedLogBlock,
      s"Log file $path has a $blockType block at offset $offset written by instant $instant; " +
        "pyhudi reads only AVRO_DATA, PARQUET_DATA, DELETE and COMMAND blocks")

  /**
   * Files (absolute path → completed instants that list them, oldest first) that belong to the
   * latest slices of their file groups at `asOf` are gone; `what` names the read or write.
   */
  def missingFiles(files: Seq[(String, Seq[String])], asOf: String, what: String): MissingFileException = {
    val (path, instants) = files.head
    val others = files.tail
    new MissingFileException(ErrorId.MissingFile,
      s"File $path, written by completed instant ${instants.last}" +
        (if (instants.size > 1) s" (listed by ${instants.mkString(", ")})" else "") +
        s", does not exist; $what needs it as part of the table at instant $asOf" +
        (if (others.isEmpty) ""
         else s"; ${others.size} more missing: " + others.take(10).map { case (p, ts) => s"$p (${ts.last})" }
           .mkString(", ") + (if (others.size > 10) ", ..." else "")) +
        ". It was deleted outside Hudi, or, for an instant older than the latest, removed by the " +
        s"cleaner. Reads can leave such files out with ${ReadConfig.MissingFiles.key}=${MissingFilesMode.Skip.name}.")
  }

  // Indexes.

  def unsupportedBloomFilterType(typeCode: String, where: String): InvalidTableException =
    new InvalidTableException(ErrorId.UnsupportedBloomFilterType,
      s"Unsupported bloom filter type code '$typeCode' in $where; pyhudi reads SIMPLE and DYNAMIC_V0")

  def corruptBloomFilter(where: String, why: String, cause: Throwable = null): CorruptFileException =
    new CorruptFileException(ErrorId.CorruptBloomFilter, s"Corrupt bloom filter in $where: $why", cause)

  // Creating tables and writing the timeline.

  def tableExists(path: String): TableExistsException =
    new TableExistsException(ErrorId.TableAlreadyExists,
      s"Cannot create a table at $path: ${HoodieTable.MetaFolder}/${HoodieTable.PropertiesFile} already exists")

  def cannotCreateTable(path: String, why: String): InvalidTableException =
    new InvalidTableException(ErrorId.CannotCreateTable, s"Cannot create a table at $path: $why")

  def instantFileExists(path: String, cause: Throwable = null): InstantConflictException =
    new InstantConflictException(ErrorId.InstantFileExists,
      s"Timeline file $path already exists; another writer or an earlier attempt used this " +
        "instant. Nothing was written by this call; retry with a new instant time.", cause)

  // Committing writes.

  def transactionState(instant: String, step: String, state: String): InstantStateException =
    new InstantStateException(ErrorId.InvalidTransactionState, s"Cannot $step write transaction $instant: it is $state")

  // Concurrent writers (default mode: one writer at a time, checked at start and at commit).

  def writeConflict(instant: String, what: String): WriteConflictException =
    new WriteConflictException(ErrorId.WriteConflict,
      s"Write $instant conflicts with another writer: $what. Nothing of this write was published; " +
        "run one writer at a time on a table and retry.")

  def compactionConflict(what: String): WriteConflictException =
    new WriteConflictException(ErrorId.CompactionConflict,
      s"Compaction not scheduled: $what. Nothing was written; retry.")

  def liveWriters(table: String, instants: String, expiryMs: Long): WriteConflictException =
    new WriteConflictException(ErrorId.ConcurrentWriterActive,
      s"Table $table is being written: instant(s) $instants are pending and their writer's heartbeat " +
        s"(${HoodieTable.MetaFolder}/.heartbeat/) is younger than ${expiryMs} ms (${WriteConfig.HeartbeatInterval.key} x " +
        s"${WriteConfig.HeartbeatTolerableMisses.key}). Nothing was written. Retry when that writer is done; a " +
        "writer that died is rolled back once its heartbeat is that old.")

  def lockTimeout(lock: String, waitMs: Long): WriteConflictException =
    new WriteConflictException(ErrorId.LockTimeout,
      s"Could not take the table's commit lock $lock within $waitMs ms (${WriteConfig.LockWaitTime.key}): " +
        "another writer holds it.")

  def lockProviderTimeout(provider: String, target: String, holder: String, waitMs: Long,
      retries: Int): WriteConflictException =
    new WriteConflictException(ErrorId.LockTimeout,
      s"Could not take the lock of $provider ($target) in ${retries + 1} attempt(s) of $waitMs ms " +
        s"(${WriteConfig.LockWaitTime.key}, ${WriteConfig.LockNumRetries.key}): held by " +
        s"$holder.")

  /**
   * Optimistic concurrency control: `other` completed (or is a pending table service) since
   * this write started and shares `what` with it.
   */
  def concurrentWriteConflict(instant: String, other: String, what: String): WriteConflictException =
    new WriteConflictException(ErrorId.ConcurrentWriteConflict,
      s"Write $instant conflicts with instant $other, which committed (or was scheduled) after this write " +
        s"started: both wrote $what. This write was rolled back and nothing of it is visible; retry it.")

  def earlyWriteConflict(instant: String, other: String, what: String): WriteConflictException =
    new WriteConflictException(ErrorId.ConcurrentWriteConflict,
      s"Write $instant conflicts with instant $other, detected early (${WriteConfig.EarlyConflictDetection.key}) " +
        s"before this write wrote its files: the other has written to $what. This write was rolled back and " +
        "nothing of it is visible; retry it once the other finished.")

  def commitFailed(instant: String, why: String, cause: Throwable = null): CommitFailedException =
    new CommitFailedException(ErrorId.CommitFailed,
      s"Commit of instant $instant failed before its commit point: $why. Nothing was published; " +
        "aborting (rolling the instant back) is safe and the write can be retried.", cause)

  def commitStateUnknown(instant: String, path: String, cause: Throwable): CommitStateUnknownException =
    new CommitStateUnknownException(ErrorId.CommitStateUnknown,
      s"Writing $path for instant $instant failed and it is unknown whether the instant " +
        "completed. Do not roll it back or delete its files: reopen the table and check the " +
        "timeline.", cause)

  def rollbackFailed(target: String, rollbackInstant: String, cause: Throwable): RollbackFailedException =
    new RollbackFailedException(ErrorId.RollbackFailed,
      s"Rollback $rollbackInstant of instant $target did not finish (${cause.getMessage}). The " +
        s"pending rollback stays on the timeline and rollbackFailedWrites resumes it; readers " +
        s"already ignore the data of $target.", cause)

  def cannotRollBackCompleted(instant: String): InstantStateException =
    new InstantStateException(ErrorId.CannotRollBackCompleted,
      s"Instant $instant is completed; a write transaction only rolls back pending instants")

  // Savepoints, rollback and restore.

  def savepointNotFound(basePath: String, nameOrInstant: String, known: Seq[String]): InstantStateException =
    new InstantStateException(ErrorId.SavepointNotFound,
      s"Table $basePath has no completed savepoint '$nameOrInstant' (savepoints: " +
        s"${if (known.isEmpty) "none" else known.mkString(", ")})")

  def savepointNameTaken(name: String, instant: String): InstantStateException =
    new InstantStateException(ErrorId.SavepointNameTaken,
      s"Savepoint name '$name' is taken by the savepoint of instant $instant; names are unique per table")

  def cannotSavepoint(instant: String, why: String): InstantStateException =
    new InstantStateException(ErrorId.CannotSavepoint, s"Cannot savepoint instant $instant: $why")

  def instantSavepointed(instant: String, what: String): InstantStateException =
    new InstantStateException(ErrorId.InstantSavepointed,
      s"Cannot $what: instant $instant is savepointed; delete its savepoint first")

  def cannotRollBackInstant(instant: String, why: String): InstantStateException =
    new InstantStateException(ErrorId.CannotRollBackInstant, s"Cannot roll back instant $instant: $why")

  // Table services.

  def compactionRejected(instant: String, why: String): CommitFailedException =
    new CommitFailedException(ErrorId.CompactionRejected,
      s"Cannot schedule or commit compaction $instant: $why. Nothing was published; the " +
        "compaction stays as it was on the timeline.")

  def compactionState(instant: String, step: String, state: String): InstantStateException =
    new InstantStateException(ErrorId.InvalidCompactionState, s"Cannot $step compaction $instant: it is $state")

  def archivalFailed(path: String): CommitFailedException =
    new CommitFailedException(ErrorId.ArchivalFailed,
      s"Archival could not delete $path after writing its archive file. The table reads as before; the " +
        "next archival deletes the archived instants' remaining files.")

  def compactionFileMissing(instant: String, path: String): CorruptFileException =
    new CorruptFileException(ErrorId.CompactionFileMissing,
      s"File $path named by compaction plan $instant does not exist; it was cleaned or moved " +
        "after the plan was written, so the plan cannot be executed")

  def clusteringRejected(instant: String, why: String): CommitFailedException =
    new CommitFailedException(ErrorId.ClusteringRejected,
      s"Cannot schedule or commit clustering $instant: $why. Nothing was published; the " +
        "clustering stays as it was on the timeline.")

  def clusteringConflict(what: String): WriteConflictException =
    new WriteConflictException(ErrorId.ClusteringConflict,
      s"Clustering not scheduled: $what. Nothing was written; retry.")

  def clusteringState(instant: String, step: String, state: String): InstantStateException =
    new InstantStateException(ErrorId.InvalidClusteringState, s"Cannot $step clustering $instant: it is $state")

  def clusteringFileMissing(instant: String, path: String): CorruptFileException =
    new CorruptFileException(ErrorId.ClusteringFileMissing,
      s"File $path named by clustering plan $instant does not exist; it was cleaned or moved " +
        "after the plan was written, so the plan cannot be executed")

  /** @param pending per clustering instant: "clustering <instant>: <partition/fileId>, ..." */
  def updateUnderClustering(instant: String, pending: Seq[String]): WriteConflictException =
    new WriteConflictException(ErrorId.UpdateUnderClustering,
      s"Write $instant would update or delete records in file groups that pending clustering rewrites: " +
        pending.mkString("; ") +
        ". Nothing of this write was published. Run the clustering to completion (pyhudi.cluster) and retry.")

  // Writing rows.

  def nullOrEmptyRecordKey(field: String, value: String): InvalidRecordException =
    new InvalidRecordException(ErrorId.NullOrEmptyRecordKey,
      s"Record key field '$field' is ${if (value == null) "null" else "empty"} in a row to write; " +
        "Hudi record keys must not be null or empty")

  def nullOrEmptyRecordKeys(fields: Seq[String], key: String): InvalidRecordException =
    new InvalidRecordException(ErrorId.NullOrEmptyRecordKey,
      s"Record key fields ${fields.mkString(", ")} are all null or empty in a row to write " +
        s"(key '$key'); at least one of them must have a value")

  def nullInNonNullableAvro(field: String, avroType: String): InvalidRecordException =
    new InvalidRecordException(ErrorId.NullInNonNullableField,
      s"Field '$field' is null in a row to write, but its Avro type $avroType has no null branch")

  def invalidPartitionValue(field: String, value: String, why: String): InvalidRecordException =
    new InvalidRecordException(ErrorId.InvalidPartitionValue,
      s"Partition field '$field' has value '$value', which gives no partition path: $why")

  def partitionPathTraversal(path: String, fields: Seq[String]): InvalidRecordException =
    new InvalidRecordException(ErrorId.PartitionPathTraversal,
      s"Partition path '$path' (from ${fields.mkString(", ")}) has a '..' segment, which would " +
        "place files outside the table's base path")

  /** A key the bucket index reads as `field:value` pairs (it has a `:`) with a part lacking its value. */
  def recordKeyPartWithoutValue(recordKey: String, part: String): InvalidRecordException =
    new InvalidRecordException(ErrorId.RecordKeyPartWithoutValue,
      s"Record key '$recordKey' has a part '$part' without a value")

  // Writing.

  def tableExistsForSaveMode(path: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.TableExistsForSaveMode,
      s"A Hudi table already exists at $path and the save mode is " +
        "ErrorIfExists (Spark's default): use mode(\"append\") to write into it or " +
        "mode(\"overwrite\") to replace its data")

  def conflictingTableConfig(path: String, option: String, provided: String, stored: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.ConflictingTableConfig,
      s"Option $option=$provided conflicts with the table at $path, which " +
        s"was created with $stored")

  def missingColumn(option: String, column: String, available: Seq[String]): InvalidOptionException =
    new InvalidOptionException(ErrorId.ColumnNotFound,
      s"Column '$column' named by $option is not in the input; " +
        s"available columns: ${available.mkString(", ")}")

  def missingColumns(path: String, columns: Seq[String]): InvalidOptionException =
    new InvalidOptionException(ErrorId.MissingTableColumns,
      s"The input lacks column(s) ${columns.mkString(", ")} of the table " +
        s"at $path; every table column must be present (new columns may be added)")

  /** An input that lacks table columns and cannot be written as a partial-column write; `why` says why. */
  def partialWriteRefused(path: String, columns: Seq[String], why: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.MissingTableColumns,
      s"The input lacks column(s) ${columns.mkString(", ")} of the table at $path and cannot be " +
        s"written as a partial-column write: $why")

  def incompatibleColumn(path: String, column: String, provided: String, stored: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.IncompatibleColumnType,
      s"Column '$column' has type $provided in the input but $stored in the " +
        s"table at $path, and $provided cannot be safely cast to $stored")

  def unsupportedWrite(what: String): InvalidOptionException =
    new InvalidOptionException(ErrorId.UnsupportedWrite, s"Not supported yet: $what")

  // Bugs.

  /**
   * An invariant of pyhudi's own code does not hold; no user input or table state should lead
   * here. `what` says which invariant.
   */
  def internal(what: String): PyhudiException =
    new PyhudiException(ErrorId.InternalError,
      s"$what. This is a bug in pyhudi; please report it with the stack trace.")
}
