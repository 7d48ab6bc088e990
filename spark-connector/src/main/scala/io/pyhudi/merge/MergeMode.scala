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

  def fromPayloadClass(payload: Option[String]): MergeMode = payload match {
    case Some(p) if p.endsWith("DefaultHoodieRecordPayload") || p.endsWith("EventTimeAvroPayload") =>
      EventTime
    case _ => LatestWins
  }
}
