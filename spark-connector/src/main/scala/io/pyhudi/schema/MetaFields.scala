// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.schema

import org.apache.spark.sql.types.{StringType, StructField, StructType}

/** The five `_hoodie_*` columns every Hudi record carries ahead of its data columns. */
object MetaFields {
  val CommitTime = "_hoodie_commit_time"
  val CommitSeqNo = "_hoodie_commit_seqno"
  val RecordKey = "_hoodie_record_key"
  val PartitionPath = "_hoodie_partition_path"
  val FileName = "_hoodie_file_name"

  val Names: Seq[String] = Seq(CommitTime, CommitSeqNo, RecordKey, PartitionPath, FileName)

  val Schema: StructType = StructType(Names.map(StructField(_, StringType, nullable = true)))

  /**
   * Not a meta field: Hudi's boolean input column whose true value deletes the record's key. A
   * constant (inlined where used), so the Python options generator can name it without Spark.
   */
  final val IsDeleted = "_hoodie_is_deleted"

  def isMeta(name: String): Boolean = Names.contains(name)
}
