// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.keygen.RecordKeys
import io.pyhudi.merge.MergeMode
import io.pyhudi.timeline.InstantVisibility

/**
 * Everything an executor needs to read slices of one scan, computed once on the driver.
 *
 * @param mergeSchema       columns read from base files and log blocks: the requested columns
 *                          plus the key, ordering and commit-time columns merging needs
 * @param keyOrdinals       `_hoodie_record_key`'s ordinal, or the record key fields' ordinals
 *                          when the table does not populate meta fields
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

  /** The record key of a row in `mergeSchema`; null when the key columns are null. */
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

  /** [[keyOf]] as UTF-8 bytes, without decoding a meta-column key (valid until the row changes). */
  def keyBytesOf(row: InternalRow): UTF8String =
    if (useMetaKey) {
      val o = keyOrdinals.head
      if (row.isNullAt(o)) null else row.getUTF8String(o)
    } else {
      val k = keyOf(row)
      if (k == null) null else UTF8String.fromString(k)
    }

  def orderingOf(row: InternalRow): Any = orderingOrdinal match {
    case Some(o) if !row.isNullAt(o) => row.get(o, mergeSchema(o).dataType)
    case _ => null
  }

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
