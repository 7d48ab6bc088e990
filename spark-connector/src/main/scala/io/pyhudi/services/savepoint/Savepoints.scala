// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.savepoint

import scala.util.control.NonFatal

import io.pyhudi.config.ReadConfig
import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.{FileSystemView, PartitionLister}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant, TimelineWriter}
import io.pyhudi.timeline.avro.SavepointMetadata
import io.pyhudi.transaction.ConcurrencyConfig

/** One completed savepoint: the savepointed instant, its label and metadata. */
final case class Savepoint(instant: String, label: SavepointLabel, metadata: SavepointMetadata) {
  def name: Option[String] = label.name
  def expiresAt: Option[Long] = label.expiresAt
  def createdAt: Long = metadata.savepointedAt
}

/**
 * Creates, lists, deletes and resolves savepoints. Reads the timeline from storage; changes
 * are made under the table lock so that two callers cannot take one name.
 */
object Savepoints {

  /**
   * Savepoints the completed write `instant` (default: the latest) and returns it.
   *
   * @param retainDays sets the expiry: the first clean after it deletes the savepoint
   */
  def create(table: HoodieTable, instant: Option[String] = None, name: Option[String] = None,
      retainDays: Option[Int] = None, comment: Option[String] = None, user: String = defaultUser,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default, nowMs: Long = System.currentTimeMillis())
      : Savepoint = {
    name.foreach { n =>
      if (!SavepointLabel.isValidName(n))
        throw Errors.cannotSavepoint(instant.getOrElse("(latest)"),
          s"name '$n' is not a letter followed by up " +
            "to 127 letters, digits, '.', '_', ':' or '-'")
    }
    retainDays.foreach { d =>
      if (d <= 0) throw Errors.cannotSavepoint(instant.getOrElse("(latest)"), s"retain days must be positive, not $d")
    }
    concurrency.withLock(table.storage, table.metaPath) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      val timeline = writer.timeline()
      val target = instant.getOrElse(timeline.latestCompletedWrite.map(_.timestamp).getOrElse(
          throw Errors.cannotSavepoint("(latest)", "the table has no completed commit")))
      val write = timeline.completedWrites.find(_.timestamp == target).getOrElse(
        throw Errors.cannotSavepoint(target,
          "it is not a completed commit, deltacommit or replacecommit " +
            "on the active timeline"))
      if (timeline.savepointedTimes(target)) throw Errors.cannotSavepoint(target, "it is savepointed already")
      val existing = list(table)
      for (n <- name; other <- existing.find(_.name.contains(n))) throw Errors.savepointNameTaken(n, other.instant)
      // A savepoint interrupted before completing left only its inflight file: start over.
      writer.deleteInstantFiles(target, savepoint = true)
      val nowSeconds = nowMs / 1000
      val label = SavepointLabel(name, retainDays.map(d => nowSeconds + d.toLong * 86400L), comment)
      val metadata = SavepointMetadata(user, nowSeconds, label.toComments, files(table, write))
      writer.inflight(target, Action.Savepoint)
      writer.complete(target, Action.Savepoint, metadata.toBytes)
      Savepoint(target, label, metadata)
    }
  }

  /** Partition → names of the files of every latest slice as of `write`. */
  private def files(table: HoodieTable, write: Instant): Map[String, Seq[String]] = {
    val timeline = new TimelineWriter(table.storage, table.metaPath).timeline()
    val listing = PartitionLister.list(table.storage, table.basePath)
    val replaced = FileSystemView.replacedFileGroups(timeline, write.timestamp, table.reload().commitMetadata)
    val slices = new FileSystemView(timeline, listing, write.timestamp, replaced).latestSlices
    val byPartition = slices.groupBy(_.groupId.partitionPath).map { case (p, ss) =>
      p -> ss.flatMap(s => s.baseFile.map(_.name).toSeq ++ s.logFiles.map(_.name)).sorted
    }
    listing.map { case (p, _) => p -> byPartition.getOrElse(p, Nil) }.toMap
  }

  /** Completed savepoints, oldest instant first. */
  def list(table: HoodieTable): Seq[Savepoint] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    writer.timeline().savepoints.filter(_.isCompleted).map { i =>
      val metadata = SavepointMetadata.fromBytes(writer.read(i), writer.path(i))
      Savepoint(i.timestamp, SavepointLabel.fromComments(metadata.comments), metadata)
    }
  }

  /** The savepoint named `nameOrInstant`, or savepointing that instant time. */
  def find(table: HoodieTable, nameOrInstant: String): Savepoint = {
    val all = list(table)
    val key = nameOrInstant.trim
    all.find(_.name.contains(key)).orElse(all.find(_.instant == key)).getOrElse(
      throw Errors.savepointNotFound(table.basePath, key,
        all.map(s => s.name.map(n => s"$n (${s.instant})").getOrElse(s.instant))))
  }

  /** Deletes a savepoint's state files (the savepointed instant stays); returns its instant. */
  def delete(table: HoodieTable, nameOrInstant: String,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default): String =
    concurrency.withLock(table.storage, table.metaPath) {
      val sp = find(table, nameOrInstant)
      new TimelineWriter(table.storage, table.metaPath).deleteInstantFiles(sp.instant, savepoint = true)
      sp.instant
    }

  /**
   * Deletes the savepoints whose expiry has passed (named savepoints with `retain_days`); the
   * caller holds the table lock. Returns them, oldest first.
   */
  def dropExpired(table: HoodieTable, nowMs: Long): Seq[Savepoint] = {
    val expired = list(table).filter(_.expiresAt.exists(_ * 1000L <= nowMs))
    val writer = new TimelineWriter(table.storage, table.metaPath)
    expired.foreach(sp => writer.deleteInstantFiles(sp.instant, savepoint = true))
    expired
  }

  /**
   * `as.of.instant`: an instant time passes through, a name becomes its savepoint's instant. A
   * name no savepoint has is a bad option value: it may as well be a mistyped instant.
   */
  def resolveAsOf(table: HoodieTable, asOf: Option[String]): Option[String] =
    asOf.map { v =>
      if (!SavepointLabel.looksLikeName(v)) v
      else {
        val all = list(table)
        val key = v.trim
        all.find(_.name.contains(key)).map(_.instant).getOrElse(throw Errors.invalidOption(
            ReadConfig.AsOfInstant.key, v,
            "it is neither an instant time (yyyyMMddHHmmssSSS, yyyyMMddHHmmss, 'yyyy-MM-dd HH:mm:ss[.SSS]') " +
              s"nor the name of a savepoint of ${table.basePath} (named savepoints: " +
              s"${all.flatMap(s => s.name.map(n => s"$n (${s.instant})"))
                  .mkString(", ") match { case "" => "none"; case n => n }})"))
      }
    }

  private def defaultUser: String =
    try Option(System.getProperty("user.name")).getOrElse("pyhudi")
    catch { case NonFatal(_) => "pyhudi" }
}
