// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

/**
 * How a log record meets the base record of the same key.
 *  - [[MergeMode.LatestWins]]: the log record replaces the base record (Hudi's default payload,
 *    `OverwriteWithLatestAvroPayload`).
 *  - [[MergeMode.EventTime]]: the record with the larger ordering value survives
 *    (`DefaultHoodieRecordPayload`, `EventTimeAvroPayload`).
 * Among log records both modes keep the larger ordering value, the later write on ties, as
 * Apache Hudi's pre-combine does.
 */
sealed trait MergeMode extends Serializable
object MergeMode {
  case object LatestWins extends MergeMode
  case object EventTime extends MergeMode

  val EventTimePayload = "org.apache.hudi.common.model.DefaultHoodieRecordPayload"
  val LatestWinsPayload = "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"

  /**
   * The payload a new table records. With an ordering field it is DefaultHoodieRecordPayload:
   * Apache Hudi 1.x reads OverwriteWithLatestAvroPayload as commit-time ordering while 0.x
   * de-duplicates and merges log records by ordering value, so only event-time ordering means
   * the same to every engine. Without one, nothing can be compared and the latest write wins.
   */
  def defaultPayloadClass(hasOrderingField: Boolean): String =
    if (hasOrderingField) EventTimePayload else LatestWinsPayload

  def fromPayloadClass(payload: Option[String]): MergeMode = payload match {
    case Some(p) if p.endsWith("DefaultHoodieRecordPayload") || p.endsWith("EventTimeAvroPayload") =>
      EventTime
    case _ => LatestWins
  }
}
