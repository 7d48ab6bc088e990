// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import io.pyhudi.errors.{Errors, MissingFileException}
import io.pyhudi.storage.FileInfo
import io.pyhudi.timeline.{CommitMetadata, Instant, Timeline}

/**
 * A file that the latest slice of its file group should contain according to commit metadata,
 * but that the listing lacks.
 *
 * @param path     the file relative to the base path, as the write stat names it
 * @param instants the completed instants whose metadata lists it, oldest first (a log file may be
 *                 listed by several deltacommits that appended to it)
 * @param isBase   a base file (else a log file)
 */
final case class MissingFile(groupId: FileGroupId, path: String, instants: Seq[String], isBase: Boolean) {

  /** The instant whose data is lost: the newest one that wrote the file. */
  def instant: String = instants.last
}

/**
 * Checks a listing against what the active timeline says the served slices hold. A listing alone
 * cannot tell a deleted file from one never written: without the latest base file of a group the
 * [[FileSystemView]] falls back to the previous slice, and without a log file the slice simply
 * lacks its updates. Commit metadata lists every written file (`path` of each write stat), so the
 * expected content of each group's latest slice at `asOf` is:
 *
 *  - the base file of the newest completed instant at or before `asOf` that wrote one for the
 *    group (commit, compaction, replacecommit, or a deltacommit writing a new base file);
 *  - every log file that completed deltacommits at or before `asOf` wrote for the group against
 *    that base instant or a later one (logs written against a pending compaction fold into the
 *    current slice, as the view folds them).
 *
 * Files of older slices may be gone legitimately (the cleaner removes them) and are not checked;
 * neither are groups retired by a replacecommit. Instants already archived have no metadata here,
 * so their files are not checked either. Only metadata is read, no extra listing.
 */
object CommittedFiles {

  /**
   * The expected files the listing lacks.
   *
   * @param listing  partition → listed files; only these partitions are checked
   * @param replaced groups retired at or before `asOf` (not served, not checked)
   * @param withLogs false for read-optimized views, which serve base files only
   * @param keep     the groups the caller serves (incremental reads serve the groups they touch)
   */
  def missing(
      timeline: Timeline,
      metadata: Instant => CommitMetadata,
      listing: Seq[(String, Seq[FileInfo])],
      asOf: String,
      replaced: Set[FileGroupId],
      withLogs: Boolean,
      keep: FileGroupId => Boolean = _ => true): Seq[MissingFile] = {
    val listed: Map[String, Set[String]] =
      listing.groupMapReduce(_._1)(_._2.map(_.name).toSet)(_ ++ _)
    // Newest base file per group, and every log file with the instants that list it.
    val bases = scala.collection.mutable.Map.empty[FileGroupId, (String, BaseFile, Seq[String])]
    val logs = scala.collection.mutable.LinkedHashMap.empty[(FileGroupId, String), (LogFile, Seq[String])]
    for {
      instant <- timeline.completedWritesUpTo(asOf)
      stat <- metadata(instant).writeStats
      path <- stat.path
      if stat.fileId.nonEmpty && listed.contains(stat.partitionPath)
      id = FileGroupId(stat.partitionPath, stat.fileId)
      if !replaced(id) && keep(id)
    } {
      val t = instant.timestamp
      BaseFile.parse(path, 0L) match {
        case Some(b) =>
          if (bases.get(id).forall(_._2.instant <= b.instant)) {
            val before = bases.get(id).filter(_._1 == path).map(_._3).getOrElse(Nil)
            bases(id) = (path, b, before :+ t)
          }
        case None =>
          for (l <- LogFile.parse(path, 0L) if withLogs) {
            val before = logs.get(id -> path).map(_._2).getOrElse(Nil)
            logs(id -> path) = (l, before :+ t)
          }
      }
    }
    // A listed visible base file newer than any the metadata names (its instant was archived)
    // starts the latest slice as well.
    val listedBase: Map[FileGroupId, String] = listing.flatMap { case (p, files) =>
      files.flatMap(f => BaseFile.parse(f.path, f.size)).filter(b => timeline.isVisible(b.instant, asOf))
        .map(b => FileGroupId(p, b.fileId) -> b.instant)
    }.groupMapReduce(_._1)(_._2)((a, b) => if (a >= b) a else b)

    def absent(id: FileGroupId, path: String): Boolean =
      !listed.getOrElse(id.partitionPath, Set.empty).contains(path.substring(path.lastIndexOf('/') + 1))

    val baseInstant: FileGroupId => Option[String] = id =>
      (bases.get(id).map(_._2.instant).toSeq ++ listedBase.get(id)).maxOption
    val missingBases = bases.toSeq.collect {
      case (id, (path, b, ts)) if baseInstant(id).contains(b.instant) && absent(id, path) =>
        MissingFile(id, path, ts, isBase = true)
    }
    val missingLogs = logs.toSeq.collect {
      case ((id, path), (l, ts)) if baseInstant(id).forall(_ <= l.baseInstant) && absent(id, path) =>
        MissingFile(id, path, ts, isBase = false)
    }
    (missingBases ++ missingLogs).sortBy(m => (m.groupId.partitionPath, m.groupId.fileId, !m.isBase, m.path))
  }

  /**
   * The slices to serve when missing files are skipped: a group whose latest base file is gone
   * keeps only the log files written against that base instant or later (its older slice is
   * another version of its records and is never served in its place); a slice left with no file
   * is dropped. Missing log files are already absent from the view's slices.
   */
  def withoutMissing(slices: Seq[FileSlice], missing: Seq[MissingFile]): Seq[FileSlice] = {
    val lostBase: Map[FileGroupId, String] = missing.filter(_.isBase).flatMap { m =>
      BaseFile.parse(m.path, 0L).map(b => m.groupId -> b.instant)
    }.toMap
    slices.flatMap { s =>
      lostBase.get(s.groupId) match {
        case None => Some(s)
        case Some(t) if s.baseInstant > t => Some(s)
        case Some(t) =>
          val logs = s.logFiles.filter(_.baseInstant >= t)
          if (logs.isEmpty) None else Some(FileSlice(s.groupId, t, None, logs))
      }
    }
  }

  /** The error for `missing` files of the table at `basePath`; `what` names the read or write. */
  def failure(basePath: String, missing: Seq[MissingFile], asOf: String, what: String): MissingFileException =
    Errors.missingFiles(missing.map(m => s"$basePath/${m.path}" -> m.instants), asOf, what)
}
