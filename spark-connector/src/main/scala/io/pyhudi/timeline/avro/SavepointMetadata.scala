// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/**
 * The content of the completed `T.savepoint` (`HoodieSavepointMetadata`): who took it, when
 * (epoch seconds, as Hudi writes it), a free-text comment, and per partition the names (not
 * paths) of the files of every latest slice as of `T`, which cleaning must then keep.
 */
final case class SavepointMetadata(
    savepointedBy: String,
    savepointedAt: Long,
    comments: String,
    partitionMetadata: Map[String, Seq[String]],
    version: Option[Int] = Some(1)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.SavepointMetadata
    val partitionSchema = s.getField("partitionMetadata").schema().getValueType
    write(s,
      record(s,
        "savepointedBy" -> savepointedBy,
        "savepointedAt" -> savepointedAt,
        "comments" -> comments,
        "partitionMetadata" -> map(partitionMetadata.map { case (p, files) =>
          p -> record(partitionSchema, "partitionPath" -> p, "savepointDataFile" -> list(files))
        }),
        "version" -> nullable(version.map(Int.box))))
  }

  def fileCount: Int = partitionMetadata.values.map(_.size).sum

  /** The names of every file the savepoint keeps (names are unique across partitions). */
  def fileNames: Set[String] = partitionMetadata.values.flatten.toSet
}

object SavepointMetadata {
  def fromBytes(bytes: Array[Byte], what: String = "savepoint metadata"): SavepointMetadata = {
    val r = read(bytes, TimelineSchemas.SavepointMetadata, what)
    SavepointMetadata(
      str(r, "savepointedBy").getOrElse(""),
      Option(r.get("savepointedAt")).map(_.asInstanceOf[Number].longValue).getOrElse(0L),
      str(r, "comments").getOrElse(""),
      mapOf(r, "partitionMetadata") { v =>
        strings(v.asInstanceOf[GenericRecord], "savepointDataFile").getOrElse(Nil)
      }.getOrElse(Map.empty),
      int(r, "version"))
  }
}
