// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.time.{DateTimeException, LocalDate}
import java.util.concurrent.TimeUnit

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors

/**
 * The partition path of Hudi's timestamp-based key generator: the partition field read as an
 * instant (per [[TimestampKeyGenConfig.timestampType]]) and printed with the output pattern in
 * the configured zone, before escaping and the hive-style `field=` prefix.
 */
final class TimestampPartitioner(config: TimestampKeyGenConfig, field: KeyField) extends Serializable {
  import TimestampPartitioner._

  TimestampKeyGenConfig.validate(config)
  private val unit: Option[TimeUnit] = config.timeUnit
  checkType(field, unit)

  @transient private lazy val zone =
    TimestampKeyGenConfig.parseZone(WriteConfig.TimebasedTimezone.key, config.timezone)
  @transient private lazy val output = new DatePattern(config.outputDateFormat)
  @transient private lazy val inputs = config.inputPatterns.map(new DatePattern(_))

  /**
   * Hudi reads a null field as the instant one unit after the epoch; for text, that instant
   * printed with the first input pattern and read back.
   */
  @transient private lazy val nullMillis: Long = unit match {
    case Some(u) => TimeUnit.MILLISECONDS.convert(1L, u)
    case None => parseText(inputs.head.format(1L, zone))
  }

  /** The formatted path segment for `row`, not yet escaped. */
  def format(row: InternalRow): String = {
    val v = field.value(row)
    output.format(if (v == null) nullMillis else millis(v), zone)
  }

  private def millis(v: Any): Long = field.dataType match {
    // Spark instants are read as what they are (Hudi does so only with consistent logical
    // timestamps; otherwise it would scale the raw microseconds by the timestamp type's unit).
    case TimestampType => Math.floorDiv(v.asInstanceOf[Long], 1000L)
    case DateType =>
      LocalDate.ofEpochDay(v.asInstanceOf[Int].toLong).atStartOfDay(zone).toInstant.toEpochMilli
    case _: DecimalType => fromUnit(v.asInstanceOf[Decimal].toJavaBigDecimal.longValue)
    case ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType =>
      fromUnit(v.asInstanceOf[Number].longValue) // Hudi truncates fractional values the same way
    case _ => parseText(v.toString)
  }

  private def fromUnit(n: Long): Long = TimeUnit.MILLISECONDS.convert(n, unit.get)

  /** Tries each input pattern in turn, as Hudi's multi-pattern Joda parser does. */
  private def parseText(text: String): Long = {
    val it = inputs.iterator
    var last: DateTimeException = null
    while (it.hasNext) {
      try return it.next().parseMillis(text, zone)
      catch { case e: DateTimeException => last = e }
    }
    throw Errors.invalidPartitionValue(field.name, text,
      s"it does not match the input date format ${config.inputDateFormat.getOrElse("")}" +
        Option(last).map(e => s" (${e.getMessage})").getOrElse(""))
  }
}

object TimestampPartitioner {

  /** Fails at setup when the field's type cannot be read with the timestamp type. */
  private[keygen] def checkType(field: KeyField, unit: Option[TimeUnit]): Unit = {
    val ok = field.dataType match {
      case TimestampType | DateType => true
      case _: StringType | _: CharType | _: VarcharType => unit.isEmpty
      case ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType => unit.nonEmpty
      case _: DecimalType => unit.nonEmpty
      case _ => false
    }
    val why =
      if (unit.isEmpty) s"the ${TimestampKeyGenConfig.DateString} timestamp type cannot read; " +
        "use a string, date or timestamp column"
      else "a numeric timestamp type cannot read; use DATE_STRING for text, or a number, date " +
        "or timestamp column"
    if (!ok) throw Errors.unsupportedKeyFieldType(
      KeyGenConfig.PartitionRole, field.name, field.dataType.simpleString, why)
  }
}
