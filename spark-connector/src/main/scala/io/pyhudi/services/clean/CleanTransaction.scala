// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clean

import scala.util.control.NonFatal

import org.slf4j.LoggerFactory

import io.pyhudi.services.savepoint.Savepoints
import io.pyhudi.storage.Storage
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.{Action, Instant, InstantTimeGenerator, State, TimelineWriter}
import io.pyhudi.timeline.avro.{CleanMetadata, CleanPartitionMetadata, CleanerPlan}
import io.pyhudi.transaction.{ConcurrencyConfig, Heartbeat}
import io.pyhudi.write.commit.CommitStep

/** The outcome of deleting one planned file: `deleted` when it is gone afterwards (also when it was gone before). */
final case class DeleteResult(path: String, deleted: Boolean)

/**
 * The timeline lifecycle of a clean instant `T` (hudi-format.md §2.2.1, §8): `T.clean.requested`
 * and `T.clean.inflight` hold the plan, the planned files are deleted, and `T.clean` records what
 * was deleted per partition. Planning and scheduling happen under the table lock, against the
 * timeline as it is then; the run beats `T`'s heartbeat so that no second process runs the same
 * clean, and a clean whose process died (requested or inflight, no live heartbeat) is finished
 * by the next one from its recorded plan.
 *
 * Deleting is the caller's: `delete` takes absolute paths and reports each one (the Spark layer
 * deletes on executors, suites delete in place).
 */
object CleanTransaction {

  private val log = LoggerFactory.getLogger(getClass)

  type Deleter = Seq[String] => Seq[DeleteResult]

  /** Deletes files in this process. */
  def deleteLocally(storage: Storage): Deleter = paths => paths.map(p => DeleteResult(p, delete(storage, p)))

  /** Deletes `path`; true when it is gone afterwards. Shared by the local and the executor deleter. */
  def delete(storage: Storage, path: String): Boolean = {
    try storage.delete(path)
    catch { case NonFatal(_) => () }
    try !storage.exists(path)
    catch { case NonFatal(_) => false }
  }

  /**
   * Finishes the cleans other processes left pending, then plans and runs a new one when the
   * policy finds files to delete (only finishes pending ones with `planNew` false, and plans none
   * while a clean with a live heartbeat is pending). Returns the instants completed, oldest first.
   */
  def clean(table: HoodieTable, config: CleanConfig, delete: Deleter,
      concurrency: ConcurrencyConfig = ConcurrencyConfig.Default, planNew: Boolean = true,
      generator: InstantTimeGenerator = InstantTimeGenerator.Default,
      nowMs: () => Long = () => System.currentTimeMillis()): Seq[String] = {
    val finished = pending(table).flatMap { case (instant, _) =>
      claim(table, instant, concurrency).map { beat =>
        try run(table, instant, delete, concurrency, nowMs)
        finally beat.close()
        instant
      }
    }
    val fresh = if (finished.isEmpty) table else table.reload()
    // A clean another process still runs would be planned again: wait for it to finish.
    val started = if (!planNew || pending(fresh).nonEmpty) None
    else schedule(fresh, config, concurrency, generator, nowMs())
    finished ++ started.map { case (instant, beat) =>
      try run(fresh, instant, delete, concurrency, nowMs)
      finally beat.close()
      instant
    }
  }

  /**
   * Under the lock: plans from the timeline as it is now and, when there is something to delete,
   * writes `T.clean.requested` and `T.clean.inflight`. Returns `T` and its running heartbeat.
   */
  def schedule(table: HoodieTable, config: CleanConfig, concurrency: ConcurrencyConfig,
      generator: InstantTimeGenerator, nowMs: Long): Option[(String, Heartbeat)] =
    locked(table, concurrency) {
      // An expired savepoint no longer holds its files: drop it before planning so this clean frees them.
      Savepoints.dropExpired(table, nowMs).foreach { sp =>
        log.info(s"Clean of ${table.basePath} dropped savepoint ${sp.name.getOrElse(sp.instant)} (${sp.instant}), " +
          s"expired at ${sp.expiresAt.getOrElse(0L)}")
      }
      val current = table.reload()
      CleanPlanner.plan(current, config, nowMs).map { plan =>
        val writer = new TimelineWriter(table.storage, table.metaPath)
        val instant = generator.next(writer.timeline())
        val beat = Heartbeat.start(table.storage, table.metaPath, instant, concurrency.heartbeat)
        try {
          val bytes = plan.toBytes
          writer.requested(instant, Action.Clean, bytes)
          writer.inflight(instant, Action.Clean, bytes)
        } catch { case NonFatal(e) => beat.close(); throw e }
        instant -> beat
      }
    }

