// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.{Aggregator, Partitioner, TaskContext}
import org.apache.spark.rdd.{RDD, ShuffledRDD}
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{BoundReference, Cast, Expression, UnsafeProjection}
import org.apache.spark.sql.types.{BooleanType, StructType}

import io.pyhudi.keygen.KeyGenerator
import io.pyhudi.merge.OrderingValues
import io.pyhudi.schema.MetaFields
import io.pyhudi.spark.shims.DatasetShim
import io.pyhudi.write.{WriteOperation, WriteRecord, WriteSpec}

/**
 * Turns the input DataFrame into keyed [[WriteRecord]]s on the executors: meta columns an input
 * carries (a DataFrame read from a Hudi table) are ignored, data columns are cast to the table's
 * types in table order, and a boolean `_hoodie_is_deleted` column marks deletes.
 */
object IncomingRecords {
  val IsDeletedColumn: String = MetaFields.IsDeleted

  /** The input's columns without meta columns. */
  def dataSchema(df: DataFrame): StructType =
    StructType(df.schema.fields.filterNot(f => MetaFields.isMeta(f.name)))

  /**
   * @param orderingField the column whose value becomes each record's ordering value (what
   *                 de-duplication compares): the precombine field, or a partial-column write's own
   * @param streamed the records are written one by one as they come (one-pass bulk_insert): a
   *                 record's row is the projection's reused buffer, valid until the next record,
   *                 and its ordering value is left null (nothing is merged)
   */
  def apply(df: DataFrame, spec: WriteSpec, tableData: StructType, orderingField: Option[String],
      streamed: Boolean = false): RDD[WriteRecord] = {
    val input = df.schema
    val keyGen = new KeyGenerator(spec.keyGen, input)
    val isDeleteOp = spec.operation == WriteOperation.Delete
    val deletedOrdinal = input.fieldNames.indexOf(IsDeletedColumn) match {
      case i if i >= 0 && input(i).dataType == BooleanType => Some(i)
      case _ => None
    }
    // Deletes only need keys: the table's other columns may be absent from a keys-only input.
    val exprs: Seq[Expression] = tableData.fields.toSeq.map { f =>
      val i = input.fieldNames.indexOf(f.name)
      if (i < 0) org.apache.spark.sql.catalyst.expressions.Literal(null, f.dataType)
      else {
        val ref = BoundReference(i, input(i).dataType, input(i).nullable)
        if (input(i).dataType == f.dataType) ref else Cast(ref, f.dataType, Some("UTC"))
      }
    }
    val orderingOrdinal =
      if (streamed) None else orderingField.map(f => tableData.fieldNames.indexOf(f)).filter(_ >= 0)
    // A streamed input that already has the table's columns, in order and type (a load's usual
    // case), is written as it comes: projecting it would copy every value of every row (about
    // a twentieth of a load). The input row, like the projection's buffer, is valid until the
    // next one.
    val passThrough = streamed && exprs.length == input.length && exprs.zipWithIndex.forall {
      case (b: BoundReference, i) => b.ordinal == i
      case _ => false
    }
    DatasetShim.internalRows(df).mapPartitions { rows =>
      val project = UnsafeProjection.create(exprs)
      val orderingOf = OrderingValues.reader(tableData, orderingOrdinal)
      rows.map { row =>
        val data = if (passThrough) row else if (streamed) project(row) else project(row).copy()
        val ordering = orderingOf(data)
        val deleted = isDeleteOp || deletedOrdinal.exists(o => !row.isNullAt(o) && row.getBoolean(o))
        WriteRecord(keyGen.recordKey(row), keyGen.partitionPath(row), data: InternalRow, ordering, deleted)
      }
    }
  }

  /** What identifies a record to the index: (partition path, key), or ("", key) when global. */
  type Identity = (String, String)

  def identity(r: WriteRecord, global: Boolean): Identity =
    io.pyhudi.index.TagResolution.lookupKey(global, r.partitionPath, r.key)

  /** Records keyed by [[identity]]. */
  def keyed(records: RDD[WriteRecord], global: Boolean): RDD[(Identity, WriteRecord)] =
    records.map(r => identity(r, global) -> r)

  /** `keyed` moved into the partitions of `partitioner` with the records' serializer, as they are. */
  def moved(keyed: RDD[(Identity, WriteRecord)], partitioner: Partitioner): RDD[(Identity, WriteRecord)] =
    new ShuffledRDD[Identity, WriteRecord, WriteRecord](keyed, partitioner)
      .setSerializer(RecordSerializer(keyed.sparkContext.getConf))

  /**
   * Keeps one record per identity, the one with the larger ordering value (the later on ties).
   * The result stays hash-partitioned by identity, so the index lookup can join it with the
   * stored keys without moving the records again.
   */
  def deduplicate(keyed: RDD[(Identity, WriteRecord)], hasOrdering: Boolean): RDD[(Identity, WriteRecord)] =
    deduplicate(keyed, hasOrdering, Partitioner.defaultPartitioner(keyed))

  /**
   * [[deduplicate]] into the partitions of `partitioner`: a bucketed write de-duplicates and
   * routes each record to its bucket in one shuffle, since a key's bucket follows from the key.
   */
  def deduplicate(keyed: RDD[(Identity, WriteRecord)], hasOrdering: Boolean,
      partitioner: Partitioner): RDD[(Identity, WriteRecord)] = {
    val pick = (a: WriteRecord, b: WriteRecord) =>
      if (hasOrdering && io.pyhudi.merge.OrderingValues.compare(a.ordering, b.ordering) > 0) a else b
    // Records move with their own serializer (RecordSerializer) and are combined on the reduce
    // side only: duplicates within one input split are rare, so a map-side combine hashes and
    // sorts every record to save almost nothing; without it the map side only writes each record
    // to its shuffle partition (the map stage of a 500k-row upsert: 2.6 s to 1.1 s). The reduce
    // side combines in a hash map while the task's records fit ([[Precombine]]), else in
    // Spark's spilling combiner.
    val spilling = new Aggregator[Identity, WriteRecord, WriteRecord](r => r, pick, pick)
    moved(keyed, partitioner).mapPartitions(
      records =>
        Precombine(records, pick, Precombine.Budget,
          rest => spilling.combineValuesByKey(rest, TaskContext.get())),
      preservesPartitioning = true)
  }
}
