// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.expr

import org.apache.spark.sql.sources._
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.TableConfig

/** Pruning of Hudi's default partition, which holds the rows whose value was null or "". */
class PartitionFiltersSuite extends AnyFunSuite {

  private val schema = StructType(Seq(StructField("id", IntegerType), StructField("part", StringType),
      StructField("n", IntegerType)))
  private val Default = "__HIVE_DEFAULT_PARTITION__"

  private def config(fields: String, hive: Boolean) = TableConfig(Map(
      TableConfig.PartitionFields -> fields, TableConfig.HiveStylePartitioning -> hive.toString), "/t")

  private def kept(c: TableConfig, filter: Filter, paths: String*): Seq[String] =
    paths.filter(new PartitionFilters(c, schema, Seq(filter)).keep)

  test("string column: the default partition may hold null or the empty string") {
    for ((c, d, x) <-
        Seq((config("part", hive = false), Default, "x"), (config("part", hive = true), s"part=$Default", "part=x"))) {
      assert(kept(c, IsNull("part"), d, x) == Seq(d))
      assert(kept(c, IsNotNull("part"), d, x) == Seq(d, x)) // "" is not null
      assert(kept(c, EqualTo("part", "x"), d, x) == Seq(x))
      assert(kept(c, EqualTo("part", ""), d, x) == Seq(d))
      assert(kept(c, EqualNullSafe("part", null), d, x) == Seq(d))
      assert(kept(c, In("part", Array("x")), d, x) == Seq(x))
      assert(kept(c, LessThan("part", "a"), d, x) == Seq(d)) // "" < "a"
      assert(kept(c, Not(IsNull("part")), d, x) == Seq(d, x))
      assert(kept(c, And(IsNull("part"), EqualTo("part", "")), d, x) == Nil)
    }
  }

  test("non-string column: the default partition holds only nulls") {
    val c = config("n", hive = false)
    assert(kept(c, IsNull("n"), Default, "3") == Seq(Default))
    assert(kept(c, IsNotNull("n"), Default, "3") == Seq("3"))
    assert(kept(c, EqualTo("n", 3), Default, "3") == Seq("3"))
  }

  test("multi-field paths: each field is read on its own") {
    val c = config("part,n", hive = true)
    val paths = Seq(s"part=$Default/n=$Default", s"part=x/n=$Default", s"part=$Default/n=1", "part=x/n=1")
    assert(kept(c, IsNull("part"), paths: _*) == Seq(paths(0), paths(2)))
    assert(kept(c, IsNull("n"), paths: _*) == Seq(paths(0), paths(1)))
    assert(kept(c, And(EqualTo("part", ""), EqualTo("n", 1)), paths: _*) == Seq(paths(2)))
    assert(kept(c, EqualTo("part", "x"), paths: _*) == Seq(paths(1), paths(3)))
  }
}
