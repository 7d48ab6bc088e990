// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType

import io.pyhudi.errors.Errors

/**
 * Computes `_hoodie_record_key` and `_hoodie_partition_path` of the rows of one write, with the
 * strings Apache Hudi 0.14's key generators produce (hudi-format.md §1.6). Fields are resolved
 * once here, so a bad config fails on the driver; the instance is then shipped to tasks.
 *
 * @throws io.pyhudi.errors.InvalidOptionException when `config` does not fit `schema`
 */
final class KeyGenerator(val config: KeyGenConfig, schema: StructType) extends Serializable {
  import KeyGenType._

  private val (keyFields, partitionFields) = KeyGenConfig.resolve(config, schema)

  // Hudi's simple, timestamp-based and (for one field) non-partitioned generators use the bare
  // value; the complex one always writes `field:value` pairs, even for a single field.
  private val compositeKey = config.generator match {
    case Complex => true
    case NonPartitioned => keyFields.size > 1
    case Simple | TimestampBased => false
  }

  private val timestamp: Option[TimestampPartitioner] =
    if (config.generator != TimestampBased) None
    else config.timestamp.map(new TimestampPartitioner(_, partitionFields.head))

  /**
   * The record key of `row`.
   *
   * @throws io.pyhudi.errors.InvalidRecordException for a null or empty single-field key, or
   *                                                 when every field of a composite key is
   */
  def recordKey(row: InternalRow): String =
    if (!compositeKey) {
      val f = keyFields.head
      val v = f.string(row)
      if (v == null || v.isEmpty) throw Errors.nullOrEmptyRecordKey(f.name, v)
      v
    } else {
      val sb = new java.lang.StringBuilder
      var allNullOrEmpty = true
      keyFields.foreach { f =>
        val v = f.string(row)
        if (sb.length > 0) sb.append(',')
        sb.append(f.name).append(':')
        if (v == null) sb.append(RecordKeys.NullValue)
        else if (v.isEmpty) sb.append(RecordKeys.EmptyValue)
        else { sb.append(v); allNullOrEmpty = false }
      }
      if (allNullOrEmpty) throw Errors.nullOrEmptyRecordKeys(keyFields.map(_.name), sb.toString)
      sb.toString
    }

  /**
   * The partition path of `row`, relative to the base path: `""` when non-partitioned, else one
   * segment per field joined by `/` (null or empty values become `__HIVE_DEFAULT_PARTITION__`).
   *
   * @throws io.pyhudi.errors.InvalidRecordException when a value cannot be read as a timestamp
   *                                                 or the path would contain a `..` segment
   */
  def partitionPath(row: InternalRow): String = {
    val path = timestamp match {
      case Some(ts) => segment(partitionFields.head, ts.format(row), substituteEmpty = false)
      case None if partitionFields.isEmpty => ""
      case None if partitionFields.size == 1 => segment(partitionFields.head, row)
      case None => partitionFields.map(segment(_, row)).mkString("/")
    }
    if (path.contains("..") && path.split('/').contains(".."))
      throw Errors.partitionPathTraversal(path, partitionFields.map(_.name))
    path
  }

  private def segment(field: KeyField, row: InternalRow): String = segment(field, field.string(row))

  private def segment(field: KeyField, value: String, substituteEmpty: Boolean = true): String = {
    val v =
      if (substituteEmpty && (value == null || value.isEmpty)) PartitionValues.HiveDefaultPartition
      else if (config.urlEncode) PartitionPathEncoding.escape(value)
      else value
    if (config.hiveStyle) field.name + "=" + v else v
  }
}
