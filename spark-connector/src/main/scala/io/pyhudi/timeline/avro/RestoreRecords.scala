// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.avro.AvroContainer._

/**
 * The content of `R.restore.requested` (`HoodieRestorePlan`): the instants a restore rolls
 * back, newest first, and the savepoint it restores to.
 */
final case class RestorePlan(
    instantsToRollback: Seq[InstantInfo],
    savepointToRestoreTimestamp: Option[String],
    version: Option[Int] = Some(2)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.RestorePlan
    val instantSchema = s.getField("instantsToRollback").schema().getElementType
    write(s,
      record(s,
        "instantsToRollback" -> list(instantsToRollback.map(_.toAvro(instantSchema))),
        "version" -> nullable(version.map(Int.box)),
        "savepointToRestoreTimestamp" -> nullable(savepointToRestoreTimestamp)))
  }
}

object RestorePlan {
  def fromBytes(bytes: Array[Byte], what: String = "restore plan"): RestorePlan = {
    val r = read(bytes, TimelineSchemas.RestorePlan, what)
    RestorePlan(records(r, "instantsToRollback").getOrElse(Nil).map(InstantInfo.fromAvro),
      str(r, "savepointToRestoreTimestamp"), int(r, "version"))
  }
}

/**
 * The content of the completed `R.restore` (`HoodieRestoreMetadata`): per rolled-back instant
 * the metadata of the rollback that removed it.
 */
final case class RestoreMetadata(
    startRestoreTime: String,
    timeTakenInMillis: Long,
    instantsToRollback: Seq[String],
    rollbacks: Map[String, Seq[RollbackMetadata]],
    restoreInstantInfo: Seq[InstantInfo],
    version: Option[Int] = Some(1)) {

  def toBytes: Array[Byte] = {
    val s = TimelineSchemas.RestoreMetadata
    val instantSchema = s.getField("restoreInstantInfo").schema().getElementType
    write(s,
      record(s,
        "startRestoreTime" -> startRestoreTime,
        "timeTakenInMillis" -> timeTakenInMillis,
        "instantsToRollback" -> list(instantsToRollback),
        "hoodieRestoreMetadata" -> map(rollbacks.map { case (t, ms) => t -> list(ms.map(_.toRecord)) }),
        "version" -> nullable(version.map(Int.box)),
        "restoreInstantInfo" -> list(restoreInstantInfo.map(_.toAvro(instantSchema))),
        "extraMetadata" -> null))
  }
}

object RestoreMetadata {
  def fromBytes(bytes: Array[Byte], what: String = "restore metadata"): RestoreMetadata = {
    val r = read(bytes, TimelineSchemas.RestoreMetadata, what)
    RestoreMetadata(
      str(r, "startRestoreTime").getOrElse(""),
      Option(r.get("timeTakenInMillis")).map(_.asInstanceOf[Number].longValue).getOrElse(0L),
      strings(r, "instantsToRollback").getOrElse(Nil),
      mapOf(r, "hoodieRestoreMetadata") { v =>
        v.asInstanceOf[java.util.Collection[AnyRef]].toArray.toSeq.collect {
          case m: GenericRecord => RollbackMetadata.fromRecord(m)
        }
      }.getOrElse(Map.empty),
      records(r, "restoreInstantInfo").getOrElse(Nil).map(InstantInfo.fromAvro),
      int(r, "version"))
  }
}
