// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.avro

import scala.collection.mutable

import org.apache.avro.Schema
import org.apache.avro.generic.{GenericRecord, IndexedRecord}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType

/**
 * Converts Avro records into Catalyst rows of `target`, whatever schema wrote them: each target
 * field is looked up in the writer schema by name (case-sensitive first, then
 * case-insensitive), nested records included. Fields the writer lacks read as null, writer
 * fields the target lacks are skipped, and values are widened where schema evolution allows
 * (int to long, float or double; long to float or double; float to double; int to byte or
 * short; string to or from binary; decimal precision and scale changes).
 *
 * Every call returns a new row sharing nothing with the record, so rows may be kept (as a
 * merge of log records does). Not thread-safe: use one instance per task.
 */
final class AvroDeserializer(target: StructType) {

  // Log blocks hold many records of one writer schema: the last one is checked by reference
  // before the map, whose lookup hashes and compares schemas structurally.
  private val byWriter = mutable.HashMap.empty[Schema, IndexedRecord => InternalRow]
  private var lastWriter: Schema = _
  private var lastRead: IndexedRecord => InternalRow = _

  /**
   * The row of `target` for `record`.
   * @throws io.pyhudi.errors.InvalidTableException when a matched field's writer type cannot be
   *   read as its target type, or the writer schema holds an unsupported union
   */
  def deserialize(record: GenericRecord): InternalRow = {
    val writer = record.getSchema
    if (writer ne lastWriter) {
      lastRead = byWriter.getOrElseUpdate(writer, AvroValueConverters.record(writer, target, ""))
      lastWriter = writer
    }
    lastRead(record)
  }
}
