// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.time.{DateTimeException, ZoneId}
import java.util.Locale
import java.util.concurrent.TimeUnit

import scala.util.control.NonFatal

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.{Errors, PyhudiException}

/**
 * Settings of the timestamp-based key generator (Hudi's `hoodie.keygen.timebased.*`).
 *
 * @param timestampType    how the partition field is read: `UNIX_TIMESTAMP` (seconds),
 *                         `EPOCHMILLISECONDS`, `SCALAR` (numbers in `scalarTimeUnit`) or
 *                         `DATE_STRING` (text in `inputDateFormat`). Spark timestamp and date
 *                         columns are read as instants whatever the type.
 * @param inputDateFormat  Joda-Time pattern(s), comma separated, for `DATE_STRING`
 * @param outputDateFormat Joda-Time pattern of the partition path, e.g. `yyyy/MM/dd/HH`
 * @param timezone         zone for formatting the path and for input text without an offset
 * @param scalarTimeUnit   a `java.util.concurrent.TimeUnit` name, for `SCALAR`
 */
final case class TimestampKeyGenConfig(
    timestampType: String,
    inputDateFormat: Option[String],
    outputDateFormat: String,
    timezone: String = TimestampKeyGenConfig.DefaultTimezone,
    scalarTimeUnit: String = TimestampKeyGenConfig.DefaultScalarTimeUnit) {

  /** The time unit of numeric values; None for `DATE_STRING`. */
  def timeUnit: Option[TimeUnit] = timestampType.trim.toUpperCase(Locale.ROOT) match {
    case TimestampKeyGenConfig.UnixTimestamp => Some(TimeUnit.SECONDS)
    case TimestampKeyGenConfig.EpochMilliseconds => Some(TimeUnit.MILLISECONDS)
    case TimestampKeyGenConfig.Scalar => Some(TimeUnit.valueOf(scalarTimeUnit.toUpperCase(Locale.ROOT)))
    case _ => None
  }

  /** The input patterns, split the way Hudi splits its list (on commas, trimmed). */
  def inputPatterns: Seq[String] =
    inputDateFormat.toSeq.flatMap(_.split(',')).map(_.trim).filter(_.nonEmpty)
}

object TimestampKeyGenConfig {
  val UnixTimestamp = "UNIX_TIMESTAMP"
  val DateString = "DATE_STRING"
  val EpochMilliseconds = "EPOCHMILLISECONDS"
  val Scalar = "SCALAR"
  val TimestampTypes: Seq[String] = Seq(UnixTimestamp, DateString, EpochMilliseconds, Scalar)
  val TimeUnits: Seq[String] = TimeUnit.values().toSeq.map(_.name)
  val DefaultTimezone = "UTC"
  val DefaultScalarTimeUnit = "SECONDS"

  /** Reads the `hoodie.keygen.timebased.*` options; the type and output format are required. */
  def fromOptions(options: Map[String, String]): TimestampKeyGenConfig = {
    def required[T](e: io.pyhudi.config.ConfigEntry[T]): T = e.from(options).getOrElse(
      throw Errors.missingOption(e.key, "by the timestamp-based key generator"))
    val config = TimestampKeyGenConfig(
      required(WriteConfig.TimebasedTimestampType),
      WriteConfig.TimebasedInputDateFormat.from(options),
      required(WriteConfig.TimebasedOutputDateFormat),
      WriteConfig.TimebasedTimezone.from(options).getOrElse(DefaultTimezone),
      WriteConfig.TimebasedScalarTimeUnit.from(options).getOrElse(DefaultScalarTimeUnit))
    validate(config)
    config
  }

  /** Fails naming the option at fault when a hand-built or parsed config is unusable. */
  def validate(c: TimestampKeyGenConfig): Unit = {
    parseType(WriteConfig.TimebasedTimestampType.key, c.timestampType)
    parseTimeUnit(WriteConfig.TimebasedScalarTimeUnit.key, c.scalarTimeUnit)
    parseZone(WriteConfig.TimebasedTimezone.key, c.timezone)
    parsePattern(WriteConfig.TimebasedOutputDateFormat.key, c.outputDateFormat)
    c.inputDateFormat.foreach(parsePatterns(WriteConfig.TimebasedInputDateFormat.key, _))
    if (c.timeUnit.isEmpty && c.inputPatterns.isEmpty)
      throw Errors.missingOption(WriteConfig.TimebasedInputDateFormat.key,
        s"when the timestamp type is $DateString")
  }

  def parseType(key: String, value: String): String = {
    val v = value.trim.toUpperCase(Locale.ROOT)
    if (TimestampTypes.contains(v)) v
    else if (v == "MIXED" || v == "EPOCHMICROSECONDS") throw Errors.invalidOption(key, value,
      s"not supported yet; supported: ${TimestampTypes.mkString(", ")}")
    else throw Errors.invalidEnumOption(key, value, TimestampTypes)
  }

  def parseTimeUnit(key: String, value: String): String = {
    val v = value.trim.toUpperCase(Locale.ROOT)
    if (TimeUnits.contains(v)) v else throw Errors.invalidEnumOption(key, value, TimeUnits)
  }

  /** A zone id such as `UTC`, `Asia/Kolkata`, `+05:30` or a short id such as `PST`. */
  def parseZone(key: String, value: String): ZoneId =
    try ZoneId.of(value.trim, ZoneId.SHORT_IDS)
    catch { case e: DateTimeException => throw Errors.invalidOption(key, value, e.getMessage) }

  def parsePattern(key: String, value: String): DatePattern =
    try new DatePattern(value)
    catch {
      // The option names the key; the pattern's own error adds only what is wrong with it.
      case e: PyhudiException =>
        throw Errors.invalidOption(key, value, s"not a usable date pattern: ${e.detail}")
      case NonFatal(e) =>
        throw Errors.invalidOption(key, value, s"not a usable date pattern: ${e.getMessage}")
    }

  def parsePatterns(key: String, value: String): Seq[DatePattern] =
    value.split(',').toSeq.map(_.trim).filter(_.nonEmpty).map(parsePattern(key, _))
}
