// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import java.util.concurrent.{ExecutorService, Executors, ThreadFactory}
import java.util.concurrent.atomic.AtomicInteger

import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration

import io.pyhudi.storage.{FileInfo, Storage}

/**
 * Finds a table's partitions by walking the base path. A folder is a partition when it holds
 * `.hoodie_partition_metadata` (Apache Hudi's rule), or Hudi-named data files when the metafile
 * is missing. Hidden folders (`.hoodie`) are never entered. Underscore folders are entered, since
 * Hudi writes null and empty partition values to `__HIVE_DEFAULT_PARTITION__`, but below any
 * other underscore folder (Spark's `_temporary`) only the metafile makes a partition.
 *
 * The walk goes level by level and lists the folders of one level at once on a small shared
 * pool: on object stores a listing is a remote call, and a table of a thousand partitions would
 * otherwise pay a thousand round trips one after another on the driver.
 */
object PartitionLister {
  val PartitionMetafile = ".hoodie_partition_metadata"

  /** The folder Hudi writes a null or empty partition value to (plain or after `field=`). */
  val DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

  /** Listings in flight at once; listing waits on I/O, so this is not tied to the core count. */
  val Parallelism = 16

  /**
   * Relative partition paths ("" for the base path itself), with the files each one holds, in
   * the order of a depth-first walk over sorted folder names (sorted path segment by segment).
   */
  def list(storage: Storage, basePath: String): Seq[(String, Seq[FileInfo])] = list(storage, basePath, Parallelism)

  /** As [[list]], with at most `parallelism` listings at once (1: one after another). */
  def list(storage: Storage, basePath: String, parallelism: Int): Seq[(String, Seq[FileInfo])] = {
    final case class Dir(path: String, rel: String, metafileOnly: Boolean)
    val found = Seq.newBuilder[(String, Seq[FileInfo])]
    var level = Seq(Dir(basePath, "", metafileOnly = false))
    while (level.nonEmpty) {
      val listed = inParallel(level, parallelism)(d => d -> storage.list(d.path))
      level = listed.flatMap { case (d, children) =>
        val files = children.filter(_.isFile)
          .map(s => FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))
        val isPartition = files.exists(_.name.startsWith(PartitionMetafile)) || (!d.metafileOnly &&
          files.exists(f => BaseFile.parse(f.path, f.size).isDefined || LogFile.parse(f.path, f.size).isDefined))
        if (isPartition) { found += d.rel -> files; Nil }
        else children.filter(_.isDirectory).map(_.getPath.getName)
          .filterNot(_.startsWith("."))
          .map(n => Dir(s"${d.path}/$n", if (d.rel.isEmpty) n else s"${d.rel}/$n", d.metafileOnly || isScratch(n)))
      }
    }
    import Ordering.Implicits.seqOrdering
    found.result().sortBy(_._1.split('/').toSeq)
  }

  /** An underscore folder that is not Hudi's default partition (Spark's `_temporary`). */
  private def isScratch(name: String): Boolean =
    name.startsWith("_") && name != DefaultPartition

  /** Files of the given relative partitions only (used when a commit names its partitions). */
  def listSome(storage: Storage, basePath: String, partitions: Seq[String]): Seq[(String, Seq[FileInfo])] =
    inParallel(partitions.distinct.sorted, Parallelism) { p =>
      p -> storage.listFiles(if (p.isEmpty) basePath else s"$basePath/$p")
    }

  /**
   * `items.map(f)` in input order, in up to `parallelism` (at most [[Parallelism]]) chunks run
   * at once; a failure is rethrown as it was thrown.
   */
  private[filegroup] def inParallel[A, B](items: Seq[A], parallelism: Int)(f: A => B): Seq[B] = {
    val chunks = math.min(math.max(parallelism, 1), Parallelism)
    if (chunks == 1 || items.lengthCompare(1) <= 0) items.map(f)
    else {
      implicit val ec: ExecutionContext = ListingPool.context
      val size = (items.size + chunks - 1) / chunks
      val futures = items.grouped(size).toSeq.map(chunk => Future(chunk.map(f)))
      futures.flatMap(Await.result(_, Duration.Inf))
    }
  }

  /** Daemon threads, so a driver that is done never waits for an idle pool. */
  private object ListingPool {
    private val count = new AtomicInteger()
    private val pool: ExecutorService = Executors.newFixedThreadPool(Parallelism,
      new ThreadFactory {
        def newThread(r: Runnable): Thread = {
          val t = new Thread(r, s"pyhudi-partition-listing-${count.incrementAndGet()}")
          t.setDaemon(true)
          t
        }
      })
    val context: ExecutionContext = ExecutionContext.fromExecutorService(pool)
  }
}
