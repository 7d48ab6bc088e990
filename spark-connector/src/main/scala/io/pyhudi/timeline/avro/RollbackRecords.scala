// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/** An instant named inside rollback records (`HoodieInstantInfo`). */
final case class InstantInfo(commitTime: String, action: String) {
  private[avro] def toAvro(schema: Schema): GenericRecord =
    record(schema, "commitTime" -> commitTime, "action" -> action)
}

object InstantInfo {
  private[avro] def fromAvro(r: GenericRecord): InstantInfo =
    InstantInfo(str(r, "commitTime").getOrElse(""), str(r, "action").getOrElse(""))
}

/**
 * What a rollback does to one file group or file (`HoodieRollbackRequest`). Paths are absolute.
 *
 * @param filesToBeDeleted     base files to delete
 * @param logBlocksToBeDeleted log files holding blocks of the rolled-back instant → their sizes;
 *                             a rollback command block goes into the slice's next log file
 */
final case class RollbackRequest(
    partitionPath: String,
    fileId: Option[String],
    latestBaseInstant: Option[String],
    filesToBeDeleted: Seq[String],
    logBlocksToBeDeleted: Option[Map[String, Long]])

/** The content of `R.rollback.requested` (`HoodieRollbackPlan`, hudi-format.md §7, §8.1). */
final case class RollbackPlan(
    instantToRollback: Option[InstantInfo],
    rollbackRequests: Option[Seq[RollbackRequest]],
    version: Option[Int] = Some(1)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.RollbackPlan
    val requestSchema = s.getField("RollbackRequests").schema().getTypes.get(1).getElementType
    val instantSchema = s.getField("instantToRollback").schema().getTypes.get(1)
    write(s,
      record(s,
        "instantToRollback" -> nullable(instantToRollback.map(_.toAvro(instantSchema))),
        "RollbackRequests" -> nullable(rollbackRequests.map(rs =>
            list(rs.map { q =>
                record(requestSchema,
                  "partitionPath" -> q.partitionPath,
                  "fileId" -> nullable(q.fileId),
                  "latestBaseInstant" -> nullable(q.latestBaseInstant),
                  "filesToBeDeleted" -> list(q.filesToBeDeleted),
                  "logBlocksToBeDeleted" -> nullable(q.logBlocksToBeDeleted.map(longMap)))
              }))),
        "version" -> nullable(version.map(Int.box))))
  }
}

object RollbackPlan {
  def fromBytes(bytes: Array[Byte], what: String = "rollback plan"): RollbackPlan = {
    val r = read(bytes, TimelineSchemas.RollbackPlan, what)
    RollbackPlan(
      Option(r.get("instantToRollback")).map(i => InstantInfo.fromAvro(i.asInstanceOf[GenericRecord])),
      records(r, "RollbackRequests").map(_.map { q =>
        RollbackRequest(str(q, "partitionPath").getOrElse(""), str(q, "fileId"),
          str(q, "latestBaseInstant"), strings(q, "filesToBeDeleted").getOrElse(Nil),
          mapOf(q, "logBlocksToBeDeleted")(_.asInstanceOf[Number].longValue))
      }),
      int(r, "version"))
  }
}

/** What a rollback did in one partition (`HoodieRollbackPartitionMetadata`); paths absolute. */
final case class RollbackPartitionMetadata(
    partitionPath: String,
    successDeleteFiles: Seq[String],
    failedDeleteFiles: Seq[String],
    rollbackLogFiles: Option[Map[String, Long]],
    logFilesFromFailedCommit: Option[Map[String, Long]])

/** The content of the completed `R.rollback` (`HoodieRollbackMetadata`, hudi-format.md §8.1). */
final case class RollbackMetadata(
    startRollbackTime: String,
    timeTakenInMillis: Long,
    totalFilesDeleted: Int,
    commitsRollback: Seq[String],
    partitionMetadata: Map[String, RollbackPartitionMetadata],
    version: Option[Int] = Some(1),
    instantsRollback: Seq[InstantInfo] = Nil) {

  def toBytes: Array[Byte] = write(TimelineSchemas.RollbackMetadata, toRecord)

  private[avro] def toRecord: GenericRecord = {
    val s = TimelineSchemas.RollbackMetadata
    val partitionSchema = s.getField("partitionMetadata").schema().getValueType
    val instantSchema = s.getField("instantsRollback").schema().getElementType
    record(s,
      "startRollbackTime" -> startRollbackTime,
      "timeTakenInMillis" -> timeTakenInMillis,
      "totalFilesDeleted" -> totalFilesDeleted,
      "commitsRollback" -> list(commitsRollback),
      "partitionMetadata" -> map(partitionMetadata.map { case (k, p) =>
        k -> record(partitionSchema,
          "partitionPath" -> p.partitionPath,
          "successDeleteFiles" -> list(p.successDeleteFiles),
          "failedDeleteFiles" -> list(p.failedDeleteFiles),
          "rollbackLogFiles" -> nullable(p.rollbackLogFiles.map(longMap)),
          "logFilesFromFailedCommit" -> nullable(p.logFilesFromFailedCommit.map(longMap)))
      }),
      "version" -> nullable(version.map(Int.box)),
      "instantsRollback" -> list(instantsRollback.map(_.toAvro(instantSchema))))
  }
}

object RollbackMetadata {
  def fromBytes(bytes: Array[Byte], what: String = "rollback metadata"): RollbackMetadata =
    fromRecord(read(bytes, TimelineSchemas.RollbackMetadata, what))

  private[avro] def fromRecord(r: GenericRecord): RollbackMetadata = {
    RollbackMetadata(
      str(r, "startRollbackTime").getOrElse(""),
      r.get("timeTakenInMillis").asInstanceOf[Number].longValue,
      r.get("totalFilesDeleted").asInstanceOf[Number].intValue,
      strings(r, "commitsRollback").getOrElse(Nil),
      mapOf(r, "partitionMetadata") { v =>
        val p = v.asInstanceOf[GenericRecord]
        RollbackPartitionMetadata(str(p, "partitionPath").getOrElse(""),
          strings(p, "successDeleteFiles").getOrElse(Nil), strings(p, "failedDeleteFiles").getOrElse(Nil),
          mapOf(p, "rollbackLogFiles")(_.asInstanceOf[Number].longValue),
          mapOf(p, "logFilesFromFailedCommit")(_.asInstanceOf[Number].longValue))
      }.getOrElse(Map.empty),
      int(r, "version"),
      records(r, "instantsRollback").getOrElse(Nil).map(InstantInfo.fromAvro))
  }
}
