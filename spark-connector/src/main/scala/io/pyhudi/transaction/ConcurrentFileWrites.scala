// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import scala.jdk.CollectionConverters._

import org.apache.avro.generic.GenericRecord

import io.pyhudi.index.bucket.BucketIdentifier
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, Timeline}

/**
 * Apache Hudi's `SimpleConcurrentFileWritesConflictResolutionStrategy`, checked by a write at
 * its commit under the lock: it conflicts with an instant that completed since the write read
 * the timeline, or a compaction or clustering scheduled since, when both touch one file group.
 * Writes to disjoint file groups both commit.
 */
object ConcurrentFileWrites {

  /** A file group as (partition path, file id). */
  type FileGroup = (String, String)

  /**
   * Instants of `now` a write planned from `basedOn` must not overlap: writes (and compactions,
   * which complete as commits) completed since, and compactions and replacecommits (clustering)
   * requested since. Pending writes are not: their writer checks against this one when it
   * commits. Pending table services the write already saw were part of its plan.
   */
  def candidates(basedOn: Timeline, now: Timeline, own: String): Seq[Instant] = {
    val completedBefore = basedOn.instants.filter(_.isCompleted).map(_.timestamp).toSet
    val knownBefore = basedOn.instants.map(_.timestamp).toSet
    now.instants.filter { i =>
      i.timestamp != own && {
        if (i.isCompleted) Action.Writes(i.action) && !completedBefore(i.timestamp)
        else (i.action == Action.Compaction || i.action == Action.ReplaceCommit) && !knownBefore(i.timestamp)
      }
    }
  }

  /**
   * Column granularity: `mine` and the completed write `other` are both partial-column delta
   * commits that set no common non-key column, so sharing file groups is no conflict (each wrote
   * log blocks of its own columns, which readers and compaction merge by key). A write of whole
   * records sets every column; compactions and clustering rewrite every column.
   */
  def disjointColumns(mine: CommitMetadata, other: Instant, theirs: CommitMetadata): Boolean =
    other.action == Action.DeltaCommit && !theirs.compacted && theirs.replacedFileIds.isEmpty &&
      ((mine.partialColumns, theirs.partialColumns) match {
        case (Some(a), Some(b)) => a.intersect(b).isEmpty
        case _ => false
      })

  /** The file groups a completed write touched: written to, or retired by a replacecommit. */
  def touched(metadata: CommitMetadata): Set[FileGroup] =
    metadata.touchedFileGroups ++ metadata.replacedFileIds.toSeq.flatMap { case (p, ids) => ids.map(p -> _) }

  /**
   * The first of `others` (an instant and its file groups) that shares file groups with `mine`,
   * and those of `mine`. `byBucket` (bucket index): file groups of one bucket are the same one
   * whatever the rest of their file ids, as in Apache Hudi's bucket-index strategy, since two
   * writers that each create a bucket's first file group choose different file ids.
   */
  def firstConflict(mine: Set[FileGroup], others: Seq[(Instant, Set[FileGroup])], byBucket: Boolean = false)
      : Option[(Instant, Set[FileGroup])] = {
    def key(g: FileGroup): (String, String) =
      if (byBucket) (g._1, BucketIdentifier.bucketOf(g._2).map(_.toString).getOrElse(g._2)) else g
    others.iterator.map { case (i, groups) =>
      val theirs = groups.map(key)
      i -> mine.filter(g => theirs(key(g)))
    }.find(_._2.nonEmpty)
  }

  /**
   * The file groups a clustering plan (Avro `HoodieClusteringPlan`) rewrites: its input groups'
   * slices. None for an insert_overwrite's empty requested replace metadata.
   */
  def clusteringGroups(plan: Option[GenericRecord]): Set[FileGroup] = {
    def records(r: GenericRecord, field: String): Seq[GenericRecord] =
      Option(r.get(field)).map(_.asInstanceOf[java.util.Collection[_]].asScala.toSeq
          .collect { case g: GenericRecord => g }).getOrElse(Nil)
    def text(r: GenericRecord, field: String): String = Option(r.get(field)).map(_.toString).getOrElse("")
    plan.toSeq.flatMap(records(_, "inputGroups")).flatMap(records(_, "slices"))
      .map(s => (text(s, "partitionPath"), text(s, "fileId"))).toSet
  }

  def describe(groups: Set[FileGroup], max: Int = 10): String = {
    val shown = groups.toSeq.sorted.take(max).map { case (p, f) => if (p.isEmpty) f else s"$p/$f" }
    val more = if (groups.size > max) s" and ${groups.size - max} more" else ""
    s"file group(s) ${shown.mkString(", ")}$more"
  }
}
