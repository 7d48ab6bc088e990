// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/**
 * One file slice to compact (`HoodieCompactionOperation`, hudi-format.md §2.5). In a version-2
 * plan, `dataFilePath` and `deltaFilePaths` are file *names* without the partition folder.
 */
final case class CompactionOperation(
    baseInstantTime: Option[String],
    deltaFilePaths: Option[Seq[String]],
    dataFilePath: Option[String],
    fileId: Option[String],
    partitionPath: Option[String],
    metrics: Option[Map[String, Double]] = None,
    bootstrapFilePath: Option[String] = None)

/** The content of `T.compaction.requested` (`HoodieCompactionPlan`); write `version` 2. */
final case class CompactionPlan(
    operations: Option[Seq[CompactionOperation]],
    extraMetadata: Option[Map[String, String]] = None,
    version: Option[Int] = Some(2)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.CompactionPlan
    val opSchema = s.getField("operations").schema().getTypes.get(1).getElementType
    write(s,
      record(s,
        "operations" -> nullable(operations.map(ops =>
            list(ops.map { o =>
                record(opSchema,
                  "baseInstantTime" -> nullable(o.baseInstantTime),
                  "deltaFilePaths" -> nullable(o.deltaFilePaths.map(list(_))),
                  "dataFilePath" -> nullable(o.dataFilePath),
                  "fileId" -> nullable(o.fileId),
                  "partitionPath" -> nullable(o.partitionPath),
                  "metrics" -> nullable(o.metrics.map(m => map(m.map { case (k, v) => k -> Double.box(v) }))),
                  "bootstrapFilePath" -> nullable(o.bootstrapFilePath))
              }))),
        "extraMetadata" -> nullable(extraMetadata.map(map(_))),
        "version" -> nullable(version.map(Int.box))))
  }
}

object CompactionPlan {
  def fromBytes(bytes: Array[Byte], what: String = "compaction plan"): CompactionPlan = {
    val r = read(bytes, TimelineSchemas.CompactionPlan, what)
    CompactionPlan(
      records(r, "operations").map(_.map { (o: GenericRecord) =>
        CompactionOperation(str(o, "baseInstantTime"), strings(o, "deltaFilePaths"),
          str(o, "dataFilePath"), str(o, "fileId"), str(o, "partitionPath"),
          mapOf(o, "metrics")(_.asInstanceOf[Number].doubleValue), str(o, "bootstrapFilePath"))
      }),
      mapOf(r, "extraMetadata")(_.toString),
      int(r, "version"))
  }
}
