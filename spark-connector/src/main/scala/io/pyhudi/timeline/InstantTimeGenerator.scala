// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import java.time.{Instant => JInstant, LocalDateTime, ZoneOffset}
import java.time.format.DateTimeFormatter

/**
 * Hands out new instant times (hudi-format.md §2.1): the current UTC time as
 * `yyyyMMddHHmmssSSS`, strictly greater than every instant already on the timeline and every
 * time this generator handed out before. When the clock has not moved past them (same
 * millisecond, clock skew, a timeline written in a time zone ahead of UTC), the time is the
 * newest known instant plus one millisecond instead of waiting.
 *
 * Tables written by this generator should carry `hoodie.table.timeline.timezone=UTC`.
 *
 * @param clock epoch milliseconds; replaceable in tests
 */
final class InstantTimeGenerator(clock: () => Long = () => System.currentTimeMillis()) {

  private var lastIssued: Option[String] = None

  /** A new instant time greater than every instant in `existing` (any action, any state). */
  def next(existing: Iterable[String]): String = synchronized {
    val now = InstantTimeGenerator.format(clock())
    val newest = (existing ++ lastIssued).foldLeft(Option.empty[String]) {
      case (None, t) => Some(t)
      case (Some(m), t) => Some(if (t > m) t else m)
    }
    val chosen = newest match {
      case Some(n) if now <= n => InstantTimeGenerator.plusOneMilli(n)
      case _ => now
    }
    lastIssued = Some(chosen)
    chosen
  }

  /** A new instant time greater than every instant of `timeline`. */
  def next(timeline: Timeline): String = next(timeline.instants.map(_.timestamp))
}

object InstantTimeGenerator {

  private val Format = DateTimeFormatter.ofPattern("uuuuMMddHHmmssSSS")

  /** The generator shared by every writer of this JVM, so that its instants never repeat. */
  lazy val Default: InstantTimeGenerator = new InstantTimeGenerator()

  /** Epoch milliseconds as a 17-digit UTC instant time. */
  def format(epochMillis: Long): String =
    Format.format(LocalDateTime.ofInstant(JInstant.ofEpochMilli(epochMillis), ZoneOffset.UTC))

  /**
   * The instant one millisecond after `t`. 14-digit instants are read as whole seconds; longer
   * ones (metadata-table suffixes) by their first 17 digits, so the result sorts after `t`.
   * Digits that are no calendar time are incremented as a number.
   */
  def plusOneMilli(t: String): String = {
    val millis = t.take(17).padTo(17, '0')
    try Format.format(LocalDateTime.parse(millis, Format).plusNanos(1000000L))
    catch {
      case _: java.time.DateTimeException => (BigInt(millis) + 1).toString.reverse.padTo(17, '0').reverse
    }
  }
}