  /** Requested and inflight cleans with their plans, oldest first. */
  def pending(table: HoodieTable): Seq[(String, CleanerPlan)] = {
    val writer = new TimelineWriter(table.storage, table.metaPath)
    writer.timeline().instants.filter(i => i.action == Action.Clean && !i.isCompleted)
      .map(i => i.timestamp -> plan(writer, i.timestamp))
  }

  /**
   * Under the lock: takes over pending clean `T` unless its heartbeat is live (another process
   * runs it) or it completed meanwhile; writes `T.clean.inflight` when it is only requested.
   */
  def claim(table: HoodieTable, instant: String, concurrency: ConcurrencyConfig): Option[Heartbeat] =
    locked(table, concurrency) {
      val writer = new TimelineWriter(table.storage, table.metaPath)
      val files = writer.stateFiles().filter(i => i.timestamp == instant && i.action == Action.Clean)
      if (files.isEmpty || files.exists(_.isCompleted) ||
        Heartbeat.isAlive(table.storage, table.metaPath, instant, concurrency.heartbeat)) None
      else {
        val beat = Heartbeat.start(table.storage, table.metaPath, instant, concurrency.heartbeat)
        try {
          if (!files.exists(_.state == State.Inflight))
            writer.inflight(instant, Action.Clean, writer.read(Instant(instant, Action.Clean, State.Requested)))
        } catch { case NonFatal(e) => beat.close(); throw e }
        Some(beat)
      }
    }

  /** Deletes the files of inflight clean `T`'s plan and publishes `T.clean`. */
  def run(table: HoodieTable, instant: String, delete: Deleter, concurrency: ConcurrencyConfig,
      nowMs: () => Long = () => System.currentTimeMillis()): CleanMetadata = {
    val started = nowMs()
    val writer = new TimelineWriter(table.storage, table.metaPath)
    val cleanerPlan = absolute(table.basePath, plan(writer, instant))
    val results = delete(cleanerPlan.filesToDelete).map(r => r.path -> r.deleted).toMap
    val metadata = CleanMetadata(
      policy = cleanerPlan.policy,
      startCleanTime = instant,
      timeTakenInMillis = math.max(0L, nowMs() - started),
      totalFilesDeleted = results.count(_._2),
      earliestCommitToRetain = cleanerPlan.earliestInstantToRetain.map(_.timestamp).getOrElse(""),
      lastCompletedCommitTimestamp = table.reload().timeline.latestCompletedWrite.map(_.timestamp).getOrElse(""),
      partitionMetadata = cleanerPlan.filePathsToBeDeletedPerPartition.map { case (p, files) =>
        val names = files.map(f => f.filePath -> name(f.filePath))
        p -> CleanPartitionMetadata(p, cleanerPlan.policy, names.map(_._2),
          names.collect { case (path, n) if results.getOrElse(path, false) => n },
          names.collect { case (path, n) if !results.getOrElse(path, false) => n })
      })
    locked(table, concurrency) {
      CommitStep.publish(table.storage, writer, instant, Action.Clean, metadata.toBytes)
    }
    metadata
  }

  private def name(path: String): String = path.substring(path.lastIndexOf('/') + 1)

  /** A version-1 plan (older Apache Hudi) names files without their folder: resolve them in their partition. */
  private def absolute(basePath: String, plan: CleanerPlan): CleanerPlan =
    plan.copy(filePathsToBeDeletedPerPartition = plan.filePathsToBeDeletedPerPartition.map { case (p, files) =>
      p -> files.map { f =>
        if (f.filePath.contains('/')) f
        else f.copy(filePath = if (p.isEmpty) s"$basePath/${f.filePath}" else s"$basePath/$p/${f.filePath}")
      }
    })

  private def plan(writer: TimelineWriter, instant: String): CleanerPlan = {
    // Hudi writes the plan into both files; the requested one is always there.
    val requested = Instant(instant, Action.Clean, State.Requested)
    CleanerPlan.fromBytes(writer.read(requested), writer.path(requested))
  }

  private def locked[T](table: HoodieTable, concurrency: ConcurrencyConfig)(body: => T): T =
    concurrency.withLock(table.storage, table.metaPath)(body)
}
