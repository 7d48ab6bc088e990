// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.index.bucket.BucketIdentifier
import io.pyhudi.write.Location

/**
 * Write planning under the BUCKET index: a record's file group follows from its key's bucket
 * number, so there is no lookup and no small-file packing. Each (partition, bucket number) the
 * incoming records hash to becomes one write bucket: the existing file group of that number,
 * or a new one whose file id starts with it.
 */
object BucketRouting {

  /**
   * @param groups   distinct (partition, bucket number) pairs of the incoming records
   * @param existing the latest base files of the partitions in `groups`
   * @param fresh    insert overwrite: every bucket opens a new file group
   * @return the plan (every bucket is an update target, as every record's group is known) and
   *         each group's location
   */
  def plan(groups: Seq[(String, Int)], existing: Seq[(String, BaseFile)], fresh: Boolean,
      newFileId: Int => String = BucketIdentifier.newFileId): (WritePlan, Map[(String, Int), Location]) = {
    val current: Map[(String, Int), BaseFile] =
      if (fresh) Map.empty
      else existing.flatMap { case (p, b) => BucketIdentifier.bucketOf(b.fileId).map(id => (p, id) -> b) }.toMap
    val sorted = groups.distinct.sorted
    val buckets = sorted.zipWithIndex.map { case ((p, id), i) =>
      current.get((p, id)) match {
        case Some(b) => Bucket(i, p, b.fileId, Some(b))
        case None => Bucket(i, p, newFileId(id), None)
      }
    }.toIndexedSeq
    val plan = WritePlan(buckets, buckets.map(b => Location(b.partitionPath, b.fileId) -> b.index).toMap, Map.empty)
    (plan, sorted.zip(buckets).map { case (g, b) => g -> Location(b.partitionPath, b.fileId) }.toMap)
  }
}
