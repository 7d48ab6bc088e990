package io.pyhudi.errors

/** Error factories grouped by the phase in which they surface. */
object Errors {

  // Opening a table.

  def pathNotFound(path: String): TableNotFoundException =
    new TableNotFoundException(s"Path does not exist: $path")

  def notAHudiTable(path: String): TableNotFoundException =
    new TableNotFoundException(
      s"Not a Hudi table: $path (no .hoodie/hoodie.properties found under it)")

  def unsupportedTableVersion(path: String, found: String, supported: Seq[Int]): InvalidTableException =
    new InvalidTableException(
      s"Unsupported Hudi table version $found at $path; pyhudi supports table version(s) " +
        supported.mkString(", "))

  def missingTableProperty(path: String, key: String): InvalidTableException =
    new InvalidTableException(s"Table $path: hoodie.properties has no '$key'")

  def badTableProperty(path: String, key: String, value: String, why: String): InvalidTableException =
    new InvalidTableException(s"Table $path: hoodie.properties has $key=$value: $why")

  // Analysing a query.

  def invalidEnumOption(key: String, value: String, valid: Seq[String]): InvalidOptionException =
    new InvalidOptionException(
      s"Invalid value '$value' for option $key; valid values: ${valid.mkString(", ")}")

  def invalidOption(key: String, value: String, why: String): InvalidOptionException =
    new InvalidOptionException(s"Invalid value '$value' for option $key: $why")

  def missingOption(key: String, why: String): InvalidOptionException =
    new InvalidOptionException(s"Option $key is required $why")

  // Resolving schemas.

  def invalidAvroSchema(json: String, cause: Throwable): InvalidTableException =
    new InvalidTableException(
      s"Cannot parse Avro schema: ${cause.getMessage}; schema starts with: ${json.take(200)}", cause)

  def unsupportedAvroType(field: String, avroType: String, why: String): InvalidTableException =
    new InvalidTableException(s"Field '$field' has unsupported Avro type $avroType: $why")

  def incompatibleAvroField(field: String, writerType: String, readType: String): InvalidTableException =
    new InvalidTableException(
      s"Field '$field' was written as Avro $writerType, which cannot be read as Spark $readType")

  def ambiguousAvroField(field: String, candidates: Seq[String]): InvalidTableException =
    new InvalidTableException(
      s"Field '$field' matches several Avro fields that differ only in case: ${candidates.mkString(", ")}")

  // Reading files.

  def corruptFile(path: String, why: String, cause: Throwable = null): CorruptFileException =
    new CorruptFileException(s"Corrupt file $path: $why", cause)

  def unsupportedLogBlock(path: String, offset: Long, blockType: String, instant: String)
      : InvalidTableException =
    new InvalidTableException(
      s"Log file $path has a $blockType block at offset $offset written by instant $instant; " +
        "pyhudi reads only AVRO_DATA, PARQUET_DATA, DELETE and COMMAND blocks")

  // Indexes.

  def unsupportedBloomFilterType(typeCode: String, where: String): InvalidTableException =
    new InvalidTableException(
      s"Unsupported bloom filter type code '$typeCode' in $where; pyhudi reads SIMPLE and DYNAMIC_V0")

  def corruptBloomFilter(where: String, why: String, cause: Throwable = null): CorruptFileException =
    new CorruptFileException(s"Corrupt bloom filter in $where: $why", cause)

  // Creating tables and writing the timeline.

  def tableExists(path: String): TableExistsException =
    new TableExistsException(s"Cannot create a table at $path: .hoodie/hoodie.properties already exists")

  def cannotCreateTable(path: String, why: String): InvalidTableException =
    new InvalidTableException(s"Cannot create a table at $path: $why")

  def instantFileExists(path: String, cause: Throwable = null): InstantConflictException =
    new InstantConflictException(
      s"Timeline file $path already exists; another writer or an earlier attempt used this " +
        "instant. Nothing was written by this call; retry with a new instant time.", cause)

  // Committing writes.

  def transactionState(instant: String, step: String, state: String): IllegalStateException =
    new IllegalStateException(s"Cannot $step write transaction $instant: it is $state")

  def commitFailed(instant: String, why: String, cause: Throwable = null): CommitFailedException =
    new CommitFailedException(
      s"Commit of instant $instant failed before its commit point: $why. Nothing was published; " +
        "aborting (rolling the instant back) is safe and the write can be retried.", cause)

  def commitStateUnknown(instant: String, path: String, cause: Throwable): CommitStateUnknownException =
    new CommitStateUnknownException(
      s"Writing $path for instant $instant failed and it is unknown whether the instant " +
        "completed. Do not roll it back or delete its files: reopen the table and check the " +
        "timeline.", cause)

  def rollbackFailed(target: String, rollbackInstant: String, cause: Throwable): RollbackFailedException =
    new RollbackFailedException(
      s"Rollback $rollbackInstant of instant $target did not finish (${cause.getMessage}). The " +
        s"pending rollback stays on the timeline and rollbackFailedWrites resumes it; readers " +
        s"already ignore the data of $target.", cause)

  def cannotRollBackCompleted(instant: String): IllegalStateException =
    new IllegalStateException(
      s"Instant $instant is completed; a write transaction only rolls back pending instants")
}
