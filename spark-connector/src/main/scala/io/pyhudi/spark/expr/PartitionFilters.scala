// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.expr

import java.time.LocalDate

import scala.util.Try

import org.apache.spark.sql.sources._
import org.apache.spark.sql.types._

import io.pyhudi.keygen.PartitionValues
import io.pyhudi.merge.OrderingValues
import io.pyhudi.table.TableConfig

/**
 * Partition pruning: evaluates Spark's pushed filters that reference only partition columns
 * against the values encoded in a partition path. Anything it cannot decide keeps the partition,
 * so pruning can only skip partitions that hold no matching row.
 */
final class PartitionFilters(config: TableConfig, schema: StructType, filters: Seq[Filter]) {

  private val partitionColumns = config.partitionFields.toSet

  /** Filters that mention partition columns only (the ones pruning can use). */
  val partitionOnly: Seq[Filter] =
    if (config.isTimestampKeyGen || partitionColumns.isEmpty) Nil
    else filters.filter(f => f.references.nonEmpty && f.references.forall(partitionColumns))

  def keep(partitionPath: String): Boolean =
    partitionOnly.isEmpty || (PartitionValues.parse(config, partitionPath) match {
      case None => true
      case Some(values) =>
        readings(values).exists(v => partitionOnly.forall(f => eval(f, v).getOrElse(true)))
    })

  /**
   * What a partition's rows may hold. Hudi writes both null and "" to `__HIVE_DEFAULT_PARTITION__`
   * (parsed as None), so for a string column that folder is read both ways and kept when either
   * could match: `part IS NULL` and `part = ''` both keep it.
   */
  private def readings(values: Map[String, Option[String]]): Seq[Map[String, Option[String]]] =
    values.foldLeft(Seq(Map.empty[String, Option[String]])) { case (acc, (column, value)) =>
      val stringColumn = schema.find(_.name == column).exists(_.dataType == StringType)
      val options = if (value.isEmpty && stringColumn) Seq(None, Some("")) else Seq(value)
      for (m <- acc; o <- options) yield m.updated(column, o)
    }

  private def typed(column: String, values: Map[String, Option[String]]): Option[Option[Any]] =
    values.get(column).map(_.flatMap { raw =>
      val t = schema.find(_.name == column).map(_.dataType)
      t.flatMap(dt => Try(convert(raw, dt)).toOption.flatten)
    }).filter(v => v.isDefined || values.get(column).exists(_.isEmpty))

  /** The value of a partition path segment as `dt`; None for a type filters do not prune on. */
  private def convert(raw: String, dt: DataType): Option[Any] = dt match {
    case StringType => Some(raw)
    case ByteType | ShortType | IntegerType | LongType => Some(java.lang.Long.parseLong(raw))
    case FloatType | DoubleType => Some(java.lang.Double.parseDouble(raw))
    case _: DecimalType => Some(new java.math.BigDecimal(raw))
    case BooleanType => Some(java.lang.Boolean.parseBoolean(raw))
    case DateType => Some(LocalDate.parse(raw))
    case _ => None
  }

  private def literal(v: Any): Any = v match {
    case d: java.sql.Date => d.toLocalDate
    case other => other
  }

  private def cmp(a: Any, b: Any): Option[Int] = (a, literal(b)) match {
    case (x: LocalDate, y: LocalDate) => Some(x.compareTo(y))
    case (_: LocalDate, _) | (_, _: LocalDate) => None
    case (x: String, y: String) => Some(x.compareTo(y))
    case (_: String, _) | (_, _: String) => None
    case (x, y) =>
      val c = OrderingValues.compare(x, y)
      if (c == 0 && x != null && y != null && x.getClass != y.getClass &&
        !(x.isInstanceOf[Number] && y.isInstanceOf[Number])) None
      else Some(c)
  }

  /** Some(result) when decided exactly, None when unsure. */
  private def eval(f: Filter, values: Map[String, Option[String]]): Option[Boolean] = {
    def value(c: String): Option[Option[Any]] = typed(c, values)
    def compare(c: String, v: Any)(ok: Int => Boolean): Option[Boolean] =
      value(c).flatMap {
        case None => Some(false) // null compares to nothing
        case Some(x) => cmp(x, v).map(ok)
      }
    f match {
      case EqualTo(c, v) => compare(c, v)(_ == 0)
      case EqualNullSafe(c, v) =>
        if (v == null) value(c).map(_.isEmpty) else compare(c, v)(_ == 0)
      case GreaterThan(c, v) => compare(c, v)(_ > 0)
      case GreaterThanOrEqual(c, v) => compare(c, v)(_ >= 0)
      case LessThan(c, v) => compare(c, v)(_ < 0)
      case LessThanOrEqual(c, v) => compare(c, v)(_ <= 0)
      case In(c, vs) =>
        val results = vs.toSeq.map(v => compare(c, v)(_ == 0))
        if (results.contains(Some(true))) Some(true)
        else if (results.forall(_.contains(false))) Some(false) else None
      case IsNull(c) => value(c).map(_.isEmpty)
      case IsNotNull(c) => value(c).map(_.isDefined)
      case StringStartsWith(c, s) => value(c).map(_.exists(_.toString.startsWith(s)))
      case StringEndsWith(c, s) => value(c).map(_.exists(_.toString.endsWith(s)))
      case StringContains(c, s) => value(c).map(_.exists(_.toString.contains(s)))
      case And(l, r) => (eval(l, values), eval(r, values)) match {
          case (Some(false), _) | (_, Some(false)) => Some(false)
          case (Some(true), Some(true)) => Some(true)
          case _ => None
        }
      case Or(l, r) => (eval(l, values), eval(r, values)) match {
          case (Some(true), _) | (_, Some(true)) => Some(true)
          case (Some(false), Some(false)) => Some(false)
          case _ => None
        }
      case Not(child) => eval(child, values).map(!_)
      case _ => None
    }
  }
}
