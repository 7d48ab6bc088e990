// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/**
 * The content of `T.replacecommit.requested` (`HoodieRequestedReplaceMetadata`). Hudi's Spark
 * writer leaves all four fields null for insert_overwrite (hudi-format.md §2.2); a clustering
 * plan, when present, is kept as the raw record under [[TimelineSchemas.RequestedReplaceMetadata]].
 */
final case class RequestedReplaceMetadata(
    operationType: Option[String] = None,
    clusteringPlan: Option[GenericRecord] = None,
    extraMetadata: Option[Map[String, String]] = None,
    version: Option[Int] = None) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.RequestedReplaceMetadata
    write(s,
      record(s,
        "operationType" -> nullable(operationType),
        "clusteringPlan" -> nullable(clusteringPlan),
        "extraMetadata" -> nullable(extraMetadata.map(map(_))),
        "version" -> nullable(version.map(Int.box))))
  }
}

object RequestedReplaceMetadata {

  /** What Hudi's Spark writer requests for insert_overwrite and delete_partition: all null. */
  val InsertOverwrite: RequestedReplaceMetadata = RequestedReplaceMetadata()

  def fromBytes(bytes: Array[Byte], what: String = "requested replace metadata"): RequestedReplaceMetadata = {
    val r = read(bytes, TimelineSchemas.RequestedReplaceMetadata, what)
    RequestedReplaceMetadata(str(r, "operationType"),
      Option(r.get("clusteringPlan")).map(_.asInstanceOf[GenericRecord]),
      mapOf(r, "extraMetadata")(_.toString), int(r, "version"))
  }
}
