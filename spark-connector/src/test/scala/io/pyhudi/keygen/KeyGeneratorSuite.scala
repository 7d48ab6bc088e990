// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}
import java.time.LocalDate

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{InvalidOptionException, InvalidRecordException}
import io.pyhudi.table.TableConfig

class KeyGeneratorSuite extends AnyFunSuite {
  import KeyGenType._

  private val schema = StructType(Seq(
      StructField("s", StringType), StructField("b", BooleanType), StructField("i8", ByteType),
      StructField("i16", ShortType), StructField("i32", IntegerType), StructField("i64", LongType),
      StructField("f", FloatType), StructField("d", DoubleType), StructField("dec", DecimalType(10, 5)),
      StructField("tiny", DecimalType(12, 10)), StructField("day", DateType),
      StructField("ts", TimestampType), StructField("ntz", TimestampNTZType),
      StructField("rec",
        StructType(Seq(StructField("inner",
              StructType(Seq(
                  StructField("leaf", StringType)))), StructField("n", IntegerType)))),
      StructField("bin", BinaryType)))

  private def row(values: (String, Any)*): InternalRow = {
    val m = values.toMap
    new GenericInternalRow(schema.fieldNames.map(n =>
        m.get(n).map {
          case s: String => UTF8String.fromString(s)
          case other => other
        }.orNull))
  }

  private val full = row("s" -> "Alice", "b" -> true, "i8" -> 10.toByte, "i16" -> 300.toShort,
    "i32" -> 15000, "i64" -> 9876543210L, "f" -> 1.0f, "d" -> 3.14159,
    "dec" -> Decimal(BigDecimal("12345.67890"), 10, 5),
    "tiny" -> Decimal(BigDecimal("0.0000000100"), 12, 10),
    "day" -> LocalDate.of(2023, 4, 1).toEpochDay.toInt,
    "ts" -> 1680350460000000L, "ntz" -> 1680350460123456L,
    "rec" -> struct(struct(UTF8String.fromString("deep")), 7))

  private def struct(values: Any*): InternalRow = new GenericInternalRow(values.toArray)

  private def gen(kind: KeyGenType, keys: Seq[String], parts: Seq[String] = Nil,
      hive: Boolean = false, encode: Boolean = false): KeyGenerator =
    new KeyGenerator(KeyGenConfig(kind, keys, parts, hive, encode), schema)

  test("every supported type prints as Hudi prints its Avro value") {
    val expected = Seq("s" -> "Alice", "b" -> "true", "i8" -> "10", "i16" -> "300", "i32" -> "15000",
      "i64" -> "9876543210", "f" -> "1.0", "d" -> "3.14159", "dec" -> "12345.67890", "tiny" -> "1.00E-8",
      "day" -> "2023-04-01", "ts" -> "1680350460000000", "ntz" -> "1680350460123456",
      "rec.inner.leaf" -> "deep", "rec.n" -> "7")
    expected.foreach { case (field, text) =>
      assert(gen(Simple, Seq(field), Seq(field)).recordKey(full) == text, field)
      assert(gen(Simple, Seq("s"), Seq(field)).partitionPath(full) == text, field)
    }
  }

  test("complex keys: field:value pairs, __null__ and __empty__ placeholders, even for one field") {
    val g = gen(Complex, Seq("s", "i32", "rec.inner.leaf"), Seq("i8", "i16"))
    assert(g.recordKey(full) == "s:Alice,i32:15000,rec.inner.leaf:deep")
    assert(g.recordKey(row("s" -> "", "i32" -> 1)) == "s:__empty__,i32:1,rec.inner.leaf:__null__")
    assert(gen(Complex, Seq("i32")).recordKey(full) == "i32:15000")
    val e = intercept[InvalidRecordException](g.recordKey(row("s" -> "")))
    assert(e.getMessage.contains("s, i32, rec.inner.leaf") && e.getMessage.contains("all null or empty"))
  }

  test("single-field keys refuse null and empty values, naming the field") {
    Seq(Simple, NonPartitioned).foreach { kind =>
      val g = if (kind == Simple) gen(kind, Seq("s"), Seq("i32")) else gen(kind, Seq("s"))
      assert(intercept[InvalidRecordException](g.recordKey(row())).getMessage.contains("'s' is null"))
      val empty = intercept[InvalidRecordException](g.recordKey(row("s" -> "")))
      assert(empty.getMessage.contains("'s' is empty"))
    }
    assert(gen(NonPartitioned, Seq("s", "i32")).recordKey(row("i32" -> 5)) == "s:__null__,i32:5")
  }

