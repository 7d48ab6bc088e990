// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/** An instant named by a cleaner plan (`HoodieActionInstant`); `state` is Hudi's state name, `COMPLETED`. */
final case class ActionInstant(timestamp: String, action: String, state: String = "COMPLETED") {
  private[avro] def toAvro(schema: Schema): GenericRecord =
    record(schema, "timestamp" -> timestamp, "action" -> action, "state" -> state)
}

/** One file a clean deletes (`HoodieCleanFileInfo`); `filePath` is absolute. */
final case class CleanFileInfo(filePath: String, isBootstrapBaseFile: Boolean = false)

/**
 * The content of `T.clean.requested` and `T.clean.inflight` (`HoodieCleanerPlan`, hudi-format.md
 * §8). Version 2 lists the files under `filePathsToBeDeletedPerPartition`, by relative partition
 * path ("" for a non-partitioned table).
 */
final case class CleanerPlan(
    earliestInstantToRetain: Option[ActionInstant],
    policy: String,
    filePathsToBeDeletedPerPartition: Map[String, Seq[CleanFileInfo]],
    version: Option[Int] = Some(2),
    partitionsToBeDeleted: Option[Seq[String]] = None) {

  def filesToDelete: Seq[String] = filePathsToBeDeletedPerPartition.values.flatten.map(_.filePath).toSeq

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.CleanerPlan
    val instantSchema = s.getField("earliestInstantToRetain").schema().getTypes.get(1)
    val fileSchema = s.getField("filePathsToBeDeletedPerPartition").schema().getTypes.get(1)
      .getValueType.getElementType
    write(s,
      record(s,
        "earliestInstantToRetain" -> nullable(earliestInstantToRetain.map(_.toAvro(instantSchema))),
        "policy" -> policy,
        "filesToBeDeletedPerPartition" -> null,
        "version" -> nullable(version.map(Int.box)),
        "filePathsToBeDeletedPerPartition" -> map(filePathsToBeDeletedPerPartition.toSeq.sortBy(_._1).map {
          case (p, files) => p -> list(files.map(f =>
                record(fileSchema,
                  "filePath" -> f.filePath, "isBootstrapBaseFile" -> Boolean.box(f.isBootstrapBaseFile))))
        }.toMap),
        "partitionsToBeDeleted" -> nullable(partitionsToBeDeleted.map(list(_)))))
  }
}

object CleanerPlan {
  def fromBytes(bytes: Array[Byte], what: String = "cleaner plan"): CleanerPlan = {
    val r = read(bytes, TimelineSchemas.CleanerPlan, what)
    val instant = Option(r.get("earliestInstantToRetain")).map(_.asInstanceOf[GenericRecord]).map(i =>
      ActionInstant(str(i, "timestamp").getOrElse(""), str(i, "action").getOrElse(""), str(i, "state").getOrElse("")))
    val files = mapOf(r, "filePathsToBeDeletedPerPartition") { v =>
      v.asInstanceOf[java.util.Collection[AnyRef]].toArray.toSeq.map { f =>
        val g = f.asInstanceOf[GenericRecord]
        CleanFileInfo(str(g, "filePath").getOrElse(""),
          Option(g.get("isBootstrapBaseFile")).exists(_.asInstanceOf[java.lang.Boolean].booleanValue))
      }
    }
    // A version-1 plan (older Hudi) lists the same files by name under the deprecated field.
    val legacy = mapOf(r, "filesToBeDeletedPerPartition") { v =>
      v.asInstanceOf[java.util.Collection[AnyRef]].toArray.toSeq.map(n => CleanFileInfo(n.toString))
    }
    CleanerPlan(instant, str(r, "policy").getOrElse(""), files.orElse(legacy).getOrElse(Map.empty),
      int(r, "version"), strings(r, "partitionsToBeDeleted"))
  }
}

/** What a clean did in one partition (`HoodieCleanPartitionMetadata`); file names, not paths. */
final case class CleanPartitionMetadata(
    partitionPath: String,
    policy: String,
    deletePathPatterns: Seq[String],
    successDeleteFiles: Seq[String],
    failedDeleteFiles: Seq[String],
    isPartitionDeleted: Option[Boolean] = Some(false))

/** The content of the completed `T.clean` (`HoodieCleanMetadata`, hudi-format.md §8). */
final case class CleanMetadata(
    policy: String,
    startCleanTime: String,
    timeTakenInMillis: Long,
    totalFilesDeleted: Int,
    earliestCommitToRetain: String,
    lastCompletedCommitTimestamp: String,
    partitionMetadata: Map[String, CleanPartitionMetadata],
    version: Option[Int] = Some(2)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.CleanMetadata
    val partitionSchema = s.getField("partitionMetadata").schema().getValueType
    write(s,
      record(s,
        "policy" -> policy,
        "startCleanTime" -> startCleanTime,
        "timeTakenInMillis" -> timeTakenInMillis,
        "totalFilesDeleted" -> totalFilesDeleted,
        "earliestCommitToRetain" -> earliestCommitToRetain,
        "lastCompletedCommitTimestamp" -> lastCompletedCommitTimestamp,
        "partitionMetadata" -> map(partitionMetadata.toSeq.sortBy(_._1).map { case (k, p) =>
          k -> record(partitionSchema,
            "partitionPath" -> p.partitionPath,
            "policy" -> p.policy,
            "deletePathPatterns" -> list(p.deletePathPatterns),
            "successDeleteFiles" -> list(p.successDeleteFiles),
            "failedDeleteFiles" -> list(p.failedDeleteFiles),
            "isPartitionDeleted" -> nullable(p.isPartitionDeleted.map(Boolean.box)))
        }.toMap),
        "version" -> nullable(version.map(Int.box)),
        "bootstrapPartitionMetadata" -> null))
  }
}

object CleanMetadata {
  def fromBytes(bytes: Array[Byte], what: String = "clean metadata"): CleanMetadata = {
    val r = read(bytes, TimelineSchemas.CleanMetadata, what)
    CleanMetadata(
      str(r, "policy").getOrElse(""),
      str(r, "startCleanTime").getOrElse(""),
      r.get("timeTakenInMillis").asInstanceOf[Number].longValue,
      r.get("totalFilesDeleted").asInstanceOf[Number].intValue,
      str(r, "earliestCommitToRetain").getOrElse(""),
      str(r, "lastCompletedCommitTimestamp").getOrElse(""),
      mapOf(r, "partitionMetadata") { v =>
        val p = v.asInstanceOf[GenericRecord]
        CleanPartitionMetadata(str(p, "partitionPath").getOrElse(""), str(p, "policy").getOrElse(""),
          strings(p, "deletePathPatterns").getOrElse(Nil), strings(p, "successDeleteFiles").getOrElse(Nil),
          strings(p, "failedDeleteFiles").getOrElse(Nil),
          Option(p.get("isPartitionDeleted")).map(_.asInstanceOf[java.lang.Boolean].booleanValue))
      }.getOrElse(Map.empty),
      int(r, "version"))
  }
}
