// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import scala.collection.mutable

import io.pyhudi.write.{Location, WriteRecord}

/**
 * What index tagging found: the file groups that take updates or deletes, the new records of
 * each partition, and how many records were located. Each task counts its own records; only
 * these figures reach the driver.
 */
final case class Tagging(updated: Set[Location], inserts: Map[String, Long], located: Long)

object Tagging {

  /** One pass over tagged records: a located record updates its group, an unlocated non-delete is an insert. */
  def count(tagged: Iterator[(WriteRecord, Option[Location])]): Tagging = {
    val updated = mutable.HashSet.empty[Location]
    val inserts = mutable.HashMap.empty[String, Long]
    var located = 0L
    tagged.foreach {
      case (_, Some(l)) => updated += l; located += 1
      case (r, None) if !r.isDelete => inserts(r.partitionPath) = inserts.getOrElse(r.partitionPath, 0L) + 1
      case _ => () // deleting a key the table does not hold
    }
    Tagging(updated.toSet, inserts.toMap, located)
  }

  /** The tasks' counts together. */
  def combine(parts: Seq[Tagging]): Tagging =
    Tagging(parts.flatMap(_.updated).toSet, parts.flatMap(_.inserts).groupMapReduce(_._1)(_._2)(_ + _),
      parts.map(_.located).sum)
}
