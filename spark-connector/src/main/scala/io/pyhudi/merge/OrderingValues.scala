// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{Decimal, StructType}
import org.apache.spark.unsafe.types.UTF8String

/**
 * Compares precombine (ordering) values, whether they come from a Spark row (Catalyst internal
 * forms) or from a delete record (boxed Java values). Values of unrelated kinds compare equal,
 * which makes the later write win, the safe default.
 */
object OrderingValues {

  def compare(a: Any, b: Any): Int = (normalise(a), normalise(b)) match {
    case (x: java.math.BigDecimal, y: java.math.BigDecimal) => x.compareTo(y)
    case (x: String, y: String) => x.compareTo(y)
    case (x: java.lang.Boolean, y: java.lang.Boolean) => x.compareTo(y)
    case _ => 0
  }

  /**
   * Reads a row's value of the ordering field at `ordinal` of `schema`, in Catalyst's form; null
   * without an ordering field, or for a null value. Spark's accessor settles the type once, where
   * the generic getter works out its physical form on every call, and merging reads the ordering
   * of every record. Build it where the rows are read: the accessor is not meant to be shipped.
   */
  def reader(schema: StructType, ordinal: Option[Int]): InternalRow => Any = ordinal match {
    case Some(o) =>
      val read = InternalRow.getAccessor(schema(o).dataType)
      row => read(row, o)
    case None => _ => null
  }

  private def normalise(v: Any): Any = v match {
    case null => null
    case s: UTF8String => s.toString
    case s: String => s
    case d: Decimal => d.toJavaBigDecimal
    case d: java.math.BigDecimal => d
    case b: Byte => java.math.BigDecimal.valueOf(b.toLong)
    case s: Short => java.math.BigDecimal.valueOf(s.toLong)
    case i: Int => java.math.BigDecimal.valueOf(i.toLong)
    case l: Long => java.math.BigDecimal.valueOf(l)
    case f: Float => if (f.isNaN || f.isInfinite) null else new java.math.BigDecimal(f.toDouble)
    case d: Double => if (d.isNaN || d.isInfinite) null else new java.math.BigDecimal(d)
    case b: Boolean => java.lang.Boolean.valueOf(b)
    case other => other
  }
}
