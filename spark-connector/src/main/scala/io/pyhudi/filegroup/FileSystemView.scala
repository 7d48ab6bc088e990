// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import io.pyhudi.storage.FileInfo
import io.pyhudi.timeline.{Action, Timeline}

/**
 * The file groups of a set of listed partitions as seen at one instant (`asOf`, inclusive):
 * only base files of visible instants, slices formed as Apache Hudi forms them, and file groups
 * replaced by completed replacecommits removed.
 *
 * @param replaced file groups retired by replacecommits completed at or before `asOf`
 */
final class FileSystemView(
    timeline: Timeline,
    listing: Seq[(String, Seq[FileInfo])],
    asOf: String,
    replaced: Set[FileGroupId]) {

  /** Every file group that has a visible slice at `asOf`, ordered by partition and file id. */
  lazy val fileGroups: Seq[FileGroup] = listing.flatMap { case (partition, files) =>
    val bases = files.flatMap(f => BaseFile.parse(f.path, f.size))
      .filter(b => timeline.isVisible(b.instant, asOf))
    val logs = files.flatMap(f => LogFile.parse(f.path, f.size))
    val ids = (bases.map(_.fileId) ++ logs.map(_.fileId)).distinct.sorted
    ids.map(id => FileGroupId(partition, id)).filterNot(replaced).flatMap { gid =>
      group(gid, bases.filter(_.fileId == gid.fileId), logs.filter(_.fileId == gid.fileId))
    }
  }

  /** The slice of each group that a snapshot or time-travel query at `asOf` reads. */
  def latestSlices: Seq[FileSlice] = fileGroups.flatMap(_.latest)

  private def group(id: FileGroupId, bases: Seq[BaseFile], logs: Seq[LogFile]): Option[FileGroup] = {
    // Two attempts of one task can leave two base files for one instant; only one is committed,
    // and the marker reconciliation of the writer deleted the other. Keep the newest name.
    val baseByInstant = bases.groupBy(_.instant).map { case (t, bs) => t -> bs.maxBy(_.name) }
    val baseInstants = baseByInstant.keys.toSeq.sorted
    // A log belongs to the newest visible slice whose base instant is not after its own; logs
    // written against a compaction that is not yet complete therefore fold into the prior slice.
    val logsBySlice: Map[String, Seq[LogFile]] = logs.groupBy { l =>
      baseInstants.filter(_ <= l.baseInstant).lastOption.getOrElse(l.baseInstant)
    }
    val sliceInstants = (baseInstants ++ logsBySlice.keys).distinct.sorted
      .filter(t => baseByInstant.contains(t) || t <= asOf)
    val slices = sliceInstants.map { t =>
      FileSlice(id, t, baseByInstant.get(t), logsBySlice.getOrElse(t, Nil).sorted)
    }
    if (slices.isEmpty) None else Some(FileGroup(id, slices))
  }
}

object FileSystemView {

  /** File groups replaced by replacecommits completed at or before `asOf`. */
  def replacedFileGroups(timeline: Timeline, asOf: String,
      metadata: io.pyhudi.timeline.Instant => io.pyhudi.timeline.CommitMetadata): Set[FileGroupId] =
    timeline.completedWritesUpTo(asOf).filter(_.action == Action.ReplaceCommit).flatMap { i =>
      metadata(i).replacedFileIds.toSeq.flatMap { case (p, ids) => ids.map(FileGroupId(p, _)) }
    }.toSet
}
