// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.time.{LocalDate, ZoneOffset}

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{ErrorId, InvalidOptionException, InvalidRecordException}

class TimestampKeyGenSuite extends AnyFunSuite {

  /** The partition path of a row whose partition field `t` has `value`. */
  private def path(dataType: DataType, value: Any, ts: TimestampKeyGenConfig,
      hive: Boolean = false, encode: Boolean = false): String = {
    val schema = StructType(Seq(StructField("id", IntegerType), StructField("t", dataType)))
    val config = KeyGenConfig(KeyGenType.TimestampBased, Seq("id"), Seq("t"), hive, encode, Some(ts))
    val v = value match { case s: String => UTF8String.fromString(s); case other => other }
    new KeyGenerator(config, schema).partitionPath(new GenericInternalRow(Array[Any](1, v)): InternalRow)
  }

  private def numeric(kind: String, out: String, zone: String = "UTC", unit: String = "SECONDS") =
    TimestampKeyGenConfig(kind, None, out, zone, unit)
  private def seconds(out: String) = numeric("UNIX_TIMESTAMP", out)
  private def millis(out: String, zone: String = "UTC") = numeric("EPOCHMILLISECONDS", out, zone)
  private def text(in: String, out: String, zone: String = "UTC") =
    TimestampKeyGenConfig("DATE_STRING", Some(in), out, zone)

  private val hour = "yyyy/MM/dd/HH"
  private val at = 1680350460123L // 2023-04-01T12:01:00.123Z

  test("numbers are seconds, milliseconds or a scalar unit since the epoch") {
    assert(path(LongType, at / 1000, seconds(hour)) == "2023/04/01/12")
    assert(path(IntegerType, (at / 1000).toInt, seconds(hour)) == "2023/04/01/12")
    assert(path(LongType, at, millis(hour)) == "2023/04/01/12")
    assert(path(DoubleType, at + 0.9, millis("HH:mm:ss.SSS")) == "12:01:00.123")
    assert(path(DecimalType(20, 2), Decimal(BigDecimal(at) + 0.5, 20, 2), millis("ss.SSS")) == "00.123")
    assert(path(LongType, at / 3600000, numeric("SCALAR", hour, unit = "hours")) == "2023/04/01/12")
  }

  test("the output is formatted in the configured zone") {
    val c = millis("yyyy-MM-dd HH:mm Z", "Asia/Kolkata")
    assert(path(LongType, at, c) == "2023-04-01 17:31 +0530")
    assert(path(LongType, at, c.copy(outputDateFormat = "ZZ '['z']' ZZZ")) ==
      "+05:30 [IST] Asia/Kolkata")
    assert(path(LongType, at, millis("Z|ZZ")) == "+0000|+00:00")
  }

  test("text is parsed with the Joda input pattern; its offset wins over the zone") {
    val in = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
    assert(path(StringType, "2023-04-01T12:01:00.123Z", text(in, hour)) == "2023/04/01/12")
    assert(path(StringType, "2023-04-01T12:01:00.123+0530", text(in, hour)) == "2023/04/01/06")
    assert(path(StringType, "2023-04-01T12:01:00.123-05:00", text(in, hour, "America/Chicago")) ==
      "2023/04/01/12")
    assert(path(StringType, "2023-04-01 23:30", text("yyyy-MM-dd HH:mm", "yyyyMMdd", "Asia/Kolkata")) ==
      "20230401")
    assert(path(StringType, "2023-4-1", text("yyyy-MM-dd", "yyyy/MM/dd")) == "2023/04/01")
    assert(path(StringType, "20230401", text("yyyyMMdd", "yyyy-MM-dd")) == "2023-04-01")
    assert(path(StringType, "04/2023", text("MM/yyyy", "yyyy-MM-dd")) == "2023-04-01")
    assert(path(StringType, "01/04/23 3 PM", text("dd/MM/yy h a", "yyyy-MM-dd'T'HH")) == "2023-04-01T15")
  }

  test("several input patterns are tried in order") {
    val c = text("yyyy-MM-dd'T'HH:mm:ssZ, yyyy-MM-dd", hour)
    assert(path(StringType, "2023-04-01T12:01:00Z", c) == "2023/04/01/12")
    assert(path(StringType, "2023-04-02", c) == "2023/04/02/00")
    val e = intercept[InvalidRecordException](path(StringType, "April 1st", c))
    assert(e.getMessage.contains("'t'") && e.getMessage.contains("April 1st"))
    intercept[InvalidRecordException](path(StringType, "", c))
  }

  test("Spark timestamp and date columns are read as instants") {
    val micros = at * 1000 + 456
    assert(path(TimestampType, micros, seconds("yyyy-MM-dd HH:mm:ss.SSS")) == "2023-04-01 12:01:00.123")
    assert(path(TimestampType, micros, text("yyyy", hour)) == "2023/04/01/12")
    val day = LocalDate.of(2023, 4, 1).toEpochDay.toInt
    assert(path(DateType, day, millis("yyyy/MM/dd", "America/Chicago")) == "2023/04/01")
  }

  test("a null field is read as one unit after the epoch, as Hudi does") {
    assert(path(LongType, null, seconds("yyyy-MM-dd HH:mm:ss")) == "1970-01-01 00:00:01")
    assert(path(LongType, null, millis("HH:mm:ss.SSS")) == "00:00:00.001")
    assert(path(StringType, null, text("yyyy-MM-dd'T'HH:mm:ss.SSSZ", "HH:mm:ss.SSS")) == "00:00:00.001")
    assert(path(StringType, null, text("yyyy-MM-dd", "yyyy/MM/dd", "Asia/Kolkata")) == "1970/01/01")
  }

  test("hive style and url encoding apply to the formatted path") {
    assert(path(LongType, at, millis(hour), hive = true) == "t=2023/04/01/12")
    assert(path(LongType, at, millis(hour), hive = true, encode = true) == "t=2023%2F04%2F01%2F12")
  }

  test("Joda pattern details: literals, text fields, year of era, week fields") {
    val p = new DatePattern("[yyyy] {MMM} EEEE 'o''clock' ''hh a Y G xxxx-'W'ww-e D")
    val sunday = LocalDate.of(2021, 1, 3).atTime(15, 4).toInstant(ZoneOffset.UTC).toEpochMilli
    assert(p.format(sunday, ZoneOffset.UTC) == "[2021] {Jan} Sunday o'clock '03 PM 2021 AD 2020-W53-7 3")
    assert(new DatePattern("S|SS|SSSS").format(at, ZoneOffset.UTC) == "1|12|1230")
    Seq("yyyy-C", "yyyy-'open", "uuuu").foreach { bad =>
      assert(intercept[InvalidOptionException](new DatePattern(bad)).error == ErrorId.InvalidDatePattern)
    }
  }
}
