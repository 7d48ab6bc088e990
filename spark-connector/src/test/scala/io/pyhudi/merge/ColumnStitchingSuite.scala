// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

/** The column-level merge rule of docs/concurrency.md, on rows (key, ts, fare, fare_ts, tip, tip_ts). */
class ColumnStitchingSuite extends AnyFunSuite {

  private val schema = StructType(Seq(StructField("key", StringType), StructField("ts", LongType),
      StructField("fare", StringType), StructField("fare_ts", LongType), StructField("tip", StringType),
      StructField("tip_ts", LongType)))
  private val Ts = 1
  private val FareTs = 3
  private val TipTs = 5
  private def s(v: String): UTF8String = if (v == null) null else UTF8String.fromString(v)

  private def full(ts: Long, fare: String, fareTs: Long, tip: String, tipTs: Long): InternalRow =
    InternalRow(s("k"), ts, s(fare), fareTs, s(tip), tipTs)

  /** A partial record setting fare (and fare_ts), ordered by fare_ts. */
  private def fare(v: String, at: Long): LogPartial =
    LogPartial(InternalRow(s("k"), null, s(v), at, null, null), Array(0, 2, 3), FareTs)

  /** A partial record setting tip (and tip_ts), ordered by tip_ts. */
  private def tip(v: String, at: Long): LogPartial =
    LogPartial(InternalRow(s("k"), null, null, null, s(v), at), Array(0, 4, 5), TipTs)

  private def values(r: InternalRow): Seq[Any] =
    if (r == null) null else schema.indices.map(i => if (r.isNullAt(i)) null else r.get(i, schema(i).dataType))

  private val stitch = new ColumnStitching(schema, Ts, MergeMode.EventTime)

  test("partial records of disjoint column groups both apply to the base row, whatever their commit order") {
    val base = full(10L, "f0", 1L, "t0", 1L)
    val expected = Seq[Any](s("k"), 10L, s("f1"), 5L, s("t1"), 3L)
    assert(values(stitch(base, LogChain(Vector(fare("f1", 5L), tip("t1", 3L))))) == expected)
    assert(values(stitch(base, LogChain(Vector(tip("t1", 3L), fare("f1", 5L))))) == expected)
  }

  test("a partial record older than its column group's stored value is dropped; other groups are not held back") {
    val base = full(10L, "f0", 7L, "t0", 1L)
    val r = stitch(base, LogChain(Vector(fare("stale", 5L), tip("t1", 2L))))
    assert(values(r) == Seq[Any](s("k"), 10L, s("f0"), 7L, s("t1"), 2L))
    // Ties go to the later write.
    assert(values(stitch(base, LogChain(Vector(fare("same", 7L))))).apply(2) == s("same"))
  }

  test("without a column group ordering the later write of a column wins") {
    val unordered = LogPartial(InternalRow(s("k"), null, s("late"), null, null, null), Array(0, 2), -1)
    val base = full(10L, "f0", 99L, "t0", 1L)
    assert(values(stitch(base, LogChain(Vector(fare("f1", 100L), unordered)))).apply(2) == s("late"))
  }

  test("a whole record replaces the row by the table's ordering field; later partial records apply on top") {
    val base = full(10L, "f0", 1L, "t0", 1L)
    val chain = LogChain(Vector(tip("t1", 2L), LogRecord(full(11L, "fw", 4L, "tw", 4L), 11L), fare("f2", 6L)))
    assert(values(stitch(base, chain)) == Seq[Any](s("k"), 11L, s("f2"), 6L, s("tw"), 4L))
    val older = LogChain(Vector(LogRecord(full(9L, "fw", 4L, "tw", 4L), 9L), tip("t1", 2L)))
    assert(values(stitch(base, older)) == Seq[Any](s("k"), 10L, s("f0"), 1L, s("t1"), 2L))
  }

  test("a delete removes the row; a later partial record starts a row whose other columns are null") {
    val base = full(10L, "f0", 1L, "t0", 1L)
    assert(stitch(base, LogChain(Vector(fare("f1", 5L), LogDelete(None)))) == null)
    assert(values(stitch(base, LogChain(Vector(LogDelete(None), tip("t1", 2L))))) ==
      Seq[Any](s("k"), null, null, null, s("t1"), 2L))
  }

  test("a key without a base row: its partial records make the row") {
    assert(values(stitch(null, LogChain(Vector(fare("f1", 5L), tip("t1", 3L))))) ==
      Seq[Any](s("k"), null, s("f1"), 5L, s("t1"), 3L))
  }

  test("log records keep partial records and what follows them in order") {
    val m = new LogRecords(hasOrdering = true)
    m.addRecord("k", full(11L, "fw", 4L, "tw", 4L), 11L)
    m.addPartial("k", tip("t1", 5L))
    m.addDelete("k", None)
    m.addPartial("k", fare("f1", 6L))
    val chain = m.take("k").get.asInstanceOf[LogChain]
    assert(chain.entries.map(_.getClass.getSimpleName) == Vector("LogRecord", "LogPartial", "LogDelete", "LogPartial"))
    m.addPartial("j", fare("f1", 6L))
    assert(m.remainingRecords(stitch).map(values).toSeq == Seq(Seq[Any](s("k"), null, s("f1"), 6L, null, null)))
  }
}
