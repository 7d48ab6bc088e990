// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.merge.MergeMode
import io.pyhudi.table.TableConfig
import io.pyhudi.timeline.InstantVisibility

class SliceReadContextSuite extends AnyFunSuite {

  private val simple = "org.apache.hudi.keygen.SimpleKeyGenerator"
  private def config(extra: (String, String)*): TableConfig =
    TableConfig(Map("hoodie.table.recordkey.fields" -> "id", "hoodie.table.keygenerator.class" -> simple) ++ extra,
      "/t")
  private def schema(idType: DataType): StructType =
    StructType(Seq(StructField("_hoodie_record_key", StringType), StructField("id", idType),
        StructField("x", DoubleType)))
  private def required(t: StructType, names: String*) = StructType(names.map(n => t(n)))
  private def asKey(c: TableConfig, t: StructType, names: String*) =
    SliceReadContext.keyFieldAsKey(c, t, required(t, names: _*))

  test("a simple generator's one string, int or long key field keys the merge when the scan reads it") {
    Seq(StringType, IntegerType, LongType).foreach { dt =>
      assert(asKey(config(), schema(dt), "id", "x") == Some("id"), dt)
    }
    Seq("org.apache.hudi.keygen.SimpleAvroKeyGenerator", "org.apache.hudi.keygen.TimestampBasedKeyGenerator",
      "org.apache.hudi.keygen.NonpartitionedKeyGenerator").foreach { c =>
      assert(asKey(config("hoodie.table.keygenerator.class" -> c), schema(LongType), "id") == Some("id"), c)
    }
    // Tables Apache Hudi 1.x creates name the generator by type.
    val byType =
      TableConfig(Map("hoodie.table.recordkey.fields" -> "id", "hoodie.table.keygenerator.type" -> "SIMPLE"), "/t")
    assert(asKey(byType, schema(LongType), "id") == Some("id"))
  }

  test("otherwise the merge keys rows by _hoodie_record_key") {
    val t = schema(LongType)
    assert(asKey(config(), t, "x").isEmpty, "the scan does not read the field")
    assert(asKey(config(), t, "id", "_hoodie_record_key").isEmpty, "the scan reads the meta column anyway")
    assert(asKey(config("hoodie.table.keygenerator.class" -> "org.apache.hudi.keygen.ComplexKeyGenerator"), t, "id")
        .isEmpty, "the complex generator writes id:value")
    assert(asKey(config("hoodie.table.keygenerator.class" -> "org.apache.hudi.keygen.CustomKeyGenerator"), t, "id")
        .isEmpty)
    assert(asKey(TableConfig(Map("hoodie.table.recordkey.fields" -> "id"), "/t"), t, "id").isEmpty,
      "no generator named")
    assert(asKey(config("hoodie.table.recordkey.fields" -> "id,x"), t, "id", "x").isEmpty)
    assert(asKey(config("hoodie.populate.meta.fields" -> "false"), t, "id").isEmpty,
      "virtual keys merge by fields already")
    Seq(DoubleType, DateType, TimestampType, DecimalType(10, 2), ShortType).foreach { dt =>
      assert(asKey(config(), schema(dt), "id").isEmpty, dt)
    }
    // A read schema that asks for the field as another type than the table's.
    assert(SliceReadContext.keyFieldAsKey(config(), t, StructType(Seq(StructField("id", StringType)))).isEmpty)
  }

  test("the keys of a row by its key field are the field's value as Hudi writes it") {
    def ctx(dt: DataType) = SliceReadContext(StructType(Seq(StructField("id", dt), StructField("x", DoubleType))),
      Seq(0), Seq("id"), useMetaKey = false, None, MergeMode.LatestWins, None, None,
      InstantVisibility(Set.empty, None, ""))
    val s = ctx(StringType)
    assert(s.integralKeyOrdinal == -1)
    assert(s.keyBytesOf(InternalRow(UTF8String.fromString("k1"), 1.0)) == UTF8String.fromString("k1"))
    assert(s.keyBytesOf(InternalRow(null, 1.0)) == null)
    val l = ctx(LongType)
    assert(l.integralKeyOrdinal == 0 && l.integralKeyIsLong)
    assert(l.keyBytesOf(InternalRow(-42L, 1.0)) == UTF8String.fromString("-42"))
    val i = ctx(IntegerType)
    assert(i.integralKeyOrdinal == 0 && !i.integralKeyIsLong)
    assert(i.keyOf(InternalRow(7, 1.0)) == "7")
  }

  test("a row's ordering value is the one Catalyst's generic getter gives, for every ordering type") {
    val values = Seq[(DataType, Any)](LongType -> 5L, TimestampType -> 1700000000000000L,
      TimestampNTZType -> 3L, IntegerType -> -7, DateType -> 19000, StringType -> UTF8String.fromString("b"),
      DoubleType -> 2.5, DecimalType(10, 2) -> Decimal(BigDecimal("12.34"), 10, 2), ShortType -> 3.toShort)
    for ((dt, v) <- values) {
      val schema = StructType(Seq(StructField("k", StringType), StructField("o", dt)))
      val ctx = SliceReadContext(schema, Seq(0), Seq("k"), useMetaKey = false, Some(1), MergeMode.EventTime, None,
        None, InstantVisibility(Set.empty, None, ""))
      val unsafe = org.apache.spark.sql.catalyst.expressions.UnsafeProjection.create(schema)
      for (row <- Seq(InternalRow(UTF8String.fromString("a"), v), InternalRow(UTF8String.fromString("a"), null))) {
        for (r <- Seq(row, unsafe(row))) {
          val (got, expected) = (ctx.orderingOf(r), r.get(1, dt))
          assert(got == expected, s"$dt from ${r.getClass.getSimpleName}")
          // the same boxed form: OrderingValues compares by it
          assert(Option(got).map(_.getClass) == Option(expected).map(_.getClass), dt)
        }
      }
    }
    val none = SliceReadContext(StructType(Seq(StructField("k", StringType))), Seq(0), Seq("k"), useMetaKey = false,
      None, MergeMode.LatestWins, None, None, InstantVisibility(Set.empty, None, ""))
    assert(none.orderingOf(InternalRow(UTF8String.fromString("a"))) == null)
  }
}
