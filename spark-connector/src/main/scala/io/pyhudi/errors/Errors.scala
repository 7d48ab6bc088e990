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
}
