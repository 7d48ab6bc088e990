// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

/**
 * The query types of `hoodie.datasource.query.type` (Apache Hudi's names). What a scan serves is
 * asked of this enum, never of the option string.
 */
sealed abstract class QueryType(val name: String) extends Serializable {
  override def toString: String = name
}

object QueryType {

  /** The latest merged view: base files plus the log files written against them. */
  case object Snapshot extends QueryType("snapshot")

  /** Base files only; merge-on-read tables skip their log files. */
  case object ReadOptimized extends QueryType("read_optimized")

  /** Records written by the commits in a (begin, end] instant range. */
  case object Incremental extends QueryType("incremental")

  val All: Seq[QueryType] = Seq(Snapshot, ReadOptimized, Incremental)
}
