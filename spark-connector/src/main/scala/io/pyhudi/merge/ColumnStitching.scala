// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types.StructType

/**
 * Applies a key's log entries, partial-column records among them, to its base row in log order
 * (docs/concurrency.md, "Column-level conflicts"):
 *  - a whole record replaces the row, unless the row's value of the table's ordering field is
 *    larger (between a base row and a log record only under [[MergeMode.EventTime]]), as
 *    [[LogRecords]] and the slice reader decide without partial records;
 *  - a partial record sets its columns, unless its column group has an ordering column and the
 *    row's value of that column is larger; on a key without a row it starts one whose other
 *    columns are null;
 *  - a delete removes the row, unless it is ordered and older than a logged row.
 * Every column therefore keeps the value of the latest write of its column group, whichever
 * other groups wrote after it; the columns of groups ordered by their own column keep the
 * largest ordering value's.
 *
 * @param schema          the rows' schema
 * @param orderingOrdinal the table's ordering field (-1: none)
 */
final class ColumnStitching(schema: StructType, orderingOrdinal: Int, mergeMode: MergeMode) {
  private val types = schema.fields.map(_.dataType)
  private val eventTime = mergeMode == MergeMode.EventTime

  private def valueAt(row: InternalRow, o: Int): Any =
    if (o < 0 || row.isNullAt(o)) null else row.get(o, types(o))

  /** The row of a key with base row `base` (null: none) after `chain`; null when it ends deleted. */
  def apply(base: InternalRow, chain: LogChain): InternalRow = {
    var row = base
    var fromBase = base != null
    var deletedAt: Option[Any] = None // the ordering of the ordered delete that removed the row
    def compares = if (fromBase) eventTime else orderingOrdinal >= 0
    chain.entries.foreach {
      case LogRecord(r, ordering) =>
        val keep =
          if (row != null) compares && OrderingValues.compare(valueAt(row, orderingOrdinal), ordering) > 0
          else orderingOrdinal >= 0 && deletedAt.exists(d => OrderingValues.compare(d, ordering) > 0)
        if (!keep) { row = r; fromBase = false; deletedAt = None }
      case LogDelete(ordering) =>
        val keep = row != null && !fromBase && orderingOrdinal >= 0 &&
          ordering.exists(d => OrderingValues.compare(d, valueAt(row, orderingOrdinal)) < 0)
        if (!keep) { row = null; fromBase = false; deletedAt = ordering }
      case LogPartial(r, written, groupOrdering) =>
        if (row == null) {
          // A delete ordered by the same field as the group's is compared; other orders cannot be.
          val keepDeleted = groupOrdering >= 0 && groupOrdering == orderingOrdinal &&
            deletedAt.exists(d => OrderingValues.compare(d, valueAt(r, groupOrdering)) > 0)
          if (!keepDeleted) { row = r; fromBase = false; deletedAt = None }
        } else if (groupOrdering < 0 ||
          OrderingValues.compare(valueAt(row, groupOrdering), valueAt(r, groupOrdering)) <= 0) {
          val values = Array.tabulate[Any](types.length)(i => valueAt(row, i))
          written.foreach(o => values(o) = valueAt(r, o))
          row = new GenericInternalRow(values)
          fromBase = false
        }
      case c: LogChain => throw io.pyhudi.errors.Errors.internal(s"a log chain inside a log chain: $c")
    }
    row
  }
}
