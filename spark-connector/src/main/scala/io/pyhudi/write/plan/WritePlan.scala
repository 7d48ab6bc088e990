// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import scala.util.hashing.MurmurHash3

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.write.Location

/**
 * One unit of write work: a file group written by exactly one task.
 *
 * @param base the group's current base file, merged with the incoming records; None for a new
 *             file group
 */
final case class Bucket(index: Int, partitionPath: String, fileId: String, base: Option[BaseFile]) {
  def isNew: Boolean = base.isEmpty
}

/**
 * Where every incoming record goes: updates to the bucket of their file group, inserts spread
 * over a partition's insert buckets in proportion to the inserts each one takes, by a hash of
 * the record key so that the routing is the same on every task attempt.
 *
 * @param insertTargets per partition, (bucket index, cumulative share in (0, 1]) in order
 */
final case class WritePlan(
    buckets: IndexedSeq[Bucket],
    updateBuckets: Map[Location, Int],
    insertTargets: Map[String, IndexedSeq[(Int, Double)]]) {

  def bucketForUpdate(location: Location): Int = updateBuckets(location)

  def bucketForInsert(partitionPath: String, key: String): Int = {
    val targets = insertTargets(partitionPath)
    val u = (MurmurHash3.stringHash(key) & Int.MaxValue).toDouble / Int.MaxValue
    targets.find(_._2 >= u).getOrElse(targets.last)._1
  }

  def numBuckets: Int = buckets.size
}
