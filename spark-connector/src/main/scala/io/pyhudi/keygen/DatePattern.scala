// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.time.{Instant, LocalDate, LocalTime, ZoneId, ZonedDateTime}
import java.time.format.{DateTimeFormatter, DateTimeFormatterBuilder, DateTimeParseException}
import java.time.format.{SignStyle, TextStyle}
import java.time.temporal.{ChronoField, IsoFields, TemporalField, TemporalQueries}
import java.util.Locale

import io.pyhudi.errors.Errors

import ChronoField._

/**
 * A Joda-Time date pattern, the syntax of Hudi's `hoodie.keygen.timebased.*.dateformat`,
 * compiled to java.time formatters that print what Joda prints and parse what it parses.
 * Letters differ between the two libraries (Joda `Y` is year of era, `Z` accepts `Z` when
 * parsing, `[]{}#` are plain literals), so the pattern is tokenised here rather than handed to
 * `DateTimeFormatter.ofPattern`. Like Joda, values carry millisecond precision. Text fields are
 * English. Letters: G y Y x M d D w e E a h H k K m s S z Z; anything else is refused.
 *
 * @throws io.pyhudi.errors.InvalidOptionException naming the problem when the pattern cannot be compiled
 */
final class DatePattern(val pattern: String) {
  import DatePattern._

  private val tokens: Seq[Token] = tokenize(pattern)
  private val letters: Set[Char] = tokens.collect { case Letters(c, _) => c }.toSet

  val printer: DateTimeFormatter = build(parsing = false)
  val parser: DateTimeFormatter = build(parsing = true)

  /** Formats an instant (epoch milliseconds) in `zone`. */
  def format(millis: Long, zone: ZoneId): String = printer.format(Instant.ofEpochMilli(millis).atZone(zone))

  /**
   * Parses `text` to epoch milliseconds; an offset or zone in the text wins over `zone`, missing
   * date fields default to 1970-01-01 and a missing time to midnight, as in Joda.
   *
   * @throws DateTimeParseException when the text does not match
   */
  def parseMillis(text: String, zone: ZoneId): Long = {
    val t = parser.parse(text)
    val date = t.query(TemporalQueries.localDate())
    if (date == null) throw new DateTimeParseException(s"'$text' has no complete date", text, 0)
    val time = Option(t.query(TemporalQueries.localTime())).getOrElse {
      if ("HkhKmsS".exists(letters))
        throw new DateTimeParseException(s"'$text' has no complete time", text, 0)
      LocalTime.MIDNIGHT
    }
    val z = Option(t.query(TemporalQueries.zone())).getOrElse(zone)
    ZonedDateTime.of(date, time, z).toInstant.toEpochMilli
  }

