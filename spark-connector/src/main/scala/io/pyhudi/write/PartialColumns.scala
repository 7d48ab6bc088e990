// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.apache.spark.sql.types.StructType

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors
import io.pyhudi.table.TableType
import io.pyhudi.timeline.CommitMetadata
import io.pyhudi.transaction.{ConcurrencyConfig, ConflictGranularity}

/**
 * A write of only some of a merge-on-read table's columns (`hoodie.write.conflict.granularity=
 * COLUMN`): its updates go to log blocks that hold the key, the meta columns and `columns`
 * only, so that writers of other columns of the same file groups can commit beside it.
 *
 * @param columns       the non-key data columns the write sets (key and partition fields excluded)
 * @param keyColumns    the record key and partition fields the input has, which log blocks also hold
 * @param orderingField the column (one of `columns`) that orders this column group, if any
 */
final case class PartialColumns(columns: Seq[String], keyColumns: Seq[String], orderingField: Option[String]) {

  /** The data columns a log block of this write holds. */
  def logColumns: Set[String] = (keyColumns ++ columns).toSet

  /** What the commit records, for readers (the ordering column) and for the conflict check. */
  def extraMetadata: Map[String, String] =
    Map(CommitMetadata.PartialColumnsKey -> columns.mkString(",")) ++
      orderingField.map(CommitMetadata.PartialOrderingFieldKey -> _)
}

object PartialColumns {

  /**
   * The partial-column write of `input` into a table whose data columns are `stored`, or None
   * when the input has every stored column (or granularity is FILE_GROUP, or the table is new).
   *
   * @throws io.pyhudi.errors.InvalidOptionException when columns are missing and the write
   *   cannot be partial: not COLUMN under optimistic concurrency control, not a merge-on-read
   *   upsert, new columns, or an ordering field the input lacks
   */
  def resolve(basePath: String, stored: Option[StructType], input: StructType, spec: WriteSpec,
      options: Map[String, String]): Option[PartialColumns] = stored.flatMap { table =>
    val missing = table.fieldNames.filterNot(input.fieldNames.contains).toSeq
    val granularity = WriteConfig.ConflictGranularity.from(options).get
    if (missing.isEmpty || granularity != ConflictGranularity.Column) None
    else {
      def refuse(why: String) = throw Errors.partialWriteRefused(basePath, missing, why)
      if (!ConcurrencyConfig.from(options).optimistic)
        refuse(s"${WriteConfig.ConflictGranularity.key}=${granularity.name} needs " +
          s"${WriteConfig.ConcurrencyMode.key}=OPTIMISTIC_CONCURRENCY_CONTROL")
      if (spec.tableType != TableType.MergeOnRead) refuse("only merge-on-read tables take partial-column writes")
      if (spec.operation != WriteOperation.Upsert)
        refuse(s"only upserts write some columns (this is ${spec.operation.metadataName})")
      val added = input.fieldNames.filterNot(table.fieldNames.contains)
      if (added.nonEmpty) refuse(s"it also adds column(s) ${added.mkString(", ")}; add columns with a full write")
      val keyColumns = (spec.keyGen.recordKeyFields ++ spec.keyGen.partitionFields).toSet
      val columns = table.fieldNames.filter(f => input.fieldNames.contains(f) && !keyColumns(f)).toSeq
      if (columns.isEmpty) refuse("it sets no column but the key and partition fields")
      val ordering = WriteConfig.PartialOrderingField.from(options) match {
        case Some(f) =>
          if (!columns.contains(f)) throw Errors.missingColumn(WriteConfig.PartialOrderingField.key, f, columns)
          Some(f)
        case None => spec.precombineField.filter(columns.contains)
      }
      Some(PartialColumns(columns, table.fieldNames.filter(f => input.fieldNames.contains(f) && keyColumns(f)).toSeq,
          ordering))
    }
  }
}
