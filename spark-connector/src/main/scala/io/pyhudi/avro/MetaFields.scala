package io.pyhudi.avro

import org.apache.spark.sql.types.{StringType, StructField, StructType}

/** The five Hudi meta columns that lead every row of a table (format doc §5.1). */
object MetaFields {

  val CommitTime = "_hoodie_commit_time"
  val CommitSeqNo = "_hoodie_commit_seqno"
  val RecordKey = "_hoodie_record_key"
  val PartitionPath = "_hoodie_partition_path"
  val FileName = "_hoodie_file_name"

  /** Meta column names in their on-disk order. */
  val Names: Seq[String] = Seq(CommitTime, CommitSeqNo, RecordKey, PartitionPath, FileName)

  /** Meta columns as nullable string fields, in order. */
  val Fields: Seq[StructField] = Names.map(StructField(_, StringType, nullable = true))

  /** Whether `name` is one of the meta columns. */
  def contains(name: String): Boolean = Names.contains(name)

  /**
   * `schema` with the meta columns first. Commit metadata schemas lack them while log block
   * schemas already lead with them, so any present are dropped and re-added in the canonical
   * order, which keeps both shapes identical.
   */
  def prepend(schema: StructType): StructType =
    StructType(Fields ++ schema.fields.filterNot(f => contains(f.name)))
}
