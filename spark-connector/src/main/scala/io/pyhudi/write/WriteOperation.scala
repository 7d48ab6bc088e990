package io.pyhudi.write

/** Apache Hudi's write operations, by their option value and commit-metadata name. */
sealed abstract class WriteOperation(val value: String, val metadataName: String) {
  /** Operations whose commit replaces file groups (a `replacecommit`). */
  def isReplace: Boolean = false
  /** Operations that look up existing keys before writing. */
  def usesIndex: Boolean = false
}

object WriteOperation {
  case object Upsert extends WriteOperation("upsert", "UPSERT") { override def usesIndex = true }
  case object Insert extends WriteOperation("insert", "INSERT")
  case object BulkInsert extends WriteOperation("bulk_insert", "BULK_INSERT")
  case object Delete extends WriteOperation("delete", "DELETE") { override def usesIndex = true }
  case object InsertOverwrite extends WriteOperation("insert_overwrite", "INSERT_OVERWRITE") {
    override def isReplace = true
  }
  case object InsertOverwriteTable extends WriteOperation("insert_overwrite_table", "INSERT_OVERWRITE_TABLE") {
    override def isReplace = true
  }
  case object DeletePartition extends WriteOperation("delete_partition", "DELETE_PARTITION") {
    override def isReplace = true
  }

  val All: Seq[WriteOperation] =
    Seq(Upsert, Insert, BulkInsert, Delete, InsertOverwrite, InsertOverwriteTable, DeletePartition)

  def parse(v: String): Option[WriteOperation] = All.find(_.value.equalsIgnoreCase(v.trim))
}