  private def build(parsing: Boolean): DateTimeFormatter = {
    val b = new DateTimeFormatterBuilder()
    def number(field: TemporalField, n: Int, maxDigits: Int, sign: SignStyle = SignStyle.NOT_NEGATIVE): Unit =
      if (parsing) b.appendValue(field, 1, math.max(n, maxDigits), sign) // Joda parses 1..max digits
      else b.appendValue(field, n, 19, sign)
    def text(field: TemporalField, n: Int, fullFrom: Int): Unit =
      b.appendText(field, if (n >= fullFrom) TextStyle.FULL else TextStyle.SHORT)
    // Joda reads "Z", "+05", "+0530" and "+05:30" for both Z and ZZ; java.time's lenient "+HH"
    // does the same (colons detected, minutes optional).
    def offset(withColon: Boolean): Unit =
      if (parsing) b.parseLenient().appendOffset("+HH", "Z").parseStrict()
      else if (withColon) b.appendOffset("+HH:MM", "+00:00")
      else b.appendOffset("+HHMM", "+0000")
    tokens.zipWithIndex.foreach {
      case (Literal(s), _) => b.appendLiteral(s)
      case (Letters(c, n), i) =>
        // Joda reads a long year only when no number follows it directly.
        val yearDigits = if (tokens.lift(i + 1).exists(isNumeric)) n else 9
        c match {
          case 'G' => b.appendText(ERA, TextStyle.SHORT)
          case 'y' | 'Y' | 'x' =>
            val field = c match {
              case 'y' => YEAR
              case 'Y' => YEAR_OF_ERA
              case _ => IsoFields.WEEK_BASED_YEAR
            }
            if (n == 2) b.appendValueReduced(field, 2, 2, LocalDate.now().minusYears(80))
            else number(field, n, yearDigits, SignStyle.NORMAL)
          case 'M' => if (n >= 3) text(MONTH_OF_YEAR, n, 4) else number(MONTH_OF_YEAR, n, 2)
          case 'd' => number(DAY_OF_MONTH, n, 2)
          case 'D' => number(DAY_OF_YEAR, n, 3)
          case 'w' => number(IsoFields.WEEK_OF_WEEK_BASED_YEAR, n, 2)
          case 'e' => number(DAY_OF_WEEK, n, 1)
          case 'E' => text(DAY_OF_WEEK, n, 4)
          case 'a' => b.appendText(AMPM_OF_DAY, TextStyle.SHORT)
          case 'h' => number(CLOCK_HOUR_OF_AMPM, n, 2)
          case 'H' => number(HOUR_OF_DAY, n, 2)
          case 'k' => number(CLOCK_HOUR_OF_DAY, n, 2)
          case 'K' => number(HOUR_OF_AMPM, n, 2)
          case 'm' => number(MINUTE_OF_HOUR, n, 2)
          case 's' => number(SECOND_OF_MINUTE, n, 2)
          case 'S' => b.appendFraction(NANO_OF_SECOND, if (parsing) 1 else n, n, false)
          case 'z' => b.appendZoneText(if (n >= 4) TextStyle.FULL else TextStyle.SHORT)
          case 'Z' => if (n <= 2) offset(withColon = n == 2) else b.appendZoneId()
          case other =>
            throw Errors.invalidDatePattern(s"pattern letter '$other' in '$pattern' is not supported")
        }
    }
    if (parsing) defaults(b)
    b.toFormatter(Locale.US)
  }

  /** Joda fills fields the pattern lacks from 1970-01-01T00:00 (AM for 12-hour clocks). */
  private def defaults(b: DateTimeFormatterBuilder): Unit = {
    def lacks(cs: String) = !cs.exists(letters)
    if (lacks("yYxwe")) b.parseDefaulting(YEAR, 1970)
    if (lacks("MDwe")) b.parseDefaulting(MONTH_OF_YEAR, 1)
    if (lacks("dDweE")) b.parseDefaulting(DAY_OF_MONTH, 1)
    if (lacks("a") && !lacks("hK")) b.parseDefaulting(AMPM_OF_DAY, 0)
  }
}

object DatePattern {
  private sealed trait Token
  private final case class Letters(c: Char, count: Int) extends Token
  private final case class Literal(text: String) extends Token

  private def isNumeric(t: Token): Boolean = t match {
    case Letters(c, n) => "CxyYdhHmsSwekKD".contains(c) || (c == 'M' && n <= 2)
    case _ => false
  }

  /** Joda's tokenizer: runs of one letter; quoted text (`''` is a quote); other characters. */
  private def tokenize(pattern: String): Seq[Token] = {
    val out = Seq.newBuilder[Token]
    val lit = new StringBuilder
    def flush(): Unit = if (lit.nonEmpty) { out += Literal(lit.toString); lit.clear() }
    var i = 0
    while (i < pattern.length) {
      val c = pattern.charAt(i)
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        flush()
        var j = i
        while (j < pattern.length && pattern.charAt(j) == c) j += 1
        out += Letters(c, j - i)
        i = j
      } else if (c == '\'') {
        if (i + 1 < pattern.length && pattern.charAt(i + 1) == '\'') { lit += '\''; i += 2 }
        else {
          val end = quoteEnd(pattern, i + 1)
          lit ++= pattern.substring(i + 1, end).replace("''", "'")
          i = end + 1
        }
      } else { lit += c; i += 1 }
    }
    flush()
    out.result()
  }

  private def quoteEnd(pattern: String, from: Int): Int = {
    var j = from
    while (j < pattern.length && !(pattern.charAt(j) == '\'' &&
        !(j + 1 < pattern.length && pattern.charAt(j + 1) == '\''))) {
      j += (if (pattern.charAt(j) == '\'') 2 else 1)
    }
    if (j >= pattern.length) throw Errors.invalidDatePattern(s"unterminated quote in '$pattern'")
    j
  }
}
