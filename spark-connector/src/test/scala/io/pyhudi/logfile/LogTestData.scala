// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import org.apache.avro.{Schema, SchemaBuilder}
import org.apache.avro.generic.{GenericData, GenericRecord}

/** Small blocks for synthetic log files. */
object LogTestData {

  val schema: Schema = SchemaBuilder.record("t_record").namespace("hoodie.t").fields()
    .optionalString("_hoodie_record_key")
    .optionalLong("ts")
    .optionalString("name")
    .endRecord()

  def record(key: String, ts: Long, name: String): GenericRecord = {
    val r = new GenericData.Record(schema)
    r.put("_hoodie_record_key", key)
    r.put("ts", ts)
    r.put("name", name)
    r
  }

  def data(instant: String, keys: String*): AvroDataBlock =
    LogBlockWriter.avroDataBlock(instant, schema, keys.map(k => record(k, 1L, s"name-$k")))

  def delete(instant: String, keys: String*): DeleteBlock =
    LogBlockWriter.deleteBlock(instant, schema, keys.map(DeleteRecord(_, Some("p"), None)))

  def bytes(blocks: LogBlock*): Array[Byte] = LogBlockWriter.encodeFile(blocks)

  def keys(block: LogBlock): Seq[String] = block match {
    case b: AvroDataBlock => b.records.map(_.get("_hoodie_record_key").toString).toList
    case b: DeleteBlock => b.deletes.map(_.recordKey)
    case _ => Nil
  }

  def hex(s: String): Array[Byte] =
    s.replaceAll("\\s", "").grouped(2).map(Integer.parseInt(_, 16).toByte).toArray
}
