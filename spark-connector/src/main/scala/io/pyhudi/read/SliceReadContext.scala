// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import scala.util.Try

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{IntegerType, LongType, StringType, StructType}
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.keygen.{KeyGenType, RecordKeys}
import io.pyhudi.merge.{MergeMode, OrderingValues}
import io.pyhudi.schema.MetaFields
import io.pyhudi.table.TableConfig
import io.pyhudi.timeline.InstantVisibility

/**
 * Everything an executor needs to read slices of one scan, computed once on the driver.
 *
 * @param mergeSchema       columns read from base files and log blocks: the requested columns
 *                          plus the key, ordering and commit-time columns merging needs
 * @param keyOrdinals       `_hoodie_record_key`'s ordinal, or the record key fields' ordinals
 *                          when the table does not populate meta fields or when the one key
 *                          field's value is the record key ([[SliceReadContext.keyFieldAsKey]])
 * @param keyFields         record key field names (used to build keys from fields)
 * @param orderingOrdinal   ordinal of the precombine field, if the table has one
 * @param commitTimeOrdinal ordinal of `_hoodie_commit_time`, needed for incremental queries
 */
final case class SliceReadContext(
    mergeSchema: StructType,
    keyOrdinals: Seq[Int],
    keyFields: Seq[String],
    useMetaKey: Boolean,
    orderingOrdinal: Option[Int],
    mergeMode: MergeMode,
    commitTimeOrdinal: Option[Int],
    incrementalRange: Option[(String, String)],
    visibility: InstantVisibility) {

  /**
   * The record key of a row in `mergeSchema`; null when the key columns are null. Without meta
   * fields the key is built from Spark's values: a date gives its day number, not the text a key
   * generator prints, as in Apache Hudi 1.2's reader, so both ignore a delete of a date key there
   * (docs/interop.md).
   */
  def keyOf(row: InternalRow): String =
    if (useMetaKey) {
      val o = keyOrdinals.head
      if (row.isNullAt(o)) null else row.getUTF8String(o).toString
    } else {
      val values = keyOrdinals.map { o =>
        if (row.isNullAt(o)) null else row.get(o, mergeSchema(o).dataType)
      }
      if (values.forall(_ == null)) null else RecordKeys.build(keyFields, values)
    }

  /** [[keyOf]] as UTF-8 bytes, without decoding a string key (valid until the row changes). */
  def keyBytesOf(row: InternalRow): UTF8String =
    if (useMetaKey || stringKeyField) {
      val o = keyOrdinals.head
      if (row.isNullAt(o)) null else row.getUTF8String(o)
    } else if (integralKeyOrdinal >= 0) {
      if (row.isNullAt(integralKeyOrdinal)) null
      else UTF8String.fromString(java.lang.Long.toString(integralKeyOf(row)))
    } else {
      val k = keyOf(row)
      if (k == null) null else UTF8String.fromString(k)
    }

  /** One string key field, whose value is the key ([[RecordKeys.build]] of one field). */
  private val stringKeyField =
    !useMetaKey && keyOrdinals.size == 1 && mergeSchema(keyOrdinals.head).dataType == StringType

  /**
   * The ordinal of the one integral key field whose decimal digits are the key (-1: none): the
   * merges look base rows up by its value ([[io.pyhudi.merge.LogRecords.takeLong]]).
   */
  val integralKeyOrdinal: Int =
    if (useMetaKey || keyOrdinals.size != 1) -1
    else mergeSchema(keyOrdinals.head).dataType match {
      case LongType | IntegerType => keyOrdinals.head
      case _ => -1
    }

  /** Whether the integral key field is a long (else an int). */
  val integralKeyIsLong: Boolean = integralKeyOrdinal >= 0 && mergeSchema(integralKeyOrdinal).dataType == LongType

  /** The integral key field's value of `row`, which must hold one (see [[integralKeyOrdinal]]). */
  def integralKeyOf(row: InternalRow): Long =
    if (integralKeyIsLong) row.getLong(integralKeyOrdinal) else row.getInt(integralKeyOrdinal).toLong

  /** The ordering value of a row in `mergeSchema` in Catalyst's form (null: none, or null). */
  def orderingOf(row: InternalRow): Any = orderingRead(row)

  @transient private lazy val orderingRead = OrderingValues.reader(mergeSchema, orderingOrdinal)

  /** Keeps a row when it was written inside the incremental range (always, otherwise). */
  def inRange(row: InternalRow): Boolean = (incrementalRange, commitTimeOrdinal) match {
    case (Some((begin, end)), Some(o)) =>
      !row.isNullAt(o) && {
        val t = row.getUTF8String(o).toString
        t > begin && t <= end
      }
    case _ => true
  }
}

object SliceReadContext {

  /**
   * The record key field a merge can key rows by instead of `_hoodie_record_key`, when the scan
   * reads that field anyway: the table's key generator writes the field's value, as its string,
   * as the record key (one field of type string, int or long, under Hudi's simple key generator
   * or one of its kind; [[KeyGenType.keyIsFieldValue]]), and the query does not ask for the meta
   * column. The base files' `_hoodie_record_key`, a unique string per row, is then not read at
   * all: it cost a merge-on-read scan about a fifth of a parquet scan's CPU. A table whose
   * properties do not name its key generator keeps the meta column.
   */
  def keyFieldAsKey(config: TableConfig, tableSchema: StructType, required: StructType): Option[String] =
    if (!config.populateMetaFields || required.fieldNames.contains(MetaFields.RecordKey)) None
    else config.recordKeyFields match {
      case Seq(field) =>
        val generator = config.keyGeneratorClass.flatMap(c =>
          Try(KeyGenType.fromClassName(TableConfig.KeyGeneratorClass, c)).toOption)
        val typed = required.find(_.name == field).exists(f =>
          tableSchema.find(_.name == field).exists(_.dataType == f.dataType) &&
            (f.dataType == StringType || f.dataType == LongType || f.dataType == IntegerType))
        if (typed && generator.exists(KeyGenType.keyIsFieldValue(_, 1))) Some(field) else None
      case _ => None
    }
}