  test("partition paths: joined by /, hive style, default partition for null or empty") {
    assert(gen(Complex, Seq("s"), Seq("i8", "i16")).partitionPath(full) == "10/300")
    assert(gen(Complex, Seq("s"), Seq("i8", "i16"), hive = true).partitionPath(full) == "i8=10/i16=300")
    assert(gen(Complex, Seq("s"), Seq("s", "rec.n"), hive = true).partitionPath(row("s" -> "")) ==
      "s=__HIVE_DEFAULT_PARTITION__/rec.n=__HIVE_DEFAULT_PARTITION__")
    assert(gen(Simple, Seq("s"), Seq("day")).partitionPath(row()) == "__HIVE_DEFAULT_PARTITION__")
    assert(gen(Complex, Seq("s")).partitionPath(full) == "")
    assert(gen(NonPartitioned, Seq("s")).partitionPath(full) == "")
  }

  test("url encoding escapes Hive's special characters only") {
    val g = gen(Simple, Seq("i32"), Seq("s"), hive = true, encode = true)
    assert(g.partitionPath(row("s" -> "a/b:c=d%e f+g#h?é")) == "s=a%2Fb%3Ac%3Dd%25e f+g%23h%3Fé")
    assert(gen(Simple, Seq("i32"), Seq("s")).partitionPath(row("s" -> "a/b")) == "a/b")
    assert(PartitionPathEncoding.unescape("a%2Fb%3Ac f+g%zz%4") == "a/b:c f+g%zz%4")
    val raw = (0 until 200).map(_.toChar).mkString
    assert(PartitionPathEncoding.unescape(PartitionPathEncoding.escape(raw)) == raw)
    // The read side undoes the same escaping (a '+' stays a '+').
    val table = TableConfig(Map(TableConfig.PartitionFields -> "s",
        TableConfig.UrlEncodePartitioning -> "true", TableConfig.HiveStylePartitioning -> "true"), "/t")
    assert(PartitionValues.parse(table, "s=a%2Fb f+g") == Some(Map("s" -> Some("a/b f+g"))))
  }

  test("a value that would climb out of the table is refused") {
    val g = gen(Complex, Seq("i32"), Seq("s", "i32"))
    val e = intercept[InvalidRecordException](g.partitionPath(row("s" -> "..", "i32" -> 1)))
    assert(e.getMessage.contains("'../1'"))
    val encoded = gen(Simple, Seq("i32"), Seq("s"), encode = true)
    intercept[InvalidRecordException](encoded.partitionPath(row("s" -> ".."))) // dots are not escaped
    assert(encoded.partitionPath(row("s" -> "../x")) == "..%2Fx")
    assert(gen(Simple, Seq("i32"), Seq("s"), hive = true).partitionPath(row("s" -> "..")) == "s=..")
    assert(g.partitionPath(row("s" -> "a..b", "i32" -> 1)) == "a..b/1")
  }

  test("missing or unusable columns fail naming the column and what is available") {
    val e = intercept[InvalidOptionException](gen(Simple, Seq("nope"), Seq("s")))
    assert(e.getMessage.contains("record key field 'nope'") && e.getMessage.contains("s, b, i8, i16"))
    val nested = intercept[InvalidOptionException](gen(Simple, Seq("rec.inner.x"), Seq("s")))
    assert(nested.getMessage.contains("fields of rec.inner: leaf"))
    val notStruct = intercept[InvalidOptionException](gen(Simple, Seq("s.x"), Seq("s")))
    assert(notStruct.getMessage.contains("fields of s: none"))
    val binary = intercept[InvalidOptionException](gen(Simple, Seq("s"), Seq("bin")))
    assert(binary.getMessage.contains("partition path field 'bin' has type binary"))
    val structKey = intercept[InvalidOptionException](gen(Simple, Seq("rec"), Seq("s")))
    assert(structKey.getMessage.contains("struct<"))
  }

  test("the generator survives Java serialization, as Spark ships it to tasks") {
    val g = gen(Complex, Seq("s", "i32"), Seq("rec.inner.leaf"), hive = true)
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(g)
    out.close()
    val copy = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
      .asInstanceOf[KeyGenerator]
    assert(copy.recordKey(full) == "s:Alice,i32:15000")
    assert(copy.partitionPath(full) == "rec.inner.leaf=deep")
  }
}
