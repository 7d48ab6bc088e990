// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

sealed abstract class TableType(val name: String)
object TableType {
  case object CopyOnWrite extends TableType("COPY_ON_WRITE")
  case object MergeOnRead extends TableType("MERGE_ON_READ")
  val All: Seq[TableType] = Seq(CopyOnWrite, MergeOnRead)
  def parse(s: String): Option[TableType] = All.find(_.name.equalsIgnoreCase(s.trim))
}
