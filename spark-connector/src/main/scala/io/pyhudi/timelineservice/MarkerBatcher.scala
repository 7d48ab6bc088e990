// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CompletableFuture, LinkedBlockingQueue, TimeUnit}

import scala.collection.mutable
import scala.util.control.NonFatal

import io.pyhudi.storage.Storage
import io.pyhudi.write.commit.{MarkerType, Markers}

/**
 * The timeline service's marker store: requests to create markers are queued and written
 * together (all requests waiting when a write starts form one batch) into the marker folder's `MARKERS0` … `MARKERS<numFiles-1>`
 * files (one marker name per line) plus `MARKERS.type`, the layout Apache Hudi's timeline
 * server writes (hudi-format.md §7). A request completes only after the file holding its
 * marker was written, so a marker is durable before its task writes the data file.
 *
 * A batch file is replaced, not appended to (object stores cannot append): the new content goes
 * to `MARKERS<n>.tmp` first, so at every moment the files of the folder hold every marker that
 * was acknowledged, and readers (pyhudi's and Apache Hudi's) read the `.tmp` file too.
 */
final class MarkerBatcher(storage: Storage, numFiles: Int, intervalMs: Long) extends AutoCloseable {
  import MarkerBatcher.Request

  /** What one marker folder holds: the lines of each batch file. */
  private final class Folder(val path: String) {
    val files: Array[mutable.LinkedHashSet[String]] = Array.fill(numFiles)(mutable.LinkedHashSet.empty[String])
    val all: mutable.HashSet[String] = mutable.HashSet.empty[String]
    var typeWritten = false
    var next = 0
  }

  private val queue = new LinkedBlockingQueue[Request]()
  private val folders = mutable.HashMap.empty[String, Folder]
  @volatile private var closed = false

  // Writes as soon as requests are waiting: requests that arrive while a batch is being written
  // form the next batch, so batches grow with the load and a lone request waits for one write.
  private val flusher: Thread = {
    val t = new Thread(() =>
        while (!closed) {
          val first = queue.poll(intervalMs, TimeUnit.MILLISECONDS)
          if (first != null) flush(Some(first))
        },
      "pyhudi-marker-batcher")
    t.setDaemon(true)
    t.start()
    t
  }

  /** Queues a marker; the future is true once it is durable, false when the folder had it already. */
  def create(folder: String, markerName: String): CompletableFuture[Boolean] = {
    val done = new CompletableFuture[Boolean]()
    queue.add(Request(folder, markerName, done))
    done
  }

  /** Every marker of the folder, those other processes wrote included. */
  def list(folder: String): Seq[String] = synchronized(load(folder).all.toSeq.sorted)

  def exists(folder: String): Boolean = storage.exists(folder)

  /** Deletes the folder and forgets it; true when it is gone. */
  def delete(folder: String): Boolean = synchronized {
    folders.remove(folder)
    storage.delete(folder, recursive = true)
    !storage.exists(folder)
  }

  /** Forgets a folder's state after its instant ended, without touching storage. */
  def forget(folder: String): Unit = synchronized(folders.remove(folder))

  /** Writes every queued marker now. */
  def flush(): Unit = flush(None)

  private def flush(first: Option[Request]): Unit = synchronized {
    val batch = first.toSeq ++ Iterator.continually(queue.poll()).takeWhile(_ != null).toSeq
    batch.groupBy(_.folder).foreach { case (path, requests) => flushFolder(path, requests) }
  }

  private def flushFolder(path: String, requests: Seq[Request]): Unit = {
    val added = mutable.ArrayBuffer.empty[(Int, String)] // (file, marker) of this batch
    try {
      val folder = load(path)
      // One batch goes to one file (the next in turn), so a batch costs one file write however
      // large it is; the files fill evenly across batches.
      val file = folder.next
      val outcome = requests.map { r =>
        if (folder.all.contains(r.markerName)) r -> false
        else {
          folder.files(file) += r.markerName
          folder.all += r.markerName
          added += file -> r.markerName
          r -> true
        }
      }
      if (!folder.typeWritten) {
        storage.create(s"$path/${Markers.TypeFile}", MarkerType.TimelineServerBased.name.getBytes(UTF_8),
          overwrite = true)
        folder.typeWritten = true
      }
      if (added.nonEmpty) {
        replace(path, file, folder.files(file))
        folder.next = (file + 1) % numFiles
      }
      outcome.foreach { case (r, created) => r.done.complete(created) }
    } catch {
      case NonFatal(e) =>
        folders.get(path).foreach { f =>
          added.foreach { case (i, m) => f.files(i) -= m; f.all -= m }
        }
        requests.foreach(_.done.completeExceptionally(e))
    }
  }

  private def replace(folder: String, index: Int, lines: Iterable[String]): Unit = {
    val target = s"$folder/${Markers.BatchPrefix}$index"
    val tmp = s"$target.tmp"
    val bytes = lines.map(_ + "\n").mkString.getBytes(UTF_8)
    storage.create(tmp, bytes, overwrite = true)
    storage.delete(target)
    if (!storage.renameNoReplace(tmp, target)) throw new java.io.IOException(s"could not rename $tmp to $target")
  }

  /** The folder's state, read from storage the first time (a restarted service continues its files). */
  private def load(path: String): Folder = folders.getOrElseUpdate(path, {
      val folder = new Folder(path)
      val listed = if (storage.exists(path)) storage.listFiles(path) else Nil
      folder.typeWritten = listed.exists(_.path.endsWith(s"/${Markers.TypeFile}"))
      listed.map(f => f.name -> f.path)
        .filter { case (name, _) => Markers.isBatchFile(name) }
        .sortBy(_._1)
        .foreach { case (name, file) =>
          val index = name.stripPrefix(Markers.BatchPrefix).stripSuffix(".tmp").toIntOption.filter(_ < numFiles)
            .getOrElse(0)
          new String(storage.readAll(file), UTF_8).split('\n').map(_.trim).filter(_.nonEmpty).foreach { m =>
            if (folder.all.add(m)) folder.files(index) += m
          }
        }
      folder
    })

  override def close(): Unit = {
    closed = true
    flusher.join(intervalMs + 5000)
    flush()
  }
}

private object MarkerBatcher {
  final case class Request(folder: String, markerName: String, done: CompletableFuture[Boolean])
}
