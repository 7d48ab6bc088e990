// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.time.LocalDateTime
import java.time.format.{DateTimeFormatter, DateTimeParseException, ResolverStyle}

import io.pyhudi.errors.Errors

/**
 * Instant times are 17-digit `yyyyMMddHHmmssSSS` strings (14 digits in old tables) in the
 * table's timeline time zone; they order lexicographically. Converting a user's string never
 * shifts time zones: the digits are re-spelled, as Apache Hudi does.
 */
object InstantTime {

  val Formats: Seq[String] =
    Seq("yyyyMMddHHmmssSSS", "yyyyMMddHHmmss", "yyyy-MM-dd HH:mm:ss[.SSS]")

  private val millisFormat = DateTimeFormatter.ofPattern("uuuuMMddHHmmssSSS")
    .withResolverStyle(ResolverStyle.STRICT)
  private val secondsFormat = DateTimeFormatter.ofPattern("uuuuMMddHHmmss")
    .withResolverStyle(ResolverStyle.STRICT)
  private val dashedFormat = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss[.SSS]")
    .withResolverStyle(ResolverStyle.STRICT)

  /** True for a timeline file's instant part: digits only, 14 or 17 characters or longer. */
  def isInstant(s: String): Boolean = s.length >= 14 && s.forall(_.isDigit)

  /**
   * A time-travel instant from one of [[Formats]], normalised to 17 digits. Errors name the
   * option and the accepted formats.
   */
  def parseQueryInstant(key: String, value: String): String = {
    val v = value.trim
    def bad(): Nothing = throw Errors.invalidOption(key, value,
      s"expected an instant in one of the formats ${Formats.mkString(", ")}")
    val parsed =
      try {
        if (v.length == 17 && v.forall(_.isDigit)) Some(LocalDateTime.parse(v, millisFormat))
        else if (v.length == 14 && v.forall(_.isDigit)) Some(LocalDateTime.parse(v, secondsFormat))
        else if (v.length == 19 || v.length == 23) Some(LocalDateTime.parse(v, dashedFormat))
        else None
      } catch { case _: DateTimeParseException => None }
    parsed.map(millisFormat.format).getOrElse(bad())
  }

  /**
   * An incremental range bound: any query-instant format, or a digit string shorter than an
   * instant (Hudi users write `000` for "from the start"), which compares below every instant.
   */
  def parseBound(key: String, value: String): String = {
    val v = value.trim
    if (v.nonEmpty && v.length < 14 && v.forall(_.isDigit)) v
    else parseQueryInstant(key, value)
  }
}
